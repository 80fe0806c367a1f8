"""Concurrent writers and readers, against every backend (and separate processes on PostgreSQL)."""

from __future__ import annotations

import multiprocessing
import threading
from collections import Counter

import pytest

from eventstore.base import DuplicateIdempotencyKey, EventStore, WrongExpectedVersion
from tests.eventstore.conftest import open_url

WRITERS = 8


def _run_threads(target, count: int = WRITERS) -> None:
    errors: list[BaseException] = []

    def guarded(i: int) -> None:
        try:
            target(i)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors


def test_racing_writers_on_one_version_exactly_one_wins(store: EventStore) -> None:
    store.create_stream("race", "murano", {})
    rounds = 4
    barrier = threading.Barrier(WRITERS)
    outcomes: list[tuple[int, int, str, int | None]] = []
    lock = threading.Lock()

    def writer(i: int) -> None:
        for r in range(rounds):
            barrier.wait()
            try:
                store.append("race", [{"type": "Bid", "writer": i, "round": r}], r)
                result = (r, i, "won", None)
            except WrongExpectedVersion as exc:
                assert exc.expected == r
                result = (r, i, "lost", exc.actual)
            with lock:
                outcomes.append(result)
            barrier.wait()

    _run_threads(writer)
    for r in range(rounds):
        this_round = [o for o in outcomes if o[0] == r]
        assert [o[2] for o in this_round].count("won") == 1
        assert {o[3] for o in this_round if o[2] == "lost"} == {r + 1}
    events = store.read("race")
    assert [e.version for e in events] == list(range(1, rounds + 1))
    assert [e.data["round"] for e in events] == list(range(rounds))
    assert store.verify("race").ok


def test_writers_retrying_on_conflicts_lose_nothing(store: EventStore) -> None:
    store.create_stream("busy", "murano", {})
    per_writer = 10
    conflicts = Counter()

    def writer(i: int) -> None:
        done = 0
        while done < per_writer:
            version = store.stream_info("busy").version
            try:
                store.append("busy", [{"type": "Moved", "writer": i, "n": done}], version)
                done += 1
            except WrongExpectedVersion as exc:
                assert exc.actual > version
                conflicts[i] += 1

    _run_threads(writer)
    events = store.read("busy")
    assert [e.version for e in events] == list(range(1, WRITERS * per_writer + 1))
    assert Counter((e.data["writer"], e.data["n"]) for e in events) == Counter(
        (i, n) for i in range(WRITERS) for n in range(per_writer)
    )
    assert store.verify("busy").ok


def test_concurrent_duplicate_idempotency_key_is_stored_once(store: EventStore) -> None:
    store.create_stream("idem", "murano", {})
    barrier = threading.Barrier(WRITERS)
    results: list[str] = []

    def writer(i: int) -> None:
        barrier.wait()
        try:
            store.append("idem", [{"type": "Built", "by": i}, {"type": "Paid"}], 0, idempotency_key="req-7")
            results.append("stored")
        except DuplicateIdempotencyKey:  # checked before the version: the losers are told it is a retry
            results.append("refused")

    _run_threads(writer)
    assert sorted(results) == ["refused"] * (WRITERS - 1) + ["stored"]
    assert store.stream_info("idem").version == 2
    assert store.get_idempotency("idem", "req-7").to_version == 2


def test_polling_reader_never_skips_a_position(store: EventStore) -> None:
    streams = [f"s{i}" for i in range(4)]
    for s in streams:
        store.create_stream(s, "amerigo", {})
    appends_per_writer = 25
    writers_done = threading.Event()
    collected: list[int] = []

    def reader() -> None:
        after = 0
        while True:
            finished = writers_done.is_set()
            batch = store.read_all(after_position=after, limit=7)
            for event in batch:
                assert event.position > after
                collected.append(event.position)
                after = event.position
            if finished and not batch:
                return

    def writer(i: int) -> None:
        for n in range(appends_per_writer):
            events = [{"type": "Shipped", "n": n, "part": k} for k in range(1 + n % 3)]
            store.append(streams[i], events, store.stream_info(streams[i]).version)

    follower = threading.Thread(target=reader)
    follower.start()
    _run_threads(writer, len(streams))
    writers_done.set()
    follower.join(timeout=60)
    everything = [e.position for e in store.read_all(limit=10_000)]
    assert len(everything) == len(streams) * sum(1 + n % 3 for n in range(appends_per_writer))
    assert collected == everything


def _process_writer(url: str, index: int, per_writer: int, barrier, results) -> None:
    store = open_url(url)  # each process opens its own store, after the fork
    try:
        barrier.wait(timeout=30)
        done = conflicts = 0
        while done < per_writer:
            version = store.stream_info("shared").version
            try:
                store.append("shared", [{"type": "Moved", "writer": index, "n": done}], version)
                done += 1
            except WrongExpectedVersion:
                conflicts += 1
        results.put((index, conflicts))
    finally:
        store.close()


@pytest.mark.backends("sql")
def test_writer_processes_share_one_stream(store: EventStore, store_url: str) -> None:
    store.create_stream("shared", "archipelago", {})
    per_writer = 6
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(WRITERS)
    results = ctx.Queue()
    procs = [
        ctx.Process(target=_process_writer, args=(store_url, i, per_writer, barrier, results)) for i in range(WRITERS)
    ]
    for p in procs:
        p.start()
    reports = [results.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(timeout=30)
        assert p.exitcode == 0
    assert sorted(i for i, _ in reports) == list(range(WRITERS))
    events = store.read("shared")
    assert [e.version for e in events] == list(range(1, WRITERS * per_writer + 1))
    assert Counter((e.data["writer"], e.data["n"]) for e in events) == Counter(
        (i, n) for i in range(WRITERS) for n in range(per_writer)
    )
    assert store.verify("shared").ok
    positions = [e.position for e in store.read_all(limit=10_000)]
    assert positions == sorted(set(positions)) and len(positions) == WRITERS * per_writer
