"""Plan bots: the greedy bot with a game's hand-written strategy evaluation instead of ``rules.evaluate``.

A plan names a game and an evaluation function in that game's package, imported only when a plan bot
is built (so ``domain.bots`` stays generic). ``make_bot("plan:<name>")`` builds one, for example
``plan:pr-shipping`` (Puerto Rico: corn, harbor and wharf) or ``plan:pr-building`` (factory and large
buildings). They are sparring partners for measuring the search bots (``tradewinds simulate``,
``benchmarks/``), not levels offered to players. On another game a plan bot plays as plain ``greedy``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from domain.bots.base import StopCheck
from domain.bots.greedy import GreedyBot
from domain.game import Command, Rules, State

# plan name -> (game, module, factory function, its argument)
PLANS: dict[str, tuple[str, str, str, str]] = {
    "pr-shipping": ("puerto_rico", "domain.puerto_rico.evaluate", "plan_evaluation", "shipping"),
    "pr-building": ("puerto_rico", "domain.puerto_rico.evaluate", "plan_evaluation", "building"),
}


class _PlanRules:
    """The game's rules with ``evaluate`` replaced; everything else is delegated."""

    def __init__(self, rules: Rules, evaluate: Callable[[State, int], float]) -> None:
        self._rules = rules
        self._evaluate = evaluate

    def evaluate(self, state: State, seat: int) -> float:
        return self._evaluate(state, seat)

    def evaluate_all(self, state: State) -> list[float]:
        return [self._evaluate(state, seat) for seat in range(self._rules.seat_count(state))]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)


class PlanBot(GreedyBot):
    name = "plan"

    def __init__(self, plan: str, seed: int | None = None) -> None:
        super().__init__(seed)
        if plan not in PLANS:
            raise ValueError(f"unknown plan {plan!r}; known: {', '.join(sorted(PLANS))}")
        self.plan = plan
        game, module, factory, argument = PLANS[plan]
        self.game = game
        self._evaluate = getattr(importlib.import_module(module), factory)(argument)

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
        if rules.name == self.game:
            rules = _PlanRules(rules, self._evaluate)  # type: ignore[assignment]
        return super().choose(rules, state, seat, rng, should_stop, continuing=continuing)

    def __repr__(self) -> str:
        return f"PlanBot(plan={self.plan!r}, seed={self.seed!r})"
