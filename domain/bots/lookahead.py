"""Turn-level look-ahead: a seat plays out its own follow-up decisions before a position is scored.

In several games an action opens with a command that changes nothing by itself (Archipelago's
``reproduce`` only spends a disc, Murano's ship move only costs gold before the action it allows,
Amerigo's planning only moves a cube): a one-ply evaluation sees no value in it. ``play_out`` lets the
seat finish what it started: while ``seat`` is the only seat to act (and the game is not over) it picks
the follow-up command with the best static ``rules.evaluate`` and plays it, for at most ``horizon``
commands. The position reached is what a bot scores.

Everything goes through the ``Rules`` protocol only, so every game gets it. The play-out is
deterministic for a given generator: candidates are scored in ``legal_commands`` order with a copy of
the same generator (common random numbers) and the first best wins; a decision with a single legal command
is played without scoring it, and a command whose change to the seat's evaluation the game states
(``rules.evaluation_change``) is scored from the position before it and played only if it wins. ``budget``
caps the number of follow-up candidates tried in one play-out (a game with wide follow-up steps stays quick).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from domain.bots.base import LazySnapshot, StopCheck, apply_command, deferred_rng, evaluation
from domain.game import Command, IllegalCommand, Rules, State


@dataclass(frozen=True)
class LookAhead:
    """How far a seat plays out its own turn.

    ``horizon``: commands played out at most; ``budget``: candidates tried in one play-out at most;
    ``total``: candidates a greedy decision may try in all (the root commands plus their play-outs), so a
    decision with many legal commands gives each play-out a smaller share (at least one candidate).
    """

    horizon: int = 6
    budget: int = 400
    total: int = 400

    def __post_init__(self) -> None:
        if self.horizon < 0 or self.budget < 0 or self.total < 0:
            raise ValueError("horizon and budgets must not be negative")

    def share(self, roots: int) -> LookAhead:
        """The look-ahead each of ``roots`` play-outs gets within ``total``."""
        budget = min(self.budget, max(1, (self.total - roots) // max(1, roots)))
        return self if budget == self.budget else LookAhead(self.horizon, budget, self.total)


NO_LOOKAHEAD = LookAhead(0, 0, 0)
DEFAULT_LOOKAHEAD = LookAhead()


def holds_control(rules: Rules, state: State, seat: int) -> bool:
    """``seat`` alone decides next (the game is not over and nobody else may act)."""
    if rules.is_over(state):
        return False
    return rules.to_act(state) == {seat}


def play_out(
    rules: Rules,
    state: State,
    seat: int,
    rng: random.Random,
    look: LookAhead = DEFAULT_LOOKAHEAD,
    should_stop: StopCheck | None = None,
    on_step: Callable[[Command], object] | None = None,
) -> tuple[State, int]:
    """The state after ``seat`` plays its own follow-up decisions greedily (each scored by ``rules.evaluate``
    less its ``rules.command_cost``; a command with a stated ``rules.evaluation_change`` by the position before it
    plus that change, and played only when chosen); also how many it played.

    Stops when control leaves the seat (another seat acts, several seats act at once, the game ends),
    after ``look.horizon`` commands, when ``look.budget`` candidates have been tried, or when the
    caller's ``should_stop()`` (a wall-clock budget, checked before every candidate but the first) turns
    true. ``state`` is never mutated. ``rng`` is only copied, never advanced, and must not change while this runs:
    a candidate's copy reads its state when it first draws (``LazySnapshot``). ``on_step`` is called with each command
    played, in order.
    """
    played = 0
    tried = 0
    stopped = False
    snapshot = LazySnapshot(rng)  # read only if a candidate draws
    stated = rules.capabilities.evaluation  # without an evaluation every position scores 0: nothing to state
    while not stopped and played < look.horizon and tried < look.budget and holds_control(rules, state, seat):
        legal = rules.legal_commands(state, seat)
        if not legal:
            break
        best: State | None = None  # None while the best is a command scored without playing it
        best_command: Command | None = None
        best_value = 0.0
        before: float | None = None  # the position's own value, once a command with a stated change needs it
        stating = stated and len(legal) > 1  # a single candidate is played unscored anyway
        for command in legal:
            if tried >= look.budget and best_command is not None:
                break
            if tried and should_stop is not None and should_stop():
                stopped = True
                break
            tried += 1
            change = rules.evaluation_change(state, command) if stating else None
            if change is not None:
                if before is None:
                    before = evaluation(rules, state, seat)
                value = before + change - rules.command_cost(command)
                if best_command is None or value > best_value:
                    best, best_command, best_value = None, command, value
                continue
            try:
                after = apply_command(rules, state, command, seat, deferred_rng(snapshot))
            except IllegalCommand:
                continue
            if len(legal) == 1:  # the only candidate: nothing to compare its value with
                best, best_command = after, command
                break
            value = evaluation(rules, after, seat) - rules.command_cost(command)
            if best_command is None or value > best_value:
                best, best_command, best_value = after, command, value
        if best_command is None:
            break
        if best is None:  # chosen by its stated change: played now (a legal command is never refused)
            try:
                best = apply_command(rules, state, best_command, seat, deferred_rng(snapshot))
            except IllegalCommand:  # a game whose legal_commands broke the protocol: the play-out ends here
                break
        if on_step is not None:
            on_step(best_command)
        state = best
        played += 1
    return state, played


def evaluate_through(
    rules: Rules,
    state: State,
    seat: int,
    rng: random.Random,
    look: LookAhead = DEFAULT_LOOKAHEAD,
) -> float:
    """``rules.evaluate`` for ``seat`` once it has played out its own open turn (see ``play_out``)."""
    if look.horizon:
        state, _ = play_out(rules, state, seat, rng, look)
    return evaluation(rules, state, seat)
