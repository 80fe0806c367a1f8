"""A job's named lock on Redis (one webhook sync per game, one delivery run per subscription, one tournament step):
held for as long as its job runs, and freed within its lease when the worker holding it dies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from workers import dispatch
from workers.dispatch import RQDispatcher
from workers.sweeper import RetryLater

pytestmark = pytest.mark.redis

ROOT = Path(__file__).resolve().parents[2]
LEASE = 1.5  # seconds, instead of LOCK_LEASE, so that the tests wait a few seconds, not tens


def _taken(redis_url: str, name: str) -> bool:
    try:
        with RQDispatcher(redis_url).try_lock(name):
            return False
    except RetryLater:
        return True


def test_a_lock_is_held_past_its_lease_while_its_job_runs(redis_url, monkeypatch):
    monkeypatch.setattr(dispatch, "LOCK_LEASE", LEASE)
    holder = RQDispatcher(redis_url)
    with holder.try_lock("webhook-sync:g1"):
        time.sleep(LEASE * 3)
        assert _taken(redis_url, "webhook-sync:g1"), "the lease ran out while its job was still running"
        assert not _taken(redis_url, "webhook-sync:g2")  # another name is another lock
    assert not _taken(redis_url, "webhook-sync:g1"), "the lock was not given back when its job ended"


def test_the_lock_of_a_killed_worker_frees_itself_within_the_lease(redis_url, monkeypatch):
    monkeypatch.setattr(dispatch, "LOCK_LEASE", LEASE)
    code = (
        "import sys, time\n"
        "from workers import dispatch\n"
        f"dispatch.LOCK_LEASE = {LEASE}\n"
        f"with dispatch.RQDispatcher({redis_url!r}).try_lock('webhook-deliver:s1'):\n"
        "    print('held', flush=True)\n"
        "    time.sleep(600)\n"
    )
    worker = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert worker.stdout is not None and worker.stdout.readline().strip() == "held"
        time.sleep(LEASE * 2)  # renewed meanwhile: still held
        assert _taken(redis_url, "webhook-deliver:s1")
        worker.send_signal(signal.SIGKILL)  # no finally runs: the lock is not released
        worker.wait(timeout=10)
        killed = time.monotonic()
        while _taken(redis_url, "webhook-deliver:s1"):
            assert time.monotonic() - killed < LEASE + 1.5, "the dead worker's lock was not freed within its lease"
            time.sleep(0.05)
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait(timeout=10)
