"""Limits on bot work: bot-only games need a key, caps per address, per key and in all, idle tables pause."""

from __future__ import annotations

import time

import pytest

from api.app import create_app
from tests.api.conftest import auth, integrator
from workers import bot_tables, jobs
from workers.bot_tables import BOT_TABLES, LOOKS, BotCaps


def bot_game(client, headers=None, human=True, rounds=3):
    seats = ([{"kind": "human", "name": "Ann"}] if human else [{"kind": "bot", "level": "random"}]) + [
        {"kind": "bot", "level": "random"}
    ]
    return client.post(
        "/games",
        json={"game_type": "secret_numbers", "seats": seats, "options": {"rounds": rounds}},
        headers=headers or {},
    )


def human_game(client, headers=None):
    return client.post(
        "/games",
        json={"game_type": "secret_numbers", "seats": [{"kind": "human"}, {"kind": "human"}]},
        headers=headers or {},
    )


def at(app, address):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


@pytest.fixture
def capped(runtime):
    app = create_app(runtime, {"BOT_CAPS": BotCaps(per_address=2, per_key=3, total=6)})
    return app, runtime


def test_without_a_key_a_game_of_bots_only_is_refused(capped):
    app, runtime = capped
    client = at(app, "203.0.113.5")
    refused = bot_game(client, human=False)
    assert refused.status_code == 403 and refused.get_json()["code"] == "human_seat_required"
    assert refused.content_type == "application/problem+json"
    assert runtime.store.list_streams() == []  # nothing was created
    assert bot_game(client, integrator(runtime), human=False).status_code == 201


def test_an_address_may_have_a_few_bot_games_that_have_not_ended(capped):
    app, runtime = capped
    client = at(app, "203.0.113.5")
    made = [bot_game(client) for _ in range(2)]
    assert [r.status_code for r in made] == [201, 201]
    refused = bot_game(client)
    assert refused.status_code == 429 and refused.get_json()["code"] == "too_many_bot_games"
    assert int(refused.headers["Retry-After"]) > 0 and "client address" in refused.get_json()["detail"]
    assert human_game(client).status_code == 201  # games without bots are not capped
    assert bot_game(at(app, "203.0.113.6")).status_code == 201  # another address has its own places
    # once one of them ends, its place is free again
    runtime.store.update_stream(made[0].get_json()["id"], status="finished")
    assert bot_game(client).status_code == 201
    assert bot_game(client).status_code == 429


def test_a_key_has_its_own_cap_whatever_the_address(capped):
    app, runtime = capped
    key = integrator(runtime)
    made = [bot_game(at(app, f"203.0.113.{i}"), key).status_code for i in range(4)]
    assert made == [201, 201, 201, 429]
    assert bot_game(at(app, "203.0.113.0")).status_code == 201  # the address's own cap is untouched


def test_the_server_has_a_bot_budget_for_everyone(capped):
    app, runtime = capped
    for i in range(3):
        assert bot_game(at(app, f"198.51.100.{i}")).status_code == 201
    for _ in range(3):
        assert bot_game(at(app, "198.51.100.99"), integrator(runtime)).status_code == 201
    full = bot_game(at(app, "198.51.100.200"))
    assert full.status_code == 503 and full.get_json()["code"] == "bot_capacity"
    assert int(full.headers["Retry-After"]) > 0


def idle_table(runtime, seen_ago: float):
    """A key's game of bots only whose first bot turn is pending, last looked at ``seen_ago`` seconds ago."""
    game, _ = runtime.service.create_game(
        "secret_numbers", [{"kind": "bot", "level": "random"}] * 2, {"rounds": 3}, start_bots=False
    )
    gid = game.info.stream
    bot_tables.register(runtime.store, gid, "key:k", [{"kind": "bot"}])
    assert runtime.store.get_document(BOT_TABLES, gid) is not None
    runtime.store.put_document(LOOKS, gid, {"paused": None, "seen_at": time.time() - seen_ago})
    return game


