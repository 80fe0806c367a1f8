"""Single-event appends per second for each event store backend.

    python benchmarks/eventstore_appends.py [--backends memory,sqlite,postgres] [--appends 2000]

Scenarios: one writer; 8 writer threads on separate streams; for PostgreSQL also 8 writer processes,
and the same with the alternative gap-free strategy (``serialize_appends=True``: a global advisory lock
held until commit) to show what it costs next to the transaction-id positions the store uses. PostgreSQL runs in a scratch database created and dropped
here (base URL from TRADEWINDS_TEST_POSTGRES_URL, default postgresql://postgres@127.0.0.1:5432/test).
SQLite runs in WAL mode with synchronous=NORMAL, in a temporary directory.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg  # noqa: E402

from eventstore.base import EventStore  # noqa: E402

WRITERS = 8
DEFAULT_BASE_URL = "postgresql://postgres@127.0.0.1:5432/test"


def _event(i: int) -> list[dict]:
    return [{"type": "GoodsShipped", "seat": i % 5, "goods": "coffee", "amount": 3}]


def _append_many(store: EventStore, stream: str, count: int) -> None:
    for i in range(count):
        store.append(stream, _event(i), i, meta={"actor": "bench"})


def one_writer(open_: Callable[[], EventStore], count: int) -> float:
    store = open_()
    try:
        stream = f"bench-{uuid.uuid4().hex[:8]}"
        store.create_stream(stream, "bench", {})
        start = time.perf_counter()
        _append_many(store, stream, count)
        return count / (time.perf_counter() - start)
    finally:
        store.close()


def batches(open_: Callable[[], EventStore], count: int, size: int = 100) -> float:
    """Events per second when one writer appends batches of ``size`` events."""
    store = open_()
    try:
        stream = f"bench-{uuid.uuid4().hex[:8]}"
        store.create_stream(stream, "bench", {})
        start = time.perf_counter()
        for i in range(count):
            store.append(stream, [_event(j)[0] for j in range(size)], i * size)
        return count * size / (time.perf_counter() - start)
    finally:
        store.close()


def threads(open_: Callable[[], EventStore], count: int) -> float:
    store = open_()
    try:
        streams = [f"bench-{uuid.uuid4().hex[:8]}" for _ in range(WRITERS)]
        for stream in streams:
            store.create_stream(stream, "bench", {})
        workers = [threading.Thread(target=_append_many, args=(store, s, count)) for s in streams]
        start = time.perf_counter()
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        return WRITERS * count / (time.perf_counter() - start)
    finally:
        store.close()


def _process_writer(url: str, serialize: bool, count: int, barrier, results) -> None:
    from eventstore.postgres import PostgresStore

    store = PostgresStore(url, min_size=1, max_size=1, serialize_appends=serialize)
    stream = f"bench-{uuid.uuid4().hex[:8]}"
    store.create_stream(stream, "bench", {})
    barrier.wait()
    start = time.time()
    _append_many(store, stream, count)
    results.put((start, time.time()))
    store.close()


def processes(url: str, serialize: bool, count: int) -> float:
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(WRITERS)
    results = ctx.Queue()
    procs = [
        ctx.Process(target=_process_writer, args=(url, serialize, count, barrier, results)) for _ in range(WRITERS)
    ]
    for p in procs:
        p.start()
    spans = [results.get(timeout=300) for _ in procs]
    for p in procs:
        p.join()
    return WRITERS * count / (max(e for _, e in spans) - min(s for s, _ in spans))


def _admin(base_url: str, sql: str) -> None:
    with psycopg.connect(base_url, autocommit=True) as conn:
        conn.execute(sql)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backends", default="memory,sqlite,postgres")
    parser.add_argument("--appends", type=int, default=2000, help="appends per writer")
    parser.add_argument(
        "--async-commit",
        action="store_true",
        help="PostgreSQL with synchronous_commit=off: not durable, shows the ceiling when fsync is slow",
    )
    args = parser.parse_args()
    backends = args.backends.split(",")
    n = args.appends

    def report(label: str, rate: float) -> None:
        unit = "events/s" if "batches" in label else "appends/s"
        print(f"{label:<52} {rate:>10,.0f} {unit}", flush=True)

    if "memory" in backends:
        from eventstore.memory import MemoryStore

        report("memory: 1 writer", one_writer(MemoryStore, n))
        report(f"memory: {WRITERS} threads, separate streams", threads(MemoryStore, n))
        report("memory: 1 writer, 100-event batches", batches(MemoryStore, n // 20))
    if "sqlite" in backends:
        from eventstore.sqlite import SqliteStore

        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bench.db")
            report("sqlite (WAL, synchronous=NORMAL): 1 writer", one_writer(lambda: SqliteStore(path), n))
            report(f"sqlite (WAL, synchronous=NORMAL): {WRITERS} threads", threads(lambda: SqliteStore(path), n // 2))
            report("sqlite: 1 writer, 100-event batches", batches(lambda: SqliteStore(path), n // 20))
    if "postgres" in backends:
        from eventstore.postgres import PostgresStore

        base = os.environ.get("TRADEWINDS_TEST_POSTGRES_URL", DEFAULT_BASE_URL)
        name = f"tradewinds_bench_{uuid.uuid4().hex[:8]}"
        _admin(base, f"CREATE DATABASE {name}")
        parts = urllib.parse.urlsplit(base)
        url = urllib.parse.urlunsplit(parts._replace(path=f"/{name}"))
        if args.async_commit:
            url += ("&" if parts.query else "?") + "options=-c%20synchronous_commit%3Doff"
        try:
            report("postgres: 1 writer", one_writer(lambda: PostgresStore(url), n))
            report(
                f"postgres: {WRITERS} threads, separate streams",
                threads(lambda: PostgresStore(url, max_size=WRITERS), n),
            )
            report(f"postgres: {WRITERS} processes, separate streams", processes(url, False, n))
            report("postgres: 1 writer, 100-event batches", batches(lambda: PostgresStore(url), n // 20))
            report(
                f"postgres, global append lock: {WRITERS} threads",
                threads(lambda: PostgresStore(url, max_size=WRITERS, serialize_appends=True), n),
            )
            report(f"postgres, global append lock: {WRITERS} processes", processes(url, True, n))
        finally:
            _admin(base, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


if __name__ == "__main__":
    main()
