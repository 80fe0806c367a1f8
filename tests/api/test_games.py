"""The games API on the test game: creation, reading, moves, errors, event log, replay."""

from __future__ import annotations

import pytest

from tests.api.conftest import auth, create_secret_game, integrator


def token_of(game, seat):
    return next(t["token"] for t in game["seat_tokens"] if t["seat"] == seat)


def test_game_types_lists_registered_games(client):
    response = client.get("/game-types")
    assert response.status_code == 200
    names = [g["name"] for g in response.get_json()]
    assert "secret_numbers" in names


def test_create_returns_tokens_once_and_hides_them_afterwards(client):
    game = create_secret_game(client)
    assert len(game["seat_tokens"]) == 2
    read = client.get(f"/games/{game['id']}")
    text = read.get_data(as_text=True)
    for token in game["seat_tokens"]:
        assert token["token"] not in text
    assert "token_hash" not in text and "seed" not in read.get_json()["state"]


def test_read_game_has_etag_and_spectator_view(client):
    game = create_secret_game(client)
    response = client.get(f"/games/{game['id']}")
    assert response.status_code == 200
    assert response.headers["ETag"].startswith(f'"{game["etag"]}-')  # the version, then a digest of the body
    body = response.get_json()
    assert body["your_seat"] is None
    assert body["state"]["secrets"] == [None, None]


def test_seat_sees_own_secret_only(client):
    game = create_secret_game(client)
    body = client.get(f"/games/{game['id']}", headers=auth(token_of(game, 0))).get_json()
    assert body["your_seat"] == 0
    assert body["state"]["secrets"][0] is not None and body["state"]["secrets"][1] is None


def test_play_a_move_and_read_the_log(client):
    game = create_secret_game(client)
    gid = game["id"]
    response = client.post(
        f"/games/{gid}/commands", json={"command": {"type": "bank", "amount": 2}}, headers=auth(token_of(game, 0))
    )
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert [e["type"] for e in body["events"]] == ["PointsBanked", "TurnEnded"]
    assert body["to_act"] == [1]
    log = client.get(f"/games/{gid}/events").get_json()
    assert [e["type"] for e in log["events"]][-2:] == ["PointsBanked", "TurnEnded"]
    assert log["next_after"] is None


def test_event_log_pages(client):
    game = create_secret_game(client, seats=3)
    first = client.get(f"/games/{game['id']}/events?limit=2").get_json()
    assert [e["version"] for e in first["events"]] == [1, 2]
    assert first["next_after"] == 2
    rest = client.get(f"/games/{game['id']}/events?after=2&limit=100").get_json()
    assert [e["version"] for e in rest["events"]] == [3, 4]
    assert rest["next_after"] is None


def test_event_log_redacts_other_seats_secrets(client):
    game = create_secret_game(client)
    spectator = client.get(f"/games/{game['id']}/events").get_json()["events"]
    dealt = [e for e in spectator if e["type"] == "SecretDealt"]
    assert dealt and all(e["data"]["number"] is None for e in dealt)
    mine = client.get(f"/games/{game['id']}/events", headers=auth(token_of(game, 1))).get_json()["events"]
    numbers = {e["data"]["seat"]: e["data"]["number"] for e in mine if e["type"] == "SecretDealt"}
    assert numbers[0] is None and numbers[1] is not None


def test_not_your_turn_is_a_problem(client):
    game = create_secret_game(client)
    response = client.post(
        f"/games/{game['id']}/commands", json={"command": {"type": "pass"}}, headers=auth(token_of(game, 1))
    )
    assert response.status_code == 409
    assert response.content_type == "application/problem+json"
    problem = response.get_json()
    assert problem["code"] == "not_your_turn" and problem["detail"]


