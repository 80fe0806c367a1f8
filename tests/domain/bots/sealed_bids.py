"""A tiny simultaneous-move game for bot tests: every round all seats bid 1..3 at once, sealed.

A bid stays hidden from the other seats until everyone has bid. Then each seat scores its bid, unless
another seat bid the same number (a collision scores nothing). Highest total after ``rounds`` wins.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from domain.game import GameResult, IllegalCommand, NotYourTurn, Option, Rules, rank_by


@dataclass(frozen=True)
class BidState:
    seats: int = 0
    rounds: int = 0
    round: int = 0
    pending: tuple[int | None, ...] = ()
    scores: tuple[int, ...] = ()


class SealedBids(Rules):
    name = "sealed_bids"
    title = "Sealed bids (test game)"
    min_players = 2
    max_players = 4
    options_schema = (Option("rounds", "int", 3, "rounds", minimum=1, maximum=20),)

    def setup(self, seed, seats, options):
        options = self.validate_options(options, seats)
        return [{"type": "GameStarted", "seats": seats, "rounds": options["rounds"]}]

    def initial_state(self):
        return BidState()

    def evolve(self, state, event):
        kind = event["type"]
        if kind == "GameStarted":
            n = event["seats"]
            return BidState(n, event["rounds"], 0, (None,) * n, (0,) * n)
        if kind == "BidSealed":
            pending = list(state.pending)
            pending[event["seat"]] = event["amount"]
            return replace(state, pending=tuple(pending))
        if kind == "BidsRevealed":
            bids = event["bids"]
            scores = tuple(s + (b if bids.count(b) == 1 else 0) for s, b in zip(state.scores, bids, strict=True))
            return replace(state, round=state.round + 1, pending=(None,) * state.seats, scores=scores)
        return state

    def to_act(self, state):
        if state.seats == 0 or state.round >= state.rounds:
            return set()
        return {s for s, b in enumerate(state.pending) if b is None}

    def legal_commands(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [{"type": "bid", "amount": a} for a in (1, 2, 3)]

    def decide(self, state, command, seat, rng: random.Random):
        if seat not in self.to_act(state):
            raise NotYourTurn()
        if command.get("type") != "bid" or command.get("amount") not in (1, 2, 3):
            raise IllegalCommand("illegal_command", "bid 1, 2 or 3")
        events = [{"type": "BidSealed", "seat": seat, "amount": command["amount"]}]
        pending = list(state.pending)
        pending[seat] = command["amount"]
        if all(b is not None for b in pending):
            events.append({"type": "BidsRevealed", "bids": pending})
        return events

    def view(self, state, seat):
        return {
            "seats": state.seats,
            "round": state.round,
            "scores": list(state.scores),
            "pending": [b if s == seat else (b is not None) for s, b in enumerate(state.pending)],
        }

    def reveal_all(self, state):
        return {**self.view(state, None), "pending": list(state.pending)}

    def is_over(self, state):
        return state.seats > 0 and state.round >= state.rounds

    def result(self, state):
        return GameResult(scores=list(state.scores), ranks=rank_by([(s,) for s in state.scores]))

    def determinize(self, state, seat, rng):
        pending = tuple(b if s == seat or b is None else rng.randint(1, 3) for s, b in enumerate(state.pending))
        return replace(state, pending=pending)

    def evaluate(self, state, seat):
        return state.scores[seat]


RULES = SealedBids()
