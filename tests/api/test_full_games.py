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
    created = client.post("/games", json={
        "game_type": game_type, "seed": 2026,
        "seats": [{"kind": "human", "name": f"Player {i}"} for i in range(seats)]})
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
        move = client.post(f"/games/{game['id']}/commands", headers={**auth(tokens[seat]), "If-Match": legal["etag"]},
                           json={"command": chooser.choice(legal["commands"])})
        assert move.status_code == 200, move.get_json()
        moves += 1
        assert moves < 5000, "the game did not end"
    assert moves > seats, "a game is more than one move per seat"
    result = state["result"]
    assert sorted(result["ranks"])[0] == 1 and len(result["scores"]) == seats
    export = client.get(f"/games/{game['id']}/export").get_data(as_text=True)
    report = client.post("/verify", json={"export": export}).get_json()
    assert report["ok"], report