def test_a_bot_table_nobody_watches_pauses_and_resumes_when_someone_looks(runtime, monkeypatch):
    monkeypatch.setenv("TRADEWINDS_BOT_IDLE_SECONDS", "60")
    client = create_app(runtime).test_client()
    game = idle_table(runtime, seen_ago=61)
    gid = game.info.stream
    assert jobs.play_bot_turn(gid, game.version, game.generation) == "paused"
    assert runtime.store.stream_info(gid).version == game.version  # no move was made
    assert runtime.store.get_document(LOOKS, gid)["paused"]["version"] == game.version
    looked = client.get(f"/games/{gid}")  # somebody looks: the table resumes (here, inline, to the end)
    assert looked.status_code == 200
    assert runtime.store.get_document(LOOKS, gid)["paused"] is None
    assert client.get(f"/games/{gid}").get_json()["status"] == "finished"


def test_a_watched_table_plays_on(runtime, monkeypatch):
    monkeypatch.setenv("TRADEWINDS_BOT_IDLE_SECONDS", "60")
    game = idle_table(runtime, seen_ago=59)
    assert jobs.play_bot_turn(game.info.stream, game.version, game.generation) == "played"


def test_a_look_at_an_unpaused_table_only_notes_the_time(runtime, monkeypatch):
    monkeypatch.setenv("TRADEWINDS_BOT_IDLE_SECONDS", "60")
    monkeypatch.setattr(bot_tables, "LOOK_EVERY", 0.0)
    client = create_app(runtime).test_client()
    game = idle_table(runtime, seen_ago=50)
    client.get(f"/games/{game.info.stream}/events")
    doc = runtime.store.get_document(LOOKS, game.info.stream)
    assert time.time() - doc["seen_at"] < 5 and doc["paused"] is None
    assert runtime.store.stream_info(game.info.stream).version == game.version  # no bot work was started


def test_an_unwatched_table_pauses_under_the_background_runner(monkeypatch):
    """End to end with bots on a background thread: the table stops by itself, a look starts it again."""
    from eventstore.memory import MemoryStore
    from workers.dispatch import InProcessDispatcher
    from workers.runtime import Runtime, run_job

    # short enough that the table pauses long before 200 rounds of random bots end on a quiet machine
    monkeypatch.setenv("TRADEWINDS_BOT_IDLE_SECONDS", "0.05")
    dispatcher = InProcessDispatcher(run_job)
    runtime = Runtime.signed(lambda signer: MemoryStore(signer=signer), dispatcher)
    jobs.set_runtime(runtime)
    try:
        client = create_app(runtime).test_client()
        created = bot_game(client, integrator(runtime), human=False, rounds=200)
        gid = created.get_json()["id"]

        def paused():
            doc = runtime.store.get_document(LOOKS, gid)
            return doc is not None and doc["paused"] is not None

        deadline = time.monotonic() + 20
        while not paused() and runtime.store.stream_info(gid).status == "active" and time.monotonic() < deadline:
            time.sleep(0.01)
        assert runtime.store.stream_info(gid).status == "active", "the table ended before it was left idle"
        assert paused()
        dispatcher.wait_idle()
        stopped_at = runtime.store.stream_info(gid).version
        time.sleep(0.5)
        assert runtime.store.stream_info(gid).version == stopped_at  # nothing runs while paused
        monkeypatch.setenv("TRADEWINDS_BOT_IDLE_SECONDS", "600")
        client.get(f"/games/{gid}")
        deadline = time.monotonic() + 60
        while runtime.store.stream_info(gid).status == "active" and time.monotonic() < deadline:
            time.sleep(0.05)
            runtime.service.record_finish(runtime.service.load(gid))
        assert runtime.store.stream_info(gid).version > stopped_at
        assert runtime.service.load(gid).over
        dispatcher.wait_idle()
    finally:
        runtime.sweeper.stop()
        jobs.set_runtime(None)


