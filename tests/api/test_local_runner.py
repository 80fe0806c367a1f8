"""Without Redis, bot turns run in a job runner process that `serve` supervises, never in a request process."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.api.test_serve import ROOT, free_port, http, tradewinds, wait_for
from workers import local_runner
from workers.runtime import Runtime

ALL_HARD_BOTS = {"game_type": "puerto_rico", "seats": [{"kind": "bot", "level": "hard"}] * 3}
ALL_HUMANS = {"game_type": "puerto_rico", "seed": 11, "seats": [{"kind": "human"}] * 3}


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def runner_pid(master: int) -> int | None:
    """The job runner: the one grandchild of gunicorn's master (its supervisor is a child; request workers have none)."""
    for child in children(master):
        grandchildren = children(child)
        if grandchildren:
            return grandchildren[0]
    return None


def wait_until(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"{what} within {timeout} s")


def version(base: str, game_id: str) -> int:
    status, body = http("GET", f"{base}/games/{game_id}")
    assert status == 200
    return body["version"]


def play_human_moves(base: str, game: dict, count: int) -> None:
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    for _ in range(count):
        status, body = http("GET", f"{base}/games/{game['id']}")
        assert status == 200
        seat = body["to_act"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        status, legal = http("GET", f"{base}/games/{game['id']}/legal-commands", headers=auth)
        assert status == 200 and legal["commands"], legal
        status, moved = http("POST", f"{base}/games/{game['id']}/commands", {"command": legal["commands"][0]}, auth)
        assert status == 200, moved


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the runner through /proc")
def test_human_moves_keep_working_beside_hard_bots_and_a_killed_runner_comes_back(tmp_path):
    port = free_port()
    data_dir = str(tmp_path / "data")
    cmd, env = tradewinds("apikey", "create", "--name", "bot site", "--data-dir", data_dir)
    created = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    key = created.stdout.split()[-1]  # games of bots only are an integrator's (docs/limits.md)
    cmd, env = tradewinds("serve", "--port", str(port), "--data-dir", data_dir)
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        health = wait_for(base + "/health")
        assert health["queue_backend"] == "local-runner"
        status, bots = http("POST", base + "/games", ALL_HARD_BOTS, {"Authorization": f"Bearer {key}"})
        assert status == 201
        status, humans = http("POST", base + "/games", ALL_HUMANS)
        assert status == 201
        play_human_moves(base, humans, 12)  # while the hard bots search
        wait_until(lambda: version(base, bots["id"]) > bots["version"], 60, "the bots did not play")

        first = wait_until(lambda: runner_pid(proc.pid), 10, "no runner process")
        assert niceness(first) == niceness(proc.pid) + 10  # bots take the CPU the requests leave
        os.kill(first, signal.SIGKILL)
        second = wait_until(
            lambda: (runner_pid(proc.pid) or first) != first and runner_pid(proc.pid), 15, "no new runner"
        )
        assert second != first and niceness(second) == niceness(proc.pid) + 10
        played = version(base, bots["id"])
        play_human_moves(base, humans, 3)
        wait_until(lambda: version(base, bots["id"]) > played, 60, "the restarted runner did not play on")
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    # the supervisor and the runner leave with the server
    wait_until(lambda: not children(proc.pid) and not _alive(first), 15, "the runner outlived the server")


def niceness(pid: int) -> int:
    return os.getpriority(os.PRIO_PROCESS, pid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]


def test_a_request_process_hands_bot_turns_to_the_runner_and_plays_none(tmp_path, monkeypatch):
    address = local_runner.new_address()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(local_runner.sockaddr(address))
    listener.settimeout(5)
    monkeypatch.setenv(local_runner.SOCKET_ENV, address)
    runtime = Runtime.build(f"sqlite:///{tmp_path / 'games.db'}", None, "local-runner", str(tmp_path))
    threads_before = {t.name for t in threading.enumerate()}
    try:
        assert runtime.dispatcher.kind == "local-runner"
        game, _ = runtime.service.create_game("puerto_rico", [{"kind": "bot", "level": "random"}] * 3)
        message = listener.recv(65536)
        assert b'"play_bot_turn"' in message and game.info.stream.encode() in message
        time.sleep(0.5)
        assert runtime.service.load(game.info.stream).version == game.version  # nothing played here
        assert {t.name for t in threading.enumerate()} - threads_before == set()  # no job threads, no sweeper
    finally:
        runtime.close()
        listener.close()


def test_the_runner_away_leaves_the_move_stored_and_the_work_in_the_outbox(tmp_path, monkeypatch):
    monkeypatch.setenv(local_runner.SOCKET_ENV, local_runner.new_address())  # nobody listens there
    runtime = Runtime.build(f"sqlite:///{tmp_path / 'games.db'}", None, "local-runner", str(tmp_path))
    try:
        game, _ = runtime.service.create_game("puerto_rico", [{"kind": "bot", "level": "random"}] * 3)
        assert sorted(e.job for e in runtime.store.list_outbox()) == ["expire_game", "play_bot_turn"]
        with pytest.raises(OSError):
            runtime.dispatcher.ping()
    finally:
        runtime.close()
