"""Live followers at scale on PostgreSQL: N SSE followers over M games while moves are made.

    python benchmarks/followers.py [--followers 1000] [--games 100] [--workers 2] [--seconds 20]
                                   [--redis-url redis://127.0.0.1:6379/15]
    python benchmarks/followers.py --probe-health http://127.0.0.1:8000 [--followers 20]

Starts ``tradewinds serve`` (gevent workers, Redis for the shared caps) on a scratch PostgreSQL database
(TRADEWINDS_BENCH_POSTGRES_URL, default postgresql://postgres@127.0.0.1:5432/test; created and dropped),
makes ``--games`` Puerto Rico games of three human seats, and runs two phases of ``--seconds`` each
with the same move load (``--movers`` loops, each: GET the game, GET its legal commands, POST the
first one):

- anchor: one follower per game;
- load: ``--followers`` followers spread over the games (raw HTTP/1.0 sockets in a separate process).

For each phase it prints the p50/p99/max latency of ``GET /games/{id}`` and ``POST .../commands``, the
delivery delay (event ``recorded_at`` to receipt by the follower) p50/p99/max, and the load phase's
figures as ratios of the anchor's. Then it checks every follower got every event of its game once and
in order, and prints the server's memory per follower. All traffic stays on 127.0.0.1; every loop is
bounded in count and time.

``--probe-health URL`` instead opens followers one at a time on a new game of a running server and
says after how many ``/health`` stopped answering within 2 s (how the original design was measured).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


# -- HTTP helpers ------------------------------------------------------------------------------------
def call(base: str, method: str, path: str, body=None, token: str | None = None, timeout: float = 10.0):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(values: list[float]) -> str:
    return (
        f"p50 {percentile(values, 0.5):7.1f}  p99 {percentile(values, 0.99):7.1f}  max {max(values or [0]):7.1f} ms"
        f"  (n={len(values)})"
    )


# -- followers (their own process) -------------------------------------------------------------------
def parse_time(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC).timestamp()


def follower_process(port: int, paths: list[str], stop, ready, results) -> None:
    """Open every path as an SSE stream, read them all until ``stop``; send back what each received.

    ``ready`` is set once every stream has answered and the catch-up of the games' histories is over
    (no status line and no event, keep-alives aside, for a second)."""
    selector = selectors.DefaultSelector()
    buffers: dict[int, bytes] = {}
    received: dict[int, list[tuple[str, int, str]]] = {i: [] for i in range(len(paths))}
    delays: list[float] = []
    statuses: dict[int, int] = {}
    opened: dict[int, float] = {}
    last_news = [time.monotonic()]  # when a status line or an event last arrived (keep-alives do not count)
    socks = []

    def read(index: int, sock: socket.socket) -> None:
        try:
            data = sock.recv(262144)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            selector.unregister(sock)
            return
        now = time.time()
        buffer = buffers.get(index, b"") + data
        if index not in statuses:
            head, sep, rest = buffer.partition(b"\r\n\r\n")
            if not sep:
                buffers[index] = buffer
                return
            statuses[index] = int(head.split()[1])
            last_news[0] = time.monotonic()
            buffer = rest
        *blocks, buffer = buffer.split(b"\n\n")
        buffers[index] = buffer
        for block in blocks:
            fields = {}
            for line in block.decode().splitlines():
                if line and not line.startswith(":"):
                    name, _, value = line.partition(": ")
                    fields[name] = value
            if "event" in fields:
                last_news[0] = time.monotonic()
            if fields.get("event") == "game_event":
                data_ = json.loads(fields["data"])
                received[index].append((fields["id"], data_["version"], data_["type"]))
                recorded = parse_time(data_["recorded_at"])
                if recorded >= opened[index]:  # live, not the catch-up of the game's history
                    delays.append((now - recorded) * 1000)

    for index, path in enumerate(paths):  # connect at a bounded pace: the listen backlog is finite
        sock = socket.create_connection(("127.0.0.1", port))
        opened[index] = time.time() + 1.0  # events recorded from then on count as live
        sock.sendall(f"GET {path} HTTP/1.0\r\nHost: bench\r\n\r\n".encode())
        sock.setblocking(False)
        socks.append(sock)
        selector.register(sock, selectors.EVENT_READ, index)
        if index % 50 == 49:
            for key, _ in selector.select(0):
                read(key.data, key.fileobj)
            time.sleep(0.05)
    while not stop.is_set():
        for key, _ in selector.select(0.1):
            read(key.data, key.fileobj)
        if len(statuses) == len(paths) and time.monotonic() - last_news[0] >= 1.0:
            ready.set()
    for sock in socks:
        sock.close()
    results.put({"received": received, "delays": delays, "statuses": statuses})


# -- the move load -----------------------------------------------------------------------------------
class Movers:
    def __init__(self, base: str, games: list[dict], loops: int) -> None:
        self.base = base
        self.games = games
        self.loops = loops
        self.get_ms: list[float] = []
        self.post_ms: list[float] = []
        self.moves = 0
        self.errors = 0
        self.stop = threading.Event()

    def run(self, seconds: float) -> None:
        self.stop.clear()
        threads = [threading.Thread(target=self._loop, args=(i,), daemon=True) for i in range(self.loops)]
        for thread in threads:
            thread.start()
        time.sleep(seconds)
        self.stop.set()
        for thread in threads:
            thread.join(timeout=30)

    def _loop(self, index: int) -> None:
        mine = self.games[index :: self.loops]
        turn = 0
        while not self.stop.is_set() and mine:
            game = mine[turn % len(mine)]
            turn += 1
            start = time.monotonic()
            status, state = call(self.base, "GET", f"/games/{game['id']}")
            self.get_ms.append((time.monotonic() - start) * 1000)
            if status != 200 or not state.get("to_act"):
                continue
            token = game["tokens"][state["to_act"][0]]
            status, legal = call(self.base, "GET", f"/games/{game['id']}/legal-commands", token=token)
            if status != 200 or not legal["commands"]:
                continue
            start = time.monotonic()
            status, _ = call(
                self.base, "POST", f"/games/{game['id']}/commands", {"command": legal["commands"][0]}, token=token
            )
            self.post_ms.append((time.monotonic() - start) * 1000)
            if status == 200:
                self.moves += 1
            else:
                self.errors += 1


# -- the server ----------------------------------------------------------------------------------------
def server_rss_mb(pid: int) -> float:
    pids = [pid] + [
        int(p) for p in subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    ]
    total = 0
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def admin(base: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(sql)


def run_phase(name, port, base, games, paths, movers, seconds):
    stop, ready = multiprocessing.Event(), multiprocessing.Event()
    results = multiprocessing.Queue()
    process = multiprocessing.Process(target=follower_process, args=(port, paths, stop, ready, results), daemon=True)
    process.start()
    started = time.monotonic()
    if not ready.wait(timeout=180):
        print(f"  ({name}: the followers were not all connected and caught up within 180 s)")
    print(f"  {name}: {len(paths)} followers connected and caught up in {time.monotonic() - started:.1f} s")
    movers.get_ms, movers.post_ms, movers.moves, movers.errors = [], [], 0, 0
    movers.run(seconds)
    ready.clear()  # set again once nothing has arrived for a second: deliveries in flight are in
    ready.wait(timeout=60)
    return stop, results, process


def check(base: str, games: list[dict], paths: list[str], received: dict) -> tuple[int, int]:
    logs = {}
    for game in games:
        events, after = [], 0
        for _ in range(100):
            status, page = call(base, "GET", f"/games/{game['id']}/events?after={after}&limit=1000", timeout=60)
            events += [(f"{e['generation']}.{e['version']}", e["version"], e["type"]) for e in page["events"]]
            if page["next_after"] is None:
                break
            after = page["next_after"]
        logs[game["id"]] = events
    good = late = 0
    wrong = []
    for index, path in enumerate(paths):
        game_id = path.split("/")[2]
        got, log = [tuple(x) for x in received[index]], logs[game_id]
        if got == log:
            good += 1
        elif got == log[: len(got)]:
            late += 1  # in order, no duplicate, but the last events had not arrived when the phase ended
        else:
            wrong.append((index, game_id, got, log))
    for index, game_id, got, log in wrong[:3]:
        first = next((i for i, (a, b) in enumerate(zip(got, log)) if a != b), min(len(got), len(log)))
        print(
            f"  follower {index} of {game_id}: differs at #{first}: got {got[first : first + 3]}, "
            f"log {log[first : first + 3]} ({len(got)} received, {len(log)} in the log)"
        )
    return good, late, len(paths)


def benchmark(args) -> int:
    base_url = os.environ.get("TRADEWINDS_BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
    name = f"tradewinds_bench_{uuid.uuid4().hex[:10]}"
    admin(base_url, f"CREATE DATABASE {name}")
    database_url = urllib.parse.urlunsplit(urllib.parse.urlsplit(base_url)._replace(path=f"/{name}"))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRADEWINDS_")}
    env.update(
        {
            "TRADEWINDS_DATABASE_URL": database_url,
            "TRADEWINDS_REDIS_URL": args.redis_url,
            "TRADEWINDS_FOLLOWERS_PER_ADDRESS": str(args.followers + 100),
            "TRADEWINDS_FOLLOWERS_PER_GAME": str(args.followers),
            # one client address makes the whole load: the request rate limits would measure themselves
            "TRADEWINDS_RATE_LIMIT": "0",
            "TRADEWINDS_RATE_LIMIT_ANONYMOUS": "0",
            "TRADEWINDS_RATE_LIMIT_SEAT": "0",
        }
    )
    cmd = [
        sys.executable,
        "-m",
        "api.cli",
        "serve",
        "--port",
        str(port),
        "--workers",
        str(args.workers),
        "--worker-class",
        "gevent",
        "--connections",
        str(args.followers + 200),
    ]
    log = tempfile.NamedTemporaryFile("w+", prefix="tradewinds-followers-", suffix=".log", delete=False)
    server = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(base + "/health", timeout=1).read()
                break
            except OSError:
                time.sleep(0.2)
        print(
            f"server: {' '.join(cmd[2:])}; {args.games} games, {args.movers} move loops, {args.seconds:.0f} s a phase"
        )
        games = []
        for _ in range(args.games):
            status, game = call(
                base,
                "POST",
                "/games",
                {"game_type": "puerto_rico", "seats": [{"kind": "human", "name": f"P{i}"} for i in range(3)]},
            )
            assert status == 201, game
            games.append({"id": game["id"], "tokens": [t["token"] for t in game["seat_tokens"]]})
        movers = Movers(base, games, args.movers)
        stream = "?max_seconds=3600"  # the phase ends them
        phases = {}
        for phase, count in (("anchor", len(games)), ("load", args.followers)):
            paths = [f"/games/{games[i % len(games)]['id']}/stream{stream}" for i in range(count)]
            before = server_rss_mb(server.pid)
            stop, results, process = run_phase(phase, port, base, games, paths, movers, args.seconds)
            rss = server_rss_mb(server.pid)
            stop.set()
            outcome = results.get(timeout=120)
            process.join(timeout=30)
            refused = sum(1 for s in outcome["statuses"].values() if s != 200)
            good, late, total = check(base, games, paths, outcome["received"])
            phases[phase] = (list(movers.get_ms), list(movers.post_ms), outcome["delays"])
            print(
                f"\n{phase}: {count} followers over {len(games)} games ({refused} refused); {movers.moves} moves "
                f"({movers.errors} refused); server RSS {before:.0f} -> {rss:.0f} MB "
                f"({(rss - before) * 1024 / max(1, count):.0f} kB per follower)"
            )
            print(f"  GET /games/{{id}}      {summary(movers.get_ms)}")
            print(f"  POST .../commands     {summary(movers.post_ms)}")
            print(f"  delivery delay        {summary(outcome['delays'])}")
            print(
                f"  every event once, in order: {good}/{total} followers ({late} in order but missing the "
                f"last events when the phase ended; {total - good - late} wrong)"
            )
            time.sleep(3.0)  # the followers' slots lapse before the next phase
        print("\nload / anchor (p50, p99):")
        for label, index in (("GET /games/{id}", 0), ("POST .../commands", 1), ("delivery delay", 2)):
            a, b = phases["anchor"][index], phases["load"][index]
            print(
                f"  {label:20s} {percentile(b, 0.5) / percentile(a, 0.5):5.2f}x  "
                f"{percentile(b, 0.99) / percentile(a, 0.99):5.2f}x"
            )
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        admin(base_url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        problems = [
            line
            for line in Path(log.name).read_text().splitlines()
            if "Traceback" in line or "ERROR" in line or "WARNING" in line
        ]
        print(f"server log: {log.name} ({len(problems)} error or warning lines)")
    return 0


def probe_health(base: str, limit: int) -> int:
    status, game = call(
        base,
        "POST",
        "/games",
        {"game_type": "puerto_rico", "seats": [{"kind": "human", "name": f"P{i}"} for i in range(3)]},
    )
    assert status == 201, game
    port = urllib.parse.urlsplit(base).port
    socks = []
    try:
        for count in range(1, limit + 1):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(f"GET /games/{game['id']}/stream?max_seconds=600 HTTP/1.0\r\nHost: probe\r\n\r\n".encode())
            socks.append(sock)
            time.sleep(0.3)
            start = time.monotonic()
            try:
                urllib.request.urlopen(base + "/health", timeout=2).read()
            except OSError as exc:
                print(f"{count} followers: /health failed ({type(exc).__name__}); {count - 1} held")
                return 0
            print(f"{count} followers: /health {(time.monotonic() - start) * 1000:.1f} ms")
        print(f"/health answered with all {limit} followers open")
    finally:
        for sock in socks:
            sock.close()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--followers", type=int, default=1000)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--movers", type=int, default=4, help="concurrent move loops")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase (at most 120)")
    parser.add_argument(
        "--redis-url", default=os.environ.get("TRADEWINDS_BENCH_REDIS_URL", "redis://127.0.0.1:6379/15")
    )
    parser.add_argument("--probe-health", metavar="URL", help="probe a running server instead (see above)")
    args = parser.parse_args()
    if args.probe_health:
        return probe_health(args.probe_health.rstrip("/"), min(args.followers, 200))
    args.seconds = min(args.seconds, 120.0)
    args.followers = min(args.followers, 5000)
    return benchmark(args)


if __name__ == "__main__":
    sys.exit(main())
