"""The outbox contract, on every backend: work written with its events, claimed once, completed by token."""

from __future__ import annotations

import threading
import uuid

import pytest

from eventstore.base import EventStore, WrongExpectedVersion
from eventstore.outbox import MAX_LEASE
from tests.eventstore.conftest import open_url

NOW = 1_800_000_000.0


def entry(key: str, job: str = "play_bot_turn", due_at: float = NOW, args=None) -> dict:
    return {
        "key": key,
        "token": uuid.uuid4().hex,
        "job": job,
        "args": args if args is not None else [key, 1],
        "due_at": due_at,
    }


def a_stream(store: EventStore, name: str = "g1") -> str:
    store.create_stream(name, "test_game", {})
    return name


def test_work_written_with_an_append_is_pending(store: EventStore) -> None:
    stream = a_stream(store)
    work = entry("bot:g1", args=["g1", 1, 0])
    store.append(stream, [{"type": "Started"}], 0, outbox=[work])
    [pending] = store.list_outbox()
    assert (pending.key, pending.token, pending.job, pending.args, pending.due_at, pending.attempts) == (
        "bot:g1",
        work["token"],
        "play_bot_turn",
        ["g1", 1, 0],
        NOW,
        0,
    )


def test_a_failed_append_writes_no_work(store: EventStore) -> None:
    stream = a_stream(store)
    store.append(stream, [{"type": "Started"}], 0)
    with pytest.raises(WrongExpectedVersion):
        store.append(stream, [{"type": "Moved"}], 0, outbox=[entry("bot:g1")])
    with pytest.raises(ValueError):
        store.append(stream, [{"type": "Moved"}], 1, outbox=[{"key": "bot:g1", "job": "x"}])  # no token, no due_at
    assert store.list_outbox() == []
    assert store.stream_info(stream).version == 1  # the bad entry refused the whole append


def test_a_key_holds_one_entry_and_the_newest_write_wins(store: EventStore) -> None:
    stream = a_stream(store)
    first = entry("bot:g1", args=["g1", 1])
    store.append(stream, [{"type": "Started"}], 0, outbox=[first])
    second = entry("bot:g1", args=["g1", 2], due_at=NOW + 5)
    store.append(stream, [{"type": "Moved"}], 1, outbox=[second, entry("clock:g1", "check_clock", NOW + 60)])
    pending = store.list_outbox()
    assert [(e.key, e.token, e.args) for e in pending] == [
        ("bot:g1", second["token"], ["g1", 2]),
        ("clock:g1", pending[1].token, ["clock:g1", 1]),
    ]
    assert store.complete_outbox("bot:g1", first["token"]) is False  # a late job never removes newer work
    assert store.complete_outbox("bot:g1", second["token"]) is True
    assert store.complete_outbox("bot:g1", second["token"]) is False
    assert [e.key for e in store.list_outbox()] == ["clock:g1"]


def test_claim_hands_out_due_work_in_order_and_leases_it_with_back_off(store: EventStore) -> None:
    store.put_outbox([entry("b", due_at=NOW - 1), entry("a", due_at=NOW - 2), entry("later", due_at=NOW + 10)])
    claimed = store.claim_outbox(NOW, lease=5)
    assert [(e.key, e.due_at, e.attempts) for e in claimed] == [("a", NOW + 5, 1), ("b", NOW + 5, 1)]
    assert store.claim_outbox(NOW + 4.9, lease=5) == []  # leased: nobody else gets them meanwhile
    again = store.claim_outbox(NOW + 5, lease=5, limit=1)
    assert [(e.key, e.due_at, e.attempts) for e in again] == [("a", NOW + 15, 2)]  # the lease doubles
    for attempt in range(3, 20):
        [e] = store.claim_outbox(NOW + 10**6 * attempt, lease=5, limit=1)
        assert e.due_at - NOW - 10**6 * attempt <= MAX_LEASE
    assert [e.job for e in store.list_outbox(job="play_bot_turn")] == ["play_bot_turn"] * 3
    assert store.list_outbox(job="check_clock") == []


def test_writing_a_key_again_resets_its_attempts(store: EventStore) -> None:
    store.put_outbox([entry("a", due_at=NOW)])
    store.claim_outbox(NOW, lease=5)
    store.put_outbox([entry("a", due_at=NOW)])
    [e] = store.claim_outbox(NOW, lease=5)
    assert e.attempts == 1


@pytest.mark.parametrize(
    "bad",
    [
        [{"key": "a", "token": "t", "job": "j", "args": [], "due_at": float("nan")}],
        [{"key": "", "token": "t", "job": "j", "args": [], "due_at": NOW}],
        [{"key": "a", "token": "t", "job": "j", "args": [object()], "due_at": NOW}],
        [
            {"key": "a", "token": "t", "job": "j", "args": [], "due_at": NOW},
            {"key": "a", "token": "u", "job": "j", "args": [], "due_at": NOW},
        ],
        "not a list",
    ],
)
def test_bad_entries_are_refused(store: EventStore, bad) -> None:
    with pytest.raises(ValueError):
        store.put_outbox(bad)
    assert store.list_outbox() == []


@pytest.mark.backends("sql")
def test_concurrent_claimers_never_get_the_same_entry(store_url: str) -> None:
    stores = [open_url(store_url) for _ in range(4)]
    try:
        stores[0].put_outbox([entry(f"k{i:03d}", due_at=NOW) for i in range(120)])
        got: list[list[str]] = [[] for _ in stores]

        def claim(index: int) -> None:
            while batch := stores[index].claim_outbox(NOW, lease=60, limit=7):
                got[index].extend(e.key for e in batch)

        threads = [threading.Thread(target=claim, args=(i,)) for i in range(len(stores))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        keys = [k for part in got for k in part]
        assert sorted(keys) == [f"k{i:03d}" for i in range(120)]  # every entry once, none twice
    finally:
        for opened in stores:
            opened.close()


@pytest.mark.backends("sql")
def test_work_survives_reopening(store_url: str) -> None:
    first = open_url(store_url)
    first.create_stream("g1", "test_game", {})
    first.append("g1", [{"type": "Started"}], 0, outbox=[entry("bot:g1")])
    first.close()
    second = open_url(store_url)
    try:
        assert [e.key for e in second.list_outbox()] == ["bot:g1"]
    finally:
        second.close()
