"""Progress tokens (§16). P10, P14, P16, P19 are also covered with their actions (test_move, test_actions),
P11-P13 with the pirates and P17/P18 (end), P22-P24 in final scoring (test_round_end), P21 in test_turns."""

from __future__ import annotations

import pytest

from domain.amerigo import RULES
from domain.amerigo.data import PROGRESS_TOKENS, TOKEN_KIND
from tests.domain.amerigo.scenario import base, fold, gold, one, phase, refused, token, when

ALL = {"blue": 1, "black": 1, "red": 1, "brown": 1, "green": 1, "yellow": 3, "white": 1}  # AP 3


@pytest.mark.parametrize(
    "tok, bonuses",
    [
        ("P01", {"blue": 2}),
        ("P02", {"black": 2}),
        ("P03", {"red": 2}),
        ("P04", {"brown": 2}),
        ("P05", {"green": 2}),
        ("P06", {"yellow": 2}),
        ("P07", {"blue": 1, "red": 1}),
        ("P08", {"brown": 1, "green": 1}),
        ("P09", {"black": 1, "yellow": 1}),
    ],
)
def test_extra_ap_tokens(tok, bonuses):
    state = fold(base(), [token(0, tok)], phase("yellow", ALL))
    for colour in ("blue", "black", "red", "brown", "green", "yellow"):
        _, events = when(state, 0, {"type": "choose_action", "colour": colour})
        assert one(events, "ActionChosen")["ap_free"] == 3 + bonuses.get(colour, 0), colour
    _, events = when(state, 0, {"type": "choose_action", "colour": "white", "mode": "advance"})
    assert one(events, "ActionChosen")["ap_free"] == 3


def test_bonus_tokens_apply_to_the_colour_executed_through_white_convert():
    given = [token(0, "P02"), {"type": "SpecialAdvanced", "seat": 0, "n": 2, "gold": 0, "position": 2}]
    state = fold(base(), given, phase("white", {"white": 2, "black": 1}))
    _, events = when(state, 0, {"type": "choose_action", "colour": "white", "mode": "convert"})
    assert one(events, "ActionChosen")["ap_free"] == 3 + 2


def test_every_token_has_a_kind():
    assert len(PROGRESS_TOKENS) == 24
    assert sorted(TOKEN_KIND) == list(PROGRESS_TOKENS)
    assert [t for t in PROGRESS_TOKENS if TOKEN_KIND[t] == "end"] == ["P22", "P23", "P24"]
    assert [t for t in PROGRESS_TOKENS if TOKEN_KIND[t] == "once"] == ["P10", "P16", "P17", "P18", "P21"]


def test_red_green_swap_p15_makes_the_other_colour_available():
    state = fold(base(), [token(0, "P15")], phase("yellow", {"green": 1, "yellow": 4}))
    legal = RULES.legal_commands(state, 0)
    assert {"type": "choose_action", "colour": "red"} in legal
    after, events = when(state, 0, {"type": "choose_action", "colour": "red"})
    assert one(events, "ActionChosen")["ap_free"] == 4 and after.x == 2
    state = fold(base(), [token(0, "P15")], phase("yellow", {"red": 1, "yellow": 2}))
    assert {"type": "choose_action", "colour": "green"} in RULES.legal_commands(state, 0)
    # without the token it is refused
    state = fold(base(), phase("yellow", {"green": 1, "yellow": 4}))
    refused(state, {"type": "choose_action", "colour": "red"}, "illegal_command", seat=0)


def test_red_green_swap_does_not_combine_with_white_convert():
    # disc on space 3 (red), no red cube: convert still executes red with the white cubes only
    given = [token(0, "P15"), {"type": "SpecialAdvanced", "seat": 0, "n": 3, "gold": 0, "position": 3}]
    state = fold(base(), given, phase("white", {"white": 1, "green": 4}))
    _, events = when(state, 0, {"type": "choose_action", "colour": "white", "mode": "convert"})
    chosen = one(events, "ActionChosen")
    assert chosen["executed"] == "red" and chosen["ap_free"] == 4  # max(0 + 1, 4): no green merge


@pytest.mark.parametrize("tok, amount", [("P17", 3), ("P18", 5)])
def test_gold_tokens_any_time_in_own_turn_even_mid_action(tok, amount):
    state = fold(base(), [token(0, tok)], phase("black", {"black": 2}))
    state, _ = when(state, 0, {"type": "choose_action", "colour": "black"})
    assert {"type": "use_gold_token", "token": tok} in RULES.legal_commands(state, 0)
    state, events = when(state, 0, {"type": "use_gold_token", "token": tok})
    assert one(events, "GoldTokenUsed")["gold"] == amount
    assert state.players[0].gold == amount and state.players[0].tokens[tok] is True
    refused(state, {"type": "use_gold_token", "token": tok}, "illegal_command", seat=0)
    state, events = when(state, 0, {"type": "advance", "n": 2 + amount})
    assert one(events, "CannonsLoaded")["gold"] == amount
    other = fold(base(), [token(1, tok)], phase("black", {"black": 2}))
    refused(other, {"type": "use_gold_token", "token": tok}, "not_your_turn", seat=1)
    refused(other, {"type": "use_gold_token", "token": "P01"}, "illegal_command", seat=0)


def test_thrift_p20_takes_gold_by_halves():
    state = fold(base(), [token(0, "P20")], phase("black", {"black": 4, "red": 3}))
    _, events = when(state, 0, {"type": "take_gold"})
    assert one(events, "GoldTaken")["gold"] == 4  # ceil(7 / 2)
    state = fold(base(), phase("black", {"black": 4, "red": 3}))
    _, events = when(state, 0, {"type": "take_gold"})
    assert one(events, "GoldTaken")["gold"] == 3  # ceil(7 / 3)


def test_permanent_tokens_work_from_the_moment_they_are_taken():
    state = fold(base(), [gold(0, 3)], phase("brown", {"brown": 3, "black": 1}))
    state, _ = when(state, 0, {"type": "choose_action", "colour": "brown"}, {"type": "advance", "n": 3})
    assert state.stage == "tokens"
    display = state.progress_display
    assert "P02" in display  # the seeded display holds Extra black
    state, _ = when(state, 0, {"type": "take_progress_token", "token": "P02"})
    nxt = fold(
        base(),
        [gold(0, 3)],
        phase("brown", {"brown": 3, "black": 1}),
        [e for e in _events_of(state)],
        phase("black", {"black": 2}),
    )
    _, events = when(nxt, 0, {"type": "choose_action", "colour": "black"})
    assert one(events, "ActionChosen")["ap_free"] == 4


def _events_of(state):
    return [token(0, t) for t in state.players[0].tokens]
