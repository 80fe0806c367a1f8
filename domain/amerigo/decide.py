"""Command validation and the events each command causes (§10, §11, §12).

Section (§) and ruling (D, Q) numbers are those of docs/rules/amerigo.md.
"""

from __future__ import annotations

import random
from typing import Any

from domain.decider import illegal, int_field, invalid, open_command, str_field

from .data import (
    BLACK,
    BLUE,
    BROWN,
    CHEST_GOLD,
    COLOUR_INDEX,
    COLOURS,
    COMMODITIES,
    COMPLETION_VP,
    DISCOVERY_VP,
    GOLD_TOKENS,
    GREEN,
    NEUTRAL,
    NEUTRAL_VP_PER_SQUARE,
    PRODUCTION_COST,
    PROGRESS_DISPLAY_SPACES,
    RED,
    SHAPE_NAMES,
    SHAPE_SIZE,
    SHAPES,
    TIME_VALUE_BY_ROUND,
    TRACK_OVERFLOW_GOLD,
    VILLAGE,
    VILLAGE_COST,
    VILLAGE_SHAPES,
    VILLAGE_VP,
    WHITE,
    YELLOW,
    tp_score,
)
from .flow import Ctx, run_chain
from .queries import (
    ORIENTATION_SETS,
    advance_range,
    ap_bonus,
    can_found,
    chooseable,
    convert_ap,
    convert_colour,
    extra_gold,
    gold_for_taking,
    is_first,
    move_budget,
    occupied_water,
    placement_ok,
    progress_tokens_due,
    track_of,
    track_position,
)
from .state import CHOOSE, EMPTY, NEUTRAL_SLOT, POST, TOKENS, VILLAGE_SLOT, State
from .tower import TowerModel

FREE_COMMANDS = ("cash_chest", "use_gold_token")
CHOOSE_COMMANDS = ("choose_action", "take_gold", "use_chronicle", "pass")
ACTION_STEPS = {
    BLUE: ("place_ship", "use_fair_winds", "move_ship", "found_trading_post", "end_action"),
    BLACK: ("advance",),
    RED: ("take_tile", "end_action"),
    BROWN: ("advance",),
    GREEN: ("place_tile", "end_action"),
    YELLOW: ("buy_production", "end_action"),
    WHITE: ("advance", "use_fast_passage"),
}
ALL_COMMANDS = frozenset(
    FREE_COMMANDS
    + CHOOSE_COMMANDS
    + tuple(c for steps in ACTION_STEPS.values() for c in steps)
    + ("take_progress_token",)
)


_invalid = invalid
_illegal = illegal
_int_field = int_field
_str_field = str_field


def _square_field(state: State, value: Any, name: str, allow_frame: bool) -> int:
    board = state.board
    if not isinstance(value, dict):
        raise _invalid(
            f'field {name!r} must be an object like {{"r": 0, "c": 0}}' + (' or {"frame": 0}' if allow_frame else "")
        )
    if allow_frame and "frame" in value:
        f = value.get("frame")
        if set(value) != {"frame"} or not isinstance(f, int) or isinstance(f, bool):
            raise _invalid(f"field {name!r}: 'frame' must be an integer and the only key")
        if not 0 <= f < board.nframe:
            raise _illegal(f"frame spaces are numbered 0 to {board.nframe - 1}")
        return board.nsq + f
    r, c = value.get("r"), value.get("c")
    if set(value) != {"r", "c"} or type(r) is not int or type(c) is not int:
        raise _invalid(f"field {name!r} needs integer 'r' and 'c' and nothing else")
    if not (0 <= r < board.nrows and 0 <= c < board.ncols):
        raise _illegal(f"square ({r}, {c}) is off the board ({board.nrows} rows x {board.ncols} columns)")
    return r * board.ncols + c


def decide(
    state: State, command: Any, seat: Any, rng: random.Random, tower: TowerModel, in_place: bool = False
) -> list[dict[str, Any]]:
    """The events ``command`` by ``seat`` causes. ``in_place`` (the fast path): apply them to ``state``
    itself, which the caller owns; the rules then read a shallow snapshot of the state before the command,
    exactly what they read from ``state`` in the pure path (``apply`` never mutates what states share)."""
    return _recorded(state, command, seat, rng, tower, in_place).events


