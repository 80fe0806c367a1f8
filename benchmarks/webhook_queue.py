"""What one webhook delivery pass costs as a subscription's delivery log grows, against a fresh subscription.

    python benchmarks/webhook_queue.py [--logged 1000,10000,50000] [--rounds 5]

On an embedded SQLite store, a subscription gets ``N`` events queued and delivered (the log a long-lived
subscription keeps); then one more event is queued and one delivery pass (``workers.webhooks.deliver``, the
job a worker runs after each game event) sends it. The send itself is replaced by an immediate success, so
the figure is the queue's own work: reading what is pending, recording the attempt. It prints, per ``N``, the
milliseconds of that pass and its ratio to the same pass on a subscription with an empty log (the anchor,
measured in the same round), min/median/max over the rounds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from eventstore import open_store  # noqa: E402
from workers import webhook_targets, webhooks  # noqa: E402


def sent(sub, entry, timeout=None):
    return webhook_targets.SendResult(True, "delivered", 200)


def one_pass(store, sub_id: str) -> float:
    """Seconds for the pass that sends one newly queued event."""
    sub = webhooks.get_subscription(store, sub_id)
    webhooks.enqueue_event(store, sub, "game.turn", {"version": 1}, "g")
    began = time.perf_counter()
    count, _ = webhooks.deliver(store, sub_id)
    spent = time.perf_counter() - began
    assert count == 1, count
    return spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--logged", default="1000,10000,50000", help="log sizes, comma-separated")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    sizes = [int(n) for n in args.logged.split(",")]
    webhooks.send = sent  # the queue's work only
    folder = tempfile.mkdtemp(prefix="tw-webhook-queue-")
    store = open_store(f"sqlite:///{folder}/queue.db")
    subs = {n: webhooks.create_subscription(store, "key", "http://example.com/hook", ["game.turn"]) for n in sizes}
    anchor_sub = webhooks.create_subscription(store, "key", "http://example.com/hook", ["game.turn"])
    print(f"one delivery pass after N delivered events, SQLite, {args.rounds} rounds (min/median/max)")
    for n, sub in subs.items():
        began = time.perf_counter()
        for i in range(n):
            webhooks.enqueue_event(store, sub, "game.turn", {"version": i}, "g")
        webhooks.deliver(store, sub["id"], batch=1000)
        print(f"  (queued and delivered {n} in {time.perf_counter() - began:.1f} s)", flush=True)
    anchor: list[float] = []
    spent: dict[int, list[float]] = {n: [] for n in sizes}
    for _ in range(args.rounds):
        anchor.append(one_pass(store, anchor_sub["id"]))
        for n, sub in subs.items():
            spent[n].append(one_pass(store, sub["id"]))
    ms = [a * 1000 for a in anchor]
    print(f"  anchor, empty log: {min(ms):.2f}/{statistics.median(ms):.2f}/{max(ms):.2f} ms")
    for n in sizes:
        ms = [s * 1000 for s in spent[n]]
        ratio = [s / a for s, a in zip(spent[n], anchor, strict=True)]
        print(
            f"  N={n:>6}: {min(ms):.2f}/{statistics.median(ms):.2f}/{max(ms):.2f} ms,"
            f" ratio to the anchor {min(ratio):.1f}/{statistics.median(ratio):.1f}/{max(ratio):.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
