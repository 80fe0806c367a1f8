"""The game protocol every Tradewinds game implements (the "decider").

A game is one object (usually a module-level instance of a ``Rules`` subclass) with:

- identity: ``name``, ``title``, ``min_players``, ``max_players``, ``options_schema``;
- ``setup(seed, seats, options) -> list[Event]``: the opening events, with every shuffle and deal
  recorded in event data;
- ``initial_state()`` and ``evolve(state, event) -> state``: the fold. ``evolve`` is pure: it never
  validates, never raises on a well-formed log and never mutates its input;
- ``decide(state, command, seat, rng) -> list[Event]``: validates a command for ``seat`` and returns
  the events it causes, or raises ``IllegalCommand``. Random outcomes are drawn from ``rng`` and
  written into the events;
- ``to_act(state) -> set[int]``: the seats that may act now (several for simultaneous steps);
- ``legal_commands(state, seat) -> list[Command]``: every legal command for that seat, complete;
- ``view(state, seat)`` and ``redact(event, seat)``: what a seat (or a spectator, ``None``) may see.
  Once ``is_over(state)`` is true, the platform shows everything and calls neither with a seat filter
  (see ``reveal_all``), except what ``public_event(event)`` keeps secret for good (an Archipelago objective
  returned under MORE_FUN);
- ``is_over(state)`` and ``result(state)``: final scores and ranking;
- ``determinize(state, seat, rng) -> state``: a state consistent with everything ``seat`` knows, the
  hidden parts sampled (what search bots plan on);
- ``evaluate(state, seat) -> float``: a heuristic value of the state for ``seat`` (greedy bots), and
  ``evaluate_all(state)``: the same for every seat at once (search bots; default: seat by seat);
- ``reveals(event) -> bool``: whether the event records a random outcome or reveals information that
  was hidden (undo must not let a seat peek and take back);
- ``seat_count(state) -> int``: how many seats the game in ``state`` has (default: the spectator view's
  ``seats``, which every view carries);
- ``capabilities``: what the game offers beyond the required protocol, declared up front (``Capabilities``,
  in the spirit of OpenSpiel's ``GameType``): the in-place fast path (``play`` or ``apply_in_place``, with
  ``copy_state`` for the private copy they mutate), ``decide_and_apply`` (the events with the state they lead
  to) and whether ``evaluate`` is a real heuristic. Bots read
  the declaration; they never look methods up by name;
- what clients are told (``domain/contract.py``): ``catalogue()`` (every component, the board geometry, what
  each code means), ``command_schemas()`` (the command vocabulary, one schema per ``type``),
  ``view_schema()`` and ``label(state, seat, command)`` (a short English label for a legal command, built
  only from what ``seat`` may see, with an optional ``cost``/``points`` preview).

Commands and events are plain JSON-serialisable dicts with a ``type`` (commands imperative, events
past tense) and named fields. Seats are integers ``0 .. seats-1``.
"""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar, cast

from domain.contract import default_label

Command = dict[str, Any]
Event = dict[str, Any]
State = Any


class IllegalCommand(Exception):
    """A command that the rules refuse. ``code`` is stable and machine-readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"IllegalCommand({self.code!r}, {self.message!r})"


class NotYourTurn(IllegalCommand):
    def __init__(self, message: str = "it is not this seat's turn to act") -> None:
        super().__init__("not_your_turn", message)


class InvalidOptions(ValueError):
    """Options passed to ``setup`` that the game's ``options_schema`` rejects."""


@dataclass(frozen=True)
class Option:
    """One game option. ``kind`` is ``bool``, ``int`` or ``str``; ``choices`` limits the values."""

    name: str
    kind: str
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "type": {"bool": "boolean", "int": "integer", "str": "string"}[self.kind],
            "default": self.default,
            "description": self.description,
        }
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


_KIND_TYPES = {"bool": (bool,), "int": (int,), "str": (str,)}


def validate_options(schema: tuple[Option, ...], options: dict[str, Any] | None) -> dict[str, Any]:
    """Return the options with defaults filled in; raise ``InvalidOptions`` on anything unknown or wrong."""
    options = dict(options or {})
    known = {opt.name: opt for opt in schema}
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise InvalidOptions(f"unknown option(s): {', '.join(unknown)}; known: {', '.join(sorted(known)) or 'none'}")
    out: dict[str, Any] = {}
    for opt in schema:
        value = options.get(opt.name, opt.default)
        ok_types = _KIND_TYPES[opt.kind]
        if not isinstance(value, ok_types) or (opt.kind == "int" and isinstance(value, bool)):
            raise InvalidOptions(f"option {opt.name!r} must be of type {opt.as_dict()['type']}")
        if opt.choices is not None and value not in opt.choices:
            raise InvalidOptions(f"option {opt.name!r} must be one of {list(opt.choices)}")
        if opt.minimum is not None and cast(int, value) < opt.minimum:
            raise InvalidOptions(f"option {opt.name!r} must be at least {opt.minimum}")
        if opt.maximum is not None and cast(int, value) > opt.maximum:
            raise InvalidOptions(f"option {opt.name!r} must be at most {opt.maximum}")
        out[opt.name] = value
    return out


