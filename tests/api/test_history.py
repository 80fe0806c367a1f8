"""Undo by truncation (policy, requests, integrator keys), history, replay, export and verification."""

from __future__ import annotations

import json

from tests.api.conftest import auth, create_secret_game, integrator
from workers import apikeys, jobs
from workers.history import verify_export


def tok(game, seat):
    return next(t["token"] for t in game["seat_tokens"] if t["seat"] == seat)


def move(client, game, seat, command, **headers):
    return client.post(
        f"/games/{game['id']}/commands", json={"command": command}, headers={**auth(tok(game, seat)), **headers}
    )


def undo(client, game, to_version, headers, reason="misclick"):
    return client.post(f"/games/{game['id']}/undo", json={"to_version": to_version, "reason": reason}, headers=headers)


def test_a_seat_takes_back_its_own_private_move_at_once(client):
    game = create_secret_game(client, seats=2, rounds=3)
    before = game["version"]
    played = move(client, game, 0, {"type": "bank", "amount": 3}).get_json()
    result = undo(client, game, before, auth(tok(game, 0)))
    assert result.status_code == 200, result.get_json()
    body = result.get_json()
    assert body["status"] == "done" and body["truncation"]["from_version"] == played["version"]
    now = client.get(f"/games/{game['id']}").get_json()
    assert now["version"] == before and now["generation"] == 1 and now["state"]["banked"] == [0, 0]
    assert now["etag"] != played["etag"] and now["etag"] != game["etag"]
    # a client holding the pre-undo version cannot write on top of the new history
    stale = move(client, game, 0, {"type": "pass"}, **{"If-Match": f'"{played["etag"]}"'})
    assert stale.status_code == 412


def test_a_move_that_revealed_a_random_outcome_needs_the_others_agreement(client):
    game = create_secret_game(client, seats=3, rounds=3)
    before = game["version"]
    move(client, game, 0, {"type": "draw"})
    asked = undo(client, game, before, auth(tok(game, 0))).get_json()
    assert asked["status"] == "requested" and asked["request"]["pending"] == [1, 2]
    seen = client.get(f"/games/{game['id']}", headers=auth(tok(game, 1))).get_json()["undo_request"]
    assert seen["by"] == 0 and seen["to_version"] == before
    assert client.get(f"/games/{game['id']}").get_json()["undo_request"] is None  # spectators do not see it
    half = client.post(f"/games/{game['id']}/undo/accept", headers=auth(tok(game, 1))).get_json()
    assert half["status"] == "requested" and half["request"]["pending"] == [2]
    done = client.post(f"/games/{game['id']}/undo/accept", headers=auth(tok(game, 2))).get_json()
    assert done["status"] == "done" and done["truncation"]["actor"] == "seats:0,1,2"
    assert client.get(f"/games/{game['id']}").get_json()["version"] == before


def test_another_seat_having_acted_needs_agreement_and_a_decline_closes(client):
    game = create_secret_game(client, seats=2, rounds=3)
    before = game["version"]
    move(client, game, 0, {"type": "pass"})
    move(client, game, 1, {"type": "pass"})
    asked = undo(client, game, before, auth(tok(game, 0))).get_json()
    assert asked["status"] == "requested"
    declined = client.post(f"/games/{game['id']}/undo/decline", headers=auth(tok(game, 1))).get_json()
    assert declined["status"] == "declined"
    again = client.post(f"/games/{game['id']}/undo/accept", headers=auth(tok(game, 1)))
    assert again.status_code == 409 and again.get_json()["code"] == "no_undo_request"
    # nothing was undone; the request and the decline are facts of the chain (workers.facts)
    assert client.get(f"/games/{game['id']}").get_json()["version"] == before + 4
    log = client.get(f"/games/{game['id']}/events?after={before + 2}").get_json()["events"]
    assert [(e["type"], e["seat"]) for e in log] == [("platform.UndoRequested", 0), ("platform.UndoDeclined", 1)]


