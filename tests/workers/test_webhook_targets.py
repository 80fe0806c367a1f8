"""Webhook targets: only public addresses, checked at registration and at every send, no redirects
followed, the checked address is the one connected to, and failures recorded as short categories."""

from __future__ import annotations

import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.api.conftest import auth
from tests.workers.test_webhooks import Receiver, keyed_game, subscribe
from workers import webhook_targets, webhooks
from workers.webhook_targets import ALLOW_PRIVATE_SETTING, CATEGORIES, TargetRefused

REFUSED = {
    # IPv4
    "http://127.0.0.1/hook": "loopback",
    "http://127.8.9.10:8080/hook": "loopback",
    "http://10.1.2.3/hook": "private",
    "http://172.16.0.1/hook": "private",
    "http://192.168.1.1/hook": "private",
    "http://169.254.169.254/latest/meta-data": "link-local",
    "http://224.0.0.1/hook": "multicast",
    "http://240.0.0.1/hook": "reserved",
    "http://0.0.0.0/hook": "unspecified",
    "http://100.64.0.1/hook": "shared",  # shared address space (carrier-grade NAT)
    "http://192.0.2.1/hook": "documentation",
    "http://198.51.100.7/hook": "documentation",
    "http://203.0.113.200/hook": "documentation",
    # IPv6
    "http://[::1]/hook": "loopback",
    "http://[::]/hook": "unspecified",
    "http://[fe80::1]/hook": "link-local",
    "http://[fc00::1]/hook": "private",
    "http://[ff02::1]/hook": "multicast",
    "http://[2001:db8::1]/hook": "documentation",
    "http://[3fff::1]/hook": "documentation",
    "http://[fec0::1]/hook": "site-local",
    "http://[fec0::a9fe:a9fe]/hook": "site-local",
    # IPv4 inside IPv6
    "http://[::ffff:127.0.0.1]/hook": "loopback",
    "http://[::ffff:10.0.0.1]/hook": "private",
    "http://[2002:a9fe:a9fe::1]/hook": "link-local",  # 6to4 of 169.254.169.254
    "http://[64:ff9b::c0a8:101]/hook": "private",  # NAT64 of 192.168.1.1
}


@pytest.fixture
def strict(monkeypatch):
    """The production default: private targets refused."""
    monkeypatch.delenv(ALLOW_PRIVATE_SETTING, raising=False)


@pytest.mark.parametrize("url, reason", sorted(REFUSED.items()))
def test_each_refused_address_class_is_refused_at_registration(site, strict, url, reason):  # noqa: F811
    runtime, client, key = site
    response = client.post("/webhooks", json={"url": url, "events": ["game.started"]}, headers=auth(key))
    assert response.status_code == 422, response.get_json()
    body = response.get_json()
    assert body["code"] == "webhook_target_refused" and f"a {reason} address" in body["detail"]
    assert client.get("/webhooks", headers=auth(key)).get_json()["webhooks"] == []


def test_a_host_name_is_resolved_and_its_addresses_checked(site, strict):  # noqa: F811
    runtime, client, key = site
    response = client.post(
        "/webhooks", json={"url": "http://localhost:9/x", "events": ["game.started"]}, headers=auth(key)
    )
    assert response.status_code == 422 and "loopback" in response.get_json()["detail"]


def test_one_bad_address_among_several_refuses_the_host(strict, monkeypatch):
    answers = [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, 80)) for ip in ("93.184.215.14", "10.0.0.7")]
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: answers)
    with pytest.raises(TargetRefused) as refused:
        webhook_targets.resolve("http://hooks.example.com/x")
    assert refused.value.category == "blocked_target" and "private" in refused.value.detail
    assert "10.0.0.7" not in refused.value.detail  # what an internal name resolves to is not told to the caller


def test_malformed_and_unresolvable_hosts_are_refused(site, strict):  # noqa: F811
    runtime, client, key = site
    for url in ("http://a..b/hook", "http://-/hook", "http://nothing-here.invalid/hook"):
        response = client.post("/webhooks", json={"url": url, "events": ["game.started"]}, headers=auth(key))
        assert response.status_code == 422 and response.get_json()["code"] == "webhook_target_refused", url


def test_a_url_that_cannot_name_a_receiver_is_a_malformed_request(site, strict):  # noqa: F811
    """Port 0, a port over 65535 or a fragment (never sent) fail the URL's pattern: a 400 like any other
    malformed field, not a refused target."""
    runtime, client, key = site
    for url in ("http://example.com:0/hook", "http://example.com:99999/hook", "http://example.com/hook#part"):
        response = client.post("/webhooks", json={"url": url, "events": ["game.started"]}, headers=auth(key))
        assert response.status_code == 400 and response.get_json()["code"] == "invalid_request", url


