"""What a leaderboard read costs: kept ratings against a fold of every rated game, in the same run.

    python benchmarks/leaderboard_reads.py [--games 2000,10000] [--reads 20] [--rounds 3]

For each count, ``--games`` rated Puerto Rico games (three of 200 players each, random placements) are stored in
a memory store, and ``GET /leaderboards/puerto_rico`` is read through the app's test client: first with no stamp
(every read folds every game, as before ratings were kept), then once after a change (one fold, kept),
``--reads`` times more (kept ratings), and once after one more game finished after the others (that game folded
onto the kept ratings). It prints the CPU milliseconds per read of each, min / median / max over the
rounds, and the ratio of a folding read to a kept one; the trivial anchor is ``GET /livez`` on the same app.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.update({f"TRADEWINDS_RATE_LIMIT{s}": "0" for s in ("", "_ANONYMOUS", "_SEAT")})

from api.app import create_app  # noqa: E402
from eventstore.memory import MemoryStore  # noqa: E402
from workers import ratings  # noqa: E402
from workers.dispatch import InlineDispatcher  # noqa: E402
from workers.runtime import Runtime  # noqa: E402

URL = "/leaderboards/puerto_rico"


def cpu_ms(call, times: int) -> list[float]:
    out = []
    for _ in range(times):
        began = time.process_time()
        call()
        out.append((time.process_time() - began) * 1000)
    return out


def one_round(games: int, reads: int, seed: int) -> dict[str, float]:
    runtime = Runtime.signed(lambda signer: MemoryStore(signer=signer), InlineDispatcher(lambda name, args: None))
    client = create_app(runtime).test_client()
    rng = random.Random(seed)
    for i in range(games):
        doc = {
            "players": rng.sample([f"site/p{j}" for j in range(200)], 3),
            "ranks": rng.sample([1, 2, 3], 3),
            "finished_at": float(i),
            "generation": 0,
        }
        runtime.store.put_document("rated:puerto_rico", f"g{i:08d}", doc)

    def read() -> None:
        answer = client.get(URL)
        assert answer.status_code == 200 and answer.get_json()["games"] == games, answer.get_json()

    folding = statistics.median(cpu_ms(read, 3))
    ratings.rated_changed(runtime.store, "puerto_rico")
    first = cpu_ms(read, 1)[0]
    kept = statistics.median(cpu_ms(read, reads))
    runtime.store.put_document("rated:puerto_rico", "h", {**doc, "finished_at": float(games)})  # one more game
    ratings.rated_changed(runtime.store, "puerto_rico")
    games += 1
    added = cpu_ms(read, 1)[0]
    livez = statistics.median(cpu_ms(lambda: client.get("/livez"), reads))
    return {"folding": folding, "first fold": first, "kept": kept, "after a game more": added, "livez": livez}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="2000,10000")
    parser.add_argument("--reads", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    for games in (int(g) for g in args.games.split(",")):
        rounds = [one_round(games, args.reads, seed) for seed in range(args.rounds)]
        print(f"{games} rated games, CPU ms per read (min / median / max over {args.rounds} rounds):")
        for kind in rounds[0]:
            values = [r[kind] for r in rounds]
            print(f"  {kind:21} {min(values):8.2f} / {statistics.median(values):8.2f} / {max(values):8.2f}")
        ratio = [r["folding"] / r["kept"] for r in rounds]
        anchor = [r["kept"] / r["livez"] for r in rounds]
        print(f"  folding / kept        {min(ratio):8.1f} / {statistics.median(ratio):8.1f} / {max(ratio):8.1f}")
        print(f"  kept / livez          {min(anchor):8.2f} / {statistics.median(anchor):8.2f} / {max(anchor):8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
