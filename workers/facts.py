"""Platform facts: what happens to a game besides its moves, as events in the game's own signed chain.

A game's stream holds the rules' events and, beside them, platform events whose ``type`` starts with
``platform.``. The rules never see a platform event (``rules_fold``/``rules_evolve`` skip them), and
every read path serves them as they are: a platform event holds no hidden information.

=========================  ==========================================================================
event                      data
=========================  ==========================================================================
``platform.SeatTimedOut``  ``seat``, ``policy`` (``bot``/``forfeit``), ``level``: a bot plays the seat
``platform.Resigned``      ``seat``, ``on_resign`` (``lose``/``bot``), ``level``: a bot plays the seat
``platform.UndoRequested`` ``request_id``, ``by``, ``to_version``, ``reason``, ``pending`` (the voters)
``platform.UndoAccepted``  ``request_id``, ``seat``
``platform.UndoDeclined``  ``request_id``, ``seat``: the request closes
``platform.Aborted``       ``by`` (``integrator:<key id>`` or ``seat:<n>``): status ``aborted``
``platform.GameAbandoned`` ``idle_seconds``, ``last_event_at``: no event for that long: ``abandoned``
``platform.GameFinished``  ``result``: the final result, status ``finished``
=========================  ==========================================================================

An open undo request lapses when a rules event is stored after it; an accepted request ends in a
truncation (the request, its votes and the moves after its target go to the archive, with the
truncation record naming the voters). ``Facts`` is the fold of these events over the seats a game was
created with; the stream row's status is a cache of ``Facts.status`` written in the same transaction
as the event that changes it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from domain.game import Rules
from eventstore import utc_now_iso
from eventstore.base import StoredEvent

PREFIX = "platform."
SEAT_TIMED_OUT = "platform.SeatTimedOut"
RESIGNED = "platform.Resigned"
UNDO_REQUESTED = "platform.UndoRequested"
UNDO_ACCEPTED = "platform.UndoAccepted"
UNDO_DECLINED = "platform.UndoDeclined"
ABORTED = "platform.Aborted"
ABANDONED = "platform.GameAbandoned"
FINISHED = "platform.GameFinished"

UNDO_FACTS = frozenset({UNDO_REQUESTED, UNDO_ACCEPTED, UNDO_DECLINED})

ACTIVE, FINISHED_STATUS, ABORTED_STATUS, ABANDONED_STATUS = "active", "finished", "aborted", "abandoned"
STATUSES = (ACTIVE, FINISHED_STATUS, ABORTED_STATUS, ABANDONED_STATUS)
ENDINGS = {FINISHED: FINISHED_STATUS, ABORTED: ABORTED_STATUS, ABANDONED: ABANDONED_STATUS}
RESIGN_POLICIES = ("lose", "bot")
RESIGN_LOSE_LEVEL = "random"  # plays a seat that resigned to lose, so the rules can run on


def facts_now() -> str:
    return utc_now_iso()


def facts_epoch(recorded_at: str | None) -> float:
    """Seconds since the epoch of a stored ``recorded_at`` (0 for none)."""
    return datetime.fromisoformat(recorded_at.replace("Z", "+00:00")).timestamp() if recorded_at else 0.0


def is_platform(event: Mapping[str, Any]) -> bool:
    return str(event.get("type", "")).startswith(PREFIX)


# ------------------------------------------------------------------------ the rules' view of a stream
def rules_events(events: Iterable[Mapping[str, Any]]) -> list[Any]:
    return [e for e in events if not is_platform(e)]


def rules_fold(rules: Rules, events: Iterable[Mapping[str, Any]], state: Any = None) -> Any:
    """``rules.fold`` over the rules' events only."""
    return rules.fold(rules_events(events), state)


def rules_evolve(rules: Rules, state: Any, event: dict[str, Any]) -> Any:
    return state if is_platform(event) else rules.evolve(state, event)


