"""Moves per second and server CPU per move through `tradewinds serve`, as ratios to a trivial Flask endpoint.

    python benchmarks/server_throughput.py                      # SQLite and PostgreSQL, 1/8/32 clients
    python benchmarks/server_throughput.py --tree /tmp/tw-main   # the same, serving another checkout

For each store, the server is `tradewinds serve` (its default worker count, one per core, and classes, no
Redis), started
from ``--tree``. The anchor is a trivial Flask endpoint (``GET /trivial`` answering a small JSON object)
served by the same gunicorn set-up (the same worker class, processes and threads), measured in the same run.

A client plays a 4-player Puerto Rico game of random legal moves; a **move cycle** is what a client does for
one move: ``GET /games/{id}``, ``GET /games/{id}/legal-commands`` and ``POST /games/{id}/commands``. The
anchor's cycle is three ``GET /trivial``. Clients run on threads spread over a few client processes, each
on its own keep-alive connection. Per point (store, clients) it prints, min / median / max over
``--repeat`` runs:

- moves/s, and the ratio moves/s ÷ anchor cycles/s (1.0: a move costs the server what three trivial
  requests cost);
- server CPU per move cycle (every process of the server: master, request workers, job runner) and its
  ratio to the anchor's CPU per cycle;
- moves/s as a ratio to the database's raw rate: clients (as many, on as many processes) that only INSERT one
  event-sized row and COMMIT, on the same database (SQLite with the store's WAL and ``synchronous``
  settings), measured in the same run;
- POST latency p50 / p95 / p99 (ms).

With ``--bot-games N`` (default 2) it then starts N all-bot ``hard`` games on the same server and measures
the same clients again (at ``--bot-clients``, default 8): moves/s and POST p95 with the bots searching, as
ratios to the figures without them (the issue's target: ≥ 0.8× moves/s, ≤ 1.5× p95).
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLIENT_PROCESSES = 4
SEATS = [{"kind": "human"}] * 4
BOT_SEATS = [{"kind": "bot", "level": "hard"}] * 4


# ----------------------------------------------------------------------------------- the anchor server
def anchor_main(port: int, workers: int, threads: int, worker_class: str) -> None:
    """A trivial Flask app under the same gunicorn set-up as `serve` (run in its own process)."""
    from flask import Flask
    from gunicorn.app.base import BaseApplication

    from api.server import WORKER_CLASSES

    app = Flask("trivial")

    @app.get("/trivial")
    def trivial():
        return {"ok": True, "version": 1}

    class Server(BaseApplication):
        def load_config(self):
            self.cfg.set("bind", f"127.0.0.1:{port}")
            self.cfg.set("workers", workers)
            self.cfg.set("worker_class", WORKER_CLASSES[worker_class])
            self.cfg.set("threads", threads)
            self.cfg.set("accesslog", None)
            if "control_socket" in self.cfg.settings:
                self.cfg.set("control_socket_disable", True)

        def load(self):
            return app

    Server().run()


# ---------------------------------------------------------------------------------------- helpers
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def process_tree(pid: int) -> list[int]:
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(entry.name))
    tree, todo = [], [pid]
    while todo:
        current = todo.pop()
        tree.append(current)
        todo.extend(parents.get(current, []))
    return tree


def cpu_seconds(pids: list[int]) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def wait_up(port: int, path: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"the server on port {port} did not answer {path} within {timeout} s")


@contextmanager
def running(command: list[str], cwd: Path, env: dict[str, str], port: int, probe: str):
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_up(port, probe)
        time.sleep(1.0)  # let the runner and the workers finish starting
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


# ---------------------------------------------------------------------------------------- clients
class Client:
    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method: str, path: str, body=None, token: str | None = None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body)
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
        except (http.client.HTTPException, OSError):
            self.conn.close()
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
        raw = response.read()
        return response.status, (json.loads(raw) if raw else {})


def play(port: int, anchor: bool, start: float, stop: float, seed: int, out: list) -> None:
    """One client: move cycles between ``start`` and ``stop``; appends (cycles, post latencies, errors)."""
    client = Client(port)
    rng = random.Random(seed)
    cycles, latencies, errors = 0, [], 0
    game = None
    while True:
        if not anchor and game is None:
            status, body = client.call("POST", "/games", {"game_type": "puerto_rico", "seats": SEATS})
            game = (body["id"], {t["seat"]: t["token"] for t in body["seat_tokens"]})
        now = time.time()
        if now < start:
            time.sleep(min(start - now, 0.05))
            continue
        if now >= stop:
            break
        began = time.perf_counter()
        if anchor:
            for _ in range(3):
                status, _ = client.call("GET", "/trivial")
                errors += status != 200
            latencies.append(time.perf_counter() - began)
        else:
            game_id, tokens = game
            status, state = client.call("GET", f"/games/{game_id}")
            if status != 200 or not state["to_act"]:
                errors += status != 200
                game = None
                continue
            seat = state["to_act"][0]
            status, legal = client.call("GET", f"/games/{game_id}/legal-commands", token=tokens[seat])
            if status != 200 or not legal["commands"]:
                errors += 1
                continue
            posted = time.perf_counter()
            status, _ = client.call(
                "POST", f"/games/{game_id}/commands", {"command": rng.choice(legal["commands"])}, token=tokens[seat]
            )
            latencies.append(time.perf_counter() - posted)
            errors += status != 200
        if time.time() <= stop:
            cycles += 1
    out.append((cycles, latencies, errors))


def client_process(port: int, anchor: bool, threads: int, start: float, stop: float, seed: int, queue) -> None:
    out: list = []
    workers = [
        threading.Thread(target=play, args=(port, anchor, start, stop, seed * 1000 + i, out)) for i in range(threads)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    queue.put(out)


def measure(server_pid: int, port: int, anchor: bool, clients: int, duration: float) -> dict:
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    processes = min(clients, CLIENT_PROCESSES)
    shares = [clients // processes + (1 if i < clients % processes else 0) for i in range(processes)]
    start = time.time() + 1.5 + 0.05 * clients
    stop = start + duration
    procs = [
        ctx.Process(target=client_process, args=(port, anchor, share, start, stop, i + 1, queue))
        for i, share in enumerate(shares)
    ]
    for proc in procs:
        proc.start()
    pids = process_tree(server_pid)
    time.sleep(max(0.0, start - time.time()))
    cpu_before = cpu_seconds(pids)
    time.sleep(max(0.0, stop - time.time()))
    cpu_after = cpu_seconds(pids)
    results = [item for _ in procs for item in queue.get()]
    for proc in procs:
        proc.join()
    cycles = sum(r[0] for r in results)
    latencies = sorted(x for r in results for x in r[1])
    errors = sum(r[2] for r in results)

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000 if latencies else float("nan")

    return {
        "per_s": cycles / duration,
        "cpu_ms": (cpu_after - cpu_before) * 1000 / cycles if cycles else float("nan"),
        "p50": pct(0.50),
        "p95": pct(0.95),
        "p99": pct(0.99),
        "errors": errors,
    }


def spread(values: list[float], fmt: str = "{:.2f}") -> str:
    return "/".join(fmt.format(v) for v in (min(values), statistics.median(values), max(values)))


# ------------------------------------------------------------------------------- the raw-commit anchor
RAW_PAYLOAD = json.dumps({"type": "RoleSelected", "seat": 1, "role": "builder", "pad": "x" * 240})


def raw_connect(url: str):
    """A plain connection to the benchmark's database: psycopg, or sqlite3 with the store's own settings
    (WAL, ``synchronous=NORMAL``, as ``eventstore.sqlite``)."""
    if url.startswith("sqlite:"):
        import sqlite3

        conn = sqlite3.connect(url.split("sqlite:///", 1)[1], timeout=30, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA busy_timeout=30000")
        return conn, "?"
    import psycopg

    return psycopg.connect(url), "%s"


def raw_commits(url: str, start: float, stop: float, seed: int, out: list) -> None:
    """One client of the anchor: INSERT one event-sized row and COMMIT, again and again."""
    conn, mark = raw_connect(url)
    sql = f"INSERT INTO raw_anchor (stream, version, data) VALUES ({mark}, {mark}, {mark})"
    commits, version = 0, 0
    while time.time() < start:
        time.sleep(0.01)
    while time.time() < stop:
        version += 1
        if mark == "?":
            conn.execute("BEGIN")
        conn.execute(sql, (f"s{seed}", version, RAW_PAYLOAD))
        conn.commit() if mark == "%s" else conn.execute("COMMIT")
        commits += 1
    conn.close()
    out.append(commits)


def raw_process(url: str, threads: int, start: float, stop: float, seed: int, queue) -> None:
    out: list = []
    workers = [
        threading.Thread(target=raw_commits, args=(url, start, stop, seed * 1000 + i, out)) for i in range(threads)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    queue.put(sum(out))


def measure_raw(url: str, clients: int, duration: float) -> float:
    """Durable INSERT+COMMIT per second at ``clients`` concurrent connections (client processes as for the
    moves)."""
    conn, _ = raw_connect(url)
    serial = "INTEGER PRIMARY KEY" if url.startswith("sqlite:") else "BIGSERIAL PRIMARY KEY"
    conn.execute(f"CREATE TABLE IF NOT EXISTS raw_anchor (id {serial}, stream TEXT, version INTEGER, data TEXT)")
    conn.commit() if not url.startswith("sqlite:") else None
    conn.close()
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    processes = min(clients, CLIENT_PROCESSES)
    shares = [clients // processes + (1 if i < clients % processes else 0) for i in range(processes)]
    start = time.time() + 1.0
    stop = start + duration
    procs = [
        ctx.Process(target=raw_process, args=(url, share, start, stop, i + 1, queue)) for i, share in enumerate(shares)
    ]
    for proc in procs:
        proc.start()
    total = sum(queue.get() for _ in procs)
    for proc in procs:
        proc.join()
    return total / duration


# ------------------------------------------------------------------------------------------ stores
@contextmanager
def store_url(kind: str):
    if kind == "sqlite":
        with tempfile.TemporaryDirectory(prefix="tw-bench-") as folder:
            yield f"sqlite:///{folder}/bench.db", folder
        return
    sys.path.insert(0, str(ROOT))
    from tests.support.services import scratch_postgres_database

    with scratch_postgres_database("tradewinds_bench") as url, tempfile.TemporaryDirectory() as folder:
        yield url, folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    parser.add_argument("--stores", default="sqlite,postgresql")
    parser.add_argument("--clients", default="1,8,32")
    parser.add_argument("--duration", type=float, default=5.0, help="seconds per measurement")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bot-games", type=int, default=2, help="all-bot hard games started for the bot check")
    parser.add_argument("--bot-clients", type=int, default=8)
    parser.add_argument("--anchor", nargs=4, metavar=("PORT", "WORKERS", "THREADS", "CLASS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.anchor:
        anchor_main(int(args.anchor[0]), int(args.anchor[1]), int(args.anchor[2]), args.anchor[3])
        return 0
    tree = args.tree.resolve()
    clients = [int(c) for c in args.clients.split(",")]
    print(f"serving {tree}; {os.cpu_count()} cores; {args.duration:.0f} s per point, {args.repeat} repeats")
    print("figures: min/median/max over the repeats")
    for kind in args.stores.split(","):
        with store_url(kind) as (url, folder):
            env = {k: v for k, v in os.environ.items() if not k.startswith("TRADEWINDS_")}
            env.update({"TRADEWINDS_DATABASE_URL": url, "TRADEWINDS_DATA_DIR": folder, "PYTHONPATH": str(tree)})
            # the whole load comes from one address: switch the request rate limits off (0 = off)
            env.update({f"TRADEWINDS_RATE_LIMIT{s}": "0" for s in ("", "_ANONYMOUS", "_SEAT")})
            port = free_port()
            serve = [sys.executable, "-m", "api.cli", "serve", "--port", str(port), "--data-dir", folder]
            workers = int(os.environ.get("TRADEWINDS_WORKERS") or 0) or None
            with running(serve, tree, env, port, "/health") as server:
                runs = {
                    c: [measure(server.pid, port, False, c, args.duration) for _ in range(args.repeat)] for c in clients
                }
                bot_check = None
                if args.bot_games:
                    quiet = [
                        measure(server.pid, port, False, args.bot_clients, args.duration) for _ in range(args.repeat)
                    ]
                    key = integrator_key(tree, env, folder)  # games of bots only are an integrator's
                    for _ in range(args.bot_games):
                        status, body = Client(port).call(
                            "POST", "/games", {"game_type": "puerto_rico", "seats": BOT_SEATS}, token=key
                        )
                        if status != 201:
                            raise SystemExit(f"could not start an all-bot game: {status} {body}")
                    time.sleep(2.0)
                    busy = [
                        measure(server.pid, port, False, args.bot_clients, args.duration) for _ in range(args.repeat)
                    ]
                    bot_check = (quiet, busy)
                # counted while the server runs (every worker has booted by now)
                request_workers = workers or _request_workers(process_tree(server.pid))
            anchor_port = free_port()
            anchor_cmd = [sys.executable, str(Path(__file__).resolve()), "--anchor", str(anchor_port)]
            anchor_cmd += [str(request_workers), "32", "gthread"]
            with running(anchor_cmd, tree, env, anchor_port, "/trivial") as anchor:
                anchors = {
                    c: [measure(anchor.pid, anchor_port, True, c, args.duration) for _ in range(args.repeat)]
                    for c in clients
                }
            raws = {c: [measure_raw(url, c, args.duration) for _ in range(args.repeat)] for c in clients}
            print(f"\n{kind} ({request_workers} request worker process(es)):")
            for c in clients:
                moves, base, raw = runs[c], anchors[c], raws[c]
                raw_ratio = [m["per_s"] / r for m, r in zip(moves, raw, strict=True)]
                ratio = [m["per_s"] / a["per_s"] for m, a in zip(moves, base, strict=True)]
                cpu_ratio = [m["cpu_ms"] / a["cpu_ms"] for m, a in zip(moves, base, strict=True)]
                print(
                    f"  {c:>2} clients: {spread([m['per_s'] for m in moves], '{:.0f}')} moves/s"
                    f" (trivial cycles/s {spread([a['per_s'] for a in base], '{:.0f}')}; ratio {spread(ratio)});"
                    f" server CPU/cycle {spread([m['cpu_ms'] for m in moves])} ms"
                    f" (trivial {spread([a['cpu_ms'] for a in base])} ms; ratio {spread(cpu_ratio)});"
                    f" raw INSERT+COMMIT/s {spread(raw, '{:.0f}')} (moves/s ratio {spread(raw_ratio)});"
                    f" POST p50/p95/p99 {statistics.median(m['p50'] for m in moves):.1f}/"
                    f"{statistics.median(m['p95'] for m in moves):.1f}/{statistics.median(m['p99'] for m in moves):.1f} ms;"
                    f" errors {sum(m['errors'] for m in moves)}"
                )
            if bot_check:
                quiet, busy = bot_check
                print(
                    f"  with {args.bot_games} all-bot hard games, {args.bot_clients} clients:"
                    f" {spread([b['per_s'] for b in busy], '{:.0f}')} moves/s against"
                    f" {spread([q['per_s'] for q in quiet], '{:.0f}')} without"
                    f" (ratio {spread([b['per_s'] / q['per_s'] for b, q in zip(busy, quiet, strict=True)])});"
                    f" POST p95 {spread([b['p95'] for b in busy], '{:.1f}')} ms against"
                    f" {spread([q['p95'] for q in quiet], '{:.1f}')} ms"
                    f" (ratio {spread([b['p95'] / q['p95'] for b, q in zip(busy, quiet, strict=True)])})"
                )
    return 0


def integrator_key(tree: Path, env: dict[str, str], folder: str) -> str:
    """A new integrator API key on the served store (`tradewinds apikey create`)."""
    made = subprocess.run(
        [sys.executable, "-m", "api.cli", "apikey", "create", "--name", "benchmark", "--data-dir", folder],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return made.stdout.strip().splitlines()[-1]


def _request_workers(pids: list[int]) -> int:
    """gunicorn's request workers among the server's processes (the master, and the runner's supervisor and
    runner when present, are not)."""
    master = pids[0]
    children = [p for p in pids if _ppid(p) == master]
    supervisors = [p for p in children if any(_ppid(q) == p for q in pids)]
    return max(1, len(children) - len(supervisors))


def _ppid(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return -1


if __name__ == "__main__":
    sys.exit(main())
