"""The ``greedy`` bot: one decision of look-ahead, through the seat's own turn, scored by ``rules.evaluate``.

The bot first samples what it cannot see with ``rules.determinize(state, seat, rng)`` and plans only
on that sample. Every legal command is then decided against the sample with a copy of the same
generator (common random numbers, so two commands that draw the same hidden outcome are compared
fairly), the events are folded with ``evolve``, the seat plays out its own follow-up decisions
(``domain.bots.lookahead.play_out``: while control stays with it, at most ``look.horizon`` commands)
and the result is scored with ``rules.evaluate(state, seat)``, less the ``rules.command_cost`` of the
command and of its follow-ups. The best score wins; among equal scores the command whose play-out needed
the fewest follow-ups, then ``rng``.

Budget: ``look.total`` candidates per decision in all (deterministic). A caller's ``should_stop`` (a
wall-clock budget) is checked before each play-out: once it is true the remaining commands are scored
as they stand, without play-out, so the move can then depend on machine speed. With
``samples > 1`` the scores are averaged over several determinizations (a steadier, slower bot).
"""

from __future__ import annotations

import random

from domain.bots.base import (
    Bot,
    StopCheck,
    apply_command,
    command_key,
    deferred_rng,
    evaluation,
    legal_or_raise,
    rng_at,
)
from domain.bots.lookahead import DEFAULT_LOOKAHEAD, NO_LOOKAHEAD, LookAhead, play_out
from domain.game import Command, IllegalCommand, Rules, State


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, seed: int | None = None, samples: int = 1, look: LookAhead = DEFAULT_LOOKAHEAD) -> None:
        super().__init__(seed)
        if samples < 1:
            raise ValueError("samples must be at least 1")
        self.samples = samples
        self.look = look

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
        rng = self._rng(rng)
        legal = legal_or_raise(rules, state, seat)
        if len(legal) == 1:
            return legal[0]
        look = self.look.share(len(legal) * self.samples)
        totals = [0.0] * len(legal)
        counts = [0] * len(legal)
        steps = [0] * len(legal)  # own follow-up commands the play-outs needed
        for sample in range(self.samples):
            if sample and should_stop is not None and should_stop():
                break
            world = rules.determinize(state, seat, rng)
            snapshot = rng.getstate()
            chance = rng_at(snapshot)
            rng.random()  # the next sample draws different outcomes
            # Commands are those legal in the sample; they match the real list (legality depends only
            # on what this seat knows), keyed canonically to be safe.
            sample_keys = {command_key(c) for c in rules.legal_commands(world, seat)}
            for index, command in enumerate(legal):
                if command_key(command) not in sample_keys:
                    continue
                if look.horizon and index and should_stop is not None and should_stop():
                    look = NO_LOOKAHEAD  # out of time: the remaining commands are scored as they stand
                try:
                    after = apply_command(rules, world, command, seat, deferred_rng(snapshot))
                except IllegalCommand:
                    continue
                follow_ups: list[Command] = []
                if look.horizon:
                    after, played = play_out(rules, after, seat, chance, look, should_stop, on_step=follow_ups.append)
                    steps[index] += played
                cost = rules.command_cost(command) + sum(map(rules.command_cost, follow_ups))
                totals[index] += evaluation(rules, after, seat) - cost
                counts[index] += 1
        scored = [(totals[i] / counts[i], i) for i in range(len(legal)) if counts[i]]
        if not scored:
            return rng.choice(legal)
        best = max(score for score, _ in scored)
        tied = [i for score, i in scored if score >= best - 1e-9 * max(1.0, abs(best))]
        # Among equal values the shortest way there: a command that needs a detour of its own follow-ups
        # (open a trade offer, then cancel it) is no better than one that gets the same without them.
        shortest = min(steps[i] for i in tied)
        candidates = [i for i in tied if steps[i] == shortest]
        return legal[rng.choice(candidates)]