@dataclass
class GameResult:
    """Final outcome. ``ranks[seat]`` is 1 for the winner(s); tied seats share a rank.

    ``no_winner`` marks a game that ended with nobody winning (a collective loss, an aborted game): every
    seat then has rank 1 (nobody placed above anyone) but none of them won.
    """

    scores: list[float]
    ranks: list[int]
    tiebreaks: list[Any] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    no_winner: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "no_winner": self.no_winner,
            "tiebreaks": list(self.tiebreaks),
            "details": dict(self.details),
        }


def relative_to_best_other(worths: list[float]) -> list[float]:
    """Each seat's worth minus the best other seat's (its own worth alone in a one-seat game)."""
    out = []
    for seat, mine in enumerate(worths):
        others = [w for s, w in enumerate(worths) if s != seat]
        out.append(mine - (max(others) if others else 0.0))
    return out


_K = TypeVar("_K")
_V = TypeVar("_V")


def keep(kept: dict[_K, _V], key: _K, value: _V, limit: int) -> _V:
    """Store ``value`` under ``key`` in ``kept`` (an evaluation's values kept by what they read), emptying it first
    when it holds ``limit`` entries (a search's working set fills it again at once); returns ``value``."""
    if len(kept) >= limit:
        kept.clear()
    kept[key] = value
    return value


def rank_by(keys: list[tuple[Any, ...]]) -> list[int]:
    """Competition ranking ("1224") of seats by descending key tuples; equal keys share a rank."""
    order = sorted(range(len(keys)), key=lambda s: keys[s], reverse=True)
    ranks = [0] * len(keys)
    for pos, seat in enumerate(order):
        if pos and keys[seat] == keys[order[pos - 1]]:
            ranks[seat] = ranks[order[pos - 1]]
        else:
            ranks[seat] = pos + 1
    return ranks


@dataclass(frozen=True)
class Capabilities:
    """What a game offers beyond the required protocol; every field defaults to the plain protocol.

    - ``play_in_place``: ``rules.play(state, command, seat, rng) -> events`` decides *and* applies the
      events to ``state`` in place (the events equal ``decide``'s; folding them with ``evolve`` gives the
      same state). ``state`` must be a private copy (``copy_state``) and the command one of
      ``legal_commands``: after a refused command the state is undefined.
    - ``apply_in_place``: ``rules.apply_in_place(state, event) -> state | None`` folds one event into a
      private copy in place (``None``: the state object itself was updated).
    - ``decide_and_apply``: ``rules.decide_and_apply(state, command, seat, rng) -> (events, state)`` returns
      ``decide``'s events with the state they lead to, taken from the working copy ``decide`` applies them to
      (so the events are not folded a second time). ``state`` is left as it is; the new state equals folding
      the events with ``evolve``, and like ``evolve``'s it may share what did not change with ``state``.
    - ``evaluation``: ``rules.evaluate(state, seat)`` is a heuristic worth searching on. When ``False``
      bots score every unfinished position as even (0.0 for every seat) and never call ``evaluate``.
    """

    play_in_place: bool = False
    apply_in_place: bool = False
    decide_and_apply: bool = False
    evaluation: bool = True


PLAIN = Capabilities()


