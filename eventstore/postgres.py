"""The production store: PostgreSQL through psycopg 3 and a psycopg_pool connection pool.

An append is one call of the server-side function ``tw_append`` (one round trip, one transaction): it
locks the stream row, checks the idempotency key and the expected version, records the key, inserts the
whole batch with its hash chain (one server-side loop: no round trip per event, cheaper than a client
``executemany``) and moves the stream head. A failure anywhere rolls the whole batch back.

Positions are ``transaction id * 65536 + index``; ``read_all`` only returns positions of transactions
older than the oldest one of this database still running (``tw_visible_limit()``, see
``postgres_schema``), so a polling reader never skips a row that commits late, and appends to different
streams never wait for each other (concurrent commits share an fsync). The price: while a write
transaction is open in this database, followers do not see events committed after it began; keep
transactions short. Positions are strictly increasing but sparse (large numbers with gaps).

The append's transaction also sends ``pg_notify('tradewinds_events', '')``, delivered at its commit, so an
append costs no extra round trip for the wake-up. A caller that passes the stream row it read (``head``, as
the game service does) gets the whole append in one round trip: the recording time, the chain's new head
and its signature are computed before the write, and ``tw_append`` refuses them if the head has moved on.
Without ``head``, a signing store needs two (the signature needs the new head hash, see ``append``).
The price: PostgreSQL takes its notify lock from the pre-commit to the end of the commit, so commits that
notify are serialised (one WAL flush at a time; measured in ``benchmarks/server_throughput.py``). Listeners
re-read by position and also poll every ``poll_interval`` seconds, so a lost wake-up only delays them.

Never share a store across ``fork``: open one per process, after the fork.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.rows import TupleRow
from psycopg.types.json import Jsonb, set_json_loads
from psycopg_pool import ConnectionPool, PoolTimeout

from eventstore._common import (
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
    iso_utc,
    json_loads,
    one,
    sign_head,
    signed_in_advance,
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
from eventstore.postgres_outbox import OUTBOX_UPSERT, PostgresOutbox, outbox_params
from eventstore.postgres_schema import (
    FUNCTIONS,
    MAX_BATCH,
    MIGRATION_LOCK_KEY,
    MIGRATIONS,
    NAMED_MIGRATIONS,
    NOTIFY_CHANNEL,
    VISIBLE_LIMIT,
)
from eventstore.verify import verify_events

_EVENT_COLUMNS = "stream, version, position, generation, data, meta, hash, recorded_at"
_STREAM_COLUMNS = "stream, game_type, created_at, status, version, generation, metadata, creation, last_hash"


def one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def describe_url(url: str) -> str:
    """The URL without its password, for error messages."""
    try:
        params = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.Error:
        return "the configured PostgreSQL URL"
    host = params.get("host", "localhost")
    return f"postgresql://{params.get('user', '')}@{host}:{params.get('port', 5432)}/{params.get('dbname', '')}"


LOST_WAIT = 1.0  # s a caller waits for a connection while the server is known to be unreachable
RECONNECT_WINDOW = 10.0  # s of back-off after which the pool gives up; a caller's wait starts a new attempt at once


class PostgresStore(PostgresOutbox):
    """Implements ``eventstore.base.EventStore`` on PostgreSQL (13 or newer: pg_current_xact_id; tested on 15)."""

    def __init__(
        self,
        url: str,
        min_size: int = 1,
        max_size: int = 10,
        connect_timeout: float = 5.0,
        poll_interval: float = 1.0,
        serialize_appends: bool = False,
        signer: Signer | None = None,
    ) -> None:
        self._url = url
        self._signer = signer
        self._timeout = 30.0
        self._poll_interval = poll_interval
        # serialize_appends=True takes a global lock held until commit in every append: the other
        # gap-free strategy, kept only so the benchmark can measure what it costs.
        self._serialize = serialize_appends
        self._closed = False
        self._appended = threading.Condition()
        self._notify_count = 0
        self._listener: threading.Thread | None = None
        self._listener_lock = threading.Lock()
        where = describe_url(url)
        try:  # one direct connection first: a bad URL fails at once with the server's own reason
            psycopg.connect(url, connect_timeout=max(1, int(connect_timeout))).close()
        except psycopg.Error as exc:
            raise StoreUnavailable(f"cannot connect to {where}: {one_line(exc)}") from None
        self._pool: ConnectionPool[psycopg.Connection[TupleRow]] = ConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            # connect_timeout: an unreachable host fails an attempt in seconds, not after TCP's minutes;
            # reconnect_timeout: the pool's back-off (1, 2, 4 ... s between attempts) gives up after RECONNECT_WINDOW,
            # and the next caller that waits starts a new attempt at once, so a server back after a long outage is
            # found within seconds where the back-off would have grown to minutes
            kwargs={"autocommit": True, "connect_timeout": max(2, int(connect_timeout))},
            configure=_read_json_fast,
            open=True,
            timeout=self._timeout,
            reconnect_timeout=RECONNECT_WINDOW,
            name="tradewinds-eventstore",
        )
        self._lost = False  # the last use found the server unreachable
        self._sweeping = threading.Lock()
        try:
            self._pool.wait(timeout=connect_timeout)
        except PoolTimeout:
            self._pool.close()
            raise StoreUnavailable(f"cannot connect to {where}: no connection within {connect_timeout} s") from None
        try:
            self.migrate()
        except BaseException:
            self.close()
            raise

    # -- connections -------------------------------------------------------------------------------
    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[TupleRow]]:
        if self._closed:
            raise StoreUnavailable("the PostgreSQL store is closed")
        conn: psycopg.Connection[TupleRow] | None = None
        # while the server is known to be unreachable, a caller waits for a connection only briefly: its 503
        # comes at once, not after the pool's full wait
        timeout = LOST_WAIT if self._lost else self._timeout
        try:
            with self._pool.connection(timeout=timeout) as conn:
                yield conn
        except Exception as exc:
            if conn is not None:  # a pool wait that ran out (no connection) says nothing about the server
                self._used(conn)
            if isinstance(exc, psycopg.OperationalError | PoolTimeout):
                raise StoreUnavailable(f"PostgreSQL is unavailable: {one_line(exc)}") from exc
            raise  # the caller's own error, or an append's translated one
        self._lost = False

    def _used(self, conn: psycopg.Connection[TupleRow]) -> None:
        """After a use that failed: the server is lost if the connection broke, else it answered (the error was
        the query's or the caller's own). A broken connection also has the idle ones checked: a server restart
        breaks every pooled connection at once, and checking them now replaces them all, where otherwise each
        would fail one more request first."""
        self._lost = conn.broken
        if conn.broken and self._sweeping.acquire(blocking=False):
            threading.Thread(target=self._sweep, name="tradewinds-pool-check", daemon=True).start()

    def _sweep(self) -> None:
        try:
            if not self._closed:
                self._pool.check()
        except Exception:  # noqa: BLE001 - a check that cannot run leaves the pool as it was
            pass
        finally:
            self._sweeping.release()

    def migrate(self) -> None:
        with self._connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK_KEY,))
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY,"
                " applied_at timestamptz NOT NULL DEFAULT now())"
            )
            current = one(conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone())
            for number, statements in enumerate(MIGRATIONS, start=1):
                if number <= current:
                    continue
                for statement in statements:
                    if statement == "rehash":
                        self._rehash_streams(conn)
                    else:
                        conn.execute(statement)
                conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (number,))
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY,"
                " applied_at timestamptz NOT NULL DEFAULT now())"
            )
            done = {name for (name,) in conn.execute("SELECT name FROM schema_migrations").fetchall()}
            for name, statements in NAMED_MIGRATIONS.items():
                if name not in done:
                    for statement in statements:
                        conn.execute(statement)
                    conn.execute("INSERT INTO schema_migrations (name) VALUES (%s)", (name,))
            # functions hold no data: (re)install them whenever their definitions change
            digest = hashlib.sha256("\n".join(FUNCTIONS).encode()).hexdigest()
            installed = conn.execute("SELECT digest FROM schema_functions").fetchone()
            if installed is None or installed[0] != digest:
                for function in FUNCTIONS:
                    conn.execute(function)
                conn.execute("DELETE FROM schema_functions")
                conn.execute("INSERT INTO schema_functions (digest) VALUES (%s)", (digest,))

    def _rehash_streams(self, conn: psycopg.Connection) -> None:
        """Re-hash stored events in the current chain format (their creation metadata: the metadata now)."""
        streams = conn.execute(
            "SELECT stream, game_type, created_at, metadata::text, generation FROM event_streams"
        ).fetchall()
        for stream, game_type, created_at, metadata, stream_generation in streams:
            previous = genesis_hash(stream, game_type, iso_utc(created_at), json_loads(metadata))
            rows = conn.execute(
                "SELECT version, generation, data::text, meta::text, recorded_at FROM events WHERE stream = %s"
                " ORDER BY version",
                (stream,),
            ).fetchall()
            for version, generation, data, meta, recorded_at in rows:
                payload = event_payload(version, generation, iso_utc(recorded_at), data, meta)
                previous = hash_payload(previous, payload)
                conn.execute(
                    "UPDATE events SET hash = %s WHERE stream = %s AND version = %s", (previous, stream, version)
                )
            conn.execute(
                "UPDATE event_streams SET creation = metadata::text::json, last_hash = %s, head_signature = %s"
                " WHERE stream = %s",
                (previous, sign_head(self._signer, stream, stream_generation, len(rows), previous), stream),
            )

    def ping(self) -> None:
        with self._connection() as conn:
            conn.execute("SELECT 1")

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        with self._appended:
            self._notify_count += 1
            self._appended.notify_all()
        if self._listener is not None and self._listener.is_alive():
            try:  # wake the listener so it sees _closed at once
                with self._pool.connection(timeout=1.0) as conn:
                    conn.execute(f"NOTIFY {NOTIFY_CHANNEL}")
            except (psycopg.Error, PoolTimeout):
                pass
            self._listener.join(timeout=2.0)
        self._pool.close()

    # -- streams -----------------------------------------------------------------------------------
    def create_stream(self, stream: str, game_type: str, metadata: dict[str, Any]) -> StreamInfo:
        check_name(stream, "stream")
        check_name(game_type, "game_type")
        metadata = check_dict(metadata if metadata is not None else {}, "metadata")
        created_at = utc_now_iso()
        genesis = genesis_hash(stream, game_type, created_at, metadata)
        with self._connection() as conn:
            try:
                row = conn.execute(
                    "INSERT INTO event_streams (stream, game_type, created_at, status, last_hash, metadata, creation,"
                    f" head_signature) VALUES (%s, %s, %s, 'active', %s, %s, %s, %s) RETURNING {_STREAM_COLUMNS}",
                    (
                        stream,
                        game_type,
                        created_at,
                        genesis,
                        Jsonb(metadata),
                        canonical_json(metadata),
                        sign_head(self._signer, stream, 0, 0, genesis),
                    ),
                ).fetchone()
            except psycopg.errors.UniqueViolation:
                raise StreamExists(stream) from None
        assert row is not None, "INSERT ... RETURNING returns the row"
        return _row_info(row)

    def _info(self, conn: psycopg.Connection, stream: str, lock: bool = False) -> StreamInfo:
        row = conn.execute(
            f"SELECT {_STREAM_COLUMNS} FROM event_streams WHERE stream = %s" + (" FOR UPDATE" if lock else ""),
            (stream,),
        ).fetchone()
        if row is None:
            raise StreamNotFound(stream)
        return _row_info(row)

    def _head(self, conn: psycopg.Connection, stream: str) -> tuple[StreamInfo, str]:
        """The stream row and its head's signature, in one read."""
        row = conn.execute(
            f"SELECT {_STREAM_COLUMNS}, head_signature FROM event_streams WHERE stream = %s", (stream,)
        ).fetchone()
        if row is None:
            raise StreamNotFound(stream)
        return _row_info(row[:-1]), row[-1]

    def stream_info(self, stream: str) -> StreamInfo:
        with self._connection() as conn:
            return self._info(conn, stream)

    def stream_info_and_document(self, stream: str, collection: str) -> tuple[StreamInfo, dict[str, Any] | None]:
        with self._connection() as conn:
            row = conn.execute(
                f"SELECT {_STREAM_COLUMNS}, (SELECT doc FROM documents WHERE collection = %s AND key = %s)"
                " FROM event_streams WHERE stream = %s",
                (collection, stream, stream),
            ).fetchone()
        if row is None:
            raise StreamNotFound(stream)
        return _row_info(row[:9]), row[9]

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
        creator, public = "(metadata->>'created_by')", "(metadata->>'public')::boolean"
        if audience is None:
            listed = ""
        elif audience.key_id is None:
            listed = f" AND version > 0 AND {creator} IS NULL AND coalesce({public}, true)"
        else:
            listed = f" AND version > 0 AND ({creator} = %(k)s OR coalesce({public}, {creator} IS NULL))"
        with self._connection() as conn:
            order, cmp = ("DESC", "<") if newest_first else ("ASC", ">")
            rows = conn.execute(
                f"SELECT {_STREAM_COLUMNS} FROM event_streams"
                " WHERE (%(g)s::text IS NULL OR game_type = %(g)s) AND (%(s)s::text IS NULL OR status = %(s)s)"
                f" AND (%(b)s::text IS NULL OR seq {cmp}"
                " coalesce((SELECT seq FROM event_streams WHERE stream = %(b)s), -1))"
                f"{listed} ORDER BY seq {order} LIMIT %(l)s OFFSET %(o)s",
                {"g": game_type, "s": status, "l": limit, "o": offset, "b": before, "k": audience and audience.key_id},
            ).fetchall()
        return [_row_info(row) for row in rows]

    def update_stream(
        self, stream: str, status: str | None = None, metadata: dict[str, Any] | None = None
    ) -> StreamInfo:
        if status is not None:
            check_name(status, "status")
        patch = check_dict(metadata, "metadata") if metadata is not None else {}
        with self._connection() as conn:
            row = conn.execute(
                "UPDATE event_streams SET status = coalesce(%s, status), metadata = metadata || %s"
                f" WHERE stream = %s RETURNING {_STREAM_COLUMNS}",
                (status, Jsonb(patch), stream),
            ).fetchone()
        if row is None:
            raise StreamNotFound(stream)
        return _row_info(row)

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
        meta_copy, meta_text = check_dict_and_text(meta if meta is not None else {}, "meta")
        check_expected_version(expected_version)
        if idempotency_key is not None:
            check_name(idempotency_key, "idempotency_key")
        if len(encoded) > MAX_BATCH:
            raise ValueError(f"at most {MAX_BATCH} events per append")
        with self._connection() as conn:
            try:
                # Client-side binding sends several statements in one simple query, answered in one round
                # trip: BEGIN and tw_append (with the outbox rows, written only if the append succeeds: an
                # error in tw_append aborts the whole statement); then the head's signature (it needs the new
                # hash), the wake-up and COMMIT. Two round trips with a signer; without one, a single query
                # (an implicit transaction) does it all.
                cursor = psycopg.ClientCursor(conn)
                append = ("WITH work AS (" + OUTBOX_UPSERT + ") " if work else "") + (
                    "SELECT * FROM tw_append(%(s)s, %(e)s, %(d)s::text[], %(m)s, %(k)s, %(h)s, %(z)s,"
                    " %(r)s, %(hd)s, %(g)s)"
                )
                params = {
                    "s": stream,
                    "e": expected_version,
                    "d": [data_text for _, data_text in encoded],
                    "m": meta_text,
                    "k": idempotency_key,
                    "h": request_hash or "",
                    "z": self._serialize,
                    "c": NOTIFY_CHANNEL,
                    "t": status,
                    "r": None,  # the time, head hash and signature, when computed before the write
                    "hd": None,
                    "g": None,
                    **outbox_params(work),
                }
                # the stream's status, with the events that change it (the row is locked by tw_append)
                set_status = (
                    " UPDATE event_streams SET status = %(t)s WHERE stream = %(s)s;" if status is not None else ""
                )
                if head is not None and head.head_hash:
                    # the caller read the head it builds on: hash (and sign) first, write in one round trip
                    params.update(signed_in_advance(self._signer, head, [text for _, text in encoded], meta_text))
                if self._signer is None or params["g"] is not None:
                    cursor.execute(append + ";" + set_status + " SELECT pg_notify(%(c)s, '')", params)
                    rows = cursor.fetchall()
                else:
                    cursor.execute("BEGIN; " + append, params)
                    cursor.nextset()
                    rows = cursor.fetchall()
                    signature = sign_head(self._signer, stream, rows[-1][1], expected_version + len(rows), rows[-1][2])
                    cursor.execute(  # the stream row is locked by tw_append until commit
                        "UPDATE event_streams SET head_signature = %(g)s WHERE stream = %(s)s;"
                        + set_status
                        + " SELECT pg_notify(%(c)s, ''); COMMIT",
                        {"g": signature, "s": stream, "c": NOTIFY_CHANNEL, "t": status},
                    )
            except psycopg.Error as exc:
                if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                    try:
                        conn.rollback()
                    except psycopg.Error:
                        pass  # the pool discards a broken connection
                raise _append_error(exc, stream, expected_version, idempotency_key) from None
        recorded_at = iso_utc(rows[0][3])  # one timestamp for the whole batch
        return [
            StoredEvent(
                stream,
                expected_version + i,
                position,
                generation,
                data,
                json_loads(meta_text) if i > 1 else meta_copy,  # each event its own copy
                hash_,
                recorded_at,
            )
            for i, ((data, _), (position, generation, hash_, _)) in enumerate(zip(encoded, rows, strict=True), start=1)
        ]

    def read(self, stream: str, from_version: int = 1, to_version: int | None = None) -> list[StoredEvent]:
        with self._connection() as conn, conn.transaction():
            self._info(conn, stream)
            rows = conn.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream = %s AND version >= %s"
                " AND (%s::integer IS NULL OR version <= %s) ORDER BY version",
                (stream, from_version, to_version, to_version),
            ).fetchall()
        return [_row_event(row) for row in rows]

    def read_all(self, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        check_paging(limit)
        with self._connection() as conn:
            rows = conn.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE position > %s AND position < {VISIBLE_LIMIT}"
                " ORDER BY position LIMIT %s",
                (after_position, limit),
            ).fetchall()
        return [_row_event(row) for row in rows]

    def get_idempotency(self, stream: str, key: str) -> IdempotencyRecord | None:
        with self._connection() as conn:
            row = conn.execute(
                "SELECT key, request_hash, generation, from_version, to_version FROM idempotency_keys"
                " WHERE stream = %s AND key = %s",
                (stream, key),
            ).fetchone()
        return IdempotencyRecord(*row) if row else None

    # -- live followers ----------------------------------------------------------------------------
    def head_position(self) -> int:
        with self._connection() as conn:
            return int(
                one(
                    conn.execute(
                        f"SELECT coalesce(max(position), 0) FROM events WHERE position < {VISIBLE_LIMIT}"
                    ).fetchone()
                )
            )

    def _ensure_listener(self) -> bool:
        with self._listener_lock:
            if self._listener is not None and self._listener.is_alive():
                return True
            if self._closed:
                return False
            try:
                conn = psycopg.connect(self._url, autocommit=True, connect_timeout=5)
                conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
            except psycopg.Error:
                return False  # wait_for_append falls back to polling
            self._listener = threading.Thread(target=self._listen, args=(conn,), name="tradewinds-listen", daemon=True)
            self._listener.start()
            return True

    def _listen(self, conn: psycopg.Connection) -> None:
        try:
            while not self._closed:
                for _ in conn.notifies(timeout=0.5):
                    with self._appended:
                        self._notify_count += 1
                        self._appended.notify_all()
                    if self._closed:
                        break
        except psycopg.Error:
            pass
        finally:
            conn.close()
            with self._appended:  # waiters re-check (and restart the listener) at once
                self._notify_count += 1
                self._appended.notify_all()

    def wait_for_append(self, after_position: int, timeout: float) -> bool:
        listening = self._ensure_listener()
        return wait_until(
            self._appended,
            lambda: self._notify_count,
            lambda: self.head_position() > after_position,
            timeout,
            poll=self._poll_interval if listening else min(self._poll_interval, 0.25),
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
        with self._connection() as conn, conn.transaction():
            info = self._info(conn, stream, lock=True)
            check_truncation_target(stream, info, to_version, expected_version)
            if check is not None:
                rows = conn.execute(
                    f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream = %s AND version > %s ORDER BY version",
                    (stream, to_version),
                ).fetchall()
                check(info, [_row_event(row) for row in rows])
            generation = info.generation + 1
            conn.execute(
                f"INSERT INTO archived_events ({_EVENT_COLUMNS}, truncation_generation)"
                f" SELECT {_EVENT_COLUMNS}, %s FROM events WHERE stream = %s AND version > %s",
                (generation, stream, to_version),
            )
            conn.execute("DELETE FROM events WHERE stream = %s AND version > %s", (stream, to_version))
            row = conn.execute(
                "SELECT hash FROM events WHERE stream = %s AND version = %s", (stream, to_version)
            ).fetchone()
            head = row[0] if row else _genesis(info)
            conn.execute(
                "UPDATE event_streams SET version = %s, generation = %s, last_hash = %s, head_signature = %s,"
                " status = %s WHERE stream = %s",
                (
                    to_version,
                    generation,
                    head,
                    sign_head(self._signer, stream, generation, to_version, head),
                    status or info.status,
                    stream,
                ),
            )
            at = one(
                conn.execute(
                    "INSERT INTO stream_truncations"
                    " (stream, from_version, to_version, generation, actor, reason, truncated_at)"
                    " VALUES (%s, %s, %s, %s, %s, %s, clock_timestamp()) RETURNING truncated_at",
                    (stream, info.version, to_version, generation, actor, reason),
                ).fetchone()
            )
        return Truncation(stream, info.version, to_version, generation, actor, reason, iso_utc(at))

    def truncations(self, stream: str) -> list[Truncation]:
        with self._connection() as conn, conn.transaction():
            self._info(conn, stream)
            rows = conn.execute(
                "SELECT stream, from_version, to_version, generation, actor, reason, truncated_at"
                " FROM stream_truncations WHERE stream = %s ORDER BY id",
                (stream,),
            ).fetchall()
        return [Truncation(row[0], row[1], row[2], row[3], row[4], row[5], iso_utc(row[6])) for row in rows]

    def archived(self, stream: str) -> list[ArchivedEvent]:
        with self._connection() as conn, conn.transaction():
            self._info(conn, stream)
            rows = conn.execute(
                f"SELECT {_EVENT_COLUMNS}, truncation_generation FROM archived_events WHERE stream = %s"
                " ORDER BY truncation_generation, version",
                (stream,),
            ).fetchall()
        return [ArchivedEvent(_row_event(row[:8]), row[8]) for row in rows]

    def verify(self, stream: str) -> AuditReport:
        with self._connection() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            info, signature = self._head(conn, stream)
            rows = conn.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream = %s ORDER BY version", (stream,)
            ).fetchall()
        return verify_events(
            stream,
            (_row_event(row) for row in rows),
            info.version,
            info.head_hash,
            _genesis(info),
            info.generation,
            signature,
        )

    # -- snapshots ---------------------------------------------------------------------------------
    def save_snapshot(self, stream: str, generation: int, version: int, key: str, blob: bytes) -> None:
        with self._connection() as conn:
            found = conn.execute(
                "INSERT INTO snapshots (stream, generation, key, version, blob)"
                " SELECT %s, %s, %s, %s, %s WHERE EXISTS (SELECT 1 FROM event_streams WHERE stream = %s)"
                " ON CONFLICT (stream, generation, key, version) DO UPDATE SET blob = excluded.blob",
                (stream, generation, key, version, bytes(blob), stream),
            ).rowcount
        if not found:
            raise StreamNotFound(stream)

    def load_snapshot(self, stream: str, generation: int, max_version: int, key: str) -> tuple[int, bytes] | None:
        with self._connection() as conn:
            row = conn.execute(
                "SELECT version, blob FROM snapshots WHERE stream = %s AND generation = %s AND key = %s AND version <= %s"
                " ORDER BY version DESC LIMIT 1",
                (stream, generation, key, max_version),
            ).fetchone()
        return (row[0], bytes(row[1])) if row else None

    def delete_snapshots(self, stream: str | None = None) -> None:
        with self._connection() as conn:
            if stream is None:
                conn.execute("DELETE FROM snapshots")
            else:
                conn.execute("DELETE FROM snapshots WHERE stream = %s", (stream,))

    # -- documents ---------------------------------------------------------------------------------
    def put_document(self, collection: str, key: str, doc: dict[str, Any]) -> None:
        check_name(collection, "collection")
        check_name(key, "key")
        doc = check_dict(doc, "document")
        with self._connection() as conn:
            conn.execute(
                "INSERT INTO documents (collection, key, doc, updated_at) VALUES (%s, %s, %s, clock_timestamp())"
                " ON CONFLICT (collection, key) DO UPDATE SET doc = excluded.doc, updated_at = excluded.updated_at",
                (collection, key, Jsonb(doc)),
            )

    def get_document(self, collection: str, key: str) -> dict[str, Any] | None:
        with self._connection() as conn:
            row = conn.execute(
                "SELECT doc FROM documents WHERE collection = %s AND key = %s", (collection, key)
            ).fetchone()
        return row[0] if row else None

    def list_documents(
        self, collection: str, limit: int = 100, offset: int = 0, after: str | None = None
    ) -> list[tuple[str, dict[str, Any]]]:
        check_paging(limit, offset)
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT key, doc FROM documents WHERE collection = %s AND (%s::text IS NULL OR key > %s)"
                " ORDER BY key LIMIT %s OFFSET %s",
                (collection, after, after, limit, offset),
            ).fetchall()
        return [(key, doc) for key, doc in rows]

    def delete_document(self, collection: str, key: str) -> None:
        with self._connection() as conn:
            conn.execute("DELETE FROM documents WHERE collection = %s AND key = %s", (collection, key))

    def take_document(self, collection: str, key: str) -> dict[str, Any] | None:
        with self._connection() as conn:
            row = conn.execute(
                "DELETE FROM documents WHERE collection = %s AND key = %s RETURNING doc", (collection, key)
            ).fetchone()
        return row[0] if row else None


