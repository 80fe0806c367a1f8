"""The in-process dispatcher (the job runner's threads without Redis): jobs run on their lanes, and threads with
nothing to do sleep. Before, idle threads of one condition woke each other for ever, a core or more of CPU."""

from __future__ import annotations

import threading
import time

from workers.dispatch import QUEUE_NAME, WEBHOOK_JOBS, WEBHOOK_QUEUE_NAME, InProcessDispatcher, queue_for


def test_every_job_runs_and_idle_threads_use_no_cpu():
    done: list[str] = []
    lock = threading.Lock()

    def run(name, args):
        time.sleep(0.01)
        with lock:
            done.append(name)

    dispatcher = InProcessDispatcher(run, threads=3, webhook_threads=3)
    bot_job, hook_job = "play_bot_turn", sorted(WEBHOOK_JOBS)[0]
    assert queue_for(bot_job) == QUEUE_NAME and queue_for(hook_job) == WEBHOOK_QUEUE_NAME
    for _ in range(12):  # enough at once for every lane to start all its threads
        dispatcher.enqueue(bot_job)
        dispatcher.enqueue(hook_job)
    assert dispatcher.wait_idle(10)
    assert sorted(done) == sorted([bot_job] * 12 + [hook_job] * 12)
    time.sleep(0.2)
    before = time.process_time()
    time.sleep(1.0)
    spent = time.process_time() - before
    assert spent < 0.2, f"{spent:.2f} s of CPU in 1 s with nothing to do"
    dispatcher.enqueue(bot_job)  # the sleeping threads still take new work
    assert dispatcher.wait_idle(10) and len(done) == 25
