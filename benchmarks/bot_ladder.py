"""The bot ladder of every game: does each level beat the one below it, at every player count?

Usage::

    python benchmarks/bot_ladder.py GAMES [--games-list puerto_rico,murano] [--players 2,3] \\
        [--rungs easy/random,medium/easy,hard/medium] [--rung-games medium/easy=40] [--hard mcts:600] \\
        [--jobs 2] [--seed 1] [--time-limit SECONDS] [--min-share 0.01] [--records FILE] [--options JSON]
    python benchmarks/bot_ladder.py 0 --from-records FILE [FILE ...] [--games-list GAME] [--min-share 0]

A rung ``A/B`` seats one ``A`` against ``n - 1`` copies of ``B`` (seats rotated, the ``n`` games of a
rotation block share a deal: ``workers.simulate.plan``), ``GAMES`` games per game and player count
(``--rung-games`` overrides it per rung). ``A`` climbs the rung when the 95% Wilson interval of its win
share lies above the even share ``1/n``. Games nobody won (aborted by a guard, or ``no_winner``) are
counted apart and are no win for anybody. Bots run on iteration budgets only (no clock), so a seed
reproduces the run; ``--hard`` replaces the ``hard`` level by a cheaper ``mcts:<iterations>[:<depth>]``
budget where the full one would take too long (the table says which was used).

Per rung the table prints: games (decided / aborted / no winner), A's win share and interval, the even
share, whether the rung is climbed, mean scores of A and of B, seconds per decision of A, then the share
of each command type chosen by A (the level's "command-type shares"; types below ``--min-share``, default 1%,
are left out; ``--min-share 0`` lists every type chosen, with its count). ``--records FILE`` appends every game's
record (``workers.simulate.play_game``) to FILE as one JSON line as soon as the game ends, with the rung, player
count and game type added (and the options, with ``--options``), so a run stopped early keeps the games it finished
(the table counts whole rotation blocks only; the file has every finished game). Progress goes to stderr (a line
every tenth of a rung's games). ``--options '{"more_fun": true}'`` plays every game with those game options (as
``tradewinds simulate --options``); the table names them beside the game.

``--from-records`` plays nothing: it prints the table from such files, the games of every file pooled per game,
player count, rung and options, so runs with different ``--seed`` (or stopped at different points) add up. It counts the
complete rotation blocks (a deal's games in every seating; the last column says how many games were outside
them), reads a game found twice once and leaves out a line that is not a whole record (a run killed while it
wrote). ``--players`` and ``--rungs`` do not filter what it reads; records written before the game type was
added need ``--games-list`` naming their one game.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain import registry  # noqa: E402
from workers.simulate import Progress, outcome_counts, plan, run, summarise, wilson_interval  # noqa: E402

GAMES = ("puerto_rico", "murano", "amerigo", "archipelago")
RUNGS = ("easy/random", "medium/easy", "hard/medium")


def command_counts(records: list[dict], policy: str) -> dict[str, int]:
    """How often the seats of ``policy`` chose each command type, most frequent first."""
    counts: dict[str, int] = {}
    for record in records:
        for seat, name in enumerate(record["seating"]):
            if name != policy:
                continue
            for kind, n in record["commands"][seat].items():
                counts[kind] = counts.get(kind, 0) + n
    return dict(sorted(counts.items(), key=lambda kv: -kv[1]))


def shares_text(records: list[dict], policy: str, min_share: float) -> str:
    """``kind share`` for each type at or above ``min_share``; with ``min_share`` 0 every type, with its count."""
    counts = command_counts(records, policy)
    total = sum(counts.values()) or 1
    if min_share <= 0:
        return ", ".join(f"{kind} {n / total:.1%} ({n})" for kind, n in counts.items())
    return ", ".join(f"{kind} {n / total:.0%}" for kind, n in counts.items() if n / total >= min_share)


def rung(
    game: str,
    players: int,
    upper: str,
    lower: str,
    games: int,
    seed: int,
    jobs: int,
    time_limit: float | None,
    min_share: float = 0.01,
    records_file: str | None = None,
    options: dict | None = None,
) -> str:
    policies = [upper] + [lower] * (players - 1)
    tasks = plan(game, None, policies, games, seed, rotate=True, options=options)
    started = time.monotonic()
    named = game_name(game, options)
    print(f"{named}, {players} players, {upper} vs {lower}: {len(tasks)} games", file=sys.stderr, flush=True)

    def write(record: dict) -> None:  # as the game ends: a run stopped early keeps what it played
        assert records_file is not None
        with open(records_file, "a", encoding="utf-8") as out:
            line = {"rung": f"{upper}/{lower}", "players": players, "game_type": game, **record}
            if options:
                line["options"] = options
            out.write(json.dumps(line) + "\n")

    records = run(tasks, jobs, Progress(len(tasks), sys.stderr), None, time_limit, write if records_file else None)
    records = records[: len(records) // players * players] or records  # whole rotation blocks
    return row(named, players, upper, lower, records, f"{time.monotonic() - started:.0f}", min_share)


def game_name(game: str, options: dict | None) -> str:
    """The game as the table names it: with its options, when any were set."""
    return f"{game} {json.dumps(options, sort_keys=True)}" if options else game


def row(game: str, players: int, upper: str, lower: str, records: list[dict], seconds: str, min_share: float) -> str:
    """The table row of one rung (and its two command-type lines) from its games' records."""
    counts = outcome_counts(records)
    stats = {s.policy: s for s in summarise(records, [upper] + [lower] * (players - 1))}
    top, bottom = stats[upper], stats[lower]
    even = 1.0 / players
    low, high = wilson_interval(top.wins, top.games)
    verdict = "climbed" if low > even else ("FELL" if high < even else "not shown")
    mean = lambda s: s.score / s.games if s.games else float("nan")  # noqa: E731
    per_move = top.think / top.decisions if top.decisions else 0.0
    share_text = shares_text(records, upper, min_share)
    lower_text = shares_text(records, lower, min_share)
    return (
        f"| {game} | {players} | {upper} vs {lower} | {len(records)} ({counts['decided']}/{counts['aborted']}/"
        f"{counts['no_winner']}) | {top.win_rate:.3f} [{low:.3f}, {high:.3f}] | {even:.3f} | {verdict} |"
        f" {mean(top):.1f} / {mean(bottom):.1f} | {per_move:.3f} | {seconds} |\n"
        f"|  |  | command types of {upper}: {share_text} |  |  |  |  |  |  |  |\n"
        f"|  |  | command types of {lower}: {lower_text} |  |  |  |  |  |  |  |"
    )


