"""Live following at scale, in process: the fan-out hub, follower caps, stream tickets, NDJSON, long-polls."""

from __future__ import annotations

import json
import threading
import time

import pytest

from api.app import create_app
from api.followers import Caps
from tests.api.conftest import auth, create_secret_game
from tests.api.test_live import parse


@pytest.fixture
def capped(runtime):
    return create_app(
        runtime, {"STREAM_MAX_SECONDS": 5, "FOLLOWER_CAPS": Caps(per_address=2, per_game=3, per_process=4)}
    )


def hold(client, gid, **headers):
    response = client.get(f"/games/{gid}/stream?max_seconds=5", headers=headers, buffered=False)
    return response


def test_a_third_follower_from_one_address_gets_a_429_problem_until_one_leaves(capped):
    client = capped.test_client()
    game = create_secret_game(client)
    first, second = hold(client, game["id"]), hold(client, game["id"])
    assert first.status_code == second.status_code == 200
    third = hold(client, game["id"])
    assert third.status_code == 429 and third.mimetype == "application/problem+json"
    problem = third.get_json()
    assert (
        problem["code"] == "too_many_followers" and "at most 2 live followers per client address" in problem["detail"]
    )
    assert third.headers["Retry-After"]
    first.close()
    again = hold(client, game["id"])
    assert again.status_code == 200
    second.close()
    again.close()


def test_a_long_poll_over_the_cap_gets_the_429_its_operation_lists(capped):
    from pathlib import Path

    import yaml

    client = capped.test_client()
    game = create_secret_game(client)
    held = [hold(client, game["id"]) for _ in range(2)]
    refused = client.get(f"/games/{game['id']}/events?after={game['version']}&wait=1")
    for response in held:
        response.close()
    assert refused.status_code == 429 and refused.get_json()["code"] == "too_many_followers"
    document = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())
    assert "too_many_followers" in document["paths"]["/games/{game_id}/events"]["get"]["x-problem-codes"]


def test_the_per_game_cap_counts_every_address(capped):
    game = create_secret_game(capped.test_client())
    held = [hold(capped.test_client(), game["id"], **{"X-Test": str(i)}) for i in range(2)]
    other = capped.test_client()
    other_env = {"REMOTE_ADDR": "10.0.0.9"}
    held.append(other.get(f"/games/{game['id']}/stream?max_seconds=5", environ_base=other_env, buffered=False))
    assert [r.status_code for r in held] == [200, 200, 200]
    refused = other.get(f"/games/{game['id']}/stream?max_seconds=5", environ_base=other_env, buffered=False)
    assert refused.status_code == 429 and "per game" in refused.get_json()["detail"]
    other_game = create_secret_game(capped.test_client())
    assert (
        other.get(f"/games/{other_game['id']}/stream?max_seconds=1", environ_base=other_env, buffered=False).status_code
        == 200
    )
    for response in held:
        response.close()


def ticket_for(client, game, seat):
    response = client.post(f"/games/{game['id']}/stream-tickets", headers=auth(game["seat_tokens"][seat]["token"]))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def dealt_numbers(items):
    return {
        d["data"]["seat"]: d["data"]["number"]
        for kind, _, d in items
        if kind == "game_event" and d["type"] == "SecretDealt"
    }


def test_a_stream_ticket_opens_its_own_seat_stream_once(client):
    game = create_secret_game(client, seats=3, rounds=2)
    ticket = ticket_for(client, game, 2)
    assert ticket["seat"] == 2 and ticket["ticket"].startswith("twst_") and ticket["expires_in"] > 0
    assert ticket["stream_url"] == f"/games/{game['id']}/stream?ticket={ticket['ticket']}"
    response = client.get(ticket["stream_url"] + "&max_seconds=1", buffered=False)
    assert response.status_code == 200
    numbers = dealt_numbers(parse(response.response))
    response.close()
    assert numbers[2] is not None and numbers[0] is None and numbers[1] is None
    used = client.get(ticket["stream_url"] + "&max_seconds=1")
    assert used.status_code == 401 and used.get_json()["code"] == "unauthorized"


def test_a_ticket_is_for_one_game_only_and_needs_a_seat_token(client):
    game, other = create_secret_game(client), create_secret_game(client, seed=8)
    ticket = ticket_for(client, game, 0)
    assert client.get(f"/games/{other['id']}/stream?ticket={ticket['ticket']}&max_seconds=1").status_code == 401
    assert client.post(f"/games/{game['id']}/stream-tickets").status_code == 401
    forged = client.get(f"/games/{game['id']}/stream?ticket=twst_forged&max_seconds=1")
    assert forged.status_code == 401


