"""Work caused by a move survives a queue that is down, a job that fails and a duplicate dispatch."""

from __future__ import annotations

import time

import pytest

from api.app import create_app
from eventstore.sqlite import SqliteStore
from tests.api.conftest import auth, create_secret_game, make_runtime
from tests.support.own_services import OwnRedis
from workers import jobs
from workers.dispatch import QUEUE_NAME, RQDispatcher
from workers.games import GameService
from workers.runtime import Runtime
from workers.sweeper import LEASE


def bot_turns(store, gid):
    return [e.version for e in store.read(gid) if e.meta.get("actor") == "bot" and e.type == "TurnEnded"]


def test_a_move_while_redis_is_down_answers_200_and_its_bot_reply_follows_recovery(tmp_path, caplog):
    from rq import SimpleWorker

    redis = OwnRedis(tmp_path)  # not started yet: nothing listens on its port
    store = SqliteStore(tmp_path / "games.db")
    dispatcher = RQDispatcher(redis.url)
    runtime = Runtime(store, dispatcher, GameService(store, dispatcher), "sqlite", redis.url)
    jobs.set_runtime(runtime)
    try:
        client = create_app(runtime).test_client()
        game = create_secret_game(client, seats=2, bots=(None, "random"))  # created with Redis down: 201
        gid, token = game["id"], game["seat_tokens"][0]["token"]
        moved = client.post(f"/games/{gid}/commands", json={"command": {"type": "pass"}}, headers=auth(token))
        assert moved.status_code == 200, moved.get_json()
        assert "could not dispatch play_bot_turn" in caplog.text  # logged, not answered with 5xx
        [pending] = runtime.service.pending_bot_turns()
        assert pending.key == f"bot:{gid}" and pending.args[1] == moved.get_json()["version"]
        assert runtime.sweep(now=time.time() + LEASE + 1) == 0  # still down: the work stays in the outbox

        redis.start()
        dispatcher._down_until = 0.0
        assert runtime.sweep(now=time.time() + 10 * LEASE) == 1  # back: the sweeper queues the bot turn
        SimpleWorker([QUEUE_NAME], connection=dispatcher.redis).work(burst=True)
        assert len(bot_turns(store, gid)) == 1
        assert runtime.service.pending_bot_turns() == []  # the job completed its entry
        assert client.get(f"/games/{gid}").get_json()["to_act"] == [0]
    finally:
        jobs.set_runtime(None)
        redis.stop()
        store.close()


def test_a_failed_job_keeps_its_work_until_a_sweep_runs_it_again(monkeypatch):
    runtime = make_runtime()
    try:
        client = create_app(runtime).test_client()
        real = jobs.play_bot_turn
        failures = []

        def flaky(*args):
            if not failures:
                failures.append(args)
                raise ConnectionError("the database went away mid-job")
            return real(*args)

        monkeypatch.setattr(jobs, "play_bot_turn", flaky)
        game = create_secret_game(client, seats=2, bots=("random", None))
        gid = game["id"]
        assert failures and bot_turns(runtime.store, gid) == []  # the job failed: nothing played
        [pending] = runtime.service.pending_bot_turns()
        assert runtime.sweep() == 0  # leased: not due before the lease runs out
        assert runtime.sweep(now=time.time() + LEASE + 0.1) == 1
        assert len(bot_turns(runtime.store, gid)) == 1
        assert runtime.service.pending_bot_turns() == []
        assert runtime.sweep(now=time.time() + 1000) == 0  # nothing left to do
    finally:
        jobs.set_runtime(None)


def test_duplicate_dispatches_of_one_entry_play_once():
    runtime = make_runtime()
    try:
        service = runtime.service
        game, _ = service.create_game(
            "secret_numbers", [{"kind": "human"}, {"kind": "bot", "level": "random"}], {"rounds": 2}, start_bots=False
        )
        gid = game.info.stream
        service.submit(gid, 0, [{"type": "pass"}])  # writes the bot's turn and runs it inline
        assert len(bot_turns(runtime.store, gid)) == 1
        stale = service.load(gid)
        for _ in range(3):  # the work of an earlier version dispatched again (a duplicate, a retry)
            jobs.play_bot_turn(gid, stale.version - 1, stale.generation)
            runtime.sweep(now=time.time() + 1000)
        assert len(bot_turns(runtime.store, gid)) == 1
    finally:
        jobs.set_runtime(None)


