"""Tournaments end to end through the API: a 9-participant swiss of 3-player bot games, standings, ratings."""

from __future__ import annotations

import json

import pytest

from tests.api.conftest import auth
from tests.workers.test_webhooks import Receiver
from workers import apikeys


def create(client, key, **overrides):
    body = {
        "name": "Autumn open",
        "game_type": "secret_numbers",
        "format": "swiss",
        "options": {"rounds": 2},
        "table_size": {"min": 3, "max": 3},
        "participants": [{"bot_level": "random" if i % 2 else "easy"} for i in range(9)],
        "seed": 11,
        **overrides,
    }
    return client.post("/tournaments", json=body, headers=auth(key))


def test_nine_bot_swiss_runs_to_completion_with_standings_and_ratings(site):
    runtime, client, key = site
    receiver = Receiver()
    try:
        client.post(
            "/webhooks",
            headers=auth(key),
            json={"url": receiver.url, "events": ["tournament.round_started", "tournament.finished"]},
        )
        response = create(client, key)
        assert response.status_code == 201, response.get_json()
        tid = response.get_json()["id"]
        t = client.get(f"/tournaments/{tid}").get_json()
        assert t["status"] == "finished" and t["rounds_planned"] == 3 and len(t["rounds"]) == 3
        for round_doc in t["rounds"]:
            assert len(round_doc["tables"]) == 3 and round_doc["byes"] == []
            assert sorted(p for table in round_doc["tables"] for p in table["players"]) == sorted(
                p["id"] for p in t["participants"]
            )
            for table in round_doc["tables"]:
                assert client.get(f"/games/{table['game_id']}").get_json()["status"] == "finished"
        standings = t["standings"]
        assert [row["rank"] for row in standings] == list(range(1, 10))
        assert all(row["games"] == 3 for row in standings)
        assert sum(row["points"] for row in standings) == 3 * 3 * 3  # each table hands out 2 + 1 + 0
        points = [row["points"] for row in standings]
        assert points == sorted(points, reverse=True)
        kinds = [d["type"] for d in receiver.accepted]
        assert kinds == ["tournament.round_started"] * 3 + ["tournament.finished"]
        assert receiver.accepted[-1]["data"]["standings"][0]["player"] == standings[0]["player"]
        board = client.get("/leaderboards/secret_numbers", headers=auth(key)).get_json()
        assert board["games"] == 9
        assert sorted(row["player"].split("/")[1] for row in board["rows"]) == sorted(
            f"{p['id']}@{tid}" for p in t["participants"]
        )
        # other callers see stable stand-ins, never the site's ids
        public = client.get("/leaderboards/secret_numbers").get_json()
        assert [r["ordinal"] for r in public["rows"]] == [r["ordinal"] for r in board["rows"]]
        hidden = [row["player"].split("/")[1] for row in public["rows"] if not row["player"].startswith("bot:")]
        assert hidden and all(h.startswith("~") for h in hidden)
        assert not {h for h in hidden} & {p["id"] for p in t["participants"]}
        assert board["rows"][0]["ordinal"] >= board["rows"][1]["ordinal"]
        # another tournament's bot entrants, numbered alike, are other competitors
        again = create(client, key).get_json()["id"]
        rows = client.get("/leaderboards/secret_numbers", headers=auth(key)).get_json()["rows"]
        assert len(rows) == 18 and {r["player"] for r in rows} >= {f"{key_site(board)}/bot:easy:1@{again}"}
    finally:
        receiver.close()


def key_site(board):
    return board["rows"][0]["player"].split("/")[0]


def test_repeat_opponents_are_avoided_in_swiss(site):
    runtime, client, key = site
    tid = create(client, key).get_json()["id"]
    t = client.get(f"/tournaments/{tid}").get_json()
    pairs = []
    for round_doc in t["rounds"]:
        for table in round_doc["tables"]:
            players = sorted(table["players"])
            pairs += [(a, b) for i, a in enumerate(players) for b in players[i + 1 :]]
    assert len(pairs) - len(set(pairs)) <= 1


