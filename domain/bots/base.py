"""Shared pieces of every bot: the ``Bot`` interface and protocol-only helpers.

Everything here talks to a game only through the ``Rules`` protocol (``domain.game``), so any game
plugs in without changes to the bots.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import orjson

from domain.game import Command, Rules, State, rank_by

# A zero-argument callable injected by the caller (a worker holding a wall-clock deadline). Domain code
# never reads the clock itself; it only asks "should I stop now?".
StopCheck = Callable[[], bool]


class NoLegalCommand(ValueError):
    """The bot was asked to move for a seat that has no legal command (not its turn, or game over)."""


class Bot:
    """A policy that picks one command for ``seat``.

    ``choose`` receives the *complete* state (the worker holds the truth) and must only use what
    ``seat`` may know: bots that look ahead plan on ``rules.determinize(state, seat, rng)``.
    ``rng`` makes the choice reproducible; when ``None`` the bot's own generator (seeded by
    ``make_bot``) is used. ``should_stop`` is an optional wall-clock budget check. ``continuing``: the
    seat's previous command was the last one played (nobody acted in between), so this decision goes on the
    seat's own step; a bot may keep to the plan it valued that step by (``MCTSBot.plan_weight``).
    """

    name: str = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        # Wall-clock budget in milliseconds that the caller should enforce through ``should_stop``
        # (set by ``make_bot`` from the level table; ``None``: no time budget needed).
        self.budget_ms: int | None = None

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
        raise NotImplementedError

    def _rng(self, rng: random.Random | None) -> random.Random:
        return self.rng if rng is None else rng

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, seed={self.seed!r})"


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), check_circular=False, ensure_ascii=False)
_SORTED = orjson.OPT_SORT_KEYS


def command_key(command: Command) -> str:
    """Canonical identity of a command: its compact JSON with sorted keys, as ``json.dumps(command,
    sort_keys=True, separators=(",", ":"), ensure_ascii=False)`` writes it. Bots compute many keys, so orjson
    writes it; what orjson refuses (an integer beyond 64 bits, a key that is not a string) goes through the
    standard encoder."""
    try:
        return orjson.dumps(command, option=_SORTED).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return _CANONICAL.encode(command)


def legal_or_raise(rules: Rules, state: State, seat: int) -> list[Command]:
    legal = rules.legal_commands(state, seat)
    if not legal:
        raise NoLegalCommand(f"seat {seat} has no legal command in this state")
    return legal


def copy_rng(rng: random.Random) -> random.Random:
    """An independent generator in the same state as ``rng`` (common random numbers for comparisons).

    Built without seeding (``Random()`` would read the OS entropy first): ``setstate`` overwrites all of it."""
    return rng_at(rng.getstate())


def rng_at(snapshot: tuple[Any, ...]) -> random.Random:
    """A new generator in the state ``snapshot`` (from ``Random.getstate``): a caller that copies one generator
    many times takes its state once (``getstate`` costs more than ``setstate``)."""
    twin = _new_random(random.Random)
    twin.setstate(snapshot)
    return twin


_new_random = random.Random.__new__


class _Deferred(random.Random):
    """A generator that takes its state from a snapshot only when first used (see ``deferred_rng``).

    Every method that reads or replaces the state goes through one of the overrides below (the others, such
    as ``choice``, ``shuffle`` or ``randrange``, call ``getrandbits`` or ``random``). The first of them sets
    the snapshot's state and turns the object into a plain ``random.Random``; a method bound before that
    (``choices`` binds ``random`` once) still answers from the same state."""

    _snapshot: tuple[Any, ...] | LazySnapshot

    def random(self) -> float:
        _materialize(self)
        return random.Random.random(self)

    def getrandbits(self, k: int, /) -> int:
        _materialize(self)
        return random.Random.getrandbits(self, k)

    def getstate(self) -> tuple[Any, ...]:
        _materialize(self)
        return random.Random.getstate(self)

    def setstate(self, state: tuple[Any, ...]) -> None:
        _materialize(self)
        random.Random.setstate(self, state)

    def seed(self, a: Any = None, version: int = 2) -> None:
        _materialize(self)
        random.Random.seed(self, a, version)

    def gauss(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        _materialize(self)
        return random.Random.gauss(self, mu, sigma)

    def __reduce__(self) -> str | tuple[Any, ...]:
        _materialize(self)
        return random.Random.__reduce__(self)


def _materialize(rng: random.Random) -> None:
    """Set a deferred generator's state from its snapshot, once (a function, not a method: a method bound
    before the first draw is still called after the class changed)."""
    if type(rng) is _Deferred:
        rng.__class__ = random.Random  # type: ignore[assignment]  # the same layout: a plain generator from now on
        snapshot = rng.__dict__.pop("_snapshot")
        random.Random.setstate(rng, snapshot.state() if type(snapshot) is LazySnapshot else snapshot)


class LazySnapshot:
    """A generator's state (``getstate``), read only when a generator made from it by ``deferred_rng`` first
    draws: a look-ahead copies one generator for every candidate it tries, and in most look-aheads no candidate
    draws. The generator must not change while such a copy may still draw."""

    __slots__ = ("_rng", "_state")

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._state: tuple[Any, ...] | None = None

    def state(self) -> tuple[Any, ...]:
        if self._state is None:
            self._state = self._rng.getstate()
        return self._state


def deferred_rng(snapshot: tuple[Any, ...] | LazySnapshot) -> random.Random:
    """``rng_at(snapshot)`` for a caller that may never draw from it: the state is set on first use, so a
    command whose ``decide`` draws nothing costs no ``setstate`` (a bot's look-ahead tries many such
    commands from one snapshot). The numbers drawn are those of ``rng_at(snapshot)`` (of the generator's state
    for a ``LazySnapshot``)."""
    twin = _new_random(_Deferred)
    twin._snapshot = snapshot
    return twin


def apply_command(rules: Rules, state: State, command: Command, seat: int, rng: random.Random) -> State:
    """``decide`` then fold the resulting events with the pure ``evolve``, or the state ``decide`` reached
    where the game hands it over (``Capabilities.decide_and_apply``)."""
    if rules.capabilities.decide_and_apply:
        return rules.decide_and_apply(state, command, seat, rng)[1]
    for event in rules.decide(state, command, seat, rng):
        state = rules.evolve(state, event)
    return state


def seat_count(rules: Rules, state: State) -> int:
    """How many seats the game has: the protocol's ``rules.seat_count(state)`` (declared, never probed)."""
    return int(rules.seat_count(state))


