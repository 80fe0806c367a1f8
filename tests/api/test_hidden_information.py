"""No read path returns a seat's secret to another seat or a spectator while the game runs."""

from __future__ import annotations

import pytest

from tests.api.conftest import auth, create_secret_game


def secrets_of(runtime, game_id):
    return runtime.service.load(game_id).state.secrets


def all_read_paths(client, game, headers):
    gid = game["id"]
    texts = []
    for url in (
        f"/games/{gid}",
        f"/games/{gid}/events",
        f"/games/{gid}/events?after=1&limit=1",
        f"/games/{gid}/legal-commands",
        "/games",
        "/games?status=active",
    ):
        texts.append(client.get(url, headers=headers).get_data(as_text=True))
    version = client.get(f"/games/{gid}").get_json()["version"]
    for v in range(1, version + 1):
        texts.append(client.get(f"/games/{gid}/states/{v}", headers=headers).get_data(as_text=True))
    # error responses: an illegal move, a move out of turn, a stale If-Match, a malformed body
    for body, extra in (
        ({"command": {"type": "bank", "amount": 99}}, {}),
        ({"command": {"type": "pass"}}, {"If-Match": '"9.9"'}),
        ({"command": {"type": 5}}, {}),
        ({"command": {"type": "pass"}}, {}),
    ):
        texts.append(
            client.post(f"/games/{gid}/commands", json=body, headers={**headers, **extra}).get_data(as_text=True)
        )
    return texts


def test_secrets_never_reach_other_seats_or_spectators(client, runtime):
    game = create_secret_game(client, seats=3, rounds=3)
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    # seat 0 draws a fresh secret (a random outcome recorded in an event)
    client.post(f"/games/{game['id']}/commands", json={"command": {"type": "draw"}}, headers=auth(tokens[0]))
    secrets = secrets_of(runtime, game["id"])
    viewers = {None: {}, **{seat: auth(tok) for seat, tok in tokens.items()}}
    for viewer, headers in viewers.items():
        for text in all_read_paths(client, game, headers):
            for seat, secret in enumerate(secrets):
                if seat != viewer:
                    assert str(secret) not in text, f"seat {seat}'s secret leaked to {viewer}"


def test_a_seat_sees_its_own_secret(client, runtime):
    game = create_secret_game(client, seats=2)
    secrets = secrets_of(runtime, game["id"])
    token = game["seat_tokens"][1]["token"]
    assert str(secrets[1]) in client.get(f"/games/{game['id']}", headers=auth(token)).get_data(as_text=True)


def test_legal_command_labels_reach_only_their_seat(client, runtime):
    game = create_secret_game(client, seats=3)
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    secrets = secrets_of(runtime, game["id"])
    own = client.get(f"/games/{game['id']}/legal-commands", headers=auth(tokens[0])).get_json()
    assert own["choices"][0]["label"] == f"Replace your number {secrets[0]} by a new one"
    for seat in (1, 2):  # not their turn: no commands, and nothing of seat 0's
        text = client.get(f"/games/{game['id']}/legal-commands", headers=auth(tokens[seat])).get_data(as_text=True)
        assert str(secrets[0]) not in text


def test_everything_is_public_once_the_game_is_over(client, runtime):
    game = create_secret_game(client, seats=2, rounds=1)
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    for seat in (0, 1):
        client.post(f"/games/{game['id']}/commands", json={"command": {"type": "pass"}}, headers=auth(tokens[seat]))
    secrets = secrets_of(runtime, game["id"])
    text = client.get(f"/games/{game['id']}/events").get_data(as_text=True)
    assert all(str(secret) in text for secret in secrets)


def test_an_objective_returned_under_more_fun_stays_secret_after_the_end(client, runtime):
    """Archipelago §3.10 (v1.2): a card returned under MORE_FUN is never revealed, not even after the end."""
    body = {
        "game_type": "archipelago",
        "seats": [{"kind": "human", "name": f"P{i}"} for i in range(3)],
        "options": {"more_fun": True, "length": "short"},
        "seed": 11,
    }
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.get_json()
    game = response.get_json()
    gid = game["id"]
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    dealt = {
        e.data["seat"]: e.data["cards"]
        for e in runtime.store.read(gid, 1, 10**6)
        if e.data["type"] == "ObjectivesDealt"
    }
    for seat, cards in dealt.items():
        done = client.post(
            f"/games/{gid}/commands",
            headers=auth(tokens[seat]),
            json={"command": {"type": "keep_objectives", "cards": [cards[0]]}},
        )
        assert done.status_code == 200, done.get_json()
    returned = {c for cards in dealt.values() for c in cards[1:]}
    kept = {cards[0] for cards in dealt.values()}
    version = client.get(f"/games/{gid}").get_json()["version"]
    # the end of the game, as the round cap would record it
    runtime.store.append(
        gid,
        [
            {
                "type": "GameEnded",
                "cause": "ROUND_CAP",
                "declarer": None,
                "objective": None,
                "round": 1,
                "winner": None,
                "winners": [],
            }
        ],
        version,
    )
    assert runtime.service.load(gid).over
    texts = [
        client.get(url).get_data(as_text=True)
        for url in (
            f"/games/{gid}",
            f"/games/{gid}/events",
            f"/games/{gid}/replay",
            f"/games/{gid}/history",
            f"/games/{gid}/states/{version + 1}",
        )
    ]
    joined = "\n".join(texts)
    assert all(f'"{card}"' in joined for card in kept)
    for card in returned:
        assert f'"{card}"' not in joined, f"returned objective {card} revealed after the end"


