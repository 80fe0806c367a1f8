"""Benchmark: full random games of any hosted game (legal_commands + decide + evolve at every step), one core.

Run from the repository root: ``python benchmarks/random_games.py GAME [games_per_count] [--seats 2,3,4]``.
Prints games per second per player count (per second of this process's CPU time, which is what one core
delivers even on a busy machine, and per wall-clock second) and the mean number of decisions per game.
Puerto Rico also has ``benchmarks/puerto_rico_random_games.py``, which measures its in-place fast path.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain import registry  # noqa: E402
from domain.game import Rules  # noqa: E402
from domain.rng import rng_for  # noqa: E402


def play(rules: Rules, seats: int, seed: int) -> int:
    """One uniformly random game; returns the number of decisions."""
    chooser = random.Random(seed)
    events = rules.setup(seed, seats, {})
    state = rules.fold(events)
    version = len(events)
    decisions = 0
    while not rules.is_over(state):
        seat = chooser.choice(sorted(rules.to_act(state)))
        command = chooser.choice(rules.legal_commands(state, seat))
        new_events = rules.decide(state, command, seat, rng_for(seed, version))
        for event in new_events:
            state = rules.evolve(state, event)
        version += len(new_events)
        decisions += 1
    return decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game", choices=registry.names())
    parser.add_argument("games", nargs="?", type=int, default=100, help="games per player count")
    parser.add_argument("--seats", help="player counts, e.g. 2,3,4 (default: every count the game takes)")
    args = parser.parse_args()
    rules = registry.get(args.game)
    counts = [int(s) for s in args.seats.split(",")] if args.seats else range(rules.min_players, rules.max_players + 1)
    for seats in counts:
        wall, cpu = time.perf_counter(), time.process_time()
        decisions = sum(play(rules, seats, 1000 * seats + seed) for seed in range(args.games))
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(
            f"{args.game} {seats} players: {args.games} games, {args.games / cpu:.1f} games/s of CPU time "
            f"({cpu:.2f}s), {args.games / wall:.1f} games/s wall clock, {decisions / args.games:.0f} decisions/game"
        )


if __name__ == "__main__":
    main()