def redact(rules: Rules, event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    return event if is_platform(event) else rules.redact(event, seat)


def public_event(rules: Rules, event: dict[str, Any]) -> dict[str, Any]:
    return event if is_platform(event) else rules.public_event(event)


def reveals(rules: Rules, event: dict[str, Any]) -> bool:
    return False if is_platform(event) else bool(rules.reveals(event))


# ---------------------------------------------------------------------------------- the facts' fold
@dataclass(frozen=True)
class Facts:
    seats: tuple[dict[str, Any], ...]  # each seat as it plays now: kind, level, timed_out, forfeited, resigned
    status: str = ACTIVE
    result: dict[str, Any] | None = None  # from platform.GameFinished
    undo_request: dict[str, Any] | None = None  # the open request
    last_undo_request: dict[str, Any] | None = None  # the latest closed one
    out: tuple[int, ...] = ()  # seats ranked last whatever the rules say (forfeited, resigned to lose)
    ended_at: str | None = None
    last_event_at: str | None = None
    timeouts: tuple[dict[str, Any], ...] = field(default=())
    # the seat whose command stored the last event (None after a platform event or the setup): a bot's decision
    # then goes on its own step (``Bot.choose``'s ``continuing``)
    last_mover: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": [dict(s) for s in self.seats],
            "status": self.status,
            "result": self.result,
            "undo_request": self.undo_request,
            "last_undo_request": self.last_undo_request,
            "out": list(self.out),
            "ended_at": self.ended_at,
            "last_event_at": self.last_event_at,
            "timeouts": [dict(t) for t in self.timeouts],
            "last_mover": self.last_mover,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Facts:
        return cls(
            seats=tuple(dict(s) for s in data["seats"]),
            status=str(data["status"]),
            result=data["result"],
            undo_request=data["undo_request"],
            last_undo_request=data["last_undo_request"],
            out=tuple(int(s) for s in data["out"]),
            ended_at=data["ended_at"],
            last_event_at=data["last_event_at"],
            timeouts=tuple(dict(t) for t in data["timeouts"]),
            last_mover=data.get("last_mover"),  # absent from snapshots written before it was kept
        )

    @property
    def in_play(self) -> list[int]:
        """Seats still competing: not ranked last by a forfeit or a resignation to lose."""
        return [s["seat"] for s in self.seats if s["seat"] not in self.out]


def initial(seats: Iterable[Mapping[str, Any]]) -> Facts:
    """The facts of a game as created (``seats`` from its metadata; games stored before facts were events
    carry their timeouts there, and are read as they were left)."""
    records = tuple(dict(s) for s in seats)
    out = tuple(s["seat"] for s in records if s.get("forfeited") or s.get("resigned") == "lose")
    return Facts(seats=records, out=out)


def evolve(facts: Facts, event: StoredEvent) -> Facts:
    data = event.data
    kind = data["type"]
    rules_event = not kind.startswith(PREFIX)
    mover = event.meta.get("seat") if rules_event else None
    facts = replace(facts, last_event_at=event.recorded_at, last_mover=mover)
    if rules_event:
        return _lapse(facts)  # a move stored after a request makes it lapse
    if kind in (SEAT_TIMED_OUT, RESIGNED):
        facts = _lapse(facts)  # so does a seat passing to a bot: the request was put to the seats as they were
        seat = int(data["seat"])
        record = dict(facts.seats[seat])
        record.update(kind="bot", level=data["level"])
        lose = False
        if kind == SEAT_TIMED_OUT:
            record.update(timed_out=True, forfeited=data["policy"] == "forfeit")
            lose = data["policy"] == "forfeit"
            timeouts = facts.timeouts + ({"seat": seat, "at": event.recorded_at, "policy": data["policy"]},)
        else:
            record.update(resigned=data["on_resign"])
            lose = data["on_resign"] == "lose"
            timeouts = facts.timeouts
        seats = facts.seats[:seat] + (record,) + facts.seats[seat + 1 :]
        out = facts.out + ((seat,) if lose and seat not in facts.out else ())
        return replace(facts, seats=seats, out=out, timeouts=timeouts)
    if kind == UNDO_REQUESTED:
        request = {
            "id": data["request_id"],
            "by": data["by"],
            "to_version": data["to_version"],
            "at_version": event.version,
            "at_generation": event.generation,
            "reason": data["reason"],
            "accepted": [],
            "pending": list(data["pending"]),
            "created_at": event.recorded_at,
        }
        return replace(facts, undo_request=request)
    if kind in (UNDO_ACCEPTED, UNDO_DECLINED):
        if facts.undo_request is None or facts.undo_request["id"] != data["request_id"]:
            return facts
        request = facts.undo_request
        seat = int(data["seat"])
        pending = [s for s in request["pending"] if s != seat]
        if kind == UNDO_DECLINED:
            closed = {**request, "pending": pending, "declined_by": seat, "closed_at": event.recorded_at}
            return replace(facts, undo_request=None, last_undo_request=closed)
        return replace(facts, undo_request={**request, "accepted": request["accepted"] + [seat], "pending": pending})
    if kind in ENDINGS:  # and the game's end: a game that is over is not undone
        facts = _lapse(facts)
        return replace(facts, status=ENDINGS[kind], result=data.get("result"), ended_at=event.recorded_at)
    return facts  # a platform event of a later version of this code: no effect here


def _lapse(facts: Facts) -> Facts:
    """The open undo request, if any, closed as lapsed."""
    if facts.undo_request is None:
        return facts
    return replace(facts, undo_request=None, last_undo_request={**facts.undo_request, "lapsed": True})


def fold(facts: Facts, events: Iterable[StoredEvent]) -> Facts:
    """``evolve`` over ``events``. A run of the rules' events folds as its last one does (each sets when the game
    last moved and who moved, and closes an open undo request, which the first of them already closed), so a run
    costs one step, not one per event."""
    last_move: StoredEvent | None = None
    for event in events:
        if not event.data["type"].startswith(PREFIX):
            last_move = event
            continue
        if last_move is not None:
            facts, last_move = evolve(facts, last_move), None
        facts = evolve(facts, event)
    return facts if last_move is None else evolve(facts, last_move)


# ------------------------------------------------------------------------------------ results
def ranked_result(result: dict[str, Any], facts: Facts) -> dict[str, Any]:
    """The rules' result with the seats out of play (forfeited, resigned to lose) ranked last."""
    from workers.clocks import forfeit_ranks

    if not facts.out:
        return result
    out = list(facts.out)
    result = {**result, "ranks": forfeit_ranks(result["ranks"], out)}
    forfeited = [s["seat"] for s in facts.seats if s.get("forfeited")]
    resigned = [s["seat"] for s in facts.seats if s.get("resigned") == "lose"]
    if forfeited:
        result["forfeited"] = forfeited
    if resigned:
        result["resigned"] = resigned
    return result


ENDED_BY = ("resignation", "forfeit")  # why a game ended with at most one seat left in play


def result_by_resignation(facts: Facts, cause: str = "resignation") -> dict[str, Any]:
    """The result of a game that ends because at most one seat is left in play (``cause``: the last seat but
    one resigned to lose, or forfeited on time): that seat wins, every other seat shares last place (no scores:
    the rules did not get to score the game)."""
    count = len(facts.seats)
    base = {
        "scores": [0.0] * count,
        "ranks": [1] * count,
        "no_winner": not facts.in_play,
        "tiebreaks": [None] * count,
        "details": {"ended_by": cause},
    }
    return ranked_result(base, facts)


def finished_event(result: dict[str, Any]) -> dict[str, Any]:
    return {"type": FINISHED, "result": result}
