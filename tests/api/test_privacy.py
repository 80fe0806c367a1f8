"""Who sees which games in GET /games, and who sees a seat's external_id (docs/limits.md)."""

from __future__ import annotations

import pytest

from tests.api.conftest import auth
from tests.api.stores import durable  # noqa: F401 - fixture
from workers import apikeys


def make(client, headers=None, public=None, external=None):
    seat = {"kind": "human", "name": "Ann"}
    if external:
        seat["external_id"] = external
    body = {"game_type": "secret_numbers", "seats": [seat, {"kind": "human", "name": "Ben"}], "options": {"rounds": 1}}
    if public is not None:
        body["public"] = public
    response = client.post("/games", json=body, headers=headers or {})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def listed(client, headers=None, limit=2):
    """Every id the caller is listed, following the pages to the end."""
    ids, url = [], f"/games?limit={limit}"
    while url:
        response = client.get(url, headers=headers or {})
        assert response.status_code == 200
        ids += [g["id"] for g in response.get_json()["games"]]
        link = response.headers.get("Link")
        url = link[1 : link.index(">")] if link else None
    return set(ids)


@pytest.fixture
def games(durable):  # noqa: F811
    app, runtime = durable
    client = app.test_client()
    _, one = apikeys.create_key(runtime.store, "one")
    _, two = apikeys.create_key(runtime.store, "two")
    made = {
        "anonymous": make(client)["id"],
        "anonymous_unlisted": make(client, public=False)["id"],
        "one": make(client, auth(one), external="ann@example.com")["id"],
        "one_public": make(client, auth(one), public=True, external="ann@example.com")["id"],
        "two": make(client, auth(two))["id"],
    }
    return client, auth(one), auth(two), made


def test_an_anonymous_caller_is_listed_public_games_created_without_a_key(games):
    client, _, _, made = games
    assert listed(client) == {made["anonymous"]}
    seat_token = make(client)["seat_tokens"][0]["token"]  # a seat token is no key: the same listing
    assert made["one"] not in listed(client, auth(seat_token)) and made["one_public"] not in listed(client)


def test_a_key_is_listed_its_own_games_and_the_public_ones(games):
    client, one, two, made = games
    assert listed(client, one) == {made["anonymous"], made["one"], made["one_public"], made["two"]} - {made["two"]}
    assert listed(client, two) == {made["anonymous"], made["one_public"], made["two"]}


def test_an_unlisted_game_is_still_reachable_by_its_id(games):
    client, _, _, made = games
    assert client.get(f"/games/{made['anonymous_unlisted']}").status_code == 200


def test_external_id_is_shown_only_to_the_key_that_set_it(games):
    client, one, two, made = games
    for game in ("one", "one_public"):
        gid = made[game]
        assert client.get(f"/games/{gid}", headers=one).get_json()["seats"][0]["external_id"] == "ann@example.com"
        assert client.get(f"/games/{gid}", headers=two).get_json()["seats"][0]["external_id"] is None
        assert client.get(f"/games/{gid}").get_json()["seats"][0]["external_id"] is None
    by_id = {g["id"]: g for g in client.get("/games?limit=50", headers=two).get_json()["games"]}
    assert by_id[made["one_public"]]["seats"][0]["external_id"] is None
    mine = {g["id"]: g for g in client.get("/games?limit=50", headers=one).get_json()["games"]}
    assert mine[made["one_public"]]["seats"][0]["external_id"] == "ann@example.com"


def test_a_seat_of_a_keyed_game_does_not_see_external_ids(durable):  # noqa: F811
    app, runtime = durable
    client = app.test_client()
    _, key = apikeys.create_key(runtime.store, "site")
    created = make(client, auth(key), external="user-17")
    assert created["seats"][0]["external_id"] == "user-17"  # the creating key's own answer
    token = created["seat_tokens"][1]["token"]
    seen = client.get(f"/games/{created['id']}", headers=auth(token)).get_json()
    assert [s["external_id"] for s in seen["seats"]] == [None, None]


def test_public_takes_a_boolean_only(durable):  # noqa: F811
    app, _ = durable
    response = app.test_client().post(
        "/games", json={"game_type": "secret_numbers", "seats": [{"kind": "human"}], "public": "yes"}
    )
    assert response.status_code == 400


def test_the_memory_store_lists_by_the_same_rules(client, runtime):
    _, one = apikeys.create_key(runtime.store, "one")
    anonymous, hidden = make(client)["id"], make(client, public=False)["id"]
    private, public = make(client, auth(one))["id"], make(client, auth(one), public=True)["id"]
    assert listed(client) == {anonymous}
    assert listed(client, auth(one)) == {anonymous, private, public}
    assert hidden not in listed(client, auth(one))


def test_an_unknown_key_is_refused_rather_than_listed_as_anonymous(client):
    response = client.get("/games", headers=auth("twk_" + "x" * 43))
    assert response.status_code == 401 and response.get_json()["code"] == "unauthorized"
