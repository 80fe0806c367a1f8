"""Writers of one SQLite file take turns in a queue (``eventstore.writer_lock``): never two at once, across the
threads of a process, across processes, and across a fork (a child must not share its parent's turn)."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from pathlib import Path

import pytest

from eventstore.base import StoreUnavailable
from eventstore.sqlite import SqliteStore
from eventstore.writer_lock import WriterLock

ROUNDS = 40


def bump(lock: WriterLock, counter: Path, rounds: int = ROUNDS) -> None:
    """Add 1 to the number in ``counter`` ``rounds`` times, each a slow read-then-write inside the lock: two
    writers let in at once would lose updates."""
    for _ in range(rounds):
        with lock.held(30):
            value = int(counter.read_text())
            time.sleep(0.0005)
            counter.write_text(str(value + 1))


def test_threads_of_one_process_write_one_at_a_time(tmp_path):
    counter = tmp_path / "counter"
    counter.write_text("0")
    lock = WriterLock(str(tmp_path / "db"))
    threads = [threading.Thread(target=bump, args=(lock, counter)) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert int(counter.read_text()) == 6 * ROUNDS


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork (the way serve starts its request processes)")
def test_processes_forked_from_one_that_wrote_take_turns_with_it_and_with_each_other(tmp_path):
    """A lock used before a fork (a server that opened its store, then forked its request processes) must still
    keep the children apart: an inherited lock file would let every process in at once."""
    counter = tmp_path / "counter"
    counter.write_text("0")
    lock = WriterLock(str(tmp_path / "db"))
    bump(lock, counter, 1)  # the parent has its lock file open before the fork
    fork = multiprocessing.get_context("fork")
    children = [fork.Process(target=bump, args=(lock, counter)) for _ in range(3)]
    for child in children:
        child.start()
    bump(lock, counter)
    for child in children:
        child.join(60)
        assert child.exitcode == 0
    assert int(counter.read_text()) == 1 + 4 * ROUNDS


def test_a_store_append_waits_for_the_turn_of_the_writer_ahead_of_it(tmp_path):
    """The store's writing transactions queue on the lock: while another writer holds its turn, an append waits,
    and goes through once the turn is given back."""
    store = SqliteStore(tmp_path / "events.db")
    try:
        store.create_stream("s", "t", {})
        done = threading.Event()

        def append() -> None:
            store.append("s", [{"type": "x"}], expected_version=0)
            done.set()

        other = WriterLock(store.path)  # another process's writer, as far as the lock file is concerned
        with other.held(30):
            writer = threading.Thread(target=append)
            writer.start()
            assert not done.wait(0.3), "the append went ahead of the writer holding the turn"
        writer.join(10)
        assert done.is_set() and store.stream_info("s").version == 1
    finally:
        store.close()


def test_a_writer_that_gets_no_turn_in_the_store_s_busy_timeout_is_told_the_store_is_unavailable(tmp_path):
    """A writer that holds its turn and hangs (in this process or another) must not hang every other writer with
    it: after the store's ``busy_timeout`` an append fails as SQLite's own wait failed, and the store recovers."""
    store = SqliteStore(tmp_path / "events.db", busy_timeout=0.2)
    try:
        store.create_stream("s", "t", {})
        for holder in (WriterLock(store.path), store._writers):  # another process's writer, then one of this one
            held = threading.Event()
            let_go = threading.Event()

            def hold(holder: WriterLock, held: threading.Event, let_go: threading.Event) -> None:
                with holder.held(5):
                    held.set()
                    let_go.wait(10)

            thread = threading.Thread(target=hold, args=(holder, held, let_go))
            thread.start()
            held.wait(5)
            with pytest.raises(StoreUnavailable, match="busy"):
                store.append("s", [{"type": "x"}], expected_version=store.stream_info("s").version)
            let_go.set()
            thread.join(10)
        store.append("s", [{"type": "x"}], expected_version=0)
        assert store.stream_info("s").version == 1
    finally:
        store.close()


def test_closing_while_a_writer_holds_its_turn_leaves_that_writer_whole(tmp_path):
    """A store closed at shutdown while a writer is still in its transaction: the lock file stays open for that
    writer (closing it would let another process in beside it, and its release would fail), and closes after."""
    lock = WriterLock(str(tmp_path / "db"))
    held = threading.Event()
    let_go = threading.Event()
    failures: list[BaseException] = []

    def hold() -> None:
        try:
            with lock.held(5):
                held.set()
                let_go.wait(10)
        except BaseException as exc:  # noqa: BLE001 - the test reports it
            failures.append(exc)

    thread = threading.Thread(target=hold)
    thread.start()
    held.wait(5)
    lock.close(timeout=0.1)
    other = WriterLock(lock.file[: -len("-writer")] if lock.file else None)
    with pytest.raises(TimeoutError):
        other.acquire(0.1)  # the writer still holds the file's lock
    let_go.set()
    thread.join(10)
    assert not failures and lock._fd is None  # the writer closed it as it gave the turn back
    with other.held(1):
        pass
    done = WriterLock(str(tmp_path / "other.db"))
    with done.held(1):
        pass
    done.close()
    assert done._fd is None


def test_a_store_closed_while_an_append_is_in_its_transaction_lets_the_append_finish(tmp_path, monkeypatch):
    """A store closed at shutdown while an append is between BEGIN and COMMIT: the close waits for it, and the
    append commits (not "Cannot operate on a closed database", a 500); a write after the close is refused as the
    store being unavailable (a 503)."""
    import eventstore.sqlite as sqlite_store

    store = SqliteStore(tmp_path / "events.db")
    store.create_stream("s", "t", {})
    inside, go_on = threading.Event(), threading.Event()
    real_write_outbox = sqlite_store.write_outbox

    def slow_write_outbox(conn, work):
        inside.set()
        go_on.wait(10)
        real_write_outbox(conn, work)

    monkeypatch.setattr(sqlite_store, "write_outbox", slow_write_outbox)
    failures: list[BaseException] = []

    def append() -> None:
        try:
            store.append("s", [{"type": "x"}], expected_version=0)
        except BaseException as exc:  # noqa: BLE001 - the test reports it
            failures.append(exc)

    writer = threading.Thread(target=append)
    writer.start()
    inside.wait(5)
    threading.Timer(0.3, go_on.set).start()
    store.close()
    writer.join(10)
    assert not failures, failures
    with pytest.raises(StoreUnavailable):
        store.put_document("c", "k", {"a": 1})
    reopened = SqliteStore(tmp_path / "events.db")
    try:
        assert reopened.stream_info("s").version == 1
    finally:
        reopened.close()


def test_a_counters_file_busy_beyond_its_wait_is_unavailable_not_an_error(tmp_path, monkeypatch):
    """The request processes' shared counters: a turn that does not come within their wait is a 503 (the store
    unavailable), not an OperationalError that only the rate limits would catch (a follower's slot would be a 500)."""
    from api import counters

    monkeypatch.setattr(counters, "BUSY_SECONDS", 0.1)
    path = str(tmp_path / "counters.sqlite3")
    file = counters.CounterFile(path)
    with WriterLock(path).held(5):  # another process's writer that does not let go
        with pytest.raises(StoreUnavailable):
            file.take([("game", 3)], "slot-1", 30)
        with pytest.raises(StoreUnavailable):
            file.hit("key", 60)
    assert file.take([("game", 3)], "slot-1", 30) is None and file.hit("key", 60)[0] == 1
