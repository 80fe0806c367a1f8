"""Hidden information (§4.3): views, redaction, reveal_all, reveals, determinize; evaluate and result."""

from __future__ import annotations

import json
import random

from domain.amerigo import RULES
from domain.rng import rng_for
from tests.domain.amerigo.scenario import base, fold, one


def test_view_is_public_and_the_same_for_every_seat():
    state = fold(base(3))
    spectator = RULES.view(state, None)
    json.dumps(spectator)
    for seat in range(3):
        mine = RULES.view(state, seat)
        assert {k: v for k, v in mine.items() if k != "viewer"} == {k: v for k, v in spectator.items() if k != "viewer"}
    pirates = spectator["pirates"]
    assert pirates["revealed"] == [state.pirates[0]] and pirates["hidden_slots"] == 4
    assert "slots" not in pirates and "out" not in pirates
    # the pile's contents are public, its order is not
    assert spectator["progress_pile"] == {"count": 16, "contents": sorted(state.progress_pile)}
    assert all(set(v) == {"count", "contents"} for v in spectator["production_stacks"].values())
    assert spectator["tower"] == {
        c: 7 - spectator["storage"][c] - spectator["action_area"][c] for c in spectator["tower"]
    }


def test_redact_hides_face_down_pirates_and_stack_orders():
    events = base(4)
    placed = RULES.redact(one(events, "PiratesPlaced"), 1)
    assert placed == {"type": "PiratesPlaced", "slots": [None] * 5, "out": None}
    pile = RULES.redact(one(events, "ProgressPileShuffled"), None)
    assert pile["pile"] == [None] * 24
    stacks = RULES.redact(one(events, "ProductionStacksShuffled"), 0)["stacks"]
    assert {m: len(v) for m, v in stacks.items()} == {"II": 30, "III": 10, "IV": 10}
    assert all(v is None for ids in stacks.values() for v in ids)
    revealed = one(events, "PirateRevealed")
    assert RULES.redact(revealed, 0) == revealed
    for event in events:
        if event["type"] not in ("PiratesPlaced", "ProgressPileShuffled", "ProductionStacksShuffled"):
            assert RULES.redact(event, 0) == event


def test_reveals_marks_random_outcomes():
    events = base(2)
    flagged = {e["type"] for e in events if RULES.reveals(e)}
    assert {
        "IslandsAssembled",
        "StackOrderDrawn",
        "PiratesPlaced",
        "ProgressPileShuffled",
        "TowerDropped",
        "ProductionStacksShuffled",
        "ProductionRevealed",
        "ProgressTokensRevealed",
    } <= flagged
    assert not RULES.reveals({"type": "GoldTaken", "seat": 0, "gold": 1})
    assert not RULES.reveals({"type": "TurnEnded", "seat": 0})


def test_reveal_all_shows_everything():
    state = fold(base(4))
    full = RULES.reveal_all(state)
    json.dumps(full)
    assert full["pirates"]["slots"] == state.pirates and full["pirates"]["out"] == state.pirate_out
    assert full["progress_pile"]["order"] == state.progress_pile
    assert full["production_stacks"]["IV"]["order"] == state.prod_stacks["IV"]


def test_determinize_resamples_only_the_hidden_parts():
    state = fold(base(4))
    seen = set()
    for i in range(20):
        det = RULES.determinize(state, 0, random.Random(i))
        assert det.pirates[0] == state.pirates[0]
        assert sorted(det.pirates[1:] + [det.pirate_out]) == sorted(state.pirates[1:] + [state.pirate_out])
        assert sorted(det.progress_pile) == sorted(state.progress_pile)
        assert {m: sorted(v) for m, v in det.prod_stacks.items()} == {
            m: sorted(v) for m, v in state.prod_stacks.items()
        }
        assert RULES.view(det, 0) == RULES.view(state, 0)
        assert det.players == state.players and det.tower == state.tower
        seen.add(tuple(det.progress_pile))
    assert len(seen) > 1
    assert state == fold(base(4))  # the input was not changed


def test_evaluate_prefers_more_points_and_a_greedy_bot_finishes_a_game():
    state = fold(base(2))
    better = RULES.fold([{"type": "ChronicleUsed", "seat": 0, "vp": 10}], state)
    assert RULES.evaluate(better, 0) > RULES.evaluate(state, 0)
    assert RULES.evaluate(better, 1) < RULES.evaluate(state, 1)
    # one-step greedy play for both seats
    events = RULES.setup(11, 2, {})
    state = RULES.fold(events)
    chooser = random.Random(0)
    while not RULES.is_over(state):
        (seat,) = RULES.to_act(state)
        legal = RULES.legal_commands(state, seat)
        if len(legal) > 40:
            legal = chooser.sample(legal, 40)
        best, best_value = None, None
        for command in legal:
            new = RULES.decide(state, command, seat, rng_for(11, len(events)))
            value = RULES.evaluate(RULES.fold(new, state), seat)
            if best_value is None or value > best_value:
                best, best_value = new, value
        events.extend(best)
        state = RULES.fold(best, state)
    result = RULES.result(state)
    assert sorted(result.ranks) == [1, 2] and max(result.scores) > 0