def decide_and_apply(
    state: State, command: Any, seat: Any, rng: random.Random, tower: TowerModel
) -> tuple[list[dict[str, Any]], State]:
    """``decide`` and the state its events lead to: the pure path's working clone (``state`` is left as it
    was; ``apply`` is copy-on-write, so the clone shares only what did not change)."""
    ctx = _recorded(state, command, seat, rng, tower, in_place=False)
    return ctx.events, ctx.state


def _recorded(state: State, command: Any, seat: Any, rng: random.Random, tower: TowerModel, in_place: bool) -> Ctx:
    """The recorder after ``command``: its events, and its state (``state`` itself with ``in_place``)."""
    kind = open_command(
        command, seat, started=state.started, over=state.over, acting=(state.turn_seat,), known=ALL_COMMANDS
    )
    if in_place:
        ctx, before = Ctx(state), state.clone()
    else:
        ctx, before = Ctx(state.clone()), state
    done = _dispatch(ctx, before, command, kind, seat)
    if done:
        ctx.emit({"type": "TurnEnded", "seat": seat})
        run_chain(ctx, rng, tower)
    return ctx


def _dispatch(ctx: Ctx, s: State, cmd: dict[str, Any], kind: str, seat: int) -> bool:
    """Emit the events of one command; return True when the turn is complete."""
    if kind in FREE_COMMANDS:
        _free(ctx, s, cmd, kind, seat)
        return False
    if s.stage == CHOOSE:
        if kind not in CHOOSE_COMMANDS:
            raise _illegal(f"{kind!r} is not possible yet: first choose an action, take gold, use P21 or pass")
        return _choose(ctx, s, cmd, kind, seat)
    if s.stage == TOKENS:
        if kind != "take_progress_token":
            raise _illegal(f"take your progress tokens first ({s.tokens_due} left)")
        return _take_progress_token(ctx, s, cmd, seat)
    if kind not in ACTION_STEPS[s.x]:
        raise _illegal(f"{kind!r} is not a step of the running {COLOURS[s.x]} action")
    if s.x == BLUE:
        return _move_step(ctx, s, cmd, kind, seat)
    if s.x == RED:
        return _plan_step(ctx, s, cmd, kind, seat)
    if s.x == GREEN:
        return _build_step(ctx, s, cmd, kind, seat)
    if s.x == YELLOW:
        return _produce_step(ctx, s, cmd, kind, seat)
    if kind == "use_fast_passage":
        return _fast_passage(ctx, s, seat)
    return _advance(ctx, s, cmd, seat)


# -- free abilities -----------------------------------------------------------------------------------
def _free(ctx: Ctx, s: State, cmd: dict[str, Any], kind: str, seat: int) -> None:
    p = s.players[seat]
    if kind == "cash_chest":
        if p.chests <= 0:
            raise _illegal("you have no treasure chest to cash")
        ctx.emit({"type": "ChestCashed", "seat": seat, "gold": CHEST_GOLD})
        return
    token = _str_field(cmd, "token")
    if token not in GOLD_TOKENS:
        raise _illegal("only P17 and P18 can be used for gold")
    if not p.has_unused(token):
        raise _illegal(f"you do not hold an unused {token}")
    ctx.emit({"type": "GoldTokenUsed", "seat": seat, "token": token, "gold": GOLD_TOKENS[token]})


