"""Murano: how often bots choose the Income action and what it pays (docs/rules/murano.md §2.2a, §9).

Run from the repository root::

    python benchmarks/murano_income.py [games] [workers] [policy] [counts]

for example ``python benchmarks/murano_income.py 200 2 builder`` (2 to 4 players in turn). ``policy`` is a
bot name of ``domain.bots`` (``greedy``, ``random``, ``mcts:N``) or ``builder``: a scripted policy of this script
that never passes while it may act, takes the best-paying Income option, puts shops next to the most matching
customers and streets next to its own shops, and otherwise chooses at random. Every game is seeded (deal seed
``7_000 + g``, bot seeds derived from it), so a run is reproducible whatever the number of workers.

Prints, over all games and per player count: the share of actions that were Income and, beside it, the
share that were "take 2 gold" (the anchor §2.2a compares Income with), Income's mean, median and largest
payout, the share of Income actions paying 4 or more, and the mean gold a "take 2 gold" action paid.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.bots import make_bot  # noqa: E402
from domain.murano import RULES, data  # noqa: E402
from domain.murano.queries import geo  # noqa: E402
from domain.rng import rng_for  # noqa: E402


class Builder:
    """The scripted ``builder`` policy (see the module docstring); it reads only the public rules API."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, rules, state, seat: int, continuing: bool = False) -> dict:
        options = rules.legal_commands(state, seat)
        acting = [c for c in options if c["type"] not in ("pass", "stop_building", "keep_tile", "skip_sale")]
        options = acting or options
        kinds = {c["type"] for c in options}
        if "collect_income" in kinds:
            return max(
                (c for c in options if c["type"] == "collect_income"), key=lambda c: self._gold(rules, state, seat, c)
            )
        if "build_building" in kinds or "place_street" in kinds:
            return max(options, key=lambda c: (self._placement(state, seat, c), self.rng.random()))
        if "act" in kinds and self.rng.random() < 0.6:
            return {"type": "act"}
        return self.rng.choice(options)

    @staticmethod
    def _gold(rules, state, seat: int, command: dict) -> int:
        events = rules.decide(state, command, seat, random.Random(0))
        return sum(e["gold"] for e in events if e["type"] == "IncomeCollected")

    @staticmethod
    def _placement(state, seat: int, command: dict) -> int:
        if command["type"] not in ("build_building", "place_street"):
            return -1
        g = geo(state)
        space = g.space_index[command["space"]]
        score = 0
        for nb in g.neighbours[space]:
            cell = state.board[nb]
            if command["type"] == "build_building" and command["kind"] == "shop":
                score += 1 if g.paved[nb] else 0
                if cell is not None and cell[0] == "street":
                    score += 3 * data.STREET_FACES[cell[1]].get(command["face"], 0)
            elif command["type"] == "place_street" and cell is not None and cell[0] == "shop" and cell[2] == seat:
                score += 2
        return score


def play(job: tuple[int, int, str]) -> tuple[int, Counter, list[int], list[int]]:
    """One game; returns (players, actions chosen, Income payouts, take-2-gold payouts)."""
    seats, seed, policy = job
    if policy == "builder":
        bots = [Builder(seed * 10 + seat) for seat in range(seats)]
    else:
        bots = [make_bot(policy, seed * 10 + seat) for seat in range(seats)]
    events = RULES.setup(seed, seats, {})
    state = RULES.fold(events)
    actions: Counter = Counter()
    income: list[int] = []
    take: list[int] = []
    last_action = None
    previous = -1
    while not RULES.is_over(state):
        seat = min(RULES.to_act(state))
        command = bots[seat].choose(RULES, state, seat, continuing=seat == previous)
        previous = seat
        new = RULES.decide(state, command, seat, rng_for(seed, len(events)))
        for event in new:
            state = RULES.evolve(state, event)
            if event["type"] == "ActionStarted":
                actions[event["action"]] += 1
                last_action = event["action"]
            elif event["type"] == "IncomeCollected":
                income.append(event["gold"])
            elif event["type"] == "GoldTaken" and last_action == "take_2_gold":
                take.append(event["gold"])
        events.extend(new)
    return seats, actions, income, take


def summary(label: str, rows: list) -> None:
    actions: Counter = Counter()
    income: list[int] = []
    take: list[int] = []
    for _, a, i, t in rows:
        actions.update(a)
        income += i
        take += t
    total = sum(actions.values())
    if not total:
        return
    line = (
        f"{label}: {len(rows)} games, {total} actions | income {100 * actions['income'] / total:.1f}% "
        f"of actions ({len(income)}), take 2 gold {100 * actions['take_2_gold'] / total:.1f}%"
    )
    if income:
        line += (
            f" | income pays mean {statistics.mean(income):.2f}, median {statistics.median(income)}, "
            f"max {max(income)}, >= 4 in {100 * sum(1 for x in income if x >= 4) / len(income):.0f}%"
        )
    if take:
        line += f" | take 2 gold pays mean {statistics.mean(take):.2f}"
    print(line)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    policy = sys.argv[3] if len(sys.argv) > 3 else "greedy"
    counts = [int(c) for c in (sys.argv[4] if len(sys.argv) > 4 else "2,3,4").split(",")]
    jobs = [(counts[g % len(counts)], 7_000 + g, policy) for g in range(games)]
    started = time.perf_counter()
    with Pool(workers) as pool:
        rows = list(pool.imap_unordered(play, jobs, chunksize=1))
    summary("all", rows)
    for seats in counts:
        summary(f"{seats}p", [r for r in rows if r[0] == seats])
    print(f"{len(rows)} games ({policy} bots) in {time.perf_counter() - started:.0f}s with {workers} worker(s)")


if __name__ == "__main__":
    main()
