"""Run a benchmark in two checkouts alternately and print the ratio of a figure it prints (new / old).

    git worktree add --detach /tmp/tw-main main
    python benchmarks/side_by_side.py --old /tmp/tw-main --new . --rounds 5 \\
        --figure 'MCTS: ([0-9,.]+) iterations/s' -- benchmarks/mcts_speed.py --game murano --repeat 1

Each round runs the old tree, then the new one (the order flips every round, so a drift in the machine's load
hits both), each in its own process with the checkout's directory first on ``sys.path``. ``--figure`` is a
regular expression whose first group is the number to compare (commas allowed); when it matches several lines,
their sum is used. ``{tree}`` in the command stands for the checkout being measured (for a driver script
kept outside both trees that takes the checkout to import as an argument). Prints every round's figures and the min / median / max of the per-round ratios.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path


def figure(tree: Path, command: list[str], pattern: re.Pattern[str], timeout: float) -> float:
    command = [arg.replace("{tree}", str(tree)) for arg in command]
    run = subprocess.run(
        [sys.executable, *command], cwd=tree, capture_output=True, text=True, timeout=timeout, check=False
    )
    found = [float(m.group(1).replace(",", "")) for m in pattern.finditer(run.stdout)]
    if run.returncode != 0 or not found:
        raise SystemExit(f"{tree}: {' '.join(command)} failed or printed no figure:\n{run.stdout}\n{run.stderr}")
    return sum(found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", type=Path, required=True, help="the checkout measured as the anchor")
    parser.add_argument("--new", type=Path, required=True, help="the checkout compared with it")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--figure", required=True, help="regex; group 1 is the figure (higher is better)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per run at most")
    parser.add_argument("command", nargs="+", help="the benchmark script and its arguments (after --)")
    args = parser.parse_args(argv)
    pattern = re.compile(args.figure)
    ratios = []
    for round_ in range(args.rounds):
        trees = [("old", args.old), ("new", args.new)]
        if round_ % 2:
            trees.reverse()
        values = {name: figure(tree.resolve(), args.command, pattern, args.timeout) for name, tree in trees}
        ratios.append(values["new"] / values["old"])
        print(f"round {round_ + 1}: old {values['old']:,.1f}  new {values['new']:,.1f}  ratio {ratios[-1]:.3f}")
    print(
        f"new/old over {args.rounds} rounds: min {min(ratios):.3f}, median {statistics.median(ratios):.3f}, "
        f"max {max(ratios):.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
