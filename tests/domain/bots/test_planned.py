"""Plan bots: greedy with a game's hand-written strategy evaluation."""

from __future__ import annotations

import random

import pytest

from domain import registry
from domain.bots import make_bot
from domain.bots.planned import PlanBot
from domain.puerto_rico.data import CORN, HARBOR, QUARRY
from domain.puerto_rico.evaluate import evaluate, plan_evaluation
from tests.domain.bots.support import play

PR = registry.get("puerto_rico")


def opening(seats=3):
    return PR.fold(PR.setup(5, seats, {}))


def test_the_shipping_plan_values_corn_and_a_manned_harbor():
    state = opening()
    shipping, building = plan_evaluation("shipping"), plan_evaluation("building")
    player = state.players[0]
    base = shipping(state, 0) - evaluate(state, 0)
    player.tiles[CORN] += 1
    player.manned[CORN] += 1
    player.buildings[HARBOR] = 1
    assert shipping(state, 0) - evaluate(state, 0) > base + 6
    player.tiles[QUARRY] += 1
    assert building(state, 0) - evaluate(state, 0) > 0
    # the bonus is the seat's own: seat 1's plan value does not see seat 0's harbor
    other = state.players[1]
    assert shipping(state, 1) - evaluate(state, 1) == pytest.approx(
        0.8 * other.tiles[CORN] + 0.6 * other.manned[CORN] + 0.25 * sum(other.goods)
    )


def test_unknown_plans_are_refused():
    with pytest.raises(ValueError):
        make_bot("plan:nonsense")
    with pytest.raises(ValueError):
        plan_evaluation("nonsense")


def test_plan_bots_play_legal_games_to_the_end():
    result = play(PR, ["plan:pr-shipping", "plan:pr-building", "easy"], seed=3)
    assert sorted(result.ranks)[0] == 1


def test_a_plan_bot_on_another_game_plays_as_greedy():
    murano = registry.get("murano")
    state = murano.fold(murano.setup(2, 2, {}))
    seat = min(murano.to_act(state))
    planned = PlanBot("pr-shipping", 4).choose(murano, state, seat, random.Random(9))
    greedy = make_bot("greedy", 4).choose(murano, state, seat, random.Random(9))
    assert planned == greedy
