"""Shared fixtures: real PostgreSQL and Redis when reachable.

Tests that need a service skip with a clear reason when it is unreachable, unless
``TRADEWINDS_REQUIRE_SERVICES=1`` (set by CI), which turns the skip into a failure.
"""

from __future__ import annotations

import logging
import os
import re
import secrets

import pytest

from tests.support.services import claim_redis_database, require_service, scratch_postgres_database

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
    """Each test process gets a Redis database of its own, held until it exits (``claim_redis_database``): the
    xdist worker ``gwN`` the N-th below the URL's (15, 14, ...) if no other run on this machine holds that one."""
    return claim_redis_database(REDIS_URL, int(worker_id[2:]) if worker_id.startswith("gw") else 0)


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
    """A Redis database of this test process's own (db 15 by default, ``redis_url_for_worker``), flushed before and
    after each test."""
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


class CredentialWatch(logging.Handler):
    """Every log record of the run, formatted as `tradewinds serve` and `worker` format it (``workers.logs``),
    checked for the credentials the run has issued (seat tokens, keys, stream tickets: ``secrets.token_urlsafe``
    values are recorded as they are made). A test during which one reached a log line fails."""

    WINDOW = 10  # characters of a credential's random part that must never appear
    RUN = re.compile(r"[A-Za-z0-9_-]{10,}")

    def __init__(self) -> None:
        from workers.logs import RedactingJsonFormatter

        super().__init__(logging.DEBUG)
        self.setFormatter(RedactingJsonFormatter())
        self.issued: set[str] = set()
        self.leaks: list[str] = []

    def issue(self, value: str) -> None:
        if len(value) >= 2 * self.WINDOW:
            self.issued.add(value[: self.WINDOW])

    def holds_credential(self, text: str) -> bool:
        issued = self.issued
        for run in self.RUN.findall(text):
            for start in range(len(run) - self.WINDOW + 1):
                if run[start : start + self.WINDOW] in issued:
                    return True
        return False

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if not record.exc_info and not record.stack_info:
                # the fast path: nothing issued in the record's own text, so nothing in its formatted line either
                raw = " ".join(str(value) for key, value in vars(record).items() if key not in PLAIN_ATTRIBUTES)
                if not self.holds_credential(record.getMessage() + " " + raw):
                    return
            line = self.format(record)  # as `serve` writes it: redacted
        except Exception:
            return
        if self.holds_credential(line):
            self.leaks.append(line)


# LogRecord attributes that hold no text of the caller's (the message, its arguments and extras are checked)
PLAIN_ATTRIBUTES = frozenset(
    vars(logging.LogRecord("", 0, "", 0, "", (), None)).keys() - {"msg", "args"} | {"message", "asctime"}
)
WATCH = CredentialWatch()
_token_urlsafe = secrets.token_urlsafe


def _recorded_token_urlsafe(nbytes=None):
    value = _token_urlsafe(nbytes)
    WATCH.issue(value)
    return value


@pytest.fixture(scope="session", autouse=True)
def credential_watch():
    """Watch every record the run logs at the levels it is configured for (warnings and errors by default), and
    every request line: the request lines go to the watch only (not through pytest's own log capture, which
    would cost more than the watch), so that every request of the run is checked."""
    secrets.token_urlsafe = _recorded_token_urlsafe
    root = logging.getLogger()
    access = logging.getLogger("tradewinds.access")
    saved = access.level, access.propagate
    root.addHandler(WATCH)
    access.addHandler(WATCH)
    access.setLevel(logging.INFO)
    access.propagate = False
    yield WATCH
    access.removeHandler(WATCH)
    access.setLevel(saved[0])
    access.propagate = saved[1]
    root.removeHandler(WATCH)
    secrets.token_urlsafe = _token_urlsafe


@pytest.fixture(autouse=True)
def no_credential_in_the_logs(credential_watch):
    yield
    leaks, credential_watch.leaks[:] = list(credential_watch.leaks), []
    if leaks:
        pytest.fail(f"a credential issued in this run reached a log line: {leaks[0][:300]}")


@pytest.fixture
def site():
    """An in-memory runtime, a test client of its app and an integrator key: what key games, webhooks and
    tournaments need."""
    from api.app import create_app
    from tests.api.conftest import make_runtime
    from workers import apikeys, jobs

    runtime = make_runtime()
    client = create_app(runtime).test_client()
    _, key = apikeys.create_key(runtime.store, "site")
    yield runtime, client, key
    jobs.set_runtime(None)