def test_seat_token_holders_of_an_anonymous_bot_game_count_for_its_address(capped):
    app, _ = capped
    client = at(app, "203.0.113.5")
    game = bot_game(client).get_json()
    assert client.get(f"/games/{game['id']}", headers=auth(game["seat_tokens"][0]["token"])).status_code == 200
    assert bot_game(client).status_code == 201 and bot_game(client).status_code == 429


def handing_over(client, headers=None, **how):
    """A game of human seats only whose seats pass to bots when they resign or run out of time."""
    seats = [{"kind": "human"}, {"kind": "human"}]
    body = {"game_type": "secret_numbers", "seats": seats, "options": {"rounds": 3}, **how}
    return client.post("/games", json=body, headers=headers or {})


HAND_OVER = [
    {"on_resign": "bot", "resign_level": "random"},
    {"clock": {"bank_seconds": 60, "on_timeout": "bot"}},
    {"clock": {"bank_seconds": 60, "on_timeout": "forfeit"}},
]


@pytest.mark.parametrize("how", HAND_OVER, ids=["resign to a bot", "time out to a bot", "forfeit on time"])
def test_a_game_whose_seats_may_pass_to_bots_is_a_bot_table(capped, how):
    app, runtime = capped
    client = at(app, "203.0.113.7")
    made = [handing_over(client, **how) for _ in range(2)]
    assert [r.status_code for r in made] == [201, 201], made[0].get_json()
    refused = handing_over(client, **how)  # all its seats may end up played by bots: within the address's cap
    assert refused.status_code == 429 and refused.get_json()["code"] == "too_many_bot_games"
    assert human_game(client).status_code == 201  # resigning to lose (the game ends) hands nobody over
    for game in made:
        assert runtime.store.get_document(BOT_TABLES, game.get_json()["id"])["owner"] == "addr:203.0.113.7"


def test_seats_resigned_to_bots_pause_when_nobody_watches(runtime, monkeypatch):
    monkeypatch.setenv("TRADEWINDS_BOT_IDLE_SECONDS", "60")
    client = create_app(runtime, {"BOT_CAPS": BotCaps()}).test_client()
    created = handing_over(client, on_resign="bot", resign_level="random").get_json()
    gid = created["id"]
    assert runtime.store.get_document(BOT_TABLES, gid) is not None
    runtime.store.put_document(LOOKS, gid, {"paused": None, "seen_at": time.time() - 61})
    monkeypatch.setattr(runtime.service, "schedule_bot_turn", lambda game: None)  # the test plays the turns
    for token in created["seat_tokens"]:
        game = runtime.service.resign(gid, token["seat"])
    assert jobs.play_bot_turn(gid, game.version, game.generation) == "paused"


def tournament(client, headers, participants, **extra):
    body = {
        "name": "Capped cup",
        "game_type": "secret_numbers",
        "format": "swiss",
        "options": {"rounds": 3},
        "table_size": {"min": 2, "max": 2},
        "participants": participants,
        "seed": 5,
        **extra,
    }
    return client.post("/tournaments", json=body, headers=headers)


PLAYERS = [{"external_id": f"p{i}"} for i in range(4)]
CLOCK = {"clock": {"bank_seconds": 600, "on_timeout": "bot"}}


def test_a_tournament_that_would_pass_the_keys_cap_is_refused_whole(capped):
    app, runtime = capped  # 3 bot tables a key
    client, key = app.test_client(), integrator(runtime)
    assert bot_game(at(app, "203.0.113.9"), key).status_code == 201
    assert bot_game(at(app, "203.0.113.9"), key).status_code == 201
    refused = tournament(client, key, [{"bot_level": "random"}] * 4)  # 2 tables of bots, 1 place left
    assert refused.status_code == 429 and refused.get_json()["code"] == "too_many_bot_games"
    assert int(refused.headers["Retry-After"]) > 0 and "would add 2" in refused.get_json()["detail"]
    assert len(runtime.store.list_streams()) == 2  # no table was made
    assert client.get("/tournaments", headers=key).get_json()["tournaments"] == []
    assert tournament(client, key, [{"bot_level": "random"}] * 2).status_code == 201  # 1 table fits


