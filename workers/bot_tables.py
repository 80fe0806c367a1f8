"""Limits on bot work: who may start games with bot seats, how many, and pausing tables nobody watches.

A **bot table** is a game created with at least one bot seat, or one whose human seats pass to bots when they
resign (``on_resign: bot``) or run out of time (a clock): every seat of it may end up played by a bot. While it
has not ended it is recorded in the ``bot_tables`` document collection with its owner (``key:<key id>``, or
``addr:<client address>`` for a game created without a key); when somebody last looked at it, and whether it is
paused, are a document of their own in ``bot_table_looks``, so that a look or a pause never writes back a stale
copy of the record that counts the table (an undo may record it again meanwhile).

- **Who.** Without an API key a game needs a human seat: a game of bots only runs on the server's
  processors with nobody pacing it, and a client address is too cheap to change (a new IPv6 address,
  another proxy) for a per-address cap to bound that. Integrators, whose keys the operator issues and can
  revoke, create bot-only games.
- **How many.** Each owner may have ``TRADEWINDS_BOT_GAMES_PER_ADDRESS`` (without a key) or
  ``TRADEWINDS_BOT_GAMES_PER_KEY`` bot tables that have not ended, and the whole server
  ``TRADEWINDS_BOT_GAMES_TOTAL``. Ended tables (any status but ``active``) are dropped from the count when
  it is taken. Two creations racing each other may both pass the last free place.
- **Idle tables pause.** A bot about to move in a table nobody looked at (a request on the game, a live
  follower, a move) for ``TRADEWINDS_BOT_IDLE_SECONDS`` does not move: the table is marked paused and its
  bot work stops. The next look resumes it where it stood. Pausing, not ending, because nothing is lost
  and the creator can still come back; a paused table still counts against its owner's cap until it ends
  (finished, aborted, or expired for want of moves).
- **Tournaments.** A running tournament holds places for the most bot tables any of its rounds can have (tables
  with a bot entrant; all of them under a clock, whose seats may pass to bots): one record,
  ``tournament:<id>``, of that weight, admitted whole when the tournament is created and released when it ends.
  Its tables are recorded with weight 0 (counted by the reservation) and never pause: nobody paces a tournament by
  looking at it. A table an undo brings back into play after its round (or its tournament) ended counts 1 again.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from eventstore.base import DocumentStore, EventStore
from workers.game_model import GameError

BOT_TABLES = "bot_tables"
LOOKS = "bot_table_looks"  # a bot table's ``seen_at`` and ``paused`` (``watch``), apart from its record
LOOK_EVERY = 2.0  # seconds: a process handles at most one look per game this often
REMEMBERED_LOOKS = 10_000


def setting(name: str, default: float) -> float:
    value = os.environ.get(name, "").strip()
    return float(value) if value else default


@dataclass(frozen=True)
class BotCaps:
    """0 turns a cap off."""

    per_address: int = 5
    per_key: int = 100
    total: int = 500

    @classmethod
    def from_environment(cls) -> BotCaps:
        return cls(
            per_address=int(setting("TRADEWINDS_BOT_GAMES_PER_ADDRESS", cls.per_address)),
            per_key=int(setting("TRADEWINDS_BOT_GAMES_PER_KEY", cls.per_key)),
            total=int(setting("TRADEWINDS_BOT_GAMES_TOTAL", cls.total)),
        )


def idle_seconds() -> float:
    """How long a bot table may go unwatched before its bots pause (``TRADEWINDS_BOT_IDLE_SECONDS``)."""
    return setting("TRADEWINDS_BOT_IDLE_SECONDS", 600.0)


def owner_of(key_id: str | None, address: str) -> str:
    return f"key:{key_id}" if key_id is not None else f"addr:{address}"


RESERVED = "tournament:"  # the key of a tournament's reservation: RESERVED + its id
GAME_ID = re.compile(r"[0-9a-f]{32}")  # a game's id (``GameService.create``: a UUID's hex)


def active_tables(documents: DocumentStore, status_of: Callable[[str], str]) -> dict[str, dict[str, Any]]:
    """The bot tables that have not ended (ended ones are dropped from the collection on the way) and the
    tournaments' reservations (each released when its tournament ends, ``release``); ``status_of`` gives a game's
    status (``GameService.status_of``)."""
    active: dict[str, dict[str, Any]] = {}
    for key, doc in documents.list_documents(BOT_TABLES, limit=1_000_000):
        if key.startswith(RESERVED) or status_of(key) == "active":
            active[key] = doc
        else:
            documents.delete_document(BOT_TABLES, key)
            documents.delete_document(LOOKS, key)
    return active


def places(doc: dict[str, Any]) -> int:
    """How many places of the caps a record takes: a game's 1, a tournament's reservation its weight, a tournament's
    table 0 (its reservation counts it)."""
    return int(doc.get("tables", 1))


def admit(
    documents: DocumentStore,
    status_of: Callable[[str], str],
    seats: list[dict[str, Any]],
    owner: str,
    caps: BotCaps,
    hands_over: bool = False,
) -> None:
    """Raise ``GameError`` (``human_seat_required``, ``too_many_bot_games``, ``bot_capacity``; a wait in
    ``extra["retry_after"]``) when this owner may not start a game with these seats now. ``hands_over``: the
    game's human seats pass to bots when they resign or run out of time, so it is a bot table too."""
    bots = sum(1 for seat in seats if seat.get("kind") == "bot")
    if not bots and not hands_over:
        return
    anonymous = owner.startswith("addr:")
    if anonymous and bots == len(seats):
        raise GameError(
            "human_seat_required",
            "a game without an API key needs at least one human seat; integrators create games of bots only",
        )
    within_caps(documents, status_of, owner, caps)


