"""The API on the production store: a game over PostgreSQL, and an audit that names a tampered version."""

from __future__ import annotations

import psycopg
import pytest

from api.app import create_app
from eventstore.postgres import PostgresStore
from tests.api.conftest import auth, create_secret_game
from tests.eventstore.conftest import empty_postgres
from workers import jobs
from workers.dispatch import InlineDispatcher
from workers.runtime import Runtime, run_job

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_client(postgres_url):
    empty_postgres(postgres_url)
    dispatcher = InlineDispatcher(run_job)
    runtime = Runtime.signed(lambda signer: PostgresStore(postgres_url, signer=signer), dispatcher, postgres_url)
    store = runtime.store
    jobs.set_runtime(runtime)
    yield create_app(runtime).test_client()
    jobs.set_runtime(None)
    store.close()


def test_a_game_with_bots_plays_through_on_postgres(pg_client):
    game = create_secret_game(pg_client, seats=3, rounds=3, bots=(None, "random", "easy"))
    token = game["seat_tokens"][0]["token"]
    while (state := pg_client.get(f"/games/{game['id']}").get_json())["status"] != "finished":
        assert state["to_act"] == [0]
        assert (
            pg_client.post(
                f"/games/{game['id']}/commands", json={"command": {"type": "bank", "amount": 2}}, headers=auth(token)
            ).status_code
            == 200
        )
    assert pg_client.get(f"/games/{game['id']}/audit").get_json()["ok"] is True


def test_audit_names_the_version_altered_in_the_database(pg_client, postgres_url):
    game = create_secret_game(pg_client, seats=2, rounds=2)
    token = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    for seat in (0, 1, 0):
        pg_client.post(
            f"/games/{game['id']}/commands", json={"command": {"type": "bank", "amount": 1}}, headers=auth(token[seat])
        )
    assert pg_client.get(f"/games/{game['id']}/audit").get_json()["ok"] is True
    target = game["version"] + 3
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        changed = conn.execute(
            "UPDATE events SET data = replace(data::text, %s, %s)::json WHERE stream = %s AND version = %s",
            ('"amount":1', '"amount":3', game["id"], target),
        ).rowcount
    assert changed == 1
    audit = pg_client.get(f"/games/{game['id']}/audit").get_json()
    assert audit["ok"] is False and audit["broken_version"] == target


def test_a_follower_on_postgres_is_woken_by_appends(pg_client):
    import threading
    import time

    from tests.api.test_live import open_stream

    game = create_secret_game(pg_client, seats=1, rounds=2)
    token = game["seat_tokens"][0]["token"]

    def play_later():
        for _ in range(2):  # moves arrive while the stream waits (LISTEN/NOTIFY wakes it)
            time.sleep(0.5)
            pg_client.application.test_client().post(
                f"/games/{game['id']}/commands", json={"command": {"type": "pass"}}, headers=auth(token)
            )

    response, events = open_stream(pg_client, game["id"], max_seconds=20)
    threading.Thread(target=play_later).start()
    seen = []
    for kind, _, data in events:
        if kind == "game_over":
            break
        seen.append(data["version"])
    response.close()
    # two moves, then the last one's platform.GameFinished (the result is an event of the chain)
    assert seen == list(range(1, game["version"] + 4))
