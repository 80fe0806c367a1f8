"""Turn clocks: banks and increments, flag-fall policies (bot, forfeit), visible in the game view."""

from __future__ import annotations

import time

import pytest

from tests.api.conftest import auth
from workers import clocks


def clocked_game(client, policy, bank=30, increment=0, rounds=2, seats=2):
    response = client.post(
        "/games",
        json={
            "game_type": "secret_numbers",
            "options": {"rounds": rounds},
            "clock": {"bank_seconds": bank, "increment_seconds": increment, "on_timeout": policy},
            "seats": [{"kind": "human", "name": n} for n in "abc"[:seats]],
        },
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_clock_is_visible_and_runs_for_the_seat_to_act(client):
    game = clocked_game(client, "bot")
    clock = client.get(f"/games/{game['id']}").get_json()["clock"]
    assert clock["bank_seconds"] == 30 and clock["running"] == [0]
    assert 29 <= clock["remaining"][0] <= 30 and clock["remaining"][1] == 30
    assert clock["deadline"].endswith("Z")


def test_increment_and_charging(runtime, client, monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    game = clocked_game(client, "bot", bank=60, increment=5)
    now[0] += 10
    client.post(
        f"/games/{game['id']}/commands",
        json={"command": {"type": "pass"}},
        headers=auth(game["seat_tokens"][0]["token"]),
    )
    loaded = runtime.service.load(game["id"])
    clock = runtime.service.last_clock(loaded)
    assert clock["banks"] == [55.0, 60.0] and clock["running"] == [1] and clock["since"] == 1010.0


@pytest.mark.parametrize("policy", ["bot", "forfeit"])
def test_a_seat_out_of_time_is_played_by_a_bot(runtime, client, monkeypatch, policy):
    now = [1000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    game = clocked_game(client, policy, bank=10, rounds=1, seats=3)
    gid = game["id"]
    scheduled = runtime.store.list_outbox(job="check_clock")  # written with the move, for the flag-fall
    assert scheduled and 10 <= scheduled[0].due_at - now[0] <= 10.1
    assert runtime.sweep() == 0  # not due yet
    now[0] += 11
    assert runtime.sweep() == 1  # the flag-fall check fires: seat 0 is out of time
    body = client.get(f"/games/{gid}").get_json()
    seat0 = body["seats"][0]
    assert seat0["kind"] == "bot" and seat0["timed_out"] is True and seat0["forfeited"] is (policy == "forfeit")
    assert body["to_act"] == [1]  # the bot has played seat 0's turn
    late = client.post(
        f"/games/{gid}/commands", json={"command": {"type": "pass"}}, headers=auth(game["seat_tokens"][0]["token"])
    )
    assert late.status_code == 403 and "bot" in late.get_json()["detail"]  # its token no longer moves for it
    for seat in (1, 2):
        client.post(
            f"/games/{gid}/commands",
            json={"command": {"type": "pass"}},
            headers=auth(game["seat_tokens"][seat]["token"]),
        )
    final = client.get(f"/games/{gid}").get_json()
    assert final["status"] == "finished"
    if policy == "forfeit":
        assert final["result"]["ranks"][0] == 3 and final["result"]["forfeited"] == [0]


def test_a_forfeit_that_leaves_one_seat_in_play_ends_the_game(runtime, client, monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    game = clocked_game(client, "forfeit", bank=10, rounds=2)
    now[0] += 11
    runtime.sweep()
    final = client.get(f"/games/{game['id']}").get_json()
    assert final["status"] == "finished", final["status"]  # no bot plays out a game nobody is left to win
    assert final["result"]["ranks"] == [2, 1] and final["result"]["details"]["ended_by"] == "forfeit"
    export = client.get(f"/games/{game['id']}/export").get_data(as_text=True)
    assert client.post("/verify", json={"export": export}).get_json()["ok"]  # the replayed result agrees


def test_a_move_after_flag_fall_is_refused(runtime, client, monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    game = clocked_game(client, "bot", bank=5)
    now[0] += 6  # the check has not run yet, but the bank is empty
    response = client.post(
        f"/games/{game['id']}/commands",
        json={"command": {"type": "pass"}},
        headers=auth(game["seat_tokens"][0]["token"]),
    )
    assert response.status_code == 409 and response.get_json()["code"] == "out_of_time"
    assert client.get(f"/games/{game['id']}").get_json()["seats"][0]["timed_out"] is True


def test_forfeit_ranks():
    assert clocks.forfeit_ranks([1, 2, 3], [0]) == [3, 1, 2]
    assert clocks.forfeit_ranks([1, 1, 3, 4], [3]) == [1, 1, 3, 4]
    assert clocks.forfeit_ranks([2, 1, 1], [1]) == [2, 3, 1]


def test_a_paused_table_whose_seat_ran_out_of_time_schedules_no_more_work(runtime, client, monkeypatch):
    from workers.bot_tables import BOT_TABLES, LOOKS

    now = [1000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    monkeypatch.setenv("TRADEWINDS_BOT_IDLE_SECONDS", "60")
    game = clocked_game(client, "bot", bank=10, rounds=2)
    gid = game["id"]
    assert runtime.store.get_document(BOT_TABLES, gid) is not None  # a clock makes it a bot table
    runtime.store.put_document(LOOKS, gid, {"paused": None, "seen_at": now[0] - 1000})  # nobody looked for long
    now[0] += 11
    runtime.sweep()  # seat 0 runs out of time; its bot would move, but the table is unwatched: it pauses
    body = runtime.service.load(gid)
    assert body.seats[0]["timed_out"] and runtime.store.get_document(LOOKS, gid)["paused"] is not None
    ran = []
    for _ in range(5):
        now[0] += 1
        ran.append(runtime.sweep())
    assert ran == [0] * 5, ran  # no clock check comes due again and again: the only seat the clock ran for is a bot
    assert runtime.service.load(gid).version == body.version
