"""Runs `tradewinds worker` (or `serve`) with the test-only game and a deliberately slow bot level registered.

Used by tests that start real processes: ``python -m tests.support.worker_launcher [worker args]``, or
``python -m tests.support.worker_launcher serve [serve args]``.
"""

from __future__ import annotations

import sys

from domain import registry
from domain.bots.levels import LEVELS, Level
from tests.support.secret_game import RULES

SLOW = Level("slow", "mcts", 10**9, 3000, 10, "test only: searches for its whole 3 s budget")


def register_test_extras() -> None:
    registry.register(RULES)
    LEVELS.setdefault("slow", SLOW)


if __name__ == "__main__":
    import faulthandler
    import signal

    faulthandler.register(signal.SIGUSR1)  # a test can ask a stuck process for its threads' stacks
    register_test_extras()
    from api.cli import main

    args = sys.argv[1:]
    sys.exit(main(args if args[:1] == ["serve"] else ["worker", *args]))
