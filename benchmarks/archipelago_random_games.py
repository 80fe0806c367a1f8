"""Benchmark: full random Archipelago games (legal_commands + decide + evolve at every step) on one core.

Run from the repository root: ``python benchmarks/archipelago_random_games.py [games_per_count] [length]``.
Prints games per second per player count (per second of this process's CPU time, which is what one core
delivers even on a busy machine, and per wall-clock second) and the mean number of decisions per game.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.archipelago import RULES  # noqa: E402
from domain.rng import rng_for  # noqa: E402


def play(seats: int, seed: int, length: str) -> int:
    chooser = random.Random(seed)
    events = RULES.setup(seed, seats, {"length": length})
    state = RULES.fold(events)
    version = len(events)
    decisions = 0
    while not RULES.is_over(state):
        seat = chooser.choice(sorted(RULES.to_act(state)))
        command = chooser.choice(RULES.legal_commands(state, seat))
        new_events = RULES.decide(state, command, seat, rng_for(seed, version))
        for event in new_events:
            state = RULES.evolve(state, event)
        version += len(new_events)
        decisions += 1
    return decisions


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    length = sys.argv[2] if len(sys.argv) > 2 else "medium"
    for seats in (2, 3, 4, 5):
        wall = time.perf_counter()
        cpu = time.process_time()
        decisions = sum(play(seats, seed, length) for seed in range(games))
        cpu = time.process_time() - cpu
        wall = time.perf_counter() - wall
        print(
            f"{seats} players ({length}): {games} games, {games / cpu:.2f} games/s of CPU time ({cpu:.2f}s), "
            f"{games / wall:.2f} games/s wall clock, {decisions / games:.0f} decisions/game"
        )


if __name__ == "__main__":
    main()
