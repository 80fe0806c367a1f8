"""Given / when / then for every game: given events (or a state), when a command by a seat, then the events
it causes or the code it is refused with.

    from tests.domain.scenario import Scenario
    game = Scenario(RULES)
    state = game.given(*opening_events)
    events, state = game.when(state, {"type": "pass"})          # seat: the one seat to act
    game.refused(state, {"type": "pass"}, "not_your_turn", seat=1)

Every ``when`` goes through ``decide`` and folds with ``evolve``, like the server, and also checks that the
state it started from is unchanged and, for a game that declares an in-place fast path, that the fast path
gives the same events and state. Every ``refused`` checks the code and that the refusal changed nothing.
Each game's helpers module binds one ``Scenario`` to its rules (``refused = GAME.refused``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from domain.game import Event, IllegalCommand, Rules, State

Command = dict[str, Any]


class Scenario:
    """The scaffold bound to one game's rules. ``rng`` makes the generator every command is decided with."""

    def __init__(
        self,
        rules: Rules,
        rng: Callable[[], random.Random] = lambda: random.Random(7),
        on_turn: Callable[[State], int] | None = None,
    ) -> None:
        self.rules = rules
        self.rng = rng
        self.on_turn = on_turn  # the default seat when several or none may act (e.g. the seat the game waits on)

    # -- given -------------------------------------------------------------------------------------------------
    def given(self, *events: Event, state: State | None = None) -> State:
        """The state the events lead to (from ``state``, else from the start)."""
        return self.rules.fold(list(events), state)

    def seat(self, state: State, seat: int | None) -> int:
        """``seat``, or the one seat to act (an error when several or none may act)."""
        if seat is not None:
            return seat
        acting = self.rules.to_act(state)
        if len(acting) != 1 and self.on_turn is not None:
            return self.on_turn(state)
        assert len(acting) == 1, f"say which seat acts: {sorted(acting)} may act"
        return next(iter(acting))

    def snapshot(self, state: State) -> Any:
        """Everything in ``state``, as JSON (deep: shared parts are read, not compared by identity)."""
        return self.rules.reveal_all(state)

    # -- when / then -------------------------------------------------------------------------------------------
    def when(self, state: State, command: Command, seat: int | None = None) -> tuple[list[Event], State]:
        """Decide ``command`` for ``seat`` and fold its events: (events, new state)."""
        rules = self.rules
        seat = self.seat(state, seat)
        before = self.snapshot(state)
        events = rules.decide(state, command, seat, self.rng())
        assert self.snapshot(state) == before, "decide changed the state it was given"
        new = state
        for event in events:
            new = rules.evolve(new, event)
        assert self.snapshot(state) == before, "evolve changed the state it was given"
        caps = rules.capabilities
        if caps.play_in_place or caps.apply_in_place:
            fast = rules.copy_state(state)
            if caps.play_in_place:
                assert rules.play(fast, command, seat, self.rng()) == events, "the fast path's events differ"
            else:
                for event in events:
                    after = rules.apply_in_place(fast, event)
                    fast = fast if after is None else after
            assert fast == new, "the fast path's state differs from the fold"
        return events, new

    def when_all(self, state: State, *commands: Command, seat: int | None = None) -> tuple[list[Event], State]:
        """``when`` for each command in turn (each by ``seat``, or by the one seat to act then)."""
        events: list[Event] = []
        for command in commands:
            new, state = self.when(state, command, seat)
            events.extend(new)
        return events, state

    def refused(
        self, state: State, command: Command, code: str = "illegal_command", seat: int | None = None
    ) -> IllegalCommand:
        """Then: ``command`` by ``seat`` is refused with ``code``, and the refusal changed nothing."""
        seat = self.seat(state, seat)
        before = self.snapshot(state)
        with pytest.raises(IllegalCommand) as err:
            self.rules.decide(state, command, seat, self.rng())
        assert err.value.code == code, f"refused with {err.value.code} ({err.value.message}), expected {code}"
        assert self.snapshot(state) == before, "a refused command changed the state"
        return err.value


def types(events: list[Event]) -> list[str]:
    """The event types, in order (``then`` assertions read best as a list of names)."""
    return [event["type"] for event in events]
