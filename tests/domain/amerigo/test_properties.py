"""Property tests over random legal Amerigo games (2, 3 and 4 players)."""

from __future__ import annotations

import copy
import functools
import os
import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.amerigo import RULES
from domain.amerigo.data import PHASE_COLOURS, ROUNDS
from domain.game import IllegalCommand
from domain.rng import rng_for
from tests.domain.amerigo.invariants import check_invariants, check_no_leak
from tests.domain.protocol_checks import play_random_game

GAMES = int(os.environ.get("TRADEWINDS_PROPERTY_GAMES", "8"))


def _checked_game(seats: int, seed: int, purity: bool = False):
    leak_rng = random.Random(seed)
    steps = [0]

    def on_step(state, new_events):
        steps[0] += 1
        check_invariants(state)
        if steps[0] % 7 == 1:
            check_no_leak(state, new_events, leak_rng)

    return play_random_game(RULES, seats, seed, check_purity=purity, on_step=on_step)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_keep_invariants_and_replay(seats):
    for i in range(GAMES):
        seed = 7919 * seats + i
        state, events = _checked_game(seats, seed, purity=(i == 0))
        assert RULES.is_over(state)
        types = [e["type"] for e in events]
        assert types.count("RoundStarted") == ROUNDS
        assert types.count("PiratesAttacked") == ROUNDS
        assert types.count("PhaseStarted") + types.count("PhaseSkipped") == ROUNDS * len(PHASE_COLOURS)
        assert types.count("GameEnded") == 1 and types[-1] == "GameEnded"
        assert state.round == ROUNDS
        res = RULES.result(state)
        assert sorted(res.ranks) == list(range(1, seats + 1))
        assert res.scores == [float(p.vp) for p in state.players]
        assert pickle.loads(pickle.dumps(state)) == state


def _random_states(seats: int, seed: int, every: int = 3):
    """Yield states along one random game."""
    chooser = random.Random(seed)
    events = RULES.setup(seed, seats, {})
    state = RULES.fold(events)
    n = 0
    while not RULES.is_over(state):
        (seat,) = RULES.to_act(state)
        n += 1
        if n % every == 0:
            yield state, seat, len(events)
        legal = RULES.legal_commands(state, seat)
        new = RULES.decide(state, chooser.choice(legal), seat, rng_for(seed, len(events)))
        events.extend(new)
        state = RULES.fold(new, state)


