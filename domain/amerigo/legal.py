"""legal_commands: every command decide accepts for a seat, each listed once.

The commands are to be read, not changed: a ship move is made once per board (``_ship_moves``) and shared by every
list that holds it."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .board import Board
from .data import (
    BLACK,
    BLUE,
    BROWN,
    COLOURS,
    GOLD_TOKENS,
    GREEN,
    NEUTRAL,
    PRODUCTION_COST,
    RED,
    SHAPE_SIZE,
    SHAPES,
    VILLAGE,
    VILLAGE_COST,
    VILLAGE_SHAPES,
    WHITE,
    YELLOW,
)
from .decide import neutral_limit
from .queries import (
    advance_range,
    can_found,
    chooseable,
    convert_colour,
    extra_gold,
    is_first,
    move_budget,
    occupied_water,
    placements,
)
from .state import CHOOSE, NEUTRAL_SLOT, TOKENS, VILLAGE_SLOT, State


def legal_commands(state: State, seat: int) -> list[dict[str, Any]]:
    if not state.started or state.over or type(seat) is not int or seat != state.turn_seat:
        return []
    p = state.players[seat]
    out: list[dict[str, Any]] = []
    if p.chests > 0:
        out.append({"type": "cash_chest"})
    for token in GOLD_TOKENS:
        if p.has_unused(token):
            out.append({"type": "use_gold_token", "token": token})
    if state.stage == CHOOSE:
        out.extend(_choose(state, seat))
    elif state.stage == TOKENS:
        out.extend({"type": "take_progress_token", "token": t} for t in state.progress_display if t is not None)
    else:
        x = state.x
        if x == BLUE:
            out.extend(_move(state, seat))
        elif x in (BLACK, BROWN):
            out.extend({"type": "advance", "n": n} for n in advance_range(state, seat))
        elif x == WHITE:
            out.extend({"type": "advance", "n": n} for n in advance_range(state, seat))
            if p.has_unused("P16") and not is_first(state, seat):
                out.append({"type": "use_fast_passage"})
        elif x == RED:
            out.extend(_plan(state, seat))
        elif x == GREEN:
            out.extend(_build(state, seat))
        elif x == YELLOW:
            out.extend(_produce(state, seat))
    return out


def _choose(state: State, seat: int) -> list[dict[str, Any]]:
    p = state.players[seat]
    out: list[dict[str, Any]] = [{"type": "take_gold"}, {"type": "pass"}]
    if p.has_unused("P21"):
        out.append({"type": "use_chronicle"})
    for colour in range(6):
        if chooseable(state, seat, colour):
            out.append({"type": "choose_action", "colour": COLOURS[colour]})
    if state.area[WHITE] > 0:
        out.append({"type": "choose_action", "colour": "white", "mode": "advance"})
        if convert_colour(state, seat) is not None:
            out.append({"type": "choose_action", "colour": "white", "mode": "convert"})
    return out


def _move(state: State, seat: int) -> list[dict[str, Any]]:
    p = state.players[seat]
    board = state.board
    for ship in (0, 1):
        if p.ships[ship] < 0:
            return [{"type": "place_ship", "ship": ship, "frame": f} for f in range(board.nframe)]
    out: list[dict[str, Any]] = [{"type": "end_action"}]
    if p.has_unused("P10") and not state.moved_any:
        out.append({"type": "use_fair_winds"})
    for ship in (0, 1):
        if can_found(state, seat, ship):
            out.append({"type": "found_trading_post", "ship": ship})
    blocked = occupied_water(state)
    for ship in (0, 1):
        loc = p.ships[ship]
        if state.founded[ship]:
            continue
        budget = move_budget(state, seat, ship)
        if budget <= 0:
            continue
        moves = _ship_moves(board)[ship]
        rings = board.rings(loc, budget)
        for d in range(1, min(budget, len(rings) - 1) + 1):
            for node in rings[d]:
                if node not in blocked:
                    out.append(moves[node])
    return out


@lru_cache(maxsize=64)
def _ship_moves(board: Board) -> tuple[tuple[dict[str, Any], ...], ...]:
    """The ``move_ship`` command of each ship to each node of ``board`` (``[ship][node]``), made once per board and
    shared by the lists ``legal_commands`` returns."""
    nodes = range(board.nsq + board.nframe)
    return tuple(tuple({"type": "move_ship", "ship": ship, "to": board.node_json(n)} for n in nodes) for ship in (0, 1))


def _plan(state: State, seat: int) -> list[dict[str, Any]]:
    p = state.players[seat]
    out: list[dict[str, Any]] = [{"type": "end_action"}]
    gold = p.gold
    if extra_gold(state, VILLAGE_COST) <= gold:
        for i, shape in enumerate(VILLAGE_SHAPES):
            if p.village_left[i] > 0:
                out.append({"type": "take_tile", "kind": VILLAGE, "shape": shape})
    if state.neutral_taken < neutral_limit(state, seat):
        for i, shape in enumerate(SHAPES):
            if state.neutral_supply[i] > 0 and extra_gold(state, SHAPE_SIZE[shape]) <= gold:
                out.append({"type": "take_tile", "kind": NEUTRAL, "shape": shape})
    return out


def _build(state: State, seat: int) -> list[dict[str, Any]]:
    p = state.players[seat]
    board = state.board
    out: list[dict[str, Any]] = [{"type": "end_action"}]
    gold = p.gold
    village_ok = extra_gold(state, VILLAGE_COST) <= gold
    for shape in SHAPES:
        kinds = []
        if shape in VILLAGE_SLOT and p.planned[VILLAGE_SLOT[shape]] > 0 and village_ok:
            kinds.append(VILLAGE)
        if p.planned[NEUTRAL_SLOT[shape]] > 0 and extra_gold(state, SHAPE_SIZE[shape]) <= gold:
            kinds.append(NEUTRAL)
        if not kinds:
            continue
        for squares in placements(state, seat, shape):
            js = [board.square_json(sq) for sq in squares]
            for kind in kinds:
                out.append({"type": "place_tile", "kind": kind, "shape": shape, "squares": js})
    return out


def _produce(state: State, seat: int) -> list[dict[str, Any]]:
    gold = state.players[seat].gold
    out: list[dict[str, Any]] = [{"type": "end_action"}]
    for token in state.prod_display:
        if extra_gold(state, PRODUCTION_COST[token]) <= gold:
            out.append({"type": "buy_production", "token": token})
    return out