def test_round_robin_with_human_players_waits_for_their_games(site):
    runtime, client, key = site
    response = create(
        client,
        key,
        format="round_robin",
        table_size={"min": 3, "max": 3},
        participants=[{"external_id": f"u{i}", "name": f"User {i}"} for i in range(3)],
    )
    assert response.status_code == 201, response.get_json()
    t = response.get_json()
    assert t["status"] == "running" and len(t["rounds"]) == 1
    table = t["rounds"][0]["tables"][0]
    assert {tok["player"] for tok in table["seat_tokens"]} == {"u0", "u1", "u2"}
    public = client.get(f"/tournaments/{t['id']}").get_json()
    assert "seat_tokens" not in public["rounds"][0]["tables"][0]
    tokens = {tok["seat"]: tok["token"] for tok in table["seat_tokens"]}
    game_id = table["game_id"]
    game = client.get(f"/games/{game_id}").get_json()
    assert game["undo_allowed"] is False
    while (game := client.get(f"/games/{game_id}").get_json())["status"] != "finished":
        seat = game["to_act"][0]
        client.post(f"/games/{game_id}/commands", json={"command": {"type": "pass"}}, headers=auth(tokens[seat]))
    done = client.get(f"/tournaments/{t['id']}").get_json()
    assert done["status"] == "finished" and all(row["games"] == 1 for row in done["standings"])
    board = client.get("/leaderboards/secret_numbers", headers=auth(key)).get_json()
    assert {row["player"].split("/")[1] for row in board["rows"]} == {"u0", "u1", "u2"}


def test_a_director_undo_of_a_finished_game_retracts_its_results(site, monkeypatch):
    """Also: a leaderboard is folded again only when its rated games change (each read rated every game once)."""
    runtime, client, key = site
    from workers import ratings

    folds = []
    fold = ratings.rate_games
    monkeypatch.setattr(ratings, "rate_games", lambda games, *a: folds.append(1) or fold(games, *a))
    t = create(client, key, format="round_robin", participants=[{"external_id": f"u{i}"} for i in range(3)]).get_json()
    table = t["rounds"][0]["tables"][0]
    tokens = {tok["seat"]: tok["token"] for tok in table["seat_tokens"]}
    game_id = table["game_id"]
    start = client.get(f"/games/{game_id}").get_json()["version"]
    while (game := client.get(f"/games/{game_id}").get_json())["status"] != "finished":
        client.post(
            f"/games/{game_id}/commands", json={"command": {"type": "pass"}}, headers=auth(tokens[game["to_act"][0]])
        )
    board = client.get("/leaderboards/secret_numbers").get_json()
    assert board["games"] == 1 and len(board["rows"]) == 3
    folded = len(folds)
    assert client.get("/leaderboards/secret_numbers").get_json() == board and len(folds) == folded
    undone = client.post(f"/games/{game_id}/undo", json={"to_version": start, "reason": "ruling"}, headers=auth(key))
    assert undone.status_code == 200, undone.get_json()
    assert client.get("/leaderboards/secret_numbers").get_json() == {
        "game_type": "secret_numbers",
        "games": 0,
        "rows": [],
    }
    assert len(folds) == folded + 1
    after = client.get(f"/tournaments/{t['id']}").get_json()
    assert after["status"] == "running" and after["rounds"][0]["tables"][0]["result"] is None
    assert after["rounds"][0]["status"] == "running" and after["rounds"][0]["finished_at"] is None


