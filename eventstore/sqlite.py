"""The embedded default store: one SQLite file in WAL mode, a connection per thread.

Appends run in ``BEGIN IMMEDIATE`` transactions, so writers (threads or processes) are serialised by
SQLite's write lock and positions become visible in position order: a polling ``read_all`` never skips. Writers
wait their turn in a queue (``eventstore.writer_lock``) rather than in SQLite's polling busy handler.
``synchronous=NORMAL`` in WAL mode: a committed append survives an application crash; only an OS crash
or power loss can lose the last few commits (never corrupt the file).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, NamedTuple

from eventstore._common import (
    chain_batch,
    check_dict,
    check_dict_and_text,
    check_events,
    check_expected_version,
    check_head,
    check_name,
    check_paging,
    check_truncation_args,
    check_truncation_target,
    event_payload,
    hash_payload,
    json_loads,
    same_head,
    sign_head,
    utc_now_iso,
    wait_until,
)
from eventstore.base import (
    ArchivedEvent,
    Audience,
    AuditReport,
    DuplicateIdempotencyKey,
    IdempotencyRecord,
    Signer,
    StoredEvent,
    StoreUnavailable,
    StreamExists,
    StreamInfo,
    StreamNotFound,
    Truncation,
    TruncationCheck,
    WrongExpectedVersion,
    canonical_json,
    genesis_hash,
)
from eventstore.outbox import check_outbox
from eventstore.sqlite_outbox import SqliteOutbox, write_outbox
from eventstore.verify import verify_events
from eventstore.writer_lock import WriterLock

_EVENT_COLUMNS = "stream, version, position, generation, data, meta, hash, recorded_at"

MIGRATIONS: list[list[str]] = [
    [
        """CREATE TABLE streams (
            stream TEXT PRIMARY KEY, game_type TEXT NOT NULL, created_at TEXT NOT NULL, status TEXT NOT NULL,
            version INTEGER NOT NULL, generation INTEGER NOT NULL, last_hash TEXT NOT NULL, metadata TEXT NOT NULL)""",
        "CREATE INDEX streams_game_type ON streams (game_type, status)",
        """CREATE TABLE events (
            position INTEGER PRIMARY KEY AUTOINCREMENT, stream TEXT NOT NULL REFERENCES streams (stream),
            version INTEGER NOT NULL, generation INTEGER NOT NULL, data TEXT NOT NULL, meta TEXT NOT NULL,
            hash TEXT NOT NULL, recorded_at TEXT NOT NULL, UNIQUE (stream, version))""",
        """CREATE TABLE archived_events (
            position INTEGER PRIMARY KEY, stream TEXT NOT NULL, version INTEGER NOT NULL, generation INTEGER NOT NULL,
            data TEXT NOT NULL, meta TEXT NOT NULL, hash TEXT NOT NULL, recorded_at TEXT NOT NULL,
            truncation_generation INTEGER NOT NULL)""",
        "CREATE INDEX archived_events_stream ON archived_events (stream, truncation_generation, version)",
        """CREATE TABLE truncations (
            id INTEGER PRIMARY KEY AUTOINCREMENT, stream TEXT NOT NULL, from_version INTEGER NOT NULL,
            to_version INTEGER NOT NULL, generation INTEGER NOT NULL, actor TEXT NOT NULL, reason TEXT NOT NULL,
            truncated_at TEXT NOT NULL)""",
        "CREATE INDEX truncations_stream ON truncations (stream, id)",
        """CREATE TABLE idempotency_keys (
            stream TEXT NOT NULL, key TEXT NOT NULL, request_hash TEXT NOT NULL, generation INTEGER NOT NULL,
            from_version INTEGER NOT NULL, to_version INTEGER NOT NULL, created_at TEXT NOT NULL,
            PRIMARY KEY (stream, key))""",
        """CREATE TABLE snapshots (
            stream TEXT NOT NULL, generation INTEGER NOT NULL, key TEXT NOT NULL, version INTEGER NOT NULL,
            blob BLOB NOT NULL, PRIMARY KEY (stream, generation, key, version))""",
        """CREATE TABLE documents (
            collection TEXT NOT NULL, key TEXT NOT NULL, doc TEXT NOT NULL, updated_at TEXT NOT NULL,
            PRIMARY KEY (collection, key))""",
    ],
    # "signed chain": the hash covers every stored field and starts from the stream as created; heads
    # are signed; snapshots are JSON (the pickled ones are dropped, never read again)
    [
        "ALTER TABLE streams ADD COLUMN creation TEXT",
        "ALTER TABLE streams ADD COLUMN head_signature TEXT NOT NULL DEFAULT ''",
        "DELETE FROM snapshots",
        "rehash",  # rehash_streams() below, with the store's signer
    ],
]

_STREAM_COLUMNS = "stream, game_type, created_at, status, version, generation, metadata, creation"

# Named migrations, applied once each (recorded by name in schema_migrations) after the numbered ones.
NAMED_MIGRATIONS: dict[str, list[str]] = {
    "outbox": [
        """CREATE TABLE outbox (
            key TEXT PRIMARY KEY, token TEXT NOT NULL, job TEXT NOT NULL, args TEXT NOT NULL,
            due_at REAL NOT NULL, attempts INTEGER NOT NULL DEFAULT 0)""",
        "CREATE INDEX outbox_due ON outbox (due_at)",
        "CREATE INDEX outbox_job ON outbox (job, due_at)",
    ],
}


class SqliteStore(SqliteOutbox):
    """Implements ``eventstore.base.EventStore`` on one SQLite file."""

    def __init__(
        self, path: str | Path, busy_timeout: float = 30.0, poll_interval: float = 0.2, signer: Signer | None = None
    ) -> None:
        self.path = str(path)
        self._signer = signer
        if self.path in ("", ":memory:") or self.path.startswith("file:"):
            raise ValueError("SqliteStore needs a file path (use memory:// for an in-memory store)")
        self._busy_timeout = busy_timeout
        self._poll_interval = poll_interval
        self._writers = WriterLock(self.path)
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._registry_lock = threading.Lock()
        self._closed = False
        self._appended = threading.Condition()
        self._append_count = 0
        conn = self._conn()
        try:
            conn.execute("PRAGMA journal_mode=WAL")
        except sqlite3.Error as exc:
            self.close()
            raise StoreUnavailable(f"cannot open SQLite database {self.path}: {exc}") from None
        self.migrate()

    # -- connections -------------------------------------------------------------------------------
    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None:
            return conn
        if self._closed:
            raise StoreUnavailable("the SQLite store is closed")
        try:
            conn = sqlite3.connect(self.path, timeout=self._busy_timeout, isolation_level=None, check_same_thread=False)
            conn.execute(f"PRAGMA busy_timeout={int(self._busy_timeout * 1000)}")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"cannot open SQLite database {self.path}: {exc}") from None
        with self._registry_lock:
            self._connections.append(conn)
        self._local.conn = conn
        return conn

    @contextmanager
    def _transaction(self, mode: str = "IMMEDIATE") -> Iterator[sqlite3.Connection]:
        """A transaction; a writing one (``IMMEDIATE``) first waits its turn among this file's writers
        (``WriterLock``, at most ``busy_timeout``), so that it does not poll SQLite's lock."""
        with self._turn() if mode == "IMMEDIATE" else nullcontext():
            conn = self._conn()
            try:
                conn.execute(f"BEGIN {mode}")
            except sqlite3.OperationalError as exc:
                raise StoreUnavailable(f"SQLite database {self.path} is unavailable: {exc}") from None
            try:
                yield conn
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            else:
                try:
                    conn.execute("COMMIT")
                except sqlite3.Error:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise

    @contextmanager
    def _turn(self) -> Iterator[None]:
        """This writer's turn among the file's writers; ``StoreUnavailable`` if it does not come within
        ``busy_timeout`` (as SQLite's own wait would have ended) or the store was closed meanwhile."""
        with self._writers.held(self._busy_timeout):
            if self._closed:
                raise StoreUnavailable("the SQLite store is closed")
            yield

    def migrate(self) -> None:
        with self._transaction() as conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"
            )
            current = conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()[0]
            for number, statements in enumerate(MIGRATIONS, start=1):
                if number <= current:
                    continue
                for statement in statements:
                    if statement == "rehash":
                        self._rehash_streams(conn)
                    else:
                        conn.execute(statement)
                conn.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)", (number, utc_now_iso()))
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
            )
            done = {name for (name,) in conn.execute("SELECT name FROM schema_migrations")}
            for name, statements in NAMED_MIGRATIONS.items():
                if name not in done:
                    for statement in statements:
                        conn.execute(statement)
                    conn.execute("INSERT INTO schema_migrations VALUES (?, ?)", (name, utc_now_iso()))

    def _rehash_streams(self, conn: sqlite3.Connection) -> None:
        """Re-hash stored events in the current chain format (their creation metadata: the metadata now)."""
        for stream, game_type, created_at, metadata in conn.execute(
            "SELECT stream, game_type, created_at, metadata FROM streams"
        ).fetchall():
            previous = genesis_hash(stream, game_type, created_at, json_loads(metadata))
            generation = 0
            rows = conn.execute(
                "SELECT version, generation, data, meta, recorded_at FROM events WHERE stream = ? ORDER BY version",
                (stream,),
            ).fetchall()
            for version, generation, data, meta, recorded_at in rows:
                previous = hash_payload(previous, event_payload(version, generation, recorded_at, data, meta))
                conn.execute("UPDATE events SET hash = ? WHERE stream = ? AND version = ?", (previous, stream, version))
            info_generation = conn.execute("SELECT generation FROM streams WHERE stream = ?", (stream,)).fetchone()[0]
            conn.execute(
                "UPDATE streams SET creation = metadata, last_hash = ?, head_signature = ? WHERE stream = ?",
                (previous, sign_head(self._signer, stream, info_generation, len(rows), previous), stream),
            )

    def ping(self) -> None:
        try:
            self._conn().execute("SELECT 1").fetchone()
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"SQLite database {self.path} is unavailable: {exc}") from None

    def close(self) -> None:
        self._closed = True
        self._writers.close()  # after the writer in its transaction, if any, is done with its connection
        with self._registry_lock:
            connections, self._connections = self._connections, []
        for conn in connections:
            try:
                conn.close()
            except sqlite3.Error:
                pass
        self._local = threading.local()
        with self._appended:
            self._append_count += 1
            self._appended.notify_all()

    # -- streams -----------------------------------------------------------------------------------
    def create_stream(self, stream: str, game_type: str, metadata: dict[str, Any]) -> StreamInfo:
        check_name(stream, "stream")
        check_name(game_type, "game_type")
        metadata = check_dict(metadata if metadata is not None else {}, "metadata")
        info = StreamInfo(stream, game_type, utc_now_iso(), "active", 0, 0, metadata, metadata)
        genesis = genesis_hash(stream, game_type, info.created_at, metadata)
        text = canonical_json(metadata)
        with self._transaction() as conn:
            try:
                conn.execute(
                    "INSERT INTO streams (stream, game_type, created_at, status, version, generation, last_hash,"
                    " metadata, creation, head_signature) VALUES (?, ?, ?, ?, 0, 0, ?, ?, ?, ?)",
                    (
                        stream,
                        game_type,
                        info.created_at,
                        info.status,
                        genesis,
                        text,
                        text,
                        sign_head(self._signer, stream, 0, 0, genesis),
                    ),
                )
            except sqlite3.IntegrityError:
                raise StreamExists(stream) from None
        return info

    def _info(self, conn: sqlite3.Connection, stream: str) -> tuple[StreamInfo, str]:
        info, head_hash, _signature = self._head(conn, stream)
        return info, head_hash

    def _head(self, conn: sqlite3.Connection, stream: str) -> tuple[StreamInfo, str, str]:
        """The stream row, its head hash and the head's signature, in one read."""
        row = conn.execute(
            f"SELECT {_STREAM_COLUMNS}, last_hash, head_signature FROM streams WHERE stream = ?", (stream,)
        ).fetchone()
        if row is None:
            raise StreamNotFound(stream)
        return _row_info(row[:8]), row[8], row[9]

    def _append_head(self, conn: sqlite3.Connection, stream: str) -> tuple[_Head, str]:
        """What an append reads of the stream row (not its metadata: no JSON to decode), and its head hash."""
        row = conn.execute(
            "SELECT version, generation, status, last_hash FROM streams WHERE stream = ?", (stream,)
        ).fetchone()
        if row is None:
            raise StreamNotFound(stream)
        return _Head(row[0], row[1], row[2]), row[3]

    def stream_info(self, stream: str) -> StreamInfo:
        return self._info(self._conn(), stream)[0]

    def stream_info_and_document(self, stream: str, collection: str) -> tuple[StreamInfo, dict[str, Any] | None]:
        row = (
            self._conn()
            .execute(
                f"SELECT {_STREAM_COLUMNS}, (SELECT doc FROM documents WHERE collection = ? AND key = ?)"
                " FROM streams WHERE stream = ?",
                (collection, stream, stream),
            )
            .fetchone()
        )
        if row is None:
            raise StreamNotFound(stream)
        return _row_info(row[:8]), json_loads(row[8]) if row[8] is not None else None

    def list_streams(
        self,
        game_type: str | None = None,
        status: str | None = None,
        limit: int = 100,
        offset: int = 0,
        newest_first: bool = False,
        before: str | None = None,
        audience: Audience | None = None,
    ) -> list[StreamInfo]:
        check_paging(limit, offset)
        order, cmp = ("DESC", "<") if newest_first else ("ASC", ">")
        creator, public = "json_extract(metadata, '$.created_by')", "json_extract(metadata, '$.public')"
        if audience is None:
            listed = ""
        elif audience.key_id is None:  # as base.listed_to (a stream with no event yet is listed to nobody)
            listed = f" AND version > 0 AND {creator} IS NULL AND coalesce({public}, 1) = 1"
        else:
            listed = f" AND version > 0 AND ({creator} = ?6 OR coalesce({public}, {creator} IS NULL) = 1)"
        params: tuple[Any, ...] = (game_type, status, limit, offset, before)
        if audience is not None and audience.key_id is not None:
            params += (audience.key_id,)
        rows = self._conn().execute(
            f"SELECT {_STREAM_COLUMNS} FROM streams WHERE (?1 IS NULL OR game_type = ?1) AND (?2 IS NULL OR status = ?2)"
            f" AND (?5 IS NULL OR rowid {cmp} coalesce((SELECT rowid FROM streams WHERE stream = ?5), -1))"
            f"{listed} ORDER BY rowid {order} LIMIT ?3 OFFSET ?4",
            params,
        )
        return [_row_info(row) for row in rows]

    def update_stream(
        self, stream: str, status: str | None = None, metadata: dict[str, Any] | None = None
    ) -> StreamInfo:
        if status is not None:
            check_name(status, "status")
        patch = check_dict(metadata, "metadata") if metadata is not None else {}
        with self._transaction() as conn:
            info, _ = self._info(conn, stream)
            merged = {**info.metadata, **patch}
            conn.execute(
                "UPDATE streams SET status = ?, metadata = ? WHERE stream = ?",
                (status or info.status, canonical_json(merged), stream),
            )
            return self._info(conn, stream)[0]

    # -- events ------------------------------------------------------------------------------------
    def append(
        self,
        stream: str,
        events: list[dict[str, Any]],
        expected_version: int,
        meta: dict[str, Any] | None = None,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
        outbox: list[dict[str, Any]] | None = None,
        status: str | None = None,
        head: StreamInfo | None = None,
    ) -> list[StoredEvent]:
        encoded = check_events(events)
        check_head(head, stream, expected_version)
        if status is not None:
            check_name(status, "status")
        work = check_outbox(outbox)
        meta, meta_text = check_dict_and_text(meta if meta is not None else {}, "meta")
        check_expected_version(expected_version)
        if idempotency_key is not None:
            check_name(idempotency_key, "idempotency_key")
        recorded_at = utc_now_iso()
        with self._transaction() as conn:
            info, previous = self._append_head(conn, stream)
            if idempotency_key is not None and self.get_idempotency(stream, idempotency_key) is not None:
                raise DuplicateIdempotencyKey(f"idempotency key {idempotency_key!r} was used on stream {stream!r}")
            if info.version != expected_version or not same_head(head, info.generation, previous):
                raise WrongExpectedVersion(stream, expected_version, info.version)
            last_version = expected_version + len(encoded)
            if idempotency_key is not None:
                try:
                    conn.execute(
                        "INSERT INTO idempotency_keys VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (
                            stream,
                            idempotency_key,
                            request_hash or "",
                            info.generation,
                            expected_version + 1,
                            last_version,
                            recorded_at,
                        ),
                    )
                except sqlite3.IntegrityError:
                    raise DuplicateIdempotencyKey(
                        f"idempotency key {idempotency_key!r} was used on stream {stream!r}"
                    ) from None
            hashes = chain_batch(
                previous, expected_version, info.generation, recorded_at, [t for _, t in encoded], meta_text
            )
            stored = []
            for offset, ((data, data_text), previous) in enumerate(zip(encoded, hashes, strict=True)):
                version = expected_version + offset + 1
                cursor = conn.execute(
                    "INSERT INTO events (stream, version, generation, data, meta, hash, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (stream, version, info.generation, data_text, meta_text, previous, recorded_at),
                )
                assert cursor.lastrowid is not None, "an INSERT sets the row id"
                stored.append(
                    StoredEvent(
                        stream,
                        version,
                        cursor.lastrowid,
                        info.generation,
                        data,
                        json_loads(meta_text) if offset else meta,  # each event its own copy
                        previous,
                        recorded_at,
                    )
                )
            conn.execute(
                "UPDATE streams SET version = ?, last_hash = ?, head_signature = ?, status = ? WHERE stream = ?",
                (
                    last_version,
                    previous,
                    sign_head(self._signer, stream, info.generation, last_version, previous),
                    status or info.status,
                    stream,
                ),
            )
            write_outbox(conn, work)
        with self._appended:
            self._append_count += 1
            self._appended.notify_all()
        return stored

    def read(self, stream: str, from_version: int = 1, to_version: int | None = None) -> list[StoredEvent]:
        with self._transaction("DEFERRED") as conn:
            self._info(conn, stream)
            rows = conn.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream = ? AND version >= ? AND (? IS NULL OR version <= ?)"
                " ORDER BY version",
                (stream, from_version, to_version, to_version),
            ).fetchall()
        return [_row_event(row) for row in rows]

    def read_all(self, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        check_paging(limit)
        rows = self._conn().execute(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?", (after_position, limit)
        )
        return [_row_event(row) for row in rows]

    def get_idempotency(self, stream: str, key: str) -> IdempotencyRecord | None:
        row = (
            self._conn()
            .execute(
                "SELECT key, request_hash, generation, from_version, to_version FROM idempotency_keys WHERE stream = ? AND key = ?",
                (stream, key),
            )
            .fetchone()
        )
        return IdempotencyRecord(*row) if row else None

    def head_position(self) -> int:
        return int(self._conn().execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0])

    def wait_for_append(self, after_position: int, timeout: float) -> bool:
        # in-process appends wake us at once; appends by other processes are seen by polling
        return wait_until(
            self._appended,
            lambda: self._append_count,
            lambda: self.head_position() > after_position,
            timeout,
            poll=self._poll_interval,
        )

    # -- truncation and audit ----------------------------------------------------------------------
    def truncate(
        self,
        stream: str,
        to_version: int,
        actor: str,
        reason: str,
        *,
        expected_version: int,
        check: TruncationCheck | None = None,
        status: str | None = None,
    ) -> Truncation:
        check_truncation_args(actor, reason, expected_version)
        if status is not None:
            check_name(status, "status")
        with self._transaction() as conn:
            info, _ = self._info(conn, stream)
            check_truncation_target(stream, info, to_version, expected_version)
            if check is not None:
                rows = conn.execute(
                    f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream = ? AND version > ? ORDER BY version",
                    (stream, to_version),
                ).fetchall()
                check(info, [_row_event(row) for row in rows])
            generation = info.generation + 1
            conn.execute(
                f"INSERT INTO archived_events ({_EVENT_COLUMNS}, truncation_generation)"
                f" SELECT {_EVENT_COLUMNS}, ? FROM events WHERE stream = ? AND version > ?",
                (generation, stream, to_version),
            )
            conn.execute("DELETE FROM events WHERE stream = ? AND version > ?", (stream, to_version))
            row = conn.execute(
                "SELECT hash FROM events WHERE stream = ? AND version = ?", (stream, to_version)
            ).fetchone()
            head = row[0] if row else _genesis(info)
            conn.execute(
                "UPDATE streams SET version = ?, generation = ?, last_hash = ?, head_signature = ?, status = ?"
                " WHERE stream = ?",
                (
                    to_version,
                    generation,
                    head,
                    sign_head(self._signer, stream, generation, to_version, head),
                    status or info.status,
                    stream,
                ),
            )
            record = Truncation(stream, info.version, to_version, generation, actor, reason, utc_now_iso())
            conn.execute(
                "INSERT INTO truncations (stream, from_version, to_version, generation, actor, reason, truncated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (stream, record.from_version, to_version, generation, actor, reason, record.truncated_at),
            )
            return record

    def truncations(self, stream: str) -> list[Truncation]:
        with self._transaction("DEFERRED") as conn:
            self._info(conn, stream)
            rows = conn.execute(
                "SELECT stream, from_version, to_version, generation, actor, reason, truncated_at FROM truncations"
                " WHERE stream = ? ORDER BY id",
                (stream,),
            ).fetchall()
        return [Truncation(*row) for row in rows]

    def archived(self, stream: str) -> list[ArchivedEvent]:
        with self._transaction("DEFERRED") as conn:
            self._info(conn, stream)
            rows = conn.execute(
                f"SELECT {_EVENT_COLUMNS}, truncation_generation FROM archived_events WHERE stream = ?"
                " ORDER BY truncation_generation, version",
                (stream,),
            ).fetchall()
        return [ArchivedEvent(_row_event(row[:8]), row[8]) for row in rows]

    def verify(self, stream: str) -> AuditReport:
        with self._transaction("DEFERRED") as conn:
            info, head_hash, signature = self._head(conn, stream)
            rows = conn.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream = ? ORDER BY version", (stream,)
            ).fetchall()
        return verify_events(
            stream,
            (_row_event(row) for row in rows),
            info.version,
            head_hash,
            _genesis(info),
            info.generation,
            signature,
        )

    # -- snapshots ---------------------------------------------------------------------------------
    def save_snapshot(self, stream: str, generation: int, version: int, key: str, blob: bytes) -> None:
        with self._transaction() as conn:
            self._info(conn, stream)
            conn.execute(
                "INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?, ?)",
                (stream, generation, key, version, bytes(blob)),
            )

    def load_snapshot(self, stream: str, generation: int, max_version: int, key: str) -> tuple[int, bytes] | None:
        row = (
            self._conn()
            .execute(
                "SELECT version, blob FROM snapshots WHERE stream = ? AND generation = ? AND key = ? AND version <= ?"
                " ORDER BY version DESC LIMIT 1",
                (stream, generation, key, max_version),
            )
            .fetchone()
        )
        return (row[0], bytes(row[1])) if row else None

    def delete_snapshots(self, stream: str | None = None) -> None:
        with self._transaction() as conn:
            conn.execute("DELETE FROM snapshots WHERE ? IS NULL OR stream = ?", (stream, stream))

    # -- documents ---------------------------------------------------------------------------------
    def put_document(self, collection: str, key: str, doc: dict[str, Any]) -> None:
        check_name(collection, "collection")
        check_name(key, "key")
        doc = check_dict(doc, "document")
        with self._transaction() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO documents VALUES (?, ?, ?, ?)",
                (collection, key, canonical_json(doc), utc_now_iso()),
            )

    def get_document(self, collection: str, key: str) -> dict[str, Any] | None:
        row = (
            self._conn()
            .execute("SELECT doc FROM documents WHERE collection = ? AND key = ?", (collection, key))
            .fetchone()
        )
        return json_loads(row[0]) if row else None

    def list_documents(
        self, collection: str, limit: int = 100, offset: int = 0, after: str | None = None
    ) -> list[tuple[str, dict[str, Any]]]:
        check_paging(limit, offset)
        rows = self._conn().execute(
            "SELECT key, doc FROM documents WHERE collection = ? AND (? IS NULL OR key > ?) ORDER BY key LIMIT ? OFFSET ?",
            (collection, after, after, limit, offset),
        )
        return [(key, json_loads(doc)) for key, doc in rows]

    def delete_document(self, collection: str, key: str) -> None:
        with self._transaction() as conn:
            conn.execute("DELETE FROM documents WHERE collection = ? AND key = ?", (collection, key))

    def take_document(self, collection: str, key: str) -> dict[str, Any] | None:
        with self._transaction() as conn:
            row = conn.execute(
                "DELETE FROM documents WHERE collection = ? AND key = ? RETURNING doc", (collection, key)
            ).fetchone()
        return json_loads(row[0]) if row else None


class _Head(NamedTuple):
    """The stream row's fields an append checks and writes."""

    version: int
    generation: int
    status: str


def _row_info(row: tuple[Any, ...]) -> StreamInfo:
    stream, game_type, created_at, status, version, generation, metadata, creation = row
    return StreamInfo(
        stream, game_type, created_at, status, version, generation, json_loads(metadata), json_loads(creation)
    )


def _genesis(info: StreamInfo) -> str:
    return genesis_hash(info.stream, info.game_type, info.created_at, info.creation)


def _row_event(row: tuple[Any, ...]) -> StoredEvent:
    stream, version, position, generation, data, meta, hash_, recorded_at = row
    return StoredEvent(stream, version, position, generation, json_loads(data), json_loads(meta), hash_, recorded_at)