@pytest.mark.parametrize("url", ["https://93.184.215.14/hook", "https://[::ffff:93.184.215.14]/hook"])
def test_a_public_address_is_accepted(site, strict, url):  # noqa: F811
    """Also an IPv4 address written as IPv6 (mapped): it is judged as the IPv4 address it is."""
    runtime, client, key = site
    response = client.post("/webhooks", json={"url": url, "events": ["game.started"]}, headers=auth(key))
    assert response.status_code == 201, response.get_json()


def test_the_operator_setting_allows_private_targets(site, monkeypatch):  # noqa: F811
    runtime, client, key = site
    monkeypatch.setenv(ALLOW_PRIVATE_SETTING, "1")
    response = client.post(
        "/webhooks", json={"url": "http://10.1.2.3/hook", "events": ["game.started"]}, headers=auth(key)
    )
    assert response.status_code == 201


def test_the_target_is_checked_again_at_every_send(site, monkeypatch):  # noqa: F811
    """Registered while allowed (or while the name pointed elsewhere): a send to a refused address never leaves."""
    runtime, client, key = site
    receiver = Receiver()
    try:
        sub = subscribe(client, key, receiver.url, events=("game.started",))
        monkeypatch.delenv(ALLOW_PRIVATE_SETTING)
        keyed_game(client, key)
        assert receiver.accepted == []
        log = client.get(f"/webhooks/{sub['id']}/deliveries", headers=auth(key)).get_json()["deliveries"]
        assert [a["outcome"] for a in log[0]["attempts"]] == ["blocked_target"]
        assert "status" not in log[0]["attempts"][0]
    finally:
        receiver.close()


def test_the_send_connects_to_the_address_that_was_checked(monkeypatch):
    """One resolution per send: a DNS answer that changes after the check cannot redirect the connection."""
    receiver = Receiver()
    calls = []

    def rebinding(host, port, *args, **kwargs):
        calls.append(host)
        ip = "127.0.0.1" if len(calls) == 1 else "10.9.9.9"  # a second lookup would get an unreachable address
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, port))]

    try:
        monkeypatch.setattr(socket, "getaddrinfo", rebinding)
        url = receiver.url.replace("127.0.0.1", "hooks.example.com")
        entry = {"id": "msg_1", "type": "game.started", "timestamp": "t", "data": {}}
        result = webhooks.send({"url": url, "secret": webhooks.new_secret()}, entry, timeout=2)
        assert result.ok and result.outcome == "delivered" and result.status == 204
        assert calls == ["hooks.example.com"]
        assert receiver.accepted and receiver.accepted[0]["id"] == "msg_1"
    finally:
        receiver.close()


class Redirecting:
    """Answers every POST with a redirect to ``target``."""

    def __init__(self, target: str, status: int = 307):
        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers["Content-Length"]))
                self.send_response(status)
                self.send_header("Location", target)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_a_redirect_is_not_followed(site, status):  # noqa: F811
    runtime, client, key = site
    inner = Receiver()
    redirecting = Redirecting(inner.url, status)
    try:
        sub = subscribe(client, key, redirecting.url, events=("game.started",))
        keyed_game(client, key)
        assert inner.accepted == []
        log = client.get(f"/webhooks/{sub['id']}/deliveries", headers=auth(key)).get_json()["deliveries"]
        attempt = log[0]["attempts"][0]
        assert attempt["outcome"] == "redirect" and attempt["status"] == status and log[0]["status"] == "retrying"
    finally:
        inner.close()
        redirecting.server.shutdown()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def silent_listener() -> socket.socket:
    """Accepts connections and never answers."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    return sock


def post(url: str, timeout: float = 2.0) -> webhook_targets.SendResult:
    return webhook_targets.post(url, b"{}", {"Content-Type": "application/json"}, timeout, allow_private=True)


def test_delivery_errors_are_short_categories_never_socket_messages(strict):
    silent = silent_listener()
    plain = Receiver()  # plain HTTP, spoken to with TLS
    try:
        outcomes = {
            "refused": post(f"http://127.0.0.1:{closed_port()}/hook"),
            "timeout": post(f"http://127.0.0.1:{silent.getsockname()[1]}/hook", timeout=0.3),
            "tls": post(plain.url.replace("http://", "https://")),
            "dns": post("http://nothing-here.invalid/hook"),
            "blocked_target": webhook_targets.post("http://127.0.0.1:9/", b"", {}, 1.0),
            "invalid_url": post("ftp://example.com/hook"),
        }
        plain.down = True
        outcomes["http_5xx"] = post(plain.url)
    finally:
        silent.close()
        plain.close()
    for expected, result in outcomes.items():
        assert not result.ok and result.outcome == expected, (expected, result)
        assert result.outcome in CATEGORIES
    assert outcomes["http_5xx"].status == 503 and outcomes["refused"].status is None


def test_the_delivery_log_of_closed_ports_tells_nothing_about_the_network(site):  # noqa: F811
    """Whatever is (or is not) behind a port, the log holds a category, never the socket's message."""
    runtime, client, key = site
    subs = [
        subscribe(client, key, f"http://127.0.0.1:{port}/hook", events=("game.started",))
        for port in (closed_port(), closed_port())
    ]
    keyed_game(client, key)
    outcomes = set()
    for sub in subs:
        log = client.get(f"/webhooks/{sub['id']}/deliveries", headers=auth(key)).get_json()["deliveries"]
        outcomes.update(a["outcome"] for a in log[0]["attempts"])
        text = str(log)
        assert "Errno" not in text and "Connection" not in text and "port" not in text
    assert outcomes == {"refused"}