def test_seat_tokens_are_shown_once_stored_hashed_and_reissued_on_demand(site):
    runtime, client, key = site
    t = create(
        client,
        key,
        format="round_robin",
        table_size={"min": 3, "max": 3},
        participants=[{"external_id": f"u{i}", "name": f"User {i}"} for i in range(3)],
    ).get_json()
    table = t["rounds"][0]["tables"][0]
    first = {tok["seat"]: tok["token"] for tok in table["seat_tokens"]}
    game_id = table["game_id"]
    # never served again, not even to the creating key, and nowhere in the store in plain text
    listed = client.get("/tournaments", headers=auth(key)).get_json()["tournaments"][0]
    assert "seat_tokens" not in listed["rounds"][0]["tables"][0]
    assert (
        "seat_tokens"
        not in client.get(f"/tournaments/{t['id']}", headers=auth(key)).get_json()["rounds"][0]["tables"][0]
    )
    stored = json.dumps(
        [doc for collection in ("tournaments", "seat_tokens") for _, doc in runtime.store.list_documents(collection)]
    )
    stored += json.dumps(runtime.store.stream_info(game_id).metadata)
    assert not any(token in stored for token in first.values())
    assert client.get(f"/games/{game_id}", headers=auth(first[0])).get_json()["your_seat"] == 0
    # a reissue by the creating key replaces them; the old ones stop working
    path = f"/tournaments/{t['id']}/tables/{game_id}/seat-tokens"
    assert client.post(path).status_code == 401
    _, other_key = apikeys.create_key(runtime.store, "another site")
    assert client.post(path, headers=auth(other_key)).status_code == 403
    assert client.post(f"/tournaments/{t['id']}/tables/nope/seat-tokens", headers=auth(key)).status_code == 404
    reissued = client.post(path, headers=auth(key))
    assert reissued.status_code == 200, reissued.get_json()
    second = {tok["seat"]: tok["token"] for tok in reissued.get_json()["seat_tokens"]}
    assert {tok["player"] for tok in reissued.get_json()["seat_tokens"]} == {"u0", "u1", "u2"}
    assert set(second) == set(first) and not set(second.values()) & set(first.values())
    assert client.get(f"/games/{game_id}", headers=auth(first[0])).status_code == 401
    assert client.get(f"/games/{game_id}", headers=auth(second[0])).get_json()["your_seat"] == 0


def test_tournaments_need_a_key_and_valid_participants(site):
    runtime, client, key = site
    assert client.post("/tournaments", json={}).status_code == 401
    mixed = create(client, key, participants=[{"external_id": "a", "bot_level": "easy"}, {"bot_level": "easy"}])
    assert mixed.status_code == 422
    twice = create(client, key, participants=[{"external_id": "a"}, {"external_id": "a"}, {"external_id": "b"}])
    assert twice.status_code == 422 and twice.get_json()["code"] == "invalid_seats"
    assert create(client, key, game_type="chess").status_code == 404


def test_options_are_checked_at_every_table_size_and_a_refused_tournament_leaves_nothing(site):
    runtime, client, key = site
    players = [{"external_id": f"m{i}"} for i in range(7)]
    murano = {"game_type": "murano", "format": "round_robin", "participants": players}
    # three colours fit a table of 3 but not one of 4; two fit neither
    for colours, size in [("grey,white", {"min": 3, "max": 3}), ("grey,white,brown", {"min": 3, "max": 4})]:
        refused = create(client, key, **murano, options={"colours": colours}, table_size=size)
        assert refused.status_code == 422, refused.get_json()
        assert refused.get_json()["code"] == "invalid_options" and "colours" in refused.get_json()["detail"]
    # Puerto Rico's variant "auto" is the 2-player variant at a table of 2 and the base game at 3: tables of both
    pr = create(
        client, key, game_type="puerto_rico", format="swiss", options={}, table_size={"min": 2, "max": 3},
        participants=[{"external_id": f"p{i}"} for i in range(5)],
    )  # fmt: skip
    assert pr.status_code == 201, pr.get_json()
    sizes = sorted(len(t["players"]) for t in pr.get_json()["rounds"][0]["tables"])
    assert sizes == [2, 3]
    listed = client.get("/tournaments", headers=auth(key)).get_json()["tournaments"]
    assert [t["id"] for t in listed] == [pr.get_json()["id"]]  # the refused ones left nothing behind
    ok = create(client, key, **murano, options={"colours": "grey,white,brown"}, table_size={"min": 3, "max": 3})
    assert ok.status_code == 201, ok.get_json()


