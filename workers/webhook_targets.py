"""Where a webhook may be sent: public addresses only, checked at registration and at every send.

A subscription's host is resolved when it is registered and again before every send. Each address it
resolves to must be a public (globally routable) unicast address: loopback, private, shared (CGNAT), IPv6 site-local,
link-local, multicast, reserved, unspecified and documentation ranges are refused, in IPv4 and IPv6,
including IPv4 addresses carried inside IPv6 (IPv4-mapped, 6to4, Teredo, NAT64). An operator whose
receivers live on an internal network allows those with ``TRADEWINDS_WEBHOOK_ALLOW_PRIVATE=1``.

A send connects to the very address that was checked (the host name still goes in ``Host`` and in TLS's
server name and certificate check), so a DNS answer that changes between the check and the connection
cannot redirect it. Redirects are never followed: a 3xx answer is a failed send. A failure is recorded
as a short category (``timeout``, ``refused``, ``dns``, ``tls``, ``http_5xx``, ``blocked_target``, ...),
never as the socket's own message, so the delivery log tells an integrator nothing about the server's
network.
"""

from __future__ import annotations

import contextlib
import errno
import http.client
import ipaddress
import os
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

ALLOW_PRIVATE_SETTING = "TRADEWINDS_WEBHOOK_ALLOW_PRIVATE"
NAT64 = ipaddress.ip_network("64:ff9b::/96")
SHARED = ipaddress.ip_network("100.64.0.0/10")  # RFC 6598, carrier-grade NAT
DOCUMENTATION = tuple(
    ipaddress.ip_network(n)
    for n in ("192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24", "2001:db8::/32", "3fff::/20")  # RFC 9637
)
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# the short categories a delivery attempt is recorded with
DELIVERED = "delivered"
CATEGORIES = (
    DELIVERED,
    "blocked_target",
    "dns",
    "invalid_url",
    "timeout",
    "refused",
    "reset",
    "unreachable",
    "tls",
    "protocol",
    "redirect",
    "http_4xx",
    "http_5xx",
    "error",
)


class TargetRefused(Exception):  # noqa: N818 - a refusal with a category, not a crash
    """A URL the server will not send to; ``category`` is what a delivery log records."""

    def __init__(self, category: str, detail: str) -> None:
        super().__init__(detail)
        self.category = category
        self.detail = detail


def private_allowed() -> bool:
    return os.environ.get(ALLOW_PRIVATE_SETTING, "").strip().lower() in ("1", "true", "yes", "on")


def address_class(ip: IPAddress) -> str | None:
    """Why an address is not a public unicast address (``None`` when it is one)."""
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or (ip.sixtofour if ip.sixtofour is not None else None)
        if embedded is None and ip.teredo is not None:
            embedded = ip.teredo[1]
        if embedded is None and ip in NAT64:
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if embedded is not None:
            inner = address_class(embedded)
            if inner is not None or ip.ipv4_mapped is not None:  # a mapped address is its IPv4 address
                return inner
        if ip.is_site_local:  # fec0::/10: deprecated, but a private scope still routed on some networks
            return "site-local"
    checks = (
        ("unspecified", ip.is_unspecified),
        ("loopback", ip.is_loopback),
        ("multicast", ip.is_multicast),
        ("link-local", ip.is_link_local),
        ("reserved", ip.is_reserved),
        ("shared", ip in SHARED),
        ("documentation", any(ip in net for net in DOCUMENTATION)),
        ("private", ip.is_private),
        ("not globally routable", not ip.is_global),
    )
    for name, hit in checks:
        if hit:
            return name
    return None


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str
    addresses: tuple[str, ...]  # resolved and checked, in the resolver's order


def parse(url: str) -> tuple[str, str, int, str]:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise TargetRefused("invalid_url", "not a valid URL") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        raise TargetRefused("invalid_url", "an absolute http:// or https:// URL is required")
    if parts.username is not None or parts.password is not None:
        raise TargetRefused("invalid_url", "credentials in the URL are not accepted")
    host = parts.hostname.rstrip(".").lower()
    if not host or len(host) > 253 or any(not 1 <= len(label) <= 63 for label in host.split(".")):
        raise TargetRefused("invalid_url", "the host name is malformed")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return scheme, host, port or (443 if scheme == "https" else 80), path


def resolve(url: str, allow_private: bool | None = None) -> Target:
    """Parse the URL, resolve its host and check every address; raises ``TargetRefused``."""
    allow = private_allowed() if allow_private is None else allow_private
    scheme, host, port, path = parse(url)
    try:
        literal: IPAddress | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        found = [literal]
    else:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
        except (socket.gaierror, UnicodeError, OSError):
            raise TargetRefused("dns", f"the host {host!r} does not resolve") from None
        found = []
        for info in infos:
            ip = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
            if ip not in found:
                found.append(ip)
        if not found:
            raise TargetRefused("dns", f"the host {host!r} does not resolve")
    if not allow:
        for ip in found:
            reason = address_class(ip)
            if reason is not None:
                # the address a name resolves to is the server's network's business: only its class is told
                said = (
                    f"{host} is a {reason} address" if literal is not None else f"{host} resolves to a {reason} address"
                )
                raise TargetRefused("blocked_target", f"{said}: webhooks go to public addresses only")
    return Target(scheme, host, port, path, tuple(str(ip) for ip in found))