def test_illegal_command_stores_nothing(client):
    game = create_secret_game(client)
    response = client.post(
        f"/games/{game['id']}/commands",
        json={"command": {"type": "bank", "amount": 9}},
        headers=auth(token_of(game, 0)),
    )
    assert response.status_code == 422
    assert response.get_json()["code"] == "illegal_command"
    assert client.get(f"/games/{game['id']}").get_json()["version"] == game["version"]


@pytest.mark.parametrize(
    "body", ["not json", {"command": "x"}, {"command": {}}, {"commands": []}, {"command": {"type": 3}}, {"extra": 1}]
)
def test_malformed_bodies_are_400(client, body):
    game = create_secret_game(client)
    kwargs = {"data": body, "content_type": "application/json"} if isinstance(body, str) else {"json": body}
    response = client.post(f"/games/{game['id']}/commands", headers=auth(token_of(game, 0)), **kwargs)
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["code"] == "invalid_request"


@pytest.mark.parametrize("body", [{}, {"command": {"type": "pass"}, "commands": [{"type": "pass"}]}])
def test_neither_or_both_command_forms_is_422(client, body):
    game = create_secret_game(client)
    response = client.post(f"/games/{game['id']}/commands", headers=auth(token_of(game, 0)), json=body)
    assert response.status_code == 422 and response.get_json()["code"] == "invalid_command"


def test_unknown_command_type_is_refused_by_the_rules(client):
    game = create_secret_game(client)
    response = client.post(
        f"/games/{game['id']}/commands", headers=auth(token_of(game, 0)), json={"command": {"type": "fly"}}
    )
    assert response.status_code == 422 and response.get_json()["code"] == "invalid_command"


def test_missing_or_wrong_token(client):
    game = create_secret_game(client)
    url = f"/games/{game['id']}/commands"
    assert client.post(url, json={"command": {"type": "pass"}}).get_json()["code"] == "unauthorized"
    wrong = client.post(url, json={"command": {"type": "pass"}}, headers=auth("tws_nope"))
    assert wrong.status_code == 401
    other = create_secret_game(client)
    cross = client.post(url, json={"command": {"type": "pass"}}, headers=auth(token_of(other, 0)))
    assert cross.status_code == 401


def test_unknown_game(client):
    response = client.get("/games/nope")
    assert response.status_code == 404 and response.get_json()["code"] == "unknown_game"


def test_if_match_stale_is_412(client):
    game = create_secret_game(client)
    gid, etag = game["id"], game["etag"]
    ok = client.post(
        f"/games/{gid}/commands",
        json={"command": {"type": "pass"}},
        headers={**auth(token_of(game, 0)), "If-Match": f'"{etag}"'},
    )
    assert ok.status_code == 200
    stale = client.post(
        f"/games/{gid}/commands",
        json={"command": {"type": "pass"}},
        headers={**auth(token_of(game, 1)), "If-Match": f'"{etag}"'},
    )
    assert stale.status_code == 412
    assert stale.get_json()["code"] == "stale_version"
    assert stale.headers["ETag"] == f'"{ok.get_json()["etag"]}"'


def test_idempotency_key_never_plays_twice(client):
    game = create_secret_game(client, rounds=5)
    gid, tok = game["id"], token_of(game, 0)
    headers = {**auth(tok), "Idempotency-Key": "move-1"}
    first = client.post(f"/games/{gid}/commands", json={"command": {"type": "bank", "amount": 1}}, headers=headers)
    again = client.post(f"/games/{gid}/commands", json={"command": {"type": "bank", "amount": 1}}, headers=headers)
    assert first.status_code == again.status_code == 200
    assert again.get_json()["replayed"] is True
    assert again.get_json()["events"] == first.get_json()["events"]
    assert client.get(f"/games/{gid}").get_json()["version"] == first.get_json()["version"]
    different = client.post(f"/games/{gid}/commands", json={"command": {"type": "bank", "amount": 2}}, headers=headers)
    assert different.status_code == 422 and different.get_json()["code"] == "idempotency_conflict"


