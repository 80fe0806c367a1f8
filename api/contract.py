"""Conventions every operation of the OpenAPI document shares, written in one place.

An apispec plugin runs on each path as it is registered. From the problem codes an operation declares
(``errors(blp, ...)``) and the kinds of input it takes, it writes the operation's error responses, each
listing its codes (``x-problem-codes``), and documents the headers every response carries.
"""

from __future__ import annotations

from collections import defaultdict
from copy import deepcopy
from typing import Any

from apispec import BasePlugin

from api.errors import CODES, PROBLEM_CONTENT_TYPE

API_VERSION_HEADER = "API-Version"
CODES_KEY = "x-problem-codes"

# every operation: the Accept header, the rate limits, a store outage, and the checks any request's query string
# and body meet before the operation reads them (a repeated or non-ASCII query parameter, a body too large)
ALWAYS = ("not_acceptable", "rate_limited", "unavailable", "invalid_request", "payload_too_large")
WITH_BODY = ("unsupported_media_type",)  # an operation that reads a body: its media type
# codes no operation lists because they are answered before any operation is chosen
ANYWHERE = (
    "not_found",
    "method_not_allowed",
    "request_line_too_long",
    "expectation_failed",
    "headers_too_large",
    "internal_error",
    "unsupported_transfer_coding",
)


def _header(description: str, required: bool = False, schema: dict | None = None) -> dict[str, Any]:
    return {"description": description, "required": required, "schema": schema or {"type": "string"}}


VERSION_HEADER = _header("the API version that answered (semantic versioning; see info.version)", True)
REQUEST_ID_HEADER = _header(
    "this request's id, as in the server's log lines: the caller's own `X-Request-ID` when it sent a sane one"
    " (1 to 128 letters, digits and `._:-`), else a new one",
    True,
)
RATE_HEADERS = {
    "RateLimit-Policy": _header(
        "the quota policies this request counted against (IETF draft RateLimit header fields): `key` (an API "
        'key), `addr` (the client address, without a key) and `seat` (a seat token), e.g. `"key";q=600;w=60`'
    ),
    "RateLimit": _header(
        'what is left of each policy, e.g. `"addr";r=598;t=41, "seat";r=290;t=41` '
        "(remaining requests, seconds to the window's end)"
    ),
}
EXTRA_HEADERS = {
    "201": {"Location": _header("the URL of the created resource", True)},
    "401": {"WWW-Authenticate": _header('the challenge, `Bearer realm="tradewinds"`', True)},
    "429": {"Retry-After": _header("seconds to wait", True, {"type": "integer"})},
    "503": {"Retry-After": _header("seconds to wait", True, {"type": "integer"})},
}


def describe(codes: list[str]) -> str:
    return "; ".join(f"`{code}`: {CODES[code].title}" for code in codes)


def problem_response(codes: list[str]) -> dict[str, Any]:
    return {
        "description": describe(codes),
        "content": {PROBLEM_CONTENT_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}},
        CODES_KEY: codes,
    }


class ConventionsPlugin(BasePlugin):
    def operation_helper(self, path=None, operations=None, **kwargs) -> None:
        for operation in (operations or {}).values():
            self.complete(operation)

    @staticmethod
    def complete(operation: dict[str, Any]) -> None:
        codes = list(operation.pop(CODES_KEY, []))
        codes += ALWAYS
        if "requestBody" in operation:
            codes += WITH_BODY
        unknown = [c for c in codes if c not in CODES]
        if unknown:
            raise ValueError(f"undocumented problem codes {unknown}")
        by_status: dict[str, list[str]] = defaultdict(list)
        for code in sorted(set(codes), key=lambda c: (CODES[c].status, list(CODES).index(c))):
            by_status[str(CODES[code].status)].append(code)
        responses = {str(status): response for status, response in operation.get("responses", {}).items()}
        for status in [s for s, r in responses.items() if isinstance(r, str)]:
            del responses[status]  # flask-smorest's shared error responses: replaced by the codes' own
        for status, status_codes in list(by_status.items()):
            if status in responses and PROBLEM_CONTENT_TYPE not in responses[status].get("content", {}):
                del by_status[status]  # an operation-specific body for this status (the health check's 503)
                continue
            responses[status] = problem_response(status_codes)
        for status, response in responses.items():
            headers = response.setdefault("headers", {})
            headers[API_VERSION_HEADER] = deepcopy(VERSION_HEADER)
            headers["X-Request-ID"] = deepcopy(REQUEST_ID_HEADER)
            headers.update(deepcopy(RATE_HEADERS))
            headers.update(deepcopy(EXTRA_HEADERS.get(status, {})))
        operation["responses"] = responses
        operation[CODES_KEY] = [c for codes_ in by_status.values() for c in codes_]


def errors(blp, *codes: str):
    """Declare the problem codes an operation returns beyond those of every operation (see ConventionsPlugin)."""
    unknown = [c for c in codes if c not in CODES]
    if unknown:
        raise ValueError(f"unknown problem codes {unknown}")
    return blp.doc(**{CODES_KEY: list(codes)})
