"""What signing the chain head costs per move: signed appends against unsigned ones, in the same run.

    python benchmarks/signing_cost.py [--backends memory,sqlite,postgres] [--appends 500] [--rounds 5]

Each round appends ``--appends`` single-event moves (one move = one append, as the API stores it) to
a fresh stream of a store opened without a signer, then to one opened with the server's Ed25519 key,
alternating which goes first. It prints, per backend, the time per append of each and the ratio
signed / unsigned over the rounds (min / median / max), plus the bare Ed25519 signature as an anchor.
PostgreSQL runs in a scratch database created and dropped here (base URL from
TRADEWINDS_TEST_POSTGRES_URL, default postgresql://postgres@127.0.0.1:5432/test).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from eventstore.base import head_message  # noqa: E402
from workers.signing import ServerKey  # noqa: E402

EVENT = [{"type": "GoodsShipped", "seat": 2, "goods": "coffee", "amount": 3}]


def per_append(store, count: int) -> float:
    stream = f"bench-{uuid.uuid4().hex[:8]}"
    store.create_stream(stream, "bench", {"seats": [{"name": "Ann"}, {"name": "Bo"}]})
    start = time.perf_counter()
    for version in range(count):
        store.append(stream, EVENT, version, meta={"actor": "human", "seat": 2, "move": uuid.uuid4().hex})
    return (time.perf_counter() - start) / count


def opener(backend: str, folder: Path, url: str | None):
    if backend == "memory":
        from eventstore.memory import MemoryStore

        return lambda signer: MemoryStore(signer=signer)
    if backend == "sqlite":
        from eventstore.sqlite import SqliteStore

        return lambda signer: SqliteStore(folder / f"{uuid.uuid4().hex}.db", signer=signer)
    from eventstore.postgres import PostgresStore

    return lambda signer: PostgresStore(url, signer=signer)


def run(backend: str, count: int, rounds: int, key: ServerKey, url: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        open_store = opener(backend, Path(tmp), url)
        unsigned_store, signed_store = open_store(None), open_store(key.sign)
        try:
            per_append(unsigned_store, 20)  # warm up both
            per_append(signed_store, 20)
            unsigned, signed = [], []
            for round_ in range(rounds):
                order = [(unsigned_store, unsigned), (signed_store, signed)]
                for store, out in order if round_ % 2 == 0 else order[::-1]:
                    out.append(per_append(store, count))
        finally:
            unsigned_store.close()
            signed_store.close()
    ratios = sorted(s / u for s, u in zip(signed, unsigned, strict=True))
    print(
        f"{backend:9} unsigned {statistics.median(unsigned) * 1e6:8.1f} us/append   "
        f"signed {statistics.median(signed) * 1e6:8.1f} us/append   "
        f"ratio signed/unsigned min {ratios[0]:.3f}  median {statistics.median(ratios):.3f}  max {ratios[-1]:.3f}"
    )


def bare_signature(key: ServerKey, count: int = 2000) -> float:
    message = head_message("bench", 0, 1, "0" * 64)
    start = time.perf_counter()
    for _ in range(count):
        key.sign(message)
    return (time.perf_counter() - start) / count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backends", default="memory,sqlite,postgres")
    parser.add_argument("--appends", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    key = ServerKey.generate()
    print(f"anchor: one Ed25519 signature of a chain head takes {bare_signature(key) * 1e6:.1f} us")
    print(f"{args.rounds} rounds of {args.appends} single-event appends per store")
    for backend in args.backends.split(","):
        if backend == "postgres":
            from tests.support.services import scratch_postgres_database

            with scratch_postgres_database("tradewinds_bench") as url:
                run(backend, args.appends, args.rounds, key, url)
        else:
            run(backend, args.appends, args.rounds, key, None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
