"""HTTP conventions shared by every operation: content negotiation (406/415), the API version header,
``Vary``, CORS, and refusing text no store can keep (NUL, lone surrogates, deep nesting) as 400.

The API is versioned with semantic versioning: ``info.version`` of the document and the ``API-Version``
header of every response. Additions (operations, optional fields, codes) raise the minor version; a
change that could break a client raises the major version and is served under a new path prefix
(``/v2/...``) beside the old one for at least six months.
"""

from __future__ import annotations

import os
import re
from typing import Any

from flask import Flask, current_app, request
from werkzeug.routing import BaseConverter

from api.contract import API_VERSION_HEADER
from api.errors import ApiError

MAX_JSON_DEPTH = 32
JSON_TYPES = ("application/json",)
EXPOSED_HEADERS = [
    "ETag",
    "Location",
    "Retry-After",
    "RateLimit",
    "RateLimit-Policy",
    API_VERSION_HEADER,
    "Link",
    "X-Request-ID",
]
ALLOWED_HEADERS = [
    "Authorization",
    "Content-Type",
    "If-Match",
    "If-None-Match",
    "Idempotency-Key",
    "Last-Event-ID",
    "X-Request-ID",
]


def bad_text(value: str) -> str | None:
    """Why a string cannot be accepted anywhere (NUL or a lone surrogate), or None."""
    if "\x00" in value:
        return "holds a NUL character"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "holds a lone surrogate (not valid Unicode)"
    return None


# Unicode's control characters (general category Cc): exactly C0, DEL and C1.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def has_control_characters(value: str) -> bool:
    return CONTROL_CHARACTERS.search(value) is not None


def check_json(data: Any) -> None:
    """Refuse JSON nested deeper than MAX_JSON_DEPTH, holding NUL or lone surrogates, or with control characters
    in a field name; without recursion."""
    stack: list[tuple[Any, int, str]] = [(data, 1, "body")]
    while stack:
        value, depth, where = stack.pop()
        if isinstance(value, str):
            why = bad_text(value)
            if why:
                raise ApiError("invalid_request", f"{where} {why}")
        elif isinstance(value, (dict, list)):
            if depth > MAX_JSON_DEPTH:
                raise ApiError("invalid_request", f"JSON nested more than {MAX_JSON_DEPTH} levels deep")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                if isinstance(key, str):
                    why = bad_text(key) or ("holds control characters" if has_control_characters(key) else None)
                    if why:
                        raise ApiError("invalid_request", f"a field name in {where} {why}")
                stack.append((item, depth + 1, f"{where}.{key}"))


def produced(app: Flask, endpoint: str | None, method: str) -> tuple[str, ...]:
    """The media types an operation answers with (its success responses), JSON unless declared."""
    return app.config["PRODUCES"].get(endpoint or "", JSON_TYPES)


def takes_json_body(app: Flask, endpoint: str | None, method: str) -> bool:
    """Whether the operation reads a JSON body (its routes never change once served: cached per app)."""
    cache = app.extensions.setdefault("tradewinds_json_body", {})
    key = (endpoint, method)
    if key not in cache:
        cache[key] = _takes_json_body(app, endpoint, method)
    return cache[key]


def _takes_json_body(app: Flask, endpoint: str | None, method: str) -> bool:
    view = app.view_functions.get(endpoint or "")
    view_class = getattr(view, "view_class", None)
    func = getattr(view_class, method.lower(), None) if view_class else view
    params = getattr(func, "_apidoc", {}).get("arguments", {}).get("parameters", [])
    return any(p.get("location", "json") == "json" for p in params)