def whole_blocks(records: list[dict]) -> tuple[list[dict], int, int]:
    """The records of complete rotation blocks (a block: the ``players`` games of one deal, told by its seed,
    each game of it once), grouped by deal in the order each deal first appears; how many records were left out
    of them; and how many repeated a game already read (the same deal, game number and seating: a file given
    twice). Runs stopped at different points pool fairly."""
    seen: set[tuple] = set()
    by_deal: dict[tuple, list[dict]] = {}
    repeated = 0
    for record in records:
        game = (record["seed"], record["game"], tuple(record["seating"]))
        if game in seen:
            repeated += 1
            continue
        seen.add(game)
        by_deal.setdefault((record["seed"], tuple(sorted(record["seating"]))), []).append(record)
    kept = [r for games in by_deal.values() if len(games) == len(games[0]["seating"]) for r in games]
    return kept, len(records) - repeated - len(kept), repeated


def from_records(paths: list[str], game_named: str | None, min_share: float) -> int:
    """Print the ladder table from ``--records`` files, their games pooled per game, player count and rung (runs
    with different ``--seed`` add up), complete rotation blocks only."""
    groups: dict[tuple[str, int, str, str], list[dict]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:  # a run killed while it wrote its last game
                    print(f"{path}:{number}: not a whole record, left out", file=sys.stderr)
                    continue
                game = record.get("game_type") or game_named
                if game is None:
                    raise SystemExit(f"{path}:{number}: a record without game_type: name its game with --games-list")
                named = game_name(game, record.get("options"))
                groups.setdefault((named, record["players"], record["rung"], game), []).append(record)
    print(f"bot ladder from {len(paths)} record file(s), complete rotation blocks only")
    print(HEADER)
    for (game, players, name, _), records in groups.items():
        upper, lower = name.split("/")
        kept, left, repeated = whole_blocks(records)
        if repeated:
            print(f"{game}, {players} players, {name}: {repeated} repeated game(s) read once", file=sys.stderr)
        if not kept:
            print(f"| {game} | {players} | {upper} vs {lower} | 0 complete blocks ({left} games outside) |")
            continue
        print(row(game, players, upper, lower, kept, f"{left} games outside blocks", min_share), flush=True)
    return 0


HEADER = (
    "| game | players | rung | games (decided/aborted/no winner) | win share [95% CI] | even | result |"
    " mean score upper / lower | s per move (upper) | seconds |\n|---|---|---|---|---|---|---|---|---|---|"
)


def ab_parser(doc: str) -> argparse.ArgumentParser:
    """The arguments of a one-level A/B on this ladder's rung (``evaluation_ab.py``, ``search_ab.py``): GAME PLAYERS
    LEVEL GAMES, one ``--set NAME=VALUE`` or more, ``--seed``."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("level")
    parser.add_argument("games", type=int)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", required=True)
    parser.add_argument("--seed", type=int, default=7000)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=int, help="games per comparison, game and player count")
    parser.add_argument("--games-list", default=",".join(GAMES))
    parser.add_argument("--players", default="", help="player counts (default: every supported count)")
    parser.add_argument("--rungs", default=",".join(RUNGS))
    parser.add_argument("--rung-games", default="", help="per-rung game counts, e.g. medium/easy=40,hard/medium=10")
    parser.add_argument("--hard", default="hard", help="policy standing for the hard level (e.g. mcts:600)")
    parser.add_argument("--medium", default="medium", help="policy standing for the medium level")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, help="per comparison: start no new game after this many seconds")
    parser.add_argument("--min-share", type=float, default=0.01, help="command types below this share are left out")
    parser.add_argument("--records", help="append every game's record to this file (JSON lines)")
    parser.add_argument(
        "--options", default="", help="game options as JSON for every game, e.g. '{\"more_fun\": true}'"
    )
    parser.add_argument(
        "--from-records",
        nargs="+",
        metavar="FILE",
        help="play nothing: print the table from these --records files, pooled (GAMES is then ignored)",
    )
    args = parser.parse_args(argv)
    if args.from_records:
        named = args.games_list.split(",")
        return from_records(args.from_records, named[0] if len(named) == 1 else None, args.min_share)
    alias = {"hard": args.hard, "medium": args.medium}
    try:
        options = json.loads(args.options) if args.options else None
    except ValueError as exc:
        parser.error(f"bad --options: {exc}")
    if options is not None and not isinstance(options, dict):
        parser.error("bad --options: not a JSON object")
    per_rung = dict(item.split("=") for item in args.rung_games.split(",") if item)
    counts_of = {}
    for game in args.games_list.split(","):  # every game's options checked before the first game is played
        rules = registry.get(game)
        counts = [int(p) for p in args.players.split(",") if p] or list(range(rules.min_players, rules.max_players + 1))
        counts_of[game] = [p for p in counts if rules.min_players <= p <= rules.max_players]
        for players in counts_of[game]:
            try:
                rules.validate_options(options, players)
            except ValueError as exc:  # InvalidOptions
                parser.error(f"bad --options for {game} at {players} players: {exc}")
    print(
        f"bot ladder: {args.games} games per comparison (per rung: {per_rung or 'same'}), hard = {args.hard},"
        f" medium = {args.medium}, seed {args.seed}, {args.jobs} job(s), time limit {args.time_limit}"
    )
    print(HEADER)
    for game, counts in counts_of.items():
        for players in counts:
            for name in args.rungs.split(","):
                upper, lower = name.split("/")
                games = int(per_rung.get(name, args.games))
                line = rung(
                    game,
                    players,
                    alias.get(upper, upper),
                    alias.get(lower, lower),
                    games,
                    args.seed,
                    args.jobs,
                    args.time_limit,
                    args.min_share,
                    args.records,
                    options,
                )
                print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