def test_a_keyed_move_is_replayed_after_an_undo_that_kept_it_and_expired_by_one_that_took_it(client):
    game = create_secret_game(client, seats=1, rounds=5)
    gid, tok = game["id"], token_of(game, 0)
    bank = {"command": {"type": "bank", "amount": 1}}
    keyed = {**auth(tok), "Idempotency-Key": "move-1"}
    first = client.post(f"/games/{gid}/commands", json=bank, headers=keyed)
    assert first.status_code == 200
    kept_at = first.get_json()["version"]
    assert client.post(f"/games/{gid}/commands", json=bank, headers=auth(tok)).status_code == 200
    undone = client.post(f"/games/{gid}/undo", json={"to_version": kept_at}, headers=auth(tok))
    assert undone.status_code == 200 and undone.get_json()["status"] == "done"  # the keyed move is still played
    again = client.post(f"/games/{gid}/commands", json=bank, headers=keyed)
    assert again.status_code == 200 and again.get_json()["replayed"] is True, again.get_json()
    assert again.get_json()["events"] == first.get_json()["events"]
    before = first.get_json()["events"][0]["version"] - 1
    assert client.post(f"/games/{gid}/undo", json={"to_version": before}, headers=auth(tok)).status_code == 200
    gone = client.post(f"/games/{gid}/commands", json=bank, headers=keyed)
    assert gone.status_code == 409 and gone.get_json()["code"] == "idempotency_expired"


def test_command_list_is_all_or_nothing(client):
    game = create_secret_game(client, seats=1, rounds=3)
    gid, tok = game["id"], token_of(game, 0)
    bad = client.post(
        f"/games/{gid}/commands",
        headers=auth(tok),
        json={"commands": [{"type": "bank", "amount": 1}, {"type": "bank", "amount": 7}]},
    )
    assert bad.status_code == 422 and bad.get_json()["index"] == 1
    assert client.get(f"/games/{gid}").get_json()["version"] == game["version"]
    good = client.post(
        f"/games/{gid}/commands",
        headers=auth(tok),
        json={"commands": [{"type": "bank", "amount": 1}, {"type": "bank", "amount": 3}]},
    )
    assert good.status_code == 200 and len(good.get_json()["events"]) == 4


def test_full_game_to_result_and_everything_public_after(client):
    game = create_secret_game(client, seats=2, rounds=2)
    gid = game["id"]
    for turn in range(4):
        seat = turn % 2
        r = client.post(
            f"/games/{gid}/commands",
            json={"command": {"type": "bank", "amount": 3}},
            headers=auth(token_of(game, seat)),
        )
        assert r.status_code == 200, r.get_json()
    final = client.get(f"/games/{gid}").get_json()
    assert final["status"] == "finished"
    assert None not in final["state"]["secrets"]
    assert sorted(final["result"]["ranks"])[0] == 1
    events = client.get(f"/games/{gid}/events").get_json()["events"]
    assert all(e["data"]["number"] is not None for e in events if e["type"] == "SecretDealt")
    late = client.post(f"/games/{gid}/commands", json={"command": {"type": "pass"}}, headers=auth(token_of(game, 0)))
    assert late.status_code == 409 and late.get_json()["code"] == "game_over"
    listed = client.get("/games?status=finished").get_json()["games"]
    assert gid in [g["id"] for g in listed]


def test_past_state_replay(client):
    game = create_secret_game(client, seats=1, rounds=3)
    gid, tok = game["id"], token_of(game, 0)
    client.post(f"/games/{gid}/commands", headers=auth(tok), json={"command": {"type": "bank", "amount": 2}})
    past = client.get(f"/games/{gid}/states/{game['version']}").get_json()
    assert past["state"]["banked"] == [0]
    now = client.get(f"/games/{gid}/states/{game['version'] + 1}").get_json()
    assert now["state"]["banked"] == [2]
    assert client.get(f"/games/{gid}/states/999").status_code == 404