def _check_streamed_length(req: Any) -> None:
    """A body sent without Content-Length (chunked) is read here, up to the limit: werkzeug stops reading at
    ``MAX_CONTENT_LENGTH`` and hands on what it read as if it were all, so a body one byte over would reach the
    JSON parser cut off (a 400) rather than be refused as too large (413, as with a Content-Length)."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit is None:
        return
    data = req.get_data(cache=True)  # kept for the handler
    if len(data) >= limit and req.environ["wsgi.input"].read(1):
        raise ApiError("payload_too_large", f"the body is longer than {limit} bytes")


def install(app: Flask) -> None:
    app.config.setdefault("PRODUCES", {})

    @app.before_request
    def negotiate():
        req = request._get_current_object()  # type: ignore[attr-defined]  # once, not through the proxy each time
        method = req.method
        if method == "OPTIONS" or req.url_rule is None:
            return None
        endpoint = req.endpoint
        if req.environ.get("HTTP_ACCEPT") and not req.accept_mimetypes.best_match(produced(app, endpoint, method)):
            types = ", ".join(produced(app, endpoint, method))
            raise ApiError("not_acceptable", f"this operation answers with {types}; the Accept header allows none")
        if req.environ.get("QUERY_STRING"):
            args = req.args
            repeated = [name for name, values in args.lists() if len(values) > 1]
            if repeated:  # no parameter takes a list: which value was meant is not ours to guess
                raise ApiError("invalid_request", f"the query parameter {repeated[0]!r} is given more than once")
            # every query parameter is ASCII (numbers, ids, names of kinds): int() would read "٥" as 5
            wide = [name for name, value in args.items() if not value.isascii()]
            if wide:
                raise ApiError("invalid_request", f"the query parameter {wide[0]!r} takes ASCII characters only")
            parameters = {**req.view_args, **args}
        else:
            parameters = req.view_args
        for name, value in (parameters or {}).items():
            if isinstance(value, str) and (bad_text(value) or has_control_characters(value)):
                raise ApiError("invalid_request", f"the parameter {name!r} holds characters no id or value has")
        if method in ("POST", "PUT", "PATCH") and takes_json_body(app, endpoint, method):
            mimetype = req.mimetype
            if not (mimetype in JSON_TYPES or mimetype.endswith("+json")):
                raise ApiError(
                    "unsupported_media_type",
                    f"send the body as Content-Type: application/json, not {mimetype or 'nothing'}",
                )
        coding = req.environ.get("HTTP_TRANSFER_ENCODING")
        if coding and coding.replace(" ", "").lower() != "chunked":
            # the HTTP server undoes chunked and nothing else: a gzip body would reach the JSON parser as is
            raise ApiError("unsupported_transfer_coding", f"the server reads a chunked body only, not {coding!r}")
        if req.content_length is None and "wsgi.input_terminated" in req.environ:
            _check_streamed_length(req)
        return None

    @app.after_request
    def stamp(response):
        headers = response.headers
        headers[API_VERSION_HEADER] = app.config["API_VERSION"]
        if "Vary" not in headers:  # the common case, without parsing a header set
            headers["Vary"] = "Authorization"
        else:
            response.vary.add("Authorization")
        # an answer to a caller with a token may hold what only that caller sees: never kept in a shared cache
        if "Cache-Control" not in headers and "HTTP_AUTHORIZATION" in request.environ:
            headers["Cache-Control"] = "private, no-cache"
        if response.status_code == 204:  # no content, so no type of it (Flask stamps JSON on the empty body)
            headers.pop("Content-Type", None)
        return response

    origins = [o.strip() for o in os.environ.get("TRADEWINDS_CORS_ORIGINS", "").split(",") if o.strip()]
    origins = app.config.get("CORS_ORIGINS", origins)
    if origins:
        from flask_cors import CORS

        CORS(
            app,
            origins=origins,
            expose_headers=EXPOSED_HEADERS,
            allow_headers=ALLOWED_HEADERS,
            methods=["GET", "POST", "PATCH", "DELETE", "OPTIONS"],
            max_age=600,
        )


class DocumentedId(BaseConverter):
    """Matches like the plain string converter (an unknown id is that resource's 404), and documents the id's
    form in the API document so that clients and fuzzers know which ids can exist."""

    pattern = r"^[A-Za-z0-9_-]{1,64}$"


def id_converter(name: str, pattern: str) -> type[BaseConverter]:
    return type(name, (DocumentedId,), {"pattern": pattern})


CONVERTERS = {
    "game_id": id_converter("GameId", r"^[0-9a-f]{32}$"),
    "tournament_id": id_converter("TournamentId", r"^t_[0-9a-f]{20}$"),
    "webhook_id": id_converter("WebhookId", r"^wh_[0-9a-f]{20}$"),
    "message_id": id_converter("MessageId", r"^msg_[0-9a-f]{32}$"),
    "problem_code": id_converter("ProblemCode", r"^[a-z_]{1,40}$"),
    "game_type": id_converter("GameType", r"^[a-z_]{1,40}$"),
}


def register_converters(app: Flask, api) -> None:
    """Before the blueprints: routes use ``<game_id:game_id>`` and the like."""
    for name, converter in CONVERTERS.items():
        app.url_map.converters[name] = converter
        api.register_converter(converter, lambda conv: {"type": "string", "pattern": conv.pattern})
