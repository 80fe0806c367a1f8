"""JSON responses through orjson (`api/fast_json.py`): the same documents as Flask's encoder would send."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

from flask import Flask
from flask.json.provider import DefaultJSONProvider

from api.fast_json import FastJSONProvider


@dataclass
class Point:
    x: int
    y: int


def both(obj):
    app = Flask("t")
    with app.app_context():
        plain = DefaultJSONProvider(app).response(obj).get_data()
        fast = FastJSONProvider(app).response(obj).get_data()
    return plain, fast


def test_a_game_body_encodes_to_the_same_document_with_sorted_keys_and_a_final_newline(client):
    created = client.post("/games", json={"game_type": "puerto_rico", "seats": [{"kind": "human"}] * 3})
    body = client.get(f"/games/{created.get_json()['id']}").get_json()
    plain, fast = both(body)
    assert json.loads(fast) == json.loads(plain) == body
    assert fast.endswith(b"}\n") and list(json.loads(fast)) == sorted(body)


def test_what_flask_encodes_specially_is_encoded_as_flask_does():
    when = datetime(2026, 11, 26, 7, 0, tzinfo=UTC)
    plain, fast = both({"when": when, "point": Point(1, 2), "text": "Señor ☃"})
    assert (
        json.loads(fast)
        == json.loads(plain)
        == {
            "when": "Thu, 26 Nov 2026 07:00:00 GMT",
            "point": {"x": 1, "y": 2},
            "text": "Señor ☃",
        }
    )


def test_what_orjson_refuses_falls_back_to_flasks_encoder():
    for awkward in ({"big": 2**70}, {"lone": "\udc80"}, {3: "an int key"}):
        plain, fast = both(awkward)
        assert fast == plain
