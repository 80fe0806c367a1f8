"""Bot turns through RQ on a real Redis: a game whose seats are all bots finishes with no human input."""

from __future__ import annotations

import pytest

from api.app import create_app
from tests.api.conftest import integrator
from tests.support.secret_game import RULES as SECRET
from workers import jobs
from workers.dispatch import QUEUE_NAME
from workers.runtime import Runtime


@pytest.fixture
def rq_runtime(tmp_path, redis_url):
    runtime = Runtime.build(f"sqlite:///{tmp_path}/games.db", redis_url, dispatcher="rq")
    jobs.set_runtime(runtime)
    yield runtime
    jobs.set_runtime(None)
    runtime.store.close()


def test_all_bot_game_finishes_through_an_rq_worker(rq_runtime):
    from rq import SimpleWorker

    client = create_app(rq_runtime).test_client()
    created = client.post(
        "/games",
        json={
            "game_type": SECRET.name,
            "seats": [
                {"kind": "bot", "level": "random"},
                {"kind": "bot", "level": "easy"},
                {"kind": "bot", "level": "random"},
            ],
            "options": {"rounds": 4},
        },
        headers=integrator(rq_runtime),  # games of bots only are an integrator's
    )
    assert created.status_code == 201
    gid = created.get_json()["id"]
    # nothing has played yet: the first bot turn waits on the queue
    assert client.get(f"/games/{gid}").get_json()["status"] == "active"
    assert rq_runtime.dispatcher.queue.count == 1
    SimpleWorker([QUEUE_NAME], connection=rq_runtime.dispatcher.redis).work(burst=True)
    final = client.get(f"/games/{gid}").get_json()
    assert final["status"] == "finished"
    events = client.get(f"/games/{gid}/events?limit=1000").get_json()["events"]
    turns = [e for e in events if e["type"] == "TurnEnded"]
    assert len(turns) == 3 * 4 and all(e["actor"] == "bot" for e in turns)


def test_duplicate_jobs_play_once(rq_runtime):
    from rq import SimpleWorker

    client = create_app(rq_runtime).test_client()
    gid = client.post(
        "/games",
        json={
            "game_type": SECRET.name,
            "seats": [{"kind": "bot", "level": "random"}, {"kind": "human", "name": "h"}],
            "options": {"rounds": 2},
        },
    ).get_json()["id"]
    game = rq_runtime.service.load(gid)
    for _ in range(3):  # the same job queued again, as a retry or a duplicate would be
        rq_runtime.service.schedule_bot_turn(game)
    SimpleWorker([QUEUE_NAME], connection=rq_runtime.dispatcher.redis).work(burst=True)
    after = rq_runtime.service.load(gid)
    bot_moves = [e for e in rq_runtime.store.read(gid) if e.meta.get("actor") == "bot" and e.type == "TurnEnded"]
    assert len(bot_moves) == 1
    assert sorted(after.rules.to_act(after.state)) == [1]


def test_a_four_bot_puerto_rico_game_created_over_the_api_finishes_with_a_burst_worker(tmp_path, redis_url):
    import os
    import subprocess
    import sys
    from pathlib import Path

    db_url = f"sqlite:///{tmp_path}/games.db"
    runtime = Runtime.build(db_url, redis_url, dispatcher="rq")
    client = create_app(runtime).test_client()
    created = client.post(
        "/games",
        json={
            "game_type": "puerto_rico",
            "seed": 4,
            "seats": [{"kind": "bot", "level": level} for level in ("easy", "random", "easy", "random")],
        },
        headers=integrator(runtime),
    )
    assert created.status_code == 201, created.get_json()
    gid = created.get_json()["id"]
    env = {
        **os.environ,
        "TRADEWINDS_DATABASE_URL": db_url,
        "TRADEWINDS_REDIS_URL": redis_url,
        "TRADEWINDS_LOG_LEVEL": "WARNING",
    }
    worker = subprocess.run(
        [sys.executable, "-m", "api.cli", "worker", "--burst", "--in-process"],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert worker.returncode == 0, worker.stderr[-2000:]
    # TRADEWINDS_LOG_LEVEL (WARNING here) holds for the queue library's lines too: none per job
    assert '"level": "INFO"' not in worker.stderr + worker.stdout, worker.stderr[-2000:]
    final = client.get(f"/games/{gid}").get_json()
    assert final["status"] == "finished"
    assert sorted(final["result"]["ranks"])[0] == 1
    runtime.store.close()


@pytest.mark.parametrize("job", ["play_bot_turn", "sync_webhooks"])
def test_a_job_taken_by_a_worker_that_died_before_starting_it_is_not_live(rq_runtime, job):
    """A worker that takes a job off its queue and dies (or loses Redis) before starting it leaves the job "queued"
    on no list, which no worker will ever take: the sweeper must send it again, not count it live for ever. A job
    still on its queue, or taken by a worker that has not started it (RQ's intermediate list), is live."""
    import time

    from rq.intermediate_queue import IntermediateQueue

    from eventstore.outbox import OutboxEntry

    dispatcher = rq_runtime.dispatcher
    entry = OutboxEntry(f"{job}:g-1", "token1", job, ["g-1", 1] if job == "play_bot_turn" else ["g-1"], time.time())
    dispatcher.dispatch(entry)
    assert dispatcher.is_live(entry)
    redis = dispatcher.redis
    (queue_key,) = [key.decode() for key in redis.keys("rq:queue:*") if redis.llen(key)]
    taken = IntermediateQueue.get_intermediate_queue_key(queue_key)
    assert redis.lmove(queue_key, taken) == f"ob-{entry.token}".encode()  # a worker took it and has not started it
    assert dispatcher.is_live(entry)
    assert redis.lpop(taken) == f"ob-{entry.token}".encode()  # and died
    assert not dispatcher.is_live(entry)
    dispatcher.dispatch(entry)  # the sweeper's new dispatch
    assert dispatcher.is_live(entry) and redis.llen(queue_key) == 1
