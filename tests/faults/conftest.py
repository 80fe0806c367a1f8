"""Fault tests: real PostgreSQL and Redis servers of the tests' own, real `tradewinds` processes.

They stop, kill and restart those servers and processes (never the shared ones). The default set keeps to
a few minutes; ``TRADEWINDS_LONG_FAULTS=1`` runs longer variants (more games, longer outages).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.own_services import OwnRedis
from tests.support.services import scratch_postgres_database

ROOT = Path(__file__).resolve().parents[2]
LONG = os.environ.get("TRADEWINDS_LONG_FAULTS", "").strip() == "1"


@pytest.fixture
def own_redis(tmp_path):
    redis = OwnRedis(tmp_path).start()
    yield redis
    redis.stop()


@pytest.fixture
def pg_database():
    """A scratch database of its own on the test PostgreSQL server (real PostgreSQL, nothing shared)."""
    with scratch_postgres_database("tradewinds_fault") as url:
        yield url


class Processes:
    """`tradewinds` processes started by a test, each in its own session; all killed at the end.

    Their output goes to files (a pipe nobody reads would fill up and stall a busy worker)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.started: list[tuple[subprocess.Popen, Path]] = []

    def start(self, env: dict[str, str], *args: str) -> subprocess.Popen:
        full = {k: v for k, v in os.environ.items() if not k.startswith("TRADEWINDS_")}
        full.update(env)
        full.setdefault("TRADEWINDS_LOG_LEVEL", "WARNING")
        log = self.folder / f"process-{len(self.started)}.log"
        with open(log, "w") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "tests.support.worker_launcher", *args],
                cwd=ROOT,
                env=full,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.started.append((process, log))
        return process

    def output(self, process: subprocess.Popen) -> str:
        return next(log.read_text(errors="replace") for p, log in self.started if p is process)

    def stop(self, process: subprocess.Popen, timeout: float = 20) -> str:
        """SIGTERM (a warm shut-down), SIGKILL if it is still running after ``timeout``; returns its output."""
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        except ProcessLookupError:
            process.wait()
        return self.output(process)

    def kill_all(self) -> None:
        for process, log in self.started:
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                process.wait()
                print(
                    f"--- output of {' '.join(process.args[3:])} (killed):\n{log.read_text(errors='replace')[-3000:]}"
                )


@pytest.fixture
def processes(tmp_path):
    started = Processes(tmp_path)
    yield started
    started.kill_all()


def wait_until(condition, timeout: float, step: float = 0.1) -> float | None:
    """Seconds until ``condition()`` held, or None when ``timeout`` passed first."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if condition():
            return time.monotonic() - start
        time.sleep(step)
    return None


def report(case: str, **figures) -> None:
    """One line per fault case for the closing note (shown with ``pytest -s``)."""
    print(f"\nFAULT {case}: " + ", ".join(f"{k}={v}" for k, v in figures.items()), flush=True)