def within_caps(
    documents: DocumentStore, status_of: Callable[[str], str], owner: str, caps: BotCaps, tables: int = 1
) -> None:
    """Raise ``GameError`` (``too_many_bot_games``, ``bot_capacity``) when ``tables`` more bot tables would take
    this owner or the server past its cap: one for a game, a round's worth for a tournament."""
    active = active_tables(documents, status_of)
    anonymous = owner.startswith("addr:")
    cap = caps.per_address if anonymous else caps.per_key
    who = "client address" if anonymous else "API key"
    if tables > 1 and cap > 0 and tables > cap:
        raise GameError(
            "invalid_seats", f"this would run up to {tables} games with bot seats at once; an {who} may run {cap}"
        )
    if tables > 1 and caps.total > 0 and tables > caps.total:
        raise GameError(
            "invalid_seats",
            f"this would run up to {tables} games with bot seats at once; the server runs at most {caps.total}",
        )
    mine = sum(places(doc) for doc in active.values() if doc.get("owner") == owner)
    running = sum(places(doc) for doc in active.values())
    adding = "" if tables == 1 else f" and this would add {tables}"
    if cap > 0 and mine + tables > cap:
        raise GameError(
            "too_many_bot_games",
            f"this {who} has {mine} games with bot seats that have not ended{adding} (at most {cap}); "
            "finish or abort one first",
            retry_after=60,
        )
    if caps.total > 0 and running + tables > caps.total:
        raise GameError(
            "bot_capacity",
            f"the server runs {running} games with bot seats{adding}, its most is {caps.total}; try later",
            retry_after=60,
        )


def register(
    documents: DocumentStore,
    game_id: str,
    owner: str,
    seats: list[dict[str, Any]],
    hands_over: bool = False,
    tournament: str | None = None,
    counted: bool = True,
) -> None:
    """Record a new bot table (nothing for a game without bots that hands nobody over). ``tournament``: the table is
    that tournament's, and never pauses; ``counted=False``: its tournament's reservation (``reserve``) holds its
    place."""
    if hands_over or any(seat.get("kind") == "bot" for seat in seats):
        now = time.time()
        doc: dict[str, Any] = {"owner": owner, "created_at": now}
        if tournament is not None:
            doc["tournament"] = tournament
        if not counted:
            doc["tables"] = 0
        documents.put_document(LOOKS, game_id, {"seen_at": now, "paused": None})
        documents.put_document(BOT_TABLES, game_id, doc)


