"""What an operator watches: metrics that move when the service works, request ids, request lines without
secrets, and the liveness and readiness probes."""

from __future__ import annotations

import json
import logging

import pytest
from prometheus_client.parser import text_string_to_metric_families

from api.app import create_app
from api.fanout import Hub
from eventstore.base import StoreUnavailable
from tests.api.conftest import auth, create_secret_game, integrator, make_runtime
from workers import apikeys, dispatch, logs
from workers.games import GameService
from workers.runtime import Runtime
from workers.sweeper import work_item

COMMANDS_ROUTE = "/games/<game_id:game_id>/commands"


def scrape(client, **headers) -> dict[tuple[str, tuple], float]:
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 200, response.data
    assert response.headers["Content-Type"].startswith("text/plain")
    samples: dict[tuple[str, tuple], float] = {}
    for family in text_string_to_metric_families(response.get_data(as_text=True)):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def token_of(game, seat):
    return next(t["token"] for t in game["seat_tokens"] if t["seat"] == seat)


# ------------------------------------------------------------------------------------------ metrics
def test_a_move_moves_the_move_counter_and_the_request_metrics_of_its_route(client):
    game = create_secret_game(client)
    before = scrape(client)
    response = client.post(
        f"/games/{game['id']}/commands",
        json={"command": {"type": "bank", "amount": 2}},
        headers=auth(token_of(game, 0)),
    )
    assert response.status_code == 200
    after = scrape(client)
    moves = "tradewinds_moves_stored_total"
    assert (
        value(after, moves, game_type="secret_numbers", actor="human")
        - value(before, moves, game_type="secret_numbers", actor="human")
        == 1
    )
    requests = "tradewinds_http_requests_total"
    labels = {"method": "POST", "route": COMMANDS_ROUTE, "status": "200"}
    assert value(after, requests, **labels) - value(before, requests, **labels) == 1
    count = "tradewinds_http_request_duration_seconds_count"
    assert (
        value(after, count, method="POST", route=COMMANDS_ROUTE)
        - value(before, count, method="POST", route=COMMANDS_ROUTE)
        == 1
    )
    # a refused move is counted under its status, and stores nothing
    refused = client.post(
        f"/games/{game['id']}/commands",
        json={"command": {"type": "bank", "amount": 2}},
        headers=auth(token_of(game, 0)),
    )
    assert refused.status_code == 409
    again = scrape(client)
    assert (
        value(again, requests, method="POST", route=COMMANDS_ROUTE, status="409")
        - value(after, requests, method="POST", route=COMMANDS_ROUTE, status="409")
        == 1
    )
    assert value(again, moves, game_type="secret_numbers", actor="human") == value(
        after, moves, game_type="secret_numbers", actor="human"
    )


def test_routes_are_labelled_by_their_rule_never_by_the_raw_path(client):
    before = scrape(client)
    for _ in range(3):
        assert client.get(f"/games/{'ab' * 16}").status_code == 404
        assert client.get("/no/such/path/x7").status_code == 404
    after = scrape(client)
    name = "tradewinds_http_requests_total"
    rule = {"method": "GET", "route": "/games/<game_id:game_id>", "status": "404"}
    unmatched = {"method": "GET", "route": "<unmatched>", "status": "404"}
    assert value(after, name, **rule) - value(before, name, **rule) == 3
    assert value(after, name, **unmatched) - value(before, name, **unmatched) == 3
    assert not any("ab" * 16 in str(labels) or "x7" in str(labels) for _, labels in after)


def test_a_made_up_method_is_labelled_other_not_a_series_of_its_own(client):
    before = scrape(client)
    for n in range(5):
        assert client.open("/livez", method=f"MADEUP{n}").status_code == 405
    after = scrape(client)
    name = "tradewinds_http_requests_total"
    other = {"method": "other", "route": "<unmatched>", "status": "405"}
    assert value(after, name, **other) - value(before, name, **other) == 5
    assert not any("MADEUP" in str(labels) for _, labels in after)


def test_bot_turns_are_queued_run_and_timed():
    runtime = make_runtime()
    client = create_app(runtime).test_client()
    before = scrape(client)
    create_secret_game(client, bots=(None, "random"))
    game = create_secret_game(client, bots=("random", "random"), rounds=2, headers=integrator(runtime))
    after = scrape(client)
    played = value(after, "tradewinds_bot_turns_total", outcome="played") - value(
        before, "tradewinds_bot_turns_total", outcome="played"
    )
    assert played == 4  # two rounds of two bot seats; the first game waits for its human
    queued = "tradewinds_jobs_queued_total"
    labels = {"job": "play_bot_turn", "via": "commit"}
    assert value(after, queued, **labels) - value(before, queued, **labels) >= played
    timed = "tradewinds_bot_turn_seconds_count"
    assert value(after, timed) - value(before, timed) >= played
    assert value(after, "tradewinds_bot_turns_running") == 0
    assert client.get(f"/games/{game['id']}").get_json()["status"] == "finished"


