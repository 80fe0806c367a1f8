"""A server without Redis shares its jobs' named locks between its request processes and its job runner."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from workers.dispatch import FileLocks, InProcessDispatcher
from workers.local_runner import RunnerDispatcher
from workers.runtime import lock_folder
from workers.sweeper import RetryLater

ROOT = Path(__file__).resolve().parents[2]


def test_a_lock_held_in_one_process_is_refused_in_another_until_it_is_let_go(tmp_path):
    code = (
        "import sys; from workers.dispatch import FileLocks;"
        f"lock = FileLocks({str(tmp_path)!r}).try_lock('tournament:t_1'); lock.__enter__();"
        "print('held', flush=True); sys.stdin.read()"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(RetryLater), FileLocks(tmp_path).try_lock("tournament:t_1"):
            pass
        with FileLocks(tmp_path).try_lock("tournament:t_2"):  # another name: its own lock
            pass
    finally:
        holder.communicate("")  # the holder exits, and its lock goes with it
    with FileLocks(tmp_path).try_lock("tournament:t_1"):
        pass


def test_a_request_process_and_the_job_runner_take_the_same_locks(tmp_path):
    """``Runtime.build``'s two sides of a server without Redis: the request processes' ``RunnerDispatcher`` and the
    runner's ``InProcessDispatcher``, on the same data folder."""
    requests = RunnerDispatcher("@tradewinds-test-unused", lock_folder(tmp_path))
    runner = InProcessDispatcher(lambda job, args: None, lock_dir=lock_folder(tmp_path))
    with runner.try_lock("tournament:t_1"):
        with pytest.raises(RetryLater), requests.try_lock("tournament:t_1"):
            pass
    with requests.try_lock("tournament:t_1"):
        with pytest.raises(RetryLater), runner.try_lock("tournament:t_1"):
            pass
        with pytest.raises(RetryLater), requests.try_lock("tournament:t_1"):  # one holder, even in one process
            pass


def test_where_no_lock_folder_can_be_made_the_locks_are_the_processes_own(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    locks = FileLocks(blocked / "locks")  # a folder under a file: it cannot be made
    with locks.try_lock("tournament:t_1"):
        with pytest.raises(RetryLater), locks.try_lock("tournament:t_1"):
            pass
    with locks.try_lock("tournament:t_1"):
        pass


def test_a_runtime_without_redis_makes_no_folder_until_a_lock_is_taken(tmp_path, monkeypatch):
    from workers.runtime import Runtime

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRADEWINDS_DATA_DIR", raising=False)
    runtime = Runtime.build("memory://", None, "in-process")
    try:
        assert list(tmp_path.iterdir()) == []
        with runtime.dispatcher.try_lock("tournament:t_1"):
            assert (tmp_path / "tradewinds-data" / "locks").is_dir()
    finally:
        runtime.close()
