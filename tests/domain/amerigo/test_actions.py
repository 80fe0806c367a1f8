"""CANNON, PLAN, PROGRESS, BUILD, PRODUCE and SPECIAL (§11.2-§11.7), island completion (§12.3)."""

from __future__ import annotations

from domain.amerigo import RULES
from tests.domain.amerigo.scenario import (
    base,
    fold,
    gold,
    of_type,
    one,
    phase,
    planned,
    post,
    refused,
    sq,
    token,
    when,
)


def acting(colour, cubes, *given, mode=None, order=(0, 1), rnd=1):
    extra = [{"type": "RoundStarted", "round": rnd, "time_value": 6 - rnd}] if rnd != 1 else []
    state = fold(base(), extra, list(given), phase(colour, cubes, order=order, rnd=rnd))
    command = {"type": "choose_action", "colour": colour}
    if mode:
        command["mode"] = mode
    state, _ = when(state, order[0], command)
    return state


# -- CANNON -------------------------------------------------------------------------------------------
def test_cannons_never_pass_twelve():
    state = acting("black", {"black": 5}, {"type": "CannonsLoaded", "seat": 0, "n": 9, "gold": 0})
    assert [c["n"] for c in RULES.legal_commands(state, 0)] == [1, 2, 3]
    after, events = when(state, 0, {"type": "advance", "n": 3})
    assert after.players[0].cannon == 12 and one(events, "TrackOverflowed")["gold"] == 2
    assert after.turn_seat == 1


# -- PLAN ---------------------------------------------------------------------------------------------
def test_plan_village_tiles_cost_one_ap_and_neutral_tiles_their_size():
    state = acting("red", {"red": 4}, gold(0, 3))
    state, events = when(
        state,
        0,
        {"type": "take_tile", "kind": "village", "shape": "S4O"},
        {"type": "take_tile", "kind": "neutral", "shape": "S5U"},
    )
    costs = [e["cost"] for e in of_type(events, "TileTaken")]
    assert costs == [1, 5] and state.ap_used == 6 and state.gold_paid == 2
    assert state.players[0].gold == 1
    refused(state, {"type": "take_tile", "kind": "neutral", "shape": "S1"}, "illegal_command", seat=0)
    assert state.neutral_supply[6] == 3
    assert all(c["kind"] == "village" for c in RULES.legal_commands(state, 0) if c["type"] == "take_tile")
    state, _ = when(state, 0, {"type": "end_action"})
    assert state.players[0].planned[5 + 8] == 1 and state.players[0].planned[6] == 1


def test_plan_refuses_what_is_not_there_or_cannot_be_paid():
    state = acting("red", {"red": 2})
    refused(state, {"type": "take_tile", "kind": "village", "shape": "S5U"}, "illegal_command", seat=0)
    refused(state, {"type": "take_tile", "kind": "neutral", "shape": "S6R"}, "illegal_command", seat=0)
    refused(state, {"type": "take_tile", "kind": "castle", "shape": "S1"}, "invalid_command", seat=0)
    for _ in range(2):
        state, _ = when(state, 0, {"type": "take_tile", "kind": "village", "shape": "S4I"})
    refused(state, {"type": "take_tile", "kind": "village", "shape": "S4I"}, "illegal_command", seat=0)


def test_surveyor_p14_allows_two_neutral_tiles():
    state = acting("red", {"red": 4}, token(0, "P14"))
    state, _ = when(
        state,
        0,
        {"type": "take_tile", "kind": "neutral", "shape": "S2"},
        {"type": "take_tile", "kind": "neutral", "shape": "S2"},
    )
    assert state.neutral_taken == 2
    refused(state, {"type": "take_tile", "kind": "neutral", "shape": "S1"}, "illegal_command", seat=0)


# -- PROGRESS -----------------------------------------------------------------------------------------
def test_progress_takes_a_token_for_each_numbered_space_reached():
    state = acting("brown", {"brown": 4}, gold(0, 2))
    after, events = when(state, 0, {"type": "advance", "n": 6})
    assert one(events, "ProgressAdvanced")["tokens_due"] == 2 and after.stage == "tokens"
    legal = RULES.legal_commands(after, 0)
    assert {c["type"] for c in legal} == {"take_progress_token"} and len(legal) == 8
    refused(after, {"type": "end_action"}, "illegal_command", seat=0)
    first = after.progress_display[6]
    after, _ = when(after, 0, {"type": "take_progress_token", "token": first})
    assert after.turn_seat == 0 and after.progress_display[6] is None
    refused(after, {"type": "take_progress_token", "token": first}, "illegal_command", seat=0)
    after, _ = when(after, 0, {"type": "take_progress_token", "token": after.progress_display[0]})
    assert after.turn_seat == 1 and len(after.players[0].tokens) == 2


def test_progress_below_a_numbered_space_takes_nothing():
    state = acting("brown", {"brown": 2})
    after, events = when(state, 0, {"type": "advance", "n": 2})
    assert one(events, "ProgressAdvanced")["tokens_due"] == 0 and after.turn_seat == 1


