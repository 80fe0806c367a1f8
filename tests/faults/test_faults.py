"""Bot turns and webhooks survive faults: Redis restarted, a worker killed, PostgreSQL restarted, a slow receiver.

Each case ends with every game accounted for: finished (or at the expected turn), each move stored once,
hash chains verified, no bot work left in the outbox.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from api.app import create_app
from tests.faults.conftest import LONG, report, wait_until
from tests.support.own_services import OwnPostgres, free_port
from tests.support.worker_launcher import SLOW, register_test_extras
from workers import apikeys, jobs, webhooks
from workers.game_model import GameError
from workers.runtime import Runtime

pytestmark = [pytest.mark.postgres, pytest.mark.faults]

ROUNDS = 4
SEATS = 3
BOTS = [{"kind": "bot", "level": "random"}] * SEATS


@pytest.fixture(autouse=True)
def slow_level():
    register_test_extras()
    yield
    from domain.bots.levels import LEVELS

    LEVELS.pop("slow", None)


def all_bot_games(runtime: Runtime, count: int, rounds: int = ROUNDS, created_by: str | None = None) -> list[str]:
    return [
        runtime.service.create_game("secret_numbers", BOTS, {"rounds": rounds}, created_by=created_by)[0].info.stream
        for _ in range(count)
    ]


def turns(store, gid: str) -> list:
    return [e for e in store.read(gid) if e.type == "TurnEnded"]


def finished(store, gids: list[str]) -> bool:
    return all(store.stream_info(g).status == "finished" for g in gids)


def audit(store, gids: list[str], expected_turns: int | None = ROUNDS * SEATS) -> None:
    """Nothing lost, nothing duplicated, every chain verified, no bot work left behind."""
    for gid in gids:
        moves = turns(store, gid)
        move_ids = [e.meta["move"] for e in moves]
        assert len(move_ids) == len(set(move_ids)), f"{gid}: a move was stored twice"
        if expected_turns is not None:
            assert len(moves) == expected_turns, f"{gid}: {len(moves)} turns, not {expected_turns}"
        assert store.verify(gid).ok, f"{gid}: the hash chain does not verify"
    pending = {e.args[0] for e in store.list_outbox(job="play_bot_turn", limit=10_000)}
    assert not pending & set(gids) - {g for g in gids if store.stream_info(g).status == "active"}


def abort_soon(runtime: Runtime, game_id: str) -> None:
    """Abort a game its bots are playing (a bot move in between makes the first tries stale)."""
    for _ in range(50):
        try:
            runtime.service.abort(game_id, by="integrator:faults")
            return
        except GameError as exc:
            if exc.code == "game_over":
                return
            if exc.code != "stale_version":
                raise
    raise AssertionError(f"could not abort {game_id}")


def worker_env(db_url: str, redis_url: str) -> dict[str, str]:
    # the tests' webhook receivers listen on 127.0.0.1, which a server refuses unless allowed (docs/limits.md)
    return {
        "TRADEWINDS_DATABASE_URL": db_url,
        "TRADEWINDS_REDIS_URL": redis_url,
        "TRADEWINDS_WEBHOOK_ALLOW_PRIVATE": "1",
    }


def test_redis_restart_while_bot_games_run(pg_database, own_redis, processes):
    """Redis killed (losing every queued job) and started again: the games finish, the workers live on,
    and a human move made during the outage is answered 200 and gets its bot reply."""
    games, outage = (30, 10.0) if LONG else (10, 3.0)
    runtime = Runtime.build(pg_database, own_redis.url, dispatcher="rq")
    jobs.set_runtime(runtime)
    try:
        env = worker_env(pg_database, own_redis.url)
        workers = [processes.start(env), processes.start(env)]
        from rq import Worker

        # both running (a worker that cannot reach Redis at start-up fails fast, for its supervisor to retry)
        assert wait_until(lambda: Worker.count(connection=runtime.dispatcher.redis) == 2, 90) is not None
        # long enough that the workers cannot finish them between the check below and the kill (with 8 rounds a
        # quiet machine sometimes did: the outage then hit no game)
        gids = all_bot_games(runtime, games, rounds=ROUNDS * 6)
        client = create_app(runtime).test_client()
        mixed = client.post(
            "/games",
            json={
                "game_type": "secret_numbers",
                "options": {"rounds": 2},
                "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}],
            },
        ).get_json()
        assert wait_until(lambda: sum(len(turns(runtime.store, g)) for g in gids) >= games, 60) is not None
        own_redis.stop()  # kill -9, no persistence: every queued job is gone
        time.sleep(outage / 2)
        move = client.post(
            f"/games/{mixed['id']}/commands",
            json={"command": {"type": "pass"}},
            headers={"Authorization": f"Bearer {mixed['seat_tokens'][0]['token']}"},
        )
        assert move.status_code == 200, move.get_json()  # committed: answered 200 whatever the queue's state
        human_version = move.get_json()["version"]
        time.sleep(outage / 2)
        assert not finished(runtime.store, gids)
        own_redis.start()
        back = time.monotonic()
        recovered = wait_until(lambda: finished(runtime.store, gids), 60)
        reply = wait_until(lambda: runtime.service.load(mixed["id"]).version > human_version, 60)
        assert recovered is not None and recovered < 30, f"games finished {recovered} s after Redis came back"
        assert reply is not None, "the human move's bot reply never came"
        exited = [processes.output(w)[-4000:] for w in workers if w.poll() is not None]
        assert not exited, f"a worker exited instead of reconnecting: {exited}"
        audit(runtime.store, gids, ROUNDS * 6 * SEATS)
        audit(runtime.store, [mixed["id"]], None)
        report(
            "redis-restart",
            games=games,
            outage_s=outage,
            recovery_s=round(recovered, 1),
            human_reply_s=round(time.monotonic() - back, 1),
            human_status=move.status_code,
            workers_alive=sum(w.poll() is None for w in workers),
            lost=0,
            duplicated=0,
        )
    finally:
        jobs.set_runtime(None)
        runtime.close()


def test_a_worker_killed_mid_move_resumes_within_seconds(pg_database, own_redis, processes):
    """SIGKILL to a worker (and its work horse, with --fork) holding a slow bot's job: another worker's
    sweeper notices the missing heartbeat and the game resumes, the move played once."""
    runtime = Runtime.build(pg_database, own_redis.url, dispatcher="rq")
    try:
        env = worker_env(pg_database, own_redis.url)
        outcomes = {}
        for mode in (["--fork"], []):
            game, _ = runtime.service.create_game(
                "secret_numbers", [{"kind": "bot", "level": "slow"}, {"kind": "human", "name": "h"}], {"rounds": 2}
            )
            gid = game.info.stream
            victim = processes.start(env, *mode)
            started = wait_until(lambda: runtime.dispatcher.redis.keys("rq:wip:*") or _started(runtime), 60)
            assert started is not None, "the worker never picked up the bot job"
            time.sleep(SLOW.time_budget_ms / 1000 / 3)  # well inside the bot's 3 s search
            os.killpg(victim.pid, signal.SIGKILL)  # the worker and its work horse at once
            victim.wait()
            killed = time.monotonic()
            assert turns(runtime.store, gid) == []  # the killed job stored nothing
            rescuer = processes.start(env)
            resumed = wait_until(lambda gid=gid: len(turns(runtime.store, gid)) >= 1, 45)
            assert resumed is not None, "the killed worker's bot turn never played"
            resumed_after = time.monotonic() - killed
            assert resumed_after < 30
            time.sleep(1.5)  # a duplicate, if any, would play now
            processes.stop(rescuer)
            assert len(turns(runtime.store, gid)) == 1  # once: not lost, not twice
            audit(runtime.store, [gid], 1)
            outcomes["fork" if mode else "in-process"] = round(resumed_after, 1)
        report("worker-sigkill", resumed_after_s=outcomes, lost=0, duplicated=0)
    finally:
        runtime.close()


def _started(runtime: Runtime) -> bool:
    from rq.registry import StartedJobRegistry

    return StartedJobRegistry(queue=runtime.dispatcher.queue).count > 0


def test_postgres_restart_mid_load(processes, tmp_path):
    """The server's own PostgreSQL cluster restarted while bot games run: the service answers again within
    5 s, clients see 503 (never 500) meanwhile, and every game finishes."""
    pg = OwnPostgres().init().start()
    try:
        port = free_port()
        server = processes.start({"TRADEWINDS_DATABASE_URL": pg.url}, "serve", "--port", str(port))
        base = f"http://127.0.0.1:{port}"
        assert wait_until(lambda: _get(base + "/health")[0] == 200, 60) is not None, server
        from eventstore.postgres import PostgresStore

        keys = PostgresStore(pg.url)
        _, key = apikeys.create_key(keys, "faults")  # games of bots only are an integrator's
        keys.close()
        gids = []
        for _ in range(6):
            status, body = _post(
                base + "/games",
                {"game_type": "secret_numbers", "seats": BOTS, "options": {"rounds": ROUNDS * 3}},
                {"Authorization": f"Bearer {key}"},
            )
            assert status == 201, body
            gids.append(body["id"])
        statuses: list[int] = []
        stop = threading.Event()

        def poll() -> None:
            while not stop.is_set():
                statuses.append(_get(f"{base}/games/{gids[0]}")[0])
                time.sleep(0.05)

        poller = threading.Thread(target=poll, daemon=True)
        poller.start()
        time.sleep(1.0)
        down = time.monotonic()
        pg.restart()  # immediate shut-down (as a crash), then start: "answered" counts from the start
        restart_took = time.monotonic() - down
        answered = wait_until(lambda: _get(f"{base}/games/{gids[0]}")[0] == 200, 30, step=0.05)
        stop.set()
        poller.join()
        assert answered is not None and answered < 5, f"answered again after {answered} s"
        assert 500 not in statuses, statuses
        done = wait_until(lambda: all(_get(f"{base}/games/{g}")[1].get("status") == "finished" for g in gids), 90)
        assert done is not None, "the games did not all finish after the restart"
        from eventstore.postgres import PostgresStore

        store = PostgresStore(pg.url)
        try:
            audit(store, gids, ROUNDS * 3 * SEATS)
        finally:
            store.close()
        report(
            "postgres-restart",
            restart_s=round(restart_took, 2),
            answered_again_s=round(answered, 2),
            client_statuses=sorted(set(statuses)),
            errors_503=statuses.count(503),
            lost=0,
            duplicated=0,
        )
    finally:
        processes.kill_all()
        pg.remove()


class SlowReceiver:
    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.received = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received += 1
                time.sleep(receiver.delay)
                try:
                    self.send_response(204)
                    self.end_headers()
                except OSError:
                    pass

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def test_a_slow_webhook_receiver_does_not_slow_other_games(pg_database, own_redis, processes):
    """Bot moves a minute of games without webhooks, with and without another integrator's 10 s receiver."""
    seconds = 20.0 if LONG else 8.0
    runtime = Runtime.build(pg_database, own_redis.url, dispatcher="rq")
    receiver = SlowReceiver(10.0)
    try:
        env = worker_env(pg_database, own_redis.url)
        processes.start(env, "--queues", "bots")
        processes.start(env, "--queues", "webhooks")
        quiet, _ = apikeys.create_key(runtime.store, "site without webhooks")
        slow, _ = apikeys.create_key(runtime.store, "site with a slow receiver")
        webhooks.create_subscription(runtime.store, slow.key_id, receiver.url, list(webhooks.KINDS))

        def moves_a_minute(with_webhooks: bool) -> float:
            """Bot moves a minute of 6 games without webhooks, beside 6 games of another integrator."""
            gids = all_bot_games(runtime, 6, rounds=200)
            others = all_bot_games(runtime, 6, rounds=200, created_by=(slow if with_webhooks else quiet).key_id)
            assert wait_until(lambda: sum(len(turns(runtime.store, g)) for g in gids) > 0, 30) is not None
            before, start = sum(len(turns(runtime.store, g)) for g in gids), time.monotonic()
            time.sleep(seconds)
            after = sum(len(turns(runtime.store, g)) for g in gids)
            for gid in gids + others:  # end them, so that no bot turn of theirs competes with the next phase
                abort_soon(runtime, gid)
            return (after - before) / (time.monotonic() - start) * 60

        without = moves_a_minute(False)
        with_slow = moves_a_minute(True)
        assert receiver.received >= 1, "the slow receiver was never called"
        assert with_slow >= 0.5 * without, (without, with_slow)
        report(
            "slow-webhook",
            moves_a_minute_without=round(without),
            moves_a_minute_with=round(with_slow),
            ratio=round(with_slow / without, 2),
            receiver_calls=receiver.received,
        )
    finally:
        receiver.server.shutdown()
        runtime.close()


def _get(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, {}
    except OSError:
        return 0, {}


def _post(url: str, body: dict, headers: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"{}")
