"""Writers of one SQLite file wait in a queue for it, not by polling it with long sleeps.

SQLite lets one writer at a time into a database and makes the others poll: its busy handler sleeps 1, 2, 5, 10,
15, 20, 25, 25, 25, 50, 50 and then 100 ms between tries. Under contention a writer that missed the lock sleeps on
long after it is free while others take it: with 32 clients on ``serve``'s two processes, one POST in a hundred
waited more than half a second. ``WriterLock`` queues writers before they ask SQLite: a thread lock within the process (a
waiting thread wakes as soon as the holder lets go), then an exclusive ``flock`` on a file beside the database
across processes, tried again within 2 ms of being let go (or of its holder's death). SQLite's own lock still
guards the data: a writer that does not take this lock (another program) is kept out as before; this only decides
who asks next.

A wait has a limit, like SQLite's ``busy_timeout``: ``acquire(timeout)`` raises ``TimeoutError`` and
``held(timeout)`` ``StoreUnavailable`` when the turn has not come by then (a holder that hangs must not hang every
writer of every process with it).

Where ``fcntl`` is missing (Windows) or the lock file cannot be opened, only the threads of one process queue.
"""

from __future__ import annotations

import errno
import os
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager

from eventstore.base import StoreUnavailable

try:
    import fcntl
except ImportError:  # pragma: no cover - not on the platforms CI runs
    fcntl = None  # type: ignore[assignment]

# Between two tries of the lock file: the first pause, and the longest (doubling between them).
FIRST_PAUSE = 0.0002
LONGEST_PAUSE = 0.002


class WriterLock:
    """One queue of writers for the SQLite file at ``path`` (``None``: the threads of this process only)."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.file = None if path is None or fcntl is None else f"{path}-writer"
        self._guard = threading.Lock()  # opening and closing the lock file
        self._threads = threading.Lock()  # this process's writers, one at a time
        self._fd: int | None = None
        self._locked: int | None = None  # the lock file the writer holding the turn locked
        self._closed = False
        _LOCKS.add(self)

    def _after_fork(self) -> None:
        """In a forked child: new locks (one held by a parent's thread at the fork would never be let go here) and
        no lock file yet (the inherited descriptor shares the parent's ``flock``, which would let both in; closing
        it does not release the parent's lock, and keeps a parent that dies holding it from leaving it held)."""
        self._guard = threading.Lock()
        self._threads = threading.Lock()
        self._locked = None
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None

    def _file(self) -> int | None:
        if self._fd is None and self.file is not None and not self._closed:
            with self._guard:
                if self._fd is None and not self._closed:
                    try:
                        self._fd = os.open(self.file, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
                    except OSError as exc:  # this write queues within the process only
                        if isinstance(exc, PermissionError) or exc.errno == errno.EROFS:
                            self.file = None  # and every later one: the folder will not let us make the file
        return self._fd

    def acquire(self, timeout: float) -> None:
        """Wait at most ``timeout`` seconds for the turn to write (``TimeoutError`` after); ``release`` gives it
        back."""
        deadline = time.monotonic() + timeout
        threads = self._threads
        if not threads.acquire(timeout=min(max(0.0, timeout), threading.TIMEOUT_MAX)):
            raise TimeoutError(f"no turn to write within {timeout:g} s")
        try:
            fd = self._file()
            if fd is None or fcntl is None:
                return
            pause = FIRST_PAUSE
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    self._locked = fd
                    return
                except BlockingIOError:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise TimeoutError(f"no turn to write within {timeout:g} s") from None
                    time.sleep(min(pause, left))
                    pause = min(pause * 2, LONGEST_PAUSE)
        except BaseException:
            threads.release()
            raise

    def release(self) -> None:
        """Give back the turn ``acquire`` took (this thread holds it)."""
        fd, self._locked = self._locked, None
        try:
            if fd is not None and fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)
            if self._closed:  # a close that could not wait for this writer left the file open for it
                self._close_file()
        finally:
            self._threads.release()

    @contextmanager
    def held(self, timeout: float) -> Iterator[None]:
        """``acquire`` for the block; ``StoreUnavailable`` (a 503) when the turn does not come within ``timeout``
        seconds, as when SQLite's own wait ends."""
        try:
            self.acquire(timeout)
        except TimeoutError as exc:
            raise StoreUnavailable(f"SQLite database {self.path} is busy: {exc}") from None
        try:
            yield
        finally:
            self.release()

    def close(self, timeout: float = 5.0) -> None:
        """Close the lock file once the writer holding the turn (if any) is done; if it is not done within
        ``timeout`` seconds, that writer closes it when it gives the turn back (closing it now would let another
        process in beside it)."""
        self._closed = True
        if self._threads.acquire(timeout=min(max(0.0, timeout), threading.TIMEOUT_MAX)):
            try:
                self._close_file()
            finally:
                self._threads.release()

    def _close_file(self) -> None:
        with self._guard:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None


# Every lock of this process, for the one fork hook below (a hook a lock cannot be unregistered; one per lock would
# pile up in a process that makes many stores).
_LOCKS: weakref.WeakSet[WriterLock] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for lock in list(_LOCKS):
        lock._after_fork()


os.register_at_fork(after_in_child=_after_fork_in_child)
