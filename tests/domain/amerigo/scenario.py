"""Given/when/then helpers for Amerigo scenario tests (bound to the shared ``tests.domain.scenario.Scenario``).

The base game is the rules file's seeded set-up (``random.Random(1)``). At 2 players its board has, among
others: island 3 = the single TP square (4, 13) with anchor (4, 12); island 6 = the single TP square (7, 13)
with anchor (6, 13); island 8 = (9, 13), (9, 14 cotton), (10, 13 TP) with anchor (11, 13); island 0 = a big
island (26 squares, chest) with TP spaces (2, 4), (3, 2), (8, 1), (10, 4).
"""

from __future__ import annotations

import random

from domain.amerigo import RULES
from domain.amerigo.data import COLOURS
from tests.domain.scenario import Scenario


def base(seats: int = 2) -> list[dict]:
    return RULES.setup_with_rng(seats, random.Random(1))


def sq(r: int, c: int) -> dict:
    return {"r": r, "c": c}


def fold(*groups: list[dict]) -> object:
    events = [e for g in groups for e in g]
    return RULES.fold(events)


def phase(colour: str, cubes: dict[str, int], order: tuple[int, ...] = (0, 1), rnd: int = 1) -> list[dict]:
    """Given: a phase of ``colour`` whose action area holds ``cubes``; turn order ``order``."""
    out = [c for c in COLOURS for _ in range(cubes.get(c, 0))]
    return [
        {"type": "TowerDropped", "colour": colour, "batch": cubes.get(colour, 0), "out": out, "tower": []},
        {"type": "PhaseStarted", "round": rnd, "colour": colour, "ap": max(cubes.values()), "order": list(order)},
    ]


def token(seat: int, tok: str, space: str = "R1") -> dict:
    return {"type": "ProgressTokenTaken", "seat": seat, "token": tok, "space": space}


def gold(seat: int, amount: int) -> dict:
    return {"type": "GoldTaken", "seat": seat, "gold": amount}


def ship_at(seat: int, ship: int, to: dict) -> list[dict]:
    return [
        {"type": "ShipPlaced", "seat": seat, "ship": ship, "frame": 0},
        {"type": "ShipMoved", "seat": seat, "ship": ship, "to": to, "distance": 0, "gold": 0},
    ]


def post(seat: int, square: dict, island: int) -> dict:
    return {
        "type": "TradingPostFounded",
        "seat": seat,
        "ship": 0,
        "square": square,
        "island": island,
        "discovery_vp": 0,
        "gold": 0,
    }


def planned(seat: int, kind: str, shape: str) -> dict:
    return {"type": "TileTaken", "seat": seat, "kind": kind, "shape": shape, "cost": 0, "gold": 0}


GAME = Scenario(RULES, rng=lambda: random.Random(0))
refused = GAME.refused


def when(state, seat: int, *commands: dict, rng_seed: int = 0) -> tuple[object, list[dict]]:
    """Decide and apply the commands in order (the shared ``Scenario.when``, each with its own generator);
    return the final state and all new events."""
    events: list[dict] = []
    for i, command in enumerate(commands):
        new, state = Scenario(RULES, rng=lambda i=i: random.Random(rng_seed + i)).when(state, command, seat)
        events.extend(new)
    return state, events


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def one(events: list[dict], kind: str) -> dict:
    found = of_type(events, kind)
    assert len(found) == 1, f"expected one {kind}, got {found}"
    return found[0]
