"""Property tests over random legal games (count from TRADEWINDS_PROPERTY_GAMES)."""

from __future__ import annotations

import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from domain.archipelago import RULES
from domain.game import IllegalCommand
from domain.rng import rng_for
from tests.domain.archipelago.helpers import check_invariants, check_no_leak, new_game
from tests.domain.protocol_checks import play_random_game

GAMES = int(os.environ.get("TRADEWINDS_PROPERTY_GAMES", "2"))
MAX_STEPS = 200_000


def _on_step_factory(leak_every: int = 7):
    counter = {"n": 0}

    def on_step(state, events):
        check_invariants(state)
        counter["n"] += 1
        if counter["n"] % leak_every == 0:
            check_no_leak(state, events)
            for ev in events:
                json.dumps(RULES.redact(ev, 0))
            json.dumps(RULES.view(state, None))

    return on_step


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_random_games_finish_conserve_and_replay(seats):
    for g in range(GAMES):
        seed = 1000 * seats + g
        length = ("short", "medium", "long")[g % 3]
        state, events = play_random_game(
            RULES, seats, seed, {"length": length}, max_steps=MAX_STEPS, on_step=_on_step_factory()
        )
        assert RULES.is_over(state)
        assert state.end["cause"] in ("INDEPENDENCE", "DECLARED", "ROUND_CAP")
        check_end_and_phase_order(state, events)


def check_end_and_phase_order(state, events):
    """§12.3: a scored end names its winners; §5: a Phase-4 crisis ends before Phase 5 starts."""
    ended = [e for e in events if e["type"] == "GameEnded"][-1]
    ranks = RULES.result(state).ranks
    if ended["cause"] != "INDEPENDENCE":
        assert ended["winners"] == [s for s in range(state.n) if ranks[s] == 1]
    in_phase4_crisis = False
    for e in events:
        if e["type"] == "CrisisStarted":
            in_phase4_crisis = e["trigger"] == "PHASE4"
        elif e["type"] == "CrisisEnded":
            in_phase4_crisis = False
        elif e["type"] == "PhaseStarted":
            assert not in_phase4_crisis, "Phase 5 started inside a Phase-4 crisis"


