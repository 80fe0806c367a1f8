"""What the game service hands out and the small rules about seats and tokens it keeps.

``LoadedGame`` (a game folded from its stream), ``MoveOutcome``, ``GameError`` (a refusal with a stable code),
and the helpers for seat tokens, private seat ids and etags. ``workers.games`` and its concern mixins
(``workers.service_clocks``, ``workers.service_endings``, ``workers.service_work``) share them.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from domain.game import Rules
from eventstore.base import StoredEvent, StreamInfo, canonical_json
from workers import facts
from workers.facts import Facts

TOKEN_PREFIX = "tws_"
DEFAULT_BOT_LEVEL = "medium"
SEAT_TOKENS = "seat_tokens"  # document collection: per game, the hashes of its seat tokens
SEAT_IDS = "seat_ids"  # document collection: per game, its seats' external and player ids (kept out of the chain)
PRIVATE_SEAT_FIELDS = ("external_id", "player_id")


class GameError(Exception):
    """A refusal with a stable ``code``; the API maps codes to HTTP statuses."""

    def __init__(self, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = extra


@dataclass(frozen=True)
class LoadedGame:
    info: StreamInfo
    rules: Rules
    state: Any  # the rules' state (platform events skipped)
    version: int
    generation: int
    facts: Facts  # the platform facts (workers.facts)

    @property
    def head(self) -> StreamInfo | None:
        """The stream row this game was folded to, when it is the one read at its version (an append can then
        be hashed and signed before it is written: ``EventStore.append``'s ``head``)."""
        if self.info.version == self.version and self.info.generation == self.generation and self.info.head_hash:
            return self.info
        return None

    @property
    def etag(self) -> str:
        return make_etag(self.generation, self.version)

    @property
    def rules_over(self) -> bool:
        return self.rules.is_over(self.state)

    @property
    def over(self) -> bool:
        """Ended: by the rules, or finished, aborted or abandoned by a platform event."""
        return self.facts.status != facts.ACTIVE or self.rules.is_over(self.state)

    @property
    def status(self) -> str:
        if self.facts.status != facts.ACTIVE:
            return self.facts.status
        return facts.FINISHED_STATUS if self.rules.is_over(self.state) else facts.ACTIVE

    @property
    def seats(self) -> list[dict[str, Any]]:
        return list(self.facts.seats)

    def result_dict(self) -> dict[str, Any] | None:
        """The final result as recorded by ``platform.GameFinished`` (seats that forfeited or resigned to lose
        ranked last); computed from the rules for a game stored before results were events; None for a game
        that did not finish (aborted, abandoned) or is not over."""
        if self.facts.result is not None:
            return self.facts.result
        if self.facts.status != facts.ACTIVE or not self.rules.is_over(self.state):
            return None
        return self.computed_result()

    def computed_result(self) -> dict[str, Any]:
        """The rules' result of a finished position, with the platform facts applied."""
        return facts.ranked_result(self.rules.result(self.state).as_dict(), self.facts)

    def bot_seats_to_act(self) -> list[int]:
        if self.over:
            return []
        acting = self.rules.to_act(self.state)
        return sorted(s for s in acting if self.seats[s]["kind"] == "bot")


@dataclass(frozen=True)
class MoveOutcome:
    game: LoadedGame
    events: list[StoredEvent]
    replayed: bool  # True when an Idempotency-Key matched an earlier, identical request


PUBLIC_SEAT_FIELDS = ("seat", "kind", "name", "level", "external_id", "timed_out", "forfeited", "resigned")


def id_commitment(salt: str, ids: dict[str, Any]) -> str:
    """What a game's creation record holds for a seat's private ids: ``SHA-256(salt + canonical_json(ids))``
    as hex. The salt stays with the ids (collection ``seat_ids``), so the chain proves which ids a seat was
    created with to whoever is given them, and tells nobody else anything."""
    return hashlib.sha256((salt + canonical_json(ids)).encode("utf-8")).hexdigest()


def with_seat_ids(seats: list[dict[str, Any]], ids: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """``seats`` (as in the metadata or the facts) with each one's private ids from ``ids`` (by seat number)."""
    return [{**seat, **ids.get(str(seat["seat"]), {})} for seat in seats]


def public_seats(metadata: dict[str, Any], fields: tuple[str, ...] = PUBLIC_SEAT_FIELDS) -> list[dict[str, Any]]:
    """A game's seats without their secrets (token hashes), with the fields asked for."""
    return [{k: seat.get(k) for k in fields} for seat in metadata["seats"]]


def rating_player_id(metadata: dict[str, Any], seat: dict[str, Any]) -> str:
    """Who a seat is on the leaderboards: the integrator's player (key-scoped external id) or a bot level."""
    site = metadata.get("created_by") or "anonymous"
    if seat.get("player_id") is not None:  # a tournament entrant (bot entrants are distinct competitors)
        if seat["kind"] == "bot" and metadata.get("tournament_id"):
            # a bot entrant's id is its place in its tournament's list: "bot:easy:1" of another tournament is
            # another competitor, not the same one
            return f"{site}/{seat['player_id']}@{metadata['tournament_id']}"
        return f"{site}/{seat['player_id']}"
    if seat.get("external_id") is not None:
        return f"{site}/{seat['external_id']}"
    return f"bot:{seat.get('level')}" if seat["kind"] == "bot" else f"guest:{seat.get('name')}"


def resign_policy(metadata: dict[str, Any]) -> dict[str, str]:
    """What resigning means in a game: ``{"policy": "lose" | "bot", "level": ...}``, as chosen at creation (a game
    created before the choice was kept: the defaults it was played with)."""
    return metadata.get("on_resign") or {"policy": "lose", "level": DEFAULT_BOT_LEVEL}


def make_etag(generation: int, version: int) -> str:
    return f"{generation}.{version}"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(24)
