"""Property: in random positions of every registered game, every bot level picks a legal command.

TRADEWINDS_PROPERTY_GAMES sets the positions per game and player count (the default keeps this fast)."""

from __future__ import annotations

import os
import random

import pytest

from domain import registry
from domain.bots import make_bot
from domain.rng import rng_for

GAMES = ("puerto_rico", "murano", "amerigo", "archipelago")
POSITIONS = int(os.environ.get("TRADEWINDS_PROPERTY_GAMES", "2"))
POLICIES = ("random", "easy", "mcts:12:4")


def random_position(rules, seats: int, seed: int):
    """Random legal play from a fresh deal, stopped after a random number of decisions."""
    events = rules.setup(seed, seats, {})
    state = rules.fold(events)
    pick = random.Random(seed)
    for _ in range(pick.randrange(0, 160)):
        if rules.is_over(state):
            break
        seat = pick.choice(sorted(rules.to_act(state)))
        command = pick.choice(rules.legal_commands(state, seat))
        for event in rules.decide(state, command, seat, rng_for(seed, len(events))):
            events.append(event)
            state = rules.evolve(state, event)
    return state


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("index", range(POSITIONS))
def test_every_level_chooses_only_legal_commands(game, index):
    rules = registry.get(game)
    seats = rules.min_players + index % (rules.max_players - rules.min_players + 1)
    seed = 7_000 + 31 * index
    state = random_position(rules, seats, seed)
    for _ in range(3):  # the position and the two decisions after it
        if rules.is_over(state):
            break
        for seat in sorted(rules.to_act(state)):
            legal = rules.legal_commands(state, seat)
            for policy in POLICIES:
                for continuing in (False, True):  # as if the seat's own command was the last one played, or not
                    bot = make_bot(policy, seed)
                    choice = bot.choose(rules, state, seat, random.Random(seed), continuing=continuing)
                    assert choice in legal, (game, policy, continuing, choice)
        seat = min(rules.to_act(state))
        command = make_bot("easy", seed).choose(rules, state, seat)
        for event in rules.decide(state, command, seat, rng_for(seed, 999)):
            state = rules.evolve(state, event)
