"""Dispatchers for background jobs: RQ on Redis, or an in-process runner.

Jobs are referred to by name (``"play_bot_turn"``) and run by ``workers.jobs``; every job is idempotent,
so a duplicate or a retry is harmless.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Protocol

log = logging.getLogger(__name__)

QUEUE_NAME = "tradewinds"


class Dispatcher(Protocol):
    kind: str

    def enqueue(self, job: str, *args: Any, job_id: str | None = None) -> None: ...
    def enqueue_in(self, seconds: float, job: str, *args: Any) -> None: ...
    def lock(self, name: str, timeout: float = 60.0) -> AbstractContextManager: ...
    def ping(self) -> None: ...


class _LocalLocks:
    """Named locks for one process (jobs that must not run twice at once for the same key)."""

    def __init__(self) -> None:
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    @contextmanager
    def lock(self, name: str, timeout: float = 60.0):
        with self._guard:
            lock = self._locks.setdefault(name, threading.Lock())
        if not lock.acquire(timeout=timeout):
            raise TimeoutError(f"lock {name!r} is held by another job")
        try:
            yield
        finally:
            lock.release()


class InlineDispatcher:
    """Runs jobs synchronously in the caller's thread, one after the other (no recursion).

    A job enqueued while another runs is appended to the queue and run when the current job returns.
    Used by tests and by ``InProcessDispatcher``'s worker thread.
    """

    kind = "inline"

    def __init__(self, run: Callable[[str, tuple], None]) -> None:
        self._run = run
        self._queue: deque[tuple[str, tuple]] = deque()
        self._local = threading.local()
        self._locks = _LocalLocks()
        self.delayed: list[tuple[float, str, tuple]] = []  # (seconds, job, args): run by run_delayed()

    def lock(self, name: str, timeout: float = 60.0):
        return self._locks.lock(name, timeout)

    def enqueue_in(self, seconds: float, job: str, *args: Any) -> None:
        """Kept for the caller to run with ``run_delayed`` (tests control time)."""
        self.delayed.append((seconds, job, args))

    def run_delayed(self) -> int:
        """Run every delayed job now; returns how many ran."""
        jobs, self.delayed = self.delayed, []
        for _, job, args in jobs:
            self.enqueue(job, *args)
        return len(jobs)

    def enqueue(self, job: str, *args: Any, job_id: str | None = None) -> None:
        self._queue.append((job, args))
        if getattr(self._local, "draining", False):
            return
        self._local.draining = True
        try:
            while self._queue:
                name, job_args = self._queue.popleft()
                try:
                    self._run(name, job_args)
                except Exception:  # a failed job is logged; the next append re-queues bot turns
                    log.exception("job %s%r failed", name, job_args)
        finally:
            self._local.draining = False

    def ping(self) -> None:
        return None


class InProcessDispatcher:
    """Runs jobs on a few background threads of this process (the default without Redis)."""

    kind = "in-process"

    def __init__(self, run: Callable[[str, tuple], None], threads: int = 2) -> None:
        self._run = run
        self._queue: deque[tuple[str, tuple]] = deque()
        self._cond = threading.Condition()
        self._threads: list[threading.Thread] = []
        self._size = threads
        self._busy = 0
        self._timers: set[threading.Timer] = set()
        self._locks = _LocalLocks()

    def enqueue(self, job: str, *args: Any, job_id: str | None = None) -> None:
        with self._cond:
            self._queue.append((job, args))
            self._threads = [t for t in self._threads if t.is_alive()]
            if len(self._threads) < self._size:
                thread = threading.Thread(target=self._loop, name="tradewinds-jobs", daemon=True)
                self._threads.append(thread)
                thread.start()
            self._cond.notify()

    def enqueue_in(self, seconds: float, job: str, *args: Any) -> None:
        def fire() -> None:
            with self._cond:
                self._timers.discard(timer)
            self.enqueue(job, *args)

        timer = threading.Timer(seconds, fire)
        timer.daemon = True
        with self._cond:
            self._timers.add(timer)
        timer.start()

    def lock(self, name: str, timeout: float = 60.0):
        return self._locks.lock(name, timeout)

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._queue:
                    self._cond.notify_all()
                    self._cond.wait()
                name, args = self._queue.popleft()
                self._busy += 1
            try:
                self._run(name, args)
            except Exception:
                log.exception("job %s%r failed", name, args)
            finally:
                with self._cond:
                    self._busy -= 1
                    self._cond.notify_all()

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Block until no job is queued, running or scheduled (for tests and orderly shutdown)."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue and not self._busy and not self._timers, timeout)

    def ping(self) -> None:
        return None


class RQDispatcher:
    """Queues jobs on RQ; ``tradewinds worker`` runs them."""

    kind = "rq"

    def __init__(self, redis_url: str) -> None:
        from redis import Redis
        from rq import Queue

        self.redis = Redis.from_url(redis_url, socket_connect_timeout=3, socket_timeout=10)
        self.queue = Queue(QUEUE_NAME, connection=self.redis)

    def enqueue(self, job: str, *args: Any, job_id: str | None = None) -> None:
        from rq import Retry

        self.queue.enqueue(
            f"workers.jobs.{job}",
            *args,
            job_id=job_id,
            retry=Retry(max=3, interval=[1, 5, 15]),
            job_timeout=120,
            result_ttl=60,
            failure_ttl=24 * 3600,
        )

    def enqueue_in(self, seconds: float, job: str, *args: Any) -> None:
        from datetime import timedelta

        self.queue.enqueue_in(timedelta(seconds=seconds), f"workers.jobs.{job}", *args, job_timeout=120)

    def lock(self, name: str, timeout: float = 60.0):
        return self.redis.lock(f"tradewinds:lock:{name}", timeout=timeout, blocking_timeout=timeout)

    def ping(self) -> None:
        self.redis.ping()
