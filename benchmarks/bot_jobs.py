"""Bot jobs a minute for one ``tradewinds worker``: forking a process per job (before) against in-process (after).

    python benchmarks/bot_jobs.py [--backend postgres|sqlite] [--seconds 15] [--repeat 3] [--games 20]

Starts a Redis server of its own on a free port, and uses a scratch PostgreSQL database on
TRADEWINDS_TEST_POSTGRES_URL's server (default the local one; ``--backend sqlite`` for a file). All-bot
Puerto Rico games with ``random`` bots keep the queue full; each configuration runs one worker process
for ``--seconds`` and counts the bot moves stored meanwhile. The anchor, measured in the same run, is
the same jobs run by direct calls in this process (no queue, no worker): the ratios say what the worker
and its queue cost, independent of how busy the machine is. Prints min / median / max per configuration.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from workers import jobs  # noqa: E402
from workers.runtime import Runtime  # noqa: E402

SEATS = [{"kind": "bot", "level": "random"}] * 4


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def own_redis():
    port = free_port()
    folder = tempfile.mkdtemp(prefix="tradewinds-bench-redis-")
    process = subprocess.Popen(
        [
            shutil.which("redis-server") or "redis-server",
            "--port",
            str(port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            folder,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.kill()
        process.wait()
        shutil.rmtree(folder, ignore_errors=True)


def bot_moves(runtime: Runtime, game_ids: list[str]) -> int:
    total = 0
    for gid in game_ids:
        total += len({e.meta["move"] for e in runtime.store.read(gid) if e.meta.get("actor") == "bot"})
    return total


def clear_outbox(runtime: Runtime) -> None:
    """The next configuration starts from an empty outbox: its worker would otherwise also play the
    earlier configurations' games (which is what the outbox is for), diluting the count."""
    for entry in runtime.store.list_outbox(limit=10**6):
        runtime.store.complete_outbox(entry.key, entry.token)


def new_games(runtime: Runtime, count: int) -> list[str]:
    return [runtime.service.create_game("puerto_rico", SEATS, start_bots=True)[0].info.stream for _ in range(count)]


def anchor(database_url: str, seconds: float, games: int) -> float:
    """Jobs a minute when this process calls the job function directly, one after the other."""
    runtime = Runtime.build(database_url, dispatcher="inline")
    runtime.service.dispatcher = None  # each call plays one turn: nothing is dispatched after it
    jobs.set_runtime(runtime)
    gids = [runtime.service.create_game("puerto_rico", SEATS, start_bots=False)[0].info.stream for _ in range(games)]
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for gid in gids:
            game = runtime.service.load(gid)
            if not game.over:
                done += jobs.play_bot_turn(gid, game.version, game.generation) == "played"
    rate = done / (time.perf_counter() - start) * 60
    jobs.set_runtime(None)
    clear_outbox(runtime)
    runtime.store.close()
    return rate


def worker_rate(database_url: str, redis_url: str, seconds: float, games: int, fork: bool) -> float:
    runtime = Runtime.build(database_url, redis_url, dispatcher="rq")
    runtime.dispatcher.redis.flushdb()
    gids = new_games(runtime, games)  # each queues its first bot turn
    env = {
        **os.environ,
        "TRADEWINDS_DATABASE_URL": database_url,
        "TRADEWINDS_REDIS_URL": redis_url,
        "TRADEWINDS_LOG_LEVEL": "WARNING",
    }
    command = [sys.executable, "-m", "api.cli", "worker", "--queues", "bots"] + (["--fork"] if fork else [])
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(3)  # start-up (imports, connections) is not part of the rate
        before, start = bot_moves(runtime, gids), time.perf_counter()
        time.sleep(seconds)
        after, elapsed = bot_moves(runtime, gids), time.perf_counter() - start
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    clear_outbox(runtime)
    runtime.store.close()
    return (after - before) / elapsed * 60


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="postgres", choices=["postgres", "sqlite"])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        if args.backend == "postgres":
            from tests.support.services import scratch_postgres_database

            database_url = stack.enter_context(scratch_postgres_database("tradewinds_bench"))
        else:
            database_url = f"sqlite:///{stack.enter_context(tempfile.TemporaryDirectory())}/bench.db"
        redis_url = stack.enter_context(own_redis())
        results: dict[str, list[float]] = {"anchor": [], "fork": [], "in-process": []}
        for _ in range(args.repeat):
            results["anchor"].append(anchor(database_url, args.seconds, args.games))
            results["fork"].append(worker_rate(database_url, redis_url, args.seconds, args.games, fork=True))
            results["in-process"].append(worker_rate(database_url, redis_url, args.seconds, args.games, fork=False))
        print(
            f"bot jobs a minute, one worker, random bots, {args.backend}, {args.repeat} x {args.seconds:.0f} s"
            " (min / median / max)"
        )
        for name, label in (
            ("anchor", "direct calls in one process (anchor)"),
            ("fork", "tradewinds worker --fork (before: a process per job)"),
            ("in-process", "tradewinds worker (after: runtime built once)"),
        ):
            values = results[name]
            ratios = [v / a for v, a in zip(values, results["anchor"], strict=True)]
            print(
                f"  {label:55s} {min(values):8.0f} {statistics.median(values):8.0f} {max(values):8.0f}"
                f"   ratio to anchor {min(ratios):.2f} / {statistics.median(ratios):.2f} / {max(ratios):.2f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
