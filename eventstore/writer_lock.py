"""Writers of one SQLite file wait in a queue for it, not by polling it.

SQLite lets one writer at a time into a database and makes the others poll: its busy handler sleeps 1, 2, 5, 10,
15, 20, 25, 25, 25, 50, 50 and then 100 ms between tries. Under contention a writer that missed the lock sleeps on
long after it is free while others take it: with 32 clients on ``serve``'s two processes, one POST in a hundred
waited over a second. ``WriterLock`` queues writers before they ask SQLite: a thread lock within the process, and
an exclusive ``flock`` on a file beside the database across processes, which the kernel hands to the next waiter as
soon as the holder lets go (or dies). SQLite's own lock still guards the data: a writer that does not take this
lock (another program) is kept out as before; this only decides who asks next.

Where ``fcntl`` is missing (Windows) or the lock file cannot be opened, only the threads of one process queue.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

try:
    import fcntl
except ImportError:  # pragma: no cover - not on the platforms CI runs
    fcntl = None  # type: ignore[assignment]


class WriterLock:
    """One queue of writers for the SQLite file at ``path`` (``None``: the threads of this process only)."""

    def __init__(self, path: str | None) -> None:
        self.file = None if path is None or fcntl is None else f"{path}-writer"
        self._guard = threading.Lock()
        self._pid = -1
        self._threads = threading.Lock()
        self._fd: int | None = None

    def _for_this_process(self) -> tuple[threading.Lock, int | None]:
        """The thread lock and the lock file of this process: a forked child opens its own (an inherited file
        description is the parent's, and ``flock`` would let both in) and gets a new thread lock (one held by a
        parent's thread at the fork would never be released in the child)."""
        pid = os.getpid()
        if self._pid != pid:
            with self._guard:
                if self._pid != pid:
                    self._threads = threading.Lock()
                    self._fd = None
                    if self.file is not None:
                        try:
                            self._fd = os.open(self.file, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
                        except OSError:
                            self._fd = None
                    self._pid = pid
        return self._threads, self._fd

    @contextmanager
    def held(self) -> Iterator[None]:
        """Wait for the turn to write, and hold it until the block ends."""
        threads, fd = self._for_this_process()
        with threads:
            if fd is None or fcntl is None:
                yield
                return
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)

    def close(self) -> None:
        """Close this process's lock file (a later ``held`` opens it again)."""
        with self._guard:
            if self._fd is not None and self._pid == os.getpid():
                os.close(self._fd)
            self._fd, self._pid = None, -1
