"""Rate limits for every caller: API keys, seat tokens and, without a key, the client address.

Each policy is a fixed one-minute window counted with the ``limits`` library in Redis when the server has
one, else in the counter file that ``serve`` shares between its request processes (``api.counters``), and
in the process's memory when there is neither (one process: tests, an embedded app):

- ``key``: a request with an integrator API key counts against that key (``TRADEWINDS_RATE_LIMIT``);
- ``addr``: every request without a key counts against its client address (``TRADEWINDS_RATE_LIMIT_ANONYMOUS``;
  IPv6 clients by their /64 network, as one subscriber usually holds a whole /64);
- ``seat``: a request with a seat token also counts against that token (``TRADEWINDS_RATE_LIMIT_SEAT``).

Over a limit a request gets 429 ``rate_limited`` with ``Retry-After`` (seconds to the next window). Responses
carry ``RateLimit-Policy`` and ``RateLimit`` (the IETF draft header fields) naming each policy that applied.
A limit of 0 turns that policy off. Health and metrics paths are not limited.

The client address is the peer's, unless ``TRADEWINDS_TRUSTED_PROXIES`` says which proxies' ``X-Forwarded-For``
to believe: a number (that many proxies in front, werkzeug's ``ProxyFix``) or a comma-separated list of
addresses and networks (the right-most address of the header not among them is the client). Without it the
header is ignored, so a client cannot choose its own address.
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import logging
import os
import time
from dataclasses import dataclass
from typing import Any

from flask import Flask, g, request
from limits import RateLimitItemPerMinute, storage
from werkzeug.middleware.proxy_fix import ProxyFix

from api.common import bearer_token, known_key
from api.counters import CounterFile, shared_counters
from api.errors import ApiError
from workers.apikeys import is_api_key

log = logging.getLogger(__name__)

WINDOW = 60
# probes and scrapers, from the operator's side: these paths exactly (``/metrics/x`` or ``/healthz`` count)
UNLIMITED_PATHS = frozenset(("/health", "/livez", "/readyz", "/metrics"))
SETTINGS = {  # app.config name: (environment variable, default requests a minute)
    "RATE_LIMIT_PER_MINUTE": ("TRADEWINDS_RATE_LIMIT", 600),
    "RATE_LIMIT_ANONYMOUS_PER_MINUTE": ("TRADEWINDS_RATE_LIMIT_ANONYMOUS", 600),
    "RATE_LIMIT_SEAT_PER_MINUTE": ("TRADEWINDS_RATE_LIMIT_SEAT", 300),
}
POLICY_SETTING = {
    "key": "RATE_LIMIT_PER_MINUTE",
    "addr": "RATE_LIMIT_ANONYMOUS_PER_MINUTE",
    "seat": "RATE_LIMIT_SEAT_PER_MINUTE",
}
KEY_POLICIES: tuple[str, ...] = ("key",)
ANONYMOUS_POLICIES: tuple[str, ...] = ("addr",)
SEAT_POLICIES: tuple[str, ...] = ("addr", "seat")
WHO = {"key": "this API key", "addr": "this client address", "seat": "this seat token"}


def setting(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


# --------------------------------------------------------------------------------------- client address
class TrustedNetworks:
    """WSGI middleware: the client is the right-most X-Forwarded-For address not in a trusted network,
    believed only when the peer itself is in one."""

    def __init__(self, app: Any, networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network]) -> None:
        self.app = app
        self.networks = networks

    def trusted(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address.strip().strip("[]"))
        except ValueError:
            return False
        return any(ip in net for net in self.networks if net.version == ip.version)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        peer = environ.get("REMOTE_ADDR", "")
        forwarded = environ.get("HTTP_X_FORWARDED_FOR", "")
        if forwarded and self.trusted(peer):
            client = peer
            for hop in reversed([h.strip() for h in forwarded.split(",") if h.strip()]):
                client = hop
                if not self.trusted(hop):
                    break
            environ["werkzeug.proxy_fix.orig"] = {"REMOTE_ADDR": peer}
            environ["REMOTE_ADDR"] = client
        return self.app(environ, start_response)


def trusted_proxies(app: Flask, value: str | None) -> None:
    """Wrap the app for the trusted-proxies setting: a count, or addresses and networks."""
    value = (value or "").strip()
    if not value:
        return
    if value.isdigit():
        if int(value) > 0:
            app.wsgi_app = ProxyFix(app.wsgi_app, x_for=int(value))  # type: ignore[method-assign]
        return
    try:
        networks = [ipaddress.ip_network(part.strip(), strict=False) for part in value.split(",") if part.strip()]
    except ValueError as exc:
        raise ValueError(f"TRADEWINDS_TRUSTED_PROXIES: {exc}") from None
    app.wsgi_app = TrustedNetworks(app.wsgi_app, networks)  # type: ignore[method-assign]


@functools.lru_cache(maxsize=4096)  # the same clients call again and again; parsing an address is not free
def address_bucket(address: str) -> str:
    """The bucket of a client address: itself for IPv4, its /64 for IPv6."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address or "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


