"""Boundaries the other tests left open (found by mutation testing, docs/testing.md), each pinned from the rules
text of docs/rules/amerigo.md: founding without Trade income, the last trading post, progress that adds up,
a built tile's AP and gold, who owns a placed tile, refusal reasons and the result's details."""

from __future__ import annotations

from domain.amerigo import RULES
from tests.domain.amerigo.scenario import base, fold, gold, one, phase, planned, post, refused, ship_at, sq, token, when

BLUE4 = {"blue": 4, "red": 1}


def moving(*given, cubes=BLUE4):
    state = fold(base(), list(given), phase("blue", cubes))
    state, _ = when(state, 0, {"type": "choose_action", "colour": "blue"})
    return state


def acting(colour, cubes, *given):
    state = fold(base(), list(given), phase(colour, cubes))
    state, _ = when(state, 0, {"type": "choose_action", "colour": colour})
    return state


def test_founding_without_trade_income_gives_no_gold():
    """Trade income (P19) gives 1 gold per post founded; without it founding gives none."""
    state = moving(*ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1)))
    after, events = when(state, 0, {"type": "found_trading_post", "ship": 0})
    assert one(events, "TradingPostFounded")["gold"] == 0
    assert after.players[0].gold == state.players[0].gold


def test_the_last_trading_post_can_still_be_founded():
    """Each player has 12 trading posts; a post can be founded while at least one is left."""
    eleven = [post(0, sq(8, 1), 0) for _ in range(11)]
    state = moving(*ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1)), *eleven)
    assert state.players[0].posts_left == 1
    assert {"type": "found_trading_post", "ship": 0} in RULES.legal_commands(state, 0)
    after, _ = when(state, 0, {"type": "found_trading_post", "ship": 0})
    assert after.players[0].posts_left == 0


def test_progress_adds_up_over_actions():
    """PROGRESS: advance on your progress track from where you stand."""
    state = acting("brown", {"brown": 5}, {"type": "ProgressAdvanced", "seat": 0, "n": 3, "gold": 0, "tokens_due": 0})
    after, _ = when(state, 0, {"type": "advance", "n": 1})
    assert after.players[0].progress == 4


def test_building_spends_the_actions_points_then_gold_and_a_neutral_tile_has_no_owner():
    """BUILD: a tile costs its size in AP; AP beyond the phase's AP are paid in gold; a village belongs to its
    builder, a neutral tile to nobody."""
    state = acting("green", {"green": 1}, planned(0, "neutral", "S2"), post(0, sq(2, 4), 0), gold(0, 5))
    command = next(c for c in RULES.legal_commands(state, 0) if c["type"] == "place_tile")
    after, events = when(state, 0, command)
    placed = one(events, "TilePlaced")
    assert placed["cost"] == 2 and placed["gold"] == 1
    assert after.players[0].gold == state.players[0].gold - 1
    assert after.ap_used == 2
    assert RULES.view(after, 1)["board"]["tiles"][-1]["seat"] is None
    village = acting("green", {"green": 1}, planned(0, "village", "S1"), post(0, sq(2, 4), 0))
    command = next(c for c in RULES.legal_commands(village, 0) if c["type"] == "place_tile")
    after, _ = when(village, 0, command)
    assert RULES.view(after, 1)["board"]["tiles"][-1]["seat"] == 0


def test_refusals_say_why():
    state = moving(*ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1)))
    err = refused(state, {"type": "found_trading_post", "ship": 2}, "illegal_command", seat=0)
    assert err.message == "ship must be 0 or 1"


def test_the_result_names_the_special_track_order():
    """Ties are broken by the special-track order (the first player first)."""
    state = fold(base())
    details = RULES.result(state).details
    assert details["special_track_order"] == list(state.order) and "final" in details


