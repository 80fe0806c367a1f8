"""Benchmark: full random Amerigo games (decide + evolve + legal_commands at every step, one core).

Run from the repository root: ``python benchmarks/amerigo_random_games.py [games per player count]``.
"""

from __future__ import annotations

import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from domain.amerigo import RULES  # noqa: E402
from domain.rng import rng_for  # noqa: E402


def play(seats: int, seed: int) -> int:
    chooser = random.Random(seed)
    events = RULES.setup(seed, seats, {})
    state = RULES.fold(events)
    version = len(events)
    decisions = 0
    while not RULES.is_over(state):
        (seat,) = RULES.to_act(state)
        legal = RULES.legal_commands(state, seat)
        command = chooser.choice(legal)
        new = RULES.decide(state, command, seat, rng_for(seed, version))
        for event in new:
            state = RULES.evolve(state, event)
        version += len(new)
        decisions += 1
    return decisions


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    for seats in (2, 3, 4):
        start = time.perf_counter()
        cpu_start = time.process_time()
        decisions = 0
        for seed in range(games):
            decisions += play(seats, 1000 * seats + seed)
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        print(
            f"{seats} players: {games / cpu:7.1f} games/s of CPU time ({games / elapsed:.1f} wall-clock), "
            f"{decisions / games:.0f} decisions/game, {games} games"
        )


if __name__ == "__main__":
    main()
