"""The contract per game type: the catalogue, typed commands checked before the rules, labelled legal commands."""

from __future__ import annotations

import pytest

from domain import registry
from tests.api.conftest import auth

TYPED = ["puerto_rico", "murano", "amerigo", "archipelago"]


def create(client, game_type, seats=3, seed=5):
    body = {"game_type": game_type, "seats": [{"kind": "human", "name": f"P{i}"} for i in range(seats)], "seed": seed}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.get_json()
    game = response.get_json()
    return game, {t["seat"]: t["token"] for t in game["seat_tokens"]}


def seat_to_act(client, game):
    return client.get(f"/games/{game['id']}").get_json()["to_act"][0]


@pytest.mark.parametrize("name", TYPED)
def test_game_type_serves_the_catalogue_and_the_command_schemas(client, name):
    response = client.get(f"/game-types/{name}")
    assert response.status_code == 200
    body = response.get_json()
    rules = registry.get(name)
    assert body["name"] == name and body["options"] == rules.describe()["options"]
    assert body["catalogue"]["components"] and all(c["effect"] for c in body["catalogue"]["components"])
    assert set(body["commands"]) == set(rules.command_schemas())
    spec = client.get("/openapi.json").get_json()["components"]["schemas"]
    union = spec[body["command_schema"]]
    assert union["discriminator"]["propertyName"] == "type"
    assert set(union["discriminator"]["mapping"]) == set(body["commands"])
    assert body["view_schema"] in spec


def test_an_unknown_game_type_is_404(client):
    response = client.get("/game-types/chess")
    assert response.status_code == 404
    assert response.get_json()["code"] == "unknown_game_type"


@pytest.mark.parametrize("name", TYPED)
def test_legal_commands_carry_labels_and_pass_their_schema(client, name):
    game, tokens = create(client, name)
    seat = seat_to_act(client, game)
    body = client.get(f"/games/{game['id']}/legal-commands", headers=auth(tokens[seat])).get_json()
    assert body["commands"] and [c["command"] for c in body["choices"]] == body["commands"]
    assert all(c["label"].strip() for c in body["choices"])
    response = client.post(
        f"/games/{game['id']}/commands", json={"command": body["commands"][0]}, headers=auth(tokens[seat])
    )
    assert response.status_code == 200, response.get_json()


@pytest.mark.parametrize("name", TYPED)
def test_a_command_with_an_unknown_field_is_refused_before_the_rules(client, runtime, name):
    game, tokens = create(client, name)
    seat = seat_to_act(client, game)
    legal = client.get(f"/games/{game['id']}/legal-commands", headers=auth(tokens[seat])).get_json()["commands"]
    version = runtime.service.info(game["id"]).version
    for bad in ({**legal[0], "extra": True}, {"type": "no_such_command"}):
        response = client.post(f"/games/{game['id']}/commands", json={"command": bad}, headers=auth(tokens[seat]))
        assert response.status_code == 400, (bad, response.get_json())
        assert response.get_json()["code"] == "invalid_request"
    in_list = client.post(
        f"/games/{game['id']}/commands", json={"commands": [legal[0], {**legal[0], "x": 1}]}, headers=auth(tokens[seat])
    )
    assert in_list.status_code == 400 and in_list.get_json()["index"] == 1
    assert runtime.service.info(game["id"]).version == version


def test_a_field_of_the_wrong_type_is_400(client):
    game, tokens = create(client, "puerto_rico")
    seat = seat_to_act(client, game)
    response = client.post(
        f"/games/{game['id']}/commands",
        json={"command": {"type": "select_role", "role": 3}},
        headers=auth(tokens[seat]),
    )
    assert response.status_code == 400
    assert "role" in response.get_json()["detail"]


def test_a_finished_game_has_a_result_of_the_shared_shape(client):
    from tests.api.conftest import create_secret_game

    game = create_secret_game(client, seats=2, rounds=1)
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    for seat in (0, 1):
        client.post(f"/games/{game['id']}/commands", json={"command": {"type": "pass"}}, headers=auth(tokens[seat]))
    result = client.get(f"/games/{game['id']}").get_json()["result"]
    assert set(result) >= {"scores", "ranks", "no_winner", "tiebreaks", "details"}


@pytest.mark.parametrize("name", TYPED)
def test_game_reads_match_the_published_view_schema(client, name):
    import jsonschema_rs

    from domain.contract import as_json_schema

    game, tokens = create(client, name, seats=2)
    view_name = client.get(f"/game-types/{name}").get_json()["view_schema"]
    view = client.get("/openapi.json").get_json()["components"]["schemas"][view_name]
    validator = jsonschema_rs.validator_for(as_json_schema(view))
    for headers in ({}, auth(tokens[0]), auth(tokens[1])):
        state = client.get(f"/games/{game['id']}", headers=headers).get_json()["state"]
        assert validator.is_valid(state), [e.message for e in validator.iter_errors(state)][:3]
