"""The heuristic bots play Amerigo with: what a player holds *and can still do*, not only points scored.

Counting only VP, gold, goods, track values and a flat worth of planned tiles (the evaluation before this
module) makes ship moves look worthless (a ship only pays once it founds a trading post) and posts, planned
tiles and building land look like nothing more than their VP today, so a bot only took gold. ``evaluate``
adds, per player:

- **ships**: a ship that can still found a post is worth more the closer it is (in sailing distance) to
  an anchor whose trading-post space is still empty; a ship sitting on such an anchor is worth most;
- **trading posts**: each post on an island, weighted by how full the island is, earns a share of the
  island's completion score (``tp_score`` of the player's posts times the round's time value);
- **land to build on**: a planned tile is worth a part of what building it scores where the player has a post
  on an island with empty land, less elsewhere, and nothing in the last round (``PLANNED_*``): a tile has
  still to be built, with as many action points again, and one left unbuilt at the end scores nothing.

The value is the player's worth minus the best opponent's worth.
"""

from __future__ import annotations

from typing import Any

from domain.game import keep, relative_to_best_other

from .board import Board
from .data import (
    PROGRESS_VP_AT,
    ROUNDS,
    SHAPE_SIZE,
    SHAPES,
    SPECIAL_VP_AT,
    TIME_VALUE_BY_ROUND,
    VILLAGE_SHAPES,
    tp_score,
)
from .scoring import goods_vp
from .state import EMPTY, NEUTRAL_SLOT, POST, VILLAGE_SLOT, Player, State

SHIP_ON_ANCHOR = 3.0  # a ship that can found a post next
SHIP_REACH = 6.0  # distance at which a ship's prospect has halved


def _open_anchors(state: State) -> set[int]:
    board = state.board
    cover = state.cover
    return {a for a, tp in board.anchor_tp.items() if cover[tp] == EMPTY}


def _ship_prospect(state: State, seat: int, shared: Shared) -> float:
    p = state.players[seat]
    anchors, _, sail = shared
    if p.posts_left <= 0 or not anchors or state.round > 5:
        return 0.0
    value = 0.0
    for ship, loc in enumerate(p.ships):
        if loc < 0:
            value += 0.5  # not yet placed: may enter anywhere on the frame
            continue
        if state.turn_seat == seat and state.founded[ship]:
            value += SHIP_ON_ANCHOR * 0.5  # just founded: it sails again next action
            continue
        best = sail[loc]  # sailing distance to the nearest open anchor
        if best < 0:
            continue
        value += SHIP_ON_ANCHOR / (1.0 + best / SHIP_REACH)
    return value


def _posts_by_island(state: State) -> list[list[int]]:
    """For every island, how many trading posts each seat has on it (one pass over the trading-post spaces)."""
    cover = state.cover
    seats = state.seats
    out = []
    for tps in state.board.island_tps:
        counts = [0] * seats
        for sq in tps:
            code = cover[sq] - POST
            if 0 <= code < seats:
                counts[code] += 1
        out.append(counts)
    return out


def _posts_and_land(state: State, seat: int, time_value: int, by_island: list[list[int]]) -> tuple[float, bool]:
    """Expected completion share of the player's posts, and whether it has an island with land to build on."""
    board = state.board
    value = 0.0
    land = False
    for island, counts in enumerate(by_island):
        posts = counts[seat]
        if not posts:
            continue
        size = board.island_size[island]
        empty = state.island_empty[island] if state.island_empty else 0
        if empty > 0:
            land = True
        filled = 1.0 - empty / size if size else 1.0
        value += 0.5 * posts + tp_score(posts) * time_value * 0.5 * filled
    return value, land