def test_a_tournament_that_could_never_fit_is_told_so_without_a_retry(capped):
    app, runtime = capped  # 3 bot tables a key, 6 in all
    refused = tournament(app.test_client(), integrator(runtime), [{"bot_level": "random"}] * 8)  # 4 at once
    assert refused.status_code == 422 and refused.get_json()["code"] == "invalid_seats"
    assert "Retry-After" not in refused.headers and "may run 3" in refused.get_json()["detail"]


def test_a_tournament_holds_its_places_for_its_largest_round(capped):
    """A round with fewer bot tables (a bot entrant's bye) admits no less, and the places freed between rounds are
    not the key's to fill: the tournament holds them while it runs."""
    app, runtime = capped  # 3 a key
    client, key = app.test_client(), integrator(runtime)
    # the bot entrant, last, sits out round 1 with a bye: round 1 has no bot table, round 2 one
    entrants = [{"external_id": "a"}, {"external_id": "b"}, {"bot_level": "random"}]
    made = [tournament(client, key, entrants, rounds=2) for _ in range(3)]
    assert [m.status_code for m in made] == [201, 201, 201]
    assert all(m.get_json()["rounds"][0]["byes"] for m in made)
    assert tournament(client, key, entrants, rounds=2).status_code == 429  # 3 of 3 held
    assert bot_game(at(app, "203.0.113.9"), key).status_code == 429
    for m in made:  # the people's tables end: round 2 seats the bots within the places held
        gid = m.get_json()["rounds"][0]["tables"][0]["game_id"]
        assert client.post(f"/games/{gid}/abort", headers=key).status_code == 200
    assert all(
        len(client.get(f"/tournaments/{m.get_json()['id']}", headers=key).get_json()["rounds"]) == 2 for m in made
    )
    assert bot_game(at(app, "203.0.113.9"), key).status_code == 429


def test_a_round_robin_holds_places_for_its_largest_round(runtime):
    app = create_app(runtime, {"BOT_CAPS": BotCaps(per_address=2, per_key=20, total=100)})
    client, key = app.test_client(), integrator(runtime)
    entrants = [{"bot_level": "random"}] * 6 + [{"external_id": f"h{i}"} for i in range(6)]
    made = tournament(client, key, entrants, format="round_robin", seed=0).get_json()
    with_bots = [
        sum(1 for table in r["tables"] if any(p.startswith("bot:") for p in table))
        for r in runtime.store.get_document("tournaments", made["id"])["schedule"]
    ]
    held = runtime.store.get_document(BOT_TABLES, bot_tables.RESERVED + made["id"])
    assert held["tables"] == max(with_bots) and min(with_bots) < max(with_bots)


def test_an_ended_bot_table_brought_back_by_an_undo_counts_again(capped):
    app, runtime = capped  # 3 a key
    key = integrator(runtime)
    client = at(app, "203.0.113.9")
    made = [bot_game(client, key).get_json() for _ in range(3)]
    for game in made:  # each ends: its place is free
        token = game["seat_tokens"][0]["token"]
        assert client.post(f"/games/{game['id']}/resign", headers=auth(token)).get_json()["status"] == "finished"
    assert bot_game(client, key).status_code == 201  # 1 of 3
    for game in made[:2]:
        undone = client.post(f"/games/{game['id']}/undo", json={"to_version": game["version"]}, headers=key)
        assert undone.status_code == 200, undone.get_json()
        assert runtime.store.get_document(BOT_TABLES, game["id"])["owner"].startswith("key:")
    refused = client.post(f"/games/{made[2]['id']}/undo", json={"to_version": made[2]["version"]}, headers=key)
    assert refused.status_code == 429 and refused.get_json()["code"] == "too_many_bot_games"
    assert client.get(f"/games/{made[2]['id']}").get_json()["status"] == "finished"  # nothing was undone
    assert bot_game(client, key).status_code == 429


