"""Balance measurement for Archipelago: the ``greedy`` bot (``domain.bots``) in every seat.

Run from the repository root::

    python benchmarks/archipelago_balance.py [games_per_count] [workers] [lengths] [counts]

for example ``python benchmarks/archipelago_balance.py 500 2`` (the issue's figure) or
``python benchmarks/archipelago_balance.py 50 2 medium 3,5`` for a quick look at one cell.
Games are played in rounds over the player counts (game 0 of every count, then game 1, ...), so a run
stopped early still covers every count evenly. With ``ARCHIPELAGO_BALANCE_LOG=FILE`` every finished game
is appended to FILE as a JSON line; ``python benchmarks/archipelago_balance.py report FILE`` prints the
same report from such a file (for example after stopping a long run).
Games rotate through the objective lengths (short, medium, long by default). Every game is seeded
(deal seed ``100_000 * players + g``, bot seeds derived from it), so a run is reproducible whatever the
number of workers.

Prints, per player count, the share of games ending in independence, by a declared objective and at
the safety cap (each with a 95% Wilson interval), the mean number of rounds and decisions, then the
same split per length and which objectives were declared. Progress goes to stderr.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from workers.simulate import GameTask, play_game, wilson_interval  # noqa: E402


def play(job: tuple[int, int, str]) -> tuple[int, str, str, str | None, int, int]:
    seats, seed, length = job
    task = GameTask(
        index=seed,
        game="archipelago",
        module=None,
        seed=seed,
        seating=("greedy",) * seats,
        bot_seeds=tuple(seed * 10 + seat for seat in range(seats)),
        options={"length": length},
    )
    record = play_game(task)
    end = record["details"]
    return seats, length, end["cause"], end["objective"], end["round"], record["decisions"]


def share(count: int, n: int) -> str:
    low, high = wilson_interval(count, n)
    return f"{100 * count / n:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def report(results: list[tuple[int, str, str, str | None, int, int]], counts: list[int], lengths: list[str]) -> None:
    for seats in counts:
        rows = [r for r in results if r[0] == seats]
        n = len(rows)
        if not n:
            continue
        causes = Counter(r[2] for r in rows)
        print(
            f"{seats}p: {n} games | independence {share(causes['INDEPENDENCE'], n)} | "
            f"declared {share(causes['DECLARED'], n)} | cap {share(causes['ROUND_CAP'], n)} | "
            f"mean rounds {sum(r[4] for r in rows) / n:.2f} | decisions/game {sum(r[5] for r in rows) / n:.0f}"
        )
        for length in lengths:
            cell = [r for r in rows if r[1] == length]
            if cell:
                c = Counter(r[2] for r in cell)
                m = len(cell)
                print(
                    f"    {length:6}: {m} games, independence {100 * c['INDEPENDENCE'] / m:.1f}%, "
                    f"declared {100 * c['DECLARED'] / m:.1f}%, cap {100 * c['ROUND_CAP'] / m:.1f}%, "
                    f"mean rounds {sum(r[4] for r in cell) / m:.2f}"
                )
        declared = Counter(r[3] for r in rows if r[2] == "DECLARED")
        print(f"    declared objectives: {dict(sorted(declared.items()))}")


def report_file(path: str) -> None:
    with open(path, encoding="utf-8") as handle:
        results = [tuple(json.loads(line)) for line in handle if line.strip()]
    counts = sorted({r[0] for r in results})
    lengths = [x for x in ("short", "medium", "long") if any(r[1] == x for r in results)]
    report(results, counts, lengths)
    print(f"{len(results)} games from {path}")


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "report":
        report_file(sys.argv[2])
        return
    log_path = os.environ.get("ARCHIPELAGO_BALANCE_LOG")
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    lengths = (sys.argv[3] if len(sys.argv) > 3 else "short,medium,long").split(",")
    counts = [int(c) for c in (sys.argv[4] if len(sys.argv) > 4 else "2,3,4,5").split(",")]
    jobs = [(seats, 100_000 * seats + g, lengths[g % len(lengths)]) for g in range(games) for seats in counts]
    started = time.perf_counter()
    results = []
    with Pool(workers) as pool:
        for result in pool.imap_unordered(play, jobs, chunksize=1):
            results.append(result)
            if log_path:
                with open(log_path, "a", encoding="utf-8") as handle:
                    handle.write(json.dumps(result) + "\n")
            if len(results) % 50 == 0 or len(results) == len(jobs):
                print(
                    f"  ... {len(results)}/{len(jobs)} games, {time.perf_counter() - started:.0f}s",
                    file=sys.stderr,
                    flush=True,
                )
    report(results, counts, lengths)
    print(f"{len(results)} games in {time.perf_counter() - started:.0f}s with {workers} worker(s)")


if __name__ == "__main__":
    main()