# -- main options -------------------------------------------------------------------------------------
def _choose(ctx: Ctx, s: State, cmd: dict[str, Any], kind: str, seat: int) -> bool:
    p = s.players[seat]
    if kind == "pass":
        ctx.emit({"type": "Passed", "seat": seat})
        return True
    if kind == "take_gold":
        ctx.emit({"type": "GoldTaken", "seat": seat, "gold": gold_for_taking(s, seat)})
        return True
    if kind == "use_chronicle":
        if not p.has_unused("P21"):
            raise _illegal("you do not hold an unused P21")
        ctx.emit({"type": "ChronicleUsed", "seat": seat, "vp": sum(s.area)})
        return True
    name = _str_field(cmd, "colour")
    colour = COLOUR_INDEX.get(name)
    if colour is None:
        raise _invalid(f"unknown colour {name!r}; use one of {', '.join(COLOURS)}")
    mode = cmd.get("mode")
    if colour == WHITE:
        if s.area[WHITE] == 0:
            raise _illegal("white is not available: no white cube in the action area")
        if mode == "advance":
            x, base = WHITE, s.ap
        elif mode == "convert":
            converted = convert_colour(s, seat)
            if converted is None:
                raise _illegal("convert needs your special-track disc on a coloured space (not the start)")
            x, base = converted, convert_ap(s, converted)
        else:
            raise _invalid("white needs 'mode': 'advance' or 'convert'")
    else:
        if mode is not None:
            raise _invalid("'mode' is only for white")
        if not chooseable(s, seat, colour):
            raise _illegal(f"{name} is not available: no {name} cube in the action area")
        x, base = colour, s.ap
    ap_free = base + ap_bonus(s, seat, x)
    ev = {"type": "ActionChosen", "seat": seat, "colour": name, "executed": COLOURS[x], "ap_free": ap_free}
    if colour == WHITE:
        ev["mode"] = mode
    ctx.emit(ev)
    return False


# -- tracks: CANNON, PROGRESS, SPECIAL mode A ---------------------------------------------------------
def _advance(ctx: Ctx, s: State, cmd: dict[str, Any], seat: int) -> bool:
    n = _int_field(cmd, "n")
    allowed = advance_range(s, seat)
    if n not in allowed:
        if len(allowed) == 1 and allowed[0] == 0:
            raise _illegal("your disc is on the last space: the only legal step is n = 0")
        raise _illegal(f"n must be from {allowed[0]} to {allowed[-1]} (spaces left and AP you can pay)")
    gold = extra_gold(s, n)
    x = s.x
    old = track_position(s, seat, x)
    if x == BLACK:
        ctx.emit({"type": "CannonsLoaded", "seat": seat, "n": n, "gold": gold})
    elif x == BROWN:
        due = progress_tokens_due(s, old, old + n)
        ctx.emit({"type": "ProgressAdvanced", "seat": seat, "n": n, "gold": gold, "tokens_due": due})
    else:
        ctx.emit({"type": "SpecialAdvanced", "seat": seat, "n": n, "gold": gold, "position": old + n})
    track, last = track_of(x)
    if old + n == last and s.ap_free > n:
        ctx.emit({"type": "TrackOverflowed", "seat": seat, "track": track, "gold": TRACK_OVERFLOW_GOLD})
    return ctx.state.stage != TOKENS


def _take_progress_token(ctx: Ctx, s: State, cmd: dict[str, Any], seat: int) -> bool:
    token = _str_field(cmd, "token")
    if token not in s.progress_display:
        raise _illegal(f"{token} is not on the progress display")
    space = PROGRESS_DISPLAY_SPACES[s.progress_display.index(token)]
    ctx.emit({"type": "ProgressTokenTaken", "seat": seat, "token": token, "space": space})
    return ctx.state.tokens_due == 0


def _fast_passage(ctx: Ctx, s: State, seat: int) -> bool:
    if not s.players[seat].has_unused("P16"):
        raise _illegal("you do not hold an unused P16")
    if is_first(s, seat):
        raise _illegal("you are already first on the special track")
    ctx.emit({"type": "FastPassageUsed", "seat": seat, "position": s.players[s.order[0]].special})
    return True


# -- MOVE ---------------------------------------------------------------------------------------------
def _ship_field(cmd: dict[str, Any]) -> int:
    ship = _int_field(cmd, "ship")
    if ship not in (0, 1):
        raise _illegal("ship must be 0 or 1")
    return ship