def test_a_tournaments_tables_count_against_its_keys_cap(capped):
    app, runtime = capped
    client, key = app.test_client(), integrator(runtime)
    made = tournament(client, key, PLAYERS, **CLOCK)  # two tables whose seats a clock may hand to bots
    assert made.status_code == 201, made.get_json()
    tables = [table["game_id"] for table in made.get_json()["rounds"][0]["tables"]]
    third = bot_game(at(app, "203.0.113.9"), key)  # the third place
    assert third.status_code == 201
    owner = runtime.store.get_document(BOT_TABLES, third.get_json()["id"])["owner"]
    for game_id in tables:
        doc = runtime.store.get_document(BOT_TABLES, game_id)
        assert doc["tournament"] == made.get_json()["id"] and doc["owner"] == owner
    assert bot_game(at(app, "203.0.113.9"), key).status_code == 429
    again = tournament(client, key, PLAYERS, **CLOCK)
    assert again.status_code == 429 and again.get_json()["code"] == "too_many_bot_games"
    # a tournament of people without a clock hands nobody to a bot: not a bot table, not capped
    assert tournament(client, key, PLAYERS).status_code == 201


def test_the_servers_bot_budget_holds_tournaments_too(capped):
    app, runtime = capped  # 6 bot tables in all
    for i in range(3):
        assert bot_game(at(app, f"198.51.100.{i}")).status_code == 201
    client = app.test_client()
    first = tournament(client, integrator(runtime), PLAYERS, **CLOCK)
    assert first.status_code == 201
    full = tournament(client, integrator(runtime), PLAYERS, **CLOCK)  # 5 + 2 > 6
    assert full.status_code == 503 and full.get_json()["code"] == "bot_capacity"
    assert int(full.headers["Retry-After"]) > 0


def test_a_tournament_table_nobody_watches_plays_on(runtime, monkeypatch):
    """Nobody paces a tournament by looking at it (a site follows it by webhooks): its tables never pause."""
    monkeypatch.setenv("TRADEWINDS_BOT_IDLE_SECONDS", "60")
    game, _ = runtime.service.create_game(
        "secret_numbers", [{"kind": "bot", "level": "random"}] * 2, {"rounds": 3}, start_bots=False
    )
    gid = game.info.stream
    bot_tables.register(runtime.store, gid, "key:k", [{"kind": "bot"}], tournament="t_1")
    assert runtime.store.get_document(BOT_TABLES, gid) is not None
    runtime.store.put_document(LOOKS, gid, {"paused": None, "seen_at": time.time() - 3600})
    assert jobs.play_bot_turn(gid, game.version, game.generation) == "played"


def test_a_tournament_releases_its_places_when_it_ends(capped):
    app, runtime = capped  # 3 a key
    client, key = app.test_client(), integrator(runtime)
    made = tournament(client, key, [{"bot_level": "random"}] * 6, rounds=1).get_json()  # bots only: played inline
    assert client.get(f"/tournaments/{made['id']}", headers=key).get_json()["status"] == "finished"
    assert not bot_tables.reserved(runtime.store, made["id"])
    assert [bot_game(at(app, "203.0.113.9"), key).status_code for _ in range(3)] == [201, 201, 201]


