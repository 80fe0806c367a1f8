"""What an operator watches: Prometheus metrics, a JSON line per request with its request id, liveness and readiness.

- **Request ids.** Every response carries ``X-Request-ID``: the caller's own, when it sent a sane one (up to
  128 letters, digits and ``._:-``), else a new one. Every log line written while the request is served
  carries it as ``request_id`` (``workers.logs``).
- **Request lines.** With ``tradewinds serve --access-log`` each request is logged once, as JSON on the
  ``tradewinds.access`` logger: ``request_id``, ``method``, ``route`` (the URL rule, such as
  ``/games/<game_id:game_id>``), ``path`` (query values that carry credentials redacted), ``status``,
  ``duration_ms`` and ``client``.
- **Metrics.** ``GET /metrics`` in the Prometheus text format (OpenMetrics when asked for): requests by
  method (``other`` for any method but HTTP's own), route and status, their latency (histogram by method and
  route; for a stream, the time to its first byte), live followers, outbox depth, and the service's own
  counters (``workers.metrics``). Under ``tradewinds serve`` every worker process writes its figures to the instance's metrics folder
  (``PROMETHEUS_MULTIPROC_DIR``, prometheus_client's multiprocess mode), so whichever process answers
  the scrape reports the sum. With ``TRADEWINDS_METRICS_TOKEN`` set the scrape needs
  ``Authorization: Bearer <that token>``.
- **Probes.** ``GET /livez`` answers 200 while the process serves; ``GET /readyz`` 200 when the event store
  (and Redis, when configured) answer, else 503.
"""

from __future__ import annotations

import hmac
import logging
import os
import re
import time
from functools import lru_cache
from typing import Any

import marshmallow as ma
from flask import Flask, Request, Response, current_app, g, request
from flask.views import MethodView
from marshmallow import fields, validate

from api.blueprint import Blueprint
from api.contract import errors
from api.errors import problem
from workers import logs, metrics

access_log = logging.getLogger("tradewinds.access")
log = logging.getLogger(__name__)

REQUEST_ID_HEADER = "X-Request-ID"
REQUEST_ID_ENVIRON = "HTTP_" + REQUEST_ID_HEADER.upper().replace("-", "_")  # where WSGI puts the header
SANE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
HTTP_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
OTHER_METHOD = "other"  # the method label of every other method a caller sends
UNMATCHED = "<unmatched>"  # the route label of requests no URL rule matched (404, 405): one label, not one per path
DURATION_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
OUTBOX_SCAN = 10_000  # outbox entries counted at most per scrape
OVERDUE_SECONDS = 60.0  # work due this long ago and not claimed: no sweeper is running
METRICS_ENDPOINT = "tradewinds_metrics"


@metrics.built_once
def http_metrics() -> dict[str, Any]:
    from prometheus_client import Counter, Gauge, Histogram

    return {
        "requests": Counter(
            "tradewinds_http_requests_total",
            "HTTP requests answered, by method, route and status",
            ["method", "route", "status"],
        ),
        "duration": Histogram(
            "tradewinds_http_request_duration_seconds",
            "Time to answer a request (for a stream: to its first byte), by method and route",
            ["method", "route"],
            buckets=DURATION_BUCKETS,
        ),
        "followers": Gauge(
            "tradewinds_stream_followers",
            "Live followers (event streams and long-polls) being served",
            multiprocess_mode="livesum",
        ),
    }


@lru_cache(maxsize=4096)
def labelled(method: str, route: str, status: int) -> tuple[Any, Any]:
    """The request counter and latency histogram of one method, route and status (``labels`` checks and
    looks up its labels on every call; the routes, methods and statuses are few, so each pair is kept)."""
    m = http_metrics()
    return m["requests"].labels(method, route, str(status)), m["duration"].labels(method, route)


