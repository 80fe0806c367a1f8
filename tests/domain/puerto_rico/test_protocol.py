"""Protocol-level checks: decide refuses junk with IllegalCommand only, legal_commands is complete and exact,
the in-place fast path equals the pure fold, views and the greedy heuristic."""

from __future__ import annotations

import copy
import json
import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.game import IllegalCommand
from domain.puerto_rico import RULES
from domain.puerto_rico.data import BUILDING_NAMES, GOODS, TARGET_NAMES
from domain.rng import rng_for
from tests.domain.puerto_rico.helpers import give, new_game

GAMES = int(os.environ.get("TRADEWINDS_PROPERTY_GAMES", "25"))


def _sample_states(seats: int, seed: int, every: int = 7) -> list:
    """States along one random game (every ``every``-th decision)."""
    chooser = random.Random(seed)
    state = RULES.fold(RULES.setup(seed, seats, {}))
    out = []
    steps = 0
    while not RULES.is_over(state):
        if steps % every == 0:
            out.append(state)
        legal = RULES.legal_commands(state, state.current)
        command = chooser.choice(legal)
        for event in RULES.decide(state, command, state.current, rng_for(seed, steps)):
            state = RULES.evolve(state, event)
        steps += 1
    out.append(state)
    return out


STATES = [s for seats in (2, 3, 4, 5) for s in _sample_states(seats, 100 + seats, every=5)]


def _all_commands(state) -> list[dict]:
    out = [{"type": "select_role", "role": r} for r in state.role_names]
    out += [{"type": t} for t in ("pass", "draw_from_hacienda", "take_quarry", "take_colonist")]
    out += [{"type": "take_plantation", "plantation": g} for g in GOODS]
    out += [{"type": "place_colonist", "target": t} for t in TARGET_NAMES]
    out += [{"type": "build", "building": b} for b in BUILDING_NAMES]
    for kind in ("take_good", "sell", "ship_with_wharf", "store_in_warehouse", "keep_barrel"):
        out += [{"type": kind, "good": g} for g in GOODS]
    out += [{"type": "load", "good": g, "ship": i} for g in GOODS for i in range(-1, 4)]
    return out


def test_legal_commands_are_exactly_what_decide_accepts():
    checked = 0
    for state in STATES:
        if RULES.is_over(state):
            for seat in range(state.n):
                assert RULES.legal_commands(state, seat) == []
            continue
        legal = RULES.legal_commands(state, state.current)
        assert legal and len(legal) == len({json.dumps(c, sort_keys=True) for c in legal})
        for seat in range(state.n):
            if seat != state.current:
                assert RULES.legal_commands(state, seat) == []
                try:
                    RULES.decide(state, legal[0], seat, random.Random(1))
                    raise AssertionError("decided out of turn")
                except IllegalCommand as err:
                    assert err.code == "not_your_turn"
        for command in _all_commands(state):
            try:
                events = RULES.decide(state, command, state.current, random.Random(1))
                assert command in legal, f"accepted unlisted {command} at {state.step}"
                assert events
                checked += 1
            except IllegalCommand as err:
                assert command not in legal, f"refused listed {command}: {err.message}"
                assert err.code in ("illegal_command", "invalid_command")
                assert err.message
    assert checked > 100


JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 50)
    | st.floats(allow_nan=False)
    | st.sampled_from(["corn", "coffee", "quarry", "small_market", "captain", "prospector_2", "", "pass"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=8,
)
FIELDS = st.sampled_from(["type", "role", "good", "ship", "building", "target", "plantation", "seat"])
TYPES = st.sampled_from(
    [
        "select_role",
        "pass",
        "draw_from_hacienda",
        "take_plantation",
        "take_quarry",
        "take_colonist",
        "place_colonist",
        "build",
        "take_good",
        "sell",
        "load",
        "ship_with_wharf",
        "store_in_warehouse",
        "keep_barrel",
        "fly",
        "",
    ]
)
COMMANDS = st.one_of(
    JSONISH,
    st.dictionaries(FIELDS, JSONISH, max_size=4),
    st.builds(lambda t, rest: {"type": t, **rest}, TYPES, st.dictionaries(FIELDS, JSONISH, max_size=3)),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(STATES) - 1), COMMANDS, st.integers(-1, 5))
