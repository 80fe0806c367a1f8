"""Helpers for bot tests: hand-made secret-game positions and a rules wrapper that catches peeking."""

from __future__ import annotations

from dataclasses import replace

from domain.bots import make_bot
from domain.rng import rng_for
from tests.support import secret_game
from tests.support.secret_game import SecretGame, SecretState

# The secret range of the test game (read from it, so these tests follow if it changes).
LOW = getattr(secret_game, "SECRET_MIN", 1)
HIGH = getattr(secret_game, "SECRET_MAX", 20)
MID = (LOW + HIGH) // 2


def secret_position(secrets, banked=None, turn=0, rounds=3) -> SecretState:
    """A started secret-numbers position with the given secrets (index = seat)."""
    n = len(secrets)
    return SecretState(
        seats=n,
        rounds=rounds,
        secrets=tuple(secrets),
        banked=tuple(banked or (0,) * n),
        turn=turn,
        started=True,
    )


class TrackingSecretGame(SecretGame):
    """Secret numbers that refuses to ``decide`` or ``evaluate`` on any state not derived from
    ``determinize``: a bot that plans on the real state (and so could read other seats' secrets) fails."""

    def __init__(self) -> None:
        self.derived: dict[int, SecretState] = {}  # id -> object (kept alive so ids are not reused)
        self.determinize_calls = 0

    def _mark(self, state):
        self.derived[id(state)] = state
        return state

    def determinize(self, state, seat, rng):
        self.determinize_calls += 1
        return self._mark(replace(super().determinize(state, seat, rng)))

    def evolve(self, state, event):
        out = super().evolve(state, event)
        return self._mark(out) if id(state) in self.derived else out

    def decide(self, state, command, seat, rng):
        assert id(state) in self.derived, "decide called on a state that was not determinized"
        return super().decide(state, command, seat, rng)

    def evaluate(self, state, seat):
        assert id(state) in self.derived, "evaluate called on a state that was not determinized"
        return super().evaluate(state, seat)


def play(rules, policies, seed, options=None):
    """Play one game between bots built by ``make_bot``; return the result."""
    events = rules.setup(seed, len(policies), options or {})
    state = rules.fold(events)
    bots = [make_bot(p, seed * 100 + i) for i, p in enumerate(policies)]
    previous = -1
    while not rules.is_over(state):
        seat = min(rules.to_act(state))
        command = bots[seat].choose(rules, state, seat, continuing=seat == previous)
        previous = seat
        assert command in rules.legal_commands(state, seat)
        for event in rules.decide(state, command, seat, rng_for(seed, len(events))):
            events.append(event)
            state = rules.evolve(state, event)
    return rules.result(state)


def win_share(result, seat) -> float:
    firsts = [s for s, r in enumerate(result.ranks) if r == 1]
    return 1.0 / len(firsts) if seat in firsts else 0.0