class TrickleReceiver:
    """Answers every request with a status line and then a header byte every ``every`` seconds, never ending the
    headers: each byte comes within a socket timeout, so only a deadline for the whole send ends it."""

    def __init__(self, every: float = 0.2) -> None:
        self.every = every
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/hook"
        self.stop = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._trickle, args=(conn,), daemon=True).start()

    def _trickle(self, conn: socket.socket) -> None:
        with conn:
            try:
                conn.recv(65536)
                conn.sendall(b"HTTP/1.1 200 OK\r\nX-A: ")
                while not self.stop.is_set():
                    time.sleep(self.every)
                    conn.sendall(b"a")
            except OSError:
                return

    def close(self) -> None:
        self.stop.set()
        self.listener.close()


def test_a_send_ends_at_its_timeout_however_slowly_the_receiver_answers():
    """The timeout is a deadline for the whole send, not for each socket read: a receiver that trickles its
    answer a byte at a time holds a delivery thread for the timeout, then the send is a ``timeout``."""
    receiver = TrickleReceiver(every=0.2)
    try:
        began = time.monotonic()
        result = post(receiver.url, timeout=1.0)
        took = time.monotonic() - began
    finally:
        receiver.close()
    assert not result.ok and result.outcome == "timeout", result
    assert took < 2.0, f"the send took {took:.1f} s with a timeout of 1 s"


def _self_signed(tmp_path):
    """A certificate and key for 127.0.0.1 (PEM files), and the certificate's text to trust."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
        .sign(key, hashes.SHA256())
    )
    pem = cert.public_bytes(serialization.Encoding.PEM)
    (tmp_path / "cert.pem").write_bytes(pem)
    (tmp_path / "key.pem").write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return tmp_path / "cert.pem", tmp_path / "key.pem", pem.decode()


def test_a_tls_handshake_under_way_when_the_deadline_passes_ends_the_send(tmp_path, monkeypatch):
    """The deadline passes during the TLS handshake (the receiver is a round trip away and slow to say hello), and
    the receiver then trickles its answer: the send still ends at the deadline. The socket the handshake reads is
    the one the deadline shuts down (wrapping takes the plain socket's descriptor over)."""
    import ssl

    cert, key, trusted = _self_signed(tmp_path)
    context = ssl.create_default_context
    monkeypatch.setattr(webhook_targets.ssl, "create_default_context", lambda: context(cadata=trusted))
    real_connect = webhook_targets.connect_to

    def far(*args):  # a receiver 300 ms away
        time.sleep(0.3)
        return real_connect(*args)

    monkeypatch.setattr(webhook_targets, "connect_to", far)
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def slow() -> None:
        raw, _ = listener.accept()
        try:
            stop.wait(0.9)  # the hello comes late: the handshake is under way when the deadline passes
            with server.wrap_socket(raw, server_side=True) as conn:
                conn.recv(65536)
                conn.sendall(b"HTTP/1.1 200 OK\r\n")
                for _ in range(30):  # then a header line every 0.5 s, for at most 15 s
                    if stop.wait(0.5):
                        return
                    conn.sendall(b"X-A: b\r\n")
        except OSError:
            return

    threading.Thread(target=slow, daemon=True).start()
    try:
        began = time.monotonic()
        result = post(f"https://127.0.0.1:{listener.getsockname()[1]}/hook", timeout=1.0)
        took = time.monotonic() - began
    finally:
        stop.set()
        listener.close()
    assert not result.ok and result.outcome == "timeout", result
    assert took < 2.0, f"the send took {took:.1f} s with a timeout of 1 s"
