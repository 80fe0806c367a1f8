"""MCTS iterations per second on a mid-game position.

    python benchmarks/mcts_speed.py [--game puerto_rico] [--seats 4] [--iterations 2000] [--repeat 3]
    python benchmarks/mcts_speed.py --game archipelago --iterations 200 --repeat 5 --against ../main
    python benchmarks/mcts_speed.py --game murano --seats 3 --iterations 300 --plain --against ../older
    python benchmarks/mcts_speed.py --game amerigo --seats 3 --iterations 260 --rollout-depth 0 --instructions \
        --against ../main

With ``--against DIR`` (another checkout of this repository, for example the main branch in a git worktree) this
same script measures the code of this checkout and of DIR alternately (``--root``), one run each per round, each
in its own process, in iterations per CPU second, and prints the ratio per round and as min / median / max: both
sides see the same machine load, so the ratio holds on a busy machine where the rates themselves do not.
``--instructions`` counts machine instructions per iteration instead, with valgrind's callgrind (a count does
not move with the machine's load): the script runs under callgrind with ``--iterations`` and with a fifth of
them, once per checkout (this one, and DIR with ``--against``), and the difference over the difference in
iterations is printed, with the ratio of DIR's count to this checkout's (how many times faster this one is).
``--plain`` measures the search as first written (see its help) on both sides: the engines' and the search's
own speed on the same work, where the default measures what a bot's iteration costs today.

The position: one uniformly random game is played with ``--seed`` to learn its length, then replayed to
half of it (the mid-game). The default game is ``puerto_rico`` when the registry (or the package
``domain.puerto_rico``) provides it, else the test-only secret-numbers game. Prints the figures.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

from code_root import code_root  # beside this script

sys.path.insert(0, str(code_root(sys.argv)))

import callgrind_count  # noqa: E402  (beside this script)

from domain import registry  # noqa: E402
from domain.bots import MCTSBot  # noqa: E402
from domain.game import Rules, State  # noqa: E402
from domain.rng import rng_for  # noqa: E402


def _plain_search() -> dict:
    """The keyword arguments that switch this checkout's MCTS to the plain search (those its ``MCTSBot`` knows:
    an older checkout searched plainly by default)."""
    known = inspect.signature(MCTSBot).parameters
    plain = {"centred": False, "follow_through": None, "tie": None, "reuse": False}
    if "look" in known:
        from domain.bots.lookahead import NO_LOOKAHEAD

        plain["look"] = NO_LOOKAHEAD
    return {k: v for k, v in plain.items() if k in known}


PLAIN = _plain_search()


def default_rules(game: str | None, module: str | None) -> Rules:
    if module:
        rules = importlib.import_module(module).RULES
        registry.register(rules)
        return rules
    if game:
        return registry.get(game)
    try:
        return registry.get("puerto_rico")
    except registry.UnknownGameType:
        pass
    for candidate in ("domain.puerto_rico", "tests.support.secret_game"):
        try:
            return importlib.import_module(candidate).RULES
        except ImportError:
            continue
    raise SystemExit("no game available")


def random_play(rules: Rules, seats: int, seed: int, options: dict, stop_after: int | None) -> tuple[State, int]:
    chooser = random.Random(seed)
    events = rules.setup(seed, seats, options)
    state = rules.fold(events)
    steps = 0
    while not rules.is_over(state) and (stop_after is None or steps < stop_after):
        seat = min(rules.to_act(state))
        command = chooser.choice(rules.legal_commands(state, seat))
        for event in rules.decide(state, command, seat, rng_for(seed, len(events))):
            events.append(event)
            state = rules.evolve(state, event)
        steps += 1
    return state, steps


def mid_game(rules: Rules, seats: int, seed: int, options: dict) -> tuple[State, int, int]:
    """A position halfway through a random game that has a real choice (at least two legal commands)."""
    _, length = random_play(rules, seats, seed, options, None)
    target = length // 2
    while True:
        state, steps = random_play(rules, seats, seed, options, target)
        if rules.is_over(state):
            raise SystemExit("could not find a mid-game position with a choice")
        seat = min(rules.to_act(state))
        if len(rules.legal_commands(state, seat)) > 1:
            return state, steps, length
        target += 1


class WithoutFastPath:
    """The rules with no fast path declared, so the plain ``decide``/``evolve`` path is measured."""

    def __init__(self, rules: Rules) -> None:
        self._rules = rules
        from domain.game import Capabilities

        self.capabilities = Capabilities(evaluation=rules.capabilities.evaluation)

    def __getattr__(self, name: str):
        if name in ("play", "apply_in_place"):
            raise AttributeError(name)
        return getattr(self._rules, name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game")
    parser.add_argument("--game-module")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--rollout-depth", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-fast-path", action="store_true", help="ignore the rules' optional in-place hooks")
    parser.add_argument(
        "--plain",
        action="store_true",
        help="the search as first written (random rollouts scored by evaluate: no turn play-out, no follow-through,"
        " no centring), so checkouts from before those were added are compared on the same work",
    )
    parser.add_argument("--against", help="another checkout to compare with, run by run (see above)")
    parser.add_argument("--root", help="measure the code of this checkout instead of this file's own")
    parser.add_argument("--instructions", action="store_true", help="count instructions per iteration (callgrind)")
    args = parser.parse_args(argv)
    if args.instructions:
        return instructions(args, argv if argv is not None else sys.argv[1:])
    if args.against:
        return compare(args, argv if argv is not None else sys.argv[1:])

    rules = default_rules(args.game, args.game_module)
    seats = max(rules.min_players, min(args.seats, rules.max_players))
    state, step, length = mid_game(rules, seats, args.seed, {})
    seat = min(rules.to_act(state))
    planner = WithoutFastPath(rules) if args.no_fast_path else rules
    print(
        f"game {rules.name}, {seats} seats, position after {step} of {length} random decisions,"
        f" seat {seat} with {len(rules.legal_commands(state, seat))} legal commands"
    )
    rates = []
    cpu_rates = []
    move = None
    for run in range(args.repeat):
        bot = MCTSBot(iterations=args.iterations, rollout_depth=args.rollout_depth, **(PLAIN if args.plain else {}))
        started, cpu_started = time.perf_counter(), time.process_time()
        move = bot.choose(planner, state, seat, random.Random(run))
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        rates.append(bot.last_iterations / elapsed)
        cpu_rates.append(bot.last_iterations / max(cpu, 1e-9))
    caps = getattr(rules, "capabilities", None)  # an older checkout has no declaration: it probed for the hooks
    declared = (
        caps.play_in_place or caps.apply_in_place
        if caps
        else hasattr(rules, "play") or hasattr(rules, "apply_in_place")
    )
    fast = "off" if args.no_fast_path or not declared else "on"
    print(
        f"MCTS: {statistics.median(rates):,.0f} iterations/s (median of {args.repeat} runs of {args.iterations},"
        f" rollout depth {args.rollout_depth}, fast path {fast}; min {min(rates):,.0f}, max {max(rates):,.0f})"
    )
    print(f"CPU: {statistics.median(cpu_rates):,.0f} iterations per CPU second (median)")
    print(f"per iteration: {1000 / statistics.median(rates):.3f} ms; chosen: {move}")
    return 0


def _rate(checkout: Path, argv: list[str]) -> float:
    """One run of this benchmark on the code of ``checkout``, in a fresh process: iterations per CPU second
    (CPU time, so that other processes on a busy machine weigh less than on the wall clock)."""
    run = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), *argv, "--root", str(checkout)],
        capture_output=True,
        text=True,
        check=True,
    )
    match = re.search(r"CPU: ([\d,]+) iterations per CPU second", run.stdout)
    if match is None:
        raise SystemExit(f"no rate in the output for {checkout}:\n{run.stdout}{run.stderr}")
    return float(match.group(1).replace(",", ""))


def _passed_on(argv: list[str], dropped: tuple[str, ...]) -> list[str]:
    """``argv`` without the options in ``dropped`` (each with its value, except the flag ``--instructions``)."""
    out: list[str] = []
    skip = False
    for a in argv:
        if skip:
            skip = False
        elif a == "--instructions":
            continue
        elif a in dropped:
            skip = True
        else:
            out.append(a)
    return out


def _callgrind(checkout: Path, argv: list[str], iterations: int) -> int:
    """Instructions callgrind counts for one run of this benchmark (one search) on the code of ``checkout``."""
    script = str(Path(__file__).resolve())
    command = [sys.executable, script, *argv, "--repeat", "1", "--iterations", str(iterations), "--root", str(checkout)]
    return callgrind_count.instructions(command, str(checkout))


def instructions(args: argparse.Namespace, argv: list[str]) -> int:
    if not callgrind_count.available():
        print("--instructions needs valgrind (apt-get install -y valgrind)", file=sys.stderr)
        return 2
    passed = _passed_on(argv, ("--against", "--repeat", "--root", "--iterations"))
    high, low = args.iterations, max(1, args.iterations // 5)
    checkouts = [code_root(argv)] + ([Path(args.against).resolve()] if args.against else [])
    print(f"instructions per MCTS iteration (callgrind: a search of {high} less one of {low})")
    counts = []
    for checkout in checkouts:
        per = (_callgrind(checkout, passed, high) - _callgrind(checkout, passed, low)) / (high - low)
        counts.append(per)
        print(f"  {checkout.name:12} {per / 1e6:8.3f} M", flush=True)
    if len(counts) == 2:
        print(f"  {checkouts[1].name} / {checkouts[0].name}: {counts[1] / counts[0]:.2f}")
    return 0


def compare(args: argparse.Namespace, argv: list[str]) -> int:
    here = code_root(argv)
    there = Path(args.against).resolve()
    single = [*_passed_on(argv, ("--against", "--repeat", "--root")), "--repeat", "1"]
    ratios, mine, theirs = [], [], []
    for round_ in range(args.repeat):
        b = _rate(there, single)
        a = _rate(here, single)
        mine.append(a)
        theirs.append(b)
        ratios.append(a / b)
        print(
            f"round {round_ + 1}: {a:,.0f} here, {b:,.0f} in {there.name} (iterations per CPU second): ratio {a / b:.2f}"
        )
    print(
        f"MCTS ratio here / {there.name}: median {statistics.median(ratios):.2f}"
        f" (min {min(ratios):.2f}, max {max(ratios):.2f}) over {args.repeat} rounds;"
        f" here median {statistics.median(mine):,.0f}, {there.name} median {statistics.median(theirs):,.0f}"
        " iterations per CPU second"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
