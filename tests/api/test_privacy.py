"""Who sees which games in GET /games, and who sees a seat's external_id (docs/limits.md)."""

from __future__ import annotations

import hashlib
import json

import pytest

from domain import registry
from tests.api.conftest import auth
from tests.api.stores import durable  # noqa: F401 - fixture
from tests.api.test_signed_chain import signed  # noqa: F401 - fixture
from workers import apikeys
from workers.game_model import SEAT_IDS, id_commitment


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


# ----------------------------------------------------------------- external ids out of the chain and of public reads
ANN, BO = "ann.private@example.com", "bo-site-user-77"


def finished_key_game(client, key):
    """A secret_numbers game created by ``key`` with two external ids, played to its end."""
    created = client.post(
        "/games",
        json={
            "game_type": "secret_numbers",
            "options": {"rounds": 1},
            "seats": [{"kind": "human", "name": "Ann", "external_id": ANN}, {"kind": "human", "external_id": BO}],
            "public": True,
        },
        headers=key,
    ).get_json()
    tokens = {t["seat"]: t["token"] for t in created["seat_tokens"]}
    for seat in (0, 1):
        played = client.post(
            f"/games/{created['id']}/commands",
            json={"command": {"type": "bank", "amount": 1}},
            headers=auth(tokens[seat]),
        )
        assert played.status_code == 200, played.get_json()
    assert client.get(f"/games/{created['id']}").get_json()["status"] == "finished"
    return created["id"], tokens


def public_reads(client, game_id, headers):
    """Every read of a game that is not the creating key's game body or listing, as one text per path."""
    paths = [
        f"/games/{game_id}",
        f"/games/{game_id}/export",
        f"/games/{game_id}/audit",
        f"/games/{game_id}/history",
        f"/games/{game_id}/replay",
        f"/games/{game_id}/events",
        f"/games/{game_id}/stream?max_seconds=1&format=ndjson",
        "/games?limit=100",
    ]
    out = {}
    for path in paths:
        response = client.get(path, headers=headers)
        assert response.status_code == 200, (path, response.get_data(as_text=True)[:300])
        out[path] = response.get_data(as_text=True)
    return out


def test_a_finished_key_game_serves_its_external_ids_to_nobody_else(signed):  # noqa: F811
    runtime, client, _, _ = signed  # a store that signs its heads, so that the export verifies
    _, one = apikeys.create_key(runtime.store, "one")
    _, two = apikeys.create_key(runtime.store, "two")
    game_id, tokens = finished_key_game(client, auth(one))
    callers = {"anonymous": {}, "another key": auth(two), "a seat": auth(tokens[1])}
    for who, headers in callers.items():
        for path, text in public_reads(client, game_id, headers).items():
            assert ANN not in text and BO not in text, (who, path)
    # the export is the same public file for its creator too, and the signed chain does not hold the ids
    export = client.get(f"/games/{game_id}/export", headers=auth(one)).get_data(as_text=True)
    assert ANN not in export and BO not in export
    creation = json.dumps(runtime.store.stream_info(game_id).creation)
    assert ANN not in creation and BO not in creation
    report = client.post("/verify", json={"export": export}).get_json()
    assert report["ok"], report
    # the creating key still sees them
    mine = client.get(f"/games/{game_id}", headers=auth(one)).get_json()
    assert [s["external_id"] for s in mine["seats"]] == [ANN, BO]
    listed_mine = {g["id"]: g for g in client.get("/games?limit=100", headers=auth(one)).get_json()["games"]}
    assert [s["external_id"] for s in listed_mine[game_id]["seats"]] == [ANN, BO]


def test_the_chain_commits_to_each_seats_ids_without_holding_them(durable):  # noqa: F811
    app, runtime = durable
    client = app.test_client()
    _, one = apikeys.create_key(runtime.store, "one")
    game_id, _ = finished_key_game(client, auth(one))
    seats = runtime.store.stream_info(game_id).creation["seats"]
    record = runtime.store.get_document(SEAT_IDS, game_id)["seats"]
    for seat, external in ((0, ANN), (1, BO)):
        salt = record[str(seat)]["salt"]
        assert seats[seat]["id_commitment"] == id_commitment(salt, {"external_id": external})
        assert seats[seat]["id_commitment"] != id_commitment(salt, {"external_id": external + "x"})
    # a salt per seat: equal ids in two games give unrelated commitments
    again, _ = finished_key_game(client, auth(one))
    assert runtime.store.stream_info(again).creation["seats"][0]["id_commitment"] != seats[0]["id_commitment"]


