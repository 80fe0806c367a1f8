"""The HTTP server of ``tradewinds serve``: gunicorn's workers, answering the requests they refuse before the
application sees them (request line too long, headers too large, a request that is not well-formed HTTP/1.x, an expectation or a
transfer coding it does not implement) as problem+json too.

``ProblemThreadWorker`` is the threaded worker; ``api.server_gevent.ProblemGeventWorker`` the gevent one (kept
apart so that the threaded server never imports gevent)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from gunicorn.http.errors import (
    ChunkMissingTerminator,
    ExpectationFailed,
    InvalidChunkExtension,
    InvalidChunkSize,
    InvalidHeader,
    InvalidHeaderName,
    InvalidHTTPVersion,
    InvalidRequestLine,
    InvalidRequestMethod,
    InvalidResponseHeader,
    InvalidResponseHeaderName,
    LimitRequestHeaders,
    LimitRequestLine,
    ObsoleteFolding,
    UnsupportedTransferCoding,
)
from gunicorn.util import write_nonblock
from gunicorn.workers.gthread import ThreadWorker

from api.errors import CODES, PROBLEM_CONTENT_TYPE, problem_body

# the client's request as gunicorn's parser refuses it (a header the application sends is its own fault, a 500)
MALFORMED = (
    InvalidRequestLine,
    InvalidRequestMethod,
    InvalidHTTPVersion,
    InvalidHeader,
    InvalidHeaderName,
    ObsoleteFolding,
    InvalidChunkSize,
    ChunkMissingTerminator,
    InvalidChunkExtension,
)
REFUSALS = (
    (LimitRequestLine, "request_line_too_long"),
    (LimitRequestHeaders, "headers_too_large"),
    (MALFORMED, "invalid_request"),
    (ExpectationFailed, "expectation_failed"),
    (UnsupportedTransferCoding, "unsupported_transfer_coding"),
)


def refusal_code(exc: BaseException) -> str | None:
    if isinstance(exc, (InvalidResponseHeader, InvalidResponseHeaderName)):
        return None
    for kind, code in REFUSALS:
        if isinstance(exc, kind):
            return code
    return None


if TYPE_CHECKING:
    from gunicorn.workers.base import Worker as _WorkerBase
else:
    _WorkerBase = object


class ProblemRefusals(_WorkerBase):
    """Mixed into a gunicorn worker class: its refusals of oversized requests become problem+json."""

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> Any:
        code = refusal_code(exc)
        if code is None:
            return super().handle_error(req, client, addr, exc)
        from api.app import API_VERSION

        self.log.warning("refused a request from %s: %s", (addr or ("",))[0], exc)
        status = CODES[code].status
        # the parser's own words for a malformed request (JSON-encoded, cut short); the code's explanation
        # speaks of an `errors` member only the application's answers have
        detail = f"not a well-formed HTTP/1.1 request ({exc})"[:300] if code == "invalid_request" else None
        body = json.dumps(problem_body(code, detail or CODES[code].explanation)).encode()
        head = (
            f"HTTP/1.1 {status} {CODES[code].title}\r\nConnection: close\r\nAPI-Version: {API_VERSION}\r\n"
            f"Content-Type: {PROBLEM_CONTENT_TYPE}\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode("latin-1")
        try:
            write_nonblock(client, head + body)
        except Exception:
            self.log.debug("could not send the refusal")


class ProblemThreadWorker(ProblemRefusals, ThreadWorker):
    pass


WORKER_CLASSES = {
    "gthread": "api.server.ProblemThreadWorker",
    "gevent": "api.server_gevent.ProblemGeventWorker",
}
