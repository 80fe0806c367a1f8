"""The Flask application factory."""

from __future__ import annotations

import inspect
import logging
import os
from types import FunctionType
from typing import Any

import flask_smorest
from flask import Flask
from werkzeug.exceptions import HTTPException

from api.contract import ANYWHERE, ConventionsPlugin
from api.errors import CODES, HTTP_STATUS_CODES, ApiError, problem
from eventstore.base import StoreUnavailable
from workers.game_model import GameError
from workers.metrics import store_error
from workers.runtime import Runtime

log = logging.getLogger(__name__)

API_TITLE = "Tradewinds"
API_VERSION = "1.3.0"
MAX_BODY_BYTES = 4 * 1024 * 1024
KEPT_FUNCTIONS = 4096  # the app's views and hooks are a few hundred


class TradewindsFlask(Flask):
    """Flask, with the answer to "is this view or hook a coroutine function?" kept per function: Flask asks it
    for every hook and view of every request (``ensure_sync``), about a dozen times a request, and the answer of
    a function never changes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._coroutine: dict[FunctionType, bool] = {}

    def ensure_sync(self, func: Any) -> Any:
        target = getattr(func, "__func__", func)  # a view's bound method: its function
        if type(target) is not FunctionType:
            return super().ensure_sync(func)
        coroutine = self._coroutine.get(target)
        if coroutine is None:
            coroutine = inspect.iscoroutinefunction(target)
            if len(self._coroutine) < KEPT_FUNCTIONS:  # one-off functions (after_this_request...) are not kept
                self._coroutine[target] = coroutine
        return self.async_to_sync(func) if coroutine else func


class Api(flask_smorest.Api):
    DEFAULT_ERROR_RESPONSE_NAME = None

    def handle_http_exception(self, error: HTTPException):
        code = HTTP_STATUS_CODES.get(error.code or 500, "invalid_request")
        data = getattr(error, "data", None) or {}
        detail = data.get("message") or error.description or error.name
        extra: dict[str, Any] = {}
        messages = data.get("errors") or data.get("messages")
        if messages:
            extra["errors"] = messages
            detail = "the request does not match the schema: " + _summarise(messages)
        if error.code == 404:
            detail = "no such resource; see the API document at /openapi.json"
        headers = dict(data.get("headers") or {})
        valid = getattr(error, "valid_methods", None)
        if error.code == 405 and valid:
            headers["Allow"] = ", ".join(valid)
        return problem(code, str(detail), status=error.code, headers=headers, **extra)


def _summarise(messages: Any, prefix: str = "") -> str:
    parts: list[str] = []
    if isinstance(messages, dict):
        for key, value in messages.items():
            if key in ("json", "query", "headers", "view_args"):
                parts.append(_summarise(value, prefix))
            else:
                parts.append(_summarise(value, f"{prefix}{key}."))
    elif isinstance(messages, list):
        parts.append(f"{prefix.rstrip('.') or 'body'}: {'; '.join(str(m) for m in messages)}")
    else:
        parts.append(f"{prefix.rstrip('.') or 'body'}: {messages}")
    return "; ".join(p for p in parts if p)


def create_app(runtime: Runtime | None = None, config: dict[str, Any] | None = None) -> Flask:
    """Build the app around a runtime (store + dispatcher); by default from the environment."""
    app = TradewindsFlask("tradewinds")
    app.url_map.merge_slashes = False  # "/games//id" is a 404 problem, not an HTML redirect to "/games/id"
    from api.fast_json import FastJSONProvider

    app.json = FastJSONProvider(app)
    app.config.update(
        API_TITLE=API_TITLE,
        API_VERSION=API_VERSION,
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        # the longest one stream connection lasts, whatever its max_seconds asks (clients reconnect)
        STREAM_MAX_SECONDS=int(os.environ.get("TRADEWINDS_STREAM_MAX_SECONDS", "3600")),
        API_SPEC_OPTIONS={
            "info": {
                "description": (
                    "Event-sourced board-game server. Errors are application/problem+json (RFC 9457) with a "
                    "stable `code`. Seat tokens (returned once by POST /games) are sent as "
                    "`Authorization: Bearer <token>`.\n\n"
                    "Versioning: `info.version` follows semantic versioning and every response carries it in the "
                    "`API-Version` header. Additions (operations, optional fields, error codes) raise the minor "
                    "version; a change that could break a client raises the major version and is served under a "
                    "new path prefix beside this one for at least six months.\n\n"
                    "Problem codes any request can meet before an operation is chosen: "
                    + ", ".join(f"`{code}` ({CODES[code].status})" for code in ANYWHERE)
                    + ". Each operation lists its own in `x-problem-codes` and in its error responses; "
                    "GET /problems/{code} explains each code."
                ),
                "x-problem-codes": list(ANYWHERE),
            },
        },
        PRODUCES={
            "history.Export": ("application/x-ndjson", "text/plain"),
            "live.Stream": ("text/event-stream", "application/x-ndjson"),  # by its format (the handler checks)
            "meta.ProblemPage": ("application/json", "text/html"),
        },
    )
    app.config.update(config or {})
    runtime = runtime or Runtime.from_environment()
    app.extensions["tradewinds"] = runtime
    from api import observability

    observability.install(app)  # first: every request gets its id, its line and its metrics

    api = Api(app, spec_kwargs={"extra_plugins": [ConventionsPlugin()]})
    from api.schemas import ProblemSchema

    api.spec.components.schema("Problem", schema=ProblemSchema)
    api.spec.components.security_scheme(
        "seatToken", {"type": "http", "scheme": "bearer", "description": "a seat token from POST /games"}
    )

    api.spec.components.security_scheme(
        "apiKey",
        {"type": "http", "scheme": "bearer", "description": "an integrator key from `tradewinds apikey create`"},
    )

    from api import conventions, games, history, live, meta, tournaments, webclient, webhooks

    conventions.register_converters(app, api)

    api.register_blueprint(meta.blp)
    api.register_blueprint(games.blp)
    api.register_blueprint(history.blp)
    api.register_blueprint(live.blp)
    api.register_blueprint(webhooks.blp)
    api.register_blueprint(tournaments.blp)
    api.register_blueprint(observability.blp)
    app.extensions["tradewinds_api"] = api
    app.register_blueprint(webclient.blp)  # the browser client at / (plain Flask: not part of the API document)

    from api import game_contract

    game_contract.register_components(api.spec)

    from api import bots, ratelimit

    # the rate limits first: a request refused by the content checks (406, 415, 413 on a streamed body...) counts
    # too, and one over its limit is refused before its body is read
    ratelimit.install(app, int(os.environ.get("TRADEWINDS_RATE_LIMIT", "600")))
    conventions.install(app)
    bots.install(app)

    @app.errorhandler(ApiError)
    def handle_api_error(exc: ApiError):
        return problem(exc.code, exc.detail, status=exc.status, headers=exc.headers, **exc.extra)

    @app.errorhandler(GameError)
    def handle_game_error(exc: GameError):
        headers = {"ETag": f'"{exc.extra["etag"]}"'} if "etag" in exc.extra else None
        return problem(exc.code, exc.detail, headers=headers, **exc.extra)

    @app.errorhandler(StoreUnavailable)
    def handle_store_down(exc: StoreUnavailable):
        log.error("event store unavailable: %s", exc)
        store_error("api")
        return problem("unavailable", "the event store is unreachable; try again shortly", headers={"Retry-After": "5"})

    return app
