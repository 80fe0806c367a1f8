"""The HTTP server of ``tradewinds serve``: gunicorn's threaded worker, answering the requests it refuses before
the application sees them (request line too long, headers too large, malformed) as problem+json too."""

from __future__ import annotations

import json

from gunicorn.http.errors import LimitRequestHeaders, LimitRequestLine
from gunicorn.util import write_nonblock
from gunicorn.workers.gthread import ThreadWorker

from api.errors import CODES, PROBLEM_CONTENT_TYPE, problem_body

REFUSALS = (
    (LimitRequestLine, "request_line_too_long"),
    (LimitRequestHeaders, "headers_too_large"),
)


def refusal_code(exc: BaseException) -> str | None:
    for kind, code in REFUSALS:
        if isinstance(exc, kind):
            return code
    return None


class ProblemThreadWorker(ThreadWorker):
    def handle_error(self, req, client, addr, exc):
        code = refusal_code(exc)
        if code is None:
            return super().handle_error(req, client, addr, exc)
        self.log.warning("refused a request from %s: %s", (addr or ("",))[0], exc)
        status = CODES[code].status
        body = json.dumps(problem_body(code, CODES[code].explanation)).encode()
        head = (f"HTTP/1.1 {status} {CODES[code].title}\r\nConnection: close\r\n"
                f"Content-Type: {PROBLEM_CONTENT_TYPE}\r\nContent-Length: {len(body)}\r\n\r\n").encode("latin-1")
        try:
            write_nonblock(client, head + body)
        except Exception:
            self.log.debug("could not send the refusal")
