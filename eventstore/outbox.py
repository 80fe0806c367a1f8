"""The outbox: work a stored change causes, kept in the store with the change itself.

An entry names a job (``"play_bot_turn"``) and its JSON arguments, and has a ``key``: at most one entry
per key is pending, and writing a key again replaces the entry (a newer bot turn of the same game
supersedes the older one). Its ``token`` (chosen by the writer, unique) tells one written entry from the
next under the same key, so a job finishing late never removes the work that replaced it.

``due_at`` (seconds since the epoch) is when a sweeper should look at the entry: the writer that
dispatches the work at once writes ``now + lease``; work meant for later (a clock's flag-fall) writes
its time plus the lease. ``claim_outbox`` hands due entries to one caller and pushes their ``due_at``
back by a lease that doubles with every attempt (capped), so a failing job is retried with back-off;
``complete_outbox(key, token)`` removes an entry once its job has run.

Every backend implements the same contract (``tests/eventstore/test_outbox.py``):

- ``append(..., outbox=[...])`` writes the entries in the append's transaction (all or nothing: an
  append that fails writes no entry); ``put_outbox`` writes entries on their own;
- ``claim_outbox(now, lease, limit)``: entries with ``due_at <= now`` in ``due_at`` order, each claimed
  by one caller only (concurrent claimers get disjoint entries), returned with their new ``due_at`` and
  ``attempts``;
- ``complete_outbox(key, token)``: True when that entry was removed, False when it was gone or replaced;
- ``list_outbox(job=None, limit=100)``: pending entries in ``due_at`` order (indexed by job).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from eventstore._common import check_name, json_copy

MAX_LEASE = 300.0  # the longest a claimed entry waits before it is looked at again
MAX_DOUBLINGS = 6


@dataclass(frozen=True)
class OutboxEntry:
    key: str  # at most one pending entry per key
    token: str  # unique per written entry
    job: str  # the job function's name
    args: list[Any]
    due_at: float  # seconds since the epoch
    attempts: int = 0  # how many times it was claimed

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "token": self.token, "job": self.job, "args": self.args, "due_at": self.due_at}


def check_outbox(entries: Any) -> list[OutboxEntry]:
    """Validate entries to write (dicts or ``OutboxEntry``); ``ValueError`` for a bad one, before any write."""
    if entries is None:
        return []
    if not isinstance(entries, list | tuple):
        raise ValueError("outbox must be a list of entries")
    checked: list[OutboxEntry] = []
    for index, entry in enumerate(entries):
        if isinstance(entry, OutboxEntry):
            entry = entry.as_dict()
        if not isinstance(entry, dict):
            raise ValueError(f"outbox entry {index} must be a dict")
        try:
            due_at = float(entry["due_at"])
            checked.append(
                OutboxEntry(
                    check_name(entry["key"], "outbox key"),
                    check_name(entry["token"], "outbox token"),
                    check_name(entry["job"], "outbox job"),
                    json_copy(list(entry.get("args") or []), "outbox args"),
                    due_at,
                )
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"outbox entry {index} needs key, token, job, args and due_at: {exc}") from None
        if due_at != due_at or due_at in (float("inf"), float("-inf")):
            raise ValueError(f"outbox entry {index}: due_at must be a finite number")
    keys = [e.key for e in checked]
    if len(set(keys)) != len(keys):
        raise ValueError("outbox entries of one write must have distinct keys")
    return checked


def next_lease(lease: float, attempts: int) -> float:
    """How long a claim holds an entry that has been claimed ``attempts`` times before."""
    if lease <= 0:
        raise ValueError("lease must be > 0")
    return float(min(MAX_LEASE, lease * 2 ** min(attempts, MAX_DOUBLINGS)))
