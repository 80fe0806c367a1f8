"""One search level as it is against the same level with some of its search options changed.

    python benchmarks/search_ab.py GAME PLAYERS LEVEL GAMES --set NAME=VALUE [--set ...] [--seed 7000]
        [--time-limit SECONDS] [--records FILE]
    python benchmarks/search_ab.py amerigo 2 medium 24 --set tie=None

One seat plays LEVEL as it is; the others play LEVEL with the ``MCTSBot`` attributes NAME set to VALUE (``None``,
``True``, ``False``, an integer or a number), shown as ``LEVEL-variant``. Seats rotate as in ``bot_ladder.py``,
whose rung table this prints (win share of LEVEL with its 95% Wilson interval against the even share, mean scores,
command-type shares). ``--time-limit``: start no new game after this many seconds (the finished rotation blocks are
counted). Runs in one process, one game at a time: the variant bots are built by a wrapper around ``make_bot``
that worker processes would not inherit (as in ``follow_others_ab.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bot_ladder  # noqa: E402

import workers.simulate as simulate  # noqa: E402
from domain.bots import Bot, MCTSBot, make_bot  # noqa: E402

SUFFIX = "-variant"
WORDS: dict[str, Any] = {"None": None, "True": True, "False": False}


def parse_set(items: list[str], probe: MCTSBot) -> dict[str, Any]:
    """``NAME=VALUE`` items as attribute values; every NAME must be an attribute of ``probe``."""
    values: dict[str, Any] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or name.startswith("_") or not hasattr(probe, name):
            raise SystemExit(f"--set {item!r}: expected NAME=VALUE with NAME an attribute of MCTSBot")
        if text in WORDS:
            values[name] = WORDS[text]
            continue
        try:
            values[name] = int(text)
        except ValueError:
            try:
                values[name] = float(text)
            except ValueError:
                raise SystemExit(f"--set {item!r}: VALUE is None, True, False or a number") from None
    return values


def variant_maker(values: dict[str, Any], suffix: str = SUFFIX):
    """``make_bot``, except that ``<level><suffix>`` is that level's bot with the attributes ``values`` set."""

    def make(level: str, seed: int | None = None) -> Bot:
        if not level.endswith(suffix):
            return make_bot(level, seed)
        bot = make_bot(level[: -len(suffix)], seed)
        for name, value in values.items():
            setattr(bot, name, value)
        return bot

    return make


def main(argv: list[str] | None = None) -> int:
    parser = bot_ladder.ab_parser(__doc__)
    parser.add_argument("--time-limit", type=float, default=None)
    parser.add_argument("--records", default=None, help="append every game's record to this file (JSON lines)")
    args = parser.parse_args(argv)
    probe = make_bot(args.level)
    if not isinstance(probe, MCTSBot):
        raise SystemExit(f"{args.level!r} is not a search level")
    values = parse_set(args.set, probe)
    simulate.make_bot = variant_maker(values)  # type: ignore[attr-defined]  # the bots of this process only
    print(f"{args.level}-variant: {values}", flush=True)
    lower = args.level + SUFFIX
    table = bot_ladder.rung(
        args.game, args.players, args.level, lower, args.games, args.seed, 1, args.time_limit, 0.0, args.records
    )
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
