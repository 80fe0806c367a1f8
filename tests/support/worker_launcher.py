"""Runs `tradewinds worker` with the test-only game and a deliberately slow bot level registered.

Used by tests that start real RQ worker processes: ``python -m tests.support.worker_launcher [worker args]``.
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
    register_test_extras()
    from api.cli import main

    sys.exit(main(["worker", *sys.argv[1:]]))
