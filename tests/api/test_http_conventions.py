"""HTTP conventions a careful integrator expects: Location, conditional requests, authentication challenges,
rate-limit header fields, content negotiation, CORS and the version header."""

from __future__ import annotations

from pathlib import Path

import yaml

from api.app import create_app
from tests.api.conftest import auth, create_secret_game
from workers import apikeys

ROOT = Path(__file__).resolve().parents[2]
BANK = {"command": {"type": "bank", "amount": 1}}


def test_every_201_has_a_location_that_answers(client, runtime):
    game = client.post("/games", json={"game_type": "secret_numbers", "seats": [{"kind": "human"}] * 2})
    assert game.status_code == 201 and game.headers["Location"] == f"/games/{game.get_json()['id']}"
    assert client.get(game.headers["Location"]).status_code == 200
    _, key = apikeys.create_key(runtime.store, "site")
    hook = client.post(
        "/webhooks", json={"url": "http://127.0.0.1:9/hook", "events": ["game.started"]}, headers=auth(key)
    )
    assert hook.status_code == 201 and client.get(hook.headers["Location"], headers=auth(key)).status_code == 200
    tournament = client.post(
        "/tournaments",
        headers=auth(key),
        json={
            "name": "cup",
            "game_type": "secret_numbers",
            "format": "round_robin",
            "participants": [{"bot_level": "random"}, {"bot_level": "random"}],
            "table_size": {"min": 2, "max": 2},
        },
    )
    assert tournament.status_code == 201, tournament.get_json()
    assert client.get(tournament.headers["Location"]).status_code == 200


