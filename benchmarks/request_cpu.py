"""CPU per request in one process, by kind of request, as ratios to a trivial Flask endpoint.

    python benchmarks/request_cpu.py [--cycles 1500] [--repeat 3]

The app runs on an embedded SQLite store with the Flask test client (no HTTP server, no sockets), and plays
4-player Puerto Rico games of random legal moves. Around every request of a move cycle (GET the game, GET
its legal commands, POST a command) it measures the process's CPU time, and the same for ``GET /livez``
(our app's every hook, no work) and for ``GET /trivial`` on a bare Flask app (the anchor). It prints, per
kind, milliseconds per request and the ratio to the anchor, min/median/max over the repeats. Rate limits
are switched off, as in ``server_throughput.py``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.update({f"TRADEWINDS_RATE_LIMIT{s}": "0" for s in ("", "_ANONYMOUS", "_SEAT")})

from flask import Flask  # noqa: E402

from api.app import create_app  # noqa: E402
from workers.runtime import Runtime  # noqa: E402

KINDS = ("get game", "legal commands", "post command", "livez", "trivial")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cycles", type=int, default=1500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    folder = tempfile.mkdtemp(prefix="tw-request-cpu-")
    runtime = Runtime.build(database_url=f"sqlite:///{folder}/cpu.db", dispatcher="inline", data_dir=folder)
    client = create_app(runtime).test_client()
    bare = Flask("trivial")
    bare.add_url_rule("/trivial", "trivial", lambda: {"ok": True, "version": 1})
    anchor = bare.test_client()
    rng = random.Random(1)

    def new_game() -> tuple[str, dict[int, str]]:
        body = client.post("/games", json={"game_type": "puerto_rico", "seats": [{"kind": "human"}] * 4}).get_json()
        return body["id"], {t["seat"]: t["token"] for t in body["seat_tokens"]}

    games = [new_game() for _ in range(8)]

    def timed(spent: dict[str, float], kind: str, call):
        began = time.process_time()
        answer = call()
        spent[kind] += time.process_time() - began
        return answer

    def cycle(i: int, spent: dict[str, float]) -> None:
        game_id, tokens = games[i % len(games)]
        state = timed(spent, "get game", lambda: client.get(f"/games/{game_id}")).get_json()
        if not state["to_act"]:
            games[i % len(games)] = new_game()
            return
        headers = {"Authorization": f"Bearer {tokens[state['to_act'][0]]}"}
        legal = timed(spent, "legal commands", lambda: client.get(f"/games/{game_id}/legal-commands", headers=headers))
        move = {"command": rng.choice(legal.get_json()["commands"])}
        timed(spent, "post command", lambda: client.post(f"/games/{game_id}/commands", json=move, headers=headers))
        timed(spent, "livez", lambda: client.get("/livez"))
        timed(spent, "trivial", lambda: anchor.get("/trivial"))

    warm = dict.fromkeys(KINDS, 0.0)
    for i in range(200):
        cycle(i, warm)
    runs = []
    for _ in range(args.repeat):
        spent = dict.fromkeys(KINDS, 0.0)
        for i in range(args.cycles):
            cycle(i, spent)
        runs.append(spent)
    print(f"CPU per request, {args.cycles} move cycles x {args.repeat} (min/median/max)")
    for kind in KINDS:
        ms = [r[kind] / args.cycles * 1000 for r in runs]
        ratio = [r[kind] / r["trivial"] for r in runs]
        print(
            f"  {kind:15} {min(ms):.3f}/{statistics.median(ms):.3f}/{max(ms):.3f} ms"
            f"  ratio to trivial {min(ratio):.2f}/{statistics.median(ratio):.2f}/{max(ratio):.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
