"""Set-up (§4.1, §5, §7): the rules file's reference vectors and per-player-count supply."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from domain.amerigo import RULES
from domain.amerigo.board import get_board, layout_is_valid
from domain.amerigo.data import COLOURS, PRODUCTION_IDS, START_GOLD_BY_STACK
from domain.game import InvalidOptions
from tests.domain.amerigo.scenario import base, fold, of_type, one


def test_reference_vector_four_players():
    events = base(4)
    laid = one(events, "IslandsAssembled")
    assert laid["sel"] == [
        "T05",
        "T10",
        "T14",
        "T13",
        "T02",
        "T16",
        "T12",
        "T08",
        "T09",
        "T04",
        "T06",
        "T07",
        "T15",
        "T01",
        "T11",
        "T03",
    ]
    assert laid["rots"] == [3, 3, 0, 3, 2, 1, 0, 2, 0, 0, 0, 0, 3, 1, 3, 0]
    state = fold(events)
    board = state.board
    assert len(board.islands) == 24
    assert [s for s in board.island_size if s >= 20] == [25]
    assert one(events, "StackOrderDrawn")["order"] == [0, 2, 3, 1]
    assert [p.gold for p in state.players] == [0, 3, 1, 2]
    placed = one(events, "PiratesPlaced")
    assert placed["slots"] == [4, 2, 0, 1, 0] and placed["out"] == 3
    assert state.progress_display == ["P22", "P02", "P21", "P08", "P05", "P17", "P03", "P16"]
    assert one(events, "ProductionRevealed")["tokens"] == [
        "PR-C-II-4-1",
        "PR-S-II-4-2",
        "PR-S-II-2-1",
        "PR-E-II-3-2",
        "PR-C-II-3-2",
        "PR-C-II-2-1",
        "PR-K-III-2-1",
        "PR-S-III-2-1",
        "PR-K-IV-3-1",
        "PR-E-IV-4-1",
    ]
    drops = of_type(events, "TowerDropped")
    assert drops[0]["colour"] == "setup" and drops[0]["batch"] == 49
    assert Counter(drops[0]["tower"]) == {"blue": 2, "red": 3, "brown": 2, "green": 4, "yellow": 2, "white": 3}
    assert Counter(drops[0]["out"]) == {
        "blue": 5,
        "black": 7,
        "red": 4,
        "brown": 5,
        "green": 3,
        "yellow": 5,
        "white": 4,
    }
    assert drops[1]["colour"] == "blue" and drops[1]["batch"] == 5
    assert Counter(drops[1]["out"]) == {"blue": 5, "red": 1, "brown": 2, "green": 1, "yellow": 1}
    assert len(drops[1]["tower"]) == 11
    assert state.ap == 5 and sum(state.area) == 10
    assert state.turn_seat == 0 and state.round == 1
    assert RULES.legal_commands(state, 0)[0] == {"type": "take_gold"}
    assert one(RULES.decide(state, {"type": "take_gold"}, 0, random.Random(0)), "GoldTaken")["gold"] == 4


def test_reference_vector_two_players():
    laid = one(base(2), "IslandsAssembled")
    assert laid["sel"] == ["T05", "T10", "T14", "T13", "T02", "T16", "T12", "T08", "T09"]
    assert laid["rots"] == [3, 3, 1, 0, 3, 0, 3, 3, 0]
    board = fold(base(2)).board
    assert len(board.islands) == 11
    assert sorted(s for s in board.island_size if s >= 20) == [26, 39]
    # one treasure chest per big island
    assert [board.island_size[i] for i in board.chest_islands] == [26, 39]


@pytest.mark.parametrize(
    "seats, grid, frame, shown, marks",
    [
        (2, (3, 3), 12, 6, {"II"}),
        (3, (4, 3), 14, 8, {"II", "III"}),
        (4, (4, 4), 16, 10, {"II", "III", "IV"}),
    ],
)
def test_supply_by_player_count(seats, grid, frame, shown, marks):
    for seed in range(3):
        state = RULES.fold(RULES.setup(seed, seats, {}))
        board = state.board
        assert (board.w, board.h) == grid and board.nframe == frame
        assert set(state.prod_stacks) == marks
        assert len(state.prod_display) == shown
        assert sum(len(v) for v in state.prod_stacks.values()) + shown == sum(len(PRODUCTION_IDS[m]) for m in marks)
        # starting gold 0, 1, 2, 3 down the stack; the top disc starts
        assert [state.players[s].gold for s in state.order] == list(START_GOLD_BY_STACK[:seats])
        assert state.turn_seat == state.order[0] or state.phase > 0
        # pirate slot 1 is face up, the others are not
        assert state.pirates_revealed == 1
        # every commodity space of the tiles in use has its token; nothing else is covered
        assert all(c == 0 for c in state.cover)
        assert all(p.vp == 0 and p.cannon == 0 and p.progress == 0 and p.posts_left == 12 for p in state.players)
        assert all(p.ships == [-1, -1] for p in state.players)
        assert layout_is_valid(seats, board.key[1], board.key[2])


def test_setup_refuses_bad_player_counts():
    with pytest.raises(InvalidOptions):
        RULES.setup(1, 5, {})
    with pytest.raises(InvalidOptions):
        RULES.setup(1, 1, {})
    with pytest.raises(InvalidOptions):
        RULES.setup(1, 2, {"variant": True})


def test_enclosed_water_makes_a_layout_invalid():
    # four tiles whose connectors meet around one tile corner form a ring of land enclosing water
    sel = ("T06", "T08", "T01", "T13", "T15", "T03", "T09", "T16", "T14")
    assert not layout_is_valid(2, sel, (3, 1, 0, 0, 2, 0, 0, 0, 0))
    # turning one of the four tiles breaks the ring
    assert layout_is_valid(2, sel, (3, 1, 0, 0, 0, 0, 0, 0, 0))


def test_board_islands_links_and_frame():
    board = get_board(2, ("T05", "T10", "T14", "T13", "T02", "T16", "T12", "T08", "T09"), (3, 3, 1, 0, 3, 0, 3, 3, 0))
    nc = board.ncols
    # anchor/TP links are one to one
    assert len(board.anchor_tp) == len(board.tp_anchor) == sum(board.is_tp)
    # frame spaces are adjacent around the ring and to the water squares of their edge
    f0 = board.frame_node(0)
    assert board.frame_node(1) in board.adj[f0] and board.frame_node(board.nframe - 1) in board.adj[f0]
    assert 0 * nc + 0 in board.adj[f0]  # board corner (0, 0) is water
    assert board.distances(f0)[board.frame_node(6)] == 6
    # island ids are in row-major order of their first square
    firsts = [isl[0] for isl in board.islands]
    assert firsts == sorted(firsts)
    assert COLOURS[0] == "blue"