# ---------------------------------------------------------------------------------------------- limits
@dataclass
class Outcome:
    policy: str
    limit: int
    remaining: int
    reset: int


class Limiter:
    def __init__(self, redis_url: str | None, counters: CounterFile | None = None) -> None:
        self.counters = None if redis_url else counters
        uri = redis_url if redis_url else "memory://"
        options = {"socket_connect_timeout": 1, "socket_timeout": 2} if redis_url else {}
        found = storage.storage_from_string(uri, **options)
        assert isinstance(found, storage.Storage), "a synchronous storage: the URI has no async+ prefix"
        self.storage: storage.Storage = found

    def hit(self, policy: str, identity: str, limit: int) -> Outcome:
        """Count one request: the fixed window's increment (one Redis round trip: the library's script), then
        the window's end, which only a window opened earlier needs read (a second round trip)."""
        item = RateLimitItemPerMinute(limit, namespace="tradewinds")
        key = item.key_for(policy, identity)
        now = time.time()
        if self.counters is not None:  # processes of one serve without Redis: one statement on the shared file
            count, ends = self.counters.hit(key, item.get_expiry(), now)
        else:
            count = self.storage.incr(key, item.get_expiry())
            ends = now + item.get_expiry() if count == 1 else self.storage.get_expiry(key)
        reset = max(1, int(ends - now + 0.999))
        return Outcome(policy, limit, limit - count if count <= limit else -1, reset)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:24]


def issued(token: str) -> bool:
    """``token`` is an API key the server issued and has not revoked (a store that does not answer: taken as not)."""
    try:
        return known_key(token) is not None
    except Exception as exc:
        log.warning("could not look up an API key for the rate limits: %s", type(exc).__name__)
        return False


def install(app: Flask, limit_per_minute: int | None = None) -> None:
    """Count every request against its policies; ``limit_per_minute`` is the key policy's default when
    neither the app's config nor the environment sets it."""
    for name, (env, default) in SETTINGS.items():
        if name == "RATE_LIMIT_PER_MINUTE" and limit_per_minute is not None:
            default = limit_per_minute
        app.config.setdefault(name, setting(env, default))
    trusted_proxies(app, os.environ.get("TRADEWINDS_TRUSTED_PROXIES"))
    rt = app.extensions["tradewinds"]
    limiter = Limiter(rt.redis_url, shared_counters(app))
    app.extensions["tradewinds_limiter"] = limiter

    @app.before_request
    def limit():
        req = request._get_current_object()  # type: ignore[attr-defined]  # once, not through the proxy each time
        if req.method == "OPTIONS" or req.path in UNLIMITED_PATHS:
            return None
        try:
            token = bearer_token()
        except ApiError:
            token = None  # a malformed header is answered by the endpoint; the address still counts
        config = app.config
        if token is not None and is_api_key(token):
            # an invented or revoked key is anyone: its requests count against the client's address
            policies = KEY_POLICIES if issued(token) else ANONYMOUS_POLICIES
        else:
            policies = ANONYMOUS_POLICIES if token is None else SEAT_POLICIES
        outcomes = []
        for policy in policies:
            quota = int(config[POLICY_SETTING[policy]])
            if quota <= 0:  # off: not even the caller's identity is worked out
                continue
            identity = address_bucket(req.remote_addr or "") if policy == "addr" else digest(token or "")
            try:
                outcomes.append(limiter.hit(policy, identity, quota))
            except Exception as exc:  # the counter's store is away: serve rather than refuse everyone
                log.warning("rate limit not counted (%s): %s", policy, type(exc).__name__)
        g.rate_limit = outcomes  # even when empty: a context pushed around several requests shares one g
        refused = [o for o in outcomes if o.remaining < 0]
        if refused:
            worst = max(refused, key=lambda o: o.reset)
            raise ApiError(
                "rate_limited",
                f"{WHO[worst.policy]} may make {worst.limit} requests a minute; retry in {worst.reset} s",
                headers={"Retry-After": str(worst.reset)},
            )
        return None

    @app.after_request
    def rate_headers(response):
        outcomes = g.get("rate_limit")
        if outcomes:
            response.headers["RateLimit-Policy"] = ", ".join(f'"{o.policy}";q={o.limit};w={WINDOW}' for o in outcomes)
            response.headers["RateLimit"] = ", ".join(
                f'"{o.policy}";r={max(0, o.remaining)};t={o.reset}' for o in outcomes
            )
        return response
