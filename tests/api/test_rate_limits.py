"""Rate limits for every caller: client addresses (behind trusted proxies only), seat tokens and API keys."""

from __future__ import annotations

import pytest

from api.app import create_app
from tests.api.conftest import auth, create_secret_game, make_runtime
from workers import apikeys, jobs
from workers.runtime import Runtime


def app_with(runtime, **limits):
    config = {f"RATE_LIMIT_{name.upper()}_PER_MINUTE": value for name, value in limits.items()}
    return create_app(runtime, config)


def client_at(app, address):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def statuses(client, n, path="/game-types", headers=None):
    return [client.get(path, headers=headers or {}) for _ in range(n)]


def test_anonymous_callers_are_limited_by_address_with_headers_and_a_problem(runtime):
    client = client_at(app_with(runtime, anonymous=3), "203.0.113.5")
    seen = statuses(client, 4)
    assert [r.status_code for r in seen] == [200, 200, 200, 429]
    assert seen[0].headers["RateLimit-Policy"] == '"addr";q=3;w=60'
    assert [r.headers["RateLimit"].split(";")[1] for r in seen] == ["r=2", "r=1", "r=0", "r=0"]
    refused = seen[3]
    assert refused.content_type == "application/problem+json"
    assert refused.get_json()["code"] == "rate_limited" and "client address" in refused.get_json()["detail"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert int(refused.headers["RateLimit"].rsplit("t=", 1)[1]) == int(refused.headers["Retry-After"])


def test_each_address_has_its_own_window_and_an_ipv6_client_its_64(runtime):
    app = app_with(runtime, anonymous=2)
    assert [r.status_code for r in statuses(client_at(app, "203.0.113.5"), 3)] == [200, 200, 429]
    assert statuses(client_at(app, "203.0.113.6"), 1)[0].status_code == 200
    assert [r.status_code for r in statuses(client_at(app, "2001:db8::1"), 2)] == [200, 200]
    assert statuses(client_at(app, "2001:db8::ffff:2"), 1)[0].status_code == 429  # the same /64
    assert statuses(client_at(app, "2001:db8:0:1::1"), 1)[0].status_code == 200  # another /64


def test_a_spoofed_x_forwarded_for_is_ignored_without_trusted_proxies(runtime, monkeypatch):
    monkeypatch.delenv("TRADEWINDS_TRUSTED_PROXIES", raising=False)
    client = client_at(app_with(runtime, anonymous=2), "203.0.113.5")
    spoofed = [client.get("/game-types", headers={"X-Forwarded-For": f"198.51.100.{i}"}) for i in range(3)]
    assert [r.status_code for r in spoofed] == [200, 200, 429]


def test_behind_one_trusted_proxy_the_forwarded_client_is_counted(runtime, monkeypatch):
    monkeypatch.setenv("TRADEWINDS_TRUSTED_PROXIES", "1")
    proxy = client_at(app_with(runtime, anonymous=2), "10.0.0.2")

    def get(forwarded):
        return proxy.get("/game-types", headers={"X-Forwarded-For": forwarded}).status_code

    assert [get("198.51.100.1") for _ in range(3)] == [200, 200, 429]
    assert get("198.51.100.2") == 200  # another client behind the same proxy
    # a client that writes its own X-Forwarded-For gets the proxy's appended address counted, not its claim
    assert get("192.0.2.77, 198.51.100.1") == 429
    assert get("198.51.100.1, 198.51.100.3") == 200


def test_trusted_proxy_networks_are_believed_and_others_are_not(runtime, monkeypatch):
    monkeypatch.setenv("TRADEWINDS_TRUSTED_PROXIES", "10.0.0.0/8, fd00::/8")
    app = app_with(runtime, anonymous=1)
    # two trusted hops: the right-most untrusted address is the client
    chained = client_at(app, "10.0.0.2")
    assert chained.get("/game-types", headers={"X-Forwarded-For": "198.51.100.7, 10.1.1.1"}).status_code == 200
    assert chained.get("/game-types", headers={"X-Forwarded-For": "198.51.100.7"}).status_code == 429
    assert chained.get("/game-types", headers={"X-Forwarded-For": "198.51.100.8"}).status_code == 200
    # a peer outside the trusted networks cannot pick its address
    outsider = client_at(app, "203.0.113.9")
    assert outsider.get("/game-types", headers={"X-Forwarded-For": "198.51.100.20"}).status_code == 200
    assert outsider.get("/game-types", headers={"X-Forwarded-For": "198.51.100.21"}).status_code == 429


def test_a_bad_trusted_proxies_setting_fails_at_start(runtime, monkeypatch):
    monkeypatch.setenv("TRADEWINDS_TRUSTED_PROXIES", "10.0.0.0/33")
    with pytest.raises(ValueError, match="TRADEWINDS_TRUSTED_PROXIES"):
        create_app(runtime)


def test_seat_tokens_have_their_own_limit_and_count_against_the_address_too(runtime):
    app = app_with(runtime, anonymous=100, seat=2)
    client = client_at(app, "203.0.113.5")
    game = create_secret_game(client)
    gid, (one, two) = game["id"], [t["token"] for t in game["seat_tokens"]]
    seen = statuses(client, 3, f"/games/{gid}", auth(one))
    assert [r.status_code for r in seen] == [200, 200, 429]
    assert seen[0].headers["RateLimit-Policy"] == '"addr";q=100;w=60, "seat";q=2;w=60'
    assert seen[0].headers["RateLimit"].startswith('"addr";r=') and '"seat";r=1;' in seen[0].headers["RateLimit"]
    assert "seat token" in seen[2].get_json()["detail"]
    assert client.get(f"/games/{gid}", headers=auth(two)).status_code == 200  # the other seat's own window
    tight = client_at(app_with(runtime, anonymous=2, seat=100), "203.0.113.8")
    assert [r.status_code for r in statuses(tight, 3, f"/games/{gid}", auth(two))] == [200, 200, 429]


def test_api_keys_count_against_the_key_not_the_address(runtime):
    app = app_with(runtime, anonymous=1)
    app.config["RATE_LIMIT_PER_MINUTE"] = 3
    client = client_at(app, "203.0.113.5")
    _, key = apikeys.create_key(runtime.store, "site")
    seen = statuses(client, 4, "/webhooks", auth(key))
    assert [r.status_code for r in seen] == [200, 200, 200, 429]
    assert seen[0].headers["RateLimit-Policy"] == '"key";q=3;w=60' and "API key" in seen[3].get_json()["detail"]
    assert client.get("/game-types").status_code == 200  # the address's own window is untouched


def test_an_unknown_or_revoked_api_key_counts_against_the_address(runtime):
    app = app_with(runtime, anonymous=3)
    app.config["RATE_LIMIT_PER_MINUTE"] = 100
    client = client_at(app, "203.0.113.5")
    invented = [client.get("/game-types", headers=auth(f"twk_{'0' * 31}{i}")) for i in range(4)]
    assert [r.status_code for r in invented] == [200, 200, 200, 429]  # one new "key" per request changes nothing
    assert invented[0].headers["RateLimit-Policy"] == '"addr";q=3;w=60'
    assert "client address" in invented[3].get_json()["detail"]
    made, key = apikeys.create_key(runtime.store, "site")
    assert apikeys.revoke(runtime.store, made.key_id)
    other = client_at(app, "203.0.113.6")
    revoked = [other.post("/verify", json={"export": "x"}, headers=auth(key)) for _ in range(4)]
    assert [r.status_code for r in revoked] == [200, 200, 200, 429]
    _, good = apikeys.create_key(runtime.store, "site")
    assert client.get("/game-types", headers=auth(good)).status_code == 200  # a real key has its own window


def test_probes_are_not_limited(runtime):
    client = client_at(app_with(runtime, anonymous=1), "203.0.113.5")
    assert [r.status_code for r in statuses(client, 5, "/health")] == [200] * 5
    assert "RateLimit" not in client.get("/health").headers
    for path in ("/livez", "/readyz"):
        assert client.get(path).status_code in (200, 503)
    # only those paths: a path that merely begins like one counts (this address's one request a minute)
    assert [r.status_code for r in statuses(client, 2, "/healthz")] == [404, 429]
    assert client.get("/metrics/x").status_code == 429


def test_a_zero_limit_turns_a_policy_off(runtime):
    client = client_at(app_with(runtime, anonymous=0), "203.0.113.5")
    seen = statuses(client, 5)
    assert [r.status_code for r in seen] == [200] * 5 and "RateLimit" not in seen[0].headers


def test_a_request_not_counted_carries_no_figures_of_an_earlier_one_in_a_shared_context(runtime):
    """Requests inside one pushed app context share ``g``: an uncounted request must not show the last
    counted one's figures."""
    app = app_with(runtime, anonymous=5)
    client = client_at(app, "203.0.113.5")
    with app.app_context():
        assert client.get("/game-types").headers["RateLimit"].startswith('"addr";r=4')
        app.config["RATE_LIMIT_ANONYMOUS_PER_MINUTE"] = 0
        answer = client.get("/game-types")
    assert answer.status_code == 200 and "RateLimit" not in answer.headers


def test_the_documented_defaults(runtime, monkeypatch):
    for name in ("TRADEWINDS_RATE_LIMIT", "TRADEWINDS_RATE_LIMIT_ANONYMOUS", "TRADEWINDS_RATE_LIMIT_SEAT"):
        monkeypatch.delenv(name, raising=False)
    config = create_app(runtime).config
    assert (
        config["RATE_LIMIT_PER_MINUTE"],
        config["RATE_LIMIT_ANONYMOUS_PER_MINUTE"],
        config["RATE_LIMIT_SEAT_PER_MINUTE"],
    ) == (600, 600, 300)
    monkeypatch.setenv("TRADEWINDS_RATE_LIMIT_ANONYMOUS", "42")
    assert create_app(runtime).config["RATE_LIMIT_ANONYMOUS_PER_MINUTE"] == 42


@pytest.mark.redis
def test_with_redis_every_server_process_shares_the_counts(redis_url):
    base = make_runtime()
    try:
        shared = Runtime(base.store, base.dispatcher, base.service, "memory://", redis_url)
        first, second = (client_at(app_with(shared, anonymous=3), "203.0.113.5") for _ in range(2))
        assert [r.status_code for r in statuses(first, 2)] == [200, 200]
        assert [r.status_code for r in statuses(second, 2)] == [200, 429]
        assert first.get("/game-types").status_code == 429
    finally:
        jobs.set_runtime(None)


class CountingStorage:
    """The limiter's storage, with the calls the limiter makes counted (each one is a Redis round trip)."""

    def __init__(self, inner):
        self.inner, self.calls = inner, []

    def __getattr__(self, name):
        method = getattr(self.inner, name)

        def counted(*args, **kwargs):
            self.calls.append(name)
            return method(*args, **kwargs)

        return counted


def test_a_request_costs_one_increment_per_policy_and_an_expiry_read_only_in_an_open_window(runtime):
    app = app_with(runtime, anonymous=5, seat=5)
    limiter = app.extensions["tradewinds_limiter"]
    limiter.storage = counting = CountingStorage(limiter.storage)
    client = client_at(app, "203.0.113.5")
    game = create_secret_game(client)  # opens the address's window
    token = auth(game["seat_tokens"][0]["token"])
    counting.calls.clear()
    first = client.get("/game-types", headers=token)  # the seat's window opens now
    assert first.status_code == 200 and sorted(counting.calls) == ["get_expiry", "incr", "incr"]
    counting.calls.clear()
    seen = statuses(client, 4, headers=token)
    assert sorted(counting.calls) == ["get_expiry"] * 8 + ["incr"] * 8
    assert [r.status_code for r in seen] == [200, 200, 200, 429]  # the address's 6th request is over its 5
    remaining = [
        {part.split(";")[0].strip(' "'): part.split(";")[1] for part in r.headers["RateLimit"].split(",")}
        for r in [first, *seen]
    ]
    assert remaining == [{"addr": f"r={max(0, 3 - n)}", "seat": f"r={4 - n}"} for n in range(5)]


def test_a_request_the_content_checks_refuse_counts_and_one_over_the_limit_is_refused_before_its_body_is_read(
    runtime,
):
    import io

    client = client_at(app_with(runtime, anonymous=2), "203.0.113.5")
    assert [r.status_code for r in statuses(client, 3)] == [200, 200, 429]
    refused = [client.get("/game-types", headers={"Accept": "text/csv"}) for _ in range(3)]  # 406 otherwise
    refused += [client.get("/games?limit=1&limit=2") for _ in range(3)]  # 400 otherwise
    assert {r.status_code for r in refused} == {429} and all("RateLimit" in r.headers for r in refused)

    class Counted(io.BytesIO):
        read_bytes = 0

        def readinto(self, buffer):
            got = super().readinto(buffer)
            Counted.read_bytes += got
            return got

    big = client.post(
        "/games",
        input_stream=Counted(b"x" * (4 * 1024 * 1024 + 10)),
        headers={"Content-Type": "application/json"},
        environ_overrides={"wsgi.input_terminated": True, "HTTP_TRANSFER_ENCODING": "chunked"},
    )
    assert big.status_code == 429 and Counted.read_bytes == 0
