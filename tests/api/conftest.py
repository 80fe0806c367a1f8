from __future__ import annotations

import pytest

from api.app import create_app
from eventstore.memory import MemoryStore
from workers import jobs
from workers.dispatch import InlineDispatcher
from workers.games import GameService
from workers.runtime import Runtime, run_job


def make_runtime(store=None) -> Runtime:
    dispatcher = InlineDispatcher(run_job)
    if store is None:
        runtime = Runtime.signed(lambda signer: MemoryStore(signer=signer), dispatcher)
    else:
        runtime = Runtime(store, dispatcher, GameService(store, dispatcher), "memory://", None)
    jobs.set_runtime(runtime)
    return runtime


@pytest.fixture
def runtime():
    rt = make_runtime()
    yield rt
    jobs.set_runtime(None)


@pytest.fixture
def app(runtime):
    return create_app(runtime, {"STREAM_MAX_SECONDS": 5})


@pytest.fixture
def client(app):
    return app.test_client()


def create_secret_game(client, seats=2, rounds=2, bots=(), seed=7, headers=None):
    body = {
        "game_type": "secret_numbers",
        "seats": [
            {"kind": "bot", "level": bots[i]} if i < len(bots) and bots[i] else {"kind": "human", "name": f"P{i}"}
            for i in range(seats)
        ],
        "options": {"rounds": rounds},
        "seed": seed,
    }
    response = client.post("/games", json=body, headers=headers or {})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def integrator(runtime) -> dict:
    """The headers of a new integrator key (games of bots only need one)."""
    from workers import apikeys

    return auth(apikeys.create_key(runtime.store, "site")[1])


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}
