"""The app's JSON responses encoded with orjson: the same documents as Flask's encoder, a fraction of the CPU.

A game body (a Puerto Rico state for one seat) is the largest thing most requests send; the standard
library's encoder spent more time on it than the rules took to build it. The output keeps Flask's choices:
keys sorted, compact, a final newline; dates, decimals and dataclasses through Flask's own ``default``. What
orjson cannot encode (an integer beyond 64 bits, a lone surrogate) falls back to Flask's encoder, so nothing
that encoded before fails now. The one visible difference: non-ASCII text is sent as UTF-8 rather than as
``\\u`` escapes (the same JSON value).
"""

from __future__ import annotations

from typing import Any, cast

import orjson
from flask import Response as FlaskResponse
from flask import current_app
from flask.json.provider import DefaultJSONProvider
from werkzeug.sansio.response import Response

OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


class FastJSONProvider(DefaultJSONProvider):
    def _encode(self, obj: Any, option: int) -> bytes | None:
        try:
            return orjson.dumps(obj, default=self.default, option=option)
        except (orjson.JSONEncodeError, TypeError):
            return None

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if not kwargs:
            encoded = self._encode(obj, OPTIONS)
            if encoded is not None:
                return encoded.decode()
        return super().dumps(obj, **kwargs)

    def _compact(self, obj: Any) -> bytes | None:
        """``obj`` encoded by orjson as the response body, or ``None`` where Flask's encoder writes it instead
        (indented, for a person reading; or a value orjson cannot encode)."""
        if (self.compact is None and self._app.debug) or self.compact is False:
            return None
        return self._encode(obj, OPTIONS | orjson.OPT_APPEND_NEWLINE)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        encoded = self._compact(self._prepare_response_obj(args, kwargs))
        if encoded is None:
            return super().response(*args, **kwargs)
        return self._app.response_class(encoded, mimetype=self.mimetype)  # type: ignore[arg-type]

    def body(self, obj: Any) -> bytes:
        """The body ``response(obj)`` sends, without a response around it."""
        encoded = self._compact(obj)
        return encoded if encoded is not None else cast(FlaskResponse, super().response(obj)).get_data()


def response_body(obj: Any) -> bytes:
    """The body the app's JSON provider sends for ``obj`` (as ``jsonify(obj)`` would), as bytes."""
    provider = current_app.json
    if isinstance(provider, FastJSONProvider):
        return provider.body(obj)
    return cast(FlaskResponse, provider.response(obj)).get_data()


def encoded_response(body: bytes, status: int, headers: dict[str, str]) -> FlaskResponse:
    """A JSON response of a body ``response_body`` encoded."""
    return current_app.response_class(body, status=status, headers=headers, mimetype="application/json")
