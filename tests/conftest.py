"""Shared fixtures: real PostgreSQL and Redis when reachable.

Tests that need a service skip with a clear reason when it is unreachable, unless
``TRADEWINDS_REQUIRE_SERVICES=1`` (set by CI), which turns the skip into a failure.
"""

from __future__ import annotations

import os

import pytest

REDIS_URL = os.environ.get("TRADEWINDS_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def services_required() -> bool:
    return os.environ.get("TRADEWINDS_REQUIRE_SERVICES") == "1"


def unavailable(reason: str):
    if services_required():
        pytest.fail(f"{reason} (TRADEWINDS_REQUIRE_SERVICES=1 makes this a failure)")
    pytest.skip(f"{reason}; start it with ../shared/services.sh or set the URL")


@pytest.fixture(autouse=True)
def secret_game_registered():
    """The test-only game is available to every test (it is never registered in production)."""
    from domain import registry
    from tests.support.secret_game import RULES

    registry.register(RULES)
    yield
    registry.unregister(RULES.name)


@pytest.fixture
def redis_url():
    """A Redis database of the tests' own (db 15 by default), flushed before and after each test."""
    from redis import Redis

    try:
        client = Redis.from_url(REDIS_URL, socket_connect_timeout=2)
        client.ping()
    except Exception as exc:
        unavailable(f"Redis is unreachable at {REDIS_URL}: {exc}")
    client.flushdb()
    yield REDIS_URL
    client.flushdb()
