"""The decider skeleton (domain/decider.py): one order of opening checks and one set of field parsers for every
game on it, held by scenarios over each game and by hostile input (forged seats, non-objects, bools)."""

from __future__ import annotations

import random

import pytest

from domain import registry
from domain.decider import Recorder, int_field, name_field, open_command, str_field
from domain.game import IllegalCommand, InvalidOptions
from tests.domain.scenario import Scenario

SKELETON_GAMES = ["puerto_rico", "murano", "amerigo", "archipelago"]


def opened(name: str, seats: int = 3):
    rules = registry.get(name)
    state = rules.fold(rules.setup(11, seats, {}))
    (seat,) = rules.to_act(state)
    return Scenario(rules), state, seat


@pytest.mark.parametrize("name", SKELETON_GAMES)
def test_not_set_up_comes_first(name):
    game = Scenario(registry.get(name))
    game.refused(game.rules.initial_state(), {"type": "pass"}, "illegal_command", seat=0)
    game.refused(game.rules.initial_state(), "garbage", "illegal_command", seat=True)


@pytest.mark.parametrize("name", SKELETON_GAMES)
def test_a_command_that_is_not_an_object_is_invalid_whoever_sends_it(name):
    game, state, seat = opened(name)
    for command in (None, "pass", ["pass"], 3):
        game.refused(state, command, "invalid_command", seat=seat)
        game.refused(state, command, "invalid_command", seat=(seat + 1) % 3)


@pytest.mark.parametrize("name", SKELETON_GAMES)
def test_the_seat_is_checked_before_the_command_type(name):
    game, state, seat = opened(name)
    other = (seat + 1) % 3
    game.refused(state, {"type": "no_such_command"}, "not_your_turn", seat=other)
    game.refused(state, {"type": "no_such_command"}, "invalid_command", seat=seat)
    game.refused(state, {"type": 7}, "invalid_command", seat=seat)
    game.refused(state, {}, "invalid_command", seat=seat)


@pytest.mark.parametrize("name", SKELETON_GAMES)
@pytest.mark.parametrize("forged", [True, False, -1, 99, "0", 0.0, [0]])
def test_forged_seats_are_not_your_turn(name, forged):
    game, state, seat = opened(name)
    legal = game.rules.legal_commands(state, seat)[0]
    if forged == seat and type(forged) is int:
        pytest.skip("that seat may act")
    game.refused(state, legal, "not_your_turn", seat=forged)


@pytest.mark.parametrize("name", SKELETON_GAMES)
def test_the_seat_count_is_checked_the_same_way(name):
    rules = registry.get(name)
    for seats in (rules.min_players - 1, rules.max_players + 1, True, "3", 2.5):
        with pytest.raises(InvalidOptions, match=f"takes {rules.min_players} to {rules.max_players} players"):
            rules.setup(1, seats, {})


def test_open_command_order_on_its_own():
    def code(**kw):
        args = {"started": True, "over": False, "acting": (1,), "known": {"go"}} | kw
        command, seat = args.pop("command", {"type": "go"}), args.pop("seat", 1)
        try:
            return open_command(command, seat, **args)
        except IllegalCommand as err:
            return err.code

    assert code() == "go"
    assert code(started=False, over=True) == "illegal_command"
    assert code(over=True, seat=0) == "game_over"
    assert code(command=[], seat=0) == "invalid_command"
    assert code(command={"type": "stop"}, seat=0) == "not_your_turn"
    assert code(command={"type": "stop"}) == "invalid_command"
    assert code(seat=True, acting=(True,)) == "not_your_turn"


def test_field_parsers_refuse_what_json_can_forge():
    def code(parse, command, *args):
        try:
            return parse(command, *args)
        except IllegalCommand as err:
            return err.code

    assert code(int_field, {"n": 3}, "n") == 3
    for bad in (True, "3", 3.0, None, [3]):
        assert code(int_field, {"n": bad}, "n") == "invalid_command"
    assert code(int_field, {}, "n") == "invalid_command"
    assert code(str_field, {"s": "a"}, "s") == "a"
    assert code(str_field, {"s": 1}, "s") == "invalid_command"
    table = {"corn": 0, "sugar": 3}
    assert code(name_field, {"good": "sugar"}, "good", table) == 3
    for bad in ("gold", "__class__", 0, None, ["corn"]):
        assert code(name_field, {"good": bad}, "good", table) == "invalid_command"


def test_the_recorder_applies_then_records_in_order():
    seen: list[tuple[int, str]] = []
    rec = Recorder([], lambda state, event: state.append(event["type"]) or seen.append((len(state), event["type"])))
    rec.emit({"type": "A"})
    rec.emit({"type": "B"})
    assert rec.state == ["A", "B"] and rec.events == [{"type": "A"}, {"type": "B"}]
    assert seen == [(1, "A"), (2, "B")]


@pytest.mark.parametrize("name", SKELETON_GAMES)
def test_a_legal_command_played_through_the_scaffold_agrees_with_the_fast_path(name):
    game, state, seat = opened(name)
    chooser = random.Random(3)
    for _ in range(15):
        if game.rules.is_over(state):
            break
        seat = chooser.choice(sorted(game.rules.to_act(state)))  # Archipelago's objectives: every seat at once
        _, state = game.when(state, chooser.choice(game.rules.legal_commands(state, seat)), seat)
