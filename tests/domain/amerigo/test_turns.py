"""A player's turn (§10): options, availability, action points, gold for AP, overflow, free abilities."""

from __future__ import annotations

import pytest

from domain.amerigo import RULES
from tests.domain.amerigo.scenario import base, fold, gold, of_type, one, phase, refused, token, when

AREA = {"blue": 4, "black": 2, "red": 1, "white": 3}  # 10 cubes, AP 4


def test_take_gold_is_cubes_over_three_rounded_up():
    state = fold(base(), phase("black", AREA))
    state, events = when(state, 0, {"type": "take_gold"})
    assert one(events, "GoldTaken") == {"type": "GoldTaken", "seat": 0, "gold": 4}
    assert state.players[0].gold == 4
    assert state.turn_seat == 1


def test_gold_above_twelve_becomes_vp():
    state = fold(base(), [gold(0, 10)], phase("black", AREA))
    state, _ = when(state, 0, {"type": "take_gold"})
    assert state.players[0].gold == 12 and state.players[0].vp == 2


def test_pass_ends_the_turn_and_changes_nothing():
    state = fold(base(), phase("black", AREA))
    after, events = when(state, 0, {"type": "pass"})
    assert [e["type"] for e in events] == ["Passed", "TurnEnded"]
    assert after.players == state.players and after.turn_seat == 1


def test_only_the_player_in_turn_may_act():
    state = fold(base(), phase("black", AREA, order=(1, 0)))
    assert RULES.to_act(state) == {1}
    refused(state, {"type": "take_gold"}, "not_your_turn", seat=0)
    assert RULES.legal_commands(state, 0) == []


def test_malformed_and_unavailable_choices_are_refused():
    state = fold(base(), phase("black", AREA))
    refused(state, {"type": "choose_action", "colour": "purple"}, "invalid_command", seat=0)
    refused(state, {"type": "choose_action"}, "invalid_command", seat=0)
    refused(state, {"type": "dance"}, "invalid_command", seat=0)
    refused(state, {"type": "choose_action", "colour": "green"}, "illegal_command", seat=0)
    refused(state, {"type": "choose_action", "colour": "white"}, "invalid_command", seat=0)
    refused(state, {"type": "choose_action", "colour": "blue", "mode": "advance"}, "invalid_command", seat=0)
    refused(state, {"type": "advance", "n": 1}, "illegal_command", seat=0)


def test_action_points_are_the_largest_colour_count_for_every_action():
    state = fold(base(), phase("black", AREA))
    for colour in ("blue", "black", "red"):
        _, events = when(state, 0, {"type": "choose_action", "colour": colour})
        assert one(events, "ActionChosen")["ap_free"] == 4
    _, events = when(state, 0, {"type": "choose_action", "colour": "white", "mode": "advance"})
    assert one(events, "ActionChosen")["ap_free"] == 4


def test_extra_ap_are_bought_with_gold_one_for_one():
    state = fold(base(), [gold(0, 2)], phase("black", {"black": 3, "red": 1}))
    state, _ = when(state, 0, {"type": "choose_action", "colour": "black"})
    assert [c["n"] for c in RULES.legal_commands(state, 0)] == [1, 2, 3, 4, 5]
    refused(state, {"type": "advance", "n": 6}, "illegal_command", seat=0)
    after, events = when(state, 0, {"type": "advance", "n": 5})
    assert one(events, "CannonsLoaded") == {"type": "CannonsLoaded", "seat": 0, "n": 5, "gold": 2}
    assert after.players[0].gold == 0 and after.players[0].cannon == 5
    assert not of_type(events, "TrackOverflowed")


def test_track_overflow_pays_two_gold_when_free_ap_are_lost():
    given = [{"type": "CannonsLoaded", "seat": 0, "n": 10, "gold": 0}]
    state = fold(base(), given, phase("black", {"black": 4}))
    state, _ = when(state, 0, {"type": "choose_action", "colour": "black"})
    gold_before = state.players[0].gold
    after, events = when(state, 0, {"type": "advance", "n": 2})
    assert one(events, "TrackOverflowed") == {"type": "TrackOverflowed", "seat": 0, "track": "cannon", "gold": 2}
    assert after.players[0].cannon == 12 and after.players[0].gold == gold_before + 2


def test_no_overflow_when_landing_exactly_or_stopping_short():
    given = [{"type": "CannonsLoaded", "seat": 0, "n": 9, "gold": 0}]
    state = fold(base(), given, phase("black", {"black": 3}))
    state, _ = when(state, 0, {"type": "choose_action", "colour": "black"})
    _, events = when(state, 0, {"type": "advance", "n": 3})
    assert not of_type(events, "TrackOverflowed")
    _, events = when(state, 0, {"type": "advance", "n": 2})
    assert not of_type(events, "TrackOverflowed")


