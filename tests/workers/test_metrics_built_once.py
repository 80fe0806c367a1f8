"""The process's metrics are registered once even when the first uses come at once (a fresh server's first
requests and jobs on several threads): prometheus refuses a series registered twice."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FIRST_USES_AT_ONCE = """
import threading, time
import prometheus_client
from api import observability
from workers import metrics

real = prometheus_client.Counter.__init__
def slow(self, *args, **kwargs):  # widen the window two first uses would share
    time.sleep(0.01)
    real(self, *args, **kwargs)
prometheus_client.Counter.__init__ = slow

start = threading.Barrier(8)
failures = []
def first_use():
    start.wait()
    try:
        metrics.metrics(); observability.http_metrics()
    except Exception as exc:
        failures.append(repr(exc))
threads = [threading.Thread(target=first_use) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
assert not failures, failures
assert metrics.metrics() is metrics.metrics()
print("ok")
"""


def test_first_uses_on_several_threads_register_each_series_once():
    done = subprocess.run(
        [sys.executable, "-c", FIRST_USES_AT_ONCE], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