@pytest.mark.parametrize("seats", [2, 4])
def test_legal_commands_are_exactly_what_decide_accepts(seats):
    for seed in range(max(1, GAMES // 4)):
        for state, seat, version in _random_states(seats, 100 + seed, every=5):
            legal = RULES.legal_commands(state, seat)
            assert legal
            before = copy.deepcopy(state)
            keys = set()
            for command in legal:
                key = repr(sorted(command.items()))
                assert key not in keys, f"listed twice: {command}"
                keys.add(key)
                RULES.decide(state, command, seat, rng_for(seed, version))
            for other in range(state.seats):
                if other != seat:
                    assert RULES.legal_commands(state, other) == []
                    with pytest.raises(IllegalCommand) as err:
                        RULES.decide(state, legal[0], other, rng_for(seed, version))
                    assert err.value.code == "not_your_turn"
            # a few unlisted variants are refused
            for command in _mutations(state, legal):
                if repr(sorted(command.items())) in keys:
                    continue
                with pytest.raises(IllegalCommand):
                    RULES.decide(state, command, seat, rng_for(seed, version))
            assert state == before, "decide or legal_commands changed the state"


def _mutations(state, legal):
    out = []
    for command in legal[:6]:
        if "n" in command:
            out.append({**command, "n": command["n"] + 50})
            out.append({**command, "n": -1})
        if "ship" in command:
            out.append({**command, "ship": 2})
        if "to" in command and "frame" in command["to"]:
            out.append({**command, "to": {"frame": state.board.nframe}})
        if "token" in command:
            out.append({**command, "token": "P99"})
        if "shape" in command:
            out.append({**command, "shape": "S9"})
    board = state.board
    out.append({"type": "move_ship", "ship": 0, "to": {"r": 0, "c": board.ncols}})
    out.append({"type": "place_tile", "kind": "neutral", "shape": "S1", "squares": [{"r": 0, "c": 0}]})
    out.append({"type": "take_progress_token", "token": "P01"})
    out.append({"type": "buy_production", "token": "PR-C-II-2-1"})
    out.append({"type": "choose_action", "colour": "purple"})
    return out


def test_determinize_keeps_what_the_seat_knows():
    for state, seat, _v in _random_states(3, 5, every=11):
        det = RULES.determinize(state, seat, random.Random(1))
        assert RULES.view(det, seat) == RULES.view(state, seat)
        assert RULES.legal_commands(det, seat) == RULES.legal_commands(state, seat)
        assert sorted(det.progress_pile) == sorted(state.progress_pile)
        assert det.pirates[: state.pirates_revealed] == state.pirates[: state.pirates_revealed]
        assert isinstance(RULES.evaluate(state, seat), float)


@functools.lru_cache(maxsize=1)
def _mid_game_states():
    states = []
    for seats in (2, 3, 4):
        for i, (state, seat, version) in enumerate(_random_states(seats, 42 + seats, every=4)):
            if i % 6 == 0:
                states.append((state, seat, version))
    return states


_TYPES = [
    "choose_action",
    "take_gold",
    "use_chronicle",
    "pass",
    "place_ship",
    "use_fair_winds",
    "move_ship",
    "found_trading_post",
    "advance",
    "take_tile",
    "take_progress_token",
    "place_tile",
    "buy_production",
    "use_fast_passage",
    "end_action",
    "cash_chest",
    "use_gold_token",
    "bogus",
]
_scalar = st.none() | st.booleans() | st.integers(-5, 40) | st.floats(allow_nan=True) | st.text(max_size=6)
_json = st.one_of(
    _scalar,
    st.lists(_scalar, max_size=4),
    st.dictionaries(st.text(max_size=6), _scalar | st.lists(_scalar, max_size=3), max_size=4),
)
_fields = st.dictionaries(
    st.sampled_from(["colour", "mode", "ship", "frame", "to", "n", "kind", "shape", "squares", "token", "r", "c"]),
    _json
    | st.sampled_from(
        [
            "blue",
            "white",
            "advance",
            "convert",
            "village",
            "neutral",
            "S1",
            "S2",
            "P17",
            {"frame": 1},
            {"r": 3, "c": 4},
            [{"r": 3, "c": 4}],
        ]
    ),
    max_size=4,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    idx=st.integers(0, 10_000),
    kind=st.sampled_from(_TYPES) | _json,
    fields=_fields,
    seat=st.integers(-1, 4) | st.none() | st.text(max_size=2) | st.floats(0, 4) | st.booleans(),
)
def test_decide_only_raises_illegal_command(idx, kind, fields, seat):
    states = _mid_game_states()
    state, turn_seat, version = states[idx % len(states)]
    command = {**fields, "type": kind}
    for who in (seat, turn_seat):
        try:
            RULES.decide(state, command, who, rng_for(1, version))
        except IllegalCommand:
            pass


@settings(max_examples=100, deadline=None)
@given(idx=st.integers(0, 10_000), command=_json)
def test_decide_refuses_non_dict_commands(idx, command):
    states = _mid_game_states()
    state, seat, version = states[idx % len(states)]
    if isinstance(command, dict):
        return
    with pytest.raises(IllegalCommand) as err:
        RULES.decide(state, command, seat, rng_for(1, version))
    assert err.value.code == "invalid_command"


def test_moves_and_placements_are_listed_completely():
    """Brute force: every destination / every S1 and S2 placement decide accepts is listed, and vice versa."""
    checked = {"move": 0, "build": 0}
    for seats in (2, 4):
        for state, seat, version in _random_states(seats, 300 + seats, every=1):
            if state.stage != "act" or state.x not in (0, 4):
                continue
            legal = RULES.legal_commands(state, seat)
            board = state.board
            if state.x == 0 and min(state.players[seat].ships) >= 0 and checked["move"] < 25:
                checked["move"] += 1
                targets = [{"frame": f} for f in range(board.nframe)]
                targets += [{"r": r, "c": c} for r in range(board.nrows) for c in range(board.ncols)]
                candidates = [{"type": "move_ship", "ship": ship, "to": t} for ship in (0, 1) for t in targets]
            elif state.x == 4 and checked["build"] < 25:
                checked["build"] += 1
                candidates = []
                for r in range(board.nrows):
                    for c in range(board.ncols):
                        for kind in ("village", "neutral"):
                            candidates.append(
                                {"type": "place_tile", "kind": kind, "shape": "S1", "squares": [{"r": r, "c": c}]}
                            )
                            if c + 1 < board.ncols:
                                candidates.append(
                                    {
                                        "type": "place_tile",
                                        "kind": kind,
                                        "shape": "S2",
                                        "squares": [{"r": r, "c": c}, {"r": r, "c": c + 1}],
                                    }
                                )
            else:
                continue
            listed = [c for c in legal if c["type"] in ("move_ship", "place_tile")]
            for command in candidates:
                try:
                    RULES.decide(state, command, seat, rng_for(1, version))
                    accepted = True
                except IllegalCommand:
                    accepted = False
                if command["type"] == "place_tile" and command["shape"] not in ("S1", "S2"):
                    continue
                assert accepted == (command in listed), command
    assert checked["move"] > 0 and checked["build"] > 0
