"""Fixtures for the event store contract suite: one ``store`` fixture over memory, SQLite and PostgreSQL.

PostgreSQL tests run in a scratch database (``tradewinds_test_<random>``) created on the server named by
TRADEWINDS_TEST_POSTGRES_URL (default postgresql://postgres@127.0.0.1:5432/test) and dropped at the end
of the session. Unreachable server: skipped, or failed when TRADEWINDS_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

from eventstore.base import EventStore
from eventstore.memory import MemoryStore
from eventstore.postgres import PostgresStore
from eventstore.postgres_schema import ALL_TABLES
from eventstore.sqlite import SqliteStore

BACKENDS = ["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
SQL_BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def empty_postgres(url: str) -> None:
    """Delete every row (much faster than TRUNCATE for small tables: one commit, no new files)."""
    with psycopg.connect(url) as conn:  # one transaction
        tables = {t for (t,) in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
        for table in ALL_TABLES:
            if table in tables:
                conn.execute(f"DELETE FROM {table}")


@pytest.fixture
def store_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """A URL naming an empty store of the requested backend (each ``open`` of it shares the data)."""
    backend = request.param
    if backend == "memory":
        return "memory://"
    if backend == "sqlite":
        return f"sqlite://{tmp_path / 'events.db'}"
    url = request.getfixturevalue("postgres_url")
    empty_postgres(url)
    return url


def open_url(url: str, signer=None) -> EventStore:
    if url == "memory://":
        return MemoryStore(signer=signer)
    if url.startswith("sqlite:///"):
        return SqliteStore(url[len("sqlite://") :], signer=signer)
    return PostgresStore(url, max_size=12, signer=signer)


@pytest.fixture
def store(store_url: str) -> Iterator[EventStore]:
    opened = open_url(store_url)
    try:
        yield opened
    finally:
        opened.close()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "store_url" in metafunc.fixturenames:
        marker = metafunc.definition.get_closest_marker("backends")
        kind = marker.args[0] if marker else "all"
        params = {"all": BACKENDS, "sql": SQL_BACKENDS, "sqlite": ["sqlite"], "postgres": SQL_BACKENDS[1:]}[kind]
        metafunc.parametrize("store_url", params, indirect=True)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "backends(kind): run a store test on 'sql' (SQLite and PostgreSQL), 'sqlite' or 'postgres' only"
    )
