"""Counters shared by the request processes of one ``serve`` without Redis: a SQLite file on the machine.

``serve --workers N`` runs N request processes. The rate limits (``api.ratelimit``) and the per-address and
per-game follower caps (``api.followers``) must count every process's requests and followers, not each
process its own. With Redis they are counted there; without it, ``serve`` makes this file (in a folder of
its own, removed when it stops) and names it in ``TRADEWINDS_COUNTERS_FILE`` for its workers.

Nothing here needs to survive a crash: a rate window lasts a minute and a follower slot lapses ``SLOT_TTL``
seconds after its process stops refreshing it. So the file is written without waiting for the disk
(``synchronous=OFF``); every operation is one short transaction, so processes wait on each other only for
microseconds, in a queue (``eventstore.writer_lock``) rather than in SQLite's polling busy handler
(``busy_timeout`` bounds a wait for a writer that does not queue).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from eventstore.base import StoreUnavailable
from eventstore.writer_lock import WriterLock

ENV = "TRADEWINDS_COUNTERS_FILE"
PRUNE_EVERY = 1000  # window hits between two removals of ended windows (per process)
BUSY_SECONDS = 5.0  # the longest wait for a turn to write

SCHEMA = """
CREATE TABLE IF NOT EXISTS windows (key TEXT PRIMARY KEY, count INTEGER NOT NULL, ends REAL NOT NULL);
CREATE TABLE IF NOT EXISTS slots (
    key TEXT NOT NULL, slot TEXT NOT NULL, lapse REAL NOT NULL, PRIMARY KEY (key, slot)
);
"""

# One statement: a window that has ended starts again at 1 (SET expressions read the row as it was).
HIT = """
INSERT INTO windows (key, count, ends) VALUES (?1, 1, ?2 + ?3)
ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN windows.ends <= ?2 THEN 1 ELSE windows.count + 1 END,
    ends = CASE WHEN windows.ends <= ?2 THEN ?2 + ?3 ELSE windows.ends END
RETURNING count, ends
"""


class CounterFile:
    """Fixed-window counts and lapsing slots in one SQLite file, safe across threads and processes."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._local = threading.local()
        self._writers = WriterLock(path)
        self._hits = 0
        with self._connection() as conn:
            conn.executescript(SCHEMA)

    @contextmanager
    def _turn(self) -> Iterator[None]:
        """This writer's turn among the file's writers, waited for at most ``BUSY_SECONDS``; the file busy beyond
        that (or SQLite's own wait ending) is ``StoreUnavailable``, a 503, not an error of the request."""
        with self._writers.held(BUSY_SECONDS):
            try:
                yield
            except sqlite3.OperationalError as exc:
                raise StoreUnavailable(f"the counters file is unavailable: {exc}") from None

    def _connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=OFF")
            self._local.conn = conn
        return conn

    # -- fixed windows (rate limits) -------------------------------------------------------------------
    def hit(self, key: str, window: float, now: float | None = None) -> tuple[int, float]:
        """Count one request in ``key``'s window of ``window`` seconds: (the count so far, when it ends)."""
        now = time.time() if now is None else now
        conn = self._connection()
        with self._turn():
            count, ends = conn.execute(HIT, (key, now, window)).fetchone()
            self._hits += 1
            if self._hits % PRUNE_EVERY == 0:
                conn.execute("DELETE FROM windows WHERE ends <= ?", (now,))
        return int(count), float(ends)

    # -- slots (follower caps) -------------------------------------------------------------------------
    def take(self, keys: list[tuple[str, int]], slot_id: str, ttl: float) -> str | None:
        """Take ``slot_id`` in every key, or in none: the first key whose live slots would exceed its cap."""
        now = time.time()
        conn = self._connection()
        with self._turn():
            conn.execute("BEGIN IMMEDIATE")
            try:
                for key, cap in keys:
                    conn.execute("DELETE FROM slots WHERE key = ? AND lapse <= ?", (key, now))
                    (live,) = conn.execute("SELECT COUNT(*) FROM slots WHERE key = ?", (key,)).fetchone()
                    if live >= cap:
                        conn.execute("ROLLBACK")
                        return key
                    conn.execute("INSERT OR REPLACE INTO slots VALUES (?, ?, ?)", (key, slot_id, now + ttl))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return None

    def refresh(self, slot_ids: list[str], ttl: float) -> None:
        """Extend these slots' lapse times (a released slot stays released)."""
        conn = self._connection()
        lapse = time.time() + ttl
        with self._turn():
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.executemany("UPDATE slots SET lapse = ? WHERE slot = ?", [(lapse, s) for s in slot_ids])
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def release(self, slot_id: str) -> None:
        conn = self._connection()
        with self._turn():
            conn.execute("DELETE FROM slots WHERE slot = ?", (slot_id,))

    def count(self, key: str) -> int:
        (live,) = (
            self._connection()
            .execute("SELECT COUNT(*) FROM slots WHERE key = ? AND lapse > ?", (key, time.time()))
            .fetchone()
        )
        return int(live)


def shared_counters(app: Any) -> CounterFile | None:
    """The app's counter file: ``app.config["COUNTERS_FILE"]`` or ``$TRADEWINDS_COUNTERS_FILE``, opened once per
    app (None without one: the process counts alone)."""
    found = app.extensions.get("tradewinds_counters")
    if found is None:
        path = app.config.get("COUNTERS_FILE") or os.environ.get(ENV) or None
        if path is None:
            return None
        found = app.extensions["tradewinds_counters"] = CounterFile(path)
    return found
