"""Scenario helpers: build a "given" state from the set-up events plus explicit board changes, then act.

Every command goes through ``decide`` and every event through ``evolve``, so scenarios exercise the same
code as the server. ``give`` edits a folded state directly to reach a board position quickly (it moves the
pieces out of the shared supplies so that the conservation invariants still hold).
"""

from __future__ import annotations

import random

from domain.puerto_rico import RULES
from domain.puerto_rico.data import BUILDING_INDEX, GOOD_INDEX, SETUP, TILE_INDEX
from domain.puerto_rico.state import PRState
from tests.domain.scenario import Scenario


def new_game(seats: int = 4, seed: int = 1, **options) -> PRState:
    return RULES.fold(RULES.setup(seed, seats, options))


def give(
    s: PRState,
    seat: int,
    *,
    doubloons: int | None = None,
    goods: dict | None = None,
    tiles: dict | None = None,
    buildings: dict | None = None,
    san_juan: int | None = None,
    vp: int | None = None,
) -> PRState:
    """Edit seat's board in place. tiles: {kind: (count, occupied)}; buildings: {name: colonists}."""
    p = s.players[seat]
    if doubloons is not None:
        p.doubloons = doubloons
    for name, n in (goods or {}).items():
        g = GOOD_INDEX[name]
        s.goods_supply[g] += p.goods[g] - n
        p.goods[g] = n
    for name, (count, occupied) in (tiles or {}).items():
        k = TILE_INDEX[name]
        s.colonist_supply += p.manned[k] - occupied
        if k == 5:
            s.quarries += p.tiles[k] - count
        else:
            _move_tiles_from_stack(s, k, count - p.tiles[k])
        p.tiles[k] = count
        p.manned[k] = occupied
    for name, colonists in (buildings or {}).items():
        b = BUILDING_INDEX[name]
        if p.buildings[b] < 0:
            s.building_supply[b] -= 1
            p.spaces += 2 if b >= 18 else 1
        else:
            s.colonist_supply += p.buildings[b]
        p.buildings[b] = colonists
        s.colonist_supply -= colonists
    if san_juan is not None:
        s.colonist_supply += p.san_juan - san_juan
        p.san_juan = san_juan
    if vp is not None:
        s.vp_supply += p.vp - vp
        p.vp = vp
    return s


def _move_tiles_from_stack(s: PRState, kind: int, delta: int) -> None:
    while delta > 0:
        if kind in s.stack:
            s.stack.remove(kind)
        elif s.discard[kind]:
            s.discard[kind] -= 1
        else:
            s.face_up[kind] -= 1
        delta -= 1
    while delta < 0:
        s.stack.insert(0, kind)
        delta += 1


GAME = Scenario(RULES, rng=lambda: random.Random(7), on_turn=lambda s: s.current)
# Then: the command is refused with the code and changes nothing (``Scenario.refused``).
refused = GAME.refused


def act(s: PRState, command: dict, seat: int | None = None) -> tuple[list[dict], PRState]:
    """Decide ``command`` for ``seat`` (default: the seat on turn) and fold the events; returns (events, state).
    The shared ``Scenario.when`` also holds the in-place fast path to the same events and state."""
    return GAME.when(s, command, s.current if seat is None else seat)


def pick(s: PRState, role: str, seat: int) -> tuple[list[dict], PRState]:
    """Make ``seat`` the one to pick now and pick ``role``."""
    s = s.copy()
    s.current = seat
    return act(s, {"type": "select_role", "role": role})


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def legal(s: PRState) -> list[dict]:
    return RULES.legal_commands(s, s.current)


def play_passes(s: PRState, max_steps: int = 200) -> PRState:
    """Finish the current role: everyone passes (or takes the first legal option when passing is impossible)."""
    for _ in range(max_steps):
        if s.phase == "pick" or RULES.is_over(s):
            return s
        options = legal(s)
        command = {"type": "pass"} if {"type": "pass"} in options else options[0]
        _, s = act(s, command)
    raise AssertionError("phase did not end")


def totals(n: int) -> dict:
    t = SETUP[n]
    return {
        "colonists": t.colonists + t.ship_colonists,
        "goods": t.goods,
        "vp": t.vp,
        "tiles": sum(t.plantations) + t.quarries,
    }


NO_GOODS = {g: 0 for g in ("corn", "indigo", "sugar", "tobacco", "coffee")}
ELEVEN_SMALL_BUILDINGS = [  # one city space each: 11 of the 12 city spaces
    "small_indigo_plant",
    "small_sugar_mill",
    "indigo_plant",
    "sugar_mill",
    "tobacco_storage",
    "coffee_roaster",
    "small_market",
    "hacienda",
    "construction_hut",
    "small_warehouse",
    "hospice",
]


def wharf(good: str) -> dict:
    return {"type": "ship_with_wharf", "good": good}


def load(good: str, ship: int) -> dict:
    return {"type": "load", "good": good, "ship": ship}


def sell(good: str) -> dict:
    return {"type": "sell", "good": good}


def bare(s: PRState) -> PRState:
    """Nobody holds any goods."""
    for seat in range(s.n):
        give(s, seat, goods=NO_GOODS)
    return s


def fill_ship(s: PRState, ship: int, good: str) -> None:
    s.ship_kinds[ship], s.ship_loads[ship] = good, s.ship_caps[ship]
    s.goods_supply[good] -= s.ship_caps[ship]