def test_pending_bot_turns_are_an_outbox_query_that_ignores_old_and_finished_games():
    runtime = make_runtime()
    try:
        service = runtime.service
        waiting = []
        for index in range(5):
            game, _ = service.create_game(
                "secret_numbers",
                [{"kind": "bot", "level": "random"}, {"kind": "human"}],
                {"rounds": 1},
                start_bots=False,
            )
            if index % 2:
                service.schedule_bot_turn(game)  # plays inline, then the human is to act
            else:
                waiting.append(game.info.stream)
                runtime.store.put_outbox(service.work_for(game, None))  # written, not dispatched
        finished, _ = service.create_game("secret_numbers", [{"kind": "bot", "level": "random"}] * 2, {"rounds": 1})
        assert service.load(finished.info.stream).over
        assert sorted(e.args[0] for e in service.pending_bot_turns()) == sorted(waiting)
        assert service.resume_pending_bots() == len(waiting)
        assert service.pending_bot_turns() == []
    finally:
        jobs.set_runtime(None)


@pytest.mark.parametrize("kind", ["in-process"])
def test_the_in_process_runner_sweeps_by_itself(kind, tmp_path):
    runtime = Runtime.build(f"sqlite:///{tmp_path}/games.db", dispatcher=kind)
    try:
        game, _ = runtime.service.create_game(
            "secret_numbers", [{"kind": "bot", "level": "random"}, {"kind": "human"}], {"rounds": 1}, start_bots=False
        )
        work = [dict(item, due_at=time.time()) for item in runtime.service.work_for(game, None)]
        runtime.store.put_outbox(work)  # as if the process died right after the commit
        runtime.sweeper.lease = 0.2
        deadline = time.monotonic() + 10
        while not bot_turns(runtime.store, game.info.stream) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(bot_turns(runtime.store, game.info.stream)) == 1
    finally:
        jobs.set_runtime(None)
        runtime.close()


def test_migrate_gives_games_from_before_the_outbox_their_pending_work():
    runtime = make_runtime()
    try:
        service = runtime.service
        service.dispatcher = None  # as before the outbox: the work went to the queue only, and was lost
        waiting, _ = service.create_game(
            "secret_numbers", [{"kind": "bot", "level": "random"}, {"kind": "human"}], {"rounds": 1}, start_bots=False
        )
        human, _ = service.create_game(
            "secret_numbers", [{"kind": "human"}, {"kind": "bot", "level": "random"}], {"rounds": 1}, start_bots=False
        )
        assert service.pending_bot_turns() == []
        assert service.backfill_outbox() == 1
        assert [e.args[0] for e in service.pending_bot_turns()] == [waiting.info.stream]
        assert service.backfill_outbox() == 0  # once only
        human_work = {e.job for e in runtime.store.list_outbox() if e.args[0] == human.info.stream}
        assert human_work == {"expire_game"}  # written at creation; no bot turn for the game waiting on its human
    finally:
        jobs.set_runtime(None)


def test_migrate_gives_active_games_from_before_expiry_their_expiry_check():
    runtime = make_runtime()
    try:
        service = runtime.service
        game, _ = service.create_game("secret_numbers", [{"kind": "human"}, {"kind": "human"}], {"rounds": 1})
        (entry,) = runtime.store.list_outbox(job="expire_game")
        assert runtime.store.complete_outbox(entry.key, entry.token)  # as a game stored before expiry existed
        assert service.backfill_outbox() == 1
        (again,) = runtime.store.list_outbox(job="expire_game")
        assert again.args == [game.info.stream] and again.due_at >= time.time() + service.expiry_seconds - 60
        assert service.backfill_outbox() == 0
    finally:
        jobs.set_runtime(None)