def test_bot_seats_play_without_human_input(client, runtime):
    game = create_secret_game(client, seats=3, rounds=3, bots=("random", "easy", "random"), headers=integrator(runtime))
    final = client.get(f"/games/{game['id']}").get_json()
    assert final["status"] == "finished"
    assert game["seat_tokens"] == []


def test_bots_answer_a_human_move(client):
    game = create_secret_game(client, seats=2, rounds=2, bots=(None, "easy"))
    gid, tok = game["id"], token_of(game, 0)
    r = client.post(f"/games/{gid}/commands", headers=auth(tok), json={"command": {"type": "pass"}})
    assert r.status_code == 200
    after = client.get(f"/games/{gid}").get_json()
    assert after["to_act"] == [0]  # the bot has answered


def test_create_game_validation(client):
    bad_type = client.post("/games", json={"game_type": "chess", "seats": [{"kind": "human", "name": "a"}]})
    assert bad_type.status_code == 404 and bad_type.get_json()["code"] == "unknown_game_type"
    bad_option = client.post(
        "/games",
        json={"game_type": "secret_numbers", "seats": [{"kind": "human", "name": "a"}], "options": {"rounds": 0}},
    )
    assert bad_option.status_code == 422 and "rounds" in bad_option.get_json()["detail"]
    assert bad_option.get_json()["code"] == "invalid_options"
    bad_level = client.post("/games", json={"game_type": "secret_numbers", "seats": [{"kind": "bot", "level": "x"}]})
    assert bad_level.status_code == 400 and "level" in bad_level.get_json()["detail"]
    human_level = client.post(
        "/games", json={"game_type": "secret_numbers", "seats": [{"kind": "human", "level": "easy"}]}
    )
    assert human_level.status_code == 422 and human_level.get_json()["code"] == "invalid_seats"
    too_many = client.post(
        "/games", json={"game_type": "secret_numbers", "seats": [{"kind": "human", "name": "a"}] * 7}
    )
    assert too_many.status_code == 422 and too_many.get_json()["code"] == "invalid_seats"


def test_seat_defaults(client):
    created = client.post("/games", json={"game_type": "secret_numbers", "seats": [{"kind": "human"}, {"kind": "bot"}]})
    seats = created.get_json()["seats"]
    assert seats[0]["name"] == "Seat 1" and seats[1]["level"] == "medium"


def test_health(client):
    body = client.get("/health").get_json()
    assert body["status"] == "ok" and body["queue_backend"] == "inline"


def test_405_has_allow_header(client):
    response = client.delete("/game-types")
    assert response.status_code == 405
    assert "GET" in response.headers["Allow"]
    assert response.content_type == "application/problem+json"