def test_progress_crossings_beyond_the_display_give_nothing():
    spaces = ["R1", "R2", "R3", "R4", "L1", "L2", "L3"]
    disp = fold(base()).progress_display
    given = [token(1, t, s) for t, s in zip(disp[:7], spaces)]
    state = acting("brown", {"brown": 6}, *given)
    after, events = when(state, 0, {"type": "advance", "n": 6})
    assert one(events, "ProgressAdvanced")["tokens_due"] == 1


def test_progress_track_ends_at_eighteen_with_overflow():
    state = acting("brown", {"brown": 5}, {"type": "ProgressAdvanced", "seat": 0, "n": 16, "gold": 0, "tokens_due": 0})
    assert [c["n"] for c in RULES.legal_commands(state, 0)] == [1, 2]
    after, events = when(state, 0, {"type": "advance", "n": 2})
    assert one(events, "TrackOverflowed")["track"] == "progress"
    assert after.stage == "tokens" and after.tokens_due == 1


# -- BUILD --------------------------------------------------------------------------------------------
def test_building_needs_an_own_post_on_the_island():
    state = acting("green", {"green": 3}, planned(0, "village", "S1"))
    assert RULES.legal_commands(state, 0) == [{"type": "end_action"}]
    refused(
        state,
        {"type": "place_tile", "kind": "village", "shape": "S1", "squares": [sq(9, 13)]},
        "illegal_command",
        seat=0,
    )


def test_build_completes_a_small_island_picking_up_its_commodity():
    state = acting("green", {"green": 3}, planned(0, "village", "S2"), post(0, sq(10, 13), 8))
    command = {"type": "place_tile", "kind": "village", "shape": "S2", "squares": [sq(9, 13), sq(9, 14)]}
    assert command in RULES.legal_commands(state, 0)
    vp0 = state.players[0].vp
    after, events = when(state, 0, command)
    placed = one(events, "TilePlaced")
    assert placed["vp"] == 1 and placed["commodities"] == ["C"] and placed["cost"] == 1
    done = one(events, "IslandCompleted")
    assert done["scores"] == [{"seat": 0, "posts": 1, "vp": 5}] and done["chest"] is False
    assert after.players[0].vp == vp0 + 1 + 3 + 5 and after.players[0].commodities[0] == 1


def test_build_adjacency_own_post_or_any_tile_on_the_island():
    state = acting(
        "green",
        {"green": 6},
        planned(0, "neutral", "S1"),
        planned(0, "village", "S1"),
        planned(0, "village", "S2"),
        post(0, sq(2, 4), 0),
        gold(0, 5),
    )
    far = {"type": "place_tile", "kind": "neutral", "shape": "S1", "squares": [sq(0, 2)]}
    refused(state, far, "illegal_command", seat=0)
    state, events = when(state, 0, {"type": "place_tile", "kind": "neutral", "shape": "S1", "squares": [sq(2, 3)]})
    assert one(events, "TilePlaced")["vp"] == 3  # big island: 3 per square
    # next to the new tile, not next to the post
    state, events = when(state, 0, {"type": "place_tile", "kind": "village", "shape": "S1", "squares": [sq(1, 3)]})
    assert one(events, "TilePlaced")["vp"] == 2 and one(events, "TilePlaced")["commodities"] == []
    bad = [
        {"type": "place_tile", "kind": "village", "shape": "S2", "squares": [sq(0, 3), sq(0, 2)]},  # unsorted
        {"type": "place_tile", "kind": "village", "shape": "S2", "squares": [sq(0, 2), sq(1, 3)]},  # not S2
        {"type": "place_tile", "kind": "village", "shape": "S2", "squares": [sq(1, 3), sq(1, 4)]},  # covered
        {"type": "place_tile", "kind": "village", "shape": "S2", "squares": [sq(0, 4), sq(0, 5)]},
    ]  # water
    for command in bad:
        refused(state, command, "illegal_command", seat=0)
    refused(
        state,
        {"type": "place_tile", "kind": "village", "shape": "S2", "squares": [sq(0, 2)]},
        "invalid_command",
        seat=0,
    )
    ok = {"type": "place_tile", "kind": "village", "shape": "S2", "squares": [sq(0, 2), sq(0, 3)]}
    assert ok in RULES.legal_commands(state, 0)
    state, events = when(state, 0, ok)
    assert sorted(one(events, "TilePlaced")["commodities"]) == ["S"]


def test_another_players_tile_counts_for_adjacency():
    other = {
        "type": "TilePlaced",
        "seat": 1,
        "kind": "village",
        "shape": "S1",
        "squares": [sq(1, 2)],
        "island": 0,
        "vp": 0,
        "commodities": [],
        "cost": 0,
        "gold": 0,
    }
    state = acting("green", {"green": 3}, planned(0, "village", "S1"), post(0, sq(10, 4), 0), other)
    assert {"type": "place_tile", "kind": "village", "shape": "S1", "squares": [sq(0, 2)]} in RULES.legal_commands(
        state, 0
    )