def _move_step(ctx: Ctx, s: State, cmd: dict[str, Any], kind: str, seat: int) -> bool:
    p = s.players[seat]
    unplaced = [i for i in (0, 1) if p.ships[i] < 0]
    if kind == "place_ship":
        if not unplaced:
            raise _illegal("both your ships are already on the board")
        ship = _ship_field(cmd)
        if ship != unplaced[0]:
            raise _illegal(f"place ship {unplaced[0]} first")
        frame = _int_field(cmd, "frame")
        if not 0 <= frame < s.board.nframe:
            raise _illegal(f"frame spaces are numbered 0 to {s.board.nframe - 1}")
        ctx.emit({"type": "ShipPlaced", "seat": seat, "ship": ship, "frame": frame})
        return False
    if unplaced:
        raise _illegal("place both ships on the frame first")
    if kind == "end_action":
        return True
    if kind == "use_fair_winds":
        if not p.has_unused("P10"):
            raise _illegal("you do not hold an unused P10")
        if s.moved_any:
            raise _illegal("P10 must be used before the first ship move of the action")
        ctx.emit({"type": "FairWindsUsed", "seat": seat})
        return False
    ship = _ship_field(cmd)
    if kind == "found_trading_post":
        if not can_found(s, seat, ship):
            raise _illegal(
                "this ship cannot found a trading post: it must stand on an anchor whose trading-post "
                "space is empty, you need a post left, and one post per ship per action"
            )
        _found(ctx, s, seat, ship)
        return False
    if s.founded[ship]:
        raise _illegal("this ship founded a trading post in this action and cannot sail on")
    to = _square_field(s, cmd.get("to"), "to", allow_frame=True)
    board = s.board
    loc = p.ships[ship]
    if to == loc:
        raise _illegal("the ship is already there")
    if to < board.nsq:
        if board.land[to]:
            raise _illegal("ships sail on water only")
        if to in occupied_water(s):
            raise _illegal("another ship stands on that square")
    budget = move_budget(s, seat, ship)
    d = board.distance(loc, to, budget)
    if d <= 0:
        raise _illegal(f"that square is more than {max(budget, 0)} squares away: more AP than you can pay")
    sailed = list(s.sailed)
    sailed[ship] += d
    gold = max(0, max(sailed) - s.ap_free) - s.gold_paid
    ctx.emit({"type": "ShipMoved", "seat": seat, "ship": ship, "to": board.node_json(to), "distance": d, "gold": gold})
    return False


def _found(ctx: Ctx, s: State, seat: int, ship: int) -> None:
    board = s.board
    anchor = s.players[seat].ships[ship]
    tp = board.anchor_tp[anchor]
    island = board.island_of[tp]
    first = not any(s.cover[sq] != EMPTY and s.cover[sq] < 10 for sq in board.island_tps[island])
    gold = 1 if s.players[seat].has("P19") else 0
    ctx.emit(
        {
            "type": "TradingPostFounded",
            "seat": seat,
            "ship": ship,
            "square": board.square_json(tp),
            "island": island,
            "discovery_vp": DISCOVERY_VP if first else 0,
            "gold": gold,
        }
    )
    _check_completion(ctx, seat, island)


def _check_completion(ctx: Ctx, seat: int, island: int) -> None:
    s = ctx.state
    if s.island_empty[island] != 0:
        return
    board = s.board
    counts = [0] * s.seats
    for sq in board.island_tps[island]:
        c = s.cover[sq]
        if POST <= c < POST + s.seats:
            counts[c - POST] += 1
    tv = TIME_VALUE_BY_ROUND[s.round]
    scores = [
        {"seat": other, "posts": counts[other], "vp": tp_score(counts[other]) * tv}
        for other in s.order
        if counts[other]
    ]
    ctx.emit(
        {
            "type": "IslandCompleted",
            "seat": seat,
            "island": island,
            "vp": COMPLETION_VP,
            "chest": bool(s.chest_on[island]),
            "time_value": tv,
            "scores": scores,
        }
    )


# -- PLAN ---------------------------------------------------------------------------------------------
def _kind_shape(cmd: dict[str, Any]) -> tuple[str, str]:
    kind = _str_field(cmd, "kind")
    shape = _str_field(cmd, "shape")
    if kind not in (VILLAGE, NEUTRAL):
        raise _invalid("'kind' must be 'village' or 'neutral'")
    if shape not in SHAPES:
        raise _invalid(f"unknown shape {shape!r}; use one of {', '.join(SHAPES)}")
    if kind == VILLAGE and shape not in VILLAGE_SHAPES:
        raise _illegal(f"there is no {_shape(shape)} village tile")
    return kind, shape


def _shape(shape: str) -> str:
    """A shape as a player names it, with the code a command gives: "bent 3-square (S3L)"."""
    return f"{SHAPE_NAMES[shape]} ({shape})"


def neutral_limit(s: State, seat: int) -> int:
    return 2 if s.players[seat].has("P14") else 1


