"""Stream tickets: short-lived, single-use stand-ins for a seat token where no header can be sent.

``EventSource`` cannot send ``Authorization``, and a seat token in a URL would end up in logs and
browser history. A ticket is random, names one game and one seat, expires after a minute, and is
deleted by the request that redeems it (``take_document``: of two racing requests one gets it). Only its
SHA-256 is stored, with the hash of the seat token it was issued for: a ticket of a token since reissued opens
nothing. ``api.serving`` scrubs ``ticket=`` from access-log lines. Tickets never redeemed are
swept as new ones are issued: each issue deletes the expired tickets among the first ``SWEEP_BATCH`` stored,
so at most the tickets of the last minute and one batch of expired ones are kept.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from datetime import UTC, datetime

import marshmallow as ma
from marshmallow import fields

from api.errors import ApiError
from eventstore.base import DocumentStore

COLLECTION = "stream_tickets"
PREFIX = "twst_"
SCRUB = re.compile(r"(ticket=)[^&\s\"]*")


class TicketSchema(ma.Schema):
    ticket = fields.String(required=True, metadata={"description": "pass as `ticket=` to the stream; works once"})
    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    expires_in = fields.Integer(required=True, metadata={"description": "seconds from now"})
    expires_at = fields.String(required=True, metadata={"description": "ISO 8601 UTC"})
    stream_url = fields.String(required=True, metadata={"description": "the stream's path with the ticket"})


def _key(ticket: str) -> str:
    return hashlib.sha256(ticket.encode()).hexdigest()


SWEEP_BATCH = 100


def sweep_expired(store: DocumentStore, now: float | None = None) -> int:
    """Delete the expired tickets among the first ``SWEEP_BATCH`` stored; the number deleted."""
    now = time.time() if now is None else now
    gone = 0
    for key, doc in store.list_documents(COLLECTION, limit=SWEEP_BATCH):
        if float(doc.get("expires", 0)) <= now:
            store.delete_document(COLLECTION, key)
            gone += 1
    return gone


def issue_ticket(store: DocumentStore, game_id: str, seat: int, seconds: int, credential: str) -> dict:
    """A new ticket for ``seat``'s stream; ``credential``: the hash of the seat token it is issued for."""
    sweep_expired(store)
    ticket = PREFIX + secrets.token_urlsafe(24)
    expires = time.time() + seconds
    store.put_document(
        COLLECTION, _key(ticket), {"game_id": game_id, "seat": seat, "expires": expires, "credential": credential}
    )
    return {
        "ticket": ticket,
        "game_id": game_id,
        "seat": seat,
        "expires_in": seconds,
        "expires_at": datetime.fromtimestamp(expires, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "stream_url": f"/games/{game_id}/stream?ticket={ticket}",
    }


def redeem_ticket(store: DocumentStore, game_id: str, ticket: str) -> tuple[int, str]:
    """The seat a ticket opens this game's stream for, and the hash of the seat token it was issued for (the
    caller checks that it is still the seat's); it cannot be used again."""
    doc = store.take_document(COLLECTION, _key(ticket))
    if (
        doc is None
        or doc.get("game_id") != game_id
        or float(doc.get("expires", 0)) <= time.time()
        or not isinstance(doc.get("credential"), str)
    ):
        raise ApiError(
            "unauthorized",
            "this stream ticket is unknown, used, expired or for another game; "
            f"POST /games/{game_id}/stream-tickets with the seat token for a new one",
        )
    return int(doc["seat"]), doc["credential"]


def scrub(text: str) -> str:
    """A log line without ticket values."""
    return SCRUB.sub(r"\1[redacted]", text)