def test_unused_tickets_are_swept_once_expired(runtime):
    app = create_app(runtime, {"STREAM_TICKET_SECONDS": 1, "STREAM_MAX_SECONDS": 5})
    client = app.test_client()
    game = create_secret_game(client)
    for seat in (0, 1, 0):
        ticket_for(client, game, seat)
    store = runtime.store
    assert len(store.list_documents("stream_tickets")) == 3
    time.sleep(1.1)
    fresh = ticket_for(client, game, 1)
    assert len(store.list_documents("stream_tickets")) == 1
    assert client.get(fresh["stream_url"] + "&max_seconds=1").status_code == 200


def test_a_stream_ticket_expires(runtime):
    app = create_app(runtime, {"STREAM_TICKET_SECONDS": 1, "STREAM_MAX_SECONDS": 5})
    client = app.test_client()
    game = create_secret_game(client)
    ticket = ticket_for(client, game, 0)
    time.sleep(1.1)
    assert client.get(ticket["stream_url"] + "&max_seconds=1").status_code == 401


def test_the_ndjson_stream_carries_the_same_events(client):
    game = create_secret_game(client, seats=1, rounds=1)
    client.post(
        f"/games/{game['id']}/commands",
        json={"command": {"type": "pass"}},
        headers=auth(game["seat_tokens"][0]["token"]),
    )
    response = client.get(f"/games/{game['id']}/stream?format=ndjson&max_seconds=2")
    assert response.status_code == 200 and response.mimetype == "application/x-ndjson"
    lines = [json.loads(line) for line in response.get_data(as_text=True).splitlines() if line]
    sse = list(parse(client.get(f"/games/{game['id']}/stream?max_seconds=2").response))
    assert [(x["event"], x.get("id"), x["data"]) for x in lines] == sse
    assert lines[-1]["event"] == "game_over"
    # the Accept header is read against the format asked for: what fetch() asks for is what it gets
    url = f"/games/{game['id']}/stream?max_seconds=1"
    asked = client.get(f"{url}&format=ndjson", headers={"Accept": "application/x-ndjson"})
    assert asked.status_code == 200 and asked.mimetype == "application/x-ndjson"
    for fmt, accept in (("ndjson", "text/event-stream"), ("sse", "application/x-ndjson")):
        refused = client.get(f"{url}&format={fmt}", headers={"Accept": accept})
        assert refused.status_code == 406 and refused.get_json()["code"] == "not_acceptable", (fmt, accept)
    assert client.get(url, headers={"Accept": "text/event-stream"}).mimetype == "text/event-stream"


def test_followers_wait_on_the_hub_and_see_moves_and_undos(threaded_app):
    runtime, app = threaded_app
    client = app.test_client()
    game = create_secret_game(client, seats=1, rounds=10)
    token = game["seat_tokens"][0]["token"]
    collected: list[list] = [[] for _ in range(5)]

    def follow(into):
        response = app.test_client().get(f"/games/{game['id']}/stream?max_seconds=6", buffered=False)
        for item in parse(response.response):
            into.append(item)
            if item[0] == "truncated":
                break
        response.close()

    threads = [threading.Thread(target=follow, args=(into,)) for into in collected]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    for _ in range(3):
        assert (
            client.post(
                f"/games/{game['id']}/commands", json={"command": {"type": "bank", "amount": 1}}, headers=auth(token)
            ).status_code
            == 200
        )
    time.sleep(0.5)
    hub = app.extensions["tradewinds_hub"]
    assert hub.follower_count() == 5
    queries = []
    real_info, real_read = runtime.store.stream_info, runtime.store.read
    runtime.store.stream_info = lambda *a, **k: queries.append("info") or real_info(*a, **k)
    runtime.store.read = lambda *a, **k: queries.append("read") or real_read(*a, **k)
    time.sleep(2.5)  # five idle followers: only the hub's generation check of the one game queries
    runtime.store.stream_info, runtime.store.read = real_info, real_read
    assert queries.count("info") <= 2 and "read" not in queries, queries
    undo = client.post(f"/games/{game['id']}/undo", json={"to_version": game["version"] + 2}, headers=auth(token))
    assert undo.status_code == 200, undo.get_json()
    for thread in threads:
        thread.join(timeout=10)
    stored_before_undo = game["version"] + 6
    for items in collected:
        versions = [d["version"] for kind, _, d in items if kind == "game_event"]
        assert versions == list(range(1, stored_before_undo + 1))
        assert items[-1][0] == "truncated" and items[-1][2] == {"generation": 1, "to_version": game["version"] + 2}


def test_a_long_poll_waits_on_the_hub_and_counts_as_a_follower(capped):
    client = capped.test_client()
    game = create_secret_game(client, seats=2, rounds=3)
    held = [hold(client, game["id"]), hold(client, game["id"])]
    refused = client.get(f"/games/{game['id']}/events?after={game['version']}&wait=1")
    assert refused.status_code == 429
    for response in held:
        response.close()
    start = time.monotonic()
    page = client.get(f"/games/{game['id']}/events?after={game['version']}&wait=0.5").get_json()
    assert page["events"] == [] and time.monotonic() - start >= 0.5


