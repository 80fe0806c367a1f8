"""Shared fixtures: real PostgreSQL and Redis when reachable.

Tests that need a service skip with a clear reason when it is unreachable, unless
``TRADEWINDS_REQUIRE_SERVICES=1`` (set by CI), which turns the skip into a failure.
"""

from __future__ import annotations

import os

import pytest

from tests.support.services import require_service, scratch_postgres_database

REDIS_URL = os.environ.get("TRADEWINDS_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")

# The tests' webhook receivers listen on 127.0.0.1: the operator's setting that allows private targets
# (tests/workers/test_webhook_targets.py turns it off to check each refused class).
os.environ.setdefault("TRADEWINDS_WEBHOOK_ALLOW_PRIVATE", "1")
# Every test client is one address (127.0.0.1) making thousands of requests a minute: the suite runs with
# the per-address and per-seat limits out of the way, and tests/api/test_rate_limits.py sets its own.
os.environ.setdefault("TRADEWINDS_RATE_LIMIT_ANONYMOUS", "0")
os.environ.setdefault("TRADEWINDS_RATE_LIMIT_SEAT", "0")
# likewise the caps on games with bot seats per address and key (tests/api/test_bot_limits.py sets its own)
for _cap in ("TRADEWINDS_BOT_GAMES_PER_ADDRESS", "TRADEWINDS_BOT_GAMES_PER_KEY", "TRADEWINDS_BOT_GAMES_TOTAL"):
    os.environ.setdefault(_cap, "0")


def redis_url_for_worker(worker_id: str) -> str:
    """Parallel test processes (pytest-xdist) each get a Redis database of their own: 15, 14, ..."""
    if not worker_id.startswith("gw"):
        return REDIS_URL
    base, _, db = REDIS_URL.rpartition("/")
    return f"{base}/{max(0, int(db or 15) - int(worker_id[2:]))}"


@pytest.fixture(autouse=True)
def secret_game_registered():
    """The test-only game is available to every test (it is never registered in production)."""
    from domain import registry
    from tests.support.secret_game import RULES

    registry.register(RULES)
    yield
    registry.unregister(RULES.name)


@pytest.fixture
def redis_url(worker_id):
    """A Redis database of the tests' own (db 15 by default), flushed before and after each test."""
    from redis import Redis

    url = redis_url_for_worker(worker_id)
    try:
        client = Redis.from_url(url, socket_connect_timeout=2)
        client.ping()
    except Exception as exc:
        require_service("Redis", f"unreachable at {url}: {exc}")
    client.flushdb()
    yield url
    client.flushdb()


@pytest.fixture(scope="session")
def postgres_url():
    """A fresh, empty PostgreSQL database of this test session (created and dropped by the tests)."""
    with scratch_postgres_database() as url:
        yield url