def test_if_none_match_gives_304_until_the_game_moves(client):
    game = create_secret_game(client)
    url, token = f"/games/{game['id']}", game["seat_tokens"][0]["token"]
    first = client.get(url)
    etag = first.headers["ETag"]
    assert etag.startswith(f'"{game["etag"]}-')  # the version, then a digest of the body
    for value in (etag, f"W/{etag}", f'"x", {etag}', "*"):
        again = client.get(url, headers={"If-None-Match": value})
        assert again.status_code == 304 and again.headers["ETag"] == etag and not again.data, value
    assert client.get(url, headers={"If-None-Match": '"0.1"'}).status_code == 200
    legal = client.get(url + "/legal-commands", headers=auth(token))
    assert (
        client.get(url + "/legal-commands", headers={**auth(token), "If-None-Match": legal.headers["ETag"]}).status_code
        == 304
    )
    assert client.post(url + "/commands", json=BANK, headers=auth(token)).status_code == 200
    moved = client.get(url, headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["ETag"] != etag


def test_a_read_whose_body_changed_is_not_answered_304_though_the_game_did_not_move(client, runtime, monkeypatch):
    """A client that cached a read before the server changed what a read says (a new field, a reworded label) and
    revalidates it gets the new body, not a 304 that would keep the old one for as long as the game does not move
    (a finished game: for ever). The tag is the version and a digest of the body, so it names one representation."""
    from api import games as games_api

    game = create_secret_game(client)
    url, token = f"/games/{game['id']}", game["seat_tokens"][0]["token"]
    read, legal = client.get(url), client.get(url + "/legal-commands", headers=auth(token))
    real_body = games_api.game_body
    assert legal.get_json()["choices"], "the legal commands' choices must change for this test to show anything"
    monkeypatch.setattr(games_api, "game_body", lambda *a, **k: {**real_body(*a, **k), "resign_level": "hard"})
    monkeypatch.setattr(games_api.game_contract, "choices", lambda *a: [])
    runtime.service.forget()  # a server started on the changed code keeps nothing of the old one
    again = client.get(url, headers={"If-None-Match": read.headers["ETag"]})
    assert again.status_code == 200 and again.get_json()["resign_level"] == "hard", again.status_code
    assert again.headers["ETag"] != read.headers["ETag"] and again.get_json()["etag"] == game["etag"]
    assert client.get(url, headers={"If-None-Match": again.headers["ETag"]}).status_code == 304
    legal_again = client.get(url + "/legal-commands", headers={**auth(token), "If-None-Match": legal.headers["ETag"]})
    assert legal_again.status_code == 200 and legal_again.get_json()["choices"] == [], legal_again.status_code
    moved = client.post(url + "/commands", json=BANK, headers={**auth(token), "If-Match": again.headers["ETag"]})
    assert moved.status_code == 200, moved.get_json()  # a move takes a read's tag as it takes the version


def test_each_seat_s_view_has_its_own_entity_tag(client):
    """Seats see different bodies of the same version (their own secrets), so one seat's tag never earns another
    caller a 304 (RFC 9110 8.8.3: a strong tag names one representation); a move still takes any of them."""
    game = create_secret_game(client)
    url = f"/games/{game['id']}"
    tokens = [t["token"] for t in game["seat_tokens"]]
    reads = [client.get(url)] + [client.get(url, headers=auth(token)) for token in tokens]
    tags = [read.headers["ETag"] for read in reads]
    assert len(set(tags)) == 3, tags
    assert reads[1].get_json()["state"] != reads[2].get_json()["state"]
    for token, own, other in ((tokens[0], tags[1], tags[2]), (tokens[1], tags[2], tags[1])):
        assert client.get(url, headers={**auth(token), "If-None-Match": own}).status_code == 304
        for foreign in (other, tags[0]):
            again = client.get(url, headers={**auth(token), "If-None-Match": foreign})
            assert again.status_code == 200 and again.headers["ETag"] == own
    assert client.get(url, headers={"If-None-Match": tags[1]}).status_code == 200
    legal = client.get(url + "/legal-commands", headers=auth(tokens[0]))
    other_legal = client.get(
        url + "/legal-commands", headers={**auth(tokens[1]), "If-None-Match": legal.headers["ETag"]}
    )
    assert other_legal.status_code == 200
    moved = client.post(url + "/commands", json=BANK, headers={**auth(tokens[0]), "If-Match": tags[1]})
    assert moved.status_code == 200, moved.get_json()


def test_if_match_takes_star_lists_and_compares_strongly(client):
    game = create_secret_game(client, seats=1, rounds=5)
    url, token = f"/games/{game['id']}", game["seat_tokens"][0]["token"]

    def move(if_match):
        return client.post(url + "/commands", json=BANK, headers={**auth(token), "If-Match": if_match})

    assert move("*").status_code == 200
    current = client.get(url).get_json()["etag"]
    weak = move(f'W/"{current}"')
    assert weak.status_code == 412  # a weak tag never matches If-Match
    assert "weak" in weak.get_json()["detail"] and "not ;" not in weak.get_json()["detail"], weak.get_json()
    assert move(f'"9.9", "{current}"').status_code == 200
    stale = move(f'"{current}", "8.8"')
    assert stale.status_code == 412 and stale.get_json()["code"] == "stale_version"
    assert move("0.0").status_code == 412  # a bare tag (the body's `etag` as is) is taken as a strong tag
    assert move('"unterminated').status_code == 400
    assert move("not a tag list").status_code == 400


def test_a_query_parameter_given_twice_is_refused(client):
    for url in ("/games?status=finished&status=active", "/games?limit=1&limit=1", "/tournaments?x=1&x=2"):
        answer = client.get(url)
        assert answer.status_code == 400 and answer.get_json()["code"] == "invalid_request", url
    assert client.get("/games?status=finished&limit=2").status_code == 200
    arabic_five = client.get("/games?limit=%D9%A5")  # "٥": int() reads it as 5
    assert arabic_five.status_code == 400 and "ASCII" in arabic_five.get_json()["detail"]


def test_a_doubled_slash_is_a_problem_not_an_html_redirect(client):
    game = create_secret_game(client)
    for method, url in (("get", f"/games//{game['id']}"), ("post", f"/games//{game['id']}/commands")):
        answer = getattr(client, method)(url, json=BANK if method == "post" else None)
        assert answer.status_code == 404 and answer.mimetype == "application/problem+json", (url, answer.status_code)


def test_an_api_key_where_a_seat_token_is_needed_is_403_not_401(client, runtime):
    """The key is valid, so asking again for credentials (401) would mislead: it is the wrong kind for this."""
    _, key = apikeys.create_key(runtime.store, "site")
    game = create_secret_game(client, headers=auth(key))
    for method, path, body in (
        ("post", "stream-tickets", None),
        ("get", "legal-commands", None),
        ("post", "commands", BANK),
        ("post", "resign", None),
        ("post", "undo/accept", None),
        ("post", "undo/decline", None),
    ):
        answer = getattr(client, method)(f"/games/{game['id']}/{path}", headers=auth(key), json=body)
        assert answer.status_code == 403 and answer.get_json()["code"] == "forbidden", (path, answer.get_json())
        assert "seat token" in answer.get_json()["detail"]
        assert getattr(client, method)(f"/games/{game['id']}/{path}", json=body).status_code == 401
    assert client.get(f"/games/{game['id']}").get_json()["version"] == game["version"]  # nothing was played


def test_401_carries_a_bearer_challenge(client):
    game = create_secret_game(client)
    response = client.get(f"/games/{game['id']}/legal-commands")
    assert response.status_code == 401 and response.headers["WWW-Authenticate"].startswith("Bearer ")
    wrong = client.get(f"/games/{game['id']}", headers=auth("tws_not-a-token"))
    assert wrong.status_code == 401 and "WWW-Authenticate" in wrong.headers


def test_api_key_requests_carry_rate_limit_fields_and_429_says_when(runtime):
    app = create_app(runtime)
    app.config["RATE_LIMIT_PER_MINUTE"] = 3
    client = app.test_client()
    _, key = apikeys.create_key(runtime.store, "site")
    seen = [client.get("/webhooks", headers=auth(key)) for _ in range(4)]
    assert [r.status_code for r in seen] == [200, 200, 200, 429]
    assert seen[0].headers["RateLimit-Policy"] == '"key";q=3;w=60'
    assert [r.headers["RateLimit"].split(";")[1] for r in seen] == ["r=2", "r=1", "r=0", "r=0"]
    assert int(seen[3].headers["Retry-After"]) >= 1 and seen[3].get_json()["code"] == "rate_limited"
    assert "RateLimit" not in client.get("/games").headers  # no key, not limited here


def test_415_for_a_body_that_is_not_json_and_406_for_an_unacceptable_accept(client):
    response = client.post("/games", data="game_type=murano", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415 and response.get_json()["code"] == "unsupported_media_type"
    assert client.post("/games", data="{}").status_code == 415  # no Content-Type at all
    game = create_secret_game(client)
    refused = client.get(f"/games/{game['id']}", headers={"Accept": "text/html"})
    assert refused.status_code == 406 and refused.mimetype == "application/problem+json"
    assert client.get(f"/games/{game['id']}", headers={"Accept": "application/*"}).status_code == 200
    assert client.get(f"/games/{game['id']}/stream", headers={"Accept": "application/json"}).status_code == 406


def test_an_export_is_json_lines_or_plain_text_as_asked(client):
    game = create_secret_game(client, seats=1, rounds=1)
    token = game["seat_tokens"][0]["token"]
    client.post(f"/games/{game['id']}/commands", json={"command": {"type": "pass"}}, headers=auth(token))
    url = f"/games/{game['id']}/export"
    assert client.get(url).mimetype == "application/x-ndjson"
    assert client.get(url, headers={"Accept": "text/plain"}).mimetype == "text/plain"
    assert client.get(url, headers={"Accept": "application/json"}).status_code == 406


def test_cors_answers_listed_origins_only(runtime):
    app = create_app(runtime, {"CORS_ORIGINS": ["https://table.example"]})
    client = app.test_client()
    preflight = client.options(
        "/games",
        headers={
            "Origin": "https://table.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "Content-Type, Authorization",
        },
    )
    assert preflight.headers["Access-Control-Allow-Origin"] == "https://table.example"
    assert "authorization" in preflight.headers["Access-Control-Allow-Headers"].lower()
    listed = client.get("/games", headers={"Origin": "https://table.example"})
    assert listed.headers["Access-Control-Allow-Origin"] == "https://table.example"
    assert "ETag" in listed.headers["Access-Control-Expose-Headers"]
    other = client.get("/games", headers={"Origin": "https://elsewhere.example"})
    assert "Access-Control-Allow-Origin" not in other.headers


def test_cors_allows_every_method_the_api_routes(runtime):
    """A browser on a listed origin may call every operation: each method a route answers is in the preflight's
    allowed methods (PATCH came with the webhook pause)."""
    app = create_app(runtime, {"CORS_ORIGINS": ["https://table.example"]})
    client = app.test_client()
    routed = {m for rule in app.url_map.iter_rules() for m in rule.methods or ()} - {"HEAD", "OPTIONS"}
    assert {"GET", "POST", "PATCH", "DELETE"} <= routed
    for method in sorted(routed):
        preflight = client.options(
            "/webhooks/wh_0123456789abcdef0123",
            headers={"Origin": "https://table.example", "Access-Control-Request-Method": method},
        )
        assert method in preflight.headers.get("Access-Control-Allow-Methods", ""), (method, dict(preflight.headers))


def test_every_response_names_the_api_version_of_the_document(client):
    version = yaml.safe_load((ROOT / "openapi.yaml").read_text())["info"]["version"]
    assert client.get("/health").headers["API-Version"] == version
    assert client.get("/games/" + "0" * 32).headers["API-Version"] == version
    assert client.get("/nowhere").headers["API-Version"] == version


def test_games_are_listed_newest_first_with_filters_and_link_pagination(client):
    made = [create_secret_game(client, seats=1, rounds=1)["id"] for _ in range(5)]
    finished = made[1]
    token = client.post("/games", json={"game_type": "murano", "seats": [{"kind": "human"}] * 3}).get_json()["id"]
    first = client.get("/games?limit=2&game_type=secret_numbers")
    page = first.get_json()
    assert [g["id"] for g in page["games"]] == made[::-1][:2] and page["next_cursor"] == made[3]
    assert first.headers["Link"].endswith('>; rel="next"')
    link = first.headers["Link"][1 : first.headers["Link"].index(">")]
    assert "game_type=secret_numbers" in link and f"cursor={made[3]}" in link
    ids = [g["id"] for g in page["games"]]
    while "Link" in first.headers:
        link = first.headers["Link"][1 : first.headers["Link"].index(">")]
        first = client.get(link)
        ids += [g["id"] for g in first.get_json()["games"]]
    assert ids == made[::-1]
    assert first.get_json()["next_cursor"] is None
    assert [g["id"] for g in client.get("/games?game_type=murano").get_json()["games"]] == [token]
    game = client.get(f"/games/{finished}").get_json()
    assert game["status"] == "active"
    assert finished in [g["id"] for g in client.get("/games?status=active").get_json()["games"]]
    assert client.get("/games?status=finished").get_json()["games"] == []
    assert client.get("/games?cursor=not-a-cursor").status_code == 400
    # a well-formed cursor that names no game listed to the caller is an error, not the end of the list
    unknown = client.get(f"/games?game_type=secret_numbers&cursor={'0' * 32}")
    assert unknown.status_code == 422 and unknown.get_json()["code"] == "invalid_cursor", unknown.get_json()
    last = client.get(f"/games?cursor={made[0]}")
    assert last.status_code == 200 and last.get_json() == {"games": [], "next_cursor": None}


def test_a_cursor_naming_a_game_not_listed_to_the_caller_is_refused_like_an_unknown_one(client, runtime):
    _, key = apikeys.create_key(runtime.store, "site")
    create_secret_game(client)  # a public game older than the private one: listed after it, were it a cursor
    private = client.post(
        "/games", json={"game_type": "secret_numbers", "seats": [{"kind": "human"}]}, headers=auth(key)
    ).get_json()["id"]
    assert client.get(f"/games?cursor={private}", headers=auth(key)).status_code == 200
    for cursor in (private, "f" * 32):
        refused = client.get(f"/games?cursor={cursor}")
        assert refused.status_code == 422 and refused.get_json()["code"] == "invalid_cursor"
        assert refused.get_json()["detail"] == "cursor names no game of this listing; start again without a cursor"


def test_control_characters_are_unicodes_category_cc_exactly():
    import sys
    import unicodedata

    from api.conventions import has_control_characters

    for code in range(sys.maxunicode + 1):
        if 0xD800 <= code <= 0xDFFF:
            continue  # lone surrogates are refused before this check (bad_text)
        ch = chr(code)
        assert has_control_characters(f"id{ch}x") == (unicodedata.category(ch) == "Cc"), hex(code)


def test_answers_to_a_caller_with_a_token_are_not_for_shared_caches(client):
    game = create_secret_game(client, seats=2, rounds=1)
    token = {"Authorization": f"Bearer {game['seat_tokens'][0]['token']}"}
    for path in ("/events", "/replay", "/states/1", "/history", "/audit", "", "/legal-commands"):
        answer = client.get(f"/games/{game['id']}{path}", headers=token)
        assert answer.status_code == 200, path
        assert "private" in answer.headers["Cache-Control"], path
    assert "Cache-Control" not in client.get("/game-types").headers  # public answers are left to the caches
