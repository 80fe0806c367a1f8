"""The counter file that `serve`'s request processes share without Redis (`api.counters`): rate-limit
windows and follower slots counted across processes, not per process."""

from __future__ import annotations

import multiprocessing
import time

import pytest

from api.app import create_app
from api.counters import CounterFile
from api.errors import ApiError
from api.followers import Caps, FollowerLimits
from tests.api.conftest import make_runtime
from workers import jobs


def _hits(path: str, n: int, start, out) -> None:
    counters = CounterFile(path)
    start.wait()
    out.put([counters.hit("k", 60.0)[0] for _ in range(n)])


def test_processes_hitting_one_window_at_once_count_every_hit_exactly_once(tmp_path):
    path = str(tmp_path / "counters.sqlite3")
    CounterFile(path)
    ctx = multiprocessing.get_context("fork")
    start, out = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=_hits, args=(path, 200, start, out)) for _ in range(4)]
    for proc in procs:
        proc.start()
    start.set()
    seen = sorted(count for _ in procs for count in out.get(timeout=60))
    for proc in procs:
        proc.join(timeout=10)
    assert seen == list(range(1, 801))  # no count lost, none given twice


def test_a_window_starts_again_at_one_once_it_has_ended(tmp_path):
    counters = CounterFile(str(tmp_path / "c.sqlite3"))
    assert counters.hit("k", 60.0, now=1000.0) == (1, 1060.0)
    assert counters.hit("k", 60.0, now=1059.0) == (2, 1060.0)
    assert counters.hit("other", 60.0, now=1059.0) == (1, 1119.0)
    assert counters.hit("k", 60.0, now=1060.0) == (1, 1120.0)


def test_two_apps_on_one_counter_file_share_the_rate_limit_of_an_address(tmp_path):
    runtime = make_runtime()
    try:
        config = {"COUNTERS_FILE": str(tmp_path / "c.sqlite3"), "RATE_LIMIT_ANONYMOUS_PER_MINUTE": 3}
        first, second = (create_app(runtime, config).test_client() for _ in range(2))
        for client in (first, second):
            client.environ_base["REMOTE_ADDR"] = "203.0.113.5"
        assert [first.get("/game-types").status_code for _ in range(2)] == [200, 200]
        assert [second.get("/game-types").status_code for _ in range(2)] == [200, 429]
        refused = first.get("/game-types")
        assert refused.status_code == 429 and refused.get_json()["code"] == "rate_limited"
    finally:
        jobs.set_runtime(None)


def test_follower_caps_count_the_slots_of_every_process_and_a_released_slot_frees_its_place(tmp_path):
    path = str(tmp_path / "c.sqlite3")
    caps = Caps(per_address=2, per_game=3, per_process=10)
    first, second = FollowerLimits(caps, counters=CounterFile(path)), FollowerLimits(caps, counters=CounterFile(path))
    a = first.acquire("203.0.113.5", "g1")
    second.acquire("203.0.113.5", "g1")
    with pytest.raises(ApiError) as refused:
        first.acquire("203.0.113.5", "g2")
    assert refused.value.code == "too_many_followers" and "per client address" in refused.value.detail
    assert first.count(address="203.0.113.5") == second.count(address="203.0.113.5") == 2
    second.acquire("198.51.100.7", "g1")
    with pytest.raises(ApiError) as full_game:
        first.acquire("198.51.100.8", "g1")
    assert "per game" in full_game.value.detail
    assert first.count(address="198.51.100.8") == 0  # a refused slot holds no place anywhere
    a.release()
    second.acquire("203.0.113.5", "g2")
    assert first.count(game_id="g1") == 2 and first.count(game_id="g2") == 1


def test_a_slot_its_process_stops_refreshing_lapses(tmp_path, monkeypatch):
    from api import followers

    monkeypatch.setattr(followers, "SLOT_TTL", 0.2)
    limits = FollowerLimits(Caps(per_address=1, per_game=5, per_process=10), counters=CounterFile(str(tmp_path / "c")))
    limits.acquire("203.0.113.5", "g1")  # never released, never refreshed (a killed process)
    with pytest.raises(ApiError):
        limits.acquire("203.0.113.5", "g1")
    time.sleep(0.3)
    limits.acquire("203.0.113.5", "g1")
