"""One bot level with a game's evaluation as it is against the same level with some of its constants changed.

    python benchmarks/evaluation_ab.py GAME PLAYERS LEVEL GAMES --set NAME=VALUE [--set ...] [--seed 7000]
    python benchmarks/evaluation_ab.py murano 2 easy 200 --set GONDOLIER_VALUE=1

One seat plays LEVEL as it is; the others play LEVEL with the constants NAME of the game's evaluation module
(``domain.<game>.evaluate``) set to VALUE while they decide (shown as ``LEVEL-variant``). Seats rotate as in
``bot_ladder.py``, whose rung table this prints (win share of LEVEL with its 95% Wilson interval against the even
share, mean scores, command-type shares). Runs in one process, one game at a time: the variant bots are built by a
wrapper around ``make_bot`` that worker processes would not inherit (as in ``follow_others_ab.py``).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bot_ladder  # noqa: E402

import workers.simulate as simulate  # noqa: E402
from domain.bots import Bot, make_bot  # noqa: E402

SUFFIX = "-variant"


@contextmanager
def constants(module: ModuleType, values: dict[str, float]) -> Iterator[None]:
    """``module``'s constants set to ``values`` inside the block, its kept values (``domain.game.keep``) emptied on
    the way in and out: they were computed with the other constants."""
    saved = {name: getattr(module, name) for name in values}
    for name, value in values.items():
        setattr(module, name, value)
    forget(module)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(module, name, value)
        forget(module)


def forget(module: ModuleType) -> None:
    """Empty ``module``'s kept values: each dict ``NAME`` beside its limit ``NAME_ENTRIES`` (``_VALUES``, ...)."""
    for name, kept in vars(module).items():
        if isinstance(kept, dict) and isinstance(getattr(module, name + "_ENTRIES", None), int):
            kept.clear()


class VariantBot:
    """``bot``, deciding with ``values`` set in ``module``."""

    def __init__(self, bot: Bot, module: ModuleType, values: dict[str, float]) -> None:
        self._bot, self._module, self._values = bot, module, values

    def choose(self, *args: Any, **kwargs: Any) -> Any:
        with constants(self._module, self._values):
            return self._bot.choose(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._bot, name)


def parse_set(items: list[str], module: ModuleType) -> dict[str, float]:
    values = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not hasattr(module, name):
            raise SystemExit(f"--set {item!r}: expected NAME=VALUE with NAME a constant of {module.__name__}")
        values[name] = float(text)
    return values


def main(argv: list[str] | None = None) -> int:
    args = bot_ladder.ab_parser(__doc__).parse_args(argv)
    module = importlib.import_module(f"domain.{args.game}.evaluate")
    values = parse_set(args.set, module)

    def make_bot_or_variant(level: str, seed: int | None = None) -> Any:
        """``make_bot``, except that ``<level>-variant`` is that level deciding with ``values``."""
        if not level.endswith(SUFFIX):
            return make_bot(level, seed)
        return VariantBot(make_bot(level[: -len(SUFFIX)], seed), module, values)

    simulate.make_bot = make_bot_or_variant  # type: ignore[assignment]  # the bots of this process only
    print(f"{args.level}-variant: {' '.join(args.set)}")
    print(
        bot_ladder.rung(args.game, args.players, args.level, args.level + SUFFIX, args.games, args.seed, 1, None, 0.0)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
