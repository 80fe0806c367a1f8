"""The decider skeleton every game shares (see ``domain/game.py`` for the protocol it serves).

A game's ``decide(state, command, seat, rng)`` is always the same four steps, and only the third is the game's:

1. the opening checks, in one order for every game (``open_command``): the game is set up, it is not over,
   the command is a JSON object, the seat may act, the command ``type`` is one the game knows;
2. a working state to apply events to as they are produced (``Recorder``): a copy for ``decide``, the
   caller's own private copy for the in-place fast path ``play`` (``Capabilities.play_in_place``);
3. the game's handler for the command type, which reads fields with the parsers below (``int_field``,
   ``str_field``, ``name_field``), raises ``invalid`` / ``illegal`` and emits events through the recorder
   (follow-up logic reads ``recorder.state``, the state the events so far lead to);
4. the recorded events are the answer.

The seat-count check for ``setup`` is ``Rules.check_seats`` (``domain/game.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, Generic, TypeVar

from domain.game import Event, IllegalCommand, NotYourTurn

S = TypeVar("S")
T = TypeVar("T")


def invalid(message: str) -> IllegalCommand:
    """A command that is malformed whatever the state (code ``invalid_command``)."""
    return IllegalCommand("invalid_command", message)


def illegal(message: str) -> IllegalCommand:
    """A well-formed command the rules do not allow now (code ``illegal_command``)."""
    return IllegalCommand("illegal_command", message)


def open_command(
    command: object,
    seat: object,
    *,
    started: bool,
    over: bool,
    acting: Collection[int],
    known: Collection[str],
) -> str:
    """The opening checks of every ``decide``; returns the command's ``type``.

    In this order: ``illegal_command`` before set-up, ``game_over`` once over, ``invalid_command`` for a
    command that is not an object, ``not_your_turn`` for a seat not in ``acting`` (a ``bool`` is no seat),
    ``invalid_command`` for a ``type`` not in ``known``."""
    if not started:
        raise illegal("the game has not been set up")
    if over:
        raise IllegalCommand("game_over", "the game is over")
    if not isinstance(command, dict):
        raise invalid("a command must be a JSON object with a 'type'")
    if type(seat) is not int or seat not in acting:
        raise NotYourTurn(f"it is {_seats(acting)}'s turn to act")
    kind = command.get("type")
    if not isinstance(kind, str) or kind not in known:
        raise invalid(f"unknown command type {kind!r}; expected one of {', '.join(sorted(known))}")
    return kind


def _seats(acting: Collection[int]) -> str:
    seats = sorted(acting)
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(str(s) for s in seats) if seats else "nobody"


# ---- command fields ---------------------------------------------------------------------------------------
def int_field(command: Mapping[str, Any], name: str) -> int:
    """The integer field ``name`` (a ``bool`` is not an integer), else ``invalid_command``."""
    value = command.get(name)
    if type(value) is not int:
        raise invalid(f"field {name!r} must be an integer")
    return value


def str_field(command: Mapping[str, Any], name: str) -> str:
    """The string field ``name``, else ``invalid_command``."""
    value = command.get(name)
    if not isinstance(value, str):
        raise invalid(f"field {name!r} must be a string")
    return value


def name_field(command: Mapping[str, Any], name: str, table: Mapping[str, T]) -> T:
    """The field ``name`` looked up by name in ``table`` (e.g. a good -> its index), else ``invalid_command``."""
    value = command.get(name)
    if not isinstance(value, str) or value not in table:
        raise invalid(f"field {name!r} must be one of {', '.join(table)}")
    return table[value]


# ---- apply and record -------------------------------------------------------------------------------------
class Recorder(Generic[S]):
    """Events applied to a working state as they are produced, and recorded in order.

    ``state`` is a state the recorder may mutate: a copy for ``decide`` (the caller's state is never
    touched), or the caller's private copy for the in-place fast path. ``apply(state, event)`` folds one
    event in place. Games subclass it to add their shared steps (end of turn, scoring)."""

    __slots__ = ("state", "events", "_apply")

    def __init__(self, state: S, apply: Callable[[S, Event], None]) -> None:
        self.state = state
        self.events: list[Event] = []
        self._apply = apply

    def emit(self, event: Event) -> None:
        self._apply(self.state, event)
        self.events.append(event)
