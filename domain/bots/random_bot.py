"""The ``random`` bot: uniform over the legal commands."""

from __future__ import annotations

import random

from domain.bots.base import Bot, StopCheck, legal_or_raise
from domain.game import Command, Rules, State


class RandomBot(Bot):
    """Picks uniformly among ``rules.legal_commands(state, seat)``; looks at nothing else."""

    name = "random"

    def choose(
        self,
        rules: Rules,
        state: State,
        seat: int,
        rng: random.Random | None = None,
        should_stop: StopCheck | None = None,
        *,
        continuing: bool = False,
    ) -> Command:
        return self._rng(rng).choice(legal_or_raise(rules, state, seat))
