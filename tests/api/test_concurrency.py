"""Concurrent and failing writers through the API: one move applied once, nothing half-written."""

from __future__ import annotations

import threading

from tests.api.conftest import auth, create_secret_game


def run_concurrently(app, count, request):
    barrier = threading.Barrier(count)
    results = [None] * count

    def worker(i):
        client = app.test_client()
        barrier.wait()
        results[i] = request(client, i)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_twenty_concurrent_submissions_of_one_move_apply_once(app, client, runtime):
    game = create_secret_game(client, seats=2, rounds=5)
    gid, token = game["id"], game["seat_tokens"][0]["token"]

    def submit(c, i):
        r = c.post(f"/games/{gid}/commands", json={"command": {"type": "bank", "amount": 2}}, headers=auth(token))
        return r.status_code, r.get_json().get("code")

    results = run_concurrently(app, 20, submit)
    assert sum(1 for status, _ in results if status == 200) == 1
    assert all(code == "not_your_turn" for status, code in results if status != 200)
    events = runtime.store.read(gid)
    assert [e.data["type"] for e in events].count("PointsBanked") == 1
    assert [e.version for e in events] == list(range(1, len(events) + 1))


def test_twenty_concurrent_retries_with_one_idempotency_key(app, client, runtime):
    game = create_secret_game(client, seats=2, rounds=5)
    gid, token = game["id"], game["seat_tokens"][0]["token"]

    def submit(c, i):
        r = c.post(
            f"/games/{gid}/commands",
            json={"command": {"type": "bank", "amount": 2}},
            headers={**auth(token), "Idempotency-Key": "same-key"},
        )
        return r.status_code, r.get_json()

    results = run_concurrently(app, 20, submit)
    assert all(status == 200 for status, _ in results), results
    assert sum(1 for _, body in results if not body["replayed"]) == 1
    assert len({tuple(e["version"] for e in body["events"]) for _, body in results}) == 1
    assert [e.data["type"] for e in runtime.store.read(gid)].count("PointsBanked") == 1


def test_concurrent_if_match_writers_one_wins_rest_412(app, client):
    game = create_secret_game(client, seats=1, rounds=50)
    gid, token, etag = game["id"], game["seat_tokens"][0]["token"], game["etag"]

    def submit(c, i):
        r = c.post(
            f"/games/{gid}/commands",
            json={"command": {"type": "pass"}},
            headers={**auth(token), "If-Match": f'"{etag}"'},
        )
        return r.status_code

    results = run_concurrently(app, 8, submit)
    assert sorted(results) == [200] + [412] * 7


def test_a_failing_append_stores_nothing_and_the_game_goes_on(app, client, runtime, monkeypatch):
    game = create_secret_game(client, seats=2, rounds=5)
    gid, token = game["id"], game["seat_tokens"][0]["token"]
    before = [e.hash for e in runtime.store.read(gid)]
    real_append = runtime.store.append

    def crash(*args, **kwargs):
        raise RuntimeError("connection lost")

    monkeypatch.setattr(runtime.store, "append", crash)
    response = client.post(f"/games/{gid}/commands", json={"command": {"type": "draw"}}, headers=auth(token))
    assert response.status_code == 500
    assert response.content_type == "application/problem+json"
    assert "connection lost" not in response.get_data(as_text=True)
    monkeypatch.setattr(runtime.store, "append", real_append)
    assert [e.hash for e in runtime.store.read(gid)] == before
    again = client.post(f"/games/{gid}/commands", json={"command": {"type": "draw"}}, headers=auth(token))
    assert again.status_code == 200


def test_bot_jobs_are_idempotent(client, runtime):
    from workers import jobs

    game = create_secret_game(client, seats=2, rounds=3, bots=(None, "random"))
    gid, token = game["id"], game["seat_tokens"][0]["token"]
    client.post(f"/games/{gid}/commands", json={"command": {"type": "pass"}}, headers=auth(token))
    version = runtime.service.load(gid).version
    # the bot has answered already: running the job again for an old version does nothing
    assert jobs.play_bot_turn(gid, version - 1) == "stale"
    assert jobs.play_bot_turn(gid, version) == "no bot to act"
    assert runtime.service.load(gid).version == version
