"""Helpers shared by the blueprints: documented error responses, the runtime, bearer tokens."""

from __future__ import annotations

from flask import current_app, request

from api.errors import CODES, PROBLEM_CONTENT_TYPE, ApiError
from api.schemas import ProblemSchema

_DESCRIPTIONS: dict[int, str] = {}
for _code, (_status, _title) in CODES.items():
    _DESCRIPTIONS.setdefault(_status, "")
    _DESCRIPTIONS[_status] += ("; " if _DESCRIPTIONS[_status] else "") + f"`{_code}`: {_title}"


def errors(blp, *statuses: int):
    """Document these problem+json error responses on an operation."""

    def decorate(func):
        for status in statuses:
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


def bearer_token() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError("unauthorized", 'send the seat token as "Authorization: Bearer <token>"')
    return token.strip()