def test_a_game_created_with_ids_in_its_metadata_still_shows_them_to_its_key_only(durable):  # noqa: F811
    app, runtime = durable
    client = app.test_client()
    one_id, one = apikeys.create_key(runtime.store, "one")
    _, two = apikeys.create_key(runtime.store, "two")
    rules = registry.get("secret_numbers")
    setup = rules.setup(3, 2, {"rounds": 1})
    seats = [
        {"seat": 0, "kind": "human", "name": "Ann", "external_id": "old-ann"},
        {"seat": 1, "kind": "human", "name": "Bo"},
    ]
    metadata = {"seed": 3, "options": {"rounds": 1}, "seats": seats, "setup_version": len(setup), "undo": True}
    runtime.store.create_stream("0" * 32, "secret_numbers", {**metadata, "created_by": one_id.key_id, "clock": None})
    runtime.store.append("0" * 32, setup, 0, meta={"actor": "setup", "seat": None, "move": "setup"})
    assert client.get(f"/games/{'0' * 32}", headers=auth(one)).get_json()["seats"][0]["external_id"] == "old-ann"
    assert client.get(f"/games/{'0' * 32}", headers=auth(two)).get_json()["seats"][0]["external_id"] is None
    assert client.get(f"/games/{'0' * 32}").get_json()["seats"][0]["external_id"] is None


def human_tournament(client, key, ids):
    """A round robin of one 3-player table of humans with these external ids, played to its end."""
    created = client.post(
        "/tournaments",
        json={
            "name": "Private cup",
            "game_type": "secret_numbers",
            "format": "round_robin",
            "options": {"rounds": 1},
            "table_size": {"min": 3, "max": 3},
            "participants": [{"external_id": i} for i in ids],
            "seed": 4,
        },
        headers=key,
    )
    assert created.status_code == 201, created.get_json()
    t = created.get_json()
    table = t["rounds"][0]["tables"][0]
    tokens = {tok["seat"]: tok["token"] for tok in table["seat_tokens"]}
    game_id = table["game_id"]
    while (game := client.get(f"/games/{game_id}").get_json())["status"] != "finished":
        seat = game["to_act"][0]
        client.post(f"/games/{game_id}/commands", json={"command": {"type": "pass"}}, headers=auth(tokens[seat]))
    return t["id"], game_id


def test_a_tournament_names_its_players_by_external_id_only_to_its_key(durable):  # noqa: F811
    app, runtime = durable
    client = app.test_client()
    one_id, one = apikeys.create_key(runtime.store, "one")
    _, two = apikeys.create_key(runtime.store, "two")
    ids = ["carol@example.com", "dan@example.com", "erin@example.com"]
    tid, game_id = human_tournament(client, auth(one), ids)
    for who, headers in {"anonymous": {}, "another key": auth(two)}.items():
        response = client.get(f"/tournaments/{tid}", headers=headers)
        assert response.status_code == 200
        text = response.get_data(as_text=True)
        assert not [i for i in ids if i in text], who
        public = response.get_json()
        assert public["status"] == "finished"
        stand_ins = {p["id"] for p in public["participants"]}
        assert stand_ins == {"~p1", "~p2", "~p3"} and all(p["external_id"] is None for p in public["participants"])
        assert {row["player"] for row in public["standings"]} == stand_ins
        assert set(public["rounds"][0]["tables"][0]["players"]) == stand_ins
        for path, text in public_reads(client, game_id, headers).items():
            assert not [i for i in ids if i in text], (who, path)
    own = client.get(f"/tournaments/{tid}", headers=auth(one)).get_json()
    assert {row["player"] for row in own["standings"]} == set(ids)
    assert {p["external_id"] for p in own["participants"]} == set(ids)
    assert [s["external_id"] for s in client.get(f"/games/{game_id}", headers=auth(one)).get_json()["seats"]] != [
        None
    ] * 3
    # ratings still know each player by (key, external id): a second tournament adds to the same rows
    human_tournament(client, auth(one), ids)
    board = client.get("/leaderboards/secret_numbers", headers=auth(one)).get_json()
    assert board["games"] == 2
    assert {row["player"]: row["games"] for row in board["rows"]} == {f"{one_id.key_id}/{i}": 2 for i in ids}
    # everyone else: a stand-in per player, the same for every caller, and no plain digest of a guessable id
    shown = [client.get("/leaderboards/secret_numbers", headers=h).get_data(as_text=True) for h in ({}, auth(two))]
    assert shown[0] == shown[1] and not [i for i in ids if i in shown[0]]
    plain = [f"~{hashlib.sha256(i.encode()).hexdigest()[:16]}" for i in ids]
    rows = json.loads(shown[0])["rows"]
    assert len({r["player"] for r in rows}) == 3 and not [p for p in plain if p in shown[0]]


def test_a_tournament_stored_with_players_named_by_id_shows_stand_ins_as_names(durable):  # noqa: F811
    app, runtime = durable
    client = app.test_client()
    _, one = apikeys.create_key(runtime.store, "one")
    ids = ["fay@example.com", "gus@example.com", "hal@example.com"]
    tid, _ = human_tournament(client, auth(one), ids)
    stored = runtime.store.get_document("tournaments", tid)
    for p in stored["participants"]:
        p["name"] = p["id"]  # as tournaments were created before a default name stopped being the id
    runtime.store.put_document("tournaments", tid, stored)
    text = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert not [i for i in ids if i in text]
    public = json.loads(text)
    assert [p["name"] for p in public["participants"]] == ["~p1", "~p2", "~p3"]
    own = client.get(f"/tournaments/{tid}", headers=auth(one)).get_json()
    assert [p["name"] for p in own["participants"]] == ids
