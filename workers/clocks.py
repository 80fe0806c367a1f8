"""Turn clocks for tournament play: a time bank per seat plus an increment per move.

The clock's state travels in the meta of each stored move (``meta["clock"]``: every seat's bank in
seconds, the seats whose clock runs and since when), so it is hash-chained, audited and undone with the
moves. A job scheduled for the earliest possible flag-fall applies the game's policy to a seat that ran
out: ``bot`` (a bot plays that seat's turns from then on) or ``forfeit`` (a bot plays on, and the seat is
ranked last).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

POLICIES = ("bot", "forfeit")
TIMEOUT_BOT_LEVEL = {"bot": "easy", "forfeit": "random"}


def initial(config: dict[str, Any], seats: list[dict[str, Any]], to_act: set[int], now: float) -> dict[str, Any]:
    return {
        "banks": [float(config["bank_seconds"])] * len(seats),
        "running": running_seats(seats, to_act),
        "since": now,
    }


def running_seats(seats: list[dict[str, Any]], to_act: set[int]) -> list[int]:
    return sorted(s for s in to_act if seats[s]["kind"] == "human")


def advance(
    config: dict[str, Any],
    clock: dict[str, Any],
    mover: int | None,
    seats: list[dict[str, Any]],
    to_act_after: set[int],
    now: float,
) -> dict[str, Any]:
    """The clock after ``mover`` moved at ``now``: elapsed time charged, increment credited, restarted."""
    banks = list(clock["banks"])
    elapsed = max(0.0, now - clock["since"])
    for seat in clock["running"]:
        banks[seat] -= elapsed
    if mover is not None and seats[mover]["kind"] == "human":
        banks[mover] += float(config.get("increment_seconds", 0))
    return {"banks": banks, "running": running_seats(seats, to_act_after), "since": now}


def remaining(clock: dict[str, Any], now: float) -> list[float]:
    elapsed = max(0.0, now - clock["since"])
    return [bank - (elapsed if seat in clock["running"] else 0.0) for seat, bank in enumerate(clock["banks"])]


def flagged(clock: dict[str, Any], now: float) -> list[int]:
    """Running seats whose bank is used up."""
    left = remaining(clock, now)
    return [seat for seat in clock["running"] if left[seat] <= 0]


def next_flag_fall(clock: dict[str, Any]) -> float | None:
    """Seconds from ``since`` until the first running seat runs out (None when no clock runs)."""
    if not clock["running"]:
        return None
    return float(min(clock["banks"][seat] for seat in clock["running"]))


def iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def describe(config: dict[str, Any], clock: dict[str, Any] | None, now: float | None = None) -> dict[str, Any]:
    now = time.time() if now is None else now
    if clock is None:
        return {**config, "remaining": [], "running": [], "deadline": None}
    left = remaining(clock, now)
    flag = next_flag_fall(clock)
    return {
        **config,
        "remaining": [round(max(0.0, x), 3) for x in left],
        "running": clock["running"],
        "deadline": iso(clock["since"] + flag) if flag is not None else None,
    }


def forfeit_ranks(ranks: list[int], forfeited: list[int]) -> list[int]:
    """Ranks with forfeited seats moved to the bottom (sharing last place), the others keeping their order."""
    if not forfeited:
        return ranks
    playing = sorted((r, s) for s, r in enumerate(ranks) if s not in forfeited)
    out = list(ranks)
    position = 0
    previous = None
    for index, (rank, seat) in enumerate(playing):
        if rank != previous:
            position = index + 1
            previous = rank
        out[seat] = position
    for seat in forfeited:
        out[seat] = len(playing) + 1
    return out
