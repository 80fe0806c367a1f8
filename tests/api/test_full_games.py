"""Every hosted game plays from creation to the final ranking over plain HTTP, then verifies as an export."""

from __future__ import annotations

import random

import pytest

from domain import registry
from tests.api.conftest import auth

SEATS = {"puerto_rico": 4, "murano": 3, "amerigo": 2, "archipelago": 3}


@pytest.mark.parametrize("game_type", sorted(registry.GAME_MODULES))
def test_a_complete_game_over_http(client, game_type):
    seats = SEATS.get(game_type, registry.get(game_type).min_players)
    created = client.post(
        "/games",
        json={
            "game_type": game_type,
            "seed": 2026,
            "seats": [{"kind": "human", "name": f"Player {i}"} for i in range(seats)],
        },
    )
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    chooser = random.Random(7)
    moves = 0
    while True:
        state = client.get(f"/games/{game['id']}").get_json()
        if state["status"] == "finished":
            break
        seat = chooser.choice(state["to_act"])
        legal = client.get(f"/games/{game['id']}/legal-commands", headers=auth(tokens[seat])).get_json()
        assert legal["commands"], f"seat {seat} must act but has no legal command"
        move = client.post(
            f"/games/{game['id']}/commands",
            headers={**auth(tokens[seat]), "If-Match": legal["etag"]},
            json={"command": chooser.choice(legal["commands"])},
        )
        assert move.status_code == 200, move.get_json()
        moves += 1
        assert moves < 5000, "the game did not end"
    assert moves > seats, "a game is more than one move per seat"
    result = state["result"]
    assert sorted(result["ranks"])[0] == 1 and len(result["scores"]) == seats
    export = client.get(f"/games/{game['id']}/export").get_data(as_text=True)
    report = client.post("/verify", json={"export": export}).get_json()
    assert report["ok"], report


def test_archipelago_over_http_with_a_bid_round_and_an_accepted_trade(client):
    """Random play, steered once into a trade: open an offer, add an item, send it, and have it accepted."""
    created = client.post(
        "/games",
        json={
            "game_type": "archipelago",
            "seed": 11,
            "options": {"length": "short"},
            "seats": [{"kind": "human", "name": f"Player {i}"} for i in range(3)],
        },
    ).get_json()
    gid = created["id"]
    tokens = {t["seat"]: t["token"] for t in created["seat_tokens"]}
    chooser = random.Random(3)
    stage = "open"  # open -> add -> send -> accept -> done
    for _ in range(20_000):
        state = client.get(f"/games/{gid}").get_json()
        if state["status"] == "finished":
            break
        seat = chooser.choice(state["to_act"])
        legal = client.get(f"/games/{gid}/legal-commands", headers=auth(tokens[seat])).get_json()["commands"]
        wanted = {"open": "offer_open", "add": "offer_add", "send": "offer_send", "accept": "offer_accept"}.get(stage)
        steered = [c for c in legal if c["type"] == wanted]
        command = (
            steered[0]
            if steered
            else chooser.choice(
                [c for c in legal if c["type"] not in ("offer_open", "offer_decline", "offer_cancel")] or legal
            )
        )
        move = client.post(f"/games/{gid}/commands", json={"command": command}, headers=auth(tokens[seat]))
        assert move.status_code == 200, move.get_json()
        if steered:
            stage = {"open": "add", "add": "send", "send": "accept", "accept": "done"}[stage]
    assert state["status"] == "finished"
    page, after = [], 0
    while True:
        body = client.get(f"/games/{gid}/events?after={after}&limit=1000").get_json()
        page += [e["type"] for e in body["events"]]
        if body["next_after"] is None:
            break
        after = body["next_after"]
    assert "BidsRevealed" in page and "OfferAccepted" in page
