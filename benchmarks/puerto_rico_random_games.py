"""Benchmark: full random Puerto Rico games on one core.

At every step: legal_commands, a uniformly random choice, then the move is decided and applied.
Two paths are measured: the pure protocol (decide + evolve per event) and the bots' in-place fast path
(``RULES.play``: decide and apply in place, equivalent to the fold, see tests/domain/test_fast_path.py).

One seeded ``random.Random`` per game stands in for the platform's per-version ``rng_for`` (a SHA-256 per
step that is not part of the engine).

Rates are per second of this process's CPU time (one core; the wall-clock rate is shown too, and is lower
when the machine is shared).

Run from the repo root: python benchmarks/puerto_rico_random_games.py [games per player count]
"""

from __future__ import annotations

import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from domain.puerto_rico import RULES  # noqa: E402


def play_pure(seats: int, seed: int) -> int:
    chooser = random.Random(seed)
    rng = random.Random(seed ^ 0x5EED)
    state = RULES.fold(RULES.setup(seed, seats, {}))
    steps = 0
    while not RULES.is_over(state):
        seat = state.current
        legal = RULES.legal_commands(state, seat)
        command = chooser.choice(legal)
        for event in RULES.decide(state, command, seat, rng):
            state = RULES.evolve(state, event)
        steps += 1
    return steps


def play_fast(seats: int, seed: int) -> int:
    chooser = random.Random(seed)
    rng = random.Random(seed ^ 0x5EED)
    state = RULES.fold(RULES.setup(seed, seats, {}))
    steps = 0
    while not RULES.is_over(state):
        seat = state.current
        legal = RULES.legal_commands(state, seat)
        RULES.play(state, chooser.choice(legal), seat, rng)
        steps += 1
    return steps


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for label, fn in (("pure decide+evolve", play_pure), ("fast path (play)", play_fast)):
        for seats in (2, 3, 4, 5):
            start, cpu_start = time.perf_counter(), time.process_time()
            decisions = 0
            for seed in range(games):
                decisions += fn(seats, seed)
            wall = time.perf_counter() - start
            cpu = time.process_time() - cpu_start
            print(
                f"{label:20s} {seats} players: {games / cpu:7.1f} games/s of CPU ({games / wall:7.1f} wall), "
                f"{decisions / games:6.1f} decisions/game, {decisions / cpu:8.0f} decisions/s"
            )


if __name__ == "__main__":
    main()