def test_a_tournament_table_brought_back_after_its_tournament_ended_counts_and_never_pauses(runtime, monkeypatch):
    monkeypatch.setenv("TRADEWINDS_BOT_IDLE_SECONDS", "60")
    app = create_app(runtime, {"BOT_CAPS": BotCaps(per_address=2, per_key=1, total=100)})
    client, key = app.test_client(), integrator(runtime)
    made = tournament(client, key, PLAYERS[:2], rounds=1, **CLOCK).get_json()  # one table, its seats may pass
    gid = made["rounds"][0]["tables"][0]["game_id"]
    version = client.get(f"/games/{gid}").get_json()["version"]
    assert client.post(f"/games/{gid}/abort", headers=key).status_code == 200
    assert client.get(f"/tournaments/{made['id']}", headers=key).get_json()["status"] == "finished"
    assert bot_game(at(app, "203.0.113.9"), key).status_code == 201  # the place it held is free
    refused = client.post(f"/games/{gid}/undo", json={"to_version": version}, headers=key)
    assert refused.status_code == 429 and refused.get_json()["code"] == "too_many_bot_games"
    runtime.store.update_stream(bot_game_id(runtime, gid), status="finished")
    assert client.post(f"/games/{gid}/undo", json={"to_version": version}, headers=key).status_code == 200
    doc = runtime.store.get_document(BOT_TABLES, gid)
    assert doc["tournament"] == made["id"] and bot_tables.places(doc) == 1  # its tournament holds nothing now
    assert bot_game(at(app, "203.0.113.9"), key).status_code == 429  # the key's one place
    runtime.store.put_document(LOOKS, gid, {"paused": None, "seen_at": time.time() - 3600})
    assert not bot_tables.pause_if_idle(runtime.store, gid, version, 1)  # a tournament's table never pauses


def bot_game_id(runtime, but: str) -> str:
    """The one active bot table other than ``but``."""
    [other] = [g for g in bot_tables.active_tables(runtime.store, runtime.service.status_of) if g != but]
    return other


def test_a_table_of_the_running_round_brought_back_is_held_by_its_tournament(runtime):
    app = create_app(runtime, {"BOT_CAPS": BotCaps(per_address=2, per_key=2, total=100)})
    client, key = app.test_client(), integrator(runtime)
    made = tournament(client, key, PLAYERS, rounds=2, **CLOCK).get_json()  # holds 2: the whole cap
    gid = made["rounds"][0]["tables"][0]["game_id"]
    version = client.get(f"/games/{gid}").get_json()["version"]
    assert client.post(f"/games/{gid}/abort", headers=key).status_code == 200  # round 1 still runs (the other table)
    undone = client.post(f"/games/{gid}/undo", json={"to_version": version}, headers=key)
    assert undone.status_code == 200, undone.get_json()
    assert bot_tables.places(runtime.store.get_document(BOT_TABLES, gid)) == 0


def test_the_tables_of_a_tournament_whose_creation_failed_count_for_its_key(runtime, monkeypatch):
    app = create_app(runtime, {"BOT_CAPS": BotCaps(per_address=2, per_key=2, total=100)})
    app.config["PROPAGATE_EXCEPTIONS"] = False
    client, key = app.test_client(), integrator(runtime)
    real, calls = runtime.service.after_change, []

    def failing_second(game):  # the store fails after the first table's bots were started
        calls.append(game.info.stream)
        if len(calls) == 2:
            raise ConnectionError("the store went away")
        real(game)

    monkeypatch.setattr(runtime.service, "after_change", failing_second)
    assert tournament(client, key, PLAYERS, rounds=1, **CLOCK).status_code >= 500
    assert runtime.store.list_documents("tournaments", limit=10) == []
    for gid in calls:
        assert bot_tables.places(runtime.store.get_document(BOT_TABLES, gid)) == 1
    assert bot_game(at(app, "203.0.113.9"), key).status_code == 429  # both places are its tables'


