"""Upgrading a store written in the first chain format: the migration re-hashes and signs every stream.

Given a database at schema version 1 (hashes over version, data and meta only, chained from zeros,
and a pickled snapshot), when a store of this version opens it with a signer, then every stream
verifies in the current format, its head carries a valid signature, and the old snapshot rows are gone.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3

import psycopg
import pytest

from eventstore.base import GENESIS_HASH, canonical_json, head_message
from eventstore.postgres import PostgresStore
from eventstore.postgres_schema import MIGRATIONS as PG_MIGRATIONS
from eventstore.sqlite import MIGRATIONS as SQLITE_MIGRATIONS
from eventstore.sqlite import SqliteStore
from tests.support.services import scratch_postgres_database
from workers.signing import ServerKey, signature_valid

EVENTS = [{"type": "GameStarted", "seats": 2}, {"type": "Moved", "to": [1, 2]}, {"type": "Ended"}]
META = {"actor": "human", "seat": 0, "move": "m1"}


def old_hashes() -> list[str]:
    previous, out = GENESIS_HASH, []
    for version, data in enumerate(EVENTS, start=1):
        payload = canonical_json({"version": version, "data": data, "meta": META})
        previous = hashlib.sha256((previous + payload).encode()).hexdigest()
        out.append(previous)
    return out


def check_upgraded(store, key: ServerKey) -> None:
    report = store.verify("old-game")
    assert report.ok, report.detail
    assert (report.version, report.head_hash) == (3, store.read("old-game")[-1].hash)
    assert report.head_hash != old_hashes()[-1]
    assert signature_valid(key.public_key, head_message("old-game", 0, 3, report.head_hash), report.head_signature)
    assert store.stream_info("old-game").creation == {"seats": [{"name": "Ann"}, {"name": "Bo"}]}
    assert store.load_snapshot("old-game", 0, 10, "k") is None
    store.append("old-game", [{"type": "After"}], 3)
    assert store.verify("old-game").ok


def test_sqlite_store_of_the_first_format_is_rehashed_and_signed(tmp_path):
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
    for statement in SQLITE_MIGRATIONS[0]:
        conn.execute(statement)
    conn.execute("INSERT INTO schema_version VALUES (1, '2026-11-01T00:00:00.000000Z')")
    hashes = old_hashes()
    conn.execute(
        "INSERT INTO streams VALUES ('old-game', 'secret_numbers', '2026-11-01T00:00:00.000000Z', 'active',"
        " 3, 0, ?, ?)",
        (hashes[-1], json.dumps({"seats": [{"name": "Ann"}, {"name": "Bo"}]})),
    )
    for version, (data, digest) in enumerate(zip(EVENTS, hashes, strict=True), start=1):
        conn.execute(
            "INSERT INTO events (stream, version, generation, data, meta, hash, recorded_at)"
            " VALUES ('old-game', ?, 0, ?, ?, ?, '2026-11-01T00:00:01.000000Z')",
            (version, canonical_json(data), canonical_json(META), digest),
        )
    conn.execute("INSERT INTO snapshots VALUES ('old-game', 0, 'k', 2, ?)", (b"\x80\x04pickled",))
    conn.close()
    key = ServerKey.generate()
    store = SqliteStore(path, signer=key.sign)
    try:
        check_upgraded(store, key)
    finally:
        store.close()


@pytest.mark.postgres
def test_postgres_store_of_the_first_format_is_rehashed_and_signed():
    with scratch_postgres_database("tradewinds_migration") as url:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(
                "CREATE TABLE schema_version (version integer PRIMARY KEY,"
                " applied_at timestamptz NOT NULL DEFAULT now())"
            )
            for statement in PG_MIGRATIONS[0]:
                conn.execute(statement)
            conn.execute("INSERT INTO schema_version (version) VALUES (1)")
            hashes = old_hashes()
            conn.execute(
                "INSERT INTO event_streams (stream, game_type, created_at, status, version, generation,"
                " last_hash, metadata) VALUES ('old-game', 'secret_numbers', '2026-11-01T00:00:00Z',"
                " 'active', 3, 0, %s, %s)",
                (hashes[-1], json.dumps({"seats": [{"name": "Ann"}, {"name": "Bo"}]})),
            )
            for version, (data, digest) in enumerate(zip(EVENTS, hashes, strict=True), start=1):
                conn.execute(
                    "INSERT INTO events (position, stream, version, generation, data, meta, hash, recorded_at)"
                    " VALUES (%s, 'old-game', %s, 0, %s, %s, %s, '2026-11-01T00:00:01Z')",
                    (version, version, canonical_json(data), canonical_json(META), digest),
                )
            conn.execute("INSERT INTO snapshots VALUES ('old-game', 0, 'k', 2, %s)", (b"\x80\x04pickled",))
        key = ServerKey.generate()
        store = PostgresStore(url, signer=key.sign)
        try:
            check_upgraded(store, key)
        finally:
            store.close()
