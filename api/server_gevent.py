"""The gevent worker of ``tradewinds serve`` with problem+json refusals (see ``api.server``)."""

from __future__ import annotations

from gunicorn.workers.ggevent import GeventWorker

from api.server import ProblemRefusals


class ProblemGeventWorker(ProblemRefusals, GeventWorker):
    pass
