"""Each test process holds a Redis database of its own, so two test runs at once never empty each other's."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.support import services
from tests.support.services import claim_redis_database

ROOT = Path(__file__).resolve().parent.parent


def claim_in_another_process(url: str, preferred: int, lock_dir: Path) -> subprocess.Popen[str]:
    """A process that claims ``url``, prints the URL it got, and holds it until its input closes."""
    code = (
        "import sys; from tests.support.services import claim_redis_database as c;"
        f"print(c({url!r}, {preferred}, {str(lock_dir)!r}), flush=True); sys.stdin.read()"
    )
    return subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )


def test_a_second_process_asking_for_the_same_database_gets_another(tmp_path):
    url = "redis://127.0.0.1:1/15"
    holder = claim_in_another_process(url, 0, tmp_path)
    try:
        assert holder.stdout.readline().strip() == "redis://127.0.0.1:1/15"
        assert claim_redis_database(url, 0, str(tmp_path)) == "redis://127.0.0.1:1/14"
        assert claim_redis_database(url, 3, str(tmp_path)) == "redis://127.0.0.1:1/14"  # once per process
    finally:
        holder.communicate("")


def test_a_process_takes_its_own_database_below_the_urls_when_it_is_free(tmp_path):
    assert claim_redis_database("redis://127.0.0.1:2/15", 3, str(tmp_path)) == "redis://127.0.0.1:2/12"
    assert claim_redis_database("redis://127.0.0.1:3/2", 2, str(tmp_path)) == "redis://127.0.0.1:3/0"
    with pytest.raises((pytest.skip.Exception, pytest.fail.Exception), match="finds 3 databases from 2 down"):
        claim_redis_database("redis://127.0.0.1:7/2", 3, str(tmp_path))  # a fourth process: none can be its own


def test_with_every_database_held_a_process_takes_the_first_let_go_and_never_goes_below_the_range(tmp_path):
    url = "redis://127.0.0.1:4/15"
    held = {}
    for db in range(8, 16):
        handle = os.open(tmp_path / f"tradewinds-tests-redis-127.0.0.1-4-{db}.lock", os.O_RDWR | os.O_CREAT)
        fcntl.flock(handle, fcntl.LOCK_EX)
        held[db] = handle
    got: list[str] = []
    claimant = threading.Thread(target=lambda: got.append(claim_redis_database(url, 1, str(tmp_path))), daemon=True)
    claimant.start()
    claimant.join(0.5)
    assert claimant.is_alive() and not got  # databases 0 to 7 are not the tests' to empty
    os.close(held.pop(9))  # not its own, but the first let go (its own may be a sibling's until the run ends)
    claimant.join(10)
    assert got == ["redis://127.0.0.1:4/9"]
    lock_all(tmp_path, 6, held)  # another run holds every database of another server: a bounded wait, then a reason
    with pytest.raises((pytest.skip.Exception, pytest.fail.Exception), match="all held by other test processes"):
        claim_redis_database("redis://127.0.0.1:6/15", 0, str(tmp_path), wait=0.3)
    for handle in held.values():
        os.close(handle)


def lock_all(folder, port, held) -> None:
    """Hold every database of ``redis://127.0.0.1:<port>/15``'s range in this test (as another run would)."""
    for db in range(8, 16):
        handle = os.open(folder / f"tradewinds-tests-redis-127.0.0.1-{port}-{db}.lock", os.O_RDWR | os.O_CREAT)
        fcntl.flock(handle, fcntl.LOCK_EX)
        held[(port, db)] = handle


def test_a_holder_that_dies_lets_its_database_go(tmp_path):
    url = "redis://127.0.0.1:5/15"
    holder = claim_in_another_process(url, 0, tmp_path)
    assert holder.stdout.readline().strip() == "redis://127.0.0.1:5/15"
    holder.kill()
    holder.wait()
    assert claim_redis_database(url, 0, str(tmp_path)) == "redis://127.0.0.1:5/15"


def teardown_module():
    for url in [u for u in services._CLAIMED if any(f":{port}/" in u for port in range(1, 8))]:
        os.close(services._CLAIMED.pop(url)[1])
