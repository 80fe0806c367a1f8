"""RFC 9457 problem details: every error the API returns, with a stable machine-readable ``code``.

A problem's ``type`` is ``/problems/<code>``, a page this server serves (GET /problems/{code}) that
explains the code. ``CODES`` is the one list of codes: the OpenAPI document, the README and the
problem pages are checked against it by the tests.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from flask import Response, json

PROBLEM_TYPE_BASE = "/problems/"
PROBLEM_CONTENT_TYPE = "application/problem+json"
AUTH_CHALLENGE = 'Bearer realm="tradewinds"'


class Code(NamedTuple):
    status: int
    title: str
    explanation: str


CODES: dict[str, Code] = {
    "invalid_request": Code(
        400,
        "The request is malformed",
        (
            "The body, a query parameter, a header or a path parameter does not match the API document: a missing or "
            "unknown field, a wrong type, a value out of range, JSON nested too deeply, or text holding NUL, lone "
            "surrogates or control characters. `errors` names each offending field. Fix the request; do not retry it "
            "as is."
        ),
    ),
    "unauthorized": Code(
        401,
        "A valid bearer token is required",
        (
            "The operation needs `Authorization: Bearer <token>`: a seat token of this game (returned once by "
            "POST /games) or an integrator API key, and none was sent, or the one sent is unknown or revoked. "
            "The response carries a `WWW-Authenticate` challenge."
        ),
    ),
    "forbidden": Code(
        403,
        "This token may not do that",
        (
            "The token is valid but does not allow this: a seat undoing beyond the undo policy, a seat that ran out "
            'of time and is now played by a bot, or an undo in a game created with `"undo": false`.'
        ),
    ),
    "unknown_game": Code(404, "No such game", "No game has this id. Game ids are returned by POST /games."),
    "unknown_game_type": Code(
        404, "No such game type", ("The `game_type` is not hosted here. GET /game-types lists the hosted game types.")
    ),
    "unknown_version": Code(
        404, "No such version", ("The game has no such version: versions run from 1 to the game's current `version`.")
    ),
    "not_found": Code(
        404,
        "Not found",
        (
            "No resource at this URL (a tournament, webhook subscription or delivery that does not exist or belongs "
            "to another API key, or a path the API does not have). The API document is at /openapi.json."
        ),
    ),
    "method_not_allowed": Code(
        405,
        "Method not allowed",
        ("The path exists but not with this HTTP method; the `Allow` header lists the methods it takes."),
    ),
    "not_acceptable": Code(
        406,
        "Not acceptable",
        (
            "The `Accept` header names no media type this operation can produce (JSON for most operations, "
            "`text/event-stream` for streams, JSON Lines or plain text for exports). Errors are always "
            "`application/problem+json`."
        ),
    ),
    "not_your_turn": Code(
        409,
        "It is not this seat's turn",
        ("The rules wait for another seat. `to_act` in GET /games/{game_id} names the seats that may act."),
    ),
    "game_over": Code(409, "The game is over", "The game has ended; it accepts no more moves."),
    "idempotency_expired": Code(
        409,
        "The earlier request was undone",
        (
            "The move made with this Idempotency-Key was taken back by an undo, so it cannot be replayed. Decide "
            "again against the current state and send the new move with a new key."
        ),
    ),
    "busy": Code(
        409,
        "Too many concurrent moves",
        (
            "Other moves kept landing first and this one could not be stored, or (an undo of a tournament's table) "
            "the tournament was recording a result at that moment; retry it."
        ),
    ),
    "game_not_over": Code(
        409, "The game is not over yet", "Exports exist only for games that are over: finished, aborted or abandoned."
    ),
    "out_of_time": Code(
        409,
        "This seat's clock ran out",
        ("The seat's time bank is empty; the game's `on_timeout` policy applies and a bot plays for the seat."),
    ),
    "no_undo_request": Code(
        409,
        "No open undo request",
        ("There is no open undo request to accept or decline (none was made, or a move since closed it)."),
    ),
    "stale_version": Code(
        412,
        "The game has moved on",
        (
            "`If-Match` names a version the game is no longer at. `etag` (and the `ETag` header) give the current "
            "one: reload the game, decide again and resend."
        ),
    ),
    "payload_too_large": Code(413, "Request body too large", "Request bodies are limited to 4 MiB."),
    "unsupported_media_type": Code(
        415, "Unsupported media type", ("Operations that take a body take `Content-Type: application/json` (UTF-8).")
    ),
    "invalid_command": Code(
        422,
        "The command is malformed",
        (
            "The command is not one of this game's commands, or lacks a field, or a field has a wrong value. "
            "GET /games/{game_id}/legal-commands lists the commands the seat may send now."
        ),
    ),
    "illegal_command": Code(
        422,
        "The rules do not allow this move",
        (
            "The command is well formed but the rules refuse it in the current state; `detail` says why and "
            "`index` which command of a list."
        ),
    ),
    "invalid_seats": Code(
        422,
        "The seats do not suit this game",
        (
            "Too few or too many seats for the game type, a level on a human seat, or a tournament participant "
            "that is neither a player nor a bot."
        ),
    ),
    "invalid_options": Code(
        422,
        "The options do not suit this game",
        ("An option the game type does not take, or a value it does not allow; GET /game-types lists them."),
    ),
    "invalid_undo": Code(
        422,
        "That undo target is not allowed",
        (
            "`to_version` must be below the current version and not before the end of the set-up; a game may be "
            "undone at most 100 times."
        ),
    ),
    "invalid_cursor": Code(
        422,
        "Not a cursor of this listing",
        (
            "`cursor` must be the `next_cursor` of an earlier page: the id of a game this caller is shown (of "
            "`GET /tournaments`: one of the key's tournaments). Start again without a cursor."
        ),
    ),
    "invalid_event_id": Code(
        422,
        "Not an event id of this game",
        (
            "`Last-Event-ID` must be `<generation>.<version>` as sent in the stream, of a generation the game "
            "has reached and, in its current generation, of a version it has reached."
        ),
    ),
    "idempotency_conflict": Code(
        422,
        "Idempotency-Key reused for a different request",
        ("This Idempotency-Key was already used for a different body or seat; use a new key for a new move."),
    ),
    "too_many_followers": Code(
        429,
        "Too many live followers for this address, game or server",
        (
            "Live followers (streams and long-polls) are capped per client address, per game and per server process; "
            "`detail` names the cap that was reached. Close a stream you no longer read, or retry later."
        ),
    ),
    "rate_limited": Code(
        429,
        "Too many requests",
        (
            "The caller (an API key, a seat token, or without a token the client address) used up its requests "
            "for the current window; `Retry-After` says when to retry and the `RateLimit` header how much is left."
        ),
    ),
    "too_many_bot_games": Code(
        429,
        "Too many active bot games for this caller",
        (
            "Games with bot seats, or whose seats pass to bots when they resign (`on_resign: bot`) or run out of "
            "time (a clock), are capped per API key and, without a key, per client address, counting the caller's "
            "games that have not ended. Finish or abort one first, or retry after `Retry-After`."
        ),
    ),
    "bot_capacity": Code(
        503,
        "The server's bot budget is used up",
        (
            "The server runs at most a configured number of games with bot seats (or seats that pass to bots) at "
            "once, whoever created them. "
            "Retry after `Retry-After` seconds."
        ),
    ),
    "human_seat_required": Code(
        403,
        "A game without a key needs a human seat",
        (
            "Without an integrator API key a game must have at least one human seat: a game of bots only runs "
            "entirely on the server's processors with nobody pacing it, and a client address is too cheap to "
            "change for a per-address cap to bound that. Integrators create bot-only games with their key."
        ),
    ),
    "webhook_target_refused": Code(
        422,
        "The webhook URL is not an acceptable target",
        (
            "Webhooks go to public addresses only: the URL's host does not resolve, or resolves to a loopback, "
            "private, link-local, multicast, reserved or unspecified address (IPv4 or IPv6, including IPv4-mapped "
            "addresses). `detail` names the address class."
        ),
    ),
    "too_many_webhooks": Code(
        409,
        "The API key holds the most webhook subscriptions it may",
        (
            "An API key holds at most 20 webhook subscriptions (one subscription takes every event kind it "
            "names). Delete one (`DELETE /webhooks/{id}`) before subscribing again."
        ),
    ),
    "webhook_disabled": Code(
        409,
        "The webhook subscription is disabled",
        (
            "A subscription paused by its key, or disabled after failing for days, sends nothing, redeliveries "
            'included: resume it first (`PATCH /webhooks/{id}` with `{"active": true}`).'
        ),
    ),
    "request_line_too_long": Code(
        414,
        "Request line too long",
        ("The request line (method, path and query) is longer than the server accepts (4094 bytes)."),
    ),
    "headers_too_large": Code(
        431,
        "Request headers too large",
        ("A header line, or the number of headers, exceeds what the server accepts (8190 bytes a line, 100 headers)."),
    ),
    "expectation_failed": Code(
        417,
        "Expectation failed",
        (
            "The request's `Expect` header asks for something other than `100-continue`, which is all the server "
            "understands. Send the request without it."
        ),
    ),
    "unsupported_transfer_coding": Code(
        501,
        "Transfer coding not implemented",
        (
            "The request's `Transfer-Encoding` names a coding the server does not implement: it reads `chunked` and nothing "
            "else (no `gzip`, `deflate` or `compress`). Send the body with `Content-Length` instead."
        ),
    ),
    "internal_error": Code(
        500,
        "Internal server error",
        ("A bug on our side: the request was not applied. Please report it with the time of the request."),
    ),
    "unavailable": Code(
        503,
        "A backing service is unavailable",
        ("The event store is unreachable; nothing was applied. Retry after `Retry-After` seconds."),
    ),
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
    414: "request_line_too_long",
    415: "unsupported_media_type",
    422: "invalid_command",
    429: "rate_limited",
    417: "expectation_failed",
    431: "headers_too_large",
    500: "internal_error",
    501: "unsupported_transfer_coding",
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
    entry = CODES.get(code)
    return entry.status if entry else 422


def problem_body(code: str, detail: str, status: int | None = None, **extra: Any) -> dict[str, Any]:
    status = status or status_for(code)
    entry = CODES.get(code)
    return {
        "type": PROBLEM_TYPE_BASE + code,
        "title": entry.title if entry else code.replace("_", " "),
        "status": status,
        "code": code,
        "detail": detail,
        **{k: v for k, v in extra.items() if v is not None},
    }


def problem(code: str, detail: str, status: int | None = None, headers: dict | None = None, **extra: Any) -> Response:
    body = problem_body(code, detail, status, **extra)
    response = Response(json.dumps(body), status=body["status"], mimetype=PROBLEM_CONTENT_TYPE)
    if body["status"] == 401:
        response.headers["WWW-Authenticate"] = AUTH_CHALLENGE
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response
