"""Skip-or-fail helpers for tests that need an external service (PostgreSQL, Redis, ...).

When a service is unreachable its tests are skipped with the reason, unless the environment variable
``TRADEWINDS_REQUIRE_SERVICES=1`` is set (CI): then they fail, so a missing service is never silent.
"""

from __future__ import annotations

import os
import urllib.parse
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import pytest

DEFAULT_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/test"


def services_required() -> bool:
    return os.environ.get("TRADEWINDS_REQUIRE_SERVICES", "").strip() == "1"


def require_service(name: str, reason: str) -> NoReturn:
    """Skip the calling test or fixture because ``name`` is unavailable (fail instead when services are required)."""
    message = f"{name} is not available: {reason}"
    if services_required():
        pytest.fail(f"{message} (TRADEWINDS_REQUIRE_SERVICES=1)", pytrace=False)
    pytest.skip(f"{message} (set TRADEWINDS_REQUIRE_SERVICES=1 to make this a failure)")


def postgres_base_url() -> str:
    """The server the PostgreSQL tests use: TRADEWINDS_TEST_POSTGRES_URL, or the local default."""
    return os.environ.get("TRADEWINDS_TEST_POSTGRES_URL", DEFAULT_POSTGRES_URL)


def with_dbname(base: str, name: str) -> str:
    """``base`` pointing at database ``name`` (a postgresql:// URL stays a URL)."""
    import psycopg

    parts = urllib.parse.urlsplit(base)
    if parts.scheme in ("postgresql", "postgres"):
        return urllib.parse.urlunsplit(parts._replace(path=f"/{name}"))
    return psycopg.conninfo.make_conninfo(base, dbname=name)


@contextmanager
def scratch_postgres_database(prefix: str = "tradewinds_test") -> Iterator[str]:
    """Create an empty database ``<prefix>_<random>`` on the test server, yield its URL, drop it afterwards.

    Skips (or fails, see ``require_service``) when the server cannot be reached.
    """
    import psycopg

    base = postgres_base_url()
    try:
        admin = psycopg.connect(base, autocommit=True, connect_timeout=3)
    except psycopg.Error as exc:
        first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        parts = urllib.parse.urlsplit(base)
        where = f"{parts.hostname}:{parts.port or 5432}" if parts.scheme.startswith("postgres") else "the server"
        require_service("PostgreSQL", f"cannot connect to {where}: {first_line}")
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with admin:
        admin.execute(f"CREATE DATABASE {name} ENCODING 'UTF8' TEMPLATE template0")
        try:
            yield with_dbname(base, name)
        finally:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


REDIS_DATABASES = 8  # a test run's processes use at most this many databases: the URL's, then the ones below it
REDIS_WAIT_SECONDS = 600.0  # how long a process waits for a database when another run holds every one
_CLAIMED: dict[str, tuple[int, int]] = {}  # URL -> (database, the open lock file that holds it)


def claim_redis_database(
    url: str, preferred: int = 0, lock_dir: str | None = None, wait: float = REDIS_WAIT_SECONDS
) -> str:
    """``url`` pointing at a Redis database this process holds until it exits: of the URL's database and the
    ``REDIS_DATABASES - 1`` below it (never below 0), the ``preferred``-th below if no other process on this
    machine holds it, else the first one free; while every one is held (another test run), the first one let go,
    for up to ``wait`` seconds, then the test fails (or skips) saying so.

    A process's tests empty their database before and after each test, so two test runs at once on one machine
    (say a run with ``-n 0`` beside one with xdist) must never share one. A database is held by an exclusive
    ``flock`` on a file in the temporary folder named for the server and the database, so a holder that dies lets
    go at once. The same URL is claimed once per process."""
    import fcntl
    import tempfile
    import time

    if url in _CLAIMED:
        return _with_redis_db(url, _CLAIMED[url][0])
    parts = urllib.parse.urlsplit(url)
    top = int(parts.path.strip("/") or 0)
    choices = [db for db in range(top, top - REDIS_DATABASES, -1) if db >= 0]
    if preferred >= len(choices):  # the run's other processes hold them all, until the run ends
        require_service(
            "Redis",
            f"test process {preferred + 1} of this run finds {len(choices)} databases from {top} down: point "
            "TRADEWINDS_TEST_REDIS_URL at a higher database (15 by default), or run fewer processes",
        )
    first = choices[preferred]
    order = [first, *(db for db in choices if db != first)]
    folder = lock_dir or tempfile.gettempdir()
    deadline = time.monotonic() + wait
    while True:
        for db in order:
            name = f"tradewinds-tests-redis-{parts.hostname}-{parts.port or 6379}-{db}.lock"
            handle = os.open(os.path.join(folder, name), os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(handle)
                continue
            _CLAIMED[url] = (db, handle)
            return _with_redis_db(url, db)
        if time.monotonic() >= deadline:
            require_service(
                "Redis",
                f"databases {choices[-1]} to {choices[0]} at {parts.hostname}:{parts.port or 6379} are all held by "
                "other test processes (another test run, or more processes in this one than databases: point "
                "TRADEWINDS_TEST_REDIS_URL at a higher database, or run fewer processes)",
            )
        time.sleep(0.2)


def _with_redis_db(url: str, db: int) -> str:
    return urllib.parse.urlunsplit(urllib.parse.urlsplit(url)._replace(path=f"/{db}"))
