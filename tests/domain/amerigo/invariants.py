"""Invariant checks shared by the Amerigo property tests."""

from __future__ import annotations

import json
from collections import Counter

from domain.amerigo import RULES
from domain.amerigo.data import (
    CANNON_MAX,
    COMMODITIES,
    CUBES_PER_COLOUR,
    GOLD_MAX,
    NEUTRAL_COUNTS,
    PIRATE_MARKERS,
    PRODUCTION_IDS,
    PROGRESS_TOKENS,
    PROGRESS_TRACK_LAST,
    SHAPES,
    SPECIAL_TRACK_LAST,
    TRADING_POSTS,
    VILLAGE_COUNTS,
    VILLAGE_SHAPES,
)
from domain.amerigo.state import NEUTRAL_SLOT, POST, VILLAGE_SLOT, State


def check_invariants(state: State) -> None:
    if not state.started or state.board is None:
        return
    board = state.board
    # 49 cubes: tower + storage + action area
    tower = Counter(state.tower)
    for c in range(7):
        assert state.storage[c] >= 0 and state.area[c] >= 0
        assert tower[c] + state.storage[c] + state.area[c] == CUBES_PER_COLOUR, (c, state.tower, state.storage)
    # tiles
    placed_neutral = Counter(shape for kind, shape, _o, _sq in state.placed if kind == "neutral")
    for i, shape in enumerate(SHAPES):
        planned = sum(p.planned[NEUTRAL_SLOT[shape]] for p in state.players)
        assert state.neutral_supply[i] >= 0
        assert state.neutral_supply[i] + planned + placed_neutral[shape] == NEUTRAL_COUNTS[shape]
    for seat, p in enumerate(state.players):
        placed_v = Counter(shape for kind, shape, o, _sq in state.placed if kind == "village" and o == seat)
        for i, shape in enumerate(VILLAGE_SHAPES):
            assert p.village_left[i] >= 0 and p.planned[VILLAGE_SLOT[shape]] >= 0
            assert p.village_left[i] + p.planned[VILLAGE_SLOT[shape]] + placed_v[shape] == VILLAGE_COUNTS[shape]
        assert all(x >= 0 for x in p.planned)
    # covered squares agree with the placed tiles and posts
    covered = [0] * board.nsq
    for _k, _s, _o, squares in state.placed:
        for sq in squares:
            assert board.land[sq]
            covered[sq] += 1
    for sq, c in enumerate(state.cover):
        if c:
            assert board.land[sq]
        if POST <= c < 10:
            assert board.is_tp[sq]
            covered[sq] += 1
        assert covered[sq] == (1 if c else 0)
    for i, squares in enumerate(board.islands):
        assert state.island_empty[i] == sum(1 for sq in squares if state.cover[sq] == 0)
    # goods
    for t in range(len(COMMODITIES)):
        on_board = sum(1 for sq, ct in enumerate(board.commodity) if ct == t and state.cover[sq] == 0)
        printed = sum(1 for ct in board.commodity if ct == t)
        held = sum(p.commodities[t] for p in state.players)
        assert held >= 0 and on_board + held == printed
    # production tokens
    marks = list(state.prod_stacks)
    everything = Counter(i for m in marks for i in PRODUCTION_IDS[m])
    seen = Counter(i for m in marks for i in state.prod_stacks[m])
    seen.update(state.prod_display)
    seen.update(state.prod_removed)
    for p in state.players:
        seen.update(p.production)
    assert seen == everything
    # progress tokens
    seen = Counter(state.progress_pile)
    seen.update(t for t in state.progress_display if t is not None)
    seen.update(state.progress_removed)
    for p in state.players:
        seen.update(list(p.tokens))
    assert seen == Counter(PROGRESS_TOKENS)
    # trading posts, ships, tracks
    posts = Counter(c - POST for c in state.cover if POST <= c < 10)
    ship_squares = []
    for seat, p in enumerate(state.players):
        assert p.posts_left + posts[seat] == TRADING_POSTS
        assert 0 <= p.gold <= GOLD_MAX and 0 <= p.cannon <= CANNON_MAX and p.vp >= 0
        assert 0 <= p.progress <= PROGRESS_TRACK_LAST and 0 <= p.special <= SPECIAL_TRACK_LAST
        assert p.chests >= 0
        for loc in p.ships:
            if 0 <= loc < board.nsq:
                assert not board.land[loc]
                ship_squares.append(loc)
    assert len(ship_squares) == len(set(ship_squares)), "two ships on one water square"
    assert sum(p.chests for p in state.players) + sum(state.chest_on) <= len(board.chest_islands)
    # pirates
    assert sorted(list(state.pirates) + [state.pirate_out]) == sorted(PIRATE_MARKERS)
    # special-track order agrees with positions
    positions = [state.players[s].special for s in state.order]
    assert positions == sorted(positions, reverse=True)
    assert sorted(state.order) == list(range(state.seats))


def check_no_leak(state: State, events: list[dict], rng) -> None:
    """Views and redacted events must not change when the hidden parts are resampled."""
    if not state.started or state.over:
        return
    other = RULES.determinize(state, 0, rng)
    for seat in [None, *range(state.seats)]:
        a = RULES.view(state, seat)
        json.dumps(a)
        assert a == RULES.view(other, seat), "a view depends on hidden information"
    for event in events:
        red = RULES.redact(event, None)
        json.dumps(red)
        if event["type"] == "PiratesPlaced":
            assert red["out"] is None and all(v is None for v in red["slots"])
        if event["type"] == "ProgressPileShuffled":
            assert all(v is None for v in red["pile"])
        if event["type"] == "ProductionStacksShuffled":
            assert all(v is None for ids in red["stacks"].values() for v in ids)
        for seat in range(state.seats):
            assert RULES.redact(event, seat) == red
