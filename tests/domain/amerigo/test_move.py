"""MOVE (§11.1): placing ships, sailing, one ship per water square, trading posts and discovery."""

from __future__ import annotations

import random

from domain.amerigo import RULES
from tests.domain.amerigo.scenario import (
    base,
    fold,
    gold,
    of_type,
    one,
    phase,
    post,
    refused,
    ship_at,
    sq,
    token,
    when,
)

BLUE4 = {"blue": 4, "red": 1}


def moving(*given, cubes=BLUE4):
    state = fold(base(), list(given), phase("blue", cubes))
    state, _ = when(state, 0, {"type": "choose_action", "colour": "blue"})
    return state


def test_first_move_places_both_ships_on_the_frame_for_free():
    state = moving()
    legal = RULES.legal_commands(state, 0)
    assert legal == [{"type": "place_ship", "ship": 0, "frame": f} for f in range(12)]
    refused(state, {"type": "place_ship", "ship": 1, "frame": 0}, "illegal_command", seat=0)
    refused(state, {"type": "end_action"}, "illegal_command", seat=0)
    refused(state, {"type": "move_ship", "ship": 0, "to": {"frame": 1}}, "illegal_command", seat=0)
    state, events = when(
        state, 0, {"type": "place_ship", "ship": 0, "frame": 2}, {"type": "place_ship", "ship": 1, "frame": 2}
    )
    assert state.players[0].ships == [state.board.frame_node(2)] * 2
    assert state.ap_used == 0 and state.gold_paid == 0
    assert {"type": "end_action"} in RULES.legal_commands(state, 0)
    refused(state, {"type": "place_ship", "ship": 1, "frame": 3}, "illegal_command", seat=0)


def test_sailing_costs_the_distance_and_each_ap_moves_each_ship():
    state = moving(*ship_at(0, 0, sq(4, 12)), *ship_at(0, 1, sq(2, 5)), gold(0, 2))
    state, events = when(state, 0, {"type": "move_ship", "ship": 0, "to": sq(6, 13)})
    assert one(events, "ShipMoved")["distance"] == 3 and state.ap_used == 3
    assert one(events, "ShipMoved")["gold"] == 0
    # ship 1 sails 6: AP used is the larger of the two (6), so 2 gold beyond the 4 free AP
    state, events = when(state, 0, {"type": "move_ship", "ship": 1, "to": sq(3, 1)})
    assert one(events, "ShipMoved")["distance"] == 6 and state.ap_used == 6
    assert one(events, "ShipMoved")["gold"] == 2 and state.players[0].gold == 0
    # ship 0 may still sail 3 more squares for free (6 AP already paid for)
    state, events = when(state, 0, {"type": "move_ship", "ship": 0, "to": sq(4, 12)})
    assert one(events, "ShipMoved")["gold"] == 0 and state.ap_used == 6


def test_sailing_beyond_free_ap_pays_gold_and_is_refused_without_it():
    state = moving(*ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(2, 5)), gold(0, 2))
    # ap_free 4, gold 2: 6 squares at most
    refused(state, {"type": "move_ship", "ship": 0, "to": {"frame": 6}}, "illegal_command", seat=0)
    dests = [c for c in RULES.legal_commands(state, 0) if c["type"] == "move_ship" and c["ship"] == 0]
    board = state.board
    dist = board.distances(state.players[0].ships[0])
    assert all(
        0 < dist[board.nsq + c["to"]["frame"] if "frame" in c["to"] else c["to"]["r"] * board.ncols + c["to"]["c"]] <= 6
        for c in dests
    )
    after, events = when(state, 0, {"type": "move_ship", "ship": 0, "to": sq(3, 1)})
    assert one(events, "ShipMoved")["gold"] == 2 and after.players[0].gold == 0


def test_one_ship_per_water_square_but_frame_spaces_hold_any_number():
    state = moving(*ship_at(1, 0, sq(6, 13)), *ship_at(0, 0, sq(4, 12)), *ship_at(0, 1, sq(5, 12)))
    refused(state, {"type": "move_ship", "ship": 0, "to": sq(6, 13)}, "illegal_command", seat=0)
    refused(state, {"type": "move_ship", "ship": 0, "to": sq(5, 12)}, "illegal_command", seat=0)
    refused(state, {"type": "move_ship", "ship": 0, "to": sq(4, 13)}, "illegal_command", seat=0)  # land
    refused(state, {"type": "move_ship", "ship": 0, "to": sq(4, 12)}, "illegal_command", seat=0)  # no move
    state2 = moving(*ship_at(1, 0, sq(0, 12)), *ship_at(0, 0, sq(1, 12)), *ship_at(0, 1, sq(0, 13)))
    state2, _ = when(
        state2,
        0,
        {"type": "move_ship", "ship": 0, "to": {"frame": 2}},
        {"type": "move_ship", "ship": 1, "to": {"frame": 2}},
    )
    assert state2.players[0].ships == [state2.board.frame_node(2)] * 2


def test_a_post_on_a_one_square_island_discovers_and_completes_it():
    state = moving(*ship_at(0, 0, sq(4, 12)), *ship_at(0, 1, sq(2, 5)))
    assert {"type": "found_trading_post", "ship": 0} in RULES.legal_commands(state, 0)
    after, events = when(state, 0, {"type": "found_trading_post", "ship": 0})
    founded = one(events, "TradingPostFounded")
    assert founded["square"] == sq(4, 13) and founded["discovery_vp"] == 3
    done = one(events, "IslandCompleted")
    assert done["vp"] == 3 and done["chest"] is False
    assert done["scores"] == [{"seat": 0, "posts": 1, "vp": 5}]  # round 1: time value 5
    assert after.players[0].vp == 11 and after.players[0].posts_left == 11


