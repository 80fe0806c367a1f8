"""A worker process killed while it holds a bot job loses no move and duplicates none."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from domain.bots.levels import LEVELS
from tests.support.worker_launcher import SLOW, register_test_extras
from workers.runtime import Runtime

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def slow_level():
    register_test_extras()
    yield
    LEVELS.pop("slow", None)


def start_worker(db_url, redis_url, *args):
    env = {**os.environ, "TRADEWINDS_DATABASE_URL": db_url, "TRADEWINDS_REDIS_URL": redis_url}
    return subprocess.Popen([sys.executable, "-m", "tests.support.worker_launcher", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True, text=True)


def stop_worker(process, timeout: float = 20) -> str:
    """SIGTERM (a warm shut-down), then SIGKILL if it has not ended within ``timeout``; returns its output."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        return process.communicate(timeout=timeout)[0]
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        return process.communicate()[0]
    except ProcessLookupError:
        return process.communicate()[0]


def bot_moves(runtime, game_id):
    return [e.version for e in runtime.store.read(game_id) if e.meta.get("actor") == "bot" and e.type == "TurnEnded"]


def test_killing_a_worker_mid_move_loses_and_duplicates_nothing(tmp_path, redis_url, slow_level):
    from rq.registry import StartedJobRegistry

    db_url = f"sqlite:///{tmp_path}/games.db"
    runtime = Runtime.build(db_url, redis_url, dispatcher="rq")
    game, _ = runtime.service.create_game(
        "secret_numbers", [{"kind": "bot", "level": "slow"}, {"kind": "human", "name": "h"}], {"rounds": 2}
    )
    gid = game.info.stream
    started = StartedJobRegistry(queue=runtime.dispatcher.queue)
    first = start_worker(db_url, redis_url)
    try:
        deadline = time.monotonic() + 60
        while started.count == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert started.count == 1, "the worker never picked up the bot job"
        time.sleep(SLOW.time_budget_ms / 1000 / 3)  # well inside the bot's 3 s search
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
    killed_at = time.monotonic()
    assert bot_moves(runtime, gid) == []  # the killed job stored nothing
    second = start_worker(db_url, redis_url)
    try:
        while not bot_moves(runtime, gid) and time.monotonic() - killed_at < 30:
            time.sleep(0.1)
        resumed_in = time.monotonic() - killed_at
        assert bot_moves(runtime, gid), "the killed worker's bot turn never played again"
        assert resumed_in < 30
        time.sleep(1)  # a duplicate job, if any, would play now
    finally:
        stop_worker(second)
    moves = bot_moves(runtime, gid)
    assert len(moves) == 1, moves  # played once, not lost and not twice
    after = runtime.service.load(gid)
    assert after.rules.to_act(after.state) == {1}
    assert runtime.store.list_outbox(job="play_bot_turn") == []  # nothing left over
    assert runtime.store.verify(gid).ok
    runtime.store.close()
