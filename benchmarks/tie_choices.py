"""How often the shorter-of-equals rule (``MCTSBot.tie``) changes a search level's move, and at what price.

    python benchmarks/tie_choices.py [--games amerigo,puerto_rico] [--level hard] [--positions 40] [--seed 5]

Positions: 2-player games of ``easy`` against ``easy`` (deals ``seed``, ``seed + 1``, ...), each decision with a
choice taken with probability 0.12, until ``--positions`` are found. At each, the level searches (its own seed
per position) and the move it plays is compared with the most visited root move (the move without the rule).
Printed per game: how many moves the rule changed, and for each the two command types, the mean reward the most
visited move had over the played one, their visits and their steps' average lengths (the seat's commands).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain import registry  # noqa: E402
from domain.bots import MCTSBot, make_bot  # noqa: E402
from domain.bots.base import command_key  # noqa: E402
from domain.game import Rules, State  # noqa: E402
from domain.rng import rng_for  # noqa: E402


def positions(rules: Rules, count: int, seed: int) -> list[tuple[State, int]]:
    chooser = random.Random(seed)
    found: list[tuple[State, int]] = []
    deal = seed
    while len(found) < count:
        events = rules.setup(deal, 2, {})
        state = rules.fold(events)
        easy = make_bot("easy", deal)
        while not rules.is_over(state) and len(found) < count:
            seat = min(rules.to_act(state))
            if len(rules.legal_commands(state, seat)) > 1 and chooser.random() < 0.12:
                found.append((state, seat))
            for event in rules.decide(state, easy.choose(rules, state, seat), seat, rng_for(deal, len(events))):
                events.append(event)
                state = rules.evolve(state, event)
        deal += 1
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="amerigo,puerto_rico")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    for game in args.games.split(","):
        rules = registry.get(game)
        changed = []
        found = positions(rules, args.positions, args.seed)
        for index, (state, seat) in enumerate(found):
            bot = make_bot(args.level, 1000 + index)
            if not isinstance(bot, MCTSBot):
                raise SystemExit(f"{args.level} is not a search level")
            played = bot.choose(rules, state, seat, random.Random(index))
            root = bot.last_root
            assert root is not None
            kids = [(c, root.children.get((seat, command_key(c)))) for c in rules.legal_commands(state, seat)]
            searched = [(c, node) for c, node in kids if node is not None and node.visits]
            top_command, top = max(searched, key=lambda item: (item[1].visits, item[1].mean(seat)))
            if command_key(played) == command_key(top_command):
                continue
            mine = root.children[(seat, command_key(played))]
            changed.append(
                f"  {top_command['type']} -> {played['type']}: mean {top.mean(seat) - mine.mean(seat):+.4f},"
                f" visits {top.visits} / {mine.visits}, steps {top.steps / top.visits:.2f} / {mine.steps / mine.visits:.2f}"
            )
            print(f"{game}: position {index + 1} of {len(found)} changed", file=sys.stderr, flush=True)
        print(f"{game}, {args.level}: the rule changed {len(changed)} of {len(found)} moves (seed {args.seed})")
        print("\n".join(changed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