def test_a_request_lapses_when_a_move_is_stored(client):
    game = create_secret_game(client, seats=2, rounds=3)
    move(client, game, 0, {"type": "draw"})
    undo(client, game, game["version"], auth(tok(game, 0)))
    move(client, game, 1, {"type": "pass"})
    late = client.post(f"/games/{game['id']}/undo/accept", headers=auth(tok(game, 1)))
    assert late.status_code == 409 and late.get_json()["code"] == "no_undo_request"


def test_only_voters_may_answer(client):
    game = create_secret_game(client, seats=2, rounds=3)
    move(client, game, 0, {"type": "draw"})
    undo(client, game, game["version"], auth(tok(game, 0)))
    own = client.post(f"/games/{game['id']}/undo/accept", headers=auth(tok(game, 0)))
    assert own.status_code == 403


def test_undo_targets_must_be_between_moves_and_after_setup(client):
    game = create_secret_game(client, seats=2, rounds=3)
    move(client, game, 0, {"type": "bank", "amount": 1})  # two events: PointsBanked, TurnEnded
    headers = auth(tok(game, 0))
    inside = undo(client, game, game["version"] + 1, headers)
    assert inside.status_code == 422 and inside.get_json()["code"] == "invalid_undo"
    into_setup = undo(client, game, 1, headers)
    assert into_setup.status_code == 422
    future = undo(client, game, game["version"] + 2, headers)
    assert future.status_code == 422


def test_undo_disabled_and_finished_games_refuse_seats(client):
    created = client.post(
        "/games",
        json={
            "game_type": "secret_numbers",
            "undo": False,
            "seats": [{"kind": "human", "name": "a"}, {"kind": "human", "name": "b"}],
        },
    )
    game = created.get_json()
    assert game["undo_allowed"] is False
    move(client, game, 0, {"type": "pass"})
    refused = undo(client, game, game["version"], auth(tok(game, 0)))
    assert refused.status_code == 403 and refused.get_json()["code"] == "forbidden"
    over = create_secret_game(client, seats=1, rounds=1)
    move(client, over, 0, {"type": "pass"})
    assert undo(client, over, over["version"], auth(tok(over, 0))).get_json()["code"] == "game_over"


def test_the_creating_integrator_may_truncate_anywhere_even_a_finished_game(client, runtime):
    _, key = apikeys.create_key(runtime.store, "tournament-site")
    _, other = apikeys.create_key(runtime.store, "someone-else")
    created = client.post(
        "/games",
        headers=auth(key),
        json={
            "game_type": "secret_numbers",
            "undo": False,
            "options": {"rounds": 1},
            "seats": [{"kind": "human", "name": "a"}, {"kind": "human", "name": "b"}],
        },
    ).get_json()
    move(client, created, 0, {"type": "draw"})
    move(client, created, 1, {"type": "pass"})
    finished = client.get(f"/games/{created['id']}").get_json()
    assert finished["status"] == "finished"
    assert undo(client, created, created["version"], auth(other)).status_code == 403
    done = undo(client, created, created["version"], auth(key), reason="director ruling").get_json()
    assert done["status"] == "done" and done["truncation"]["actor"].startswith("integrator:")
    after = client.get(f"/games/{created['id']}").get_json()
    assert after["status"] == "active" and after["result"] is None
    listed = {g["id"]: g["status"] for g in client.get("/games", headers=auth(key)).get_json()["games"]}
    assert listed[created["id"]] == "active"


def test_replaying_the_same_command_after_undo_draws_the_same_outcome(client, runtime):
    game = create_secret_game(client, seats=1, rounds=3)
    first = move(client, game, 0, {"type": "draw"}).get_json()
    number = runtime.service.load(game["id"]).state.secrets[0]
    undo(client, game, game["version"], auth(tok(game, 0)))
    second = move(client, game, 0, {"type": "draw"}).get_json()
    assert runtime.service.load(game["id"]).state.secrets[0] == number
    assert [e["data"] for e in second["events"]] == [e["data"] for e in first["events"]]