def test_a_tournament_whose_first_round_fails_is_not_left_running(site, monkeypatch):
    runtime, client, key = site
    from workers.games import GameService

    made = []
    real = GameService.create_game

    def failing(self, *args, **kwargs):
        if made:
            raise RuntimeError("the store went away")
        made.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(GameService, "create_game", failing)
    client.application.config["PROPAGATE_EXCEPTIONS"] = False
    answer = create(client, key)
    assert answer.status_code == 500
    assert client.get("/tournaments", headers=auth(key)).get_json()["tournaments"] == []


def test_a_missing_key_is_named_for_what_it_is_asked(site):
    runtime, client, key = site
    answer = client.post("/tournaments", json={})
    assert answer.status_code == 401 and "webhook" not in answer.get_json()["detail"]
    assert "API key" in answer.get_json()["detail"]


def test_a_player_id_that_looks_like_a_bot_entrant_is_refused(site):
    runtime, client, key = site
    players = [{"external_id": "bot:easy:1"}, {"bot_level": "easy"}, {"external_id": "carol"}]
    for fmt in ("round_robin", "swiss"):
        refused = create(client, key, participants=players, format=fmt)
        assert refused.status_code == 422 and refused.get_json()["code"] == "invalid_seats", refused.get_json()
        assert "bot:" in refused.get_json()["detail"]
    assert client.get("/tournaments", headers=auth(key)).get_json()["tournaments"] == []


def test_a_subscription_deleted_as_a_round_starts_does_not_keep_the_event_queued(site, monkeypatch):
    """The round's event is queued for the subscriptions listed a moment before; one deleted in that moment gets
    its delivery job all the same, and that job drops what was queued for it."""
    import time

    from workers import webhooks

    runtime, client, key = site
    monkeypatch.setenv("TRADEWINDS_WEBHOOK_ALLOW_PRIVATE", "1")
    sub = client.post(
        "/webhooks", headers=auth(key), json={"url": "http://127.0.0.1:9/hook", "events": ["tournament.round_started"]}
    ).get_json()
    real = webhooks.enqueue_event

    def deleted_first(store, target, kind, data, game_id=None, at_ns=None):
        webhooks.delete_subscription(store, target)  # DELETE /webhooks/{id}, from another request, just then
        return real(store, target, kind, data, game_id, at_ns)

    monkeypatch.setattr(webhooks, "enqueue_event", deleted_first)
    assert create(client, key).status_code == 201
    monkeypatch.setattr(webhooks, "enqueue_event", real)
    runtime.sweep(now=time.time() + 60)
    for collection in (webhooks.queue_name, webhooks.pending_name, webhooks.messages_name):
        assert runtime.store.list_documents(collection(sub["id"])) == [], collection


def test_a_keys_tournaments_page_newest_first_whatever_other_keys_hold(site):
    """``GET /tournaments``: the key's own tournaments, newest first, ``limit`` at a time with ``next_cursor`` and a
    ``Link`` header, read through the key's index (10,001 tournaments of another key once hid them: the list read
    the first 10,000 of all and kept the key's); another key's tournament is no cursor."""
    runtime, client, key = site
    humans = {"options": {"rounds": 1}, "participants": [{"external_id": f"p{i}"} for i in range(3)]}
    made = [create(client, key, name=f"Cup {i}", **humans).get_json()["id"] for i in range(5)]
    other = {"key_id": "someone-else", "created_at": "2026-01-01T00:00:00.000000Z", "rounds": []}
    for i in range(10_001):  # sorted before the key's own ids, as once
        runtime.store.put_document("tournaments", f"t_0{i:019d}", {**other, "id": f"t_0{i:019d}"})
    pages, cursor, links = [], None, []
    while True:
        answer = client.get(
            "/tournaments", query_string={"limit": 2, **({"cursor": cursor} if cursor else {})}, headers=auth(key)
        )
        assert answer.status_code == 200, answer.get_json()
        body = answer.get_json()
        pages.append([t["id"] for t in body["tournaments"]])
        links.append(answer.headers.get("Link"))
        cursor = body["next_cursor"]
        if cursor is None:
            break
        assert f"cursor={cursor}" in links[-1] and "limit=2" in links[-1]
    assert pages == [made[4:2:-1], made[2:0:-1], made[:1]] and links[-1] is None
    refused = client.get("/tournaments", query_string={"cursor": "t_00000000000000000001"}, headers=auth(key))
    assert refused.status_code == 422 and refused.get_json()["code"] == "invalid_cursor"
    assert client.get("/tournaments", query_string={"limit": 1001}, headers=auth(key)).status_code == 400
    every = client.get("/tournaments", headers=auth(key)).get_json()  # no limit: up to a thousand
    assert [t["id"] for t in every["tournaments"]] == made[::-1] and every["next_cursor"] is None


