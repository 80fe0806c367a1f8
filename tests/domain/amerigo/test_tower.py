"""The cube tower model (§8) and phases skipped by the tower (§9)."""

from __future__ import annotations

import random

from domain.amerigo import AmerigoRules
from domain.amerigo.data import BLACK, BLUE, SETUP_BATCH
from domain.amerigo.tower import ScriptedTower, StochasticTower
from tests.domain.amerigo.scenario import base, fold, of_type, phase, when


class CountingRandom(random.Random):
    calls = 0

    def random(self):
        self.calls += 1
        return super().random()


def test_nothing_sticks_with_p_zero_and_everything_falls_with_q_one():
    rng = random.Random(3)
    out, tower = StochasticTower(p_stick=0.0).drop(rng, [1, 2], list(SETUP_BATCH))
    assert out[len(out) - 49 :] == list(SETUP_BATCH) and tower in ([1, 2], [1], [2], [])
    assert sorted(out[: len(out) - 49] + tower) == [1, 2]
    out, tower = StochasticTower(p_stick=0.0, q_release=1.0).drop(rng, [1, 2], [BLUE] * 3)
    assert out == [1, 2, BLUE, BLUE, BLUE] and tower == []


def test_released_cubes_come_first_then_the_passing_ones_and_capacity_holds():
    out, tower = StochasticTower(p_stick=1.0, q_release=1.0, capacity=2).drop(random.Random(1), [5, 6], [0, 1, 2])
    assert out == [5, 6, 2] and tower == [0, 1]


def test_each_drop_draws_exactly_one_number_per_cube():
    rng = CountingRandom(9)
    StochasticTower().drop(rng, [1, 2, 3, 4], [0] * 7)
    assert rng.calls == 11


def test_the_reference_parameters_retain_cubes_like_the_physical_tower():
    rng = random.Random(5)
    kept = [len(StochasticTower().drop(rng, [], list(SETUP_BATCH))[1]) for _ in range(300)]
    assert 10 <= sum(kept) / len(kept) <= 14.5 and max(kept) <= 20


def test_an_empty_storage_skips_the_phase_without_a_drop():
    all_black_inside = {"type": "TowerDropped", "colour": "black", "batch": 0, "out": [], "tower": ["black"] * 7}
    state = fold(base(), [all_black_inside], phase("blue", {"blue": 1, "white": 1}))
    assert state.storage[BLACK] == 0
    state, _ = when(state, 0, {"type": "pass"})
    _, events = when(state, 1, {"type": "pass"})
    skipped = of_type(events, "PhaseSkipped")
    assert skipped[0] == {"type": "PhaseSkipped", "round": 1, "colour": "black", "reason": "storage_empty"}
    assert [e["colour"] for e in of_type(events, "TowerDropped")][0] == "red"


def test_a_drop_with_nothing_out_skips_the_phase_and_keeps_the_cubes_inside():
    scripted = ScriptedTower([])
    rules = AmerigoRules(tower=scripted)
    state = rules.fold(base())
    state = rules.fold(phase("blue", {"blue": 1, "white": 1}), state)
    n_black = state.storage[BLACK]
    scripted.results = [([], list(state.tower) + [BLACK] * n_black)]
    state = rules.fold(rules.decide(state, {"type": "pass"}, 0, random.Random(1)), state)
    events = rules.decide(state, {"type": "pass"}, 1, random.Random(2))
    drop = [e for e in events if e["type"] == "TowerDropped"][0]
    assert drop["colour"] == "black" and drop["out"] == [] and drop["batch"] == n_black
    skipped = [e for e in events if e["type"] == "PhaseSkipped"][0]
    assert skipped["colour"] == "black" and skipped["reason"] == "nothing_fell"
    after = rules.fold(events, state)
    assert drop["tower"].count("black") >= n_black
    # the next phase (red) was played normally
    assert after.phase == 2 and after.phase_active


def test_replay_copies_the_recorded_tower_and_never_draws():
    events = base(3)
    state = AmerigoRules(tower=ScriptedTower([([], [])] * 50)).fold(events)
    assert state == fold(events)
