"""Time per move of every bot level in every game, over mid-game positions.

Usage::

    python benchmarks/bot_move_time.py [POSITIONS] [--games-list ...] [--levels easy,medium,hard] [--players 3]

For each game, one game is played by ``easy`` bots and ``POSITIONS`` (default 20) positions are taken
evenly from its middle half. Each level then chooses a move in every position exactly as a worker runs
it (``workers.jobs``): the level's wall-clock budget (``budget_ms``) is enforced through ``should_stop``
alongside its iteration budget, and a position that goes on the seat's own step (its command was the last one
played) is chosen with ``continuing``, so a game's plan (``Rules.plan_weight``) plays there. Printed per game
and level: min / median / max seconds per move, the level's budget, MCTS iterations done (median), and the
median as a ratio to the ``random`` bot's median in the same positions (the anchor: listing the legal commands
and picking one), and in how many positions an MCTS level's clock stopped its search short of its iteration budget
(the target: none, on a quiet machine).

``--no-clock`` leaves the wall-clock budgets out, so each search runs to its iteration budget whatever the
machine's load, and prints per level the CPU seconds its moves took and a digest of the moves chosen: run in two
checkouts, after a change meant only to make the bots faster, the digests agree and the CPU seconds compare.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain import registry  # noqa: E402
from domain.bots import LEVELS, make_bot  # noqa: E402
from domain.rng import rng_for  # noqa: E402

GAMES = ("puerto_rico", "murano", "amerigo", "archipelago")
BUDGETS = {"easy": 0.2, "medium": 1.0, "hard": 5.0}  # seconds a waiting human accepts (issue 17)


def positions(rules, players: int, count: int, seed: int) -> list[tuple[object, int, bool]]:
    """(state, seat to move, whether the seat's own command was the last one played) at ``count`` positions."""
    events = rules.setup(seed, players, {})
    state = rules.fold(events)
    bots = [make_bot("easy", seed + s) for s in range(players)]
    seen = []
    previous = -1
    while not rules.is_over(state):
        seat = min(rules.to_act(state))
        seen.append((state, seat, seat == previous))
        command = bots[seat].choose(rules, state, seat, continuing=seat == previous)
        previous = seat
        for event in rules.decide(state, command, seat, rng_for(seed, len(events))):
            events.append(event)
            state = rules.evolve(state, event)
    middle = seen[len(seen) // 4 : 3 * len(seen) // 4]
    step = max(1, len(middle) // count)
    return middle[::step][:count]


def time_level(
    rules, level: str, spots, seed: int, clock: bool = True, chosen: list | None = None
) -> tuple[list[float], list[int]]:
    """Seconds per move and MCTS iterations of ``level`` in each of ``spots``; ``clock``: with the level's
    wall-clock budget; ``chosen``: a list the moves are appended to."""
    times, iterations = [], []
    for index, (state, seat, continuing) in enumerate(spots):
        bot = make_bot(level, seed + index)
        budget_ms = getattr(bot, "budget_ms", None) if clock else None
        started = time.monotonic()
        deadline = None if budget_ms is None else started + budget_ms / 1000.0

        def should_stop(deadline=deadline) -> bool:
            return deadline is not None and time.monotonic() >= deadline

        rng = rng_for(seed, index, "move-time")
        command = bot.choose(rules, state, seat, rng, should_stop=should_stop, continuing=continuing)
        if chosen is not None:
            chosen.append(command)
        times.append(time.monotonic() - started)
        iterations.append(getattr(bot, "last_iterations", 0))
    return times, iterations


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("positions", type=int, nargs="?", default=20)
    parser.add_argument("--games-list", default=",".join(GAMES))
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--no-clock", action="store_true", help="iteration budgets only; print CPU seconds and moves")
    args = parser.parse_args(argv)
    print(f"time per move over {args.positions} mid-game positions, {args.players} players, seed {args.seed}")
    print(
        "| game | level | budget | min s | median s | max s | within budget | MCTS iterations (median) |"
        " stopped by the clock | median / random median |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for game in args.games_list.split(","):
        rules = registry.get(game)
        spots = positions(rules, args.players, args.positions, args.seed)
        print(
            f"{game}: {sum(spot[2] for spot in spots)} of {len(spots)} positions go on the seat's own step", flush=True
        )
        anchor, _ = time_level(rules, "random", spots, args.seed)
        base = statistics.median(anchor) or 1e-9
        cpu: list[str] = []
        for level in args.levels.split(","):
            chosen: list = []
            began = time.process_time()
            times, iterations = time_level(rules, level, spots, args.seed, not args.no_clock, chosen)
            digest = hashlib.sha256(repr(chosen).encode()).hexdigest()[:12]
            cpu.append(
                f"{game} {level}: {time.process_time() - began:.2f} CPU s for {len(spots)} moves, moves {digest}"
            )
            budget = BUDGETS.get(level)
            spec = LEVELS.get(level)
            within = "n/a" if budget is None else f"{sum(t <= budget for t in times)}/{len(times)}"
            budget_text = "-" if budget is None else (f"< {budget} s" if level == "easy" else f"<= {budget} s")
            searched = spec is not None and spec.bot == "mcts"
            mcts = f"{statistics.median(iterations):.0f}" if searched else "-"
            # a search that ran at all ran at least one iteration; a position with one legal command runs none
            short = "-"
            if searched and spec.iterations is not None and not args.no_clock:
                short = f"{sum(0 < done < spec.iterations for done in iterations)}/{len(iterations)}"
            print(
                f"| {game} | {level} | {budget_text} | {min(times):.3f} | {statistics.median(times):.3f} |"
                f" {max(times):.3f} | {within} | {mcts} | {short} | {statistics.median(times) / base:.0f}x |",
                flush=True,
            )
        if args.no_clock:
            print("\n".join(cpu), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
