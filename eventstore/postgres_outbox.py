"""The outbox (``eventstore.outbox``) on PostgreSQL: a mixin of ``PostgresStore``.

``append`` writes its entries in the same statement as the events (``OUTBOX_UPSERT`` as a CTE), so they
commit or fail together.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg.rows import TupleRow

from eventstore._common import check_paging
from eventstore.base import canonical_json
from eventstore.outbox import MAX_DOUBLINGS, MAX_LEASE, OutboxEntry, check_outbox, next_lease


class PostgresOutbox:
    """Needs ``self._connection()`` (a context manager yielding an autocommit connection)."""

    if TYPE_CHECKING:

        def _connection(self) -> AbstractContextManager[psycopg.Connection[TupleRow]]: ...

    def put_outbox(self, entries: list[dict[str, Any]]) -> None:
        work = check_outbox(entries)
        if work:
            with self._connection() as conn, conn.transaction():
                write_outbox(conn, work)

    def claim_outbox(self, now: float, lease: float, limit: int = 100) -> list[OutboxEntry]:
        check_paging(limit)
        next_lease(lease, 0)
        with self._connection() as conn:
            rows = conn.execute(
                "UPDATE outbox o SET due_at = %(now)s + least(%(cap)s, %(lease)s * (1 << least(o.attempts, %(d)s))),"
                " attempts = o.attempts + 1"
                " FROM (SELECT key FROM outbox WHERE due_at <= %(now)s ORDER BY due_at, key LIMIT %(n)s"
                " FOR UPDATE SKIP LOCKED) d WHERE o.key = d.key"
                f" RETURNING {_OUTBOX_COLUMNS.replace('key', 'o.key')}",
                {"now": now, "cap": MAX_LEASE, "lease": lease, "d": MAX_DOUBLINGS, "n": limit},
            ).fetchall()
        return sorted((_row_outbox(row) for row in rows), key=lambda e: (e.due_at, e.key))

    def complete_outbox(self, key: str, token: str) -> bool:
        with self._connection() as conn:
            return conn.execute("DELETE FROM outbox WHERE key = %s AND token = %s", (key, token)).rowcount == 1

    def list_outbox(self, job: str | None = None, limit: int = 100) -> list[OutboxEntry]:
        check_paging(limit)
        with self._connection() as conn:
            rows = conn.execute(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE %(j)s::text IS NULL OR job = %(j)s"
                " ORDER BY due_at, key LIMIT %(l)s",
                {"j": job, "l": limit},
            ).fetchall()
        return [_row_outbox(row) for row in rows]


_OUTBOX_COLUMNS = "key, token, job, args, due_at, attempts"


OUTBOX_UPSERT = (
    "INSERT INTO outbox (key, token, job, args, due_at, attempts)"
    " SELECT k, t, j, a::jsonb, d, 0 FROM unnest(%(ok)s::text[], %(ot)s::text[], %(oj)s::text[], %(oa)s::text[],"
    " %(od)s::float8[]) AS w(k, t, j, a, d)"
    " ON CONFLICT (key) DO UPDATE SET token = excluded.token, job = excluded.job, args = excluded.args,"
    " due_at = excluded.due_at, attempts = 0"
)


def outbox_params(work: list[OutboxEntry]) -> dict[str, list[Any]]:
    return {
        "ok": [e.key for e in work],
        "ot": [e.token for e in work],
        "oj": [e.job for e in work],
        "oa": [canonical_json(e.args) for e in work],
        "od": [e.due_at for e in work],
    }


def write_outbox(conn: psycopg.Connection, work: list[OutboxEntry]) -> None:
    if work:
        conn.execute(OUTBOX_UPSERT, outbox_params(work))


def _row_outbox(row: tuple[Any, ...]) -> OutboxEntry:
    key, token, job, args, due_at, attempts = row
    return OutboxEntry(key, token, job, args, due_at, attempts)
