"""One bot level with and without ``follow_others`` (the other seats playing their steps through in the search).

    python benchmarks/follow_others_ab.py GAME PLAYERS LEVEL GAMES SEED

One seat plays ``LEVEL`` as it is; the others play the same level built with ``follow_others=None`` (shown as
``LEVEL-old``). Seats rotate as in ``bot_ladder.py``, whose rung table this prints (win share of ``LEVEL`` with
its 95% Wilson interval against the even share, mean scores, command-type shares). Runs in one process: the
"-old" bots are built by a wrapper around ``make_bot`` that worker processes would not inherit.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bot_ladder  # noqa: E402
from search_ab import variant_maker  # noqa: E402

import workers.simulate as simulate  # noqa: E402

SUFFIX = "-old"
# ``make_bot``, except that ``<level>-old`` is that level without ``follow_others``
make_bot_or_old = variant_maker({"follow_others": None}, SUFFIX)


def main(argv: list[str]) -> int:
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    game, players, level, games, seed = argv[0], int(argv[1]), argv[2], int(argv[3]), int(argv[4])
    simulate.make_bot = make_bot_or_old  # type: ignore[attr-defined]  # the bots of this process only
    print(bot_ladder.rung(game, players, level, level + SUFFIX, games, seed, 1, None, 0.0))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