def connect_to(address: str, port: int, timeout: float) -> socket.socket:
    """A TCP connection to this very address: no name lookup on the way."""
    ip = ipaddress.ip_address(address)
    sock = socket.socket(socket.AF_INET6 if ip.version == 6 else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect((address, port))
    except BaseException:
        sock.close()
        raise
    return sock


class _Deadline:
    """A send's deadline: ``expire`` (run by a timer when it passes) shuts the connection's socket down, so a read or
    a TLS handshake blocked on it returns; a socket made after it passed is refused (``opened``)."""

    def __init__(self, seconds: float) -> None:
        self.ends_at = time.monotonic() + seconds
        self.expired = threading.Event()
        self.connection: http.client.HTTPConnection | None = None

    def left(self) -> float:
        return max(0.001, self.ends_at - time.monotonic())

    def expire(self) -> None:
        self.expired.set()  # before looking at the socket: a connect that sets it after sees the flag (``opened``)
        sock = self.connection.sock if self.connection is not None else None
        if sock is not None:
            with contextlib.suppress(OSError):  # the plain socket's shutdown: a blocked read (TLS too) returns
                socket.socket.shutdown(sock, socket.SHUT_RDWR)

    def opened(self, connection: http.client.HTTPConnection, sock: socket.socket) -> None:
        """``sock`` is the connection's socket now; ``TimeoutError`` if the deadline passed already."""
        connection.sock = sock  # before looking at the flag: an expire that runs after shuts this socket down
        if self.expired.is_set():
            raise TimeoutError("the send's deadline passed")


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, address: str, deadline: _Deadline) -> None:
        super().__init__(host, port, timeout=deadline.left())
        self._address = address
        self._deadline = deadline

    def connect(self) -> None:
        self._deadline.opened(self, connect_to(self._address, self.port, self._deadline.left()))


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str, deadline: _Deadline) -> None:
        tls = ssl.create_default_context()
        super().__init__(host, port, timeout=deadline.left(), context=tls)
        self._address = address
        self._tls = tls
        self._deadline = deadline

    def connect(self) -> None:
        raw = connect_to(self._address, self.port, self._deadline.left())
        try:
            # wrapping takes the socket's descriptor over (``raw`` is then detached): the TLS socket is the one the
            # deadline must see before the handshake starts
            tls = self._tls.wrap_socket(raw, server_hostname=self.host, do_handshake_on_connect=False)
        except BaseException:
            raw.close()
            raise
        try:
            self._deadline.opened(self, tls)
            tls.do_handshake()
        except BaseException:
            tls.close()
            raise


def category_of(exc: BaseException) -> str:
    """A short, fixed name for what went wrong in a send (never the exception's text)."""
    if isinstance(exc, TargetRefused):
        return exc.category
    if isinstance(exc, socket.timeout | TimeoutError):
        return "timeout"
    if isinstance(exc, ssl.SSLError | ssl.CertificateError):
        return "tls"
    if isinstance(exc, socket.gaierror):
        return "dns"
    if isinstance(exc, ConnectionRefusedError):
        return "refused"
    if isinstance(exc, ConnectionResetError | ConnectionAbortedError | BrokenPipeError):
        return "reset"
    if isinstance(exc, http.client.HTTPException):
        return "protocol"
    if isinstance(exc, OSError) and exc.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH, errno.EADDRNOTAVAIL):
        return "unreachable"
    return "error"


def status_category(status: int) -> str:
    if 200 <= status < 300:
        return DELIVERED
    if 300 <= status < 400:
        return "redirect"
    if 400 <= status < 500:
        return "http_4xx"
    return "http_5xx"


@dataclass(frozen=True)
class SendResult:
    ok: bool
    outcome: str  # one of CATEGORIES
    status: int | None = None  # the receiver's HTTP status, when it answered


def post(
    url: str, body: bytes, headers: dict[str, str], timeout: float, allow_private: bool | None = None
) -> SendResult:
    """POST ``body`` to ``url``: resolved and checked now, sent to the checked address, redirects not followed."""
    try:
        target = resolve(url, allow_private)
    except TargetRefused as exc:
        return SendResult(False, exc.category)
    # ``timeout`` bounds the whole send, connecting and the TLS handshake included, not each socket operation: a
    # receiver that answers a byte at a time would otherwise hold the delivery (and its thread) as long as it likes
    deadline = _Deadline(timeout)
    connection_class: Any = _PinnedHTTPS if target.scheme == "https" else _PinnedHTTP
    connection = deadline.connection = connection_class(target.host, target.port, target.addresses[0], deadline)
    timer = threading.Timer(timeout, deadline.expire)
    timer.daemon = True
    timer.start()
    expired = deadline.expired
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        response.read(64 * 1024)  # a bounded read: the answer's body is not kept
        if expired.is_set():  # cut short at the deadline (an answer ended early by the cut may still parse)
            return SendResult(False, "timeout")
        return SendResult(200 <= response.status < 300, status_category(response.status), response.status)
    except Exception as exc:
        return SendResult(False, "timeout" if expired.is_set() else category_of(exc))
    finally:
        timer.cancel()
        connection.close()
