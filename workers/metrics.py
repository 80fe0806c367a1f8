"""Prometheus metrics of the game service and its jobs (``prometheus_client``); ``api.observability`` serves them.

The metric objects are made on first use, not at import: ``prometheus_client`` chooses between its
in-memory values and its multiprocess files (``PROMETHEUS_MULTIPROC_DIR``) when it is first imported, and
``tradewinds serve`` / ``tradewinds worker`` set that directory at start, before anything is counted.

| metric | kind | labels |
| --- | --- | --- |
| ``tradewinds_moves_stored_total`` | counter | ``game_type``, ``actor`` (human, bot, ...) |
| ``tradewinds_jobs_queued_total`` | counter | ``job`` (``play_bot_turn`` = bot turns queued), ``via`` (commit, sweep) |
| ``tradewinds_bot_turns_running`` | gauge | |
| ``tradewinds_bot_turns_total`` | counter | ``outcome`` (played, stale, no bot to act, failed) |
| ``tradewinds_bot_turn_seconds`` | histogram | |
| ``tradewinds_webhook_deliveries_total`` | counter | ``outcome`` (delivered, failed) |
| ``tradewinds_store_errors_total`` | counter | ``where`` (api, job, sweeper) |
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")

BOT_TURN_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


@dataclass(frozen=True)
class Metrics:
    moves_stored: Any
    jobs_queued: Any
    bot_turns_running: Any
    bot_turns: Any
    bot_turn_seconds: Any
    webhook_deliveries: Any
    store_errors: Any


def built_once(build: Callable[[], T]) -> Callable[[], T]:
    """``build``'s result, made once a process, under a lock: two first uses at once (a fresh server's first
    requests and jobs) would register each series twice, and prometheus refuses the second (``Duplicated
    timeseries``)."""
    lock = threading.Lock()
    built: list[T] = []

    def once() -> T:
        if not built:
            with lock:
                if not built:
                    built.append(build())
        return built[0]

    return once


@built_once
def metrics() -> Metrics:
    from prometheus_client import Counter, Gauge, Histogram

    return Metrics(
        moves_stored=Counter(
            "tradewinds_moves_stored_total", "Moves (commands) stored, by game type and actor", ["game_type", "actor"]
        ),
        jobs_queued=Counter(
            "tradewinds_jobs_queued_total",
            "Outbox work handed to the queue (job=play_bot_turn: bot turns), right after its commit or by a sweep",
            ["job", "via"],
        ),
        bot_turns_running=Gauge(
            "tradewinds_bot_turns_running", "Bot turns being computed now", multiprocess_mode="livesum"
        ),
        bot_turns=Counter("tradewinds_bot_turns_total", "Bot turn jobs run, by outcome", ["outcome"]),
        bot_turn_seconds=Histogram(
            "tradewinds_bot_turn_seconds", "Time a bot turn job took (load, search, store)", buckets=BOT_TURN_BUCKETS
        ),
        webhook_deliveries=Counter("tradewinds_webhook_deliveries_total", "Webhook sends, by outcome", ["outcome"]),
        store_errors=Counter(
            "tradewinds_store_errors_total", "Failures to reach the event store, by where they were met", ["where"]
        ),
    )


def never_fails(count: Callable[..., None]) -> Callable[..., None]:
    """Counting must never fail what is counted (a move is committed by then): a failure is only logged."""

    def safe(*args: Any) -> None:
        try:
            count(*args)
        except Exception:
            log.warning("could not update the metric %s", count.__name__, exc_info=True)

    safe.__name__ = count.__name__
    return safe


@never_fails
def move_stored(game_type: str, actor: str, commands: int = 1) -> None:
    metrics().moves_stored.labels(game_type, actor).inc(commands)


@never_fails
def job_queued(job: str, via: str) -> None:
    metrics().jobs_queued.labels(job, via).inc()


@contextmanager
def bot_turn() -> Iterator[dict[str, str]]:
    """Around one bot turn job: running while inside; its outcome (set ``["outcome"]``) and time when done."""
    m = metrics()
    result = {"outcome": "failed"}
    m.bot_turns_running.inc()
    started = time.perf_counter()
    try:
        yield result
    finally:
        m.bot_turns_running.dec()
        m.bot_turn_seconds.observe(time.perf_counter() - started)
        m.bot_turns.labels(result["outcome"]).inc()


@never_fails
def webhook_sent(ok: bool) -> None:
    metrics().webhook_deliveries.labels("delivered" if ok else "failed").inc()


@never_fails
def store_error(where: str) -> None:
    metrics().store_errors.labels(where).inc()
