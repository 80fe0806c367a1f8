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


def test_a_lane_takes_its_groups_jobs_in_turn():
    """One key's many slow webhook sends do not hold up another key's: a free thread takes the groups in turn."""
    started: list[str] = []
    lock = threading.Lock()
    gate = threading.Event()

    def run(name, args):
        with lock:
            started.append(args[0])
        gate.wait(5)  # every send is slow until the test has queued them all

    def group_of(job, args):
        return args[0].split("-")[0]

    dispatcher = InProcessDispatcher(run, threads=1, webhook_threads=2, group_of=group_of)
    for i in range(20):
        dispatcher.enqueue("deliver_webhooks", f"slow-{i}")
    dispatcher.enqueue("deliver_webhooks", "other-0")
    dispatcher.enqueue("deliver_webhooks", "other-1")
    time.sleep(0.2)
    gate.set()
    assert dispatcher.wait_idle(10)
    # the two threads had taken slow-0 and slow-1; the next free one takes the other key's first job, and the
    # turns alternate from then on; each group's own jobs keep their order
    assert started.index("other-0") <= 3 and started.index("other-1") <= 5, started
    assert [j for j in started if j.startswith("slow")] == [f"slow-{i}" for i in range(20)]
    assert [j for j in started if j.startswith("other")] == ["other-0", "other-1"]


def test_outbox_entries_are_grouped_by_their_own_job():
    seen = []

    def group_of(job, args):
        seen.append((job, args))
        return None

    dispatcher = InProcessDispatcher(lambda name, args: None, group_of=group_of)
    dispatcher.enqueue("run_entry", "deliver:wh_1", "token", "deliver_webhooks", ["wh_1"])
    dispatcher.enqueue("play_bot_turn", "g1", 3, 0)
    assert dispatcher.wait_idle(5)
    assert seen == [("deliver_webhooks", ("wh_1",)), ("play_bot_turn", ("g1", 3, 0))]


def test_a_group_that_cannot_be_told_waits_in_the_common_one():
    done = []

    def group_of(job, args):
        raise ConnectionError("the store is away")

    dispatcher = InProcessDispatcher(lambda name, args: done.append(name), group_of=group_of)
    dispatcher.enqueue("deliver_webhooks", "wh_1")
    assert dispatcher.wait_idle(5) and done == ["deliver_webhooks"]


def test_webhook_sends_are_grouped_by_their_subscriptions_key():
    from eventstore.memory import MemoryStore
    from workers import webhooks

    store = MemoryStore()
    a = webhooks.create_subscription(store, "key-a", "https://a.example/hook", ["game.turn"])
    b = webhooks.create_subscription(store, "key-a", "https://a.example/other", ["game.turn"])
    c = webhooks.create_subscription(store, "key-b", "https://b.example/hook", ["game.turn"])
    group = webhooks.delivery_group
    assert group(store, "deliver_webhooks", (a["id"],)) == group(store, "redeliver_webhook", (b["id"], "m1"))
    assert group(store, "deliver_webhooks", (a["id"],)) != group(store, "deliver_webhooks", (c["id"],))
    assert group(store, "deliver_webhooks", ("wh_gone",)) is None
    assert group(store, "play_bot_turn", ("g1", 3, 0)) is None and group(store, "sync_webhooks", ("g1",)) is None
    store.create_stream("g2", "secret_numbers", {"created_by": "key-b"})
    store.create_stream("g3", "secret_numbers", {})
    assert group(store, "sync_webhooks", ("g2",)) == group(store, "deliver_webhooks", (c["id"],))  # a game's, by key
    assert group(store, "sync_webhooks", ("g3",)) is None  # a game created without a key