def followers_changed(count: int) -> None:
    """The number of live followers of this process changed (``api.fanout``)."""
    try:
        http_metrics()["followers"].set(count)
    except Exception:
        log.warning("could not update the followers gauge", exc_info=True)


# ------------------------------------------------------------------------------------------ request ids, lines
def incoming_request_id() -> str:
    given = request.environ.get(REQUEST_ID_ENVIRON, "")
    return given if given and SANE_REQUEST_ID.fullmatch(given) else os.urandom(16).hex()


def method_label(method: str) -> str:
    """The method as a label: a caller may send any token as its method, and each would be a new series."""
    return method if method in HTTP_METHODS else OTHER_METHOD


def route_label(req: Request) -> str:
    rule = req.url_rule
    return rule.rule if rule is not None else UNMATCHED


def install(app: Flask) -> None:
    """Request ids, request lines and request metrics for every request; before any other hook of the app."""
    app.config.setdefault("METRICS_TOKEN", os.environ.get("TRADEWINDS_METRICS_TOKEN") or None)
    app.config.setdefault("PRODUCES", {})[METRICS_ENDPOINT] = ("text/plain", "application/openmetrics-text")

    @app.before_request
    def begin() -> None:
        here = g._get_current_object()  # type: ignore[attr-defined]  # once, not through the proxy each time
        here.started = time.perf_counter()
        here.request_id = request_id = incoming_request_id()
        here.request_id_token = logs.request_id.set(request_id)

    @app.after_request
    def finish(response: Response) -> Response:
        here = g._get_current_object()  # type: ignore[attr-defined]
        req = request._get_current_object()  # type: ignore[attr-defined]
        request_id = getattr(here, "request_id", None) or incoming_request_id()
        response.headers[REQUEST_ID_HEADER] = request_id
        started = getattr(here, "started", None)
        duration = time.perf_counter() - started if started is not None else 0.0
        route = route_label(req)
        status = response.status_code
        try:
            counted, timed = labelled(method_label(req.method), route, status)
            counted.inc()
            timed.observe(duration)
        except Exception:
            log.warning("could not count a request", exc_info=True)
        if access_log.isEnabledFor(logging.INFO):
            path = req.full_path if req.query_string else req.path
            access_log.info(
                "%s %s %s",
                req.method,
                route,
                status,
                extra={
                    "request_id": request_id,
                    "method": req.method,
                    "route": route,
                    "path": logs.redact(path),
                    "status": status,
                    "duration_ms": round(duration * 1000, 2),
                    "client": req.remote_addr,
                },
            )
        return response

    @app.teardown_request
    def end(_exc: BaseException | None) -> None:
        token = g.pop("request_id_token", None)
        if token is not None:
            try:
                logs.request_id.reset(token)
            except ValueError:  # set in another context (a copied one): let it go with that context
                pass

    app.add_url_rule("/metrics", METRICS_ENDPOINT, scrape)


# ------------------------------------------------------------------------------------------ the scrape
class OutboxCollector:
    """Pending outbox work by job, and how much of it is overdue, read from the store at scrape time."""

    def __init__(self, store: Any) -> None:
        self.store = store

    def collect(self):
        from prometheus_client.core import GaugeMetricFamily

        try:
            entries = self.store.list_outbox(limit=OUTBOX_SCAN)
        except Exception:
            metrics.store_error("metrics")
            log.warning("could not read the outbox for the metrics", exc_info=True)
            return
        depth = GaugeMetricFamily(
            "tradewinds_outbox_entries",
            f"Pending outbox work, by job (counted up to {OUTBOX_SCAN} entries)",
            labels=["job"],
        )
        by_job: dict[str, int] = {}
        overdue = 0
        now = time.time()
        for entry in entries:
            by_job[entry.job] = by_job.get(entry.job, 0) + 1
            overdue += entry.due_at < now - OVERDUE_SECONDS
        for job, count in sorted(by_job.items()):
            depth.add_metric([job], count)
        yield depth
        yield GaugeMetricFamily(
            "tradewinds_outbox_overdue_entries",
            f"Outbox work due more than {OVERDUE_SECONDS:.0f} s ago and not yet claimed (is a sweeper running?)",
            value=overdue,
        )


