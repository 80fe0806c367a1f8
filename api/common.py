"""Helpers shared by the blueprints: the runtime, the caller, bearer tokens."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import current_app, g, request, url_for

from api.errors import ApiError
from workers import apikeys


def runtime():
    return current_app.extensions["tradewinds"]


def service():
    return runtime().service


@dataclass(frozen=True)
class Caller:
    """Who is asking: a seat of the game, an integrator (API key), or a spectator (neither)."""

    seat: int | None = None
    integrator: str | None = None  # the API key's id


def caller_for(info, seat_tokens: dict | None = None) -> Caller:
    """Resolve the bearer token against a game: its seat token, or an integrator's API key (``seat_tokens``:
    the game's token document when already read with ``info``)."""
    key = integrator_key()
    if key is not None:
        return Caller(integrator=key.key_id)
    return Caller(seat=service().seat_for_token(info, bearer_token(), seat_tokens))


def seat_only(caller: Caller, what: str) -> int:
    """The caller's seat, for what only a seat may do (``what`` says so, e.g. "a stream ticket is for a seat"):
    403 for an API key (a valid credential of the wrong kind), 401 without a seat token."""
    if caller.integrator is not None:
        raise ApiError("forbidden", f"{what}, and an API key is no seat: send a seat token")
    if caller.seat is None:
        raise ApiError("unauthorized", f"{what}: send your seat token as a bearer token")
    return caller.seat


def integrator_key() -> apikeys.ApiKey | None:
    """The API key the request carries, if any (seat tokens are not integrator keys)."""
    token = bearer_token()
    if token is None or not apikeys.is_api_key(token):
        return None
    key = known_key(token)
    if key is None:
        raise ApiError("unauthorized", "this API key is unknown or revoked")
    return key


def known_key(token: str) -> apikeys.ApiKey | None:
    """The API key ``token`` is, or None when it is unknown or revoked: looked up once a request (the rate limits
    ask first, the endpoint after them)."""
    seen = g.get("known_key")
    if seen is not None and seen[0] == token:
        return seen[1]
    key = apikeys.lookup(service().documents, token)
    g.known_key = (token, key)
    return key


def bearer_token() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError("unauthorized", 'send the seat token as "Authorization: Bearer <token>"')
    return token.strip()


# The ``Link`` header a cursor-paged listing answers with, as documented on its operation and as sent.
NEXT_PAGE_LINK = {
    "Link": {
        "description": 'the next page, `<url>; rel="next"` (RFC 8288), absent on the last page',
        "schema": {"type": "string"},
    }
}


def next_page_link(endpoint: str, cursor: str) -> dict[str, str]:
    """The ``Link`` header of a listing page with a next one: this request's query with ``cursor`` in place."""
    args: dict[str, Any] = {k: v for k, v in request.args.items() if k != "cursor"}
    return {"Link": f'<{url_for(endpoint, **args, cursor=cursor)}>; rel="next"'}
