"""Generic checks every game must pass: random legal play, replay, purity, JSON round trips.

Game test modules call ``play_random_game`` from their own property tests.
"""

from __future__ import annotations

import copy
import json
import random

from domain.game import Rules
from domain.rng import rng_for


def roundtrip(obj):
    """Events and commands must survive JSON unchanged (they are stored as JSON)."""
    text = json.dumps(obj, sort_keys=True)
    back = json.loads(text)
    assert back == obj, f"not JSON-stable: {obj!r}"
    return back


def play_random_game(
    rules: Rules,
    seats: int,
    seed: int,
    options: dict | None = None,
    max_steps: int = 20_000,
    check_purity: bool = False,
    on_step=None,
):
    """Play one uniformly random legal game; return (final_state, events).

    After every step: events are JSON-stable, (with ``check_purity``) ``evolve`` left its input
    untouched, and a command whose change to the evaluation the game states (``rules.evaluation_change``)
    changed the seat's ``evaluate`` by exactly that (evaluated on a deep copy, so no evaluation cached for the same
    objects answers). At the end, folding the whole log reproduces the live
    state exactly. ``on_step`` is called as ``on_step(state, events_just_applied)`` for per-game invariants.
    """
    chooser = random.Random(seed)
    events = [roundtrip(e) for e in rules.setup(seed, seats, options or {})]
    state = rules.fold(events)
    if on_step:
        on_step(state, events)
    steps = 0
    while not rules.is_over(state):
        steps += 1
        assert steps <= max_steps, f"game did not finish in {max_steps} decisions"
        acting = sorted(rules.to_act(state))
        assert acting, "nobody may act but the game is not over"
        seat = chooser.choice(acting)
        legal = rules.legal_commands(state, seat)
        assert legal, f"seat {seat} must act but has no legal command"
        command = roundtrip(chooser.choice(legal))
        change = rules.evaluation_change(state, command)
        stated = None if change is None else rules.evaluate(state, seat) + change
        new_events = rules.decide(state, command, seat, rng_for(seed, len(events)))
        assert new_events, f"command {command} produced no events"
        for event in new_events:
            roundtrip(event)
            if check_purity:
                before = copy.deepcopy(state)
                nxt = rules.evolve(state, event)
                assert state == before, f"evolve mutated its input on {event}"
                state = nxt
            else:
                state = rules.evolve(state, event)
        events.extend(new_events)
        if stated is not None:  # on a copy: an evaluation cached by the objects' identity is computed afresh
            assert rules.evaluate(copy.deepcopy(state), seat) == stated, (
                f"{command} changed the evaluation by another amount"
            )
        if on_step:
            on_step(state, new_events)
    assert rules.fold(events) == state, "replaying the log does not reproduce the live state"
    json.dumps(rules.reveal_all(state))
    result = rules.result(state)
    assert len(result.scores) == seats and len(result.ranks) == seats
    assert min(result.ranks) == 1
    return state, events


def lockstep_positions(rules: Rules, seats: int, seed: int, max_steps: int):
    """Every position of one random game played twice at once: by the pure path (``decide_and_apply``, whose
    states are new objects) and by the in-place path (``play``, which changes one state), as ``(pure, live)``
    pairs, the first seat that may act choosing uniformly at random among its legal commands; at most
    ``max_steps`` positions, the last one the end when the game ends sooner."""
    chooser = random.Random(seed)
    state = rules.fold(rules.setup(seed, seats, {}))
    live = rules.copy_state(state)
    for step in range(max_steps):
        yield state, live
        if rules.is_over(state):
            return
        seat = min(rules.to_act(state))
        command = chooser.choice(rules.legal_commands(state, seat))
        _, state = rules.decide_and_apply(state, command, seat, rng_for(seed, step))
        rules.play(live, command, seat, rng_for(seed, step))