def test_a_request_on_a_games_path_with_a_reservations_key_leaves_the_reservation_alone(runtime):
    """The look every request on ``/games/<id>`` notes is for games: ``/games/tournament:<id>`` (a 404) neither
    rewrites a tournament's reservation nor, racing the tournament's end, brings a released one back for good."""
    app = create_app(runtime, {"BOT_CAPS": BotCaps(per_address=2, per_key=1, total=100)})
    client, key = app.test_client(), integrator(runtime)
    made = tournament(client, key, PLAYERS[:2], rounds=1, **CLOCK).get_json()
    reservation = bot_tables.RESERVED + made["id"]
    before = runtime.store.get_document(BOT_TABLES, reservation)
    answer = app.test_client().get(f"/games/{reservation}")  # no credentials
    assert answer.status_code == 404 and answer.get_json()["code"] == "unknown_game"
    assert runtime.store.get_document(BOT_TABLES, reservation) == before
    gid = made["rounds"][0]["tables"][0]["game_id"]

    class EndsMeanwhile:  # the tournament's last table ends between a look's read and its write
        def get_document(self, *args):
            return runtime.store.get_document(*args)

        def put_document(self, collection, doc_id, doc):
            assert client.post(f"/games/{gid}/abort", headers=key).status_code == 200
            runtime.store.put_document(collection, doc_id, doc)

    bot_tables.Looks().look(EndsMeanwhile(), reservation, resume=lambda g: None)
    assert client.post(f"/games/{gid}/abort", headers=key).status_code in (200, 409)
    assert client.get(f"/tournaments/{made['id']}", headers=key).get_json()["status"] == "finished"
    assert not bot_tables.reserved(runtime.store, made["id"])
    assert bot_game(at(app, "203.0.113.9"), key).status_code == 201  # the key's one place is free


def test_an_undo_of_a_tournaments_last_table_takes_its_turn_with_the_tournaments_advance(runtime, monkeypatch):
    """The advance that records the last table's result (and ends the tournament, releasing its reservation) does
    not run while an integrator's undo brings that table back: it waits its turn (the job runs again later), so
    the table stays held by the reservation and the tournament runs on, and the key's cap still holds."""
    from workers.sweeper import RetryLater

    app = create_app(runtime, {"BOT_CAPS": BotCaps(per_address=2, per_key=1, total=100)})
    client, key = app.test_client(), integrator(runtime)
    made = tournament(client, key, PLAYERS[:2], rounds=1, **CLOCK).get_json()  # one table: the key's one place
    tid, gid = made["id"], made["rounds"][0]["tables"][0]["game_id"]
    version = client.get(f"/games/{gid}").get_json()["version"]
    real_advance = jobs.advance_tournament
    monkeypatch.setattr(jobs, "advance_tournament", lambda t: "deferred")  # no worker has taken the job yet
    assert client.post(f"/games/{gid}/abort", headers=key).status_code == 200
    monkeypatch.setattr(jobs, "advance_tournament", real_advance)
    real_truncate, during = runtime.store.truncate, []

    def truncate(*args, **kwargs):  # the worker's advance job runs while the undo is under way
        try:
            during.append(real_advance(tid))
        except RetryLater:
            during.append("retry later")
        return real_truncate(*args, **kwargs)

    monkeypatch.setattr(runtime.store, "truncate", truncate)
    undone = client.post(f"/games/{gid}/undo", json={"to_version": version}, headers=key)
    assert undone.status_code == 200, undone.get_json()
    assert during == ["retry later"]
    real_advance(tid)  # run again later: the table is in play, so the round goes on
    assert client.get(f"/games/{gid}").get_json()["status"] == "active"
    assert client.get(f"/tournaments/{tid}", headers=key).get_json()["status"] == "running"
    assert bot_tables.reserved(runtime.store, tid)
    assert bot_game(at(app, "203.0.113.9"), key).status_code == 429


def test_an_undo_while_the_tournaments_advance_runs_is_busy_and_changes_nothing(runtime):
    app = create_app(runtime, {"BOT_CAPS": BotCaps(per_address=2, per_key=1, total=100)})
    client, key = app.test_client(), integrator(runtime)
    made = tournament(client, key, PLAYERS[:2], rounds=1, **CLOCK).get_json()
    tid, gid = made["id"], made["rounds"][0]["tables"][0]["game_id"]
    version = client.get(f"/games/{gid}").get_json()["version"]
    assert client.post(f"/games/{gid}/abort", headers=key).status_code == 200
    with runtime.dispatcher.try_lock(f"tournament:{tid}"):  # the advance job holds the tournament
        busy = client.post(f"/games/{gid}/undo", json={"to_version": version}, headers=key)
    assert busy.status_code == 409 and busy.get_json()["code"] == "busy"
    assert client.get(f"/games/{gid}").get_json()["status"] != "active"
    assert client.post(f"/games/{gid}/undo", json={"to_version": version}, headers=key).status_code == 200