@pytest.fixture
def threaded_app():
    from eventstore.memory import MemoryStore
    from workers import jobs
    from workers.dispatch import InProcessDispatcher
    from workers.games import GameService
    from workers.runtime import Runtime, run_job

    store = MemoryStore()
    dispatcher = InProcessDispatcher(run_job)
    runtime = Runtime(store, dispatcher, GameService(store, dispatcher), "memory://", None)
    jobs.set_runtime(runtime)
    yield runtime, create_app(runtime, {"STREAM_MAX_SECONDS": 10})
    dispatcher.wait_idle()
    jobs.set_runtime(None)


def test_a_refused_follower_keeps_its_ticket_and_a_bad_ticket_takes_no_slot(capped):
    client = capped.test_client()
    game = create_secret_game(client)
    for _ in range(3):
        assert client.get(f"/games/{game['id']}/stream?ticket=twst_bad&max_seconds=1").status_code == 401
    held = [hold(client, game["id"]), hold(client, game["id"])]
    assert [r.status_code for r in held] == [200, 200]
    ticket = ticket_for(client, game, 0)
    assert client.get(ticket["stream_url"] + "&max_seconds=1").status_code == 429
    held.pop().close()
    response = client.get(ticket["stream_url"] + "&max_seconds=1", buffered=False)
    assert response.status_code == 200
    response.close()
    held[0].close()


def test_the_per_address_cap_counts_the_forwarded_client_behind_a_trusted_proxy(runtime, monkeypatch):
    monkeypatch.setenv("TRADEWINDS_TRUSTED_PROXIES", "1")
    app = create_app(
        runtime, {"STREAM_MAX_SECONDS": 5, "FOLLOWER_CAPS": Caps(per_address=1, per_game=10, per_process=10)}
    )
    proxy = app.test_client()
    game = create_secret_game(proxy)
    peer = {"REMOTE_ADDR": "10.0.0.2"}

    def follow(forwarded):
        return proxy.get(
            f"/games/{game['id']}/stream?max_seconds=5",
            headers={"X-Forwarded-For": forwarded},
            environ_base=peer,
            buffered=False,
        )

    held = [follow("198.51.100.1"), follow("198.51.100.2")]  # two clients behind one proxy
    assert [r.status_code for r in held] == [200, 200]
    again = follow("198.51.100.1")
    assert again.status_code == 429 and "per client address" in again.get_json()["detail"]
    # IPv6 clients share their /64, as for the rate limits
    held.append(follow("2001:db8::1"))
    assert held[-1].status_code == 200
    assert follow("2001:db8::ffff:2").status_code == 429
    for response in held:
        response.close()


@pytest.mark.redis
def test_follower_caps_hold_across_a_redis_that_lost_its_data_and_a_redis_down_is_a_503(
    runtime, redis_url, monkeypatch
):
    """The slots live in Redis: a restart that loses them is made good at the next refresh (each process adds its
    live slots again), so the caps still hold; a slot released meanwhile is not brought back. With Redis down a
    follower gets a 503 ``unavailable``, not a 500."""
    from redis import Redis

    from api import followers

    monkeypatch.setattr(followers, "REFRESH_SECONDS", 0.05)
    limits = followers.FollowerLimits(Caps(per_address=2, per_game=9, per_process=9), followers.shared_redis(redis_url))
    held = [limits.acquire("10.0.0.1", "g1"), limits.acquire("10.0.0.1", "g1")]
    with pytest.raises(followers.ApiError) as full:
        limits.acquire("10.0.0.1", "g1")
    assert full.value.code == "too_many_followers"
    Redis.from_url(redis_url).flushdb()  # a restart without persistence
    assert limits.count(address="10.0.0.1") == 0
    deadline = time.monotonic() + 5
    while limits.count(address="10.0.0.1") < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert limits.count(address="10.0.0.1") == 2
    with pytest.raises(followers.ApiError):
        limits.acquire("10.0.0.1", "g1")
    held[0].release()
    time.sleep(0.3)  # several refreshes
    assert limits.count(address="10.0.0.1") == 1
    held[1].release()

    down = followers.FollowerLimits(Caps(9, 9, 9), followers.shared_redis("redis://127.0.0.1:1/0"))
    with pytest.raises(followers.ApiError) as unavailable:
        down.acquire("10.0.0.1", "g1")
    assert unavailable.value.code == "unavailable" and unavailable.value.headers["Retry-After"]
    assert down.local.count("process") == 0  # the process's slot was given back


