"""``tradewinds simulate``: bot-vs-bot games in parallel processes, with win rates and confidence intervals.

Example::

    tradewinds simulate --game puerto_rico --seats mcts,greedy,random,random --games 200 --jobs 2

Each entry of ``--seats`` is a policy (a bot name, ``random``/``greedy``/``mcts``, a level,
``random``/``easy``/``medium``/``hard``, or ``mcts:<iterations>[:<rollout depth>]``). With ``--rotate`` (the default) game
``g`` seats the entries rotated by ``g mod n`` and the ``n`` games of a rotation block share one deal
seed, so every policy sits in every seat equally often *on the same deals* (fewer games needed).

Games nobody won are reported apart and never count as (shared) wins: ``aborted`` games (stopped by the
game's own guard, ``details.aborted``, or by ``--max-decisions``) and ``no_winner`` games (a collective
loss). Win rates, scores and ranks are over the decided games.

Bots run on iteration budgets only (no clock), so ``--seed`` reproduces the run exactly: the same
standard output and the same ``--out`` file whatever ``--jobs`` is. Timing figures go to stderr.

The game is resolved by ``domain.registry.get``. ``--game-module pkg.mod`` imports a module exposing
``RULES`` and registers it (in this process and in every worker process), for games that are not in
the registry yet. A game registered at run time with ``domain.registry.register`` also works with
``--jobs > 1`` when its module exposes it as ``RULES`` (the module path is passed to the workers).
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, TextIO

from domain import registry
from domain.bots import make_bot, policy_names
from domain.game import Rules
from domain.rng import new_seed, rng_for


@dataclass(frozen=True)
class GameTask:
    """One game to play; picklable so it can be sent to a worker process."""

    index: int
    game: str
    module: str | None
    seed: int
    seating: tuple[str, ...]
    bot_seeds: tuple[int, ...]
    options: dict[str, Any] = field(default_factory=dict)
    max_decisions: int = 100_000


# -- resolving the game -------------------------------------------------------------------------------


def load_game(game: str | None, module: str | None) -> Rules:
    """The rules for ``game``; with ``module``, import it and register its ``RULES`` first."""
    if module:
        rules: Rules = importlib.import_module(module).RULES
        if game and game != rules.name:
            raise ValueError(f"module {module} provides game {rules.name!r}, not {game!r}")
        try:
            known = registry.get(rules.name)
        except registry.UnknownGameType:
            known = None
        if known is not rules:
            registry.register(rules)
        return rules
    if not game:
        raise ValueError("give --game (or --game-module)")
    return registry.get(game)


def module_exposing(rules: Rules) -> str | None:
    """The module path whose ``RULES`` is this object, so worker processes can import it."""
    name = type(rules).__module__
    module = sys.modules.get(name)
    return name if module is not None and getattr(module, "RULES", None) is rules else None


def _init_worker(game: str, module: str | None) -> None:
    if module:
        try:
            registry.get(game)
        except registry.UnknownGameType:
            load_game(game, module)


# -- playing ------------------------------------------------------------------------------------------


def play_game(task: GameTask, rules: Rules | None = None) -> dict[str, Any]:
    """Play one game to the end. Returns its record plus ``think`` (seconds and decisions per seat) and
    ``commands`` (per seat, how often each command type was chosen)."""
    rules = rules or load_game(task.game, task.module)
    seats = len(task.seating)
    bots = [make_bot(policy, seed) for policy, seed in zip(task.seating, task.bot_seeds, strict=True)]
    events = rules.setup(task.seed, seats, task.options)
    state = rules.fold(events)
    decisions = 0
    think = [0.0] * seats
    moves = [0] * seats
    kinds: list[dict[str, int]] = [{} for _ in range(seats)]  # command types chosen, per seat
    cut = False
    previous = -1  # the seat whose command was played last
    while not rules.is_over(state):
        if decisions >= task.max_decisions:
            cut = True  # recorded as an aborted game with no winner, reported apart
            break
        acting = rules.to_act(state)
        if not acting:
            raise RuntimeError(f"game {task.index} (seed {task.seed}): nobody may act but the game is not over")
        seat = min(acting)
        started = time.perf_counter()
        command = bots[seat].choose(rules, state, seat, continuing=seat == previous)
        previous = seat
        think[seat] += time.perf_counter() - started
        moves[seat] += 1
        kind = str(command.get("type"))
        kinds[seat][kind] = kinds[seat].get(kind, 0) + 1
        new_events = rules.decide(state, command, seat, rng_for(task.seed, len(events)))
        for event in new_events:
            state = rules.evolve(state, event)
        events.extend(new_events)
        decisions += 1
    details: dict[str, Any]
    if cut:
        scores, ranks, details, no_winner = [0.0] * seats, [1] * seats, {"cut": "max_decisions"}, True
        aborted: str | None = "max_decisions"
    else:
        result = rules.result(state)
        scores, ranks, details, no_winner = list(result.scores), list(result.ranks), result.details, result.no_winner
        aborted = "aborted" if isinstance(details, dict) and details.get("aborted") is True else None
    return {
        "game": task.index,
        "seed": task.seed,
        "seating": list(task.seating),
        "scores": scores,
        "ranks": ranks,
        "no_winner": bool(no_winner),
        "aborted": aborted,
        "details": details,
        "decisions": decisions,
        "events": len(events),
        "think": {"seconds": think, "decisions": moves},
        "commands": kinds,
    }


def _play_task(task: GameTask) -> dict[str, Any]:
    return play_game(task)


def plan(
    game: str,
    module: str | None,
    policies: Sequence[str],
    games: int,
    seed: int,
    rotate: bool = True,
    options: dict[str, Any] | None = None,
    max_decisions: int = 100_000,
) -> list[GameTask]:
    """The games of a run: seatings (rotated in blocks of ``n`` sharing a deal seed) and all seeds."""
    n = len(policies)
    tasks = []
    for index in range(games):
        block, turn = (index // n, index % n) if rotate else (index, 0)
        game_seed = rng_for(seed, block, "simulate:game").getrandbits(63)
        seating = tuple(policies[(seat - turn) % n] for seat in range(n))
        seeder = rng_for(seed, index, "simulate:bots")
        bot_seeds = tuple(seeder.getrandbits(63) for _ in range(n))
        tasks.append(GameTask(index, game, module, game_seed, seating, bot_seeds, dict(options or {}), max_decisions))
    return tasks


# -- statistics ---------------------------------------------------------------------------------------


def wilson_interval(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval for a proportion (``wins`` may be fractional: shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class PolicyStats:
    policy: str
    games: int = 0
    wins: float = 0.0
    score: float = 0.0
    rank: float = 0.0
    think: float = 0.0
    decisions: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def decided(record: dict[str, Any]) -> bool:
    """A game somebody won: not aborted (by the game's own guard or ``--max-decisions``) and not ``no_winner``."""
    return not record.get("aborted") and not record.get("no_winner")


def outcome_counts(records: Sequence[dict[str, Any]]) -> dict[str, int]:
    """How many games were decided, aborted (a guard stopped them) and ended with no winner (not aborted)."""
    aborted = sum(1 for r in records if r.get("aborted"))
    no_winner = sum(1 for r in records if r.get("no_winner") and not r.get("aborted"))
    return {"decided": len(records) - aborted - no_winner, "aborted": aborted, "no_winner": no_winner}


def summarise(records: Sequence[dict[str, Any]], policies: Sequence[str]) -> list[PolicyStats]:
    """Per policy (duplicates in ``--seats`` pooled), over the decided games only (see ``decided``): seat-games,
    shared wins (1/k), score and rank sums. Aborted and ``no_winner`` games are no win for anybody and are
    counted apart (``outcome_counts``); think time covers every game."""
    stats = {p: PolicyStats(p) for p in dict.fromkeys(policies)}
    for record in records:
        if not decided(record):
            think = record.get("think")
            if think:
                for seat, policy in enumerate(record["seating"]):
                    stats[policy].think += think["seconds"][seat]
                    stats[policy].decisions += think["decisions"][seat]
            continue
        ranks = record["ranks"]
        firsts = sum(1 for r in ranks if r == 1)
        for seat, policy in enumerate(record["seating"]):
            entry = stats[policy]
            entry.games += 1
            entry.wins += 1.0 / firsts if ranks[seat] == 1 else 0.0
            entry.score += record["scores"][seat]
            entry.rank += ranks[seat]
            think = record.get("think")
            if think:
                entry.think += think["seconds"][seat]
                entry.decisions += think["decisions"][seat]
    return list(stats.values())


def format_summary(
    game: str, records: Sequence[dict[str, Any]], policies: Sequence[str], seed: int, rotate: bool
) -> str:
    n = len(policies)
    counts = outcome_counts(records)
    lines = [
        f"game {game}: {len(records)} games, {n} seats, seats {','.join(policies)}"
        f" ({'rotated' if rotate else 'fixed seating'}), seed {seed}",
        f"decided {counts['decided']}, aborted {counts['aborted']}, no winner {counts['no_winner']}"
        " (win rates, scores and ranks below are over the decided games)",
        f"{'policy':<14} {'games':>6} {'win rate':>9} {'95% CI':>16} {'mean score':>11} {'mean rank':>10}",
    ]
    for entry in summarise(records, policies):
        low, high = wilson_interval(entry.wins, entry.games)
        games = max(entry.games, 1)
        lines.append(
            f"{entry.policy:<14} {entry.games:>6} {entry.win_rate:>9.3f} {f'[{low:.3f}, {high:.3f}]':>16}"
            f" {entry.score / games:>11.2f} {entry.rank / games:>10.2f}"
        )
    if records:
        lengths = [r["decisions"] for r in records]
        lines.append(
            f"mean game length: {sum(lengths) / len(lengths):.1f} decisions (min {min(lengths)}, max {max(lengths)});"
            f" a policy as good as the others wins {1 / n:.3f} (ties share wins)"
        )
    return "\n".join(lines)


# -- progress -----------------------------------------------------------------------------------------


class Progress:
    """A hand-written bar on a terminal; otherwise one plain line every few games."""

    def __init__(self, total: int, stream: TextIO, enabled: bool = True) -> None:
        self.total = total
        self.stream = stream
        self.enabled = enabled and total > 0
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.every = max(1, math.ceil(total / 10))
        self.started = time.monotonic()
        self.done = 0

    def step(self) -> None:
        self.done += 1
        if not self.enabled:
            return
        elapsed = time.monotonic() - self.started
        if self.tty:
            width = 30
            filled = int(width * self.done / self.total)
            eta = elapsed / self.done * (self.total - self.done)
            bar = "#" * filled + "-" * (width - filled)
            self.stream.write(f"\r[{bar}] {self.done}/{self.total} games  {elapsed:6.1f}s  eta {eta:6.1f}s")
            if self.done == self.total:
                self.stream.write("\n")
            self.stream.flush()
        elif self.done % self.every == 0 or self.done == self.total:
            self.stream.write(f"progress: {self.done}/{self.total} games, {elapsed:.1f}s\n")
            self.stream.flush()


# -- running ------------------------------------------------------------------------------------------


def run(
    tasks: Sequence[GameTask],
    jobs: int,
    progress: Progress,
    rules: Rules | None = None,
    time_limit: float | None = None,
    on_record: Callable[[dict[str, Any]], object] | None = None,
) -> list[dict[str, Any]]:
    """Play the tasks (in this process with ``jobs == 1``) and return the records in game order.

    With ``time_limit`` (seconds) no new game starts once it has passed; games already running finish
    and the longest completed prefix of the games is returned. ``on_record`` is called with each game's record
    as that game ends (in the order they end), so a long run keeps what it played if it is stopped."""
    deadline = None if time_limit is None else time.monotonic() + time_limit

    def expired() -> bool:
        return deadline is not None and time.monotonic() >= deadline

    records: dict[int, dict[str, Any]] = {}
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            if expired():
                break
            records[task.index] = play_game(task, rules)
            if on_record is not None:
                on_record(records[task.index])
            progress.step()
    else:
        first = tasks[0]
        queue = list(reversed(tasks))
        with ProcessPoolExecutor(
            max_workers=jobs, initializer=_init_worker, initargs=(first.game, first.module)
        ) as pool:
            pending: set[Any] = set()
            try:
                while queue or pending:
                    while queue and len(pending) < 2 * jobs and not expired():
                        pending.add(pool.submit(_play_task, queue.pop()))
                    if not pending:
                        break
                    if expired():  # queued games that have not started yet are dropped
                        pending = {future for future in pending if not future.cancel()}
                        if not pending:
                            break
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in finished:
                        if future.cancelled():
                            continue
                        record = future.result()
                        records[record["game"]] = record
                        if on_record is not None:
                            on_record(record)
                        progress.step()
            except BaseException:
                for future in pending:
                    future.cancel()
                raise
    out = []
    for task in tasks:
        if task.index not in records:
            break
        out.append(records[task.index])
    return out


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tradewinds simulate",
        description="Play bot-vs-bot games and report win rates (95% Wilson intervals), scores and ranks.",
    )
    parser.add_argument("--game", help="game type name (domain.registry)")
    parser.add_argument(
        "--game-module", help="import this module and register its RULES (e.g. tests.support.secret_game)"
    )
    parser.add_argument(
        "--seats",
        required=True,
        help=f"comma-separated policies, one per seat: {', '.join(policy_names())}, mcts:<iterations>[:<rollout depth>]",
    )
    parser.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1: in this process)")
    parser.add_argument("--seed", type=int, help="master seed; the same seed reproduces the same run")
    parser.add_argument("--out", help="write one JSON line per game to this file")
    parser.add_argument(
        "--rotate", action=argparse.BooleanOptionalAction, default=True, help="rotate seat order (default on)"
    )
    parser.add_argument("--options", default="{}", help="game options as JSON, e.g. '{\"rounds\": 5}'")
    parser.add_argument("--max-decisions", type=int, default=100_000, help="abort a game that runs longer than this")
    parser.add_argument(
        "--time-limit",
        type=float,
        help="start no new game after this many seconds; report the games finished in order (the game count"
        " then depends on machine speed, the games themselves stay reproducible)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress output on stderr")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    err = sys.stderr

    def fail(message: str) -> int:
        print(f"tradewinds simulate: error: {message}", file=err)
        return 2

    try:
        rules = load_game(args.game, args.game_module)
    except (ValueError, ImportError, AttributeError, registry.UnknownGameType) as exc:
        return fail(f"unknown game: {exc}; known: {', '.join(registry.names()) or 'none'}")
    policies = [p.strip() for p in args.seats.split(",") if p.strip()]
    for policy in policies:
        try:
            make_bot(policy, 0)
        except ValueError as exc:
            return fail(str(exc))
    if not rules.min_players <= len(policies) <= rules.max_players:
        return fail(f"{rules.name} takes {rules.min_players}..{rules.max_players} seats, got {len(policies)}")
    if args.games < 1 or args.jobs < 1 or args.max_decisions < 1:
        return fail("--games, --jobs and --max-decisions must be at least 1")
    if args.out:  # checked before any game is played: a run is not lost to a path that cannot be written
        try:
            with open(args.out, "a", encoding="utf-8"):
                pass
        except OSError as exc:
            return fail(f"cannot write --out {args.out}: {exc.strerror or exc}")
    try:
        options = json.loads(args.options)
        if not isinstance(options, dict):
            raise ValueError("not an object")
        rules.validate_options(options, len(policies))
    except ValueError as exc:
        return fail(f"bad --options: {exc}")
    seed = args.seed if args.seed is not None else new_seed() % 1_000_000_000
    module = args.game_module or module_exposing(rules)
    tasks = plan(rules.name, module, policies, args.games, seed, args.rotate, options, args.max_decisions)
    progress = Progress(len(tasks), err, enabled=not args.no_progress)
    started = time.monotonic()
    records = run(tasks, args.jobs, progress, rules, args.time_limit)
    if not records:
        return fail("no game finished within --time-limit")
    if len(records) < len(tasks):
        if args.rotate and len(records) >= len(policies):
            records = records[: len(records) // len(policies) * len(policies)]  # whole rotation blocks only
        print(f"--time-limit reached: reporting the first {len(records)} of {len(tasks)} games", file=err)
    elapsed = time.monotonic() - started
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            for record in records:
                line = {key: value for key, value in record.items() if key not in ("think", "commands")}
                out.write(json.dumps(line, sort_keys=True) + "\n")
    print(format_summary(rules.name, records, policies, seed, args.rotate))
    timing = ", ".join(
        f"{entry.policy} {1000 * entry.think / entry.decisions:.2f} ms"
        for entry in summarise(records, policies)
        if entry.decisions
    )
    print(
        f"{len(records)} games in {elapsed:.1f}s with {args.jobs} job(s); think time per decision: {timing}", file=err
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
