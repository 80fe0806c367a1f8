"""How a search level's play-outs end: with control gone to another seat, at the horizon, or at the candidate budget.

    python benchmarks/follow_through_cuts.py [--games puerto_rico,amerigo,murano,archipelago] [--level medium]
        [--players 2] [--positions 5]

A play-out (``domain.bots.lookahead.play_out``: the seat plays its own follow-up decisions greedily) stops when
control leaves the seat, after ``horizon`` commands, or when ``budget`` candidates have been tried. A play-out
stopped by its budget scores the position before the seat's step has ended. For each game, one search of the
level at each of ``--positions`` mid-game positions (``mcts_speed.py``'s position, seeds 1, 2, ...); every
play-out of more than one command allowed (the plan's look at one decision is left out) is counted by how it
ended, and a budget's stops by the command types the seat still had to choose from. Deterministic for a given
checkout (no clock).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import mcts_speed  # noqa: E402  (beside this script: its mid-game position)

import domain.bots.mcts as mcts  # noqa: E402
from domain import registry  # noqa: E402
from domain.bots import make_bot  # noqa: E402
from domain.bots.lookahead import holds_control, play_out  # noqa: E402


def count_endings(game: str, level: str, players: int, positions: int) -> Counter[str]:
    """How the play-outs of ``level``'s searches ended at ``positions`` mid-game positions of ``game``."""
    rules = registry.get(game)
    endings: Counter[str] = Counter()

    def counted(rules_, state, seat, rng, look, *rest, **named):  # the search always passes ``look``
        after, played = play_out(rules_, state, seat, rng, look, *rest, **named)
        if look.horizon > 1:
            if not holds_control(rules_, after, seat):
                endings["control left"] += 1
            elif played >= look.horizon:
                endings["horizon"] += 1
            else:
                kinds = sorted({str(c.get("type")) for c in rules_.legal_commands(after, seat)})
                endings[f"budget {look.budget}: {', '.join(kinds)}"] += 1
        return after, played

    mcts.play_out = counted  # this process's searches only
    try:
        for seed in range(1, positions + 1):
            state, _steps, _length = mcts_speed.mid_game(rules, players, seed, {})
            seat = min(rules.to_act(state))
            make_bot(level, seed).choose(rules, state, seat, random.Random(seed))
    finally:
        mcts.play_out = play_out
    return endings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="puerto_rico,amerigo,murano,archipelago")
    parser.add_argument("--level", default="medium")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"play-out endings of {args.level}'s searches, {args.positions} mid-game positions, {args.players} players")
    for game in args.games.split(","):
        endings = count_endings(game, args.level, args.players, args.positions)
        total = sum(endings.values())
        print(f"{game}: {total} play-outs")
        for how, n in endings.most_common():
            print(f"  {n:6d} ({n / max(total, 1):.0%})  {how}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
