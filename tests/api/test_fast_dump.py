"""The schemas' compiled ``dump`` gives marshmallow's own output, over real games and awkward values."""

from __future__ import annotations

import random

import marshmallow as ma
import pytest
from marshmallow import fields

from api import schemas
from api.schemas import Schema
from domain import registry
from tests.api.conftest import auth


@pytest.fixture
def checked_dumps(monkeypatch):
    """Every response dumped in the test is also dumped by marshmallow itself; the two must be equal."""
    compiled = Schema.dump
    seen: list[str] = []

    def dump(self, obj, *, many=None):
        fast = compiled(self, obj, many=many)
        assert fast == ma.Schema.dump(self, obj, many=many), type(self).__name__
        seen.append(type(self).__name__)
        return fast

    monkeypatch.setattr(Schema, "dump", dump)
    return seen


@pytest.mark.parametrize("game_type", registry.names())
def test_compiled_dumps_equal_marshmallow_over_a_played_game(client, checked_dumps, game_type):
    rules = registry.get(game_type)
    seats = [{"kind": "human"}] * rules.min_players + [{"kind": "bot", "level": "random"}]
    seats = seats[: rules.max_players]
    created = client.post("/games", json={"game_type": game_type, "seed": 5, "seats": seats})
    assert created.status_code == 201
    game = created.get_json()
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    rng = random.Random(3)
    for _ in range(40):
        state = client.get(f"/games/{game['id']}").get_json()
        acting = [s for s in state["to_act"] if s in tokens]
        if not acting:
            break
        legal = client.get(f"/games/{game['id']}/legal-commands", headers=auth(tokens[acting[0]])).get_json()
        if not legal["commands"]:
            break
        moved = client.post(
            f"/games/{game['id']}/commands",
            json={"command": rng.choice(legal["commands"])},
            headers=auth(tokens[acting[0]]),
        )
        assert moved.status_code == 200
    client.get(f"/games/{game['id']}/events")
    client.get("/games")
    assert {"GameSchema", "LegalCommandsSchema", "MoveResultSchema", "EventPageSchema"} <= set(checked_dumps)


class Inner(Schema):
    n = fields.Integer()


class Awkward(Schema):
    count = fields.Integer()
    ratio = fields.Float()
    name = fields.String()
    flag = fields.Boolean()
    blob = fields.Dict()
    numbers = fields.List(fields.Integer())
    floats = fields.List(fields.Float())
    inner = fields.Nested(Inner)
    inners = fields.List(fields.Nested(Inner))
    renamed = fields.Integer(data_key="Renamed")
    defaulted = fields.String(dump_default="d")
    when = fields.DateTime()
    counted = fields.Integer(attribute="extra")  # absent by its name, present (in one value) by its attribute
    items = fields.Raw()  # absent from a dict, marshmallow falls back to the dict's method of that name
    copy = fields.Raw(dump_default=None)


@pytest.mark.parametrize(
    "value",
    [
        {},
        {"count": 3, "ratio": 1.5, "name": "x", "flag": True, "blob": {"a": [1]}, "numbers": [1, 2], "extra": 1},
        {"count": True, "ratio": 2, "name": 7, "flag": 1, "numbers": [True, 2], "floats": [1, 2.5]},  # coerced
        {"count": None, "ratio": None, "name": None, "flag": None, "blob": None, "numbers": None, "inner": None},
        {"inner": {"n": 1, "m": 2}, "inners": [{"n": 2}, {"n": False}], "renamed": 4},
        {"when": __import__("datetime").datetime(2026, 1, 2, 3, 4, 5)},
        {"counted": 9, "extra": 1},  # a field read from another attribute: its own name's value is not it
    ],
)
def test_compiled_dump_equals_marshmallow_on_awkward_values(value):
    schema = Awkward()
    assert schema.dump(value) == ma.Schema.dump(schema, value)
    assert schema.dump([value, value], many=True) == ma.Schema.dump(schema, [value, value], many=True)


def test_every_api_schema_has_the_compiled_dump():
    plain = [
        name
        for name, value in vars(schemas).items()
        if isinstance(value, type) and issubclass(value, ma.Schema) and not issubclass(value, Schema)
    ]
    assert plain == []