def test_worked_example_completion_in_round_two():
    """Round 2 (time 4): Red (seat 0) has 3 posts, Blue (seat 1) 1; Blue completes: Blue 3 + 4, Red 24."""
    board = fold(base()).board
    island = 0
    tps = [(2, 4), (3, 2), (8, 1), (10, 4)]
    posts = [post(0, sq(*t), island) for t in tps[:3]] + [post(1, sq(*tps[3]), island)]
    rest = [divmod(s, board.ncols) for s in board.islands[island] if divmod(s, board.ncols) not in tps]
    last = rest.pop()
    cover = [
        {
            "type": "TilePlaced",
            "seat": 0,
            "kind": "neutral",
            "shape": "S1",
            "squares": [sq(*rc)],
            "island": island,
            "vp": 0,
            "commodities": [],
            "cost": 0,
            "gold": 0,
        }
        for rc in rest
    ]
    state = acting("green", {"green": 3}, *posts, *cover, planned(1, "village", "S1"), order=(1, 0), rnd=2)
    vp = [p.vp for p in state.players]
    after, events = when(state, 1, {"type": "place_tile", "kind": "village", "shape": "S1", "squares": [sq(*last)]})
    done = one(events, "IslandCompleted")
    assert done["vp"] == 3 and done["chest"] is True and done["time_value"] == 4
    assert sorted((r["seat"], r["vp"]) for r in done["scores"]) == [(0, 24), (1, 4)]
    assert after.players[1].vp == vp[1] + 2 + 3 + 4  # village on a big island 2, completion 3, posts 4
    assert after.players[0].vp == vp[0] + 24
    assert after.players[1].chests == 1 and after.chest_on[island] is False


# -- PRODUCE ------------------------------------------------------------------------------------------
def test_produce_buys_tokens_at_their_printed_cost():
    state = acting("yellow", {"yellow": 4}, gold(0, 2))
    display = list(state.prod_display)
    cost4 = [t for t in display if t.endswith("-4-2") or t.endswith("-4-1")][0]
    state, events = when(state, 0, {"type": "buy_production", "token": cost4})
    assert one(events, "ProductionBought")["cost"] == 4 and cost4 not in state.prod_display
    cheap = [t for t in state.prod_display if t.split("-")[3] == "2"][0]
    state, events = when(state, 0, {"type": "buy_production", "token": cheap})
    assert one(events, "ProductionBought")["gold"] == 2 and state.players[0].gold == 0
    refused(state, {"type": "buy_production", "token": cost4}, "illegal_command", seat=0)
    assert all(c["type"] == "end_action" for c in RULES.legal_commands(state, 0))
    state, _ = when(state, 0, {"type": "end_action"})
    assert state.players[0].production == [cost4, cheap]


# -- SPECIAL ------------------------------------------------------------------------------------------
def test_special_advance_lands_on_top_of_a_stack_from_the_next_phase():
    given = {"type": "SpecialAdvanced", "seat": 1, "n": 3, "gold": 0, "position": 3}
    state = acting("white", {"white": 3}, given, mode="advance", order=(0, 1))
    assert state.order == [1, 0]
    after, _ = when(state, 0, {"type": "advance", "n": 3})
    assert after.players[0].special == 3 and after.order == [0, 1]
    assert after.turn_seat == 1  # the running phase keeps its order


def test_special_track_ends_at_twenty_with_overflow():
    given = {"type": "SpecialAdvanced", "seat": 0, "n": 19, "gold": 0, "position": 19}
    state = acting("white", {"white": 3}, given, mode="advance")
    after, events = when(state, 0, {"type": "advance", "n": 1})
    assert after.players[0].special == 20 and one(events, "TrackOverflowed")["track"] == "special"


def test_fast_passage_p16_jumps_on_top_of_the_first_player():
    given = [{"type": "SpecialAdvanced", "seat": 0, "n": 7, "gold": 0, "position": 7}, token(1, "P16")]
    state = acting("white", {"white": 1}, *given, mode="advance", order=(1, 0))
    assert {"type": "use_fast_passage"} in RULES.legal_commands(state, 1)
    after, events = when(state, 1, {"type": "use_fast_passage"})
    assert one(events, "FastPassageUsed")["position"] == 7
    assert after.order == [1, 0] and after.players[1].special == 7 and after.players[1].tokens["P16"]
    first = acting("white", {"white": 1}, token(0, "P16"), mode="advance")
    refused(first, {"type": "use_fast_passage"}, "illegal_command", seat=0)


def test_a_disc_that_does_not_move_keeps_its_place_in_the_stack():
    given = [
        {"type": "SpecialAdvanced", "seat": 0, "n": 20, "gold": 0, "position": 20},
        {"type": "SpecialAdvanced", "seat": 1, "n": 20, "gold": 0, "position": 20},
    ]
    state = acting("white", {"white": 2}, *given, mode="advance", order=(0, 1))
    assert state.order == [1, 0]
    after, events = when(state, 0, {"type": "advance", "n": 0})
    assert after.order == [1, 0] and one(events, "TrackOverflowed")["gold"] == 2
