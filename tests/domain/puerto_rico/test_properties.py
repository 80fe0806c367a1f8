"""Property tests: random legal games for 2 (variant), 3, 4 and 5 players.

Games finish, every event keeps the conservation invariants (rules file §12), replay reproduces the live
state (checked by play_random_game), and no view, redacted event or legal list reveals the order of the
face-down plantation stack. TRADEWINDS_PROPERTY_GAMES sets the number of games per player count.
"""

from __future__ import annotations

import json
import os
import random

import pytest

from domain.puerto_rico import RULES
from domain.puerto_rico.data import CAPS, CITY_SPACES, ISLAND_SPACES, SETUP, SIZES
from domain.puerto_rico.state import AUTO_STEPS, PRState
from tests.domain.protocol_checks import play_random_game

GAMES = int(os.environ.get("TRADEWINDS_PROPERTY_GAMES", "25"))


def check_invariants(s: PRState, events: list[dict]) -> None:
    t = SETUP[s.n]
    players = s.players
    # colonists: supply + ship + everything on the players' boards
    assert s.colonist_supply >= 0 and s.colonist_ship >= 0
    assert s.colonist_supply + s.colonist_ship + sum(p.colonists() for p in players) == t.colonists + t.ship_colonists
    # goods, per kind: supply + players + ships + trading house
    for g in range(5):
        on_ships = sum(load for kind, load in zip(s.ship_kinds, s.ship_loads, strict=True) if kind == g)
        total = s.goods_supply[g] + sum(p.goods[g] for p in players) + on_ships + s.trading_house.count(g)
        assert total == t.goods[g], f"good {g} not conserved"
        assert s.goods_supply[g] >= 0
        assert all(p.goods[g] >= 0 for p in players)
    # island tiles, per kind
    for k in range(5):
        total = s.stack.count(k) + s.face_up[k] + s.discard[k] + sum(p.tiles[k] for p in players)
        assert total == t.plantations[k], f"plantation {k} not conserved"
        assert s.face_up[k] >= 0 and s.discard[k] >= 0
    assert s.quarries >= 0 and s.quarries + sum(p.tiles[5] for p in players) == t.quarries
    assert sum(s.face_up) <= s.n + 1
    # buildings
    for b in range(len(CAPS)):
        owned = sum(1 for p in players if p.buildings[b] >= 0)
        assert s.building_supply[b] >= 0 and s.building_supply[b] + owned == t.building_copies[b]
    # victory points
    assert s.vp_supply >= 0
    assert s.vp_supply + sum(p.vp for p in players) == t.vp
    for p in players:
        assert p.vp >= 0 and p.vp_owed >= 0 and p.doubloons >= 0 and p.san_juan >= 0
        if p.vp_owed:
            assert s.vp_supply == 0
        assert p.spaces == sum(SIZES[b] for b, c in enumerate(p.buildings) if c >= 0) <= CITY_SPACES
        assert sum(p.tiles) <= ISLAND_SPACES
        assert all(0 <= m <= n for m, n in zip(p.manned, p.tiles, strict=True))
        assert all(c <= CAPS[b] for b, c in enumerate(p.buildings))
    # cargo ships: one ship per kind, load within capacity, empty ships carry no kind
    kinds = [k for k in s.ship_kinds if k >= 0]
    assert len(kinds) == len(set(kinds))
    for cap, kind, load in zip(s.ship_caps, s.ship_kinds, s.ship_loads, strict=True):
        assert 0 <= load <= cap and (load == 0) == (kind == -1)
    # trading house: at most 4, duplicates only through an office
    assert len(s.trading_house) <= 4
    if len(set(s.trading_house)) < len(s.trading_house):
        assert any(p.buildings[11] >= 0 for p in players)
    # after the mayor's placements, nobody keeps colonists in San Juan next to an empty circle
    if any(e["type"] == "ColonistShipRefilled" for e in events):
        for p in players:
            if p.san_juan:
                assert p.colonists() >= p.circles()
    # the cursor is at a real decision (two or more options) unless the game is over
    if s.started and not RULES.is_over(s) and s.phase != "setup":
        assert s.step not in AUTO_STEPS
        assert len(RULES.legal_commands(s, s.current)) >= 2


def check_no_leak(s: PRState, events: list[dict], rng: random.Random) -> None:
    """Nothing a seat or a spectator sees depends on the order of the face-down stack."""
    other = RULES.determinize(s, 0, rng)
    for seat in [None, *range(s.n)]:
        view = RULES.view(s, seat)
        assert view == RULES.view(other, seat)
        assert '"face_down_stack"' not in json.dumps(view)
        for event in events:
            red = RULES.redact(event, seat)
            json.dumps(red)
            if event["type"] == "PlantationStackShuffled":
                assert "plantations" not in red and red["size"] == len(event["plantations"])
    if not RULES.is_over(s):
        assert RULES.legal_commands(s, s.current) == RULES.legal_commands(other, other.current)


def _run(seats: int, seed: int, leak: bool) -> None:
    rng = random.Random(seed)

    def on_step(state, events):
        check_invariants(state, events)
        if leak:
            check_no_leak(state, events, rng)

    state, events = play_random_game(RULES, seats, seed, check_purity=seed < 2, on_step=on_step)
    assert RULES.is_over(state)
    assert not state.aborted and state.triggers
    result = RULES.result(state)
    assert len(result.tiebreaks) == seats
    for event in events:
        assert RULES.reveals(event) == (
            event["type"] in ("PlantationStackShuffled", "PlantationsDealt", "HaciendaPlantationDrawn")
        )


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_random_games_keep_invariants_and_replay(seats):
    for seed in range(GAMES):
        _run(seats, seed, leak=seed < 3)


@pytest.mark.parametrize("seats", [3, 4])
def test_random_games_with_options(seats):
    for seed in range(max(2, GAMES // 5)):
        options = {"random_first_governor": True, "hide_vp_chips": True}
        state, _ = play_random_game(RULES, seats, 1000 + seed, options, on_step=check_invariants)
        assert RULES.is_over(state)
