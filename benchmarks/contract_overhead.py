"""What the published contract costs per request, against the rules work the same request does anyway.

Run from the repository root::

    python benchmarks/contract_overhead.py [games_per_type]

For every game type, random games are played (seeds 1..games, 3 seats). At each decision it times
    * the schema check of the chosen command (``api.game_contract.check_commands``) against ``decide`` of that
      command (the anchor: what POST /games/{id}/commands does anyway);
    * labelling every legal command (``rules.label``) against ``legal_commands`` (the anchor: what
      GET /games/{id}/legal-commands does anyway).
Prints, per game type, min / median / max of the per-decision ratios (check / decide, labels / legal list) and
the number of decisions measured. Ratios, not seconds: both sides run in the same process on the same states.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from api.game_contract import check_commands  # noqa: E402
from domain import registry  # noqa: E402
from domain.rng import rng_for  # noqa: E402


def timed(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def measure(name: str, games: int) -> tuple[list[float], list[float]]:
    rules = registry.get(name)
    checks, labels = [], []
    for seed in range(1, games + 1):
        chooser = random.Random(seed)
        events = rules.setup(seed, 3, {})
        state = rules.fold(events)
        while not rules.is_over(state):
            seat = chooser.choice(sorted(rules.to_act(state)))
            legal = rules.legal_commands(state, seat)
            command = chooser.choice(legal)
            rng = rng_for(seed, len(events))
            version = len(events)
            t_decide = timed(lambda s=state, c=command, p=seat, g=seed, v=version: rules.decide(s, c, p, rng_for(g, v)))
            t_check = timed(lambda c=command: check_commands(rules, [c]))
            t_legal = timed(lambda s=state, p=seat: rules.legal_commands(s, p))
            t_labels = timed(lambda s=state, p=seat, cs=legal: [rules.label(s, p, c) for c in cs])
            checks.append(t_check / t_decide)
            labels.append(t_labels / t_legal)
            for event in rules.decide(state, command, seat, rng):
                state = rules.evolve(state, event)
                events.append(event)
    return checks, labels


def summary(values: list[float]) -> str:
    return f"{min(values):6.3f} / {statistics.median(values):6.3f} / {max(values):6.3f}"


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    print(f"{games} random 3-seat games per type; ratios min / median / max per decision")
    print(f"{'game':<12} {'decisions':>9}  {'check / decide':>24}  {'labels / legal list':>24}")
    for name in ("puerto_rico", "murano", "amerigo", "archipelago"):
        checks, labels = measure(name, games)
        print(f"{name:<12} {len(checks):>9}  {summary(checks):>24}  {summary(labels):>24}")


if __name__ == "__main__":
    main()