# What a planned tile is worth, in VP: per square of a neutral tile, and per village tile, where the player has
# land to build it on (a post on an island with empty land) and where it has none.
# Tuned 2026-12-01 with ``benchmarks/evaluation_ab.py amerigo P easy G --seed S --set NAME=VALUE`` (the win share of
# the seat playing as it is against the variant's seats; even share 1/P). Before, a neutral square was worth 1.5 with
# land and 0.5 without, in every round: the bots planned about five tiles for each they built (take_tile 11,348,
# place_tile 2,304 in 400 two-player games) and ended games with many unbuilt. Two players, 400 games a row (seeds
# 9200 to 9800, one a row): last round 0.3 against 1 won 0.583 [0.534, 0.630]; then 0.3 against 0 lost, 0.440 [0.392,
# 0.489]; with land 1.5 against 1.0 lost, 0.352 [0.307, 0.401]; 1.0 against 0.6 lost, 0.372 [0.327, 0.421]; 0.6
# against 0.3 0.492 [0.444, 0.541] (not apart; 0.6 kept); without land 0.2 against 0.5 0.475 [0.427, 0.524] (not
# apart; 0.2 kept, a third of the figure with land as before); a village tile with land 1.2 against 0.6 won 0.570
# [0.521, 0.618]. The values below against the old ones (``--set PLANNED_PER_SQUARE_WITH_LAND=1.5 --set
# PLANNED_PER_SQUARE_WITHOUT_LAND=0.5 --set PLANNED_LAST_ROUND=1``): one seat against two, 300 games, seed 9900, won
# 0.630 [0.574, 0.683] (even 0.333), mean score 110.2 / 81.7, planning 5,113 tiles and building 2,693 (the old seats
# 16,548 and 3,359); one against three, 300 games, seed 9910, won 0.440 [0.385, 0.497] (even 0.250).
PLANNED_PER_SQUARE_WITH_LAND = 0.6
PLANNED_PER_SQUARE_WITHOUT_LAND = 0.2
PLANNED_VILLAGE_WITH_LAND = 1.2
PLANNED_VILLAGE_WITHOUT_LAND = 0.4
# The share of that worth a planned tile keeps in the last round, when few actions are left to build it.
PLANNED_LAST_ROUND = 0.0


# (planned-tile slot, squares) of each neutral shape, and the slot of each village shape. The constants above are
# read at every use (``benchmarks/evaluation_ab.py`` sets them while a bot decides), these only once.
_NEUTRAL_SLOTS = [(NEUTRAL_SLOT[s], SHAPE_SIZE[s]) for s in SHAPES]
_VILLAGE_SLOTS = [VILLAGE_SLOT[s] for s in VILLAGE_SHAPES]


def worth(state: State, seat: int, shared: Shared | None = None) -> float:
    """What ``seat`` holds and can still do, in VP. ``shared``: ``_shared(state)``, when it is at hand.

    Kept by the identity of what it reads (``_WORTH``): a search scores many positions where one seat's player
    changed and the others' did not."""
    p = state.players[seat]
    if state.over:
        return float(p.vp)
    if shared is None:
        shared = _shared(state)
    empty = state.island_empty
    rnd = state.round
    founded = state.founded if state.turn_seat == seat else None
    entry = _WORTH.get(id(p))
    if (
        entry is not None
        and entry[0] is p
        and entry[1] is shared
        and entry[2] is empty
        and entry[3] == seat
        and entry[4] == rnd
        and entry[5] == founded
    ):
        return entry[6]
    value = _worth(state, seat, p, shared)
    keep(_WORTH, id(p), (p, shared, empty, seat, rnd, founded, value), _WORTH_ENTRIES)
    return value


# ``worth`` by the identity of the player: its last value, with what it was computed with: ``_shared`` and the
# islands' empty-square counts (by identity), the seat, the round and, for the seat whose turn it is, which ships
# founded a post. Like the cover, a state's players and their lists, and ``island_empty``, are replaced, never
# changed in place (``mut_player`` clones a player before ``evolve`` changes it, and a list is copied before it is
# changed), so one object always holds the same values; an entry keeps its objects alive, so that their ids are not
# reused while the entry stands. One entry per player: a search reads a player again mostly as it read it last.
_WORTH: dict[int, tuple[Player, Shared, list[int], int, int, tuple[bool, ...] | None, float]] = {}
_WORTH_ENTRIES = 4096


def _worth(state: State, seat: int, p: Player, shared: Shared) -> float:
    """``worth`` computed: what the player holds (``_holdings``), plus its posts, plus its ships' prospect, added
    in that order."""
    rnd = state.round
    posts, land = _posts(state, seat, rnd, shared)
    return _holdings(p, rnd, land) + posts + _ship_prospect(state, seat, shared)


def _posts(state: State, seat: int, rnd: int, shared: Shared) -> tuple[float, bool]:
    """``_posts_and_land`` for ``seat``, kept (``_POSTS``) by the identity of ``_shared`` and of the islands'
    empty-square counts, with the seat and the round: a ship's move or a purchase changes neither."""
    empty = state.island_empty
    key = (id(shared), id(empty), seat, rnd)
    entry = _POSTS.get(key)
    if entry is not None and entry[0] is shared and entry[1] is empty:
        return entry[2]
    found = _posts_and_land(state, seat, TIME_VALUE_BY_ROUND.get(rnd, 1), shared[1])
    return keep(_POSTS, key, (shared, empty, found), _POSTS_ENTRIES)[2]


_POSTS: dict[tuple[int, int, int, int], tuple[Shared, list[int], tuple[float, bool]]] = {}
_POSTS_ENTRIES = 1024


