"""Facts as events: timeouts, resignations, aborts, expiry, undo requests and votes, and results are
platform events of the game's signed chain (workers.facts), and every reader takes them from there."""

from __future__ import annotations

import threading
import time

import pytest

from tests.api.conftest import auth
from tests.api.stores import durable  # noqa: F401 - the fixture
from tests.workers.test_webhooks import Receiver
from workers import apikeys


def tokens(game):
    return {t["seat"]: t["token"] for t in game["seat_tokens"]}


def events(client, game_id, after=0):
    return client.get(f"/games/{game_id}/events?after={after}&limit=1000").get_json()["events"]


def platform(client, game_id):
    return [(e["type"], e["data"]) for e in events(client, game_id) if e["type"].startswith("platform.")]


def play(client, game_id, seat_tokens, until=None):
    """Every human seat banks 1 whenever it is to act, until the game ends (or ``until`` moves)."""
    moves = 0
    while (game := client.get(f"/games/{game_id}").get_json())["status"] == "active":
        humans = [s for s in game["to_act"] if s in seat_tokens and game["seats"][s]["kind"] == "human"]
        if not humans or (until is not None and moves >= until):
            return game
        played = client.post(
            f"/games/{game_id}/commands",
            json={"command": {"type": "bank", "amount": 1}},
            headers=auth(seat_tokens[humans[0]]),
        )
        assert played.status_code == 200, played.get_json()
        moves += 1
    return game