def test_catalogue_tables():
    """§2/§3 constants as published: 5 rounds, 6x6 island tiles, the special track's numbered spaces
    {5:1, 8:3, 11:5, 14:8, 17:11, 20:15}, starting gold 0, 1, 2, 3 by stack position, and P23 (Fame) +7 VP."""
    cat = RULES.catalogue()
    board = cat["board"]
    assert board["rounds"] == 5 and board["tile_size"] == 6
    assert board["special_track"]["vp"] == {"5": 1, "8": 3, "11": 5, "14": 8, "17": 11, "20": 15}
    assert board["start_gold_by_stack_position"] == [0, 1, 2, 3]
    tokens = {c["id"]: c for c in cat["components"] if c["kind"] == "progress_token"}
    assert tokens["P23"]["points"] == 7
    assert all(t["points"] is None for k, t in tokens.items() if k != "P23")
    assert cat["codes"]["token_use"] == {
        "perm": "permanent",
        "once": "used once, then flipped",
        "end": "scores at the end",
    }


def test_labels_name_the_track_the_spaces_and_the_white_mode():
    state = acting("brown", {"brown": 5})
    assert RULES.label(state, 0, {"type": "advance", "n": 1})["label"] == "Advance 1 space on the progress track"
    assert RULES.label(state, 0, {"type": "advance", "n": 3})["label"] == "Advance 3 spaces on the progress track"
    white = fold(base(), phase("white", {"white": 3}))
    assert RULES.label(white, 0, {"type": "choose_action", "colour": "white", "mode": "advance"}) == {
        "label": "Take a white cube: advance on the special track"
    }
    assert RULES.label(white, 0, {"type": "choose_action", "colour": "white", "mode": "convert"}) == {
        "label": "Take a white cube: convert to your space's colour"
    }
    assert RULES.label(white, 0, {"type": "choose_action", "colour": "blue"}) == {"label": "Take a blue cube: Move"}


def test_move_refusals_say_why():
    """MOVE: both ships start on the frame; ships sail on water; Fair winds (P10) only before the first move."""
    unplaced = moving()
    err = refused(unplaced, {"type": "move_ship", "ship": 0, "to": sq(2, 5)}, "illegal_command", seat=0)
    assert err.message == "place both ships on the frame first"
    state = moving(token(0, "P10"), *ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1)))
    err = refused(state, {"type": "move_ship", "ship": 0, "to": sq(2, 4)}, "illegal_command", seat=0)
    assert err.message == "ships sail on water only"
    moved, _ = when(state, 0, {"type": "move_ship", "ship": 0, "to": sq(1, 5)})
    err = refused(moved, {"type": "use_fair_winds"}, "illegal_command", seat=0)
    assert err.message == "P10 must be used before the first ship move of the action"


def test_a_disc_on_the_last_progress_space_may_only_stay():
    state = acting("brown", {"brown": 5}, {"type": "ProgressAdvanced", "seat": 0, "n": 18, "gold": 0, "tokens_due": 0})
    err = refused(state, {"type": "advance", "n": 1}, "illegal_command", seat=0)
    assert err.message == "your disc is on the last space: the only legal step is n = 0"


def test_build_and_buy_labels_preview_the_gold_and_the_view_names_the_phase_colour():
    """§10.3: AP beyond the phase's AP are paid in gold (1 gold = 1 AP); the labels say how much."""
    state = acting("green", {"green": 1}, planned(0, "neutral", "S2"), post(0, sq(2, 4), 0), gold(0, 5))
    command = {"type": "place_tile", "kind": "neutral", "shape": "S2", "squares": [sq(1, 3), sq(2, 3)]}
    assert RULES.label(state, 0, command) == {
        "label": "Build the neutral S2 tile at square (1, 3) (pay 1 gold)",
        "cost": 1,
    }
    assert RULES.view(state, 1)["turn"]["colour"] == "green"
    state = acting("yellow", {"yellow": 3}, gold(0, 5))
    assert RULES.label(state, 0, {"type": "buy_production", "token": "PR-K-II-4-2"}) == {
        "label": "Buy a coconut production token (4 AP) (pay 1 gold)",
        "cost": 1,
    }
