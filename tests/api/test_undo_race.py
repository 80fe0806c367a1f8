"""An instant undo racing another seat's move never erases a move that was answered 200.

Given seat 0 has just banked (its own private move, instantly undoable), when seat 0 asks to undo it
while seat 1 plays at the same moment, then either seat 1's move is refused (not its turn yet, or the
version moved) or the undo is refused with 412: a move confirmed with 200 is always still in the
stream afterwards. Runs on SQLite and PostgreSQL through the real API with real threads.

``TRADEWINDS_UNDO_RACE_TRIES`` sets the number of races per backend (CI default below; the closing
figure of the integrity work was taken with 200).
"""

from __future__ import annotations

import os
import threading

import pytest

from api.app import create_app
from eventstore.postgres import PostgresStore
from eventstore.sqlite import SqliteStore
from tests.api.conftest import auth
from tests.eventstore.conftest import empty_postgres
from workers import jobs
from workers.dispatch import InlineDispatcher
from workers.runtime import Runtime, run_job

TRIES = int(os.environ.get("TRADEWINDS_UNDO_RACE_TRIES", "25"))


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def race_app(request, tmp_path):
    if request.param == "sqlite":

        def open_store(signer):
            return SqliteStore(tmp_path / "race.db", signer=signer)
    else:
        url = request.getfixturevalue("postgres_url")
        empty_postgres(url)

        def open_store(signer):
            return PostgresStore(url, max_size=8, signer=signer)

    dispatcher = InlineDispatcher(run_job)
    runtime = Runtime.signed(open_store, dispatcher, "race://")
    store = runtime.store
    jobs.set_runtime(runtime)
    yield create_app(runtime), runtime
    jobs.set_runtime(None)
    store.close()


def new_game(client) -> tuple[str, dict[int, str], int]:
    body = {
        "game_type": "secret_numbers",
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}],
        "options": {"rounds": 5},
    }
    game = client.post("/games", json=body).get_json()
    return game["id"], {t["seat"]: t["token"] for t in game["seat_tokens"]}, game["version"]


def race(app, runtime, gid: str, token: dict[int, str], undo_path: str, undo_body: dict | None) -> tuple:
    """Seat 1 plays while ``undo_path`` is posted at the same moment; the answers and how many of seat 1's
    confirmed (200) events are no longer in the live stream afterwards."""
    barrier = threading.Barrier(2)
    out: dict = {}

    def seat_1_moves():
        c = app.test_client()
        barrier.wait()
        r = c.post(f"/games/{gid}/commands", json={"command": {"type": "pass"}}, headers=auth(token[1]))
        out["move"] = (r.status_code, r.get_json())

    def undo():
        c = app.test_client()
        barrier.wait()
        seat = 0 if undo_path.endswith("/undo") else 1
        r = c.post(f"/games/{gid}{undo_path}", json=undo_body, headers=auth(token[seat]))
        out["undo"] = (r.status_code, r.get_json())

    threads = [threading.Thread(target=seat_1_moves), threading.Thread(target=undo)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    live = {e.version: e for e in runtime.store.read(gid)}
    move_status, move_body = out["move"]
    erased = 0
    if move_status == 200:
        for event in move_body["events"]:
            kept = live.get(event["version"])
            if kept is None or kept.generation != event["generation"] or kept.meta.get("seat") != 1:
                erased += 1
    undo_status, undo_answer = out["undo"]
    assert move_status in (200, 409, 412), move_body
    return move_status, undo_status, undo_answer, erased


def play_one_race(app, runtime) -> dict:
    client = app.test_client()
    gid, token, before = new_game(client)
    banked = client.post(
        f"/games/{gid}/commands", json={"command": {"type": "bank", "amount": 2}}, headers=auth(token[0])
    )
    assert banked.status_code == 200
    move_status, undo_status, undo_body, erased = race(
        app, runtime, gid, token, "/undo", {"to_version": before, "reason": "misclick"}
    )
    assert undo_status in (200, 412), undo_body
    if undo_status == 412:
        assert runtime.store.archived(gid) == [] and undo_body["code"] == "stale_version"
    assert runtime.store.verify(gid).ok
    undo_kind = undo_body.get("status") if undo_status == 200 else undo_status  # done / requested / 412
    return {"erased": erased, "move": move_status, "undo": undo_kind}


def play_one_accept_race(app, runtime) -> dict:
    """Seat 0 drew (random: the undo needs seat 1's agreement); seat 1 accepts and plays at the same time."""
    client = app.test_client()
    gid, token, before = new_game(client)
    assert (
        client.post(f"/games/{gid}/commands", json={"command": {"type": "draw"}}, headers=auth(token[0])).status_code
        == 200
    )
    asked = client.post(f"/games/{gid}/undo", json={"to_version": before, "reason": "oops"}, headers=auth(token[0]))
    assert asked.get_json()["status"] == "requested"
    move_status, undo_status, undo_body, erased = race(app, runtime, gid, token, "/undo/accept", None)
    assert undo_status in (200, 409, 412), undo_body
    return {
        "erased": erased,
        "move": move_status,
        "undo": undo_body.get("status") if undo_status == 200 else undo_status,
    }


def test_a_concurrent_accept_never_erases_a_confirmed_move(race_app):
    app, runtime = race_app
    outcomes = [play_one_accept_race(app, runtime) for _ in range(TRIES)]
    erased = sum(o["erased"] for o in outcomes)
    print(
        f"accept race: {TRIES} tries, {erased} confirmed moves erased; undos done "
        f"{sum(o['undo'] == 'done' for o in outcomes)}, refused {sum(o['undo'] in (409, 412) for o in outcomes)}; "
        f"moves confirmed {sum(o['move'] == 200 for o in outcomes)}"
    )
    assert erased == 0


def test_concurrent_instant_undo_never_erases_a_confirmed_move(race_app):
    app, runtime = race_app
    outcomes = [play_one_race(app, runtime) for _ in range(TRIES)]
    erased = sum(o["erased"] for o in outcomes)
    print(
        f"undo race: {TRIES} tries, {erased} confirmed moves erased; undos done "
        f"{sum(o['undo'] == 'done' for o in outcomes)}, turned into requests "
        f"{sum(o['undo'] == 'requested' for o in outcomes)}, refused with 412 "
        f"{sum(o['undo'] == 412 for o in outcomes)}; moves confirmed {sum(o['move'] == 200 for o in outcomes)}"
    )
    assert erased == 0
