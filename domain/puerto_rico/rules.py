"""The Puerto Rico Rules object: set-up, decide, evolve and the rest of the protocol.

Section (§) and ruling (D, Q) numbers are those of docs/rules/puerto_rico.md.
"""

from __future__ import annotations

import random
from typing import Any

from domain.contract import command_schemas
from domain.decider import Recorder, open_command
from domain.game import Capabilities, GameResult, InvalidOptions, Option, Rules, validate_options
from domain.rng import rng_for

from . import catalogue, evaluate, labels, schema, scoring, view
from .data import TILE_NAMES
from .decide import COMMAND_TYPES, auto_event, event_for, is_legal, parse, refusal
from .evolve import NO_PLAYER, SINGLE_SEAT, apply
from .legal import legal
from .state import OVER, PRState

Command = dict[str, Any]
Event = dict[str, Any]


class PuertoRicoRules(Rules):
    name = "puerto_rico"
    title = "Puerto Rico"
    min_players = 2
    max_players = 5
    state_version = "1"
    capabilities = Capabilities(play_in_place=True, decide_and_apply=True)
    options_schema = (
        Option(
            "variant",
            "str",
            "auto",
            "'auto' = the base game for 3-5 players and the official 2-player variant (rules §14) for 2; "
            "'official_2p' needs exactly 2 seats, 'standard' 3-5 seats",
            choices=("auto", "standard", "official_2p"),
        ),
        Option(
            "random_first_governor", "bool", False, "draw the first governor from the game RNG instead of seat 0 (D31)"
        ),
        Option(
            "hide_vp_chips", "bool", False, "views hide other players' VP chip totals (D23); the VP supply stays public"
        ),
        Option(
            "max_rounds",
            "int",
            100,
            "safety guard, not a rule: the game is aborted after this many rounds without an end trigger",
            minimum=5,
            maximum=1000,
        ),
    )

    # ------------------------------------------------------------ set-up

    def validate_options(self, options: dict[str, Any] | None, seats: int) -> dict[str, Any]:
        out = validate_options(self.options_schema, options)
        self.check_seats(seats)
        variant = out["variant"]
        if variant == "auto":
            variant = "official_2p" if seats == 2 else "standard"
        if variant == "official_2p" and seats != 2:
            raise InvalidOptions("the official 2-player variant needs exactly 2 seats")
        if variant == "standard" and seats == 2:
            raise InvalidOptions("the base game needs 3 to 5 seats; use variant 'official_2p' for 2 seats")
        out["variant"] = variant
        return out

    def setup(self, seed: int, seats: int, options: dict[str, Any]) -> list[Event]:
        options = self.validate_options(options, seats)
        rng = rng_for(seed, 0, "setup")
        governor = rng.randrange(seats) if options["random_first_governor"] else 0
        started = {
            "type": "GameStarted",
            "seats": seats,
            "variant": options["variant"],
            "first_governor": governor,
            "random_first_governor": options["random_first_governor"],
            "max_rounds": options["max_rounds"],
            "hide_vp_chips": options["hide_vp_chips"],
            "rng": "python-random-sha256/1",
        }
        state = self.initial_state()
        apply(state, started)
        tiles = [TILE_NAMES[k] for k in range(5) for _ in range(state.discard[k])]
        rng.shuffle(tiles)
        dealt = tiles[: seats + 1]
        return [
            started,
            {"type": "PlantationStackShuffled", "plantations": tiles},
            {"type": "PlantationsDealt", "plantations": dealt},
        ]

    def initial_state(self) -> PRState:
        return PRState()

    def evolve(self, state: PRState, event: Event) -> PRState:
        # Copy-on-write: copy only the player boards the event can change (see evolve.SINGLE_SEAT, NO_PLAYER).
        kind = event.get("type")
        new = state.copy(event["seat"] if kind in SINGLE_SEAT else -1 if kind in NO_PLAYER else None)
        apply(new, event)
        return new

    # ------------------------------------------------------------ decisions

    def _check(self, state: PRState, command: Any, seat: Any) -> Command:
        kind = open_command(
            command,
            seat,
            started=state.started,
            over=state.phase == OVER,
            acting=(state.current,),
            known=COMMAND_TYPES,
        )
        cmd = parse(state, command, kind)
        if not is_legal(state, cmd):
            raise refusal(state, cmd, legal(state))
        return cmd

    def decide(self, state: PRState, command: Command, seat: int, rng: random.Random) -> list[Event]:
        return self.decide_and_apply(state, command, seat, rng)[0]

    def decide_and_apply(
        self, state: PRState, command: Command, seat: int, rng: random.Random
    ) -> tuple[list[Event], PRState]:
        """``decide`` and the state its events lead to: the recorder's working copy."""
        cmd = self._check(state, command, seat)
        # Work on a copy whose player boards are copied on first write (``state`` is never mutated).
        recorder = _CopyOnWrite(state.copy(-1))
        return _run(recorder, cmd, rng), recorder.state

    def play(self, state: PRState, command: Command, seat: int, rng: random.Random) -> list[Event]:
        """Fast path for bots: decide and apply the resulting events to ``state`` IN PLACE.

        Returns the same events ``decide`` would return; folding them onto the old state gives ``state``.
        ``state`` must be owned by the caller alone: states returned by ``evolve`` share unchanged player
        boards with their predecessors, so take a full ``copy_state`` of such a state first."""
        cmd = self._check(state, command, seat)
        # The bots' hot path: ``_run``'s loop with the recorder's emit written out (apply, then record).
        events: list[Event] = []
        event: Event | None = event_for(state, cmd)
        while event is not None:
            apply(state, event)
            events.append(event)
            event = auto_event(state, rng)
        return events

    def copy_state(self, state: PRState) -> PRState:
        return state.copy()

    def seat_count(self, state: PRState) -> int:
        return state.n

    def to_act(self, state: PRState) -> set[int]:
        if not state.started or state.phase == OVER:
            return set()
        return {state.current}

    def legal_commands(self, state: PRState, seat: int) -> list[Command]:
        if not state.started or state.phase == OVER or seat != state.current:
            return []
        return legal(state)

    # ------------------------------------------------------------ projections

    def view(self, state: PRState, seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event:
        return view.redact(event, seat)

    def reveal_all(self, state: PRState) -> dict[str, Any]:
        return view.reveal_all(state)

    def reveals(self, event: Event) -> bool:
        return view.reveals(event)

    def is_over(self, state: PRState) -> bool:
        return state.phase == OVER

    def result(self, state: PRState) -> GameResult:
        return scoring.result(state)

    def determinize(self, state: PRState, seat: int, rng: random.Random) -> PRState:
        new = state.copy()
        rng.shuffle(new.stack)
        return new

    def evaluate(self, state: PRState, seat: int) -> float:
        return evaluate.evaluate(state, seat)

    def evaluate_all(self, state: PRState) -> list[float]:
        return evaluate.evaluate_all(state)

    # ------------------------------------------------------------ what clients are told

    def catalogue(self) -> dict[str, Any]:
        return catalogue.catalogue()

    def command_schemas(self) -> dict[str, dict[str, Any]]:
        return command_schemas(schema.COMMANDS)

    def view_schema(self) -> dict[str, Any]:
        return schema.VIEW

    def label(self, state: PRState, seat: int, command: Command) -> dict[str, Any]:
        return labels.label(state, seat, command)


def _run(rec: Recorder[PRState], cmd: Command, rng: random.Random) -> list[Event]:
    """Emit the command's event, then the automatic events that follow it, until a seat must decide."""
    work, emit = rec.state, rec.emit
    event: Event | None = event_for(work, cmd)
    while event is not None:
        emit(event)
        event = auto_event(work, rng)
    return rec.events


class _CopyOnWrite(Recorder[PRState]):
    """A recorder over a copy that shares the player boards: each is copied before its first change."""

    __slots__ = ("copied",)

    def __init__(self, work: PRState) -> None:
        # Recorder's slots set here directly: one call less on the hot path of every decide.
        self.state = work
        self.events: list[Event] = []
        self._apply = apply
        self.copied: set[int] = set()

    def emit(self, event: Event) -> None:
        work, copied = self.state, self.copied
        kind = event.get("type")
        if kind in SINGLE_SEAT:
            seats: range | tuple[int, ...] = (event["seat"],)
        elif kind in NO_PLAYER:
            seats = ()
        else:
            seats = range(work.n)
        for seat in seats:
            if seat not in copied:
                work.players[seat] = work.players[seat].copy()
                copied.add(seat)
        apply(work, event)
        self.events.append(event)


RULES = PuertoRicoRules()
