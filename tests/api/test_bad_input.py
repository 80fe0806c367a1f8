"""Hostile input to every operation that takes a body, a path parameter or a query parameter, on SQLite and on
PostgreSQL: NUL, lone surrogates, 2,000-deep nesting, 10 MB bodies, huge integers and control characters in names.
Every answer is a 4xx problem+json, and the store is unchanged afterwards."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from tests.api.conftest import create_secret_game
from tests.api.stores import durable  # noqa: F401  (fixture)

ROOT = Path(__file__).resolve().parents[2]
NUL, SURROGATE, CONTROL = "a\x00b", "\ud800", "Ann\x07\x1b[31m"
HUGE = 10**400
DEEP = "[" * 2000 + "]" * 2000
BAD_TEXT = [NUL, SURROGATE, CONTROL]


def raw_json(value) -> str:
    """JSON text that may hold a lone surrogate (json.dumps escapes it as \\ud800)."""
    return json.dumps(value)


def bodies(game_type: str) -> list[str]:
    seat = {"kind": "human", "name": "x"}
    out = [
        DEEP,
        '{"a":' * 2000 + "1" + "}" * 2000,
        " " * (10 * 1024 * 1024) + "{}",
        json.dumps({"x": "y" * (10 * 1024 * 1024)}),
        '{"seed": ' + "9" * 5000 + "}",
    ]
    for bad in BAD_TEXT:
        out += [
            raw_json({"game_type": game_type, "seats": [{"kind": "human", "name": bad}, seat]}),
            raw_json({"game_type": game_type, "seats": [{"kind": "human", "external_id": bad}, seat]}),
            raw_json({"game_type": bad, "seats": [seat, seat]}),
            raw_json({"game_type": game_type, "seats": [seat, seat], "options": {bad: 1}}),
            raw_json({"game_type": game_type, "seats": [seat, seat], "options": {"rounds": bad}}),
            raw_json({"command": {"type": "bank", "amount": 1, bad: bad}}),
            raw_json({"command": {"type": bad}}),
            raw_json({"commands": [{"type": "bank", "amount": bad}]}),
            raw_json({"to_version": 1, "reason": bad}),
            raw_json({"export": bad}),
            raw_json(
                {
                    "name": bad,
                    "game_type": game_type,
                    "format": "swiss",
                    "participants": [{"external_id": bad}, {"external_id": "b"}],
                }
            ),
            raw_json({"url": "http://example.invalid/" + bad, "events": ["game.started"]}),
        ]
    out += [
        json.dumps({"game_type": game_type, "seats": [seat, seat], "seed": HUGE}),
        json.dumps({"game_type": game_type, "seats": [seat, seat], "options": {"rounds": HUGE}}),
        json.dumps({"command": {"type": "bank", "amount": HUGE}}),
        json.dumps({"command": {"type": "bank", "amount": -HUGE}}),
        json.dumps({"to_version": HUGE}),
        json.dumps({"command": {"type": "bank", "amount": 1e308 * 10}}).replace("Infinity", "1e999"),
    ]
    return out


def operations() -> list[tuple[str, str, bool, list[str]]]:
    """(method, path template, takes a body, its query parameters) of every operation with some input."""
    doc = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    found = []
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            if method not in ("get", "post", "delete"):
                continue
            params = op.get("parameters", []) + ops.get("parameters", [])
            query = [p["name"] for p in params if p.get("in") == "query"]
            if "{" in path or "requestBody" in op or query:
                found.append((method, path, "requestBody" in op, query))
    return found


def snapshot(runtime) -> list:
    store = runtime.store
    streams = store.list_streams(limit=200)
    return [
        (
            s.stream,
            s.version,
            s.generation,
            s.status,
            json.dumps(s.metadata, sort_keys=True),
            [e.hash for e in store.read(s.stream)],
        )
        for s in streams
    ]


def fill(template: str, values: dict[str, str]) -> str:
    for name, value in values.items():
        template = template.replace("{" + name + "}", value)
    return template


def test_hostile_input_gets_4xx_problems_and_changes_nothing(durable):  # noqa: F811
    app, runtime = durable
    client = app.test_client()
    game = create_secret_game(client, seats=2, rounds=3)
    token = game["seat_tokens"][0]["token"]
    good = {
        "game_id": game["id"],
        "version": "1",
        "tournament_id": "t_" + "0" * 20,
        "sub_id": "wh_" + "0" * 20,
        "message_id": "msg_" + "0" * 32,
        "code": "unknown_game",
        "game_type": "murano",
    }
    before = snapshot(runtime)
    seen = 0

    def check(response, what):
        nonlocal seen
        seen += 1
        assert 400 <= response.status_code < 500, (what, response.status_code, response.get_data()[:300])
        assert response.mimetype == "application/problem+json", (what, response.mimetype)
        assert response.get_json()["code"], what

    for method, template, takes_body, query in operations():
        headers = {"Authorization": f"Bearer {token}"}
        for bad in [NUL, CONTROL, "9" * 5000, "%00", "%ED%A0%80"]:  # a URL cannot carry a lone surrogate
            for name in [n for n in good if "{" + n + "}" in template]:
                url = fill(template, {**good, name: bad.replace("/", "")})
                response = client.open(
                    url,
                    method=method.upper(),
                    headers=headers,
                    data="{}" if takes_body else None,
                    content_type="application/json",
                )
                if response.status_code in (200, 201, 204):
                    raise AssertionError((method, url, response.status_code))
                check(response, (method, url))
            for param in query:
                if True:
                    url = fill(template, good)
                    response = client.open(url, method=method.upper(), headers=headers, query_string={param: bad})
                    check(response, (method, url, param))
        if takes_body:
            for body in bodies("secret_numbers"):
                url = fill(template, good)
                response = client.open(
                    url,
                    method=method.upper(),
                    headers=headers,
                    data=body.encode("utf-8", "surrogatepass"),
                    content_type="application/json",
                )
                check(response, (method, url, body[:80]))
    assert seen > 400
    assert snapshot(runtime) == before


def test_a_list_over_its_bound_is_refused_before_its_items_are_read(client, runtime, monkeypatch):
    """A 4 MB body of 100,000 seats (or commands, participants) is refused by its length alone: reading every
    item first cost seconds of a worker's CPU per request."""
    from marshmallow import fields

    from workers import apikeys

    _, key = apikeys.create_key(runtime.store, "site")
    read = 0
    nested = fields.Nested._deserialize

    def counted(self, *args, **kwargs):
        nonlocal read
        read += 1
        return nested(self, *args, **kwargs)

    monkeypatch.setattr(fields.Nested, "_deserialize", counted)
    many = 100_000
    game = create_secret_game(client)
    token = {"Authorization": f"Bearer {game['seat_tokens'][0]['token']}"}
    for url, body, headers in (
        ("/games", {"game_type": "secret_numbers", "seats": [{"kind": "human"}] * many}, {}),
        (f"/games/{game['id']}/commands", {"commands": [{"type": "pass"}] * many}, token),
        (
            "/tournaments",
            {
                "name": "cup",
                "game_type": "secret_numbers",
                "format": "round_robin",
                "participants": [{"bot_level": "random"}] * many,
                "table_size": {"min": 2, "max": 2},
            },
            {"Authorization": f"Bearer {key}"},
        ),
    ):
        read = 0
        answer = client.post(url, json=body, headers=headers)
        problem = answer.get_json()
        assert answer.status_code == 400 and problem["code"] == "invalid_request", (url, problem)
        assert "Length must be between" in json.dumps(problem), (url, problem)
        assert read <= 1, (url, read)  # the tournament's table_size is one nested object


def test_a_trailing_newline_fails_the_patterns_it_would_slip_past(client, runtime):
    """A pattern must match the whole value: ``re.match`` lets ``$`` match before a final newline, which would take
    "Ann\\n" as a name, and a webhook URL or secret the published patterns refuse (they would be stored as sent)."""
    from tests.api.conftest import integrator

    seat = {"kind": "human", "name": "x"}
    named = client.post("/games", json={"game_type": "secret_numbers", "seats": [{**seat, "name": "Ann\n"}, seat]})
    assert named.status_code == 400 and "name" in named.get_data(as_text=True)
    key = integrator(runtime)
    url = {"url": "http://127.0.0.1/hook\n", "events": ["game.turn"]}
    secret = {"url": "http://127.0.0.1/hook", "events": ["game.turn"], "secret": "whsec_" + "A" * 32 + "\n"}
    for body in (url, secret):
        answer = client.post("/webhooks", json=body, headers=key)
        assert answer.status_code == 400, (body, answer.get_json())
    game = create_secret_game(client)
    resumed = client.get(f"/games/{game['id']}/stream?max_seconds=1&last_event_id=0.1%0A")
    assert resumed.status_code == 400
    assert client.get("/webhooks", headers=key).get_json()["webhooks"] == []
