"""PostgreSQL: positions of an append that commits late are never skipped, and what holds followers back."""

from __future__ import annotations

import psycopg
import pytest

from eventstore.base import EventStore, StoreUnavailable, canonical_json
from tests.support.services import postgres_base_url

pytestmark = [pytest.mark.postgres, pytest.mark.backends("postgres")]


def open_append(url: str, stream: str) -> psycopg.Connection:
    """A connection with an uncommitted one-event append on ``stream`` (an append that commits late)."""
    conn = psycopg.connect(url)
    data = canonical_json({"type": "Late"})
    conn.execute("SELECT * FROM tw_append(%s, 0, %s, '{}', NULL, '', false)", (stream, [data]))
    return conn


def test_an_append_that_commits_late_is_not_skipped(store: EventStore, store_url: str) -> None:
    store.create_stream("slow", "murano", {})
    store.create_stream("fast", "murano", {})
    late = open_append(store_url, "slow")  # started first: the smaller transaction id
    try:
        fast = store.append("fast", [{"type": "Early"}], 0)[0]
        # the fast append committed, but a reader must not move past the slow one's position yet
        assert store.read_all() == []
        assert store.wait_for_append(0, timeout=0.05) is False
        late.commit()
    finally:
        late.close()
    everything = store.read_all()
    assert [e.type for e in everything] == ["Late", "Early"]
    assert everything[1] == fast and everything[0].position < fast.position
    assert store.verify("slow").ok


def test_a_write_transaction_in_another_database_does_not_hold_followers_back(store: EventStore) -> None:
    store.create_stream("game", "murano", {})
    with psycopg.connect(postgres_base_url()) as elsewhere:
        elsewhere.execute("SELECT pg_current_xact_id()")  # a transaction with an id, left open
        stored = store.append("game", [{"type": "Seen"}], 0)
        assert store.read_all() == stored
        elsewhere.rollback()


def test_a_rolled_back_append_leaves_a_harmless_gap(store: EventStore, store_url: str) -> None:
    store.create_stream("slow", "murano", {})
    store.create_stream("fast", "murano", {})
    late = open_append(store_url, "slow")
    fast = store.append("fast", [{"type": "Early"}], 0)
    late.rollback()
    late.close()
    assert store.read_all() == fast
    assert store.stream_info("slow").version == 0


def _terminate_other_backends(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as admin:
        return admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()[0]


def test_the_store_recovers_when_its_connections_are_killed(store: EventStore, store_url: str) -> None:
    store.create_stream("game", "murano", {})
    store.append("game", [{"type": "Before"}], 0)
    assert store.wait_for_append(0, timeout=0.1) is True  # starts the listener
    assert _terminate_other_backends(store_url) >= 1
    outcomes = []
    for _ in range(15):  # each dead pooled connection fails one call cleanly, then is replaced
        try:
            outcomes.append(len(store.read("game")))
            break
        except StoreUnavailable as exc:
            assert "\n" not in str(exc)
            outcomes.append("unavailable")
    assert outcomes[-1] == 1
    last = store.read_all()[-1].position
    store.append("game", [{"type": "After"}], 1)
    assert store.wait_for_append(last, timeout=5.0) is True
    assert [e.type for e in store.read("game")] == ["Before", "After"]


def test_the_serialised_append_variant_still_works(store_url: str) -> None:
    from eventstore.postgres import PostgresStore

    locked = PostgresStore(store_url, serialize_appends=True)
    try:
        locked.create_stream("game", "murano", {})
        stored = locked.append("game", [{"type": "A"}, {"type": "B"}], 0)
        assert locked.read_all() == stored and locked.verify("game").ok
    finally:
        locked.close()


def test_a_busy_pool_is_not_taken_for_a_lost_server(store_url: str) -> None:
    """Every connection in use and a caller's wait running out is no sign the server is gone: the next caller waits
    the pool's whole time again, not the short wait kept for an unreachable server (``LOST_WAIT``)."""
    import threading
    import time

    from eventstore.postgres import LOST_WAIT, PostgresStore

    busy = PostgresStore(store_url, min_size=1, max_size=1)
    busy._timeout = LOST_WAIT + 1.0
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with busy._connection():
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(5)
        waits = []
        for _ in range(2):
            began = time.monotonic()
            with pytest.raises(StoreUnavailable):
                busy.ping()
            waits.append(time.monotonic() - began)
        assert min(waits) >= LOST_WAIT + 0.9, waits
    finally:
        release.set()
        holder.join()
        busy.close()
