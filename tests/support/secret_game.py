"""A tiny game with hidden information, used only by the platform's tests (never registered in production).

"Secret numbers": each seat holds a hidden number (100000..999999, distinctive enough to search for in
any response text). Seats act in turn; a seat may ``draw`` (replace
its number by a new random one, hidden from others), ``bank`` an amount 1..3 of points, or ``pass``.
After ``rounds`` full rounds the game ends: score = banked points + secret number. The secret of a seat
is visible only to that seat until the end.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from domain.game import GameResult, IllegalCommand, NotYourTurn, Option, Rules, rank_by
from domain.rng import rng_for

SECRET_MIN, SECRET_MAX = 100_000, 999_999


@dataclass(frozen=True)
class SecretState:
    seats: int = 0
    rounds: int = 0
    secrets: tuple[int, ...] = ()
    banked: tuple[int, ...] = ()
    turn: int = 0  # total turns taken
    started: bool = False

    @property
    def current(self) -> int:
        return self.turn % self.seats

    @property
    def over(self) -> bool:
        return self.started and self.turn >= self.rounds * self.seats


class SecretGame(Rules):
    name = "secret_numbers"
    title = "Secret numbers (test game)"
    min_players = 1
    max_players = 6
    options_schema = (Option("rounds", "int", 3, "number of full rounds", minimum=1, maximum=200),)

    def setup(self, seed, seats, options):
        options = self.validate_options(options, seats)
        rng = rng_for(seed, 0, "setup")
        return [
            {"type": "GameStarted", "seats": seats, "rounds": options["rounds"]},
            *({"type": "SecretDealt", "seat": s, "number": rng.randint(SECRET_MIN, SECRET_MAX)} for s in range(seats)),
        ]

    def initial_state(self):
        return SecretState()

    def evolve(self, state, event):
        kind = event["type"]
        if kind == "GameStarted":
            return SecretState(event["seats"], event["rounds"], (0,) * event["seats"], (0,) * event["seats"], 0, True)
        if kind == "SecretDealt":
            secrets = list(state.secrets)
            secrets[event["seat"]] = event["number"]
            return replace(state, secrets=tuple(secrets))
        if kind == "PointsBanked":
            banked = list(state.banked)
            banked[event["seat"]] += event["amount"]
            return replace(state, banked=tuple(banked))
        if kind == "TurnEnded":
            return replace(state, turn=state.turn + 1)
        return state

    def to_act(self, state):
        if not state.started or state.over:
            return set()
        return {state.current}

    def legal_commands(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [{"type": "draw"}, {"type": "pass"}] + [{"type": "bank", "amount": a} for a in (1, 2, 3)]

    def label(self, state, seat, command):
        # names the seat's own secret, so the hidden-information tests see labels reach only that seat
        if command.get("type") == "draw":
            return {"label": f"Replace your number {state.secrets[seat]} by a new one"}
        return super().label(state, seat, command)

    def decide(self, state, command, seat, rng: random.Random):
        if state.over:
            raise IllegalCommand("game_over", "the game is over")
        if seat != state.current:
            raise NotYourTurn()
        kind = command.get("type")
        end = {"type": "TurnEnded", "seat": seat}
        if kind == "draw":
            return [{"type": "SecretDealt", "seat": seat, "number": rng.randint(SECRET_MIN, SECRET_MAX)}, end]
        if kind == "pass":
            return [end]
        if kind == "bank":
            amount = command.get("amount")
            if not isinstance(amount, int) or isinstance(amount, bool) or not 1 <= amount <= 3:
                raise IllegalCommand("illegal_command", "bank needs an integer amount from 1 to 3")
            return [{"type": "PointsBanked", "seat": seat, "amount": amount}, end]
        raise IllegalCommand("invalid_command", f"unknown command type {kind!r}; expected draw, pass or bank")

    def view(self, state, seat):
        return {
            "seats": state.seats,
            "rounds": state.rounds,
            "turn": state.turn,
            "banked": list(state.banked),
            "secrets": [n if s == seat else None for s, n in enumerate(state.secrets)],
        }

    def reveal_all(self, state):
        return {**self.view(state, None), "secrets": list(state.secrets)}

    def redact(self, event, seat):
        if event["type"] == "SecretDealt" and event["seat"] != seat:
            return {**event, "number": None}
        return event

    def is_over(self, state):
        return state.over

    def result(self, state):
        scores = [b + n for b, n in zip(state.banked, state.secrets)]
        return GameResult(scores=scores, ranks=rank_by([(s,) for s in scores]))

    def determinize(self, state, seat, rng):
        secrets = tuple(n if s == seat else rng.randint(SECRET_MIN, SECRET_MAX) for s, n in enumerate(state.secrets))
        return replace(state, secrets=secrets)

    def evaluate(self, state, seat):
        return state.banked[seat] + state.secrets[seat]

    def reveals(self, event):
        return event["type"] == "SecretDealt"


RULES = SecretGame()
