"""PostgreSQL down for a while, then back: callers get their error at once, and the store finds the server again.

The cluster is the test's own (``OwnPostgres``), never the shared one.
"""

from __future__ import annotations

import threading
import time

import pytest

from eventstore.base import StoreUnavailable
from eventstore.postgres import LOST_WAIT, RECONNECT_WINDOW, PostgresStore
from tests.faults.conftest import LONG, report
from tests.support.own_services import OwnPostgres

pytestmark = [pytest.mark.postgres, pytest.mark.faults]


def _timed_ping(store: PostgresStore) -> tuple[float, bool]:
    started = time.monotonic()
    try:
        store.ping()
        ok = True
    except StoreUnavailable:
        ok = False
    return time.monotonic() - started, ok


def _fill_pool(store: PostgresStore, threads: int) -> None:
    """Several callers at once, so the pool holds several connections (each a stale one after a restart)."""
    barrier = threading.Barrier(threads)

    def use() -> None:
        barrier.wait()
        for _ in range(30):
            store.ping()

    workers = [threading.Thread(target=use) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()


def test_an_outage_answers_at_once_and_the_server_is_found_again():
    """While the server is down each call fails within LOST_WAIT (not the pool's 30 s wait); once it is back,
    the next call is served, however long the outage lasted (not after the pool's grown back-off)."""
    pg = OwnPostgres().init().start()
    store = None
    try:
        store = PostgresStore(pg.url, min_size=2, max_size=6)
        _fill_pool(store, 6)
        pg.stop("immediate")
        outage = (RECONNECT_WINDOW * 6) if LONG else (RECONNECT_WINDOW + 4)  # past a whole back-off round
        down = time.monotonic()
        during = []
        while time.monotonic() - down < outage:
            during.append(_timed_ping(store))
        assert not any(ok for _, ok in during)
        slowest = max(took for took, _ in during)
        assert slowest < LOST_WAIT + 1.0, f"a call waited {slowest:.1f} s for its error while the server was down"
        pg.start()
        back = time.monotonic()
        while not _timed_ping(store)[1]:
            assert time.monotonic() - back < 5, "the store did not find the server again within 5 s"
        found = time.monotonic() - back
        report("postgres-outage", outage_s=round(outage, 1), calls=len(during), slowest_s=round(slowest, 2))
        report("postgres-outage", served_again_after_s=round(found, 2))
    finally:
        if store is not None:
            store.close()
        pg.remove()


def test_a_restart_costs_one_failed_call_not_one_per_pooled_connection():
    """A restart breaks every pooled connection; the first failure checks the idle ones, so the calls after it
    are served instead of each drawing the next broken connection."""
    pg = OwnPostgres().init().start()
    store = None
    try:
        store = PostgresStore(pg.url, min_size=6, max_size=6)
        _fill_pool(store, 6)
        pg.restart()
        outcomes = []
        for _ in range(20):
            outcomes.append(_timed_ping(store)[1])
            time.sleep(0.05)
        assert outcomes.count(False) <= 1, outcomes
        assert all(outcomes[-10:]), outcomes
    finally:
        if store is not None:
            store.close()
        pg.remove()