class _Forward:
    """Collects another registry (the process's default one) into the scrape's registry."""

    def __init__(self, registry: Any) -> None:
        self.registry = registry

    def collect(self):
        return self.registry.collect()


def scrape_registry(store: Any):
    from prometheus_client import REGISTRY, CollectorRegistry

    registry = CollectorRegistry(auto_describe=False)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_Forward(REGISTRY))
    registry.register(OutboxCollector(store))
    return registry


def authorised(token: str) -> bool:
    header = request.headers.get("Authorization", "")
    scheme, _, given = header.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())


def scrape() -> Response:
    """The Prometheus scrape (not part of the API document: it is for the operator's monitoring)."""
    from prometheus_client.exposition import choose_encoder

    token = current_app.config.get("METRICS_TOKEN")
    if token and not authorised(token):
        return problem(
            "unauthorized",
            "the metrics need the metrics token: Authorization: Bearer <TRADEWINDS_METRICS_TOKEN>",
            headers={"WWW-Authenticate": 'Bearer realm="tradewinds-metrics"'},
        )
    encoder, content_type = choose_encoder(request.headers.get("Accept", ""))
    body = encoder(scrape_registry(current_app.extensions["tradewinds"].store))
    response = Response(body, status=200)
    response.headers["Content-Type"] = content_type
    response.headers["Cache-Control"] = "no-store"
    return response


# ------------------------------------------------------------------------------------------ probes
blp = Blueprint("probes", __name__, description="Liveness and readiness probes for process supervisors and proxies")


class LiveSchema(ma.Schema):
    status = fields.String(required=True, validate=validate.OneOf(["ok"]))


class ReadySchema(ma.Schema):
    status = fields.String(
        required=True,
        validate=validate.OneOf(["ready", "unavailable"]),
        metadata={"description": "ready when every backing service this process needs answers"},
    )
    store = fields.String(required=True, validate=validate.OneOf(["ok", "unreachable"]))
    redis = fields.String(required=True, validate=validate.OneOf(["ok", "unreachable", "not configured"]))


LIVE = LiveSchema()
READY = ReadySchema()


@blp.route("/livez")
class Live(MethodView):
    @blp.response(200, LIVE)
    @errors(blp)
    @blp.doc(operationId="getLiveness")
    def get(self):
        """Liveness: 200 while this process answers requests (restart it when this fails)"""
        return {"status": "ok"}


@blp.route("/readyz")
class Ready(MethodView):
    @blp.response(200, READY)
    @blp.alt_response(503, schema=READY, description="the event store or Redis does not answer")
    @errors(blp)
    @blp.doc(operationId="getReadiness")
    def get(self):
        """Readiness: 200 when the event store (and Redis, when configured) answer; else 503 (send no traffic here)

        The body names the service that does not answer, never its address or error (they are logged).
        """
        rt = current_app.extensions["tradewinds"]
        body = {"status": "ready", "store": "ok", "redis": "not configured"}
        try:
            rt.store.ping()
        except Exception as exc:
            metrics.store_error("api")
            log.warning("readiness: the event store does not answer: %s", exc)
            body["store"] = "unreachable"
        if getattr(rt.dispatcher, "kind", None) == "rq":
            try:
                rt.dispatcher.ping()
                body["redis"] = "ok"
            except Exception as exc:
                log.warning("readiness: Redis does not answer: %s", exc)
                body["redis"] = "unreachable"
        ready = body["store"] == "ok" and body["redis"] != "unreachable"
        if not ready:
            body["status"] = "unavailable"
        return (body, 200) if ready else (body, 503, {"Retry-After": "5"})
