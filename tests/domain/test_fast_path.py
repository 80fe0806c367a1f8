"""The in-place fast path every game declares equals the pure fold, over random games.

For each game whose ``capabilities`` declare a fast path: random legal games are played with ``decide`` and the
pure ``evolve``; beside them a private copy (``copy_state``) is advanced with ``play`` (or ``decide`` then
``apply_in_place``), the way the search bots use it. After every command the events are the same and the two
states are equal (and so are the views and the legal lists). Every few commands the private copy is taken
afresh from the pure state, as a bot does from each determinization. TRADEWINDS_PROPERTY_GAMES sets the
games per player count.
"""

from __future__ import annotations

import copy
import os
import random

import pytest

from domain import registry
from domain.bots.base import in_place_stepper
from domain.game import Rules
from domain.rng import rng_for

GAMES = int(os.environ.get("TRADEWINDS_PROPERTY_GAMES", "3"))
FAST = [
    rules.name
    for rules in registry.all_rules()
    if rules.capabilities.play_in_place or rules.capabilities.apply_in_place
]


def test_puerto_rico_murano_and_amerigo_declare_a_fast_path():
    assert {"puerto_rico", "murano", "amerigo"} <= set(FAST)


def fast_step(rules: Rules, state, command, seat, rng):
    if rules.capabilities.play_in_place:
        return rules.play(state, command, seat, rng), state
    events = rules.decide(state, command, seat, rng)
    for event in events:
        after = rules.apply_in_place(state, event)
        state = state if after is None else after
    return events, state


@pytest.mark.parametrize("name", FAST)
def test_fast_path_equals_the_pure_fold(name):
    rules = registry.get(name)
    for seats in range(rules.min_players, rules.max_players + 1):
        for game in range(GAMES):
            seed = 7000 + 100 * seats + game
            chooser = random.Random(seed)
            log = rules.setup(seed, seats, {})
            pure = rules.fold(log)
            fast = rules.copy_state(pure)
            steps = 0
            while not rules.is_over(pure):
                seat = chooser.choice(sorted(rules.to_act(pure)))
                command = chooser.choice(rules.legal_commands(pure, seat))
                events = rules.decide(pure, command, seat, rng_for(seed, len(log)))
                played, fast = fast_step(rules, fast, command, seat, rng_for(seed, len(log)))
                assert played == events, f"{name} seed {seed} step {steps}: events differ"
                for event in events:
                    pure = rules.evolve(pure, event)
                log.extend(events)
                assert fast == pure, f"{name} seed {seed} step {steps}: states differ after {command}"
                steps += 1
                for acting in sorted(rules.to_act(pure)):
                    assert rules.legal_commands(fast, acting) == rules.legal_commands(pure, acting)
                if steps % 7 == 0:
                    assert rules.view(fast, None) == rules.view(pure, None)
                if steps % 11 == 0:
                    fast = rules.copy_state(pure)
            assert steps > 20
            assert rules.result(fast).as_dict() == rules.result(pure).as_dict()
            assert rules.fold(log) == pure


DECIDE_AND_APPLY = [rules.name for rules in registry.all_rules() if rules.capabilities.decide_and_apply]


def test_every_game_hands_over_the_state_decide_reached():
    assert {"puerto_rico", "murano", "amerigo", "archipelago"} <= set(DECIDE_AND_APPLY)


@pytest.mark.parametrize("name", DECIDE_AND_APPLY)
def test_decide_and_apply_is_decide_then_the_pure_fold(name):
    """``decide_and_apply`` (what the bots' look-ahead steps with) gives ``decide``'s events and the state that
    folding them gives, leaves its input as it was, and a game played on from the states it returns never
    changes an earlier one (they share what did not change, as ``evolve``'s states do)."""
    rules = registry.get(name)
    for seats in range(rules.min_players, rules.max_players + 1):
        seed = 8100 + seats
        chooser = random.Random(seed)
        log = rules.setup(seed, seats, {})
        state = rules.fold(log)
        kept: list[tuple[object, object]] = []
        steps = 0
        while not rules.is_over(state):
            seat = chooser.choice(sorted(rules.to_act(state)))
            command = chooser.choice(rules.legal_commands(state, seat))
            before = copy.deepcopy(state)
            events, after = rules.decide_and_apply(state, command, seat, rng_for(seed, len(log)))
            assert events == rules.decide(state, command, seat, rng_for(seed, len(log)))
            assert after == rules.fold(events, state), f"{name} seed {seed} step {steps}: states differ"
            assert state == before, f"{name} seed {seed} step {steps}: decide_and_apply changed its input"
            if steps % 13 == 0:
                kept.append((state, before))
            log.extend(events)
            state = after
            steps += 1
        assert steps > 20
        assert rules.fold(log) == state
        for old, snapshot in kept:
            assert old == snapshot, f"{name} seed {seed}: a later step changed an earlier state"


@pytest.mark.parametrize("name", FAST)
def test_the_stepper_bots_use_leaves_the_original_untouched(name):
    """The search copies a state once and mutates the copy: the state it was given stays as it was."""
    rules = registry.get(name)
    seed = 99
    chooser = random.Random(seed)
    log = rules.setup(seed, rules.min_players, {})
    state = rules.fold(log)
    stepper = in_place_stepper(rules)
    assert stepper is not None
    for _ in range(40):
        if rules.is_over(state):
            break
        before = rules.fold(log)
        work = rules.copy_state(state)
        seat = min(rules.to_act(state))
        command = chooser.choice(rules.legal_commands(state, seat))
        stepper.step(work, command, seat, random.Random(1))
        assert state == before, f"{name}: the fast path changed the state it copied"
        for event in rules.decide(state, command, seat, random.Random(1)):
            state = rules.evolve(state, event)
            log.append(event)
        assert work == state


@pytest.mark.parametrize("name", registry.names())
def test_evaluate_all_is_evaluate_seat_by_seat(name):
    """The search bots score every seat with one ``evaluate_all``: exactly the seat-by-seat values."""
    rules = registry.get(name)
    seats = rules.max_players
    chooser = random.Random(5)
    log = rules.setup(5, seats, {})
    state = rules.fold(log)
    for step in range(120):
        if rules.is_over(state):
            break
        if step % 6 == 0:
            assert rules.evaluate_all(state) == [rules.evaluate(state, s) for s in range(seats)]
        seat = chooser.choice(sorted(rules.to_act(state)))
        for event in rules.decide(state, chooser.choice(rules.legal_commands(state, seat)), seat, rng_for(5, len(log))):
            log.append(event)
            state = rules.evolve(state, event)
