"""``tradewinds worker``: an RQ worker that builds its runtime once, sweeps the outbox and outlives Redis restarts.

By default jobs run in the worker process (RQ's ``SimpleWorker``): the store's connection pool, the
game cache and the Redis connection are made once, not for every job, so a random bot's turn costs a
few milliseconds. The trade-off: a job that crashes the interpreter takes the worker with it (run workers
under a supervisor, see docs/operations.md), and a job's timeout is enforced with ``SIGALRM`` in the
worker's main thread. ``--fork`` keeps RQ's forking worker (a fresh process per job; the runtime is then
built in every work horse).

Every worker also runs the outbox sweeper (``workers.sweeper``), so work whose job was lost (a Redis
restart, a killed worker) is dispatched again within seconds.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from workers import jobs
from workers.dispatch import QUEUE_NAME, WEBHOOK_QUEUE_NAMES
from workers.logs import log_level
from workers.runtime import Runtime

log = logging.getLogger(__name__)

QUEUES = {"bots": [QUEUE_NAME], "webhooks": [*WEBHOOK_QUEUE_NAMES], "all": [QUEUE_NAME, *WEBHOOK_QUEUE_NAMES]}
RECONNECT_CAP = 5.0  # seconds between attempts to reach Redis again, at most
WORKER_TTL = 30  # RQ's worker key lifetime: its blocking dequeue waits WORKER_TTL - 15 s at a time


def serve_metrics(host: str, port: int) -> None:
    """Serve this worker's Prometheus metrics (the sum over its job processes) on ``host:port``, on a thread."""
    import os

    from prometheus_client import CollectorRegistry, start_http_server

    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        from prometheus_client import REGISTRY

        registry = REGISTRY
    start_http_server(port, addr=host, registry=registry)


def in_turn(queues: list[Any], taken: Any) -> list[Any]:
    """The order a worker looks at its queues in after taking a job from ``taken``: bot turns first, as listed; the
    webhook queues in turn, the one just taken from last (``workers.dispatch.WEBHOOK_SHARDS``)."""
    hooks = [q for q in queues if q.name in WEBHOOK_QUEUE_NAMES]
    others = [q for q in queues if q.name not in WEBHOOK_QUEUE_NAMES]
    if taken.name in WEBHOOK_QUEUE_NAMES:
        after = next(i for i, q in enumerate(hooks) if q.name == taken.name) + 1
        hooks = hooks[after:] + hooks[:after]
    return others + hooks


def describe_queues(names: list[str]) -> str:
    """The queues a worker takes jobs from, for its first line: the webhook queues as one range."""
    hooks = [n for n in names if n in WEBHOOK_QUEUE_NAMES]
    said = [repr(n) for n in names if n not in WEBHOOK_QUEUE_NAMES]
    if hooks:
        said.append(f"the webhook queues {hooks[0]!r}, {hooks[1]!r} to {hooks[-1]!r} (taken in turn)")
    return " and ".join(said)


class _InTurn:
    """For RQ's worker classes: after each job, the queues are looked at ``in_turn`` (as RQ's own
    ``RoundRobinWorker`` reorders them, here per kind of queue)."""

    _ordered_queues: list[Any]

    def reorder_queues(self, reference_queue: Any) -> None:
        self._ordered_queues = in_turn(self._ordered_queues, reference_queue)


def worker_classes() -> tuple[type[Any], type[Any]]:
    from rq import SimpleWorker, Worker

    class TradewindsSimpleWorker(_InTurn, SimpleWorker):
        max_connection_wait_time = RECONNECT_CAP

    class TradewindsForkWorker(_InTurn, Worker):
        max_connection_wait_time = RECONNECT_CAP

    return TradewindsSimpleWorker, TradewindsForkWorker


def run(
    runtime: Runtime, queues: str = "all", burst: bool = False, fork: bool = False, say: Callable[[str], None] = print
) -> int:
    """Work until stopped (SIGTERM / SIGINT), reconnecting to Redis with back-off whenever it goes away."""
    from redis import Redis

    simple, forking = worker_classes()
    cls = forking if fork else simple
    if not fork:
        jobs.set_runtime(runtime)  # built once: every job of this process shares it
    names = QUEUES[queues]
    resumed = _resume(runtime)
    say(
        f"Tradewinds worker on {describe_queues(names)} ({'fork per job' if fork else 'in-process'}; "
        f"{resumed} pending bot turn(s) re-queued)"
    )
    assert runtime.sweeper is not None
    if not burst:
        runtime.sweeper.start()
    assert runtime.redis_url is not None, "an RQ worker needs Redis"
    connection = Redis.from_url(runtime.redis_url)
    backoff = 0.25
    while True:
        worker = None
        try:
            worker = cls(names, connection=connection, worker_ttl=WORKER_TTL)
            # rq sets its own logger to this level (its default, INFO, writes lines for every job)
            worker.work(burst=burst, with_scheduler=False, logging_level=log_level())
        except Exception as exc:  # Redis went away during start-up or teardown
            log.warning("worker lost Redis: %s", exc)
        if burst or _stopped(worker):
            runtime.sweeper.stop()
            return 0
        say(f"Tradewinds worker: reconnecting to Redis in {backoff:.2f} s")
        time.sleep(backoff)
        if _stopped(worker):  # SIGTERM while waiting
            runtime.sweeper.stop()
            return 0
        backoff = min(backoff * 2, RECONNECT_CAP)
        if _redis_up(connection):
            backoff = 0.25


def _stopped(worker: Any) -> bool:
    """Whether a SIGTERM / SIGINT asked this worker to stop (RQ records the time of the request)."""
    return worker is not None and (worker._stop_requested or worker._shutdown_requested_date is not None)


def _redis_up(connection: Any) -> bool:
    try:
        connection.ping()
        return True
    except Exception:
        return False


def _resume(runtime: Runtime) -> int:
    """At start: bot turns without a live job, and any due outbox work, are dispatched again."""
    try:
        resumed = runtime.service.resume_pending_bots()
        assert runtime.sweeper is not None
        runtime.sweeper.sweep_once()
        return resumed
    except Exception as exc:
        log.warning("could not resume pending work yet (the sweeper will): %s", exc)
        return 0
