"""Helpers shared by the blueprints: documented error responses, the runtime, bearer tokens."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app, request

from api.errors import CODES, PROBLEM_CONTENT_TYPE, ApiError
from api.schemas import ProblemSchema
from workers import apikeys

_DESCRIPTIONS: dict[int, str] = {}
for _code, (_status, _title) in CODES.items():
    _DESCRIPTIONS.setdefault(_status, "")
    _DESCRIPTIONS[_status] += ("; " if _DESCRIPTIONS[_status] else "") + f"`{_code}`: {_title}"


def errors(blp, *statuses: int):
    """Document these problem+json error responses on an operation (429 always: any API key is rate-limited)."""

    def decorate(func):
        for status in sorted(set(statuses) | {429}):
            func = blp.alt_response(
                status,
                schema=ProblemSchema,
                description=_DESCRIPTIONS.get(status, "error"),
                content_type=PROBLEM_CONTENT_TYPE,
            )(func)
        return func

    return decorate


def runtime():
    return current_app.extensions["tradewinds"]


def service():
    return runtime().service


@dataclass(frozen=True)
class Caller:
    """Who is asking: a seat of the game, an integrator (API key), or a spectator (neither)."""

    seat: int | None = None
    integrator: str | None = None  # the API key's id


def caller_for(info) -> Caller:
    """Resolve the bearer token against a game: its seat token, or an integrator's API key."""
    key = integrator_key()
    if key is not None:
        return Caller(integrator=key.key_id)
    return Caller(seat=service().seat_for_token(info, bearer_token()))


def integrator_key() -> apikeys.ApiKey | None:
    """The API key the request carries, if any (seat tokens are not integrator keys)."""
    token = bearer_token()
    if token is None or not apikeys.is_api_key(token):
        return None
    key = apikeys.lookup(service().store, token)
    if key is None:
        raise ApiError("unauthorized", "this API key is unknown or revoked")
    return key


def bearer_token() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError("unauthorized", 'send the seat token as "Authorization: Bearer <token>"')
    return token.strip()