def test_bot_turns_pending_at_a_truncated_version_are_abandoned(client, runtime):
    game = create_secret_game(client, seats=2, rounds=3, bots=(None, "random"))
    before = game["version"]
    move(client, game, 0, {"type": "bank", "amount": 1})
    after_bot = runtime.service.load(game["id"])
    undo(client, game, before, auth(tok(game, 0)))  # no other human: agreement is vacuous
    # the job queued when the bot was asked to act, before the undo, finds the version moved
    assert jobs.play_bot_turn(game["id"], before + 2, after_bot.generation) == "stale"
    # and one for the same version number in the old history is told apart by the generation
    current = runtime.service.load(game["id"])
    assert current.generation == after_bot.generation + 1
    assert jobs.play_bot_turn(game["id"], current.version, after_bot.generation) == "stale"
    assert runtime.service.load(game["id"]).version == before


def test_history_lists_truncations_with_archived_events_redacted(client):
    game = create_secret_game(client, seats=3, rounds=3)
    move(client, game, 0, {"type": "draw"})
    undo(client, game, game["version"], auth(tok(game, 0)))
    for seat in (1, 2):
        client.post(f"/games/{game['id']}/undo/accept", headers=auth(tok(game, seat)))
    spectator = client.get(f"/games/{game['id']}/history").get_json()["truncations"]
    assert len(spectator) == 1 and spectator[0]["reason"] == "misclick"
    dealt = [e for e in spectator[0]["archived_events"] if e["type"] == "SecretDealt"]
    assert dealt and dealt[0]["data"]["number"] is None
    own = client.get(f"/games/{game['id']}/history", headers=auth(tok(game, 0))).get_json()["truncations"]
    assert [e for e in own[0]["archived_events"] if e["type"] == "SecretDealt"][0]["data"]["number"] is not None
    audit = client.get(f"/games/{game['id']}/audit").get_json()
    assert audit["ok"] and len(audit["truncations"]) == 1


def test_replay_steps_show_acting_seat_and_state(client):
    game = create_secret_game(client, seats=2, rounds=1)
    move(client, game, 0, {"type": "bank", "amount": 2})
    running = client.get(f"/games/{game['id']}/replay").get_json()
    assert running["public"] is False
    assert all(step["state"]["secrets"] == [None, None] for step in running["steps"])
    banked = [s for s in running["steps"] if s["event"]["type"] == "PointsBanked"][0]
    assert banked["seat"] == 0 and banked["actor"] == "human" and banked["state"]["banked"] == [2, 0]
    move(client, game, 1, {"type": "pass"})
    final = client.get(f"/games/{game['id']}/replay?after=2&limit=2").get_json()
    assert final["public"] is True and [s["version"] for s in final["steps"]] == [3, 4]
    assert None not in final["steps"][0]["state"]["secrets"]
    head = final["version"]
    for after in (head, head + 1, 10**9):  # a cursor past the head (the game undone below it): no steps, as /events
        past = client.get(f"/games/{game['id']}/replay?after={after}")
        assert past.status_code == 200 and past.get_json()["steps"] == [] and past.get_json()["next_after"] is None


def finished_export(client, seats=2):
    game = create_secret_game(client, seats=seats, rounds=1)
    for seat in range(seats):
        move(client, game, seat, {"type": "draw"})
    response = client.get(f"/games/{game['id']}/export")
    assert response.status_code == 200 and response.mimetype == "application/x-ndjson"
    return game, response.get_data(as_text=True)


def test_export_verifies_and_tampering_is_named(client):
    game, text = finished_export(client)
    report = client.post("/verify", json={"export": text}).get_json()
    assert report["ok"] and report["chain_ok"] and report["setup_reproduced"] and report["result_reproduced"]
    lines = text.splitlines()
    header, rows = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    rows[4]["data"]["number"] = 1  # change one event (version 5)
    tampered = "\n".join([lines[0]] + [json.dumps(r) for r in rows])
    server_key = client.get("/signing-key").get_json()["public_key"]
    broken = verify_export(tampered.splitlines(), [server_key])
    assert not broken["ok"] and broken["broken_version"] == rows[4]["version"]
    # what a failed check stopped short of is reported as not checked (null), not as failed
    assert broken["setup_reproduced"] is None and broken["result_reproduced"] is None
    untrusted = verify_export(text.splitlines(), [])
    assert untrusted["chain_ok"] and not untrusted["key_trusted"] and untrusted["result_reproduced"] is None
    header["result"]["scores"][0] += 1
    forged = "\n".join([json.dumps(header)] + lines[1:])
    report = verify_export(forged.splitlines(), [server_key])
    assert report["chain_ok"] and report["signature_ok"] and not report["result_reproduced"] and not report["ok"]


