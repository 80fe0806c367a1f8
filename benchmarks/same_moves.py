"""Do two checkouts' bots choose the same moves? For work that should make the bots faster and change nothing else.

    python benchmarks/same_moves.py --against ../before
    python benchmarks/same_moves.py --games puerto_rico,amerigo --decisions 300 --bots mcts:200,easy,easy --against DIR

Plays one game of each game with the same seed on this checkout and on DIR (each in its own process, the code of
that checkout; ``--root`` is how a process is told which), seat ``i`` played by the ``i``-th bot of ``--bots``
(iteration budgets, no clock, so a decision depends only on the position and the seeds), up to ``--decisions``
decisions. Prints, per game and checkout, the number of decisions and a digest of every decision (seat, step and
command in order), and whether the two checkouts agree; the exit status is 1 when they do not. Without
``--against`` it prints this checkout's digests only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

from code_root import code_root  # beside this script

sys.path.insert(0, str(code_root(sys.argv)))

from domain import registry  # noqa: E402
from domain.bots.levels import make_bot  # noqa: E402
from domain.rng import rng_for  # noqa: E402


def digests(games: list[str], bots: list[str], decisions: int, seed: int) -> dict[str, tuple[int, str]]:
    """Per game: how many decisions were played, and the digest of all of them in order."""
    out = {}
    for game in games:
        rules = registry.get(game)
        players = [make_bot(name, seed=seed + i) for i, name in enumerate(bots)]
        state = rules.fold(rules.setup(seed, len(bots), {}))
        digest = hashlib.sha256()
        step, previous = 0, -1
        while step < decisions and not rules.is_over(state):
            seat = min(rules.to_act(state))
            rng = rng_for(seed, step, f"bot{seat}")
            command = players[seat].choose(rules, state, seat, rng, continuing=seat == previous)
            previous = seat
            digest.update(json.dumps([step, seat, command], sort_keys=True).encode() + b"\n")
            _, state = rules.decide_and_apply(state, command, seat, rng_for(seed, step))
            step += 1
        out[game] = (step, digest.hexdigest()[:16])
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="puerto_rico,murano,amerigo,archipelago")
    parser.add_argument("--bots", default="mcts:120,easy,easy", help="one bot name or level per seat")
    parser.add_argument("--decisions", type=int, default=150, help="decisions per game at most")
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--against", help="another checkout of this repository to compare with")
    parser.add_argument("--root", help="play the code of this checkout instead of this file's own")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # a child's answer
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if args.json:
        print(json.dumps(digests(games, bots, args.decisions, args.seed)))
        return 0
    sides = {"this checkout": code_root(sys.argv)}
    if args.against:
        sides["against"] = Path(args.against).resolve()
    passed = ["--games", args.games, "--bots", args.bots, "--decisions", str(args.decisions), "--seed", str(args.seed)]
    children = {
        name: subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), *passed, "--json", "--root", str(checkout)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for name, checkout in sides.items()
    }
    results = {}
    for name, child in children.items():
        out, _ = child.communicate()
        if child.returncode != 0:
            print(f"{name} ({sides[name]}) failed", file=sys.stderr)
            return 2
        results[name] = json.loads(out)
    print(f"bots {', '.join(bots)}; seed {args.seed}; up to {args.decisions} decisions a game")
    same = True
    for game in games:
        row = [f"{name} {results[name][game][0]} decisions {results[name][game][1]}" for name in sides]
        agree = len({tuple(results[name][game]) for name in sides}) == 1
        same = same and agree
        verdict = ("same" if agree else "DIFFERENT") if len(sides) > 1 else ""
        print(f"  {game:12} " + "; ".join(row) + (f"  {verdict}" if verdict else ""))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
