"""RFC 9457 problem details: every error the API returns, with a stable machine-readable ``code``."""

from __future__ import annotations

from typing import Any

from flask import Response, json

PROBLEM_TYPE_BASE = "https://tradewinds.invalid/problems/"
PROBLEM_CONTENT_TYPE = "application/problem+json"

# code -> (HTTP status, title)
CODES: dict[str, tuple[int, str]] = {
    "invalid_request": (400, "The request is malformed"),
    "unauthorized": (401, "A valid bearer token is required"),
    "forbidden": (403, "This token may not do that"),
    "unknown_game": (404, "No such game"),
    "unknown_game_type": (404, "No such game type"),
    "unknown_version": (404, "No such version"),
    "not_found": (404, "Not found"),
    "method_not_allowed": (405, "Method not allowed"),
    "not_acceptable": (406, "Not acceptable"),
    "not_your_turn": (409, "It is not this seat's turn"),
    "game_over": (409, "The game is over"),
    "idempotency_expired": (409, "The earlier request was undone"),
    "busy": (409, "Too many concurrent moves"),
    "game_not_over": (409, "The game is not over yet"),
    "out_of_time": (409, "This seat's clock ran out"),
    "no_undo_request": (409, "No open undo request"),
    "stale_version": (412, "The game has moved on"),
    "payload_too_large": (413, "Request body too large"),
    "unsupported_media_type": (415, "Unsupported media type"),
    "rate_limited": (429, "Too many requests for this API key"),
    "too_many_followers": (429, "Too many live followers for this address, game or server"),
    "invalid_command": (422, "The command is malformed"),
    "invalid_seats": (422, "The seats do not suit this game"),
    "invalid_options": (422, "The options do not suit this game"),
    "invalid_undo": (422, "That undo target is not allowed"),
    "invalid_event_id": (422, "Not an event id of this game"),
    "illegal_command": (422, "The rules do not allow this move"),
    "idempotency_conflict": (422, "Idempotency-Key reused for a different request"),
    "unavailable": (503, "A backing service is unavailable"),
    "internal_error": (500, "Internal server error"),
}

HTTP_STATUS_CODES = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "illegal_command",
    412: "stale_version",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "invalid_command",
    429: "rate_limited",
    500: "internal_error",
    503: "unavailable",
}


class ApiError(Exception):
    def __init__(self, code: str, detail: str, status: int | None = None, headers: dict | None = None, **extra: Any):
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = status or status_for(code)
        self.headers = headers or {}
        self.extra = extra


def status_for(code: str) -> int:
    return CODES.get(code, (422, ""))[0]


def problem(code: str, detail: str, status: int | None = None, headers: dict | None = None, **extra: Any) -> Response:
    status = status or status_for(code)
    body = {
        "type": PROBLEM_TYPE_BASE + code,
        "title": CODES.get(code, (status, code.replace("_", " ")))[1],
        "status": status,
        "code": code,
        "detail": detail,
        **{k: v for k, v in extra.items() if v is not None},
    }
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_CONTENT_TYPE)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response
