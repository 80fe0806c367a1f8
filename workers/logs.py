"""Structured logs for ``tradewinds serve`` and ``tradewinds worker``: one JSON object a line, no secrets.

Every line is a JSON object (python-json-logger) with ``time``, ``level``, ``logger``, ``pid`` (the process:
which of ``serve``'s request processes, the job runner, a worker) and ``message``, the
``request_id`` of the request being served when there is one, and any ``extra`` fields of the record
(the request lines of ``api.observability`` carry ``method``, ``route``, ``status`` and ``duration_ms``).

Whatever a line holds, it is passed through ``redact`` as the last step of formatting: seat tokens
(``tws_``), integrator keys (``twk_``), stream tickets (``twst_``), webhook secrets (``whsec_``), bearer
credentials, secret-looking query parameters (``ticket=``, ``token=``, ``key=``, ...) and passwords in
URLs become ``[redacted]``, written plainly or percent-escaped. The formatter is the last thing a line passes
through, so an exception message or a third-party library's log line is scrubbed as well as ours.

``TRADEWINDS_LOG_FORMAT=text`` gives plain lines (redacted alike) for a terminal; ``TRADEWINDS_LOG_LEVEL``
sets the level (``WARNING`` unless given).
"""

from __future__ import annotations

import logging
import os
import re
import sys
from contextvars import ContextVar
from typing import Any

from pythonjsonlogger.json import JsonFormatter

# the request being served on this thread or greenlet (set by api.observability)
request_id: ContextVar[str | None] = ContextVar("tradewinds_request_id", default=None)

SECRET_PREFIXES = ("tws_", "twk_", "twst_", "whsec_")
_SECRETS: list[tuple[re.Pattern[str], str]] = [
    # the project's own credentials, wherever they appear (the prefix stays, to tell what was there), also right
    # after letters or digits: an escape before them (%22, or \u00ab where JSON escapes a «) leaves no word's edge
    (re.compile(r"(twst|tws|twk|whsec)_[A-Za-z0-9_\-+/=]+"), r"\1_[redacted]"),
    # any bearer credential (a metrics token, a foreign token in an error message)
    (re.compile(r"(?i)\b(bearer)(\s+|%20|\+)[^\s\"',;&]+"), r"\1 [redacted]"),
    # query parameters that carry credentials
    (
        re.compile(
            r"(?i)([?&;](?:ticket|token|access_token|api_key|apikey|key|secret|password|signature)=)[^&\s\"'#]*"
        ),
        r"\1[redacted]",
    ),
    # passwords in URLs (postgresql://user:password@host, redis://:password@host)
    (re.compile(r"(\b[a-z][a-z0-9+.-]*://[^/\s:@\"']*:)[^@\s/\"']+@"), r"\1[redacted]@"),
]


# A percent-escape of a character that may stand in a credential or a query's syntax (letters, digits, ``_-.~+/=``,
# ``?&;``): written out before the patterns look, so that ``?%74icket=%74wst%5F...`` cannot pass for something else.
# Other escapes (a newline, a quote, a space) stay escaped: decoding them could forge a line of a text log.
_SPELLED = re.compile(r"%([0-9A-Fa-f]{2})")
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.~+/=?&;")


def _spelled_out(match: re.Match[str]) -> str:
    char = chr(int(match.group(1), 16))
    return char if char in _PLAIN else match.group(0)


def redact(text: str) -> str:
    """The text without credentials (see the module's docstring for what counts), percent-escaped ones included."""
    if not text:
        return text
    if "%" in text:
        text = _SPELLED.sub(_spelled_out, text)
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


class RedactingJsonFormatter(JsonFormatter):
    """JSON lines with the request id, scrubbed of secrets after formatting."""

    def __init__(self) -> None:
        super().__init__(
            "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s",
            rename_fields={"asctime": "time", "levelname": "level", "name": "logger", "process": "pid"},
            datefmt="%Y-%m-%dT%H:%M:%S%z",
        )

    def add_fields(self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]) -> None:
        super().add_fields(log_data, record, message_dict)
        current = request_id.get()
        if current is not None and "request_id" not in log_data:
            log_data["request_id"] = current

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


class RedactingTextFormatter(logging.Formatter):
    """Plain lines (``TRADEWINDS_LOG_FORMAT=text``), scrubbed alike, with the request id when there is one."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        current = request_id.get()
        return redact(f"{line} [request {current}]" if current else line)


def formatter() -> logging.Formatter:
    """The formatter ``TRADEWINDS_LOG_FORMAT`` asks for: ``json`` (the default) or ``text``."""
    kind = os.environ.get("TRADEWINDS_LOG_FORMAT", "json").strip().lower()
    return RedactingTextFormatter() if kind == "text" else RedactingJsonFormatter()


def configure(level: str | int | None = None, stream: Any = None) -> logging.Handler:
    """Send every log record of this process to ``stream`` (stderr) as redacted JSON lines.

    Replaces the root logger's handlers, so libraries that add their own only when none is there (RQ)
    log through this one too."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(formatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level or log_level())
    return handler


def log_level() -> str:
    """``TRADEWINDS_LOG_LEVEL`` (default ``WARNING``), upper-cased as ``logging`` names levels."""
    return os.environ.get("TRADEWINDS_LOG_LEVEL", "WARNING").upper()
