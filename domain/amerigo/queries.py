"""Rule queries shared by decide, legal_commands and the views (no state changes here).

Section (§) and ruling (D, Q) numbers are those of docs/rules/amerigo.md.
"""

from __future__ import annotations

import math

from .data import (
    BLACK,
    BROWN,
    CANNON_MAX,
    GOLD_TAKE_DIVISOR,
    GREEN,
    P20_GOLD_DIVISOR,
    PROGRESS_TRACK_LAST,
    PROGRESS_VP,
    RED,
    SHAPE_CELLS,
    SHAPES,
    SPECIAL_TRACK_LAST,
    TOKEN_AP_BONUS,
    WHITE,
    special_colour,
)
from .state import EMPTY, NEUTRAL_TILE, POST, State


def _orientations(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    seen = []
    cur = list(cells)
    for _ in range(4):
        min_r = min(r for r, _ in cur)
        min_c = min(c for _, c in cur)
        norm = tuple(sorted((r - min_r, c - min_c) for r, c in cur))
        if norm not in seen:
            seen.append(norm)
        cur = [(c, -r) for r, c in cur]
    return tuple(seen)


ORIENTATIONS = {s: _orientations(SHAPE_CELLS[s]) for s in SHAPES}
ORIENTATION_SETS = {s: {frozenset(o) for o in ORIENTATIONS[s]} for s in SHAPES}


def gold_for_taking(state: State, seat: int) -> int:
    cubes = sum(state.area)
    div = P20_GOLD_DIVISOR if state.players[seat].has("P20") else GOLD_TAKE_DIVISOR
    return math.ceil(cubes / div)


def chooseable(state: State, seat: int, colour: int) -> bool:
    """Whether ``colour`` (not white) may be chosen as an action now (§10.2, with P15)."""
    area = state.area
    if area[colour] > 0:
        return True
    if state.players[seat].has("P15"):
        if colour == RED and area[GREEN] > 0:
            return True
        if colour == GREEN and area[RED] > 0:
            return True
    return False


def ap_bonus(state: State, seat: int, x: int) -> int:
    tokens = state.players[seat].tokens
    bonus = 0
    for token, table in TOKEN_AP_BONUS.items():
        if token in tokens:
            bonus += table.get(x, 0)
    return bonus


def convert_ap(state: State, x: int) -> int:
    area = state.area
    others = max((area[c] for c in range(7) if c not in (WHITE, x)), default=0)
    return max(area[x] + area[WHITE], others)


def convert_colour(state: State, seat: int) -> int | None:
    return special_colour(state.players[seat].special)


def extra_gold(state: State, added_used: int) -> int:
    """Gold needed now if ``ap_used`` grows by ``added_used`` (§10.3)."""
    new_used = state.ap_used + added_used
    return max(0, new_used - state.ap_free) - state.gold_paid


def track_of(x: int) -> tuple[str, int]:
    if x == BLACK:
        return "cannon", CANNON_MAX
    if x == BROWN:
        return "progress", PROGRESS_TRACK_LAST
    return "special", SPECIAL_TRACK_LAST


def track_position(state: State, seat: int, x: int) -> int:
    p = state.players[seat]
    if x == BLACK:
        return p.cannon
    if x == BROWN:
        return p.progress
    return p.special


def advance_range(state: State, seat: int) -> range:
    """Legal ``n`` for an ``advance`` step of the running action."""
    _, last = track_of(state.x)
    left = last - track_position(state, seat, state.x)
    if left <= 0:
        return range(0, 1)
    budget = state.ap_free + state.gold_paid + state.players[seat].gold - state.ap_used
    return range(1, min(left, budget) + 1)


def progress_tokens_due(state: State, old: int, new: int) -> int:
    crossed = sum(1 for space in PROGRESS_VP if old < space <= new)
    shown = sum(1 for t in state.progress_display if t is not None)
    return min(crossed, shown)


def move_budget(state: State, seat: int, ship: int) -> int:
    """Largest distance ``ship`` can still sail in this action."""
    total = state.ap_free + state.gold_paid + state.players[seat].gold
    return total - state.sailed[ship]


def occupied_water(state: State) -> set[int]:
    nsq = state.board.nsq
    out = set()
    for p in state.players:
        for loc in p.ships:
            if 0 <= loc < nsq:
                out.add(loc)
    return out


def can_found(state: State, seat: int, ship: int) -> bool:
    p = state.players[seat]
    loc = p.ships[ship]
    board = state.board
    if loc < 0 or loc >= board.nsq or state.founded[ship] or p.posts_left <= 0:
        return False
    tp = board.anchor_tp.get(loc)
    return tp is not None and state.cover[tp] == EMPTY


def has_post_on(state: State, seat: int, island: int) -> bool:
    cover = state.cover
    code = POST + seat
    return any(cover[sq] == code for sq in state.board.island_tps[island])


def placement_ok(state: State, seat: int, squares: list[int]) -> str | None:
    """Checks 2-4 of §11.5 for one placement; returns an error message or None."""
    board = state.board
    cover = state.cover
    island = board.island_of[squares[0]]
    for sq in squares:
        if not board.land[sq]:
            return "every square of a tile must be land"
        if cover[sq] != EMPTY:
            return "every square of a tile must be empty (no trading post, no tile)"
        if board.island_of[sq] != island:
            return "a tile must lie on one island"
    if not has_post_on(state, seat, island):
        return "you need a trading post on that island to build there"
    own = POST + seat
    for sq in squares:
        for nb in board.land_adj[sq]:
            c = cover[nb]
            if c == own or c >= NEUTRAL_TILE:
                return None
    return "a tile must touch one of your trading posts or a tile already on that island"


def placements(state: State, seat: int, shape: str) -> list[tuple[int, ...]]:
    """Every legal square set for ``shape`` (sorted squares), ignoring cost."""
    board = state.board
    cover = state.cover
    ncols = board.ncols
    nrows = board.nrows
    own = POST + seat
    found: set[tuple[int, ...]] = set()
    out = []
    for island, squares in enumerate(board.islands):
        if state.island_empty[island] < len(SHAPE_CELLS[shape]) or not has_post_on(state, seat, island):
            continue
        empty = {sq for sq in squares if cover[sq] == EMPTY}
        # squares next to which a tile may go: own posts and any tile on the island
        touching: set[int] = set()
        for sq in squares:
            c = cover[sq]
            if c == own or c >= NEUTRAL_TILE:
                touching.update(nb for nb in board.land_adj[sq] if cover[nb] == EMPTY)
        if not touching:
            continue
        for orient in ORIENTATIONS[shape]:
            fr, fc = orient[0]
            for base in empty:
                br, bc = divmod(base, ncols)
                br -= fr
                bc -= fc
                cells = []
                ok = True
                for dr, dc in orient:
                    r, c = br + dr, bc + dc
                    if r < 0 or c < 0 or r >= nrows or c >= ncols:
                        ok = False
                        break
                    sq = r * ncols + c
                    if sq not in empty:
                        ok = False
                        break
                    cells.append(sq)
                if not ok:
                    continue
                key = tuple(cells)
                if key in found:
                    continue
                if any(sq in touching for sq in cells):
                    found.add(key)
                    out.append(key)
    out.sort()
    return out


def is_first(state: State, seat: int) -> bool:
    return bool(state.order) and state.order[0] == seat
