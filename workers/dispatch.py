"""Dispatchers for background jobs: RQ on Redis, or an in-process runner.

Jobs are referred to by name (``"play_bot_turn"``) and run by ``workers.jobs``; every job is idempotent,
so a duplicate or a retry is harmless.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

log = logging.getLogger(__name__)

QUEUE_NAME = "tradewinds"


class Dispatcher(Protocol):
    kind: str

    def enqueue(self, job: str, *args: Any, job_id: str | None = None) -> None: ...
    def ping(self) -> None: ...


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
    """Runs jobs on one background thread of this process (the default without Redis)."""

    kind = "in-process"

    def __init__(self, run: Callable[[str, tuple], None]) -> None:
        self._run = run
        self._queue: deque[tuple[str, tuple]] = deque()
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._busy = False

    def enqueue(self, job: str, *args: Any, job_id: str | None = None) -> None:
        with self._cond:
            self._queue.append((job, args))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name="tradewinds-jobs", daemon=True)
                self._thread.start()
            self._cond.notify()

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._queue:
                    self._busy = False
                    self._cond.notify_all()
                    self._cond.wait()
                name, args = self._queue.popleft()
                self._busy = True
            try:
                self._run(name, args)
            except Exception:
                log.exception("job %s%r failed", name, args)

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Block until no job is queued or running (for tests and orderly shutdown)."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue and not self._busy, timeout)

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

    def ping(self) -> None:
        self.redis.ping()
