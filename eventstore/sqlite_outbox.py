"""The outbox (``eventstore.outbox``) on SQLite: a mixin of ``SqliteStore``.

``append`` writes its entries inside its own ``BEGIN IMMEDIATE`` transaction (``write_outbox``).
"""

from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from eventstore._common import check_paging, json_loads
from eventstore.base import canonical_json
from eventstore.outbox import OutboxEntry, check_outbox, next_lease


class SqliteOutbox:
    """Needs ``self._transaction()`` and ``self._conn()`` of ``SqliteStore``."""

    if TYPE_CHECKING:

        def _transaction(self, mode: str = "IMMEDIATE") -> AbstractContextManager[sqlite3.Connection]: ...

        def _conn(self) -> sqlite3.Connection: ...

    def put_outbox(self, entries: list[dict[str, Any]]) -> None:
        work = check_outbox(entries)
        with self._transaction() as conn:
            write_outbox(conn, work)

    def claim_outbox(self, now: float, lease: float, limit: int = 100) -> list[OutboxEntry]:
        check_paging(limit)
        next_lease(lease, 0)
        with self._transaction() as conn:  # BEGIN IMMEDIATE: one claimer at a time
            rows = conn.execute(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE due_at <= ? ORDER BY due_at, key LIMIT ?", (now, limit)
            ).fetchall()
            claimed = []
            for row in rows:
                entry = _row_outbox(row)
                due_at = now + next_lease(lease, entry.attempts)
                conn.execute("UPDATE outbox SET due_at = ?, attempts = attempts + 1 WHERE key = ?", (due_at, entry.key))
                claimed.append(OutboxEntry(entry.key, entry.token, entry.job, entry.args, due_at, entry.attempts + 1))
        return claimed

    def complete_outbox(self, key: str, token: str) -> bool:
        with self._transaction() as conn:
            return conn.execute("DELETE FROM outbox WHERE key = ? AND token = ?", (key, token)).rowcount == 1

    def list_outbox(self, job: str | None = None, limit: int = 100) -> list[OutboxEntry]:
        check_paging(limit)
        rows = (
            self._conn()
            .execute(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE ?1 IS NULL OR job = ?1 ORDER BY due_at, key LIMIT ?2",
                (job, limit),
            )
            .fetchall()
        )
        return [_row_outbox(row) for row in rows]


_OUTBOX_COLUMNS = "key, token, job, args, due_at, attempts"


def write_outbox(conn: sqlite3.Connection, work: list[OutboxEntry]) -> None:
    conn.executemany(
        "INSERT OR REPLACE INTO outbox (key, token, job, args, due_at, attempts) VALUES (?, ?, ?, ?, ?, 0)",
        [(e.key, e.token, e.job, canonical_json(e.args), e.due_at) for e in work],
    )


def _row_outbox(row: tuple[Any, ...]) -> OutboxEntry:
    key, token, job, args, due_at, attempts = row
    return OutboxEntry(key, token, job, json_loads(args), due_at, attempts)
