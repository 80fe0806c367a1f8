"""SQLite and PostgreSQL: tampering found by verify, and failures or crashes in the middle of an append."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import threading
import time
from contextlib import closing

import psycopg
import pytest

from eventstore.base import EventStore, StoreUnavailable
from eventstore.sqlite import SqliteStore
from tests.eventstore.conftest import open_url

pytestmark = pytest.mark.backends("sql")


def raw_sql(store_url: str, *statements: str) -> None:
    """Run statements on the store's database behind its back."""
    if store_url.startswith("sqlite:"):
        with closing(sqlite3.connect(store_url[len("sqlite://") :], isolation_level=None)) as conn:
            for statement in statements:
                conn.execute(statement)
    else:
        with psycopg.connect(store_url, autocommit=True) as conn:
            for statement in statements:
                conn.execute(statement)


def fill(store: EventStore, events: int = 5) -> None:
    store.create_stream("game-1", "murano", {})
    store.append("game-1", [{"type": "Placed", "n": n} for n in range(1, events + 1)], 0)


def assert_untouched(store: EventStore, before: list) -> None:
    info = store.stream_info("game-1")
    assert info.version == len(before)
    assert store.read("game-1") == before
    assert store.read_all() == before
    assert store.get_idempotency("game-1", "req-1") is None
    assert store.verify("game-1").ok
    appended = store.append("game-1", [{"type": "After"}], len(before))  # the store is still usable
    assert appended[0].version == len(before) + 1


def _json(store_url: str, text: str) -> str:
    return f"'{text}'" if store_url.startswith("sqlite:") else f"'{text}'::jsonb"


def test_verify_names_the_tampered_version(store: EventStore, store_url: str) -> None:
    fill(store)
    forged = _json(store_url, '{"type": "Placed", "n": 99}')
    raw_sql(store_url, "UPDATE events SET data = " + forged + " WHERE version = 3")
    report = store.verify("game-1")
    assert (report.ok, report.broken_version, report.checked) == (False, 3, 2)
    assert "3" in report.detail


def test_verify_finds_a_rewritten_hash_and_a_deleted_event(store: EventStore, store_url: str) -> None:
    fill(store)
    raw_sql(store_url, "UPDATE events SET hash = 'ff' WHERE version = 4")
    assert store.verify("game-1").broken_version == 4
    raw_sql(store_url, "UPDATE events SET meta = " + _json(store_url, '{"actor": "mallory"}') + " WHERE version = 1")
    assert store.verify("game-1").broken_version == 1


def test_verify_finds_a_missing_event(store: EventStore, store_url: str) -> None:
    fill(store)
    raw_sql(store_url, "DELETE FROM events WHERE version = 2")
    report = store.verify("game-1")
    assert (report.ok, report.broken_version) == (False, 2)


def test_failure_in_the_middle_of_a_batch_rolls_everything_back(store: EventStore, store_url: str) -> None:
    fill(store, 2)
    before = store.read("game-1")
    if store_url.startswith("sqlite:"):
        raw_sql(
            store_url,
            "CREATE TRIGGER fail_midway BEFORE INSERT ON events WHEN NEW.version = 4"
            " BEGIN SELECT RAISE(ABORT, 'disk on fire'); END",
        )
    else:
        raw_sql(
            store_url,
            "CREATE FUNCTION fail_midway() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
            " IF NEW.version = 4 THEN RAISE EXCEPTION 'disk on fire'; END IF; RETURN NEW; END $$",
            "CREATE TRIGGER fail_midway BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION fail_midway()",
        )
    with pytest.raises(Exception, match="disk on fire"):
        store.append("game-1", [{"type": "A"}, {"type": "B"}, {"type": "C"}], 2, idempotency_key="req-1")
    raw_sql(store_url, "DROP TRIGGER fail_midway" + ("" if store_url.startswith("sqlite:") else " ON events"))
    assert_untouched(store, before)


