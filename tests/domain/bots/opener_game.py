"""A tiny game whose better action opens with commands worth nothing by themselves (bot tests only).

Seats act in turn for ``rounds`` rounds. On its turn a seat may ``take`` 1 point (the turn ends) or
``open`` a project: then it must go ``deeper`` until the project is ``depth`` commands deep, and may then
``collect`` 3 points or ``drop`` the project (either ends the turn). Only the points count. A one-ply
evaluation sees ``open`` as worth nothing; a bot that plays out its own turn sees the 3 points. With
``drops`` above 1 there are that many ways to drop a project (``{"type": "drop", "pile": i}``), so most of
the follow-ups of ``open`` are worth nothing: a search that averages over the seat's own follow-ups
undervalues it. ``drop_points``: what a drop scores instead of nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from domain.game import GameResult, IllegalCommand, NotYourTurn, Rules, rank_by


@dataclass(frozen=True)
class OpenerState:
    seats: int = 0
    rounds: int = 0
    depth: int = 1
    points: tuple[int, ...] = ()
    turn: int = 0
    opened: int = 0  # commands of the current project played (0: none open)

    @property
    def current(self) -> int:
        return self.turn % self.seats

    @property
    def over(self) -> bool:
        return self.seats > 0 and self.turn >= self.rounds * self.seats


class OpenerGame(Rules):
    name = "opener"
    title = "Opener (test game)"
    min_players = 1
    max_players = 4

    def __init__(self, depth: int = 1, drops: int = 1, drop_points: int = 0) -> None:
        self.depth = depth
        self.drops = drops
        self.drop_points = drop_points

    def setup(self, seed, seats, options):
        return [{"type": "Started", "seats": seats, "rounds": int(options.get("rounds", 3))}]

    def initial_state(self):
        return OpenerState()

    def evolve(self, state, event):
        kind = event["type"]
        if kind == "Started":
            return OpenerState(event["seats"], event["rounds"], self.depth, (0,) * event["seats"])
        if kind == "Opened":
            return replace(state, opened=state.opened + 1)
        points = list(state.points)
        points[state.current] += event.get("points", 0)
        return replace(state, points=tuple(points), turn=state.turn + 1, opened=0)

    def to_act(self, state):
        return set() if state.over or not state.seats else {state.current}

    def legal_commands(self, state, seat):
        if state.over or seat != state.current:
            return []
        if state.opened == 0:
            return [{"type": "take"}, {"type": "open"}]
        if state.opened < state.depth:
            return [{"type": "deeper"}]
        if self.drops == 1:
            return [{"type": "drop"}, {"type": "collect"}]
        return [{"type": "drop", "pile": i} for i in range(self.drops)] + [{"type": "collect"}]

    def decide(self, state, command, seat, rng):
        if state.over or seat != state.current:
            raise NotYourTurn()
        if command not in self.legal_commands(state, seat):
            raise IllegalCommand("illegal_command", f"{command} is not legal now")
        kind = command["type"]
        if kind in ("open", "deeper"):
            return [{"type": "Opened"}]
        points = {"take": 1, "collect": 3, "drop": self.drop_points}[kind]
        return [{"type": "TurnEnded", "points": points}]

    def is_over(self, state):
        return state.over

    def result(self, state):
        return GameResult(scores=list(state.points), ranks=rank_by([(p,) for p in state.points]))

    def view(self, state, seat):
        return {"seats": state.seats, "points": list(state.points), "opened": state.opened}

    def evaluate(self, state, seat):
        others = [p for s, p in enumerate(state.points) if s != seat]
        return float(state.points[seat] - (max(others) if others else 0))
