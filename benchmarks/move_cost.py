"""What a stored move costs through the game service, on a store of one's choice, for any checkout.

    python benchmarks/move_cost.py [--tree .] [--game puerto_rico] [--moves 300] [--store sqlite]

Plays ``--moves`` moves (the first legal command of the seat to act; every seat human) of one game
through ``GameService.submit`` on a fresh SQLite file (or ``memory``), the way the API stores a move
(decide, append with its outbox work, fold), and prints the median and mean time per move. ``--tree``
names the checkout to import, so ``side_by_side.py`` can compare two (``{tree}``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tree", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--game", default="puerto_rico")
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--store", choices=["sqlite", "memory"], default="sqlite")
    args = parser.parse_args()
    sys.path.insert(0, args.tree)
    from eventstore.memory import MemoryStore
    from eventstore.sqlite import SqliteStore
    from workers.games import GameService

    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(str(Path(folder) / "bench.db")) if args.store == "sqlite" else MemoryStore()
        store.migrate()
        service = GameService(store)
        game, tokens = service.create_game(args.game, [{"kind": "human"}] * 3, seed=1)
        times = []
        while len(times) < args.moves and not game.over:
            seat = min(game.rules.to_act(game.state))
            command = game.rules.legal_commands(game.state, seat)[0]
            started = time.perf_counter()
            game = service.submit(game.info.stream, seat, [command], loaded=game).game
            times.append(time.perf_counter() - started)
        store.close()
    print(f"moves: {len(times)}")
    print(f"move: {statistics.median(times) * 1000:.3f} ms median, {statistics.mean(times) * 1000:.3f} ms mean")


if __name__ == "__main__":
    main()