@pytest.mark.backends("postgres")
def test_connection_killed_mid_transaction_leaves_nothing(store: EventStore, store_url: str) -> None:
    fill(store, 2)
    before = store.read("game-1")
    raw_sql(
        store_url,
        "CREATE FUNCTION stall_midway() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
        " IF NEW.version = 4 THEN PERFORM pg_sleep(30); END IF; RETURN NEW; END $$",
        "CREATE TRIGGER stall_midway BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION stall_midway()",
    )
    errors: list[BaseException] = []

    def append() -> None:
        try:
            store.append("game-1", [{"type": "A"}, {"type": "B"}, {"type": "C"}], 2, idempotency_key="req-1")
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    writer = threading.Thread(target=append)
    writer.start()
    with psycopg.connect(store_url, autocommit=True) as admin:
        pid = None
        for _ in range(200):
            row = admin.execute(
                "SELECT pid FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND query LIKE '%tw_append%'"
            ).fetchone()
            if row:
                pid = row[0]
                break
            time.sleep(0.025)
        assert pid is not None, "the append never reached the middle of its batch"
        # the append has already locked the stream, recorded its key and inserted version 3
        assert admin.execute("SELECT count(*) FROM events").fetchone()[0] == 2
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    writer.join(timeout=10)
    assert len(errors) == 1 and isinstance(errors[0], StoreUnavailable)
    raw_sql(store_url, "DROP TRIGGER stall_midway ON events")
    assert_untouched(store, before)


def _crash_midway(path: str) -> None:
    store = SqliteStore(path)
    conn = store._conn()
    conn.create_function("crash", 0, lambda: os._exit(3))
    conn.execute(
        "CREATE TEMP TRIGGER crash_midway BEFORE INSERT ON main.events WHEN NEW.version = 4 BEGIN SELECT crash(); END"
    )
    store.append("game-1", [{"type": "A"}, {"type": "B"}, {"type": "C"}], 2, idempotency_key="req-1")


@pytest.mark.backends("sqlite")
def test_process_killed_mid_transaction_leaves_nothing(store: EventStore, store_url: str) -> None:
    fill(store, 2)
    before = store.read("game-1")
    process = multiprocessing.get_context("fork").Process(target=_crash_midway, args=(store_url[len("sqlite://") :],))
    process.start()
    process.join(timeout=30)
    assert process.exitcode == 3
    reopened = open_url(store_url)
    try:
        assert_untouched(reopened, before)
    finally:
        reopened.close()


def test_wait_for_append_sees_appends_by_another_store(store: EventStore, store_url: str) -> None:
    """Another store object stands for another process: SQLite wakes by polling, PostgreSQL by NOTIFY."""
    fill(store, 1)
    last = store.read_all()[-1].position
    other = open_url(store_url)
    try:
        assert store.wait_for_append(last, timeout=0.1) is False  # the listener (if any) is running now

        def append_later() -> None:
            time.sleep(0.1)
            other.append("game-1", [{"type": "Elsewhere"}], 1)

        writer = threading.Thread(target=append_later)
        started = time.monotonic()
        writer.start()
        assert store.wait_for_append(last, timeout=5.0) is True
        assert time.monotonic() - started < 0.9  # PostgreSQL polls only every second: this was a NOTIFY
        writer.join()
    finally:
        other.close()


def test_schema_version_records_each_migration_once(store: EventStore, store_url: str) -> None:
    from eventstore import postgres_schema, sqlite

    store.migrate()
    reopened = open_url(store_url)
    reopened.close()
    expected = sqlite.MIGRATIONS if store_url.startswith("sqlite:") else postgres_schema.MIGRATIONS
    if store_url.startswith("sqlite:"):
        with closing(sqlite3.connect(store_url[len("sqlite://") :])) as conn:
            versions = [v for (v,) in conn.execute("SELECT version FROM schema_version ORDER BY version")]
    else:
        with psycopg.connect(store_url) as conn:
            versions = [v for (v,) in conn.execute("SELECT version FROM schema_version ORDER BY version")]
    assert versions == list(range(1, len(expected) + 1))