def test_the_operator_caps_how_long_a_stream_lasts(runtime, monkeypatch):
    """``TRADEWINDS_STREAM_MAX_SECONDS``: a stream ends by then whatever its ``max_seconds`` asks."""
    monkeypatch.setenv("TRADEWINDS_STREAM_MAX_SECONDS", "1")
    client = create_app(runtime).test_client()
    game = create_secret_game(client)
    began = time.monotonic()
    body = client.get(f"/games/{game['id']}/stream?max_seconds=300").get_data(as_text=True)
    assert time.monotonic() - began < 30 and "game_event" in body


def test_reissued_seat_tokens_void_the_old_tokens_tickets_and_open_streams(threaded_app):
    """A reissue (``reissue_tokens``: the tournament's seat-token route) stops the old tokens at once: a ticket
    issued with one no longer opens the seat's stream, and a stream opened with one ends instead of sending the
    seat's next events (within ``CREDENTIAL_SECONDS``)."""
    from api.live import CREDENTIAL_SECONDS

    runtime, app = threaded_app
    client = app.test_client()
    game = create_secret_game(client, seats=1, rounds=10)
    old = game["seat_tokens"][0]["token"]
    ticket = ticket_for(client, game, 0)
    items: list = []
    ended = threading.Event()

    def follow():
        response = app.test_client().get(f"/games/{game['id']}/stream?max_seconds=9", headers=auth(old), buffered=False)
        for item in parse(response.response):
            items.append(item)
        response.close()
        ended.set()

    thread = threading.Thread(target=follow)
    thread.start()
    bank = {"command": {"type": "bank", "amount": 1}}
    moved = client.post(f"/games/{game['id']}/commands", json=bank, headers=auth(old))
    assert moved.status_code == 200
    time.sleep(0.5)
    seen_before = [d["version"] for kind, _, d in items if kind == "game_event"]
    assert seen_before[-1] == moved.get_json()["version"]
    new = runtime.service.reissue_tokens(game["id"])[0]["token"]
    assert client.get(ticket["stream_url"] + "&max_seconds=1").status_code == 401
    time.sleep(CREDENTIAL_SECONDS + 0.2)
    assert client.post(f"/games/{game['id']}/commands", json=bank, headers=auth(new)).status_code == 200
    assert ended.wait(5), "the stream opened with the old token went on"
    thread.join(timeout=5)
    assert [d["version"] for kind, _, d in items if kind == "game_event"] == seen_before
    # the new token's ticket works
    assert (
        client.get(
            ticket_for(client, {**game, "seat_tokens": [{"token": new}]}, 0)["stream_url"] + "&max_seconds=1"
        ).status_code
        == 200
    )


def test_a_long_poll_waiting_with_a_token_reissued_meanwhile_is_refused_not_answered(threaded_app):
    """A long-poll checks its credential again when the game moves: one opened with a token that was reissued while
    it waited gets 401, never the new holder's events redacted for the seat."""
    runtime, app = threaded_app
    client = app.test_client()
    game = create_secret_game(client, seats=1, rounds=10)
    old = game["seat_tokens"][0]["token"]
    answers: list = []

    def long_poll():
        url = f"/games/{game['id']}/events?after={game['version']}&wait=10"
        answers.append(app.test_client().get(url, headers=auth(old)))

    thread = threading.Thread(target=long_poll)
    thread.start()
    time.sleep(0.5)
    new = runtime.service.reissue_tokens(game["id"])[0]["token"]
    drew = client.post(f"/games/{game['id']}/commands", json={"command": {"type": "draw"}}, headers=auth(new))
    assert drew.status_code == 200
    secret = next(e["data"]["number"] for e in drew.get_json()["events"] if e["type"] == "SecretDealt")
    thread.join(15)
    assert answers[0].status_code == 401, answers[0].get_data(as_text=True)
    assert str(secret) not in answers[0].get_data(as_text=True)


def test_a_game_from_before_the_token_document_streams_to_its_seat(runtime, client):
    """A game created when the token hashes lived in its metadata (no token document) still opens its seat's
    stream, by ticket or by token, and the stream's token check finds the seat's hash there."""
    from workers.game_model import SEAT_TOKENS, hash_token

    game = create_secret_game(client, seats=1, rounds=3)
    token = game["seat_tokens"][0]["token"]
    store = runtime.service.store
    store.delete_document(SEAT_TOKENS, game["id"])
    seats = [dict(s) for s in store.stream_info(game["id"]).metadata["seats"]]
    seats[0]["token_hash"] = hash_token(token)
    store.update_stream(game["id"], metadata={"seats": seats})
    runtime.service.forget(game["id"])
    assert runtime.service.holds_seat(game["id"], 0, hash_token(token))
    assert not runtime.service.holds_seat(game["id"], 0, hash_token("twst_another"))
    opened = client.get(ticket_for(client, game, 0)["stream_url"] + "&max_seconds=1")
    assert opened.status_code == 200
    numbers = dealt_numbers(parse(opened.response))
    assert numbers[0] is not None