def watch(documents: DocumentStore, game_id: str, record: dict[str, Any]) -> dict[str, Any]:
    """When a bot table was last looked at (``seen_at``) and whether it is paused (``paused``: the version and
    generation it stopped at), from ``LOOKS``; a table recorded before those had a document of their own keeps them
    in its ``record``."""
    found = documents.get_document(LOOKS, game_id)
    if found is None:
        return {"seen_at": record.get("seen_at"), "paused": record.get("paused")}
    if found.get("paused") is None and record.get("paused") is not None:  # paused by a process of before
        return {**found, "paused": record["paused"]}
    return found


def is_bot_table(metadata: dict[str, Any]) -> bool:
    """Whether a game (by its stream metadata) is a bot table: a bot seat, or seats that pass to bots when they
    resign or run out of time."""
    resign = metadata.get("on_resign") or {}
    return (
        any(seat.get("kind") == "bot" for seat in metadata.get("seats") or [])
        or metadata.get("clock") is not None
        or resign.get("policy") == "bot"
    )


def reserve(documents: DocumentStore, tournament: str, owner: str, tables: int) -> None:
    """Hold ``tables`` places of the caps for a tournament while it runs (none: no record)."""
    if tables > 0:
        doc = {"owner": owner, "tournament": tournament, "tables": tables, "created_at": time.time()}
        documents.put_document(BOT_TABLES, RESERVED + tournament, doc)


def release(documents: DocumentStore, tournament: str) -> None:
    """The tournament's places are free again (it ended, or its creation failed)."""
    documents.delete_document(BOT_TABLES, RESERVED + tournament)


def reserved(documents: DocumentStore, tournament: str) -> bool:
    return documents.get_document(BOT_TABLES, RESERVED + tournament) is not None


def pause_if_idle(store: EventStore, game_id: str, version: int, generation: int, now: float | None = None) -> bool:
    """Called before a bot moves: True (and the table marked paused) when nobody looked at it for too long."""
    doc = store.get_document(BOT_TABLES, game_id)
    if doc is None or doc.get("tournament"):
        return False
    now = time.time() if now is None else now
    seen = watch(store, game_id, doc)
    if now - float(seen.get("seen_at") or 0) < idle_seconds():
        return False
    store.put_document(LOOKS, game_id, {**seen, "paused": {"version": version, "generation": generation, "at": now}})
    return True


class Looks:
    """Somebody looked at a game: note it (at most every few seconds per game and process) and resume a
    paused bot table. ``resume(game_id)`` schedules the table's bot turn again."""

    def __init__(self) -> None:
        self._last: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def _due(self, game_id: str, now: float) -> bool:
        with self._lock:
            last = self._last.get(game_id)
            if last is not None and now - last < LOOK_EVERY:
                return False
            self._last[game_id] = now
            self._last.move_to_end(game_id)
            while len(self._last) > REMEMBERED_LOOKS:
                self._last.popitem(last=False)
            return True

    def look(self, documents: DocumentStore, game_id: str, resume: Any, now: float | None = None) -> bool:
        """Returns True when this look resumed a paused table. Only a game's id is looked at: the path's id is
        whatever a caller sent, and the collection also holds the tournaments' reservations (``RESERVED``)."""
        if GAME_ID.fullmatch(game_id) is None or not self._due(game_id, time.monotonic()):
            return False
        doc = documents.get_document(BOT_TABLES, game_id)
        if doc is None:
            return False
        now = time.time() if now is None else now
        seen = watch(documents, game_id, doc)
        paused = seen.get("paused")
        if paused is None and now - float(seen.get("seen_at") or 0) < min(30.0, idle_seconds() / 4):
            return False
        documents.put_document(LOOKS, game_id, {"seen_at": now, "paused": None})
        if doc.get("paused") is not None:  # paused by a process of before, in the record: cleared there once
            documents.put_document(
                BOT_TABLES, game_id, {k: v for k, v in doc.items() if k not in ("seen_at", "paused")}
            )
        if paused is not None:
            resume(game_id)
            return True
        return False