def test_a_batch_cannot_go_on_after_a_draw(client):
    """A batch is all or nothing: were commands allowed after a draw, a later command's refusal would tell the seat
    what was drawn and take the draw back, a free look at hidden information. The draw must come last."""
    game = create_secret_game(client, seats=1, rounds=5)
    url, headers = f"/games/{game['id']}/commands", auth(game["seat_tokens"][0]["token"])
    draw, bank = {"type": "draw"}, {"type": "bank", "amount": 1}
    refused = client.post(url, json={"commands": [bank, draw, bank]}, headers=headers)
    problem = refused.get_json()
    assert refused.status_code == 422 and problem["code"] == "invalid_command" and problem["index"] == 1, problem
    assert "SecretDealt" in problem["detail"] and "last command" in problem["detail"]
    assert client.get(f"/games/{game['id']}").get_json()["version"] == game["version"]
    accepted = client.post(url, json={"commands": [bank, draw]}, headers=headers)
    assert accepted.status_code == 200, accepted.get_json()


# -- reads across an undo: a finished game that its integrator brings back into play, a seat drawing anew ---------
def _finished_keyed_game(client, runtime):
    from workers import apikeys

    _, key = apikeys.create_key(runtime.store, "site")
    body = {
        "game_type": "secret_numbers",
        "options": {"rounds": 1},
        "seed": 3,
        "seats": [{"kind": "human", "name": "a"}, {"kind": "human", "name": "b"}],
    }
    game = client.post("/games", headers=auth(key), json=body).get_json()
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    for seat in (0, 1):
        bank = {"command": {"type": "bank", "amount": 1}}
        assert client.post(f"/games/{game['id']}/commands", json=bank, headers=auth(tokens[seat])).status_code == 200
    assert client.get(f"/games/{game['id']}").get_json()["status"] == "finished"
    return game, key, tokens


def _undo_and_draw(client, game, key, tokens):
    undone = client.post(f"/games/{game['id']}/undo", json={"to_version": game["version"]}, headers=auth(key))
    assert undone.status_code == 200
    drew = client.post(f"/games/{game['id']}/commands", json={"command": {"type": "draw"}}, headers=auth(tokens[0]))
    assert drew.status_code == 200


def _undone_at_first(target, name, client, game, key, tokens, monkeypatch, when=lambda *a, **k: True):
    """``target.name`` undoes the game and draws anew the first time it is called as ``when`` says."""
    real, raced = getattr(target, name), []

    def racing(*args, **kwargs):
        answer = None if name == "load" else real(*args, **kwargs)
        if not raced and when(*args, **kwargs):
            raced.append(True)
            _undo_and_draw(client, game, key, tokens)
        return real(*args, **kwargs) if name == "load" else answer

    monkeypatch.setattr(target, name, racing)
    return raced


@pytest.mark.parametrize("path", ["states", "replay", "export"])
def test_a_read_across_an_undo_of_a_finished_game_shows_no_new_secret(client, runtime, monkeypatch, path):
    """Past states, replays and exports decide what they reveal on the game as first read: an integrator's undo
    landing between that read and the next (the game back in play, a seat drawing anew) must not show the new
    draw, which is a secret again."""
    game, key, tokens = _finished_keyed_game(client, runtime)
    if path == "export":
        raced = _undone_at_first(runtime.store, "verify", client, game, key, tokens, monkeypatch)
        url = f"/games/{game['id']}/export"
    else:
        at_version = lambda *a, **k: k.get("at_version") is not None  # noqa: E731
        raced = _undone_at_first(runtime.service, "load", client, game, key, tokens, monkeypatch, at_version)
        url = (
            f"/games/{game['id']}/states/{game['version'] + 1}"
            if path == "states"
            else f"/games/{game['id']}/replay?after=1"
        )
    answer = client.get(url)  # a spectator
    now = runtime.service.load(game["id"])
    assert raced and now.status == "active"
    assert str(now.state.secrets[0]) not in answer.get_data(as_text=True), answer.get_data(as_text=True)[:400]


def test_a_past_state_read_when_an_undo_lands_inside_its_own_load_shows_no_new_secret(client, runtime, monkeypatch):
    """The past state's load reads the stream's record and then its events: an undo landing between those two
    (its record says the old generation, its events are the new history's) is caught by reading the generation
    again afterwards."""
    game, key, tokens = _finished_keyed_game(client, runtime)
    svc = runtime.service
    real_load, real_info = svc.load, svc.info
    armed, raced = [], []

    def load(game_id, at_version=None, *args, **kwargs):
        if at_version is not None and not raced:
            armed.append(True)
        return real_load(game_id, at_version, *args, **kwargs)

    def info(game_id):
        got = real_info(game_id)
        if armed and not raced:  # the record is read (the old generation): the undo and a draw land now
            raced.append(True)
            _undo_and_draw(client, game, key, tokens)
        return got

    monkeypatch.setattr(svc, "load", load)
    monkeypatch.setattr(svc, "info", info)
    answer = client.get(f"/games/{game['id']}/states/{game['version'] + 1}")  # a spectator
    now = real_load(game["id"])
    assert raced and now.status == "active"
    assert str(now.state.secrets[0]) not in answer.get_data(as_text=True)
