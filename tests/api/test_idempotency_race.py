"""Five identical POSTs with one Idempotency-Key, racing: one move is stored, and every request gets that move's
answer, never an error about the move that succeeded (given a game and a move, when five copies of it arrive at
once, then one stored move and five identical answers)."""

from __future__ import annotations

import threading

from tests.api.conftest import auth, create_secret_game
from tests.api.stores import durable  # noqa: F401  (fixture)

COPIES = 5


def test_five_racing_copies_of_one_move_get_one_stored_move_and_its_answer(durable):  # noqa: F811
    app, runtime = durable
    client = app.test_client()
    game = create_secret_game(client, seats=2, rounds=5)
    gid, token, etag = game["id"], game["seat_tokens"][0]["token"], game["etag"]
    before = len(runtime.store.read(gid))

    # The worst interleaving, made certain: every copy has looked for the key (not there yet) before the first
    # copy stores the move, and the others load the game only after that, when the move is no longer legal
    # and their If-Match is stale.
    service = runtime.service
    original_load = service.load
    local = threading.local()
    looked = threading.Semaphore(0)
    stored = threading.Event()

    def load(*args, **kwargs):
        index = getattr(local, "index", None)
        if index is not None and not getattr(local, "gated", False):
            local.gated = True
            if index == 0:
                for _ in range(COPIES - 1):
                    assert looked.acquire(timeout=10)
            else:
                looked.release()
                assert stored.wait(timeout=10)
        return original_load(*args, **kwargs)

    service.load = load
    results: list = [None] * COPIES

    def copy(index: int) -> None:
        local.index = index
        response = app.test_client().post(
            f"/games/{gid}/commands",
            json={"command": {"type": "bank", "amount": 2}},
            headers={**auth(token), "Idempotency-Key": "one-key", "If-Match": f'"{etag}"'},
        )
        results[index] = (response.status_code, response.get_json())
        if index == 0:
            stored.set()

    threads = [threading.Thread(target=copy, args=(i,)) for i in range(COPIES)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    service.load = original_load

    assert all(status == 200 for status, _ in results), results
    assert [body["replayed"] for _, body in results] == [False] + [True] * (COPIES - 1)
    answers = {(body["version"], body["etag"], tuple(e["version"] for e in body["events"])) for _, body in results}
    assert len(answers) == 1, answers
    events = runtime.store.read(gid)
    assert [e.data["type"] for e in events].count("PointsBanked") == 1
    assert len(events) == before + len(results[0][1]["events"])


def test_racing_copies_without_a_gate_also_agree(durable):  # noqa: F811
    app, runtime = durable
    client = app.test_client()
    game = create_secret_game(client, seats=2, rounds=5)
    gid, token, etag = game["id"], game["seat_tokens"][0]["token"], game["etag"]
    barrier = threading.Barrier(COPIES)
    results: list = [None] * COPIES

    def copy(index: int) -> None:
        barrier.wait()
        response = app.test_client().post(
            f"/games/{gid}/commands",
            json={"command": {"type": "bank", "amount": 2}},
            headers={**auth(token), "Idempotency-Key": "another-key", "If-Match": f'"{etag}"'},
        )
        results[index] = (response.status_code, response.get_json())

    threads = [threading.Thread(target=copy, args=(i,)) for i in range(COPIES)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert all(status == 200 for status, _ in results), results
    assert sorted(body["replayed"] for _, body in results) == [False] + [True] * (COPIES - 1)
    assert [e.data["type"] for e in runtime.store.read(gid)].count("PointsBanked") == 1