def test_only_the_first_post_on_an_island_gives_discovery_and_a_founding_ship_stops():
    state = moving(*ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1)))
    state, events = when(state, 0, {"type": "found_trading_post", "ship": 0})
    assert one(events, "TradingPostFounded")["discovery_vp"] == 3
    refused(state, {"type": "found_trading_post", "ship": 0}, "illegal_command", seat=0)
    refused(state, {"type": "move_ship", "ship": 0, "to": {"frame": 0}}, "illegal_command", seat=0)
    state, events = when(state, 0, {"type": "found_trading_post", "ship": 1})
    assert one(events, "TradingPostFounded")["discovery_vp"] == 0
    assert state.players[0].vp == 3 and not of_type(events, "IslandCompleted")
    # the ship that did not sail may found in a later action; an occupied TP space may not get a second post
    state, _ = when(state, 0, {"type": "end_action"})
    later = fold(base(), ship_at(1, 0, sq(2, 5)), [post(0, sq(2, 4), 0)], phase("blue", BLUE4, order=(1, 0)))
    later, _ = when(
        later, 1, {"type": "choose_action", "colour": "blue"}, {"type": "place_ship", "ship": 1, "frame": 0}
    )
    refused(later, {"type": "found_trading_post", "ship": 0}, "illegal_command", seat=1)


def test_a_post_needs_a_post_left_and_an_uncovered_tp_space():
    given = [
        {
            "type": "TilePlaced",
            "seat": 1,
            "kind": "neutral",
            "shape": "S1",
            "squares": [sq(2, 4)],
            "island": 0,
            "vp": 0,
            "commodities": [],
            "cost": 0,
            "gold": 0,
        }
    ]
    state = moving(*ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1)), *given)
    refused(state, {"type": "found_trading_post", "ship": 0}, "illegal_command", seat=0)
    no_posts = [post(0, sq(8, 1), 0) for _ in range(12)]
    state = moving(*ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1)), *no_posts)
    assert state.players[0].posts_left == 0
    refused(state, {"type": "found_trading_post", "ship": 1}, "illegal_command", seat=0)


def test_trade_income_p19_gives_a_gold_per_post():
    state = moving(token(0, "P19"), *ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1)))
    after, events = when(state, 0, {"type": "found_trading_post", "ship": 0})
    assert one(events, "TradingPostFounded")["gold"] == 1
    assert after.players[0].gold == state.players[0].gold + 1


def test_fair_winds_p10_adds_eight_before_the_first_move_only():
    state = moving(token(0, "P10"), *ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1)))
    assert {"type": "use_fair_winds"} in RULES.legal_commands(state, 0)
    after, events = when(state, 0, {"type": "use_fair_winds"})
    assert after.ap_free == 12 and after.players[0].tokens["P10"] is True
    after, events = when(after, 0, {"type": "move_ship", "ship": 0, "to": {"frame": 6}})
    assert one(events, "ShipMoved")["gold"] == 0
    moved, _ = when(state, 0, {"type": "move_ship", "ship": 0, "to": sq(1, 5)})
    refused(moved, {"type": "use_fair_winds"}, "illegal_command", seat=0)


def test_end_action_ends_the_turn():
    state = moving(*ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1)))
    after, events = when(state, 0, {"type": "end_action"})
    assert events[0] == {"type": "TurnEnded", "seat": 0} and after.turn_seat == 1


def test_the_distance_to_the_nearest_of_several_squares_is_the_least_of_the_distances_to_each():
    """The evaluation's sailing distance to the nearest open anchor (``Board.distances_from``) is kept by the set
    of anchors: asked again, in any order, it is still the least of the distances from each anchor."""
    board = fold(base()).board
    anchors = sorted(board.anchor_tp)
    for sources in (anchors[:1], anchors[:3], anchors[::2], anchors):

        def nearest(node: int, sources: list[int] = sources) -> int:
            reached = [d for s in sources if (d := board.distances(s)[node]) >= 0]
            return min(reached) if reached else -1

        expected = [nearest(node) for node in range(board.nsq + board.nframe)]
        assert board.distances_from(sources) == expected and -1 in expected and max(expected) > 2
        assert board.distances_from(reversed(sources)) == expected  # kept, whatever the order


def test_a_listed_ship_move_names_its_square_or_frame_space_as_the_board_writes_it():
    """``legal_commands`` lists ship moves made once per board: each names its target as ``node_json`` writes it,
    and each is accepted."""
    state = moving(*ship_at(0, 0, sq(4, 12)), *ship_at(0, 1, sq(2, 5)), gold(0, 2))
    board = state.board
    moves = [c for c in RULES.legal_commands(state, 0) if c["type"] == "move_ship"]
    targets = [c["to"] for c in moves]
    assert {"frame": 0} in targets and sq(6, 13) in targets and sq(4, 12) not in targets
    nodes = [board.nsq + to["frame"] if "frame" in to else to["r"] * board.ncols + to["c"] for to in targets]
    assert targets == [board.node_json(node) for node in nodes]
    assert RULES.legal_commands(state, 0) == RULES.legal_commands(state.clone(), 0)
    for command in moves:
        RULES.decide(state, command, 0, random.Random(0))