def test_api_keys_are_rate_limited(app, client, runtime):
    from workers import apikeys

    app.config["RATE_LIMIT_PER_MINUTE"] = 3
    _, key = apikeys.create_key(runtime.store, "busy-site")
    statuses = [client.get("/game-types", headers=auth(key)).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    limited = client.get("/game-types", headers=auth(key))
    assert limited.get_json()["code"] == "rate_limited" and 1 <= int(limited.headers["Retry-After"]) <= 60
    assert client.get("/game-types").status_code == 200  # anonymous requests are not limited by key


def test_options_only_set_up_could_refuse_are_a_422_not_a_500(client):
    seats = [{"kind": "human"}] * 3
    for colours in ["white,brown", "grey,grey,grey", "white,brown,orange,grey", "WHITE,brown,orange", "white,,brown"]:
        answer = client.post("/games", json={"game_type": "murano", "seats": seats, "options": {"colours": colours}})
        assert answer.status_code == 422, (colours, answer.get_json())
        assert answer.get_json()["code"] == "invalid_options" and "colours" in answer.get_json()["detail"]
    fine = client.post(
        "/games", json={"game_type": "murano", "seats": seats, "options": {"colours": "grey,white,brown"}}
    )
    assert fine.status_code == 201


def test_a_game_read_and_listed_says_the_options_it_was_created_with_defaults_filled_in(client):
    """A client that did not create the game (a spectator, a tournament site, a second browser) learns its options
    from the game itself: each one the game type has, the creator's where given and the default elsewhere."""
    seats = [{"kind": "human"}] * 2
    created = client.post("/games", json={"game_type": "archipelago", "seats": seats, "options": {"length": "short"}})
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    kinds = client.get("/game-types/archipelago").get_json()["options"]
    expected = {o["name"]: o["default"] for o in kinds} | {"length": "short"}
    assert game["options"] == expected and len(expected) > 1
    assert client.get(f"/games/{game['id']}").get_json()["options"] == expected
    listed = client.get("/games?game_type=archipelago").get_json()["games"]
    assert next(g for g in listed if g["id"] == game["id"])["options"] == expected
    plain = client.post("/games", json={"game_type": "secret_numbers", "seats": seats}).get_json()
    defaults = {o["name"]: o["default"] for o in client.get("/game-types/secret_numbers").get_json()["options"]}
    assert client.get(f"/games/{plain['id']}").get_json()["options"] == defaults != {}


def test_a_game_read_says_what_resigning_means_in_it(client):
    """A seat deciding whether to resign learns from the game what follows: ranked last, or a bot plays on."""
    seats = [{"kind": "human"}] * 2
    plain = client.post("/games", json={"game_type": "secret_numbers", "seats": seats}).get_json()
    assert (plain["on_resign"], plain["resign_level"]) == ("lose", "medium")
    handed = client.post(
        "/games", json={"game_type": "secret_numbers", "seats": seats, "on_resign": "bot", "resign_level": "easy"}
    ).get_json()
    read = client.get(f"/games/{handed['id']}").get_json()
    assert (read["on_resign"], read["resign_level"]) == ("bot", "easy")


def test_a_game_read_says_whether_the_game_is_listed_to_others(client, runtime):
    """A tournament site or a second browser learns from the game whether GET /games shows it to other callers:
    the creator's choice, or the default (listed without a key, unlisted with one)."""
    seats = [{"kind": "human"}] * 2
    site, other_site = integrator(runtime), integrator(runtime)
    cases = [({}, {}, True), ({"public": False}, {}, False), ({}, site, False), ({"public": True}, site, True)]
    for extra, headers, listed in cases:
        created = client.post("/games", json={"game_type": "secret_numbers", "seats": seats, **extra}, headers=headers)
        assert created.status_code == 201 and created.get_json()["public"] is listed, (extra, headers)
        assert client.get(f"/games/{created.get_json()['id']}").get_json()["public"] is listed, (extra, headers)
        others = client.get("/games?game_type=secret_numbers&limit=100", headers=other_site).get_json()["games"]
        assert any(g["id"] == created.get_json()["id"] for g in others) is listed, (extra, headers)


def test_names_hold_something_visible_and_nothing_that_turns_text_around(client):
    def named(name):
        seats = [{"kind": "human", "name": name}, {"kind": "human"}]
        return client.post("/games", json={"game_type": "secret_numbers", "seats": seats})

    blank = ["\u200d", "\u200c", "\u3164", "\u2800", "\ufe0f", "\u0301", " \u115f\u1160 ", "\uffa0"]
    marks = ["\u061cAnn", "Ann\u00ad", "a" + "\u0301" * 63]
    # format characters that show nothing: tags (but in a subdivision's flag), musical, annotation, deprecated
    marks += ["\U000e0041\U000e0042", "Ann\U000e0041", "\U0001d173", "Bo\ufff9", "\u206aEve", "\U0001f3f4\U000e0041"]
    for bad in [" ", "\u202eAnn", "\ufeff", "a\u200bb", "\u2028x", "Ann\u2066", "\u200fBo", "a\u2060b", *blank, *marks]:
        answer = named(bad)
        assert answer.status_code == 400 and answer.get_json()["code"] == "invalid_request", repr(bad)
    for good in [
        "Zoë",
        "李雷",
        "🎲 dice",
        "مریم\u200cسادات",
        "👩\u200d💻 Ada",
        "Ann-Marie O'Neil",
        "Zoe\u0308",
        "❤\ufe0f",
        "Nguyễn",
        "देवी",
        "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f Ann",  # England's flag
        "\U0001f3f4 Bo",  # the black flag alone
    ]:
        answer = named(good)
        assert answer.status_code == 201, (good, answer.get_json())
        assert answer.get_json()["seats"][0]["name"] == good


def test_an_undo_reason_holds_no_direction_or_control_characters(client):
    game = client.post("/games", json={"game_type": "secret_numbers", "seats": [{"kind": "human"}] * 2}).get_json()
    token = {"Authorization": f"Bearer {game['seat_tokens'][0]['token']}"}
    for bad in ["\u202eevil", "a\x1b[31mb", "line\nbreak"]:
        answer = client.post(f"/games/{game['id']}/undo", json={"to_version": 1, "reason": bad}, headers=token)
        assert answer.status_code == 400 and answer.get_json()["code"] == "invalid_request", repr(bad)


def test_bots_of_one_level_are_told_apart_by_name(client):
    seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
    seats += [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "easy", "name": "Eve"}]
    game = client.post("/games", json={"game_type": "puerto_rico", "seats": seats}).get_json()
    assert [s["name"] for s in game["seats"]][1:] == ["easy bot", "easy bot 2", "random bot", "Eve"]