def _holdings(p: Player, rnd: int, land: bool) -> float:
    """The part of a player's worth that reads only the player (not its ships) and the round, and whether it has
    land to build on; kept (``_HOLDINGS``) by those values and by the identity of the player's lists and tokens,
    which ``evolve`` replaces and never changes in place (so a ship's move, which clones the player, reuses it)."""
    planned, commodities, production, tokens = p.planned, p.commodities, p.production, p.tokens
    key = (
        p.vp,
        p.gold,
        p.progress,
        p.special,
        p.chests,
        p.cannon,
        p.posts_left,
        rnd,
        land,
        id(planned),
        id(commodities),
        id(production),
        id(tokens),
    )
    entry = _HOLDINGS.get(key)
    if (
        entry is not None
        and entry[0] is planned
        and entry[1] is commodities
        and entry[2] is production
        and entry[3] is tokens
    ):
        return entry[4]
    extra = 0.0
    for t, used in tokens.items():
        if t == "P23":
            extra += 7
        elif t == "P22":
            extra += 12 - p.posts_left
        elif t in ("P17", "P18") and not used:
            extra += 3 if t == "P17" else 5
    remaining_rounds = 5 - rnd + 1
    tiles = 0.0
    square = PLANNED_PER_SQUARE_WITH_LAND if land else PLANNED_PER_SQUARE_WITHOUT_LAND
    for slot, size in _NEUTRAL_SLOTS:
        tiles += planned[slot] * (square * size)
    village = PLANNED_VILLAGE_WITH_LAND if land else PLANNED_VILLAGE_WITHOUT_LAND
    for slot in _VILLAGE_SLOTS:
        tiles += planned[slot] * village
    if rnd >= ROUNDS:
        tiles *= PLANNED_LAST_ROUND
    value = (
        p.vp
        + p.gold
        + goods_vp(p)
        + PROGRESS_VP_AT[p.progress]
        + SPECIAL_VP_AT[p.special]
        + 3 * p.chests
        + extra
        + tiles
        + 0.5 * min(p.cannon, 6) * (remaining_rounds > 0)
        + 0.1 * p.progress
        + 0.1 * p.special
    )
    return keep(_HOLDINGS, key, (planned, commodities, production, tokens, value), _HOLDINGS_ENTRIES)[4]


_HOLDINGS: dict[tuple[Any, ...], tuple[list[int], list[int], list[str], dict[str, bool], float]] = {}
_HOLDINGS_ENTRIES = 4096


def forget() -> None:
    """Empty every kept value (tests compare kept values with ones computed afresh)."""
    for kept in (_SHARED, _WORTH, _POSTS, _HOLDINGS):
        kept.clear()


# What every seat's worth reads of the board: the open anchors, the trading posts of each seat on each island, and
# every node's sailing distance to the nearest open anchor (-1: none reachable).
Shared = tuple[set[int], list[list[int]], list[int]]

# ``_shared`` by the identity of the board's cover list. A state's ``cover`` is replaced, never changed in place
# (``evolve`` copies it before it founds a post or places a tile), so one list always holds the same squares;
# an entry keeps its list alive, so that the list's id is not reused while the entry stands. A search reads the
# same few covers thousands of times.
_SHARED: dict[int, tuple[list[int], Board, Shared]] = {}
_SHARED_ENTRIES = 256


def _shared(state: State) -> Shared:
    """What every seat's worth reads of the board (``Shared``), computed once per cover."""
    cover, board = state.cover, state.board
    entry = _SHARED.get(id(cover))
    if entry is not None and entry[0] is cover and entry[1] is board:
        return entry[2]
    anchors = _open_anchors(state)
    shared = (anchors, _posts_by_island(state), board.distances_from(anchors))
    return keep(_SHARED, id(cover), (cover, board, shared), _SHARED_ENTRIES)[2]


def worths(state: State) -> list[float]:
    """``worth`` of every seat, the board read once."""
    shared = None if state.over else _shared(state)
    return [worth(state, s, shared) for s in range(state.seats)]


def evaluate(state: State, seat: int) -> float:
    values = worths(state)
    others = values[:seat] + values[seat + 1 :]
    return values[seat] - (max(others) if others else 0.0)


def evaluate_all(state: State) -> list[float]:
    """``evaluate`` for every seat, each worth computed once."""
    return relative_to_best_other(worths(state))


# Commands that change nothing ``worth`` reads, of any seat: choosing an action sets only the turn's stage, colours
# and action points, and P10 (Fair Winds) only adds action points and flips a token worth nothing here. The bots'
# look-ahead scores them from the position before them (``Rules.evaluation_change``) instead of playing each.
UNCHANGED_BY = frozenset({"choose_action", "use_fair_winds"})


def evaluation_change(command: dict[str, Any]) -> float | None:
    """0.0 for a command of ``UNCHANGED_BY``, else ``None`` (not known without playing it)."""
    return 0.0 if command.get("type") in UNCHANGED_BY else None
