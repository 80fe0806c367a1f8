"""CPU per request in one process, by kind of request, as ratios to a trivial Flask endpoint.

    python benchmarks/request_cpu.py [--cycles 1500] [--repeat 3]
    python benchmarks/request_cpu.py --instructions [--cycles 200]

The app runs on an embedded SQLite store with the Flask test client (no HTTP server, no sockets), and plays
4-player Puerto Rico games of random legal moves. Around every request of a move cycle (GET the game, GET
its legal commands, POST a command; each GET is asked a second time, as a polling client asks a game that has
not moved, and counted as its own kind, "again") it measures the process's CPU time, and the same for ``GET /livez``
(our app's every hook, no work) and for ``GET /trivial`` on a bare Flask app (the anchor). It prints, per
kind, milliseconds per request and the ratio to the anchor, min/median/max over the repeats. Rate limits
are switched off, as in ``server_throughput.py``. Beside each kind that reads or writes the event store it prints the
part of its CPU spent in the store's methods (the SQLite reads, and the append's transaction with its hashing and
signing), and the ratio to the anchor of the rest: the store's part is work a trivial endpoint does not do at all.

``--instructions`` counts machine instructions instead of seconds, with valgrind's callgrind: a count does
not move with the machine's load, so two versions of the code compare on a shared machine. It runs this
script under callgrind once with no request after the set-up and warm-up, and once per kind with ``--cycles``
move cycles, or ten times as many ``/livez`` or trivial requests (the same set-up and warm-up, the same game
seeds, the set-up's objects frozen out of later garbage collections); the difference divided by the number of
requests is that kind's instructions per request. Printed: per move cycle (its three requests), per ``/livez``
and per trivial request, and the ratios of a move cycle to three trivial requests and of ``/livez`` to one.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.update({f"TRADEWINDS_RATE_LIMIT{s}": "0" for s in ("", "_ANONYMOUS", "_SEAT")})

import callgrind_count  # noqa: E402  (beside this script)
from flask import Flask  # noqa: E402
from werkzeug.test import TestResponse  # noqa: E402

from api.app import create_app  # noqa: E402
from workers.runtime import Runtime  # noqa: E402

KINDS = ("get game", "get game again", "legal commands", "legal again", "post command", "livez", "trivial")
COUNTED = ("move cycle", "livez", "trivial")  # what --instructions counts
STORE = "store: "  # prefix of a kind's CPU spent in the event store
WARM_UP = 200
# --instructions counts this many /livez and trivial requests per move cycle: a process's set-up and warm-up vary
# by a few million instructions from run to run (with 40 of each, the same code's trivial request read 0.61 M in
# one run and 0.73 M in another), an error a small request's count would otherwise carry.
SMALL_REQUESTS = 10


class Table:
    """The app under test with 8 four-player games of humans, and a bare Flask app (the anchor)."""

    def __init__(self) -> None:
        folder = tempfile.mkdtemp(prefix="tw-request-cpu-")
        runtime = Runtime.build(database_url=f"sqlite:///{folder}/cpu.db", dispatcher="inline", data_dir=folder)
        self.in_store = 0.0  # CPU seconds spent in the store's public methods so far
        self._time_store(runtime.store)
        self.client = create_app(runtime).test_client()
        bare = Flask("trivial")
        bare.add_url_rule("/trivial", "trivial", lambda: {"ok": True, "version": 1})
        self.anchor = bare.test_client()
        self.rng = random.Random(1)
        self.games = [self.new_game() for _ in range(8)]

    def _time_store(self, store: object) -> None:
        """Count the CPU time of every call into the store's public methods (a call made from within another is
        counted once, with the outer one)."""
        depth = 0

        def timing(method: Callable[..., object]) -> Callable[..., object]:
            def timed(*args: object, **kwargs: object) -> object:
                nonlocal depth
                if depth:
                    return method(*args, **kwargs)
                depth += 1
                began = time.process_time()
                try:
                    return method(*args, **kwargs)
                finally:
                    self.in_store += time.process_time() - began
                    depth -= 1

            return timed

        for name in dir(store):
            method = getattr(store, name)
            if not name.startswith("_") and callable(method) and not isinstance(method, type):
                setattr(store, name, timing(method))

    def new_game(self) -> tuple[str, dict[int, str]]:
        seats = [{"kind": "human"}] * 4
        game = {"game_type": "puerto_rico", "seats": seats, "seed": self.rng.getrandbits(63)}  # the same deals each run
        body = self.client.post("/games", json=game).get_json()
        return body["id"], {t["seat"]: t["token"] for t in body["seat_tokens"]}

    def move(
        self, i: int, timed: Callable[[str, Callable[[], TestResponse]], TestResponse], again: bool = False
    ) -> None:
        """One move cycle on game ``i % 8``: GET it, GET the legal commands of the seat to act, POST one.
        ``again``: each GET is asked twice, as a client polling a game that has not moved yet asks it (the second
        of each is its own kind)."""
        client = self.client
        game_id, tokens = self.games[i % len(self.games)]
        state = timed("get game", lambda: client.get(f"/games/{game_id}")).get_json()
        if again:
            assert timed("get game again", lambda: client.get(f"/games/{game_id}")).get_json() == state
        if not state["to_act"]:
            self.games[i % len(self.games)] = self.new_game()
            return
        headers = {"Authorization": f"Bearer {tokens[state['to_act'][0]]}"}
        url = f"/games/{game_id}"
        legal = timed("legal commands", lambda: client.get(f"{url}/legal-commands", headers=headers))
        if again:
            repeat = timed("legal again", lambda: client.get(f"{url}/legal-commands", headers=headers))
            assert repeat.get_json() == legal.get_json()
        move = {"command": self.rng.choice(legal.get_json()["commands"])}
        timed("post command", lambda: client.post(f"{url}/commands", json=move, headers=headers))

    def livez(self) -> TestResponse:
        return self.client.get("/livez")

    def trivial(self) -> TestResponse:
        return self.anchor.get("/trivial")


def seconds(args: argparse.Namespace) -> int:
    table = Table()

    def cycle(i: int, spent: dict[str, float]) -> None:
        def timed(kind: str, call: Callable[[], TestResponse]) -> TestResponse:
            store_before = table.in_store
            began = time.process_time()
            answer = call()
            spent[kind] += time.process_time() - began
            spent[STORE + kind] += table.in_store - store_before
            return answer

        table.move(i, timed, again=True)
        timed("livez", table.livez)
        timed("trivial", table.trivial)

    names = [*KINDS, *(STORE + kind for kind in KINDS)]
    warm = dict.fromkeys(names, 0.0)
    for i in range(WARM_UP):
        cycle(i, warm)
    # The set-up's objects are left out of later full collections (as in ``counted_run``): otherwise a full
    # collection walks them all, tens of milliseconds that fall in whichever request happens to trigger it.
    gc.collect()
    gc.freeze()
    runs = []
    for _ in range(args.repeat):
        spent = dict.fromkeys(names, 0.0)
        for i in range(args.cycles):
            cycle(i, spent)
        runs.append(spent)
    print(f"CPU per request, {args.cycles} move cycles x {args.repeat} (min/median/max)")

    def spread(values: list[float], digits: int) -> str:
        return "/".join(f"{v:.{digits}f}" for v in (min(values), statistics.median(values), max(values)))

    for kind in KINDS:
        ms = [r[kind] / args.cycles * 1000 for r in runs]
        ratio = [r[kind] / r["trivial"] for r in runs]
        store_ms = [r[STORE + kind] / args.cycles * 1000 for r in runs]
        rest = [(r[kind] - r[STORE + kind]) / r["trivial"] for r in runs]
        line = f"  {kind:15} {spread(ms, 3)} ms  ratio to trivial {spread(ratio, 2)}"
        if max(store_ms):
            line += f"  (in the store {spread(store_ms, 3)} ms; without it {spread(rest, 2)})"
        print(line)
    return 0


def counted_run(kind: str, count: int) -> int:
    """Inside callgrind: the set-up and warm-up, then ``count`` requests of ``kind`` (``none``: no request)."""
    table = Table()
    for i in range(WARM_UP):
        table.move(i, lambda _kind, call: call())
        table.livez()
        table.trivial()
    # What lives now is left out of later full collections: a full collection then walks only what the counted
    # requests made, not the set-up's objects, whose number would otherwise decide how much a collection that
    # happens to fall among the counted requests costs.
    gc.collect()
    gc.freeze()
    for i in range(count):
        if kind == "move cycle":
            table.move(WARM_UP + i, lambda _kind, call: call())
        elif kind == "livez":
            table.livez()
        else:
            table.trivial()
    return 0


def callgrind(kind: str, count: int) -> int:
    """Instructions callgrind counts for one run of ``counted_run(kind, count)`` in a child process."""
    script = str(Path(__file__).resolve())
    return callgrind_count.instructions(
        [sys.executable, script, "--count", kind, "--cycles", str(count)], f"{kind}, {count}"
    )


def instructions(args: argparse.Namespace) -> int:
    if not callgrind_count.available():
        print("--instructions needs valgrind (apt-get install -y valgrind)", file=sys.stderr)
        return 2
    small = SMALL_REQUESTS * args.cycles
    print(
        f"instructions per request (callgrind), {args.cycles} move cycles and {small} of each other kind after"
        f" {WARM_UP} warm-up cycles"
    )
    base = callgrind("none", 0)
    per = {}
    for kind in COUNTED:
        count = args.cycles if kind == "move cycle" else small
        per[kind] = (callgrind(kind, count) - base) / count
        print(f"  {kind:12} {per[kind] / 1e6:8.3f} M", flush=True)
    print(f"  move cycle / 3 trivial requests: {per['move cycle'] / (3 * per['trivial']):.2f}")
    print(f"  livez / trivial: {per['livez'] / per['trivial']:.2f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cycles", type=int, default=None, help="move cycles (default 1500; 200 counted)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--instructions", action="store_true", help="count instructions with callgrind")
    parser.add_argument("--count", choices=("none", *COUNTED), help=argparse.SUPPRESS)  # the callgrind child
    args = parser.parse_args(argv)
    if args.count is not None:
        return counted_run(args.count, args.cycles or 0)
    if args.instructions:
        args.cycles = args.cycles or 200
        return instructions(args)
    args.cycles = args.cycles or 1500
    return seconds(args)


if __name__ == "__main__":
    sys.exit(main())
