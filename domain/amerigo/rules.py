"""The Amerigo Rules object (the decider)."""

from __future__ import annotations

import random
from typing import Any

from domain.game import Capabilities, Command, Event, GameResult, Rules
from domain.rng import rng_for

from . import catalogue, labels, schema, scoring
from . import view as _view
from .decide import decide as _decide
from .decide import decide_and_apply as _decide_and_apply
from .evaluate import evaluate as _evaluate
from .evaluate import evaluate_all as _evaluate_all
from .evaluate import evaluation_change as _evaluation_change
from .evolve import evolve as _evolve
from .flow import setup_events
from .legal import legal_commands as _legal
from .state import State
from .tower import DEFAULT_TOWER, TowerModel


class AmerigoRules(Rules):
    name = "amerigo"
    title = "Amerigo"
    min_players = 2
    max_players = 4
    options_schema = ()
    state_version = "1"
    capabilities = Capabilities(play_in_place=True, decide_and_apply=True)

    def __init__(self, tower: TowerModel | None = None) -> None:
        self.tower = tower or DEFAULT_TOWER

    def setup(self, seed: int, seats: int, options: dict[str, Any]) -> list[Event]:
        self.validate_options(options, seats)
        self.check_seats(seats)
        return self.setup_with_rng(seats, rng_for(seed, 0, "setup"))

    def setup_with_rng(self, seats: int, rng: random.Random) -> list[Event]:
        """Setup events drawn from a given RNG (the rules file's reference vectors use random.Random(1))."""
        return setup_events(seats, rng, self.tower)

    def initial_state(self) -> State:
        return State()

    def evolve(self, state: State, event: Event) -> State:
        return _evolve(state, event)

    def decide(self, state: State, command: Command, seat: int, rng: random.Random) -> list[Event]:
        return _decide(state, command, seat, rng, self.tower)

    def decide_and_apply(
        self, state: State, command: Command, seat: int, rng: random.Random
    ) -> tuple[list[Event], State]:
        return _decide_and_apply(state, command, seat, rng, self.tower)

    def play(self, state: State, command: Command, seat: int, rng: random.Random) -> list[Event]:
        return _decide(state, command, seat, rng, self.tower, in_place=True)

    def copy_state(self, state: State) -> State:
        return state.clone()  # ``apply`` is copy-on-write: a shallow copy is a private one

    def seat_count(self, state: State) -> int:
        return state.seats

    def to_act(self, state: State) -> set[int]:
        if not state.started or state.over or state.turn_seat < 0:
            return set()
        return {state.turn_seat}

    def legal_commands(self, state: State, seat: int) -> list[Command]:
        return _legal(state, seat)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return _view.view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event:
        return _view.redact(event, seat)

    def reveal_all(self, state: State) -> dict[str, Any]:
        return _view.reveal_all(state)

    def is_over(self, state: State) -> bool:
        return state.over

    def result(self, state: State) -> GameResult:
        return scoring.result(state)

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        return _view.determinize(state, seat, rng)

    def evaluate(self, state: State, seat: int) -> float:
        return _evaluate(state, seat)

    def evaluate_all(self, state: State) -> list[float]:
        return _evaluate_all(state)

    def evaluation_change(self, state: State, command: Command) -> float | None:
        return _evaluation_change(command)

    def reveals(self, event: Event) -> bool:
        return _view.reveals(event)

    # ---- what clients are told
    def catalogue(self) -> dict[str, Any]:
        return catalogue.catalogue()

    def command_schemas(self) -> dict[str, dict[str, Any]]:
        return schema.command_schemas()

    def view_schema(self) -> dict[str, Any]:
        return schema.VIEW

    def label(self, state: State, seat: int, command: Command) -> dict[str, Any]:
        return labels.label(state, seat, command)
