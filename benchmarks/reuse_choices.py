"""What a search's decision becomes when it grows the subtree a greedy follow-through left under its last move.

    python benchmarks/reuse_choices.py [--games amerigo,puerto_rico,murano] [--players 2] [--level medium]
        [--seed 6]

When a search bot's move leaves it in control, the tree under that move holds only the greedy picks of its
follow-through (``MCTSBot._follow``), with nearly all of the move's visits: the bot's next decision was never
searched. ``MCTSBot`` no longer keeps such a subtree (``_keep``). This script shows what keeping it did. Per game,
one game is played: seat 0 is LEVEL's search (its iteration budget, no clock) made to keep such subtrees, as it
did before, and the other seats are ``easy``. At every decision of seat 0 with a kept subtree and a choice, two
fresh searches of LEVEL's budget (other seeds) decide too. Printed per game: those decisions; how often the kept
tree's choice is a fresh search's; how often two fresh searches agree (the search's own spread); and how often the
kept tree's choice, and a fresh search's, is the first legal command (a greedy pick among equals, or within its
budget of candidates, is the first one listed).
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
from domain.game import Command, Rules, State  # noqa: E402
from domain.rng import rng_for  # noqa: E402


class KeepingBot(MCTSBot):
    """``MCTSBot`` that keeps the subtree under its move even when a greedy follow-through made it."""

    def _keep(self, rules: Rules, state: State, seat: int, command: Command, root) -> None:
        child = None if root is None else root.children.get((seat, command_key(command)))
        if child is not None:
            child.followed = False
        super()._keep(rules, state, seat, command, root)


def search_bot(level: str, seed: int, cls: type[MCTSBot] = MCTSBot) -> MCTSBot:
    spec = make_bot(level)
    if not isinstance(spec, MCTSBot):
        raise SystemExit(f"{level!r} is not a search level")
    return cls(seed, iterations=spec.iterations, rollout_depth=spec.rollout_depth)


def one_game(game: str, players: int, level: str, seed: int) -> dict[str, int]:
    rules = registry.get(game)
    events = rules.setup(seed, players, {})
    state = rules.fold(events)
    keeping = search_bot(level, seed, KeepingBot)
    others = [make_bot("easy", seed + s) for s in range(players)]
    counts = dict.fromkeys(("decisions", "same", "fresh_same", "kept_first", "fresh_first"), 0)
    step = 0
    while not rules.is_over(state):
        seat = min(rules.to_act(state))
        step += 1
        if seat == 0:
            legal = rules.legal_commands(state, seat)
            command = keeping.choose(rules, state, seat, random.Random(step))
            if keeping.last_reused and len(legal) > 1:
                fresh = search_bot(level, seed + 1).choose(rules, state, seat, random.Random(step))
                again = search_bot(level, seed + 2).choose(rules, state, seat, random.Random(step + 7919))
                first = command_key(legal[0])
                counts["decisions"] += 1
                counts["same"] += command_key(command) == command_key(fresh)
                counts["fresh_same"] += command_key(again) == command_key(fresh)
                counts["kept_first"] += command_key(command) == first
                counts["fresh_first"] += command_key(fresh) == first
        else:
            command = others[seat].choose(rules, state, seat, random.Random(step))
        for event in rules.decide(state, command, seat, rng_for(seed, len(events))):
            events.append(event)
            state = rules.evolve(state, event)
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="amerigo,puerto_rico,murano")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args(argv)
    print(f"{args.level}, {args.players} players, seed {args.seed}: decisions of seat 0 with a kept subtree")
    print("| game | decisions | kept = fresh | fresh = fresh | kept = first legal | fresh = first legal |")
    print("|---|---|---|---|---|---|")
    for game in args.games.split(","):
        c = one_game(game, args.players, args.level, args.seed)
        n = c["decisions"] or 1
        print(
            f"| {game} | {c['decisions']} | {c['same'] / n:.2f} | {c['fresh_same'] / n:.2f} |"
            f" {c['kept_first'] / n:.2f} | {c['fresh_first'] / n:.2f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