def evaluations(rules: Rules, state: State, seats: int) -> list[float]:
    """``evaluation`` for seats ``0 .. seats-1``: ``rules.evaluate_all`` when it covers them, else seat by seat."""
    if not rules.capabilities.evaluation:
        return [0.0] * seats
    values = rules.evaluate_all(state)
    if len(values) != seats:
        return [evaluation(rules, state, s) for s in range(seats)]
    return [float(v) for v in values]


def evaluation(rules: Rules, state: State, seat: int) -> float:
    """``rules.evaluate(state, seat)`` when the game declares an evaluation, else 0.0 (every seat even)."""
    if rules.capabilities.evaluation:
        return float(rules.evaluate(state, seat))
    return 0.0


def rank_rewards(values: list[float], ranks: list[int], score_weight: float = 0.1) -> list[float]:
    """Per-seat rewards in [0, 1] from final (or estimated) values and competition ranks.

    Mostly rank-based: a seat's reward is ``(n - p) / (n - 1)`` where ``p`` is its average finishing
    position (a k-way tie shares the positions it occupies), blended with ``score_weight`` of the
    score normalised between the lowest and highest seat, so margins still matter a little.
    """
    n = len(values)
    if n == 1:
        value = float(values[0])
        return [0.5 + 0.5 * value / (1.0 + abs(value))]
    tied: dict[int, int] = {}
    for rank in ranks:
        tied[rank] = tied.get(rank, 0) + 1
    low, high = min(values), max(values)
    spread = high - low
    out = []
    for value, rank in zip(values, ranks, strict=True):
        position = rank + (tied[rank] - 1) / 2.0  # ranks are 1-based
        by_rank = (n - position) / (n - 1)
        by_score = (value - low) / spread if spread > 0 else 0.5
        out.append((1.0 - score_weight) * by_rank + score_weight * by_score)
    return out


def state_rewards(rules: Rules, state: State, seats: int, score_weight: float = 0.1) -> list[float]:
    """Rewards from ``rules.result`` when the game is over, else from ``rules.evaluate`` for every seat. A game
    that ended with no winner (everybody lost, or a guard cut it short) is a loss for every seat: 0 each, not
    the even share a tie for first place would give."""
    if rules.is_over(state):
        result = rules.result(state)
        if result.no_winner:
            return [0.0] * len(result.scores)
        values = [float(v) for v in result.scores]
        return rank_rewards(values, list(result.ranks), score_weight)
    values = evaluations(rules, state, seats)
    return rank_rewards(values, rank_by([(v,) for v in values]), score_weight)


def private_copy(rules: Rules, state: State) -> State:
    """A copy of ``state`` that may be mutated: the protocol's ``rules.copy_state`` (a pickle round trip
    unless the game offers a faster one)."""
    return rules.copy_state(state)


class InPlaceStepper:
    """The in-place fast path a rules object declares (``Capabilities``), or ``None`` from ``in_place_stepper``.

    ``step(state, command, seat, rng)`` mutates ``state`` (which the caller owns, see ``private_copy``)
    and returns the new state; the result equals ``apply_command`` on the same inputs.
    """

    __slots__ = ("rules", "_play")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._play = rules.capabilities.play_in_place

    def step(self, state: State, command: Command, seat: int, rng: random.Random) -> State:
        rules = self.rules
        if self._play:
            rules.play(state, command, seat, rng)
            return state
        for event in rules.decide(state, command, seat, rng):
            after = rules.apply_in_place(state, event)
            if after is not None:
                state = after
        return state


def in_place_stepper(rules: Rules) -> InPlaceStepper | None:
    """The fast path ``rules.capabilities`` declares (``play_in_place`` first, then ``apply_in_place``);
    ``None`` when it declares neither."""
    caps = rules.capabilities
    if caps.play_in_place or caps.apply_in_place:
        return InPlaceStepper(rules)
    return None
