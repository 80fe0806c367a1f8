"""Live following: SSE exactly once and in order, resume with Last-Event-ID, truncations, long-polling."""

from __future__ import annotations

import json
import threading
import time

import pytest

from api.app import create_app
from tests.api.conftest import auth, create_secret_game, integrator
from workers import jobs
from workers.dispatch import InProcessDispatcher
from workers.runtime import Runtime, run_job


def parse(chunks):
    """Yield (event, id, data) from an SSE body given as an iterable of text chunks."""
    buffer = ""
    for chunk in chunks:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            fields = {}
            for line in block.splitlines():
                if line.startswith(":"):
                    continue
                name, _, value = line.partition(": ")
                fields[name] = value
            if "event" in fields:
                yield fields["event"], fields.get("id"), json.loads(fields["data"])


def open_stream(client, gid, headers=None, max_seconds=30):
    response = client.get(f"/games/{gid}/stream?max_seconds={max_seconds}", headers=headers or {}, buffered=False)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    return response, parse(response.response)


@pytest.fixture
def threaded():
    """An app whose bot turns run on a background thread, as under `tradewinds serve`."""
    from eventstore.memory import MemoryStore

    dispatcher = InProcessDispatcher(run_job)
    runtime = Runtime.signed(lambda signer: MemoryStore(signer=signer), dispatcher)
    jobs.set_runtime(runtime)
    yield runtime, create_app(runtime).test_client()
    dispatcher.wait_idle()
    jobs.set_runtime(None)


def test_a_follower_during_a_bot_game_gets_every_event_once_in_order(threaded):
    runtime, client = threaded
    game = create_secret_game(
        client, seats=3, rounds=60, bots=("random", "random", "random"), headers=integrator(runtime)
    )
    response, events = open_stream(client, game["id"])
    received = []
    for kind, event_id, data in events:
        if kind == "game_over":
            break
        assert kind == "game_event"
        received.append((event_id, data["version"], data["type"]))
    response.close()
    stored = runtime.store.read(game["id"])
    assert [v for _, v, _ in received] == [e.version for e in stored]
    assert [t for _, _, t in received] == [e.type for e in stored]
    assert [i for i, _, _ in received] == [f"0.{e.version}" for e in stored]


def test_a_follower_that_reconnects_with_last_event_id_misses_nothing(threaded):
    runtime, client = threaded
    game = create_secret_game(client, seats=2, rounds=80, bots=("random", "random"), headers=integrator(runtime))
    first, events = open_stream(client, game["id"])
    seen = []
    for _kind, event_id, data in events:
        seen.append((event_id, data["version"]))
        if len(seen) == 25:
            break
    first.close()
    second, events = open_stream(client, game["id"], {"Last-Event-ID": seen[-1][0]})
    for kind, event_id, data in events:
        if kind == "game_over":
            break
        seen.append((event_id, data["version"]))
    second.close()
    stored = runtime.store.read(game["id"])
    assert [v for _, v in seen] == [e.version for e in stored]


def test_a_finished_game_streams_its_whole_public_log_and_ends(client):
    game = create_secret_game(client, seats=1, rounds=1)
    client.post(
        f"/games/{game['id']}/commands",
        json={"command": {"type": "draw"}},
        headers=auth(game["seat_tokens"][0]["token"]),
    )
    response, events = open_stream(client, game["id"])
    items = list(events)
    assert items[-1][0] == "game_over" and items[-1][2]["result"]["ranks"] == [1]
    assert [d["version"] for k, _, d in items if k == "game_event"] == list(range(1, len(items)))
    assert all(d["data"]["number"] is not None for k, _, d in items if k == "game_event" and d["type"] == "SecretDealt")


def test_redacted_for_spectators_while_running(client):
    game = create_secret_game(client, seats=2, rounds=2)
    response, events = open_stream(client, game["id"], max_seconds=1)
    items = list(events)
    dealt = [d for k, _, d in items if k == "game_event" and d["type"] == "SecretDealt"]
    assert dealt and all(d["data"]["number"] is None for d in dealt)