def _append_error(exc: psycopg.Error, stream: str, expected: int, key: str | None) -> Exception:
    state = exc.sqlstate
    if state == "TW404":
        return StreamNotFound(stream)
    if state == "TW409":
        return WrongExpectedVersion(stream, expected, int(exc.diag.message_detail or -1))
    if state == "TW412":
        return DuplicateIdempotencyKey(f"idempotency key {key!r} was used on stream {stream!r}")
    if state == "23505":  # a concurrent insert of the same idempotency key won
        return DuplicateIdempotencyKey(f"idempotency key {key!r} was used on stream {stream!r}")
    if isinstance(exc, psycopg.OperationalError):
        return StoreUnavailable(f"PostgreSQL is unavailable: {one_line(exc)}")
    if isinstance(exc, psycopg.DataError):
        return ValueError(f"an event cannot be stored: {one_line(exc)}")
    return exc


def _row_info(row: tuple[Any, ...]) -> StreamInfo:
    stream, game_type, created_at, status, version, generation, metadata, creation, head_hash = row
    return StreamInfo(
        stream, game_type, iso_utc(created_at), status, version, generation, metadata, creation, head_hash
    )


def _genesis(info: StreamInfo) -> str:
    return genesis_hash(info.stream, info.game_type, info.created_at, info.creation)


def _row_event(row: tuple[Any, ...]) -> StoredEvent:
    stream, version, position, generation, data, meta, hash_, recorded_at = row
    return StoredEvent(stream, version, position, generation, data, meta, hash_, iso_utc(recorded_at))


def _read_json_fast(conn: psycopg.Connection[TupleRow]) -> None:
    """Every pooled connection reads ``json`` and ``jsonb`` values with ``json_loads`` (json's values, faster)."""
    set_json_loads(json_loads, conn)
