"""The heuristic bots play Amerigo with: what a player holds *and can still do*, not only points scored.

Counting only VP, gold, goods, track values and a flat worth of planned tiles (the evaluation before this
module) makes ship moves look worthless (a ship only pays once it founds a trading post) and posts, planned
tiles and building land look like nothing more than their VP today, so a bot only took gold. ``evaluate``
adds, per player:

- **ships**: a ship that can still found a post is worth more the closer it is (in sailing distance) to
  an anchor whose trading-post space is still empty; a ship sitting on such an anchor is worth most;
- **trading posts**: each post on an island, weighted by how full the island is, earns a share of the
  island's completion score (``tp_score`` of the player's posts times the round's time value);
- **land to build on**: planned tiles are worth their building VP only where the player has a post on an
  island with empty land; otherwise little.

The value is the player's worth minus the best opponent's worth.
"""

from __future__ import annotations

from domain.game import relative_to_best_other

from .data import (
    COMMODITIES,
    PROGRESS_VP,
    SHAPE_SIZE,
    SHAPES,
    SPECIAL_VP,
    TIME_VALUE_BY_ROUND,
    VILLAGE_SHAPES,
    tp_score,
    track_vp,
)
from .state import EMPTY, NEUTRAL_SLOT, POST, VILLAGE_SLOT, State

SHIP_ON_ANCHOR = 3.0  # a ship that can found a post next
SHIP_REACH = 6.0  # distance at which a ship's prospect has halved


def _open_anchors(state: State) -> list[int]:
    board = state.board
    cover = state.cover
    return [a for a, tp in board.anchor_tp.items() if cover[tp] == EMPTY]


def _ship_prospect(state: State, seat: int, anchors: list[int]) -> float:
    p = state.players[seat]
    if p.posts_left <= 0 or not anchors or state.round > 5:
        return 0.0
    board = state.board
    value = 0.0
    for ship, loc in enumerate(p.ships):
        if loc < 0:
            value += 0.5  # not yet placed: may enter anywhere on the frame
            continue
        if state.turn_seat == seat and state.founded[ship]:
            value += SHIP_ON_ANCHOR * 0.5  # just founded: it sails again next action
            continue
        dist = board.distances(loc)
        best = min((dist[a] for a in anchors if dist[a] >= 0), default=-1)
        if best < 0:
            continue
        value += SHIP_ON_ANCHOR / (1.0 + best / SHIP_REACH)
    return value


def _posts_and_land(state: State, seat: int, time_value: int) -> tuple[float, bool]:
    """Expected completion share of the player's posts, and whether it has an island with land to build on."""
    board = state.board
    cover = state.cover
    code = POST + seat
    value = 0.0
    land = False
    for island, tps in enumerate(board.island_tps):
        posts = sum(1 for sq in tps if cover[sq] == code)
        if not posts:
            continue
        size = board.island_size[island]
        empty = state.island_empty[island] if state.island_empty else 0
        if empty > 0:
            land = True
        filled = 1.0 - empty / size if size else 1.0
        value += 0.5 * posts + tp_score(posts) * time_value * 0.5 * filled
    return value, land


def worth(state: State, seat: int) -> float:
    p = state.players[seat]
    if state.over:
        return float(p.vp)
    goods = sum(
        n * (1 + sum(1 for t in p.production if t.split("-")[1] == c))
        for n, c in zip(p.commodities, COMMODITIES, strict=False)
    )
    extra = 0.0
    for t, used in p.tokens.items():
        if t == "P23":
            extra += 7
        elif t == "P22":
            extra += 12 - p.posts_left
        elif t in ("P17", "P18") and not used:
            extra += 3 if t == "P17" else 5
    remaining_rounds = 5 - state.round + 1
    time_value = TIME_VALUE_BY_ROUND.get(state.round, 1)
    posts, land = _posts_and_land(state, seat, time_value)
    planned = 0.0
    for shape in SHAPES:
        size = SHAPE_SIZE[shape]
        planned += p.planned[NEUTRAL_SLOT[shape]] * (1.5 * size if land else 0.5 * size)
    for shape in VILLAGE_SHAPES:
        planned += p.planned[VILLAGE_SLOT[shape]] * (1.2 if land else 0.4)
    return (
        p.vp
        + p.gold
        + goods
        + track_vp(PROGRESS_VP, p.progress)
        + track_vp(SPECIAL_VP, p.special)
        + 3 * p.chests
        + extra
        + planned
        + 0.5 * min(p.cannon, 6) * (remaining_rounds > 0)
        + 0.1 * p.progress
        + 0.1 * p.special
        + posts
        + _ship_prospect(state, seat, _open_anchors(state))
    )


def evaluate(state: State, seat: int) -> float:
    mine = worth(state, seat)
    others = [worth(state, s) for s in range(state.seats) if s != seat]
    return mine - (max(others) if others else 0.0)


def evaluate_all(state: State) -> list[float]:
    """``evaluate`` for every seat, each worth computed once."""
    return relative_to_best_other([worth(state, s) for s in range(state.seats)])
