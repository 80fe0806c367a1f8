"""Work from the outbox onto a queue: written with its change, dispatched at once, swept when it stalls.

A change stores the work it causes in the store's outbox (``eventstore.outbox``) in the same
transaction. Work due now is written with ``due_at = now + LEASE`` and dispatched right after the commit;
a failure to dispatch (Redis down) is only logged. Work for later (a clock's flag-fall) is written with
its time and left to the sweeper.

The ``Sweeper`` runs in every worker and in-process runner: about every second it claims the outbox
entries that are due (a claim pushes ``due_at`` back by a doubling lease, so two sweepers never take the
same entry at once) and dispatches each one whose job is not alive any more: never queued, lost with a
Redis restart, or held by a worker that died (no heartbeat). A job completes its entry when it has run;
a duplicate job is harmless (bot turns check the expected version and generation).
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from typing import Any

from eventstore.base import EventStore
from eventstore.outbox import OutboxEntry
from workers import metrics

log = logging.getLogger(__name__)

LEASE = 5.0  # seconds a dispatched entry waits before a sweeper looks at it again
SWEEP_INTERVAL = 1.0
BATCH = 200
WEBHOOK_JOBS = frozenset({"sync_webhooks", "deliver_webhooks", "redeliver_webhook"})


class RetryLater(Exception):  # noqa: N818 - a signal, not an error
    """Raised by a job that could not do its work now (another job holds its lock): run it again later."""

    def __init__(self, delay: float = 1.0) -> None:
        super().__init__(f"retry in {delay} s")
        self.delay = delay


def work_item(key: str, job: str, args: list[Any], delay: float = 0.0, now: float | None = None) -> dict[str, Any]:
    """An outbox entry: work for now (dispatched after the commit) or for ``delay`` seconds later (swept)."""
    now = time.time() if now is None else now
    due_at = now + delay if delay > 0 else now + LEASE
    # "dispatch" is not stored: it tells dispatch_now to hand the work over right after the commit
    return {
        "key": key,
        "token": uuid.uuid4().hex,
        "job": job,
        "args": list(args),
        "due_at": due_at,
        "dispatch": delay <= 0,
    }


def as_entry(item: dict[str, Any] | OutboxEntry) -> OutboxEntry:
    if isinstance(item, OutboxEntry):
        return item
    return OutboxEntry(item["key"], item["token"], item["job"], list(item["args"]), item["due_at"])


def dispatch_now(dispatcher: Any, items: list[dict[str, Any]]) -> int:
    """Hand work that is due now to the dispatcher; failures are logged (the sweeper will retry)."""
    sent = 0
    if dispatcher is None:
        return 0
    for item in items:
        if not item.get("dispatch"):
            continue
        try:
            dispatcher.dispatch(as_entry(item))
            metrics.job_queued(item["job"], "commit")
            sent += 1
        except Exception as exc:  # the work is committed in the outbox: the sweeper dispatches it later
            log.warning("could not dispatch %s (%s): %s; the sweeper will retry", item["job"], item["key"], exc)
    return sent


class Sweeper:
    """Re-dispatches due outbox work that has no live job, on a background thread (or once, by hand)."""

    def __init__(
        self, store: EventStore, dispatcher: Any, interval: float = SWEEP_INTERVAL, lease: float = LEASE
    ) -> None:
        self.store = store
        self.dispatcher = dispatcher
        self.interval = interval
        self.lease = lease
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.dispatched = 0

    def sweep_once(self, now: float | None = None, limit: int = BATCH) -> int:
        """Claim due entries and dispatch those whose job is not alive; returns how many were dispatched."""
        now = time.time() if now is None else now
        sent = 0
        for entry in self.store.claim_outbox(now, self.lease, limit):
            try:
                if self.dispatcher.is_live(entry):
                    continue
                self.dispatcher.dispatch(entry)
                metrics.job_queued(entry.job, "sweep")
                sent += 1
            except Exception as exc:
                log.warning("sweeper could not dispatch %s (%s): %s", entry.job, entry.key, exc)
                break  # the queue is down: the entries stay leased and come back after the lease
        self.dispatched += sent
        return sent

    def start(self) -> Sweeper:
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._thread = threading.Thread(target=self._loop, name="tradewinds-sweeper", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _loop(self) -> None:
        backoff = self.interval
        while not self._stop.wait(backoff):
            try:
                while self.sweep_once() >= BATCH:  # a backlog: keep going
                    pass
                backoff = self.interval
            except Exception as exc:  # the store is down: try again, less often
                if getattr(self.store, "_closed", False):
                    return
                log.warning("sweeper: %s", exc)
                metrics.store_error("sweeper")
                backoff = min(backoff * 2, 10.0)
