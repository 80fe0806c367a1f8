"""Every version of every game can be read: ``/states/{v}`` and every ``/replay`` page answer 200.

Given a random game of each type (random legal moves, some finished, some stopped half-way), when a
spectator and a seat read every past version and page through the whole replay, then every answer is
200 and the replay's steps end on the state ``/states/{v}`` shows for that version.
``TRADEWINDS_EVERY_VERSION_GAMES`` sets the number of random games per type (default 1).
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain import registry
from tests.api.conftest import auth

GAMES = int(os.environ.get("TRADEWINDS_EVERY_VERSION_GAMES", "1"))
SEATS = {"puerto_rico": (3, 5), "murano": (2, 4), "amerigo": (2, 4), "archipelago": (2, 4)}


def play_randomly(runtime, client, game_type: str, seed: int, finish: bool) -> tuple[dict, dict[int, str]]:
    chooser = random.Random(seed)
    low, high = SEATS[game_type]
    seats = chooser.randint(low, high)
    created = client.post(
        "/games",
        json={
            "game_type": game_type,
            "seed": seed,
            "seats": [{"kind": "human", "name": f"P{i}"} for i in range(seats)],
        },
    )
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    service = runtime.service
    limit = 6000 if finish else chooser.randint(20, 300)
    for _ in range(limit):
        loaded = service.load(game["id"])
        if loaded.over:
            break
        seat = chooser.choice(sorted(loaded.rules.to_act(loaded.state)))
        command = chooser.choice(loaded.rules.legal_commands(loaded.state, seat))
        service.submit(game["id"], seat, [command])
    return game, tokens


def walk(client, game_id: str, headers: dict) -> int:
    current = client.get(f"/games/{game_id}", headers=headers).get_json()
    states = {}
    for version in range(1, current["version"] + 1):
        response = client.get(f"/games/{game_id}/states/{version}", headers=headers)
        assert response.status_code == 200, (version, response.get_json())
        states[version] = response.get_json()["state"]
    after, pages = 0, 0
    while after is not None:
        response = client.get(f"/games/{game_id}/replay?after={after}&limit=200", headers=headers)
        assert response.status_code == 200, (after, response.get_json())
        page = response.get_json()
        pages += 1
        for step in page["steps"]:
            assert step["state"] == states[step["version"]], step["version"]
        after = page["next_after"]
    return pages


@pytest.mark.parametrize("game_type", sorted(SEATS))
@settings(max_examples=GAMES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1), finish=st.booleans())
def test_every_version_and_replay_page_can_be_read(runtime, client, game_type, seed, finish):
    assert game_type in registry.names()
    game, tokens = play_randomly(runtime, client, game_type, seed, finish)
    walk(client, game["id"], {})
    if not runtime.service.load(game["id"]).over:  # hidden information: a seat's own view of every version
        walk(client, game["id"], auth(tokens[0]))
