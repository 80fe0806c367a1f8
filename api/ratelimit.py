"""Per-API-key rate limits: a fixed one-minute window, counted in Redis when configured, else in-process.

Over the limit a request gets 429 with ``Retry-After`` (seconds to the next window). Every request with an
API key carries ``RateLimit-Policy`` and ``RateLimit`` (the IETF draft header fields). Seat tokens and
anonymous requests are not limited here (put a reverse proxy in front for that).
"""

from __future__ import annotations

import hashlib
import threading
import time

from flask import Flask, current_app, g

from api.common import bearer_token
from api.errors import ApiError
from workers.apikeys import is_api_key

WINDOW = 60
POLICY = "key"  # the policy's name in the RateLimit header fields (draft-ietf-httpapi-ratelimit-headers)


class LocalCounter:
    def __init__(self) -> None:
        self._counts: dict[tuple[str, int], int] = {}
        self._lock = threading.Lock()

    def hit(self, key: str, window: int) -> int:
        with self._lock:
            for old in [k for k in self._counts if k[1] < window]:
                del self._counts[old]
            self._counts[(key, window)] = self._counts.get((key, window), 0) + 1
            return self._counts[(key, window)]


class RedisCounter:
    def __init__(self, redis) -> None:
        self.redis = redis

    def hit(self, key: str, window: int) -> int:
        name = f"tradewinds:rate:{key}:{window}"
        pipe = self.redis.pipeline()
        pipe.incr(name)
        pipe.expire(name, WINDOW * 2)
        return pipe.execute()[0]


def install(app: Flask, limit_per_minute: int) -> None:
    app.config.setdefault("RATE_LIMIT_PER_MINUTE", limit_per_minute)
    rt = app.extensions["tradewinds"]
    redis = getattr(rt.dispatcher, "redis", None)
    counter = RedisCounter(redis) if redis is not None else LocalCounter()

    @app.before_request
    def limit():
        try:
            token = bearer_token()
        except ApiError:
            return None  # malformed headers are answered by the endpoint
        if token is None or not is_api_key(token):
            return None
        limit = current_app.config["RATE_LIMIT_PER_MINUTE"]
        now = time.time()
        window = int(now // WINDOW)
        key_id = hashlib.sha256(token.encode()).hexdigest()[:16]
        used = counter.hit(key_id, window)
        reset = max(1, int((window + 1) * WINDOW - now))
        g.rate_limit = (limit, max(0, limit - used), reset)
        if used > limit:
            raise ApiError(
                "rate_limited",
                f"this API key may make {limit} requests a minute; retry in {reset} s",
                headers={"Retry-After": str(reset)},
            )
        return None

    @app.after_request
    def rate_headers(response):
        state = g.get("rate_limit")
        if state is not None:
            limit, remaining, reset = state
            response.headers["RateLimit-Policy"] = f'"{POLICY}";q={limit};w={WINDOW}'
            response.headers["RateLimit"] = f'"{POLICY}";r={remaining};t={reset}'
        return response
