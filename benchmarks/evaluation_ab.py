"""One bot level with a game's evaluation as it is against the same level with some of its constants changed.

    python benchmarks/evaluation_ab.py GAME PLAYERS LEVEL GAMES --set NAME=VALUE [--set ...] [--seed 7000]
    python benchmarks/evaluation_ab.py murano 2 easy 200 --set GONDOLIER_VALUE=1

One seat plays LEVEL with the evaluation as it is (``current``); the others play LEVEL with the constants NAME
of the game's evaluation module (``domain.<game>.evaluate``) set to VALUE while they decide (``variant``). The
seat of ``current`` rotates: game ``g`` uses deal ``seed + g // PLAYERS`` with ``current`` in seat
``g % PLAYERS``, so every deal is played from every seat. Printed: the win share of ``current`` (a tie for first
shares the win) with its 95% Wilson interval against the even share ``1/PLAYERS``, the mean scores, the games
nobody won, and the share of each command type for both sides. Runs in one process, one game at a time.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain import registry  # noqa: E402
from domain.bots import make_bot  # noqa: E402
from domain.game import Rules  # noqa: E402
from domain.rng import rng_for  # noqa: E402
from workers.simulate import wilson_interval  # noqa: E402

GUARD = 5000  # commands per game at most


@contextmanager
def constants(module: ModuleType, values: dict[str, float]) -> Iterator[None]:
    """``module``'s constants set to ``values`` inside the block."""
    saved = {name: getattr(module, name) for name in values}
    for name, value in values.items():
        setattr(module, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(module, name, value)


class Variant:
    """``rules`` whose ``evaluate`` and ``evaluate_all`` run with ``values`` set in ``module``."""

    def __init__(self, rules: Rules, module: ModuleType, values: dict[str, float]) -> None:
        self._rules, self._module, self._values = rules, module, values

    def evaluate(self, state: Any, seat: int) -> float:
        with constants(self._module, self._values):
            return self._rules.evaluate(state, seat)

    def evaluate_all(self, state: Any) -> list[float]:
        with constants(self._module, self._values):
            return self._rules.evaluate_all(state)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)


def parse_set(items: list[str], module: ModuleType) -> dict[str, float]:
    values = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not hasattr(module, name):
            raise SystemExit(f"--set {item!r}: expected NAME=VALUE with NAME a constant of {module.__name__}")
        values[name] = float(text)
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("level")
    parser.add_argument("games", type=int)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", required=True)
    parser.add_argument("--seed", type=int, default=7000)
    args = parser.parse_args(argv)
    rules = registry.get(args.game)
    module = importlib.import_module(f"domain.{args.game}.evaluate")
    variant = Variant(rules, module, parse_set(args.set, module))
    n = args.players
    wins, nobody = 0.0, 0
    scores: dict[str, list[float]] = {"current": [], "variant": []}
    chosen: dict[str, Counter[str]] = {"current": Counter(), "variant": Counter()}
    for game in range(args.games):
        seed, current = args.seed + game // n, game % n
        events = rules.setup(seed, n, {})
        state = rules.fold(events)
        bots = [make_bot(args.level, seed * 10 + s) for s in range(n)]
        for step in range(GUARD):
            if rules.is_over(state):
                break
            seat = min(rules.to_act(state))
            side = "current" if seat == current else "variant"
            deciding = rules if side == "current" else variant
            command = bots[seat].choose(deciding, state, seat, random.Random(seed * 100_000 + step))  # type: ignore[arg-type]
            chosen[side][command["type"]] += 1
            for event in rules.decide(state, command, seat, rng_for(seed, len(events))):
                events.append(event)
                state = rules.evolve(state, event)
        else:
            raise SystemExit(f"game {game} (seed {seed}) did not end within {GUARD} commands")
        result = rules.result(state)
        for s in range(n):
            scores["current" if s == current else "variant"].append(result.scores[s])
        if result.no_winner:
            nobody += 1
        elif result.ranks[current] == 1:
            wins += 1.0 / result.ranks.count(1)
        print(f"progress: {game + 1}/{args.games} games", file=sys.stderr, flush=True)
    low, high = wilson_interval(wins, args.games)
    print(f"{args.game}, {n} players, {args.level}: current against {' '.join(args.set)}, {args.games} games")
    print(
        f"current's win share {wins / args.games:.3f} [{low:.3f}, {high:.3f}] (even {1 / n:.3f}); nobody won "
        f"{nobody}; mean score current {sum(scores['current']) / len(scores['current']):.1f}, variant "
        f"{sum(scores['variant']) / len(scores['variant']):.1f}"
    )
    for side, counts in chosen.items():
        total = sum(counts.values())
        shares = ", ".join(f"{kind} {count / total:.1%}" for kind, count in counts.most_common())
        print(f"command types of {side}: {shares}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
