"""How often an Archipelago game ends in independence, by the colony's margin, next to the bots' ``peril``.

Run from the repository root::

    python benchmarks/archipelago_peril.py [games] [--players 3] [--seed 5000] [--level easy]

Plays ``games`` games with the same level in every seat (default ``easy``, the greedy bot; deal seed ``seed + g``,
bot seeds derived from it, so a run is reproducible). At the start of every round's Phase 5 it reads the colony's
projected margin (``domain.archipelago.evaluate.colony_margin``: population less the rebellion foreseen after
the open crisis and the next Phase 3). Prints, per margin (-2 or less and 12 or more pooled), how many such
positions were seen, the share of them in games that ended in independence, the share in games that ended so in
that round or the next, and ``peril``'s chance at that margin: the figures ``PERIL_SAFE_MARGIN`` was checked
against. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain import registry  # noqa: E402
from domain.archipelago.evaluate import colony_margin, peril_at  # noqa: E402
from domain.bots import make_bot  # noqa: E402
from domain.rng import rng_for  # noqa: E402
from workers.simulate import wilson_interval  # noqa: E402

LOW, HIGH = -2, 12


def play(seats: int, seed: int, level: str) -> tuple[str | None, int, list[tuple[int, int]]]:
    """One game: its end's cause, its last round, and (round, margin) at the start of every Phase 5."""
    rules = registry.get("archipelago")
    bots = [make_bot(level, seed * 10 + s) for s in range(seats)]
    events = rules.setup(seed, seats, {})
    state = rules.fold(events)
    margins: list[tuple[int, int]] = []
    previous = -1
    while not rules.is_over(state):
        if state.phase == "ACTIONS" and (not margins or margins[-1][0] != state.round):
            margins.append((state.round, colony_margin(state)))
        seat = min(rules.to_act(state))
        command = bots[seat].choose(rules, state, seat, continuing=seat == previous)
        previous = seat
        new = rules.decide(state, command, seat, rng_for(seed, len(events)))
        for event in new:
            state = rules.evolve(state, event)
        events.extend(new)
    return (state.end or {}).get("cause"), state.round, margins


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", type=int, nargs="?", default=80)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--level", default="easy")
    args = parser.parse_args(argv)
    seen: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])  # margin -> positions, in lost games, lost soon
    lost_games = 0
    for g in range(args.games):
        cause, last, margins = play(args.players, args.seed + g, args.level)
        lost = cause == "INDEPENDENCE"
        lost_games += lost
        for round_, margin in margins:
            row = seen[max(LOW, min(HIGH, margin))]
            row[0] += 1
            row[1] += lost
            row[2] += lost and last <= round_ + 1
        print(f"game {g + 1}/{args.games}: {cause} in round {last}", file=sys.stderr, flush=True)
    low, high = wilson_interval(lost_games, args.games)
    print(
        f"{args.games} games of {args.players} players, {args.level} in every seat, seeds {args.seed}.."
        f"{args.seed + args.games - 1}: {lost_games} ended in independence ({lost_games / args.games:.1%},"
        f" 95% [{low:.1%}, {high:.1%}])"
    )
    print("| margin | positions | in games lost to independence | lost in this round or the next | peril |")
    print("|---|---|---|---|---|")
    for margin in sorted(seen):
        n, lost, soon = seen[margin]
        label = f"{margin} or less" if margin == LOW else f"{margin} or more" if margin == HIGH else str(margin)
        print(f"| {label} | {n} | {lost / n:.2f} | {soon / n:.2f} | {peril_at(margin):.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