VARIANTS = [
    {"start": "desert"},
    {"start": "volcano"},
    {"no_secrets": True},
    {"more_trends": True},
    {"more_fun": True},
    {"choose_trends": "T03,T09"},
    {"good_guys": True},
    {"auto_end": True},
    {"good_guys": True, "more_fun": True, "start": "desert"},
]


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_variants_play_to_the_end(options):
    for g in range(max(1, GAMES // 5)):
        seats = 2 + (g + len(str(options))) % (3 if options.get("more_fun") and options.get("good_guys") else 4)
        state, _ = play_random_game(
            RULES, seats, 77 + g, {"length": "short", **options}, max_steps=MAX_STEPS, on_step=_on_step_factory(11)
        )
        assert RULES.is_over(state)


def test_evolve_is_pure_and_legal_commands_are_accepted():
    rng = random.Random(5)
    state, events = new_game(3, 5, {"length": "short"})
    checked = 0
    for step in range(600):
        if RULES.is_over(state):
            break
        seat = sorted(RULES.to_act(state))[0]
        legal = RULES.legal_commands(state, seat)
        assert legal
        if step % 5 == 0:
            for cmd in legal[:40]:
                RULES.decide(state, cmd, seat, rng_for(1, len(events)))
                checked += 1
            for other in range(state.n):
                if other not in RULES.to_act(state):
                    with pytest.raises(IllegalCommand) as err:
                        RULES.decide(state, legal[0], other, rng_for(1, 1))
                    assert err.value.code == "not_your_turn"
        cmd = rng.choice(legal)
        new = RULES.decide(state, cmd, seat, rng_for(1, len(events)))
        before = pickle_dump(state)
        for ev in new:
            state = RULES.evolve(state, ev)
        assert pickle_dump(RULES.fold(new, RULES.fold(events))) == pickle_dump(state)
        events += new
        assert before is not None
    assert checked > 100


def pickle_dump(state):
    import pickle

    return pickle.dumps(state)


def test_determinize_keeps_what_the_seat_knows():
    rng = random.Random(3)
    for seats in (2, 4):
        state, events = new_game(seats, 11, {"length": "medium"})
        for i in range(300):
            if RULES.is_over(state):
                break
            seat = sorted(RULES.to_act(state))[0]
            if i % 10 == 0:
                for viewer in range(seats):
                    det = RULES.determinize(state, viewer, rng)
                    assert RULES.view(det, viewer) == RULES.view(state, viewer)
                    check_invariants(det)
            cmd = rng.choice([c for c in RULES.legal_commands(state, seat) if c["type"] != "declare_end"])
            new = RULES.decide(state, cmd, seat, rng_for(2, i))
            state = RULES.fold(new, state)


_json = st_.recursive(
    st_.none()
    | st_.booleans()
    | st_.integers(-3, 30)
    | st_.sampled_from(
        [
            "A",
            "B",
            "TOP",
            "PERSONAL",
            "SHARED",
            "DOM",
            "EXP",
            "BUY",
            "SELL",
            "FISH",
            "WOOD",
            "E01",
            "START",
            "c0-0",
            "s0-0",
            "c1-2",
            "C01",
            "P14",
            "W01",
            "MARKET",
            "CUBE",
            "GIVE",
            "GET",
            "OCEAN",
            "E05:PORT",
        ]
    ),
    lambda children: (
        st_.lists(children, max_size=3)
        | st_.dictionaries(
            st_.sampled_from(["q", "r", "kind", "resource", "card", "tile", "grant", "building"]), children, max_size=3
        )
    ),
    max_leaves=6,
)
_TYPES = sorted(__import__("domain.archipelago.decide", fromlist=["HANDLERS"]).HANDLERS) + ["stand", "bogus"]
_FIELDS = [
    "amount",
    "seat",
    "resource",
    "with",
    "tile",
    "unit",
    "icon",
    "market",
    "op",
    "slot",
    "pick",
    "pos",
    "face",
    "rot",
    "mover",
    "ship",
    "to",
    "passengers",
    "citizen",
    "building",
    "builder",
    "tokens",
    "waive",
    "card",
    "victim",
    "cubes",
    "side",
    "item",
    "objective",
    "source",
    "temple",
    "index",
    "rotate",
    "slots",
    "cards",
]


def _mid_states():
    rng = random.Random(9)
    out = []
    for seats in (2, 3, 5):
        state, _ = new_game(seats, 21 + seats, {"length": "long"})
        for i in range(900):
            if RULES.is_over(state):
                break
            if i % 60 == 0:
                out.append(state)
            seat = sorted(RULES.to_act(state))[0]
            legal = [c for c in RULES.legal_commands(state, seat) if c["type"] != "declare_end"]
            state = RULES.fold(RULES.decide(state, rng.choice(legal), seat, rng_for(3, i)), state)
    return out


MID_STATES = _mid_states()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    idx=st_.integers(0, len(MID_STATES) - 1),
    ctype=st_.sampled_from(_TYPES),
    fields=st_.dictionaries(st_.sampled_from(_FIELDS), _json, max_size=5),
    raw=st_.booleans(),
)
def test_decide_accepts_only_illegal_command_errors(idx, ctype, fields, raw):
    state = MID_STATES[idx]
    seats = sorted(RULES.to_act(state)) or [0]
    cmd = fields if raw else {"type": ctype, **fields}
    try:
        RULES.decide(state, cmd, seats[0], rng_for(4, 1))
    except IllegalCommand:
        pass


def test_fast_path_for_bots_equals_the_pure_fold():
    from domain.archipelago.decide import decide_and_apply

    rng = random.Random(8)
    for seats in (2, 5):
        state, _ = new_game(seats, 31, {"length": "short"})
        for i in range(400):
            if RULES.is_over(state):
                break
            seat = sorted(RULES.to_act(state))[0]
            cmd = rng.choice(RULES.legal_commands(state, seat))
            events = RULES.decide(state, cmd, seat, rng_for(6, i))
            fast_events, fast_state = decide_and_apply(state, cmd, seat, rng_for(6, i))
            folded = RULES.fold(events, state)
            assert fast_events == events and fast_state == folded
            state = folded


def test_unlisted_candidate_commands_are_refused():
    from domain.archipelago.decide import PROMPT_COMMANDS, prompt
    from tests.domain.archipelago.oracle import candidates

    rng = random.Random(12)
    state, _ = new_game(4, 17, {"length": "short"})
    refused_count = 0
    for i in range(500):
        if RULES.is_over(state):
            break
        seat = sorted(RULES.to_act(state))[0]
        legal = RULES.legal_commands(state, seat)
        if i % 4 == 0:
            kind, _ = prompt(state)
            for ctype in PROMPT_COMMANDS[kind]:
                for cmd in candidates(state, seat, kind, ctype)[:60]:
                    if cmd not in legal:
                        with pytest.raises(IllegalCommand):
                            RULES.decide(state, cmd, seat, rng_for(1, i))
                        refused_count += 1
        cmd = rng.choice([c for c in legal if c["type"] != "declare_end"] or legal)
        state = RULES.fold(RULES.decide(state, cmd, seat, rng_for(9, i)), state)
    assert refused_count > 50
