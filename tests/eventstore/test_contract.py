"""The event store contract: every test runs against memory, SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time
from datetime import datetime

import pytest

from eventstore.base import (
    DuplicateIdempotencyKey,
    EventStore,
    StreamExists,
    StreamNotFound,
    WrongExpectedVersion,
    chain_hash,
    genesis_hash,
    head_message,
)
from eventstore.memory import MemoryStore
from tests.eventstore.conftest import open_url


def ev(kind: str = "GoodsShipped", **fields) -> dict:
    return {"type": kind, **fields}


def new_stream(store: EventStore, name: str = "game-1", events: int = 0, game_type: str = "puerto_rico") -> str:
    store.create_stream(name, game_type, {"seats": 3})
    if events:
        store.append(name, [ev(n=i) for i in range(1, events + 1)], 0, meta={"actor": "setup"})
    return name


def genesis(store: EventStore, stream: str) -> str:
    info = store.stream_info(stream)
    return genesis_hash(stream, info.game_type, info.created_at, info.creation)


def parse_utc(text: str) -> datetime:
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    assert moment.utcoffset().total_seconds() == 0
    return moment


# Values a JSON reader could get wrong: integers beyond 64 bits (orjson, for one, reads them as floats), a float that
# is a whole number, tiny floats. Every backend gives them back with their own types. (Not here: PostgreSQL's jsonb, which holds
# the stream metadata and the documents, writes 1e300 back as an integer and -0.0 as 0.0; events are kept as text.)
AWKWARD = {
    "big": 18446744073709551617,
    "small": -9223372036854775809,
    "edge": 9223372036854775807,
    "floats": [0.1, 2.0, 1.5e-7, 5e-324],
    "text": "ß \u2603 \U0001f600",
}


def typed(value):
    """``value`` with each leaf's type beside it (so 1 and 1.0, or 2**64 and 2.0**64, compare unequal)."""
    if isinstance(value, dict):
        return {k: typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [typed(v) for v in value]
    return (type(value).__name__, value)


def test_values_come_back_with_their_own_types(store: EventStore) -> None:
    store.create_stream("game-1", "murano", {"awkward": AWKWARD})
    store.append("game-1", [ev(awkward=AWKWARD)], 0, meta={"awkward": AWKWARD})
    store.put_document("docs", "d", {"awkward": AWKWARD})
    [event] = store.read("game-1")
    for read in (store.stream_info("game-1").metadata, event.data, event.meta, store.get_document("docs", "d")):
        assert typed(read["awkward"]) == typed(AWKWARD)


# -- streams --------------------------------------------------------------------------------------


def test_create_stream_and_info(store: EventStore) -> None:
    info = store.create_stream("game-1", "murano", {"seats": 4, "nested": {"a": [1, 2]}})
    assert (info.stream, info.game_type, info.status, info.version, info.generation) == (
        "game-1",
        "murano",
        "active",
        0,
        0,
    )
    assert info.metadata == {"seats": 4, "nested": {"a": [1, 2]}}
    parse_utc(info.created_at)
    again = store.stream_info("game-1")
    assert again.metadata == info.metadata and again.created_at == info.created_at and again.version == 0


def test_create_existing_stream_raises(store: EventStore) -> None:
    new_stream(store)
    with pytest.raises(StreamExists) as caught:
        store.create_stream("game-1", "murano", {})
    assert caught.value.stream == "game-1"


@pytest.mark.parametrize("bad", ["", None, 7, "x" * 300])
def test_create_stream_rejects_bad_names(store: EventStore, bad) -> None:
    with pytest.raises(ValueError):
        store.create_stream(bad, "murano", {})


def test_unknown_stream_raises_everywhere(store: EventStore) -> None:
    calls = [
        lambda: store.stream_info("nope"),
        lambda: store.update_stream("nope", status="finished"),
        lambda: store.append("nope", [ev()], 0),
        lambda: store.read("nope"),
        lambda: store.truncate("nope", 0, "alice", "undo", expected_version=0),
        lambda: store.truncations("nope"),
        lambda: store.archived("nope"),
        lambda: store.verify("nope"),
        lambda: store.save_snapshot("nope", 0, 1, "state", b"x"),
    ]
    for call in calls:
        with pytest.raises(StreamNotFound) as caught:
            call()
        assert caught.value.stream == "nope"


def test_list_streams_filters_and_pages_in_creation_order(store: EventStore) -> None:
    for i in range(5):
        store.create_stream(f"g{i}", "murano" if i % 2 else "amerigo", {})
    store.update_stream("g3", status="finished")
    assert [s.stream for s in store.list_streams()] == ["g0", "g1", "g2", "g3", "g4"]
    assert [s.stream for s in store.list_streams(game_type="murano")] == ["g1", "g3"]
    assert [s.stream for s in store.list_streams(status="active", game_type="murano")] == ["g1"]
    assert [s.stream for s in store.list_streams(limit=2, offset=1)] == ["g1", "g2"]
    assert store.list_streams(game_type="archipelago") == []


def test_list_streams_newest_first_with_a_cursor(store: EventStore) -> None:
    for i in range(5):
        store.create_stream(f"g{i}", "murano" if i % 2 else "amerigo", {})
    assert [s.stream for s in store.list_streams(newest_first=True)] == ["g4", "g3", "g2", "g1", "g0"]
    assert [s.stream for s in store.list_streams(newest_first=True, before="g3", limit=2)] == ["g2", "g1"]
    assert [s.stream for s in store.list_streams(newest_first=True, before="g4", game_type="murano")] == ["g3", "g1"]
    assert [s.stream for s in store.list_streams(before="g1")] == ["g2", "g3", "g4"]
    assert store.list_streams(newest_first=True, before="unknown") == []


def test_a_listing_to_an_audience_leaves_out_a_stream_with_no_event(store: EventStore) -> None:
    """A game whose set-up append failed after its stream row was written is listed to nobody."""
    from eventstore.base import Audience

    store.create_stream("empty", "murano", {})
    store.create_stream("keyed-empty", "murano", {"created_by": "k1"})
    for stream, metadata in (("played", {}), ("keyed", {"created_by": "k1"})):
        store.create_stream(stream, "murano", metadata)
        store.append(stream, [{"type": "Set"}], 0)
    assert [s.stream for s in store.list_streams(audience=Audience(None))] == ["played"]
    assert [s.stream for s in store.list_streams(audience=Audience("k1"), newest_first=True)] == ["keyed", "played"]
    assert len(store.list_streams()) == 4  # without an audience (the operator's tools), every stream


def test_update_stream_merges_metadata_and_sets_status(store: EventStore) -> None:
    new_stream(store, events=2)
    info = store.update_stream("game-1", metadata={"seat_tokens": {"0": "abc"}})
    assert info.metadata == {"seats": 3, "seat_tokens": {"0": "abc"}} and info.status == "active" and info.version == 2
    info = store.update_stream("game-1", status="finished", metadata={"seats": 4})
    assert info.metadata == {"seats": 4, "seat_tokens": {"0": "abc"}} and info.status == "finished"
    assert store.stream_info("game-1") == info
    assert store.update_stream("game-1") == info


def test_the_status_is_written_with_an_append_or_a_truncation_or_not_at_all(store: EventStore) -> None:
    new_stream(store, events=2)
    store.append("game-1", [ev("GameEnded")], 2, status="finished")
    assert store.stream_info("game-1").status == "finished"
    with pytest.raises(WrongExpectedVersion):  # a stale writer stores neither its events nor its status
        store.append("game-1", [ev("platform.Aborted")], 2, status="aborted")
    assert (store.stream_info("game-1").status, store.stream_info("game-1").version) == ("finished", 3)
    store.append("game-1", [ev()], 3)  # no status given: it stays
    assert store.stream_info("game-1").status == "finished"
    with pytest.raises(WrongExpectedVersion):
        store.truncate("game-1", 2, "seat:0", "undo", expected_version=3, status="active")
    assert store.stream_info("game-1").status == "finished"
    store.truncate("game-1", 2, "seat:0", "undo", expected_version=4, status="active")
    assert (store.stream_info("game-1").status, store.stream_info("game-1").version) == ("active", 2)
    assert [s.stream for s in store.list_streams(status="active")] == ["game-1"]
    with pytest.raises(ValueError):
        store.append("game-1", [ev()], 2, status="")


# -- append and read ------------------------------------------------------------------------------


def test_append_returns_stored_events_with_versions_positions_and_hashes(store: EventStore) -> None:
    new_stream(store)
    stored = store.append("game-1", [ev("A", x=1), ev("B", y=[1, "two"])], 0, meta={"actor": "seat:0"})
    assert [e.version for e in stored] == [1, 2]
    assert [e.type for e in stored] == ["A", "B"]
    assert stored[0].position < stored[1].position
    assert all(e.generation == 0 and e.meta == {"actor": "seat:0"} and e.stream == "game-1" for e in stored)
    at = stored[0].recorded_at
    assert stored[1].recorded_at == at  # one time for the batch
    assert stored[0].hash == chain_hash(genesis(store, "game-1"), 1, 0, at, {"type": "A", "x": 1}, {"actor": "seat:0"})
    assert stored[1].hash == chain_hash(stored[0].hash, 2, 0, at, {"type": "B", "y": [1, "two"]}, {"actor": "seat:0"})
    parse_utc(stored[0].recorded_at)
    assert store.read("game-1") == stored
    assert store.stream_info("game-1").version == 2
    more = store.append("game-1", [ev("C")], 2)
    assert more[0].version == 3 and more[0].meta == {} and more[0].position > stored[1].position


@pytest.mark.parametrize("expected", [1, 5])
def test_wrong_expected_version_carries_the_actual_version(store: EventStore, expected: int) -> None:
    new_stream(store, events=3)
    with pytest.raises(WrongExpectedVersion) as caught:
        store.append("game-1", [ev()], expected)
    assert (caught.value.stream, caught.value.expected, caught.value.actual) == ("game-1", expected, 3)
    assert store.stream_info("game-1").version == 3


@pytest.mark.parametrize(
    "events",
    [[], [{"no": "type"}], [ev(), "not a dict"], [ev(), ev(bad=object()), ev()], [ev(), ev(bad={1, 2})]],
    ids=["empty", "no-type", "not-a-dict", "unserialisable-middle", "set-middle"],
)
def test_a_bad_batch_writes_nothing(store: EventStore, events: list) -> None:
    new_stream(store, events=1)
    before = store.read_all()
    with pytest.raises(ValueError):
        store.append("game-1", events, 1, idempotency_key="k")
    assert store.stream_info("game-1").version == 1
    assert store.read("game-1") == before
    assert store.read_all() == before
    assert store.get_idempotency("game-1", "k") is None
    assert store.append("game-1", [ev()], 1)[0].version == 2


def test_read_ranges(store: EventStore) -> None:
    new_stream(store, events=5)
    assert [e.version for e in store.read("game-1", 2, 4)] == [2, 3, 4]
    assert [e.version for e in store.read("game-1", 4)] == [4, 5]
    assert [e.version for e in store.read("game-1", 1, 1)] == [1]
    assert store.read("game-1", 6) == []
    assert store.read("game-1", 4, 2) == []
    assert [e.data["n"] for e in store.read("game-1")] == [1, 2, 3, 4, 5]


def test_read_all_is_in_position_order_across_streams(store: EventStore) -> None:
    new_stream(store, "a")
    new_stream(store, "b")
    store.append("a", [ev(n=1)], 0)
    store.append("b", [ev(n=2), ev(n=3)], 0)
    store.append("a", [ev(n=4)], 1)
    everything = store.read_all()
    assert [e.data["n"] for e in everything] == [1, 2, 3, 4]
    positions = [e.position for e in everything]
    assert positions == sorted(positions) and len(set(positions)) == 4
    assert store.read_all(after_position=positions[1]) == everything[2:]
    assert store.read_all(after_position=positions[0], limit=2) == everything[1:3]
    assert store.read_all(after_position=positions[-1]) == []
    assert store.read_all(limit=0) == []


def test_awkward_json_round_trips_and_verifies(store: EventStore) -> None:
    new_stream(store)
    data = {
        "type": "Odd",
        "floats": [0.1, 1e16, 1.5e20, -0.0, 1e-7, 2.5],
        "big": 2**62,
        "text": 'é ✓ 🎲 "quoted" back\\slash \u2028 tab\t nul\x00',
        "nested": {"z": 1, "a": [None, True, False, {}]},
    }
    meta = {"actor": "bot:π", "n": 1.0}
    stored = store.append("game-1", [data], 0, meta=meta)[0]
    assert stored.data == data and stored.meta == meta
    assert stored.hash == chain_hash(genesis(store, "game-1"), 1, 0, stored.recorded_at, data, meta)
    read = store.read("game-1")[0]
    assert read.data == data and read.meta == meta
    assert store.verify("game-1").ok


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_non_json_numbers_are_refused(store: EventStore, bad: float) -> None:
    new_stream(store)
    with pytest.raises(ValueError):
        store.append("game-1", [ev(x=bad)], 0)
    store.append("game-1", [ev(name="NaN Infinity")], 0)  # only real NaN/Infinity numbers are refused


def test_stored_data_is_a_copy(store: EventStore) -> None:
    new_stream(store)
    event = ev(cargo=["corn"])
    store.append("game-1", [event], 0)
    event["cargo"].append("sugar")
    read = store.read("game-1")[0]
    read.data["cargo"].append("indigo")
    assert store.read("game-1")[0].data == {"type": "GoodsShipped", "cargo": ["corn"]}


def test_the_meta_of_each_returned_event_is_a_copy_of_its_own(store: EventStore) -> None:
    new_stream(store)
    meta = {"actor": "human", "tags": ["a"]}
    first, second = store.append("game-1", [ev(), ev()], 0, meta=meta)
    first.meta["tags"].append("changed by the caller")
    meta["tags"].append("changed after the append")
    assert second.meta == {"actor": "human", "tags": ["a"]}
    assert [e.meta for e in store.read("game-1")] == [{"actor": "human", "tags": ["a"]}] * 2


# -- idempotency ----------------------------------------------------------------------------------


def test_idempotency_key_is_recorded_with_the_append(store: EventStore) -> None:
    new_stream(store, events=1)
    store.append("game-1", [ev(), ev()], 1, idempotency_key="req-1", request_hash="h1")
    record = store.get_idempotency("game-1", "req-1")
    assert (record.key, record.request_hash, record.generation, record.from_version, record.to_version) == (
        "req-1",
        "h1",
        0,
        2,
        3,
    )
    assert store.get_idempotency("game-1", "other") is None
    assert store.get_idempotency("nope", "req-1") is None


def test_duplicate_idempotency_key_is_refused_and_stores_nothing(store: EventStore) -> None:
    new_stream(store)
    new_stream(store, "game-2")
    store.append("game-1", [ev()], 0, idempotency_key="req-1", request_hash="h1")
    with pytest.raises(DuplicateIdempotencyKey):
        store.append("game-1", [ev()], 1, idempotency_key="req-1", request_hash="h1")
    with pytest.raises(DuplicateIdempotencyKey):  # a retry of the same request, with its stale version
        store.append("game-1", [ev()], 0, idempotency_key="req-1", request_hash="h1")
    assert store.stream_info("game-1").version == 1
    store.append("game-2", [ev()], 0, idempotency_key="req-1")  # keys are per stream
    assert store.get_idempotency("game-2", "req-1").request_hash == ""


def test_failed_append_does_not_record_its_key(store: EventStore) -> None:
    new_stream(store, events=2)
    with pytest.raises(WrongExpectedVersion):
        store.append("game-1", [ev()], 0, idempotency_key="req-1")
    assert store.get_idempotency("game-1", "req-1") is None
    store.append("game-1", [ev()], 2, idempotency_key="req-1")
    assert store.get_idempotency("game-1", "req-1").from_version == 3


# -- truncation and audit -------------------------------------------------------------------------


def test_truncate_archives_records_and_continues_the_chain(store: EventStore) -> None:
    new_stream(store, events=5)
    kept = store.read("game-1", 1, 3)
    removed = store.read("game-1", 4)
    truncation = store.truncate("game-1", 3, "seat:1", "undo the last two moves", expected_version=5)
    assert (truncation.from_version, truncation.to_version, truncation.generation) == (5, 3, 1)
    assert (truncation.actor, truncation.reason, truncation.stream) == ("seat:1", "undo the last two moves", "game-1")
    parse_utc(truncation.truncated_at)
    assert store.truncations("game-1") == [truncation]
    info = store.stream_info("game-1")
    assert (info.version, info.generation) == (3, 1)
    assert store.read("game-1") == kept
    assert [a.event for a in store.archived("game-1")] == removed
    assert {a.truncation_generation for a in store.archived("game-1")} == {1}
    assert [e.version for e in store.read_all()] == [1, 2, 3]

    again = store.append("game-1", [ev("Redo")], 3, meta={"actor": "seat:1"})[0]
    assert (again.version, again.generation) == (4, 1)
    assert again.hash == chain_hash(kept[-1].hash, 4, 1, again.recorded_at, {"type": "Redo"}, {"actor": "seat:1"})
    assert again.position > removed[-1].position
    assert store.verify("game-1").ok

    second = store.truncate("game-1", 0, "admin", "restart", expected_version=4)
    assert (second.from_version, second.generation) == (4, 2)
    assert store.read("game-1") == []
    assert [a.truncation_generation for a in store.archived("game-1")] == [1, 1, 2, 2, 2, 2]
    first = store.append("game-1", [ev("Fresh")], 0)[0]
    assert first.hash == chain_hash(genesis(store, "game-1"), 1, 2, first.recorded_at, {"type": "Fresh"}, {})
    assert first.generation == 2
    assert store.verify("game-1").ok and store.verify("game-1").checked == 1
    assert [t.generation for t in store.truncations("game-1")] == [1, 2]


@pytest.mark.parametrize("to_version", [-1, 3, 4])
def test_truncate_rejects_impossible_versions(store: EventStore, to_version: int) -> None:
    new_stream(store, events=3)
    with pytest.raises(ValueError):
        store.truncate("game-1", to_version, "alice", "oops", expected_version=3)
    assert store.stream_info("game-1").generation == 0 and store.truncations("game-1") == []


def test_truncate_makes_stale_writers_fail(store: EventStore) -> None:
    new_stream(store, events=3)
    store.truncate("game-1", 1, "alice", "undo", expected_version=3)
    with pytest.raises(WrongExpectedVersion) as caught:
        store.append("game-1", [ev()], 3)
    assert caught.value.actual == 1


def test_truncate_checks_the_expected_version_under_the_lock(store: EventStore) -> None:
    new_stream(store, events=3)
    store.append("game-1", [ev("MoveAfterTheUndoWasDecided")], 3, meta={"actor": "seat:2"})
    with pytest.raises(WrongExpectedVersion) as caught:
        store.truncate("game-1", 2, "seat:1", "undo", expected_version=3)
    assert (caught.value.expected, caught.value.actual) == (3, 4)
    assert store.stream_info("game-1").version == 4 and store.archived("game-1") == []
    assert store.truncations("game-1") == [] and store.stream_info("game-1").generation == 0


class PolicyRefused(Exception):
    pass


def test_truncate_runs_the_check_on_the_events_it_would_archive_and_aborts_when_it_raises(store: EventStore) -> None:
    new_stream(store, events=2)
    store.append("game-1", [ev("Mine")], 2, meta={"actor": "seat:1"})
    store.append("game-1", [ev("Theirs")], 3, meta={"actor": "seat:2"})
    seen = []

    def only_my_moves(info, events):
        seen.append((info.version, info.generation, [(e.version, e.type, e.meta["actor"]) for e in events]))
        if any(e.meta["actor"] != "seat:1" for e in events):
            raise PolicyRefused("another seat moved since")

    with pytest.raises(PolicyRefused):
        store.truncate("game-1", 2, "seat:1", "undo", expected_version=4, check=only_my_moves)
    assert seen == [(4, 0, [(3, "Mine", "seat:1"), (4, "Theirs", "seat:2")])]
    assert store.stream_info("game-1").version == 4 and store.archived("game-1") == []
    assert store.truncations("game-1") == [] and store.verify("game-1").ok
    # the same check lets a truncation of only the caller's own move through
    done = store.truncate("game-1", 3, "seat:2", "undo", expected_version=4, check=lambda info, events: None)
    assert done.to_version == 3 and [a.event.type for a in store.archived("game-1")] == ["Theirs"]


def test_concurrent_append_and_checked_truncate_never_lose_a_committed_append(store_url: str) -> None:
    """A truncation checked against 'no foreign events' races appends: a committed append is never archived."""
    writers = [open_url(store_url) for _ in range(2)] if store_url != "memory://" else [MemoryStore()] * 2
    store, other = writers
    try:
        lost = 0
        for attempt in range(15):
            name = f"race-{attempt}"
            new_stream(store, name, events=1)
            store.append(name, [ev("Mine")], 1, meta={"actor": "seat:1"})
            barrier = threading.Barrier(2)
            committed = []

            def append_theirs(name=name, barrier=barrier, committed=committed):
                barrier.wait()
                try:
                    committed.extend(other.append(name, [ev("Theirs")], 2, meta={"actor": "seat:2"}))
                except WrongExpectedVersion:
                    pass

            def refuse_foreign(info, events):
                if any(e.meta.get("actor") != "seat:1" for e in events):
                    raise PolicyRefused("another seat moved")

            thread = threading.Thread(target=append_theirs)
            thread.start()
            barrier.wait()
            try:
                store.truncate(name, 1, "seat:1", "undo", expected_version=2, check=refuse_foreign)
            except (WrongExpectedVersion, PolicyRefused):
                pass
            thread.join()
            live = {e.position for e in store.read(name)}
            lost += sum(1 for e in committed if e.position not in live)
        assert lost == 0
    finally:
        if store_url != "memory://":
            for w in writers:
                w.close()


def numbering_signer(signed: list[bytes]):
    """A signer that records each message it signs and answers sig1, sig2, ..."""

    def signer(message: bytes) -> str:
        signed.append(message)
        return f"sig{len(signed)}"

    return signer


def test_a_signing_store_signs_every_head_it_writes(store_url: str) -> None:
    signed: list[bytes] = []
    store = open_url(store_url, signer=numbering_signer(signed))
    try:
        store.create_stream("game-1", "murano", {"seats": [{"name": "Ann"}]})
        genesis_report = store.verify("game-1")
        assert genesis_report.ok and genesis_report.head_hash == genesis(store, "game-1")
        assert genesis_report.head_signature == "sig1"
        assert signed[-1] == head_message("game-1", 0, 0, genesis(store, "game-1"))
        stored = store.append("game-1", [ev("A"), ev("B")], 0, meta={"actor": "seat:0"})
        report = store.verify("game-1")
        assert (report.version, report.generation, report.head_hash) == (2, 0, stored[-1].hash)
        assert report.head_signature == "sig2" and signed[-1] == head_message("game-1", 0, 2, stored[-1].hash)
        store.truncate("game-1", 1, "seat:0", "undo", expected_version=2)
        report = store.verify("game-1")
        assert report.ok and report.head_signature == "sig3"
        assert signed[-1] == head_message("game-1", 1, 1, stored[0].hash)
        # the stream as created never changes, whatever the metadata becomes
        store.update_stream("game-1", metadata={"seats": [{"name": "Mallory"}]})
        assert store.stream_info("game-1").creation == {"seats": [{"name": "Ann"}]}
        assert store.verify("game-1").ok
    finally:
        if store_url != "memory://":
            store.close()


def test_an_append_on_the_head_the_caller_read_is_signed_and_verifies(store_url: str) -> None:
    """``head``: the stream as read at the expected version (PostgreSQL then hashes and signs before it
    writes, in one round trip); the chain and the signed head are the same as without it."""
    signed: list[bytes] = []
    store = open_url(store_url, signer=numbering_signer(signed))
    try:
        store.create_stream("game-1", "murano", {"seats": 2})
        for expected in (0, 2):
            head = store.stream_info("game-1")
            stored = store.append("game-1", [ev("A"), ev("B")], expected, meta={"actor": "seat:0"}, head=head)
            assert [e.version for e in stored] == [expected + 1, expected + 2]
            report = store.verify("game-1")
            assert report.ok and (report.version, report.head_hash) == (expected + 2, stored[-1].hash)
            assert report.head_signature == f"sig{len(signed)}"
            assert signed[-1] == head_message("game-1", 0, expected + 2, stored[-1].hash)
        assert [e.hash for e in store.read("game-1")][-1] == stored[-1].hash
        with pytest.raises(ValueError):  # a head read at another version is a caller's mistake
            store.append("game-1", [ev("C")], 4, head=head)
    finally:
        if store_url != "memory://":
            store.close()


def test_an_append_on_a_head_that_was_truncated_and_replayed_is_refused(store: EventStore) -> None:
    """The same version again after an undo is another head: an append built on the old one is stale."""
    new_stream(store, events=2)
    old_head = store.stream_info("game-1")
    store.truncate("game-1", 1, "seat:0", "undo", expected_version=2)
    store.append("game-1", [ev("other")], 1)
    assert store.stream_info("game-1").version == old_head.version
    with pytest.raises(WrongExpectedVersion):
        store.append("game-1", [ev("late")], 2, head=old_head)
    assert [e.data["type"] for e in store.read("game-1")] == ["GoodsShipped", "other"]


def test_verify_reports_an_intact_chain(store: EventStore) -> None:
    new_stream(store, events=4)
    report = store.verify("game-1")
    assert (report.ok, report.checked, report.broken_version, report.stream) == (True, 4, None, "game-1")
    empty = new_stream(store, "empty")
    assert store.verify(empty).ok and store.verify(empty).checked == 0


# -- snapshots ------------------------------------------------------------------------------------


def test_snapshots_load_the_newest_at_or_below(store: EventStore) -> None:
    new_stream(store, events=1)
    new_stream(store, "game-2")
    store.save_snapshot("game-1", 0, 10, "state", b"ten")
    store.save_snapshot("game-1", 0, 20, "state", b"twenty")
    store.save_snapshot("game-1", 0, 20, "state", b"twenty, again")
    store.save_snapshot("game-1", 1, 15, "state", b"gen one")
    store.save_snapshot("game-1", 0, 15, "view", b"\x00\xff")
    store.save_snapshot("game-2", 0, 5, "state", b"other")
    assert store.load_snapshot("game-1", 0, 25, "state") == (20, b"twenty, again")
    assert store.load_snapshot("game-1", 0, 19, "state") == (10, b"ten")
    assert store.load_snapshot("game-1", 0, 9, "state") is None
    assert store.load_snapshot("game-1", 1, 25, "state") == (15, b"gen one")
    assert store.load_snapshot("game-1", 0, 25, "view") == (15, b"\x00\xff")
    assert store.load_snapshot("nope", 0, 25, "state") is None
    store.delete_snapshots("game-1")
    assert store.load_snapshot("game-1", 0, 25, "state") is None
    assert store.load_snapshot("game-2", 0, 25, "state") == (5, b"other")
    store.delete_snapshots()
    assert store.load_snapshot("game-2", 0, 25, "state") is None


# -- documents ------------------------------------------------------------------------------------


def test_documents_put_get_list_delete(store: EventStore) -> None:
    assert store.get_document("api_keys", "k1") is None
    store.put_document("api_keys", "k2", {"owner": "b", "scopes": ["games"]})
    store.put_document("api_keys", "k1", {"owner": "a"})
    store.put_document("api_keys", "k3", {"owner": "c"})
    store.put_document("webhooks", "k1", {"url": "https://example.org/hook"})
    assert store.get_document("api_keys", "k2") == {"owner": "b", "scopes": ["games"]}
    store.put_document("api_keys", "k2", {"owner": "B"})
    assert store.get_document("api_keys", "k2") == {"owner": "B"}
    assert [k for k, _ in store.list_documents("api_keys")] == ["k1", "k2", "k3"]
    assert store.list_documents("api_keys", limit=1, offset=1) == [("k2", {"owner": "B"})]
    assert store.list_documents("webhooks") == [("k1", {"url": "https://example.org/hook"})]
    assert store.list_documents("tournaments") == []
    store.delete_document("api_keys", "k1")
    store.delete_document("api_keys", "missing")
    assert [k for k, _ in store.list_documents("api_keys")] == ["k2", "k3"]
    assert store.get_document("webhooks", "k1") is not None
    with pytest.raises(ValueError):
        store.put_document("api_keys", "k4", ["not", "a", "dict"])


def test_documents_listed_after_a_key_page_on_from_where_a_page_ended(store: EventStore) -> None:
    keys = ["0009:t_b", "0009:t_a", "0010:t_c", "0123:t_d", "1000:t_e"]
    for key in keys:
        store.put_document("tournaments_of:k", key, {})
    store.put_document("tournaments_of:other", "0009:t_z", {})
    assert [k for k, _ in store.list_documents("tournaments_of:k", after="0009:t_a")] == sorted(keys)[1:]
    assert [k for k, _ in store.list_documents("tournaments_of:k", limit=2, after="0009")] == sorted(keys)[:2]
    assert [k for k, _ in store.list_documents("tournaments_of:k", limit=1, offset=1, after="0010:t_c")] == ["1000:t_e"]
    assert store.list_documents("tournaments_of:k", after="1000:t_e") == []
    assert [k for k, _ in store.list_documents("tournaments_of:k", after=None)] == sorted(keys)


def test_take_document_hands_a_document_to_exactly_one_of_racing_takers(store):
    import threading

    store.put_document("tickets", "t1", {"seat": 1})
    assert store.take_document("tickets", "missing") is None
    results: list = []
    barrier = threading.Barrier(4)

    def take():
        barrier.wait()
        results.append(store.take_document("tickets", "t1"))

    threads = [threading.Thread(target=take) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results, key=lambda r: r is None) == [{"seat": 1}, None, None, None]
    assert store.get_document("tickets", "t1") is None


# -- live followers -------------------------------------------------------------------------------


def test_head_position(store: EventStore) -> None:
    assert store.head_position() == 0
    new_stream(store, events=2)
    new_stream(store, "game-2", events=1)
    assert store.head_position() == store.read_all()[-1].position
    store.truncate("game-2", 0, "alice", "undo", expected_version=1)
    assert store.head_position() == store.read_all()[-1].position == store.read("game-1")[-1].position


def test_wait_for_append(store: EventStore) -> None:
    new_stream(store, events=1)
    last = store.read_all()[-1].position
    assert store.head_position() == last
    assert store.wait_for_append(0, timeout=1.0) is True
    started = time.monotonic()
    assert store.wait_for_append(last, timeout=0.2) is False
    assert time.monotonic() - started >= 0.19

    def append_later() -> None:
        time.sleep(0.15)
        store.append("game-1", [ev()], 1)

    writer = threading.Thread(target=append_later)
    started = time.monotonic()
    writer.start()
    assert store.wait_for_append(last, timeout=5.0) is True
    assert time.monotonic() - started < 2.0
    writer.join()
    assert store.read_all(after_position=last)[0].version == 2


# -- lifecycle ------------------------------------------------------------------------------------


def test_migrate_is_idempotent_and_reopening_keeps_data(store: EventStore, store_url: str) -> None:
    new_stream(store, events=2)
    store.migrate()
    store.migrate()
    store.ping()
    assert store.stream_info("game-1").version == 2
    if store_url != "memory://":
        other = open_url(store_url)
        try:
            assert other.read("game-1") == store.read("game-1")
            other.append("game-1", [ev()], 2)
        finally:
            other.close()
        assert store.stream_info("game-1").version == 3


def test_stream_info_and_document_read_together(store: EventStore) -> None:
    new_stream(store, "game-1", events=2)
    new_stream(store, "game-2")
    store.put_document("tokens", "game-1", {"seats": {"0": "h"}})
    store.put_document("other", "game-2", {"not": "this"})
    info, doc = store.stream_info_and_document("game-1", "tokens")
    assert info == store.stream_info("game-1") and info.version == 2
    assert doc == {"seats": {"0": "h"}}
    assert store.stream_info_and_document("game-2", "tokens") == (store.stream_info("game-2"), None)
    with pytest.raises(StreamNotFound):
        store.stream_info_and_document("game-3", "tokens")
    store.put_document("tokens", "game-3", {"a": 1})  # a document alone is no stream
    with pytest.raises(StreamNotFound):
        store.stream_info_and_document("game-3", "tokens")