@pytest.mark.parametrize("keyed", [False, True])
def test_a_creation_that_failed_after_its_stream_row_leaves_no_game(client, runtime, monkeypatch, keyed):
    """The stream row is written before the set-up's append: if the append fails (503), the row holds no event. It
    is no game: neither listed (the public lobby, the key's list) nor read, nor a listing cursor."""
    from eventstore.base import StoreUnavailable

    headers = integrator(runtime) if keyed else {}
    append = runtime.store.append

    def down(*args, **kwargs):
        raise StoreUnavailable("the store went away")

    monkeypatch.setattr(runtime.store, "append", down)
    failed = client.post(
        "/games", json={"game_type": "secret_numbers", "seats": [{"kind": "human"}] * 2}, headers=headers
    )
    assert failed.status_code == 503
    monkeypatch.setattr(runtime.store, "append", append)
    (orphan,) = [info.stream for info in runtime.store.list_streams() if info.version == 0]
    real = create_secret_game(client, headers=headers)
    listed = client.get("/games", headers=headers).get_json()["games"]
    assert [g["id"] for g in listed] == [real["id"]]
    assert client.get(f"/games/{orphan}").get_json()["code"] == "unknown_game"
    assert client.get(f"/games/{orphan}/legal-commands", headers=headers).status_code == 404
    assert client.get("/games", query_string={"cursor": orphan}, headers=headers).get_json()["code"] == "invalid_cursor"


def test_the_published_text_patterns_are_ecma_262_and_the_server_narrows_them(client):
    """OpenAPI's patterns are ECMA-262 (clients' validators and generators read them): no possessive repetition,
    no astral escapes. The server checks more (invisible astral characters), so a text the published pattern passes
    may still be a 400, never the other way round."""
    import re

    from workers.text import REASON, REASON_PUBLISHED, TEXT, TEXT_PUBLISHED

    for published in (TEXT_PUBLISHED, REASON_PUBLISHED):
        assert "*+" not in published and "\\U" not in published
    spec = client.get("/openapi.json").get_json()
    name = spec["components"]["schemas"]["SeatRequest"]["properties"]["name"]["pattern"]
    assert name == TEXT_PUBLISHED
    for text in ["Ann", "Zoë", "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f", "Ann\U000e0041", " "]:
        for full, published in ((TEXT, TEXT_PUBLISHED), (REASON, REASON_PUBLISHED)):
            if re.match(full, text):
                assert re.match(published, text), (text, full)
