"""The API over each durable store: an app and its runtime on a fresh SQLite file or PostgreSQL database."""

from __future__ import annotations

import pytest

from api.app import create_app
from eventstore.postgres import PostgresStore
from eventstore.sqlite import SqliteStore
from tests.eventstore.conftest import empty_postgres
from workers import jobs
from workers.dispatch import InlineDispatcher
from workers.games import GameService
from workers.runtime import Runtime, run_job


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def durable(request, tmp_path):
    """(app, runtime) on SQLite or PostgreSQL."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'store.db'}"
        store = SqliteStore(str(tmp_path / "store.db"))
    else:
        url = request.getfixturevalue("postgres_url")
        empty_postgres(url)
        store = PostgresStore(url)
    dispatcher = InlineDispatcher(run_job)
    runtime = Runtime(store, dispatcher, GameService(store, dispatcher), url, None)
    jobs.set_runtime(runtime)
    yield create_app(runtime), runtime
    jobs.set_runtime(None)
    store.close()