def test_no_overflow_when_the_last_space_is_reached_with_bought_ap():
    given = [{"type": "CannonsLoaded", "seat": 0, "n": 9, "gold": 0}, gold(0, 1)]
    state = fold(base(), given, phase("black", {"black": 2}))
    state, _ = when(state, 0, {"type": "choose_action", "colour": "black"})
    _, events = when(state, 0, {"type": "advance", "n": 3})
    assert one(events, "CannonsLoaded")["gold"] == 1
    assert not of_type(events, "TrackOverflowed")


def test_on_the_last_space_only_zero_is_legal_and_gives_two_gold():
    given = [{"type": "CannonsLoaded", "seat": 0, "n": 12, "gold": 0}]
    state = fold(base(), given, phase("black", {"black": 1}))
    state, _ = when(state, 0, {"type": "choose_action", "colour": "black"})
    assert RULES.legal_commands(state, 0) == [{"type": "advance", "n": 0}]
    refused(state, {"type": "advance", "n": 1}, "illegal_command", seat=0)
    after, events = when(state, 0, {"type": "advance", "n": 0})
    assert one(events, "TrackOverflowed")["gold"] == 2


def test_white_convert_uses_the_colour_of_the_special_space():
    given = [{"type": "SpecialAdvanced", "seat": 0, "n": 2, "gold": 0, "position": 2}]  # space 2 is black
    state = fold(base(), given, phase("white", {"blue": 4, "black": 2, "white": 3}))
    _, events = when(state, 0, {"type": "choose_action", "colour": "white", "mode": "convert"})
    chosen = one(events, "ActionChosen")
    assert chosen["executed"] == "black" and chosen["ap_free"] == 5  # max(2 + 3, 4)
    state2 = fold(base(), given, phase("white", {"blue": 6, "black": 2, "white": 3}))
    _, events = when(state2, 0, {"type": "choose_action", "colour": "white", "mode": "convert"})
    assert one(events, "ActionChosen")["ap_free"] == 6


def test_white_convert_needs_a_coloured_space_and_a_white_cube():
    state = fold(base(), phase("white", {"blue": 4, "white": 1}))
    refused(state, {"type": "choose_action", "colour": "white", "mode": "convert"}, "illegal_command", seat=0)
    assert {"type": "choose_action", "colour": "white", "mode": "convert"} not in RULES.legal_commands(state, 0)
    state = fold(base(), phase("white", {"blue": 4}))
    refused(state, {"type": "choose_action", "colour": "white", "mode": "advance"}, "illegal_command", seat=0)


def test_white_convert_runs_the_converted_action_with_its_steps():
    given = [{"type": "SpecialAdvanced", "seat": 0, "n": 4, "gold": 0, "position": 4}]  # brown
    state = fold(base(), given, phase("white", {"white": 2, "red": 1}))
    state, _ = when(state, 0, {"type": "choose_action", "colour": "white", "mode": "convert"})
    assert state.x == 3 and state.ap_free == 2
    state, events = when(state, 0, {"type": "advance", "n": 2})
    assert state.players[0].progress == 2 and state.turn_seat == 1


@pytest.mark.parametrize("free, expected", [({"type": "cash_chest"}, 3)])
def test_free_abilities_only_in_own_turn(free, expected):
    given = [{"type": "IslandCompleted", "seat": 0, "island": 0, "vp": 0, "chest": True, "scores": []}]
    state = fold(base(), given, phase("black", AREA))
    after, events = when(state, 0, free)
    assert one(events, "ChestCashed")["gold"] == expected
    assert after.players[0].chests == 0 and after.players[0].gold == expected
    assert after.turn_seat == 0 and after.stage == "choose"  # the turn goes on
    refused(after, free, "illegal_command", seat=0)
    other = fold(base(), given, phase("black", AREA, order=(1, 0)))
    refused(other, free, "not_your_turn", seat=0)


def test_game_over_refuses_everything():
    from tests.domain.protocol_checks import play_random_game

    state, _ = play_random_game(RULES, 2, 3)
    refused(state, {"type": "pass"}, "game_over", seat=0)
    assert RULES.to_act(state) == set() and RULES.legal_commands(state, 0) == []


def test_chronicle_is_a_whole_turn_worth_the_cubes():
    state = fold(base(), [token(0, "P21")], phase("black", AREA))
    assert {"type": "use_chronicle"} in RULES.legal_commands(state, 0)
    after, events = when(state, 0, {"type": "use_chronicle"})
    assert one(events, "ChronicleUsed")["vp"] == 10
    assert after.players[0].vp == 10 and after.players[0].tokens["P21"] is True
    assert after.turn_seat == 1
    back = fold(base(), [token(0, "P21")], phase("black", AREA), events, phase("red", AREA))
    refused(back, {"type": "use_chronicle"}, "illegal_command", seat=0)