def test_decide_raises_only_illegal_command_on_arbitrary_input(index, command, seat):
    state = STATES[index]
    try:
        events = RULES.decide(state, command, seat, random.Random(0))
    except IllegalCommand as err:
        assert err.code in ("invalid_command", "illegal_command", "not_your_turn", "game_over")
        return
    assert seat == state.current and events


def test_fast_path_is_equivalent_to_the_pure_fold():
    for seats in (2, 3, 4, 5):
        for seed in range(max(2, GAMES // 5)):
            setup = RULES.setup(seed, seats, {})
            fast = RULES.fold(setup)
            pure = RULES.fold(setup)
            log = list(setup)
            chooser = random.Random(seed)
            while not RULES.is_over(fast):
                seat = fast.current
                command = chooser.choice(RULES.legal_commands(fast, seat))
                before = copy.deepcopy(pure) if seed == 0 else None
                decided = RULES.decide(pure, command, seat, rng_for(seed, len(log)))
                played = RULES.play(fast, command, seat, rng_for(seed, len(log)))
                assert played == decided
                for event in decided:
                    previous = pure
                    pure = RULES.evolve(pure, event)
                    if before is not None:  # neither decide nor evolve touched their input
                        assert previous == before
                        before = copy.deepcopy(pure)
                log.extend(played)
                assert fast == pure
            assert RULES.fold(log) == fast


def test_views_are_json_and_hide_vp_chips_option():
    """D23: VP chips public by default; view option to hide them."""
    s = new_game(4, hide_vp_chips=True)
    give(s, 1, vp=7)
    v0 = RULES.view(s, 0)
    json.dumps(v0)
    assert v0["players"][1]["vp_chips"] is None and v0["players"][0]["vp_chips"] == 0
    assert RULES.view(s, 1)["players"][1]["vp_chips"] == 7
    assert RULES.view(s, None)["vp_supply"] == 93
    assert RULES.view(new_game(4), None)["players"][1]["vp_chips"] == 0
    for state in STATES[::10]:
        json.dumps(RULES.view(state, None))
        json.dumps(RULES.reveal_all(state))


def test_determinize_only_reshuffles_the_stack():
    s = STATES[3]
    d = RULES.determinize(s, 0, random.Random(5))
    assert sorted(d.stack) == sorted(s.stack) and d.stack is not s.stack
    d.stack = list(s.stack)
    assert d == s


def test_evaluate_rewards_vp_buildings_production_and_money():
    base = new_game(4)
    e0 = RULES.evaluate(base, 0)
    assert isinstance(e0, float)
    for change in (dict(vp=3), dict(doubloons=9), dict(buildings={"small_market": 0}), dict(tiles={"corn": (2, 2)})):
        s = new_game(4)
        give(s, 0, **change)
        assert RULES.evaluate(s, 0) > e0, change
        assert RULES.evaluate(s, 1) < RULES.evaluate(base, 1) + 1e-9


def test_greedy_bot_beats_random_play():
    wins = 0
    for seed in range(6):
        chooser = random.Random(seed)
        state = RULES.fold(RULES.setup(seed, 3, {}))
        while not RULES.is_over(state):
            seat = state.current
            legal = RULES.legal_commands(state, seat)
            if seat == 0:

                def value(command, state=state, seat=seat):
                    trial = state.copy()
                    RULES.play(trial, command, seat, random.Random(0))
                    return RULES.evaluate(trial, seat)

                command = max(legal, key=value)
            else:
                command = chooser.choice(legal)
            RULES.play(state, command, seat, random.Random(seed))
        wins += RULES.result(state).ranks[0] == 1
    assert wins >= 4


def test_hand_written_copies_cover_every_field():
    import dataclasses
    import pickle

    from domain.puerto_rico.state import Player, PRState

    for state in STATES[::7]:
        clone = state.copy()
        assert clone == state and pickle.loads(pickle.dumps(state)) == state
        for f in dataclasses.fields(PRState):
            value = getattr(clone, f.name)
            if isinstance(value, list):
                assert value is not getattr(state, f.name), f.name
        for a, b in zip(clone.players, state.players, strict=True):
            assert a is not b and a == b
            for f in dataclasses.fields(Player):
                if isinstance(getattr(a, f.name), list):
                    assert getattr(a, f.name) is not getattr(b, f.name)
    assert len(dataclasses.fields(PRState)) == 43 and len(dataclasses.fields(Player)) == 9
