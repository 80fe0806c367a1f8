"""Balance measurement for Archipelago with greedy one-ply play.

Run from the repository root: ``python benchmarks/archipelago_balance.py [games_per_count] [workers] [lengths]``.
Each seat picks (apart from a few obvious rule-based choices: bid 0, put itself first, stand
its own citizens first) the legal command whose resulting state has the best ``evaluate()`` for itself (a simple
one-ply greedy; trade offers are not explored and bids are limited to 0..3 to keep the search small).
Prints, per player count, the share of games ending in independence, by a declared objective and at the
safety cap, and the mean number of rounds.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.archipelago import RULES  # noqa: E402
from domain.archipelago.decide import decide_and_apply  # noqa: E402
from domain.archipelago.scoring import evaluate  # noqa: E402
from domain.rng import rng_for  # noqa: E402

STEP_DEPTH = 3
STEP_CANDIDATES = 4
SKIP = {"offer_open"}


def rule_choice(state, seat, legal):
    """Obvious choices made without search (they are what the one-ply search would pick anyway)."""
    if len(legal) == 1:
        return legal[0]
    kinds = {c["type"] for c in legal}
    if kinds == {"bid"} or kinds == {"bid", "declare_end"}:
        return {"type": "bid", "amount": 0}
    if "order_pick" in kinds:
        picks = [c for c in legal if c["type"] == "order_pick"]
        return next((c for c in picks if c["seat"] == seat), picks[0])
    stands = [c for c in legal if c["type"] == "stand"]
    if stands and (state.crisis is None or state.crisis.get("pending")):
        own = [c for c in stands if state.units[c["citizen"]]["owner"] == seat]
        return (own or stands)[0]
    return None


def greedy_choice(state, seat, legal, chooser: random.Random, seed: int, version: int, depth: int = 0,
                  max_candidates: int = 12):
    quick = rule_choice(state, seat, legal)
    if quick is not None:
        return quick
    cands = [c for c in legal if c["type"] not in SKIP]
    if not cands:
        cands = legal
    if len(cands) > max_candidates:
        keep = [c for c in cands if c["type"] in ("declare_end", "pass", "end_turn", "supply_done")]
        rest = [c for c in cands if c not in keep]
        cands = keep + chooser.sample(rest, max(0, max_candidates - len(keep)))
    best, best_val = None, None
    for cmd in cands:
        _, after = decide_and_apply(state, cmd, seat, rng_for(seed, version))
        after = finish_step(after, seat, chooser, seed, version, depth)
        val = evaluate(after, seat) + chooser.random() * 1e-3
        if best_val is None or val > best_val:
            best, best_val = cmd, val
    return best


def finish_step(state, seat, chooser, seed, version, depth):
    """Complete an open step of ``seat`` greedily (a few commands deep) so step openers are judged fairly."""
    if depth >= STEP_DEPTH:
        return state
    while (state.step is not None and state.turn is not None and state.turn["seat"] == seat
           and state.crisis is None and state.discard_pending is None and not RULES.is_over(state)):
        legal = RULES.legal_commands(state, seat)
        cmd = greedy_choice(state, seat, legal, chooser, seed, version, depth + 1, STEP_CANDIDATES)
        _, state = decide_and_apply(state, cmd, seat, rng_for(seed, version))
        depth += 1
        if depth >= STEP_DEPTH:
            break
    return state


def play_greedy(args):
    seats, seed, length = args
    chooser = random.Random(seed)
    state = RULES.fold(RULES.setup(seed, seats, {"length": length}))
    version = 0
    decisions = 0
    while not RULES.is_over(state):
        seat = sorted(RULES.to_act(state))[0]
        legal = RULES.legal_commands(state, seat)
        cmd = greedy_choice(state, seat, legal, chooser, seed, version)
        events, state = decide_and_apply(state, cmd, seat, rng_for(seed, version))
        version += len(events)
        decisions += 1
    end = state.end
    return seats, length, end["cause"], end.get("objective"), state.round, state.rounds_completed, decisions


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    lengths = (sys.argv[3] if len(sys.argv) > 3 else "short,medium,long").split(",")
    jobs = [(seats, 10_000 * seats + g, lengths[g % len(lengths)]) for seats in (2, 3, 4, 5) for g in range(games)]
    t = time.perf_counter()
    results = []
    if workers > 1:
        with Pool(workers) as pool:
            for r in pool.imap_unordered(play_greedy, jobs, chunksize=1):
                results.append(r)
                if len(results) % 20 == 0:
                    print(f"  ... {len(results)}/{len(jobs)} games", file=sys.stderr, flush=True)
    else:
        results = [play_greedy(j) for j in jobs]
    for seats in (2, 3, 4, 5):
        rows = [r for r in results if r[0] == seats]
        causes = Counter(r[2] for r in rows)
        objs = Counter(r[3] for r in rows if r[2] == "DECLARED")
        n = len(rows)
        print(
            f"{seats}p: {n} games | independence {100 * causes['INDEPENDENCE'] / n:.1f}% | "
            f"declared {100 * causes['DECLARED'] / n:.1f}% | cap {100 * causes['ROUND_CAP'] / n:.1f}% | "
            f"mean rounds {sum(r[4] for r in rows) / n:.2f} | decisions/game {sum(r[6] for r in rows) / n:.0f}"
        )
        for length in lengths:
            lr = [r for r in rows if r[1] == length]
            if lr:
                c = Counter(r[2] for r in lr)
                print(f"    {length}: {len(lr)} games, independence {100 * c['INDEPENDENCE'] / len(lr):.1f}%, "
                      f"cap {100 * c['ROUND_CAP'] / len(lr):.1f}%, mean rounds {sum(r[4] for r in lr) / len(lr):.2f}")
        print(f"    declared objectives: {dict(sorted(objs.items()))}")
    print(f"elapsed {time.perf_counter() - t:.0f}s")


if __name__ == "__main__":
    main()