def create(client, seats, key=None, **body):
    response = client.post(
        "/games",
        json={"game_type": "secret_numbers", "options": {"rounds": 2}, "seed": 3, "seats": seats, **body},
        headers=auth(key) if key else {},
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


HUMANS = [{"kind": "human", "name": n} for n in ("Ann", "Bo", "Cy")]


# ------------------------------------------------------------------------------------- results
def test_the_result_is_an_event_stored_with_the_move_that_ends_the_game(client, runtime):
    game = create(client, HUMANS[:2], options={"rounds": 1})
    final = play(client, game["id"], tokens(game))
    log = events(client, game["id"])
    assert log[-1]["type"] == "platform.GameFinished"
    assert log[-1]["data"]["result"] == final["result"]
    assert log[-1]["version"] == final["version"]
    # one move, one transaction: the last move and the fact share the move's meta
    stored = runtime.store.read(game["id"], final["version"] - 1, final["version"])
    assert stored[0].meta["move"] == stored[1].meta["move"]
    assert runtime.store.stream_info(game["id"]).status == "finished"
    assert client.get(f"/games/{game['id']}/audit").get_json()["ok"]


# ------------------------------------------------------------------------------------- timeouts
def test_a_timeout_is_a_fact_in_the_chain_and_the_metadata_never_changes(client, runtime, monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    game = create(client, HUMANS[:2], clock={"bank_seconds": 10, "increment_seconds": 0, "on_timeout": "forfeit"})
    metadata = runtime.store.stream_info(game["id"]).metadata
    now[0] += 11
    runtime.sweep()
    facts = platform(client, game["id"])
    assert facts[0] == (
        "platform.SeatTimedOut",
        {"type": "platform.SeatTimedOut", "seat": 0, "policy": "forfeit", "level": "random"},
    )
    assert runtime.store.stream_info(game["id"]).metadata == metadata  # only what never changes
    seat0 = client.get(f"/games/{game['id']}").get_json()["seats"][0]
    assert seat0["kind"] == "bot" and seat0["timed_out"] and seat0["forfeited"]
    audit = client.get(f"/games/{game['id']}/audit").get_json()
    assert audit["ok"] and audit["checked"] == client.get(f"/games/{game['id']}").get_json()["version"]


# ------------------------------------------------------------------------------------- undo votes
def test_undo_request_and_votes_are_events_and_the_last_vote_truncates(client):
    game = create(client, HUMANS)
    seat_tokens = tokens(game)
    start = game["version"]
    play(client, game["id"], seat_tokens, until=3)
    asked = client.post(f"/games/{game['id']}/undo", json={"to_version": start}, headers=auth(seat_tokens[0]))
    assert asked.get_json()["status"] == "requested" and asked.get_json()["request"]["pending"] == [1, 2]
    first = client.post(f"/games/{game['id']}/undo/accept", headers=auth(seat_tokens[1])).get_json()
    assert first["status"] == "requested" and first["request"]["accepted"] == [1]
    assert [t for t, _ in platform(client, game["id"])] == ["platform.UndoRequested", "platform.UndoAccepted"]
    done = client.post(f"/games/{game['id']}/undo/accept", headers=auth(seat_tokens[2])).get_json()
    assert done["status"] == "done" and done["truncation"]["actor"] == "seats:0,1,2"
    assert client.get(f"/games/{game['id']}").get_json()["version"] == start
    # the request and its first vote went to the archive with the moves: the history keeps them
    archived = client.get(f"/games/{game['id']}/history").get_json()["truncations"][0]["archived_events"]
    assert [e["type"] for e in archived][-2:] == ["platform.UndoRequested", "platform.UndoAccepted"]


def test_a_move_after_the_request_makes_it_lapse(client):
    game = create(client, HUMANS[:2])
    seat_tokens = tokens(game)
    start = game["version"]
    play(client, game["id"], seat_tokens, until=2)
    client.post(f"/games/{game['id']}/undo", json={"to_version": start}, headers=auth(seat_tokens[0]))
    assert client.get(f"/games/{game['id']}", headers=auth(seat_tokens[1])).get_json()["undo_request"] is not None
    play(client, game["id"], seat_tokens, until=1)
    assert client.get(f"/games/{game['id']}", headers=auth(seat_tokens[1])).get_json()["undo_request"] is None
    late = client.post(f"/games/{game['id']}/undo/accept", headers=auth(seat_tokens[1]))
    assert late.status_code == 409 and late.get_json()["code"] == "no_undo_request"


@pytest.mark.parametrize("second", ["accept", "decline"])
def test_two_votes_at_once_cannot_both_win(durable, monkeypatch, second):  # noqa: F811
    """Both voters read the open request before either writes: one vote is stored, the other gets 412.
    (With read-modify-write metadata both answered 200 and one vote was lost.)"""
    app, runtime = durable
    client = app.test_client()
    game = create(client, HUMANS)
    seat_tokens = tokens(game)
    start = game["version"]
    play(client, game["id"], seat_tokens, until=3)
    client.post(f"/games/{game['id']}/undo", json={"to_version": start}, headers=auth(seat_tokens[0]))
    both_loaded = threading.Barrier(2, timeout=10)
    append_facts = runtime.service.append_facts

    def after_both_loaded(*args, **kwargs):
        both_loaded.wait()
        return append_facts(*args, **kwargs)

    monkeypatch.setattr(runtime.service, "append_facts", after_both_loaded)
    answers = {}

    def vote(seat, kind):
        answers[seat] = app.test_client().post(f"/games/{game['id']}/undo/{kind}", headers=auth(seat_tokens[seat]))

    threads = [threading.Thread(target=vote, args=(1, "accept")), threading.Thread(target=vote, args=(2, second))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(a.status_code for a in answers.values())
    assert codes == [200, 412], {s: a.get_json() for s, a in answers.items()}
    loser = next(a for a in answers.values() if a.status_code == 412)
    assert loser.get_json()["code"] == "stale_version"
    votes = [t for t, _ in platform(client, game["id"]) if t in ("platform.UndoAccepted", "platform.UndoDeclined")]
    assert len(votes) == 1  # exactly the vote that was answered 200
    assert client.get(f"/games/{game['id']}/audit").get_json()["chain_ok"]


# ------------------------------------------------------------------------------------- resign
def wait_for(receiver, count):
    deadline = time.monotonic() + 5
    while len(receiver.accepted) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    return receiver.accepted


def test_resigning_to_lose_with_one_seat_left_ends_the_game(site):
    runtime, client, key = site
    receiver = Receiver()
    client.post("/webhooks", headers=auth(key), json={"url": receiver.url, "events": ["game.finished"]})
    game = create(client, HUMANS[:2], key=key)
    seat_tokens = tokens(game)
    play(client, game["id"], seat_tokens, until=1)
    resigned = client.post(f"/games/{game['id']}/resign", headers=auth(seat_tokens[1]))
    assert resigned.status_code == 200, resigned.get_json()
    body = resigned.get_json()
    assert body["status"] == "finished"
    assert body["result"]["ranks"] == [1, 2] and body["result"]["resigned"] == [1]
    assert body["result"]["details"] == {"ended_by": "resignation"}
    assert body["seats"][1]["resigned"] == "lose"
    assert [t for t, _ in platform(client, game["id"])] == ["platform.Resigned", "platform.GameFinished"]
    again = client.post(f"/games/{game['id']}/resign", headers=auth(seat_tokens[0]))
    assert again.status_code == 409 and again.get_json()["code"] == "game_over"
    export = client.get(f"/games/{game['id']}/export").get_data(as_text=True)
    report = client.post("/verify", json={"export": export}).get_json()
    assert report["ok"], report
    try:
        (finished,) = wait_for(receiver, 1)
        assert finished["data"]["status"] == "finished" and finished["data"]["result"] == body["result"]
    finally:
        receiver.close()


def test_resigning_to_lose_in_a_larger_game_ranks_the_seat_last_and_play_goes_on(client):
    game = create(client, HUMANS)
    seat_tokens = tokens(game)
    assert client.post(f"/games/{game['id']}/resign", headers=auth(seat_tokens[0])).status_code == 200
    during = client.get(f"/games/{game['id']}").get_json()
    assert during["status"] == "active" and during["seats"][0]["kind"] == "bot"
    assert during["seats"][0]["level"] == "random"
    refused = client.post(
        f"/games/{game['id']}/commands", json={"command": {"type": "bank", "amount": 1}}, headers=auth(seat_tokens[0])
    )
    assert refused.status_code in (403, 409)
    final = play(client, game["id"], {1: seat_tokens[1], 2: seat_tokens[2]})
    assert final["status"] == "finished"
    assert final["result"]["ranks"][0] == 3 and final["result"]["resigned"] == [0]
    assert sorted(final["result"]["ranks"][1:]) in ([1, 2], [1, 1])


def test_resigning_to_a_bot_hands_the_seat_over_without_a_penalty(client):
    game = create(client, HUMANS[:2], on_resign="bot", resign_level="easy")
    seat_tokens = tokens(game)
    body = client.post(f"/games/{game['id']}/resign", headers=auth(seat_tokens[0])).get_json()
    assert body["status"] == "active"
    assert body["seats"][0] == {**body["seats"][0], "kind": "bot", "level": "easy", "resigned": "bot"}
    final = play(client, game["id"], {1: seat_tokens[1]})
    assert final["status"] == "finished" and "resigned" not in final["result"]
    assert client.post(f"/games/{game['id']}/resign").status_code == 401


def test_a_seat_handed_to_a_bot_has_no_say_in_undo(client):
    game = create(client, HUMANS, on_resign="bot", resign_level="random")
    seat_tokens = tokens(game)
    start = client.get(f"/games/{game['id']}").get_json()["version"]
    play(client, game["id"], seat_tokens, until=2)
    assert client.post(f"/games/{game['id']}/resign", headers=auth(seat_tokens[0])).status_code == 200
    before = len(events(client, game["id"]))
    asked = client.post(f"/games/{game['id']}/undo", json={"to_version": start}, headers=auth(seat_tokens[0]))
    assert asked.status_code == 403 and asked.get_json()["code"] == "forbidden", asked.get_json()
    assert "bot" in asked.get_json()["detail"] and len(events(client, game["id"])) == before  # nothing stored
    # the seats still playing ask as before, and the bot's seat is not asked for a vote
    other = client.post(f"/games/{game['id']}/undo", json={"to_version": start}, headers=auth(seat_tokens[1]))
    assert other.status_code == 200 and other.get_json()["request"]["pending"] == [2]


@pytest.mark.parametrize("ending", ["resign", "abort"])
def test_an_open_undo_request_lapses_when_a_seat_leaves_or_the_game_ends(client, ending):
    game = create(client, HUMANS[:2], on_resign="lose")
    seat_tokens = tokens(game)
    start = client.get(f"/games/{game['id']}").get_json()["version"]
    play(client, game["id"], seat_tokens, until=2)
    asked = client.post(f"/games/{game['id']}/undo", json={"to_version": start}, headers=auth(seat_tokens[1]))
    assert asked.get_json()["status"] == "requested" and asked.get_json()["request"]["pending"] == [0]
    ended = client.post(f"/games/{game['id']}/{ending}", headers=auth(seat_tokens[0]))
    assert ended.status_code == 200 and ended.get_json()["status"] in ("finished", "aborted"), ended.get_json()
    version = client.get(f"/games/{game['id']}").get_json()["version"]
    late = client.post(f"/games/{game['id']}/undo/accept", headers=auth(seat_tokens[0]))
    assert late.status_code == 409 and late.get_json()["code"] == "game_over", late.get_json()
    after = client.get(f"/games/{game['id']}").get_json()
    assert after["status"] == ended.get_json()["status"] and after["version"] == version  # the end stands
    assert after["undo_request"] is None


# ------------------------------------------------------------------------------------- abort
def test_the_creating_key_aborts_and_others_are_refused(site):
    runtime, client, key = site
    receiver = Receiver()
    try:
        client.post("/webhooks", headers=auth(key), json={"url": receiver.url, "events": ["game.finished"]})
        game = create(client, HUMANS[:2], key=key)
        seat_tokens = tokens(game)
        _, other = apikeys.create_key(runtime.store, "another site")
        assert client.post(f"/games/{game['id']}/abort", headers=auth(other)).status_code == 403
        assert client.post(f"/games/{game['id']}/abort", headers=auth(seat_tokens[0])).status_code == 403
        assert client.post(f"/games/{game['id']}/abort").status_code == 401
        aborted = client.post(f"/games/{game['id']}/abort", headers=auth(key))
        assert aborted.status_code == 200, aborted.get_json()
        assert aborted.get_json()["status"] == "aborted" and aborted.get_json()["result"] is None
        assert runtime.store.stream_info(game["id"]).status == "aborted"
        assert platform(client, game["id"])[-1][1]["by"].startswith("integrator:")
        twice = client.post(f"/games/{game['id']}/abort", headers=auth(key))
        assert twice.status_code == 409 and twice.get_json()["code"] == "game_over"
        move = client.post(
            f"/games/{game['id']}/commands",
            json={"command": {"type": "bank", "amount": 1}},
            headers=auth(seat_tokens[0]),
        )
        assert move.status_code == 409 and move.get_json()["code"] == "game_over"
        deadline = time.monotonic() + 5
        while not receiver.accepted and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [d["data"]["status"] for d in receiver.accepted] == ["aborted"]
        assert receiver.accepted[0]["data"]["result"] is None
        listed = client.get("/games?status=aborted", headers=auth(key)).get_json()["games"]
        assert [g["id"] for g in listed] == [game["id"]]
        assert client.get("/games?status=aborted").get_json()["games"] == []  # a key's games are its own
    finally:
        receiver.close()


def test_an_anonymous_game_is_aborted_by_its_first_human_seat_only(client):
    game = create(client, [{"kind": "bot", "level": "random"}, *HUMANS[:2]])
    seat_tokens = tokens(game)
    assert client.post(f"/games/{game['id']}/abort", headers=auth(seat_tokens[2])).status_code == 403
    aborted = client.post(f"/games/{game['id']}/abort", headers=auth(seat_tokens[1]))
    assert aborted.status_code == 200 and aborted.get_json()["status"] == "aborted"
    assert platform(client, game["id"])[-1] == ("platform.Aborted", {"type": "platform.Aborted", "by": "seat:1"})


# ------------------------------------------------------------------------------------- expiry
def test_a_game_without_a_move_expires_as_abandoned(site):
    runtime, client, key = site
    receiver = Receiver()
    client.post("/webhooks", headers=auth(key), json={"url": receiver.url, "events": ["game.finished"]})
    runtime.service.expiry_seconds = 1.0
    game = create(client, HUMANS[:2], key=key)
    seat_tokens = tokens(game)
    (check,) = runtime.store.list_outbox(job="expire_game")  # written once, with the game
    assert check.args == [game["id"]] and check.due_at > time.time() + 0.5
    time.sleep(0.6)
    play(client, game["id"], seat_tokens, until=1)  # a move writes no expiry work...
    assert runtime.store.list_outbox(job="expire_game")[0].token == check.token
    time.sleep(0.6)
    runtime.sweep(now=time.time() + 3600)  # ...but the check, when it comes, counts from the last event
    assert client.get(f"/games/{game['id']}").get_json()["status"] == "active"
    (later,) = runtime.store.list_outbox(job="expire_game")
    assert later.token != check.token and later.due_at <= time.time() + 0.5
    time.sleep(0.5)
    runtime.sweep(now=time.time() + 3600)
    body = client.get(f"/games/{game['id']}").get_json()
    assert body["status"] == "abandoned" and body["result"] is None
    assert runtime.store.stream_info(game["id"]).status == "abandoned"
    assert runtime.store.list_outbox(job="expire_game") == []
    kind, data = platform(client, game["id"])[-1]
    assert kind == "platform.GameAbandoned" and data["idle_seconds"] >= 1.0
    assert client.get(f"/games/{game['id']}/audit").get_json()["ok"]
    try:
        (ended,) = wait_for(receiver, 1)
        assert ended["data"]["status"] == "abandoned" and ended["data"]["result"] is None
    finally:
        receiver.close()


# ------------------------------------------------------------------------------------- tournaments, ratings
def tournament(client, key):
    response = client.post(
        "/tournaments",
        json={
            "name": "Cup",
            "game_type": "secret_numbers",
            "format": "round_robin",
            "options": {"rounds": 1},
            "table_size": {"min": 3, "max": 3},
            "participants": [{"external_id": f"u{i}"} for i in range(3)],
            "seed": 2,
        },
        headers=auth(key),
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_an_aborted_tournament_game_is_void_and_unrated(site):
    runtime, client, key = site
    t = tournament(client, key)
    game_id = t["rounds"][0]["tables"][0]["game_id"]
    assert client.post(f"/games/{game_id}/abort", headers=auth(key)).status_code == 200
    done = client.get(f"/tournaments/{t['id']}").get_json()
    assert done["status"] == "finished"
    assert done["rounds"][0]["tables"][0]["result"] == {"status": "aborted"}
    assert all(row["games"] == 0 for row in done["standings"])
    assert client.get("/leaderboards/secret_numbers").get_json()["games"] == 0


def test_a_resignation_shows_the_same_in_the_game_the_tournament_and_the_ratings(site):
    runtime, client, key = site
    t = tournament(client, key)
    table = t["rounds"][0]["tables"][0]
    seat_tokens = {tok["seat"]: tok["token"] for tok in table["seat_tokens"]}
    assert client.post(f"/games/{table['game_id']}/resign", headers=auth(seat_tokens[0])).status_code == 200
    final = play(client, table["game_id"], {1: seat_tokens[1], 2: seat_tokens[2]})
    assert final["result"]["ranks"][0] == 3
    done = client.get(f"/tournaments/{t['id']}", headers=auth(key)).get_json()
    assert done["rounds"][0]["tables"][0]["result"]["ranks"] == final["result"]["ranks"]
    loser = table["players"][0]
    standing = {row["player"]: row for row in done["standings"]}
    assert standing[loser]["points"] == min(row["points"] for row in done["standings"])
    rated = runtime.store.get_document("rated:secret_numbers", table["game_id"])
    assert rated["ranks"] == final["result"]["ranks"]
    # rated as the entrant they are, not as a bot of the tournament (a bot played on for them to the end)
    sites = {player.split("/")[0] for player in rated["players"]}
    assert len(sites) == 1 and not any("@" in player for player in rated["players"]), rated["players"]
    assert rated["players"][0].split("/", 1)[1] == loser, (rated["players"], loser)


def test_who_may_undo_is_checked_before_the_target(site):
    runtime, client, key = site
    game = create(client, HUMANS[:2], key=key)
    _, other = apikeys.create_key(runtime.store, "another site")
    for target in (0, 10**6, 1):
        answer = client.post(f"/games/{game['id']}/undo", json={"to_version": target}, headers=auth(other))
        assert answer.status_code == 403 and answer.get_json()["code"] == "forbidden", (target, answer.get_json())
    assert client.post(f"/games/{game['id']}/undo", json={"to_version": 0}, headers=auth(key)).status_code == 422


def test_folding_a_run_of_moves_at_once_gives_what_folding_event_by_event_gives():
    """``facts.fold`` folds a run of the rules' events as its last one: the same facts as ``evolve`` one by one,
    over random mixes of moves, undo requests and votes, time-outs, resignations and endings."""
    import random

    from eventstore.base import StoredEvent
    from workers import facts

    def event(version, data, seat):
        return StoredEvent("g", version, 0, 0, data, {"seat": seat}, "", f"t{version}")

    rng = random.Random(3)
    for _ in range(300):
        seats = [{"seat": s, "kind": "human", "name": f"P{s}"} for s in range(3)]
        stream, request = [], 0
        for version in range(1, rng.randint(1, 30)):
            seat = rng.randrange(3)
            pick = rng.random()
            if pick < 0.6:
                data = {"type": "Moved", "seat": seat}
            elif pick < 0.7:
                request += 1
                data = {
                    "type": facts.UNDO_REQUESTED,
                    "request_id": str(request),
                    "by": seat,
                    "to_version": 1,
                    "reason": "",
                    "pending": [s for s in range(3) if s != seat],
                }
            elif pick < 0.85:
                data = {
                    "type": rng.choice([facts.UNDO_ACCEPTED, facts.UNDO_DECLINED]),
                    "request_id": str(request),
                    "seat": seat,
                }
            elif pick < 0.92:
                data = {
                    "type": facts.SEAT_TIMED_OUT,
                    "seat": seat,
                    "level": "easy",
                    "policy": rng.choice(["bot", "forfeit"]),
                }
            elif pick < 0.97:
                data = {"type": facts.RESIGNED, "seat": seat, "level": "easy", "on_resign": rng.choice(["bot", "lose"])}
            else:
                data = facts.finished_event({"scores": [0, 0, 0], "ranks": [1, 2, 3]})
            stream.append(event(version, data, seat))
        one_by_one = facts.initial(seats)
        for e in stream:
            one_by_one = facts.evolve(one_by_one, e)
        assert facts.fold(facts.initial(seats), stream) == one_by_one