def _plan_step(ctx: Ctx, s: State, cmd: dict[str, Any], kind: str, seat: int) -> bool:
    if kind == "end_action":
        return True
    tkind, shape = _kind_shape(cmd)
    p = s.players[seat]
    if tkind == VILLAGE:
        if p.village_left[VILLAGE_SHAPES.index(shape)] <= 0:
            raise _illegal(f"you have no {_shape(shape)} village tile left to plan")
        cost = VILLAGE_COST
    else:
        if s.neutral_supply[SHAPES.index(shape)] <= 0:
            raise _illegal(f"no {_shape(shape)} neutral tile is left in the supply")
        if s.neutral_taken >= neutral_limit(s, seat):
            raise _illegal("you may take only one neutral tile per action (two with P14)")
        cost = SHAPE_SIZE[shape]
    gold = extra_gold(s, cost)
    if gold > p.gold:
        raise _illegal(f"this tile costs {cost} AP; you cannot pay the {gold} gold missing")
    ctx.emit({"type": "TileTaken", "seat": seat, "kind": tkind, "shape": shape, "cost": cost, "gold": gold})
    return False


# -- BUILD --------------------------------------------------------------------------------------------
def _build_step(ctx: Ctx, s: State, cmd: dict[str, Any], kind: str, seat: int) -> bool:
    if kind == "end_action":
        return True
    tkind, shape = _kind_shape(cmd)
    p = s.players[seat]
    slot = (VILLAGE_SLOT if tkind == VILLAGE else NEUTRAL_SLOT)[shape]
    if p.planned[slot] <= 0:
        raise _illegal(f"you have no planned {_shape(shape)} {tkind} tile")
    raw = cmd.get("squares")
    if not isinstance(raw, list) or len(raw) != SHAPE_SIZE[shape]:
        raise _invalid(f'\'squares\' must be a list of {SHAPE_SIZE[shape]} squares {{"r": .., "c": ..}}')
    squares = [_square_field(s, v, "squares", allow_frame=False) for v in raw]
    if squares != sorted(set(squares)):
        raise _illegal("list the squares once each, sorted by (r, c)")
    ncols = s.board.ncols
    coords = [divmod(sq, ncols) for sq in squares]
    min_r = min(r for r, _ in coords)
    min_c = min(c for _, c in coords)
    if frozenset((r - min_r, c - min_c) for r, c in coords) not in ORIENTATION_SETS[shape]:
        raise _illegal(f"those squares do not form the {_shape(shape)} shape")
    problem = placement_ok(s, seat, squares)
    if problem:
        raise _illegal(problem)
    cost = VILLAGE_COST if tkind == VILLAGE else SHAPE_SIZE[shape]
    gold = extra_gold(s, cost)
    if gold > p.gold:
        raise _illegal(f"this tile costs {cost} AP; you cannot pay the {gold} gold missing")
    board = s.board
    island = board.island_of[squares[0]]
    big = 1 if board.island_big[island] else 0
    vp = VILLAGE_VP[big] if tkind == VILLAGE else NEUTRAL_VP_PER_SQUARE[big] * len(squares)
    goods = [COMMODITIES[board.commodity[sq]] for sq in squares if board.commodity[sq] >= 0]
    ctx.emit(
        {
            "type": "TilePlaced",
            "seat": seat,
            "kind": tkind,
            "shape": shape,
            "squares": [board.square_json(sq) for sq in squares],
            "island": island,
            "vp": vp,
            "commodities": goods,
            "cost": cost,
            "gold": gold,
        }
    )
    _check_completion(ctx, seat, island)
    return False


# -- PRODUCE ------------------------------------------------------------------------------------------
def _produce_step(ctx: Ctx, s: State, cmd: dict[str, Any], kind: str, seat: int) -> bool:
    if kind == "end_action":
        return True
    token = _str_field(cmd, "token")
    if token not in s.prod_display:
        raise _illegal(f"{token} is not on the production display")
    cost = PRODUCTION_COST[token]
    gold = extra_gold(s, cost)
    if gold > s.players[seat].gold:
        raise _illegal(f"this token costs {cost} AP; you cannot pay the {gold} gold missing")
    ctx.emit({"type": "ProductionBought", "seat": seat, "token": token, "cost": cost, "gold": gold})
    return False