def test_tournaments_stored_before_the_keys_index_are_listed(site):
    """A tournament stored with no entry in its key's index (a server before the index) is indexed at the first
    listing, in its place by creation."""
    runtime, client, key = site
    from workers import tournaments

    humans = {"options": {"rounds": 1}, "participants": [{"external_id": f"p{i}"} for i in range(3)]}
    new = create(client, key, **humans).get_json()["id"]
    old = runtime.store.get_document("tournaments", new)
    old = {**old, "id": "t_" + "0" * 20, "created_at": "2026-01-01T00:00:00.000000Z"}
    runtime.store.put_document("tournaments", old["id"], old)
    runtime.store.delete_document(tournaments.INDEXES, "tournaments_by_key")
    listed = client.get("/tournaments", headers=auth(key)).get_json()
    assert [t["id"] for t in listed["tournaments"]] == [new, old["id"]] and listed["next_cursor"] is None


def finished_table(client, key) -> str:
    """A new tournament of three people whose first table is played to its end: that game's id."""
    t = create(client, key, format="round_robin", participants=[{"external_id": f"u{i}"} for i in range(3)]).get_json()
    table = t["rounds"][0]["tables"][0]
    tokens = {tok["seat"]: tok["token"] for tok in table["seat_tokens"]}
    while (game := client.get(f"/games/{table['game_id']}").get_json())["status"] != "finished":
        pass_move = {"command": {"type": "pass"}}
        client.post(f"/games/{table['game_id']}/commands", json=pass_move, headers=auth(tokens[game["to_act"][0]]))
    return table["game_id"]


def test_a_leaderboard_whose_change_was_not_stamped_catches_up(site, monkeypatch):
    """The stamp is a write of its own after the rated game's: kept ratings serve ``KEPT_SECONDS`` at most
    whatever the stamp says, so a stamp whose write failed leaves a leaderboard behind that long, not for good; a
    finish recorded already writes no stamp again (every one makes each process read every rated game)."""
    runtime, client, key = site
    from eventstore.base import StoreUnavailable
    from workers import jobs, ratings

    finished_table(client, key)
    assert client.get("/leaderboards/secret_numbers").get_json()["games"] == 1

    def down(store, game_type):
        raise StoreUnavailable("the store went away")

    monkeypatch.setattr(ratings, "rated_changed", down)
    second = finished_table(client, key)  # recorded as the move ends it; its stamp never written
    assert runtime.store.get_document("rated:secret_numbers", second) is not None
    stamps = []
    monkeypatch.setattr(ratings, "rated_changed", lambda store, game_type: stamps.append(game_type))
    jobs.finish_game(second)  # a retry of a finish recorded already
    assert stamps == []
    assert client.get("/leaderboards/secret_numbers").get_json()["games"] == 1  # the kept ratings, for now
    monkeypatch.setattr(ratings, "KEPT_SECONDS", 0.0)
    assert client.get("/leaderboards/secret_numbers").get_json()["games"] == 2