def test_a_look_racing_an_undo_leaves_the_record_the_undo_wrote(runtime):
    """A look writes when the table was seen, apart from the record that counts it: an undo that brings an ended
    tournament table back (counted again) between a look's read and its write keeps its record."""
    app = create_app(runtime, {"BOT_CAPS": BotCaps(per_address=2, per_key=1, total=100)})
    client, key = app.test_client(), integrator(runtime)
    made = tournament(client, key, PLAYERS[:2], rounds=1, **CLOCK).get_json()
    gid = made["rounds"][0]["tables"][0]["game_id"]
    version = client.get(f"/games/{gid}").get_json()["version"]
    assert client.post(f"/games/{gid}/abort", headers=key).status_code == 200
    assert client.get(f"/tournaments/{made['id']}", headers=key).get_json()["status"] == "finished"
    runtime.store.put_document(LOOKS, gid, {"seen_at": time.time() - 60, "paused": None})

    class UndoneMeanwhile:  # the look of another server process: the undo lands between its read and its write
        def get_document(self, *args):
            return runtime.store.get_document(*args)

        def put_document(self, collection, doc_id, doc):
            undone = client.post(f"/games/{gid}/undo", json={"to_version": version}, headers=key)
            assert undone.status_code == 200, undone.get_json()
            runtime.store.put_document(collection, doc_id, doc)

    bot_tables.Looks().look(UndoneMeanwhile(), gid, resume=lambda g: None)
    assert bot_tables.places(runtime.store.get_document(BOT_TABLES, gid)) == 1  # counted again, as the undo wrote
    assert client.get(f"/games/{gid}").get_json()["status"] == "active"
    assert bot_game(at(app, "203.0.113.9"), key).status_code == 429


def test_a_preflight_is_no_look(runtime, monkeypatch):
    """OPTIONS (a CORS preflight, never rate limited) neither reads a table's record nor resumes a paused one."""
    app = create_app(runtime)
    gid = bot_game(app.test_client(), integrator(runtime)).get_json()["id"]
    reads = []
    real = runtime.service.documents.get_document
    monkeypatch.setattr(runtime.service.documents, "get_document", lambda *a: (reads.append(a[0]), real(*a))[1])
    assert all(app.test_client().options(f"/games/{gid}/events").status_code == 200 for _ in range(20))
    assert BOT_TABLES not in reads and LOOKS not in reads


def test_a_table_paused_in_its_record_by_a_server_of_before_is_resumed_by_a_look(runtime, client):
    """During an upgrade a server of before may pause a table in its record, where a new one keeps its looks apart:
    the next look still resumes it, and clears the record's pause once."""
    game = idle_table(runtime, seen_ago=3600)
    gid = game.info.stream
    record = runtime.store.get_document(BOT_TABLES, gid)
    paused = {"version": game.version, "generation": game.generation, "at": time.time()}
    runtime.store.put_document(BOT_TABLES, gid, {**record, "paused": paused})  # as the server of before wrote it
    assert bot_tables.watch(runtime.store, gid, runtime.store.get_document(BOT_TABLES, gid))["paused"] == paused
    resumed = []
    assert bot_tables.Looks().look(runtime.store, gid, resume=resumed.append)
    assert resumed == [gid] and "paused" not in runtime.store.get_document(BOT_TABLES, gid)
    assert bot_tables.watch(runtime.store, gid, runtime.store.get_document(BOT_TABLES, gid))["paused"] is None
