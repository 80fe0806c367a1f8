"""Load + fold of a 1,000-event stream, with and without a snapshot, per backend.

    python benchmarks/eventstore_fold.py [--backend sqlite|memory|postgres] [--events 1000] [--repeat 20]

PostgreSQL: a scratch database on TRADEWINDS_TEST_POSTGRES_URL's server (default the local one).

Prints milliseconds per load: reading the events and folding them from scratch, versus starting from a
snapshot at the last version (the in-memory state cache is cleared before every load).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain import registry  # noqa: E402
from domain.rng import rng_for  # noqa: E402
from eventstore import open_store  # noqa: E402
from workers.games import GameService  # noqa: E402


def build_stream(service: GameService, game_type: str, seats: int, events_wanted: int) -> str:
    """Play random legal moves (starting new games as needed) until one stream holds enough events."""
    rules = registry.get(game_type)
    seed = 1
    while True:
        game, _ = service.create_game(game_type, [{"kind": "human", "name": f"P{i}"} for i in range(seats)], {}, seed)
        gid = game.info.stream
        chooser = random.Random(seed)
        state, version = game.state, game.version
        batch: list[dict] = []
        while not rules.is_over(state) and version + len(batch) < events_wanted:
            seat = chooser.choice(sorted(rules.to_act(state)))
            command = chooser.choice(rules.legal_commands(state, seat))
            new = rules.decide(state, command, seat, rng_for(seed, version + len(batch)))
            for event in new:
                state = rules.evolve(state, event)
            batch.extend(new)
        service.store.append(gid, batch, version, meta={"actor": "benchmark", "seat": None})
        if version + len(batch) >= events_wanted:
            return gid
        seed += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--backend", default="sqlite", choices=["sqlite", "memory", "postgres"])
    parser.add_argument("--game", default="puerto_rico")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        if args.backend == "postgres":  # a database of its own, dropped afterwards
            from tests.support.services import scratch_postgres_database

            url = stack.enter_context(scratch_postgres_database("tradewinds_bench"))
        else:
            url = f"sqlite:///{tmp}/bench.db" if args.backend == "sqlite" else "memory://"
        store = open_store(url)
        service = GameService(store)
        gid = build_stream(service, args.game, args.seats, args.events)
        version = store.stream_info(gid).version
        store.delete_snapshots(gid)

        def timed(use_snapshots: bool) -> float:
            samples = []
            for _ in range(args.repeat):
                service.forget()
                start = time.perf_counter()
                loaded = service.load(gid, use_snapshots=use_snapshots)
                samples.append(time.perf_counter() - start)
                assert loaded.version == version
            return statistics.median(samples) * 1000

        cold = timed(False)
        service.forget()
        service.load(gid)  # writes a snapshot at the current version
        warm = timed(True)
        print(f"backend={args.backend} game={args.game} events={version}")
        print(f"load+fold without snapshot: {cold:8.2f} ms (median of {args.repeat})")
        print(f"load from snapshot:         {warm:8.2f} ms (median of {args.repeat})")
        store.close()


if __name__ == "__main__":
    main()
