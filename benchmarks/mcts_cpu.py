"""MCTS iterations per CPU second of this process, on a mid-game position, for any checkout.

    python benchmarks/mcts_cpu.py CHECKOUT GAME [ITERATIONS]

Imports ``domain`` from CHECKOUT (so one copy of this script measures an old and a new tree alike, e.g.
through ``benchmarks/side_by_side.py ... -- $PWD/benchmarks/mcts_cpu.py {tree} murano 200``). The position:
a uniformly random 4-seat game (seed 1) replayed to half its length, moved on to the first decision with a
choice. CPU time rather than wall clock, which a shared machine makes meaningless.
"""

from __future__ import annotations

import random
import sys
import time

sys.path.insert(0, sys.argv[1])

from domain import registry  # noqa: E402
from domain.bots import MCTSBot  # noqa: E402
from domain.rng import rng_for  # noqa: E402


def main() -> None:
    game, iterations = sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 200
    rules = registry.get(game)

    def play(seed: int, stop: int | None):
        chooser = random.Random(seed)
        log = rules.setup(seed, 4, {})
        state = rules.fold(log)
        steps = 0
        while not rules.is_over(state) and (stop is None or steps < stop):
            seat = min(rules.to_act(state))
            command = chooser.choice(rules.legal_commands(state, seat))
            for event in rules.decide(state, command, seat, rng_for(seed, len(log))):
                log.append(event)
                state = rules.evolve(state, event)
            steps += 1
        return state, steps

    _, length = play(1, None)
    target = length // 2
    while True:
        state, _ = play(1, target)
        seat = min(rules.to_act(state))
        if len(rules.legal_commands(state, seat)) > 1:
            break
        target += 1
    bot = MCTSBot(iterations=iterations, rollout_depth=10)
    cpu = time.process_time()
    bot.choose(rules, state, seat, random.Random(0))
    cpu = time.process_time() - cpu
    print(f"MCTS CPU: {bot.last_iterations / cpu:.1f} iterations per CPU second ({game}, {iterations} iterations)")


if __name__ == "__main__":
    main()