class Rules:
    """Base class for games. Subclasses override every method that raises ``NotImplementedError``."""

    name: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 2
    options_schema: tuple[Option, ...] = ()
    # Bumped whenever the shape of the state changes, so cached snapshots from older code are ignored.
    state_version: str = "1"
    # What the game offers beyond the required protocol (see ``Capabilities``); the default offers nothing.
    capabilities: ClassVar[Capabilities] = PLAIN
    # How firmly the bots' search keeps to the step it chose a command for (``domain.bots.mcts``, "the plan"): at a
    # decision that goes on the seat's own step, the greedy follow-through's pick counts this many times the
    # search's iterations in extra visits; ``math.inf`` plays it with no search, ``None`` (the default) or 0 has no
    # plan. A tuned value, measured by the bots' ladder (logged where a game sets it).
    plan_weight: ClassVar[float | None] = None

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [opt.as_dict() for opt in self.options_schema],
        }

    def validate_options(self, options: dict[str, Any] | None, seats: int) -> dict[str, Any]:
        return validate_options(self.options_schema, options)

    def setup(self, seed: int, seats: int, options: dict[str, Any]) -> list[Event]:
        raise NotImplementedError

    def initial_state(self) -> State:
        raise NotImplementedError

    def evolve(self, state: State, event: Event) -> State:
        raise NotImplementedError

    def fold(self, events: list[Event], state: State | None = None) -> State:
        state = self.initial_state() if state is None else state
        for event in events:
            state = self.evolve(state, event)
        return state

    def decide(self, state: State, command: Command, seat: int, rng: random.Random) -> list[Event]:
        raise NotImplementedError

    def decide_and_apply(
        self, state: State, command: Command, seat: int, rng: random.Random
    ) -> tuple[list[Event], State]:
        """``decide``'s events and the state after them (``Capabilities.decide_and_apply``); by default the
        events folded with ``evolve``."""
        events = self.decide(state, command, seat, rng)
        return events, self.fold(events, state)

    def to_act(self, state: State) -> set[int]:
        raise NotImplementedError

    def legal_commands(self, state: State, seat: int) -> list[Command]:
        raise NotImplementedError

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def redact(self, event: Event, seat: int | None) -> Event:
        return event

    def public_event(self, event: Event) -> Event:
        """An event as everyone sees it once the game is over: by default all of it."""
        return event

    def reveal_all(self, state: State) -> dict[str, Any]:
        """The complete state as JSON, shown to everyone once the game is over."""
        raise NotImplementedError

    def is_over(self, state: State) -> bool:
        raise NotImplementedError

    def result(self, state: State) -> GameResult:
        raise NotImplementedError

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        return state

    def evaluate(self, state: State, seat: int) -> float:
        raise NotImplementedError

    def evaluate_all(self, state: State) -> list[float]:
        """``evaluate`` for every seat, in seat order (a game may compute what the seats share once)."""
        return [self.evaluate(state, seat) for seat in range(self.seat_count(state))]

    def peril(self, state: State) -> tuple[float, tuple[int, ...]]:
        """The heuristic chance that the game in ``state`` ends in a way every seat loses, with the seats that
        would win that ending instead (default: no such ending, ``(0.0, ())``). A relative evaluation cannot
        show such a threat, since it lowers every seat alike; the bots weigh it in separately (Archipelago's
        independence: everybody loses but the Separatist's holder)."""
        return 0.0, ()

    def command_cost(self, command: Command) -> float:
        """What playing ``command`` costs its seat beyond what it does to the position, in ``evaluate``'s units
        (default 0): the bots charge it to the seat that plays it. For a command whose price the position does
        not show, such as a trade offer that a person at the table must stop and answer."""
        return 0.0

    def evaluation_change(self, state: State, command: Command) -> float | None:
        """What playing ``command`` in ``state`` (where it is legal) adds to ``evaluate`` for the seat that plays it,
        when that is known without playing it (default ``None``: not known). The bots' look-ahead then scores it
        from the position before it (its value plus this change, less ``command_cost``) and plays it only when it
        is chosen: for commands that change little of what the evaluation reads, such as an item put into a trade
        offer nobody has accepted yet (0.0). The sum must be the very float ``evaluate`` gives after it, in any
        state a bot may plan on (a determinized one too). A game without an evaluation states none."""
        return None

    def reveals(self, event: Event) -> bool:
        return False

    def seat_count(self, state: State) -> int:
        """How many seats the game in ``state`` has: by default the spectator view's ``seats``."""
        seats = self.view(state, None)["seats"]
        return len(seats) if isinstance(seats, list) else int(seats)

    def check_seats(self, seats: object) -> int:
        """``seats`` if the game takes that many players, else ``InvalidOptions`` (the seat-count check)."""
        if isinstance(seats, bool) or not isinstance(seats, int) or not self.min_players <= seats <= self.max_players:
            raise InvalidOptions(f"{self.title or self.name} takes {self.min_players} to {self.max_players} players")
        return seats

    # ---- the optional fast path, offered only where ``capabilities`` declares it
    def copy_state(self, state: State) -> State:
        """A deep copy of ``state`` that the caller owns and may mutate (the fast path's private copy).
        The default is a pickle round trip (``copy.deepcopy`` for a state that cannot be pickled)."""
        try:
            return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
        except Exception:  # not picklable: slower but general
            return copy.deepcopy(state)

    def play(self, state: State, command: Command, seat: int, rng: random.Random) -> list[Event]:
        """Decide and apply in place (declared by ``capabilities.play_in_place``)."""
        raise NotImplementedError(f"{self.name} does not declare play_in_place")

    def apply_in_place(self, state: State, event: Event) -> State | None:
        """Fold one event into a private copy in place (declared by ``capabilities.apply_in_place``)."""
        raise NotImplementedError(f"{self.name} does not declare apply_in_place")

    # ---- what clients are told (see domain/contract.py); defaults for games that publish nothing more
    def catalogue(self) -> dict[str, Any]:
        """Everything static a client needs to draw and explain the game: components, board, codes."""
        return {"components": [], "board": {}, "codes": {}}

    def command_schemas(self) -> dict[str, dict[str, Any]]:
        """Command type -> the schema of that command; empty when commands are not typed (then not checked)."""
        return {}

    def view_schema(self) -> dict[str, Any] | None:
        """The schema of ``view``/``reveal_all`` output, or None when the game publishes none."""
        return None

    def label(self, state: State, seat: int, command: Command) -> dict[str, Any]:
        """``{"label": str}`` plus optional ``cost``/``points`` previews, for one of ``seat``'s legal commands."""
        return {"label": default_label(command)}