def test_a_follower_of_an_undone_history_is_told_to_roll_back(client):
    game = create_secret_game(client, seats=1, rounds=5)
    token = game["seat_tokens"][0]["token"]
    for _ in range(3):
        client.post(
            f"/games/{game['id']}/commands", json={"command": {"type": "bank", "amount": 1}}, headers=auth(token)
        )
    last = client.get(f"/games/{game['id']}").get_json()
    client.post(f"/games/{game['id']}/undo", json={"to_version": game["version"] + 2}, headers=auth(token))
    client.post(f"/games/{game['id']}/commands", json={"command": {"type": "pass"}}, headers=auth(token))
    response, events = open_stream(client, game["id"], {"Last-Event-ID": f"0.{last['version']}"}, max_seconds=1)
    items = list(events)
    assert items[0][0] == "truncated" and items[0][2] == {"generation": 1, "to_version": game["version"] + 2}
    resent = [(i, d["version"], d["type"]) for k, i, d in items if k == "game_event"]
    assert resent[0][1] == game["version"] + 3 and resent[0][0].startswith("1.") and resent[0][2] == "TurnEnded"


def test_a_malformed_last_event_id_is_400_and_one_from_the_future_422(client):
    game = create_secret_game(client)
    response = client.get(f"/games/{game['id']}/stream", headers={"Last-Event-ID": "x"})
    assert response.status_code == 400 and response.get_json()["code"] == "invalid_request"
    future = client.get(f"/games/{game['id']}/stream", headers={"Last-Event-ID": "5.1"})
    assert future.status_code == 422 and future.get_json()["code"] == "invalid_event_id"
    beyond = client.get(f"/games/{game['id']}/stream", headers={"Last-Event-ID": f"0.{game['version'] + 1}"})
    assert beyond.status_code == 422 and "version" in beyond.get_json()["detail"]
    query = client.get(f"/games/{game['id']}/stream?last_event_id=0.999999999")
    assert query.status_code == 422 and query.get_json()["code"] == "invalid_event_id"


def test_a_last_event_id_beyond_where_its_old_generation_ended_is_422(client):
    """An id of an undone generation resumes where that history is still the game's, if the generation reached
    its version; one it never reached names no event this game sent."""
    game = create_secret_game(client, seats=1, rounds=5)
    gid, token = game["id"], game["seat_tokens"][0]["token"]
    for _ in range(3):
        client.post(f"/games/{gid}/commands", json={"command": {"type": "bank", "amount": 1}}, headers=auth(token))
    reached = client.get(f"/games/{gid}").get_json()["version"]
    assert client.post(f"/games/{gid}/undo", json={"to_version": reached - 2}, headers=auth(token)).status_code == 200
    never = client.get(f"/games/{gid}/stream?max_seconds=1", headers={"Last-Event-ID": f"0.{reached + 1}"})
    assert never.status_code == 422 and "generation 0 never reached" in never.get_json()["detail"]
    response, events = open_stream(client, gid, {"Last-Event-ID": f"0.{reached}"}, max_seconds=1)
    assert response.status_code == 200
    assert next(events)[:3:2] == ("truncated", {"generation": 1, "to_version": reached - 2})


def test_long_poll_returns_when_a_move_arrives(app, client):
    game = create_secret_game(client, seats=2, rounds=3)
    token = game["seat_tokens"][0]["token"]

    def later():
        time.sleep(0.3)
        app.test_client().post(f"/games/{game['id']}/commands", json={"command": {"type": "pass"}}, headers=auth(token))

    threading.Thread(target=later).start()
    start = time.monotonic()
    page = client.get(f"/games/{game['id']}/events?after={game['version']}&wait=10").get_json()
    assert [e["type"] for e in page["events"]] == ["TurnEnded"]
    assert time.monotonic() - start < 5
    empty_start = time.monotonic()
    empty = client.get(f"/games/{game['id']}/events?after={game['version'] + 1}&wait=0.5").get_json()
    assert empty["events"] == [] and time.monotonic() - empty_start >= 0.5