def test_export_needs_a_finished_game(client):
    game = create_secret_game(client)
    response = client.get(f"/games/{game['id']}/export")
    assert response.status_code == 409 and response.get_json()["code"] == "game_not_over"


def test_verify_garbage_reports_not_ok(client):
    report = client.post("/verify", json={"export": "hello\nworld"}).get_json()
    assert report["ok"] is False and report["detail"]


def test_cli_verify(client, tmp_path, capsys):
    from api.cli import main

    _, text = finished_export(client)
    good = tmp_path / "game.jsonl"
    good.write_text(text)
    server_key = client.get("/signing-key").get_json()["public_key"]
    assert main(["verify", "--public-key", server_key, str(good)]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    bad = tmp_path / "bad.jsonl"
    bad.write_text(text.replace('"TurnEnded"', '"TurnEnd"', 1))
    assert main(["verify", "--public-key", server_key, str(bad)]) == 1
    capsys.readouterr()
    # the signature is valid, but by a key this verifier was not told to trust
    assert main(["verify", "--data-dir", str(tmp_path), str(good)]) == 1
    untrusted = json.loads(capsys.readouterr().out)
    assert untrusted["chain_ok"] and untrusted["signature_ok"] and not untrusted["key_trusted"]
    assert main(["verify", str(tmp_path / "missing.jsonl")]) == 2


def test_a_read_after_an_undo_elsewhere_shows_the_new_history_not_the_old_one_of_that_version(tmp_path):
    """Reads are remembered by version in each server process; an undo starts a new generation, where the same
    version numbers follow another history. Two apps on one store stand for two processes of ``serve``: the one
    that reads did not see the undo happen."""
    from api.app import create_app
    from workers.runtime import Runtime

    url = f"sqlite:///{tmp_path / 'tw.db'}"
    reader, writer = (create_app(Runtime.build(url, None, "inline", str(tmp_path))).test_client() for _ in range(2))
    game = create_secret_game(writer, seats=2, rounds=3)
    before = game["version"]
    move(writer, game, 0, {"type": "bank", "amount": 3})
    first = reader.get(f"/games/{game['id']}", headers=auth(tok(game, 0))).get_json()
    assert first["state"]["banked"] == [3, 0]
    legal_first = reader.get(f"/games/{game['id']}/legal-commands", headers=auth(tok(game, 1))).get_json()
    assert undo(writer, game, before, auth(tok(game, 0))).get_json()["status"] == "done"
    move(writer, game, 0, {"type": "bank", "amount": 1})
    second = reader.get(f"/games/{game['id']}", headers=auth(tok(game, 0))).get_json()
    assert (second["version"], second["generation"]) == (first["version"], 1)
    assert second["state"]["banked"] == [1, 0]
    legal_second = reader.get(f"/games/{game['id']}/legal-commands", headers=auth(tok(game, 1))).get_json()
    assert legal_second["version"] == legal_first["version"] and legal_second["etag"] != legal_first["etag"]


def test_an_undo_whose_work_failed_to_be_written_is_resumed(client, runtime, monkeypatch):
    """The truncation and the work it causes are two writes: with the store failing between them (a 503 for an
    undo already done) the bot to act had no turn scheduled, for good. The resume entry written before the
    truncation writes that work again when it comes due."""
    from eventstore.base import StoreUnavailable

    key = integrator(runtime)
    game = create_secret_game(client, seats=2, rounds=3, bots=(None, "random"), headers=key)
    before = game["version"]
    assert move(client, game, 0, {"type": "bank", "amount": 1}).status_code == 200
    replied = runtime.service.load(game["id"]).version  # the bot replied at once
    load = runtime.service.load
    bot_turn = next(v for v in range(before + 1, replied) if load(game["id"], at_version=v).bot_seats_to_act())

    def store_down(game):
        raise StoreUnavailable("the store went away")

    monkeypatch.setattr(runtime.service, "after_change", store_down)
    answer = undo(client, game, bot_turn, key, reason="ruling")  # back to the bot's turn
    assert answer.status_code == 503
    monkeypatch.undo()
    stuck = runtime.service.load(game["id"])
    assert stuck.version == bot_turn and stuck.bot_seats_to_act()
    assert [e.job for e in runtime.store.list_outbox() if e.key == f"resume:{game['id']}"] == ["resume_game"]
    assert jobs.resume_game(game["id"]) == "resumed"  # as the sweeper runs it when due
    resumed = runtime.service.load(game["id"])
    assert resumed.version > bot_turn and not resumed.bot_seats_to_act()


def test_a_decline_that_loses_a_race_is_a_listed_412(client, runtime, monkeypatch):
    """A decline appends its vote against the game as read: another vote stored first makes it a 412
    ``stale_version`` (as for accept), which the contract lists for declineUndo."""
    from eventstore.base import WrongExpectedVersion

    game = create_secret_game(client, seats=3, rounds=3)
    before = game["version"]
    move(client, game, 0, {"type": "draw"})
    assert undo(client, game, before, auth(tok(game, 0))).get_json()["status"] == "requested"
    real = runtime.store.append

    def raced(stream, events, expected_version, **kwargs):  # the other vote lands just before this one
        monkeypatch.setattr(runtime.store, "append", real)
        raise WrongExpectedVersion(stream, expected_version, expected_version + 1)

    monkeypatch.setattr(runtime.store, "append", raced)
    declined = client.post(f"/games/{game['id']}/undo/decline", headers=auth(tok(game, 1)))
    assert declined.status_code == 412 and declined.get_json()["code"] == "stale_version", declined.get_json()
    spec = client.get("/openapi.json").get_json()
    assert "412" in spec["paths"]["/games/{game_id}/undo/decline"]["post"]["responses"]


def test_an_event_page_read_across_an_undo_is_of_one_history(client, runtime, monkeypatch):
    """An undo (and a move) landing between the page's read of the events and its read of the game: the page is
    read again, so its events and its `generation` are of the same history."""
    game = create_secret_game(client, seats=1, rounds=5)
    before = game["version"]
    move(client, game, 0, {"type": "bank", "amount": 1})
    service, real_read = runtime.service, runtime.service.read_events
    raced = []

    def read_events(*args, **kwargs):
        events = real_read(*args, **kwargs)
        if not raced:
            raced.append(True)
            assert undo(client, game, before, auth(tok(game, 0))).status_code == 200
            assert move(client, game, 0, {"type": "pass"}).status_code == 200
        return events

    monkeypatch.setattr(service, "read_events", read_events)
    page = client.get(f"/games/{game['id']}/events?after={before}", headers=auth(tok(game, 0))).get_json()
    assert page["generation"] == 1
    assert [(e["version"], e["type"], e["generation"]) for e in page["events"]][0] == (before + 1, "TurnEnded", 1)


def test_a_game_may_be_undone_a_hundred_times(client, runtime, monkeypatch):
    """Each undo keeps its archived moves and its record, which the history and the audit read whole: a seat free
    to take back its own moves at once stops at ``MOST_UNDOS``, with a 422 that says so."""
    from workers import history

    monkeypatch.setattr(history, "MOST_UNDOS", 3)
    game = create_secret_game(client, seats=2, rounds=3)
    before = game["version"]
    for _ in range(3):
        assert move(client, game, 0, {"type": "bank", "amount": 3}).status_code == 200
        assert undo(client, game, before, auth(tok(game, 0))).get_json()["status"] == "done"
    assert move(client, game, 0, {"type": "bank", "amount": 3}).status_code == 200
    refused = undo(client, game, before, auth(tok(game, 0)))
    assert refused.status_code == 422 and "undone 3 times, the most a game may" in refused.get_json()["detail"]
    assert len(client.get(f"/games/{game['id']}/history").get_json()["truncations"]) == 3