def test_a_failing_bot_turn_counts_as_failed(runtime, client, monkeypatch):
    from workers import jobs

    before = scrape(client)
    monkeypatch.setattr(jobs, "_play_bot_turn", lambda *args: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        jobs.play_bot_turn("x" * 32, 1)
    after = scrape(client)
    failed = "tradewinds_bot_turns_total"
    assert value(after, failed, outcome="failed") - value(before, failed, outcome="failed") == 1
    assert value(after, "tradewinds_bot_turns_running") == 0


def test_the_followers_gauge_follows_subscriptions(runtime, client):
    hub = Hub(runtime.service)
    try:
        subs = [hub.subscribe("g1"), hub.subscribe("g1"), hub.subscribe("g2")]
        assert value(scrape(client), "tradewinds_stream_followers") == 3
        subs[0].close()
        subs[0].close()  # closing twice counts once
        assert value(scrape(client), "tradewinds_stream_followers") == 2
        for sub in subs[1:]:
            sub.close()
        assert value(scrape(client), "tradewinds_stream_followers") == 0
    finally:
        hub.close()


def test_outbox_depth_and_overdue_work_are_read_at_scrape_time(runtime, client):
    runtime.store.put_outbox(
        [
            work_item("clock:a", "check_clock", ["a", 1, 0], delay=600),
            work_item("clock:b", "check_clock", ["b", 1, 0], delay=600),
            {**work_item("bot:c", "play_bot_turn", ["c", 1, 0]), "due_at": 1.0},  # due in 1970: nobody sweeps
        ]
    )
    samples = scrape(client)
    assert value(samples, "tradewinds_outbox_entries", job="check_clock") == 2
    assert value(samples, "tradewinds_outbox_entries", job="play_bot_turn") == 1
    assert value(samples, "tradewinds_outbox_overdue_entries") == 1


def test_store_errors_are_counted_and_answered_503(runtime, client, monkeypatch):
    game = create_secret_game(client)
    before = scrape(client)

    def down(*args, **kwargs):
        raise StoreUnavailable("the database is restarting")

    monkeypatch.setattr(runtime.store, "stream_info", down)
    assert client.get(f"/games/{game['id']}").status_code == 503
    monkeypatch.undo()
    after = scrape(client)
    name = "tradewinds_store_errors_total"
    assert value(after, name, where="api") - value(before, name, where="api") == 1


def test_webhook_deliveries_are_counted_by_outcome(monkeypatch):
    from tests.workers.test_webhooks import Receiver, keyed_game, play_out, subscribe

    runtime = make_runtime()
    client = create_app(runtime).test_client()
    _, key = apikeys.create_key(runtime.store, "site")
    receiver = Receiver()
    try:
        before = scrape(client)
        subscribe(client, key, receiver.url)
        play_out(client, keyed_game(client, key))
        middle = scrape(client)
        name = "tradewinds_webhook_deliveries_total"
        delivered = value(middle, name, outcome="delivered") - value(before, name, outcome="delivered")
        assert delivered == len(receiver.accepted) > 0
        receiver.down = True
        play_out(client, keyed_game(client, key))
        after = scrape(client)
        assert value(after, name, outcome="failed") - value(middle, name, outcome="failed") == receiver.refused >= 1
    finally:
        receiver.close()


def test_the_metrics_token_guards_the_scrape():
    runtime = make_runtime()
    client = create_app(runtime, {"METRICS_TOKEN": "scrape-secret-1"}).test_client()
    refused = client.get("/metrics")
    assert refused.status_code == 401 and refused.headers["Content-Type"] == "application/problem+json"
    assert refused.get_json()["code"] == "unauthorized" and "WWW-Authenticate" in refused.headers
    assert client.get("/metrics", headers=auth("scrape-secret-2")).status_code == 401
    assert scrape(client, Authorization="Bearer scrape-secret-1")


def test_a_prometheus_scraper_may_ask_for_openmetrics(client):
    accept = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
    response = client.get("/metrics", headers={"Accept": accept})
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("application/openmetrics-text")
    assert response.get_data(as_text=True).rstrip().endswith("# EOF")


# ------------------------------------------------------------------------------------------ request ids and lines
def test_every_response_carries_a_request_id_its_own_or_the_callers_sane_one(client):
    generated = client.get("/livez").headers["X-Request-ID"]
    assert len(generated) == 32 and int(generated, 16) >= 0
    assert client.get("/livez").headers["X-Request-ID"] != generated
    assert client.get("/livez", headers={"X-Request-ID": "lb-7f3a.2:9"}).headers["X-Request-ID"] == "lb-7f3a.2:9"
    for insane in ("a b", "x" * 129, "<script>", "tws_x;y", "é"):
        echoed = client.get("/livez", headers={"X-Request-ID": insane}).headers["X-Request-ID"]
        assert echoed != insane and len(echoed) == 32
    # errors too, before any operation is chosen
    assert "X-Request-ID" in client.get("/no/such/path").headers
    assert "X-Request-ID" in client.post("/games", data="x", content_type="text/plain").headers


class Lines(logging.Handler):
    """Log records as `tradewinds serve` writes them: JSON through the production formatter."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.setFormatter(logs.RedactingJsonFormatter())
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(self.format(record))


@pytest.fixture
def lines():
    handler = Lines()
    root = logging.getLogger()
    access = logging.getLogger("tradewinds.access")
    level = access.level
    root.addHandler(handler)
    access.addHandler(handler)  # the run-wide watch keeps request lines from propagating (tests/conftest.py)
    access.setLevel(logging.INFO)
    yield handler
    access.removeHandler(handler)
    root.removeHandler(handler)
    access.setLevel(level)


def test_each_request_is_one_json_line_with_its_id_method_route_status_and_duration(client, lines):
    game = create_secret_game(client)
    response = client.get(f"/games/{game['id']}", headers={"X-Request-ID": "req-1"})
    entries = [json.loads(line) for line in lines.lines]
    entry = next(e for e in entries if e.get("request_id") == "req-1")
    assert entry["logger"] == "tradewinds.access" and entry["level"] == "INFO"
    assert entry["method"] == "GET" and entry["route"] == "/games/<game_id:game_id>"
    assert entry["path"] == f"/games/{game['id']}" and entry["status"] == response.status_code == 200
    assert isinstance(entry["duration_ms"], float) and entry["duration_ms"] >= 0
    assert entry["time"]


def test_a_log_line_written_while_serving_carries_the_request_id(runtime, client, lines, monkeypatch):
    game = create_secret_game(client)
    monkeypatch.setattr(runtime.store, "stream_info", lambda *a, **k: (_ for _ in ()).throw(StoreUnavailable("x")))
    client.get(f"/games/{game['id']}", headers={"X-Request-ID": "req-503"})
    errors = [json.loads(line) for line in lines.lines if '"event store unavailable' in line]
    assert errors and errors[0]["request_id"] == "req-503" and errors[0]["level"] == "ERROR"


def test_no_token_key_or_ticket_reaches_a_log_line(client, runtime, lines):
    _, key = apikeys.create_key(runtime.store, "site")
    game = create_secret_game(client)
    seat = token_of(game, 0)
    ticket = client.post(f"/games/{game['id']}/stream-tickets", headers=auth(seat)).get_json()
    keyed = client.post(
        "/games",
        headers=auth(key),
        json={"game_type": "secret_numbers", "options": {"rounds": 1}, "seats": [{"kind": "human"}] * 2},
    )
    assert keyed.status_code == 201
    client.get(f"/games/{game['id']}/stream?ticket={ticket['ticket']}&max_seconds=0")
    client.get(f"/games/{game['id']}/stream?max_seconds=0&ticket={ticket['ticket']}")
    client.get(f"/games/{game['id']}?token={seat}&key={key}")
    spelled = ticket["ticket"].replace("twst_", "%74wst%5F", 1)
    client.get(f"/games/{game['id']}/stream?%74icket={spelled}&format=xml")  # refused: the ticket stays good
    client.get(f"/games/{game['id']}", headers=auth(seat + "-wrong"))
    client.get("/webhooks", headers=auth(key[:-2]))  # an unknown key
    logging.getLogger("tests").error("a careless message: Authorization: Bearer %s, key %s", seat, key)
    text = "\n".join(lines.lines)
    assert text.count('"tradewinds.access"') >= 6
    secrets = [seat, key, ticket["ticket"]] + [t["token"] for t in keyed.get_json()["seat_tokens"]]
    for secret in secrets:
        prefix, _, rest = secret.partition("_")
        assert rest[:8] not in text, f"a {prefix}_ credential reached the logs"
    assert "ticket=[redacted]" in text and "token=[redacted]&key=[redacted]" in text and "twk_[redacted]" in text


@pytest.mark.parametrize(
    ("line", "kept", "gone"),
    [
        ("Authorization: Bearer abc.def-123", "Bearer [redacted]", "abc.def"),
        ("GET /games/1/stream?ticket=twst_abcdefghijkl&x=1", "ticket=[redacted]&x=1", "abcdefgh"),
        ("/x?max_seconds=1&token=sesame", "token=[redacted]", "sesame"),
        ("seat token tws_Zm9vYmFyYmF6cXV4", "tws_[redacted]", "Zm9vYmFy"),
        ("key twk_ABCDEFGHIJKLmnop and whsec_aGVsbG8rd29ybGQ=", "twk_[redacted] and whsec_[redacted]", "ABCDEFGH"),
        ("connect to postgresql://tw:pa55word@db/tw failed", "postgresql://tw:[redacted]@db/tw", "pa55word"),
        ('{"url": "redis://:hunter22@redis:6379/0"}', "redis://:[redacted]@redis", "hunter22"),
        ("GET /g/1/stream?%74icket=%74wst%5Fabcdefghijkl&format=xml", "ticket=[redacted]&format=xml", "abcdefgh"),
        ("/x?%6B%65%79=sesame%21", "key=[redacted]", "sesame"),
        ("/x?a=%0A%22tws%5FZm9vYmFyYmF6cXV4", "%0A%22tws_[redacted]", "Zm9vYmFy"),
    ],
)
def test_redaction_covers_each_kind_of_credential(line, kept, gone):
    scrubbed = logs.redact(line)
    assert kept in scrubbed and gone not in scrubbed


def test_a_token_the_json_formatter_escapes_around_is_redacted():
    """The JSON lines escape non-ASCII text (« becomes \\u00ab): the token after it starts with no word's edge."""
    record = logging.LogRecord(
        "tests", logging.ERROR, __file__, 1, "seat token «%s» refused", ("tws_Zm9vYmFyYmF6cXV4",), None
    )
    line = logs.RedactingJsonFormatter().format(record)
    assert "tws_[redacted]" in line and "Zm9vYmFy" not in line, line


# ------------------------------------------------------------------------------------------ probes
def test_liveness_answers_while_the_process_serves(client):
    response = client.get("/livez")
    assert response.status_code == 200 and response.get_json() == {"status": "ok"}


def test_readiness_is_200_when_the_store_answers_and_503_when_it_does_not(runtime, client, monkeypatch):
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.get_json() == {"status": "ready", "store": "ok", "redis": "not configured"}

    def down():
        raise StoreUnavailable("could not connect to server at 10.1.2.3:5432")

    monkeypatch.setattr(runtime.store, "ping", down)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.get_json() == {"status": "unavailable", "store": "unreachable", "redis": "not configured"}
    assert "10.1.2.3" not in response.get_data(as_text=True)


def test_readiness_is_503_when_the_configured_redis_does_not_answer():
    runtime = make_runtime()
    unreachable = dispatch.RQDispatcher("redis://127.0.0.1:1/0")
    rq_runtime = Runtime(
        runtime.store, unreachable, GameService(runtime.store, unreachable), "memory://", "redis://127.0.0.1:1/0"
    )
    response = create_app(rq_runtime).test_client().get("/readyz")
    assert response.status_code == 503
    assert response.get_json() == {"status": "unavailable", "store": "ok", "redis": "unreachable"}


def test_readiness_with_a_live_redis(redis_url):
    runtime = make_runtime()
    live = dispatch.RQDispatcher(redis_url)
    rq_runtime = Runtime(runtime.store, live, GameService(runtime.store, live), "memory://", redis_url)
    response = create_app(rq_runtime).test_client().get("/readyz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ready", "store": "ok", "redis": "ok"}


def test_the_run_wide_watch_catches_a_credential_in_a_log_line(client, credential_watch):
    game = create_secret_game(client)
    seat = token_of(game, 0)
    logging.getLogger("workers.games").warning("a careless message: %s", seat.replace("tws_", "seat "))
    caught, credential_watch.leaks[:] = list(credential_watch.leaks), []  # this test's own leak, on purpose
    assert len(caught) == 1 and seat[4:14] in caught[0]
    logging.getLogger("workers.games").warning("a careful message: %s", seat)  # redacted by the formatter
    assert credential_watch.leaks == []


def test_the_run_wide_watch_sees_every_request_line(client, credential_watch, monkeypatch):
    game = create_secret_game(client)
    seat = token_of(game, 0)
    from api import observability

    # a request line that would carry a seat token in a field the formatter does not know to redact
    original = observability.route_label
    monkeypatch.setattr(observability, "route_label", lambda req: original(req) + " " + seat.replace("tws_", "seat "))
    client.get("/livez")
    caught, credential_watch.leaks[:] = list(credential_watch.leaks), []
    assert caught and '"tradewinds.access"' in caught[0]
