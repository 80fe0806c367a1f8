"""Scenario helpers: hand-made opening events (chosen stacks, ships and start seat) and small event builders."""

from __future__ import annotations

import random

from domain.murano import RULES, data
from domain.murano.board import geometry
from domain.rng import rng_for
from tests.domain.scenario import Scenario


def expand(counts: dict) -> list:
    out = []
    for face, n in counts.items():
        out.extend([face] * n)
    return out


def setup_event(n: int = 4, start: int = 0, **over) -> dict:
    small = n < 4
    streets = expand(data.STREET_COUNTS)
    shops = expand(data.SHOP_COUNTS)
    palaces = expand(data.PALACE_COUNTS)
    event = {
        "type": "GameSetUp",
        "seats": n,
        "colours": list(data.PLAYER_COLOURS[:n]),
        "start_seat": start,
        "red_ship_anchor": 0,
        "ships": list(data.ANCHORS),
        "removed": {},
        "glass_factories": 11 if small else 12,
        "special_tiles": 9 if small else 12,
        "streets": streets,
        "shops": shops,
        "palaces": palaces,
        "characters": sorted(c for c, spec in data.CHARACTERS.items() if spec[2] <= n),
        "special_cards": sorted(data.SPECIAL_CARDS),
        "removed_palace": 1 if small else None,
        "removed_characters": [],
    }
    event.update(over)
    return event


def started(seat: int, final: bool = False) -> dict:
    return {"type": "TurnStarted", "seat": seat, "final": final}


def opening(n: int = 4, start: int = 0, **over) -> list[dict]:
    return [setup_event(n, start, **over), started(start)]


def given(*events: dict, state=None):
    return RULES.fold(list(events), state)


def gold(seat: int, amount: int) -> dict:
    return {"type": "GoldTaken", "seat": seat, "gold": amount}


def vp(seat: int, amount: int) -> dict:
    return {"type": "BonusScored", "seat": seat, "vp": amount, "card": "test"}


def tile(seat: int, space: str, kind: str, face=None, owner=None, bought: bool = True) -> list[dict]:
    """Events that put a tile on the board as if ``seat`` bought and placed it (streets: just placed)."""
    out = []
    if kind != "street" and bought:
        out.append({"type": "TileBought", "seat": seat, "kind": kind, "mode": "top", "price": 0, "face": face})
    if owner is None and kind in ("glass_factory", "shop"):
        owner = seat
    out.append(
        {
            "type": "TilePlaced",
            "seat": seat,
            "space": space,
            "kind": kind,
            "face": face,
            "owner": owner,
            "vp": 0,
            "free": True,
        }
    )
    return out


def street(space: str, face: str = "ST_NONE") -> list[dict]:
    return tile(0, space, "street", face)


def bought(seat: int, kind: str, face=None, price: int = 0) -> dict:
    return {"type": "TileBought", "seat": seat, "kind": kind, "mode": "top", "price": price, "face": face}


def special(seat: int, card: str) -> dict:
    return {"type": "SpecialCardTaken", "seat": seat, "card": card, "returned": [], "returned_count": 0, "vp": 0}


def character(seat: int, card: str) -> dict:
    return {"type": "CharacterKept", "seat": seat, "card": card, "price": 0, "returned": [], "returned_count": 0}


def seated(seat: int, island: str, colour: str) -> dict:
    return {"type": "GondolierSeated", "seat": seat, "island": island, "colour": colour, "price": 0}


def beads(seat: int, colour: str, count: int) -> list[dict]:
    return [{"type": "BeadDrawn", "seat": seat, "colour": colour, "extra": False}] * count


def decide(state, command: dict, seat: int | None = None, seed: int = 0) -> list[dict]:
    seat = state.active if seat is None else seat
    return RULES.decide(state, command, seat, rng_for(seed, 1))


GAME = Scenario(RULES, rng=lambda: rng_for(0, 1), on_turn=lambda state: state.active)
refused = GAME.refused


def play(state, *commands: dict, seed: int = 0):
    """Decide and apply commands in order (each by the seat to act, through the shared ``Scenario.when``);
    return (state, all events)."""
    events = []
    for i, command in enumerate(commands):
        new, state = Scenario(RULES, rng=lambda i=i: rng_for(seed, i + 1)).when(state, command, state.active)
        events.extend(new)
    return state, events


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def space(name: str, n: int = 4) -> int:
    return geometry(n).space_index[name]


def legal(state, seat: int | None = None) -> list[dict]:
    return RULES.legal_commands(state, state.active if seat is None else seat)


def moves(state) -> set[tuple[int, int]]:
    return {(c["ship"], c["to"]) for c in legal(state) if c["type"] == "move_ship"}


def passes(state) -> set[tuple[int, int]]:
    return {(c["ship"], c["to"]) for c in legal(state) if c["type"] == "pass"}


def ship_on(state, index: int) -> int:
    return state.ships.index(index)


def rng(seed: int = 0) -> random.Random:
    return random.Random(seed)


def ready(index: int, *before: dict, n: int = 4, after: tuple = (), seat: int = 0, **over):
    """Seat 0 to act, with the red ship moved (free) onto ring ``index``; ``before`` events precede the turn
    start, ``after`` events follow it."""
    state = before_move(index, *before, n=n, after=after, seat=seat, **over)
    state, _ = play(state, {"type": "move_ship", "ship": 0, "to": index})
    return state


def before_move(index: int, *before: dict, n: int = 4, after: tuple = (), seat: int = 0, **over):
    """``seat`` to act; the red ship stands right behind ring ``index``, which is empty."""
    ships = [(index - 1) % 18] + [(index + d) % 18 for d in range(1, 8)]
    return given(setup_event(n, ships=ships, start=seat, **over), *before, started(seat), *after)


def unavailable(index: int, *before: dict, **over) -> None:
    """The action on ``index`` is unavailable: ``act`` is refused after the free move onto it (or the move itself
    is refused when nothing else could finish the turn)."""
    state = before_move(index, *before, **over)
    if (0, index) not in moves(state):  # no way to finish the turn after it: the filter refuses the move
        refused(state, {"type": "move_ship", "ship": 0, "to": index})
        return
    state, _ = play(state, {"type": "move_ship", "ship": 0, "to": index})
    assert {"type": "act"} not in legal(state)
    refused(state, {"type": "act"})
