"""`tradewinds serve` with several worker processes: one scrape reports every process's figures, and the
server's output is JSON lines with request ids and without a credential."""

from __future__ import annotations

import json
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.api.test_serve import http
from tests.api.test_streams_serve import auth, create_game, pg, start_server, stop  # noqa: F401 (pg: a fixture)

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def scrape(base: str) -> dict[tuple[str, tuple], float]:
    with urllib.request.urlopen(base + "/metrics", timeout=10) as response:
        text = response.read().decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def test_every_process_counts_into_one_scrape_and_logs_json_without_secrets(pg, redis_url):  # noqa: F811
    proc, base, _ = start_server(
        pg,
        redis_url,
        "--workers",
        "2",
        "--worker-class",
        "gthread",
        "--access-log",
        env={"TRADEWINDS_LOG_LEVEL": "INFO"},  # gunicorn's own lines (boots) are INFO
    )
    try:
        game = create_game(base, rounds=2)
        token = game["seat_tokens"][0]["token"]
        status, ticket = http("POST", f"{base}/games/{game['id']}/stream-tickets", headers=auth(token))
        assert status == 201
        headers = {**auth(token), "X-Request-ID": "deploy-check-1"}
        status, _ = http(
            "POST", f"{base}/games/{game['id']}/commands", {"command": {"type": "bank", "amount": 1}}, headers
        )
        assert status == 200
        for _ in range(8):  # whichever process answers, the figures are the sum over both
            samples = scrape(base)
            created = ("tradewinds_http_requests_total", (("method", "POST"), ("route", "/games"), ("status", "201")))
            assert samples[created] == 1
            moves = ("tradewinds_moves_stored_total", (("actor", "human"), ("game_type", "secret_numbers")))
            assert samples[moves] == 1
    finally:
        output = stop(proc)
    records = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    access = [r for r in records if r.get("logger") == "tradewinds.access"]
    assert len(access) >= 11 and all(len(r["request_id"]) >= 1 for r in access)
    move = next(r for r in access if r["request_id"] == "deploy-check-1")
    assert move["route"] == "/games/<game_id:game_id>/commands" and move["status"] == 200
    assert move["method"] == "POST" and move["duration_ms"] > 0
    assert any(r.get("logger", "").startswith("gunicorn") for r in records)  # gunicorn's own lines are JSON too
    for secret in [ticket["ticket"], *(t["token"] for t in game["seat_tokens"])]:
        assert secret.partition("_")[2][:8] not in output


def test_the_metrics_folder_outlives_a_worker_process_and_goes_with_the_server(tmp_path):
    import os
    import signal
    import subprocess
    import time
    from pathlib import Path

    from tests.api.test_serve import ROOT, free_port, tradewinds, wait_for

    port = free_port()
    cmd, env = tradewinds("serve", "--port", str(port), "--data-dir", str(tmp_path))
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        lines = [proc.stdout.readline() for _ in range(5)]
        folder = Path(lines[4].split(" in ", 1)[1].rstrip(")\n"))
        wait_for(f"http://127.0.0.1:{port}/livez")
        assert folder.is_dir() and list(folder.glob("*.db"))
        worker = int(subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()[0])
        os.kill(worker, signal.SIGTERM)  # gunicorn replaces the worker; its exit must not take the folder
        time.sleep(1.0)
        wait_for(f"http://127.0.0.1:{port}/livez")
        assert folder.is_dir()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
            assert response.status == 200
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    assert not folder.exists()