def test_an_undo_whose_retraction_failed_is_retracted_by_its_resume_entry(site, monkeypatch):
    """An undo of a finished rated game retracts its result after the truncation: with the store failing there
    (a 503 for an undo already done), the resume entry written before the truncation retracts it when it runs."""
    runtime, client, key = site
    from eventstore.base import StoreUnavailable
    from workers import jobs
    from workers.history import History

    game_id = finished_table(client, key)
    assert client.get("/leaderboards/secret_numbers").get_json()["games"] == 1
    start = runtime.service.load(game_id).info.metadata["setup_version"]

    def down(self, game):
        raise StoreUnavailable("the store went away")

    monkeypatch.setattr(History, "_retract_result", down)
    undone = client.post(f"/games/{game_id}/undo", json={"to_version": start, "reason": "ruling"}, headers=auth(key))
    assert undone.status_code == 503 and runtime.service.load(game_id).version == start
    monkeypatch.undo()
    assert runtime.store.get_document("rated:secret_numbers", game_id) is not None
    from workers.sweeper import RetryLater

    tournament_id = runtime.service.load(game_id).info.metadata["tournament_id"]
    with runtime.dispatcher.try_lock(f"tournament:{tournament_id}"):  # the tournament's advance runs
        with pytest.raises(RetryLater):  # the retraction waits its turn: the job runs again later
            jobs.resume_game(game_id)
    assert runtime.store.get_document("rated:secret_numbers", game_id) is not None
    assert jobs.resume_game(game_id) == "resumed"  # as the sweeper runs it when due
    assert runtime.store.get_document("rated:secret_numbers", game_id) is None
    assert client.get("/leaderboards/secret_numbers").get_json()["games"] == 0
    table = client.get("/tournaments", headers=auth(key)).get_json()["tournaments"][0]["rounds"][0]["tables"][0]
    assert table["result"] is None


def test_the_index_build_misses_no_tournament_when_one_is_deleted_between_its_pages(site, monkeypatch):
    """A creation that fails deletes its tournament: during the one-time index build, that shifts an offset scan
    by one (the tournament after the page's end was skipped). The build pages after the last key read."""
    runtime, client, key = site
    from workers import tournaments

    store = runtime.store
    old = {"key_id": "site-key", "created_at": "2026-01-01T00:00:00.000000Z", "rounds": []}
    ids = [f"t_{i:020d}" for i in range(600)]
    for tid in ids:
        store.put_document("tournaments", tid, {**old, "id": tid})
    store.delete_document(tournaments.INDEXES, "tournaments_by_key")
    read = store.list_documents

    def deleting_after_the_first_page(collection, *args, **kwargs):
        page = read(collection, *args, **kwargs)
        if collection == "tournaments" and page and page[0][0] == ids[0]:
            store.delete_document("tournaments", ids[10])  # a creation that failed, in the first page
        return page

    monkeypatch.setattr(store, "list_documents", deleting_after_the_first_page)
    tournaments.Tournaments(runtime.service)._keys_indexed()
    monkeypatch.undo()
    indexed = {k.partition(":")[2] for k, _ in store.list_documents("tournaments_of:site-key", limit=1000)}
    assert indexed >= set(ids) - {ids[10]}


def test_a_round_robin_at_tables_of_more_than_two_takes_a_bounded_field(site):
    """Its schedule is searched while the request waits: past ROUND_ROBIN_MAX_PARTICIPANTS a 422 names swiss;
    at 2 seats (the circle method, no search) and in swiss the schema's 256 stand."""
    from workers.tournaments import ROUND_ROBIN_MAX_PARTICIPANTS

    runtime, client, key = site
    many = [{"external_id": f"u{i}"} for i in range(ROUND_ROBIN_MAX_PARTICIPANTS + 1)]
    refused = create(client, key, format="round_robin", table_size={"min": 3, "max": 3}, participants=many)
    assert refused.status_code == 422 and refused.get_json()["code"] == "invalid_seats", refused.get_json()
    assert "swiss" in refused.get_json()["detail"]
    assert create(client, key, format="swiss", table_size={"min": 3, "max": 3}, participants=many).status_code == 201
