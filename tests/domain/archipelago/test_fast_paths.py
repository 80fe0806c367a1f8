"""The bots' fast paths equal the pure rules: constructive legal commands equal the trial of every candidate
(``oracle.py``), and the in-place path (``copy_state``/``play``/``apply_in_place``, the copy-once ``fold``)
reaches the same states as ``decide`` and the per-event ``evolve``."""

from __future__ import annotations

import os
import pickle
import random

import pytest

from domain.archipelago import RULES
from domain.archipelago.decide import PROMPT_COMMANDS, prompt
from domain.archipelago.legal import GENERATORS
from domain.game import IllegalCommand
from domain.rng import rng_for
from tests.domain.archipelago.helpers import new_game
from tests.domain.archipelago.oracle import candidates, trial_legal_commands

# Every position of these games is checked against the trial oracle: a few games cover every prompt, so the count
# is capped (TRADEWINDS_ARCHIPELAGO_ORACLE_GAMES sets it for a long run).
GAMES = int(
    os.environ.get("TRADEWINDS_ARCHIPELAGO_ORACLE_GAMES", min(3, int(os.environ.get("TRADEWINDS_PROPERTY_GAMES", "2"))))
)
OPTIONS = [{"length": "short"}, {"length": "medium", "more_fun": True}, {"length": "short", "no_secrets": True}]


def _positions(seats: int, seed: int, options: dict, steps: int):
    """Every position of a random game (the chooser prefers commands other than declare_end)."""
    rng = random.Random(seed)
    state, _ = new_game(seats, seed, options)
    for i in range(steps):
        if RULES.is_over(state):
            return
        seat = sorted(RULES.to_act(state))[0]
        yield state, seat
        legal = RULES.legal_commands(state, seat)
        cmd = rng.choice([c for c in legal if c["type"] != "declare_end"] or legal)
        state = RULES.fold(RULES.decide(state, cmd, seat, rng_for(seed, i)), state)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_constructive_legal_commands_equal_the_trial_of_every_candidate(seats):
    compared = 0
    kinds = set()
    for g in range(GAMES):
        for state, _seat in _positions(seats, 100 * seats + g, OPTIONS[g % len(OPTIONS)], 700):
            for other in range(state.n):
                expected = trial_legal_commands(state, other)
                assert RULES.legal_commands(state, other) == expected, (prompt(state), other)
            compared += 1
            kinds.add(prompt(state)[0])
    assert compared > 100 and {"turn", "bid", "evolution"} <= kinds


def test_every_command_type_has_a_generator():
    types = {t for ts in PROMPT_COMMANDS.values() for t in ts}
    assert types == set(GENERATORS)


def test_generated_commands_are_accepted_and_no_candidate_outside_them_is():
    """The constructive list against ``decide`` itself, on positions where each prompt has many candidates."""
    rng = random.Random(4)
    accepted = refused = 0
    for state, seat in _positions(4, 61, {"length": "short"}, 500):
        if rng.random() > 0.2:
            continue
        legal = RULES.legal_commands(state, seat)
        kind, _ = prompt(state)
        for ctype in PROMPT_COMMANDS[kind]:
            for cmd in candidates(state, seat, kind, ctype)[:40]:
                if cmd in legal:
                    RULES.decide(state, cmd, seat, rng_for(1, 1))
                    accepted += 1
                else:
                    with pytest.raises(IllegalCommand):
                        RULES.decide(state, cmd, seat, rng_for(1, 1))
                    refused += 1
    assert accepted > 50 and refused > 50


@pytest.mark.parametrize("seats", [2, 4, 5])
def test_in_place_path_equals_the_pure_fold_after_every_event(seats):
    for g in range(max(1, GAMES)):
        seed = 500 + 10 * seats + g
        rng = random.Random(seed)
        state, _ = new_game(seats, seed, OPTIONS[g % len(OPTIONS)])
        fast = RULES.copy_state(state)
        applied = RULES.copy_state(state)
        for i in range(2500):
            if RULES.is_over(state):
                break
            seat = sorted(RULES.to_act(state))[0]
            legal = RULES.legal_commands(state, seat)
            assert RULES.legal_commands(fast, seat) == legal
            cmd = rng.choice([c for c in legal if c["type"] != "declare_end"] or legal)
            before = pickle.dumps(state)
            events = RULES.decide(state, cmd, seat, rng_for(seed, i))
            assert pickle.dumps(state) == before, "decide changed its input"
            for ev in events:
                after = RULES.evolve(state, ev)
                assert pickle.dumps(state) == before, f"evolve changed its input on {ev['type']}"
                applied = RULES.apply_in_place(applied, ev)
                assert applied == after, ev["type"]
                state, before = after, pickle.dumps(after)
            assert RULES.play(fast, cmd, seat, rng_for(seed, i)) == events
            assert fast == state
        assert (
            RULES.fold(RULES.setup(seed, seats, OPTIONS[g % len(OPTIONS)]))
            == new_game(seats, seed, OPTIONS[g % len(OPTIONS)])[0]
        )


def test_a_refused_command_leaves_the_in_place_state_unchanged():
    rng = random.Random(2)
    tried = 0
    for state, seat in _positions(3, 71, {"length": "short"}, 400):
        kind, _ = prompt(state)
        for ctype in PROMPT_COMMANDS[kind]:
            for cmd in candidates(state, seat, kind, ctype)[:15]:
                mine = RULES.copy_state(state)
                try:
                    RULES.play(mine, cmd, seat, rng)
                except IllegalCommand:
                    assert mine == state, cmd
                    tried += 1
    assert tried > 100


def _fields_used(source_trees):
    """Per function of the fold modules: the ``st.<field>`` it reads or changes in place, with its helpers'."""
    import ast

    funcs = {n.name: n for tree in source_trees for n in tree.body if isinstance(n, ast.FunctionDef)}
    direct = {}
    for name, fn in funcs.items():
        used, calls = set(), set()
        for node in ast.walk(fn):
            if isinstance(node, ast.Attribute) and getattr(node.value, "id", None) == "st":
                if isinstance(node.ctx, ast.Load):
                    used.add(node.attr)
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Attribute):
                if getattr(node.target.value, "id", None) == "st":
                    used.add(node.target.attr)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in funcs:
                calls.add(node.func.id)
        direct[name] = (used, calls)

    def closure(name, seen):
        used, calls = direct[name]
        out = set(used)
        for c in calls - seen:
            out |= closure(c, seen | {name})
        return out

    return {name: closure(name, {name}) for name in funcs}


def test_evolve_copies_every_container_an_event_handler_uses():
    """``evolve`` copies only the fields an event declares (``on(name, *touches)``); every container field its
    handler uses, directly or through a helper, must be among them, or the fold would change its input."""
    import ast
    import inspect

    from domain.archipelago import evolve, evolve_crises, evolve_map, evolve_market
    from domain.archipelago import fold as E
    from domain.archipelago.state import ArchState

    modules = (evolve, evolve_map, evolve_crises, evolve_market)
    used = _fields_used([ast.parse(inspect.getsource(m)) for m in modules])
    scalars = {k for k, v in vars(ArchState()).items() if isinstance(v, int | str | bool)} | {
        "picker",
        "discard_pending",
    }
    checked = 0
    for event, fn in E._H.items():
        needed = used[fn.__name__] - scalars
        assert needed <= set(E.TOUCHES[event]), (event, sorted(needed - set(E.TOUCHES[event])))
        checked += 1
    assert checked > 80
