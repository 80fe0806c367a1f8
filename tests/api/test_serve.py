"""`tradewinds serve` runs a real WSGI server on the embedded store; bad configuration fails in one line."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def tradewinds(*args, env=None):
    """The command line and an environment with no TRADEWINDS_ settings but those given."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("TRADEWINDS_")}
    full_env.update(env or {})
    return [sys.executable, "-m", "api.cli", *args], full_env


def wait_for(url: str, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return json.loads(response.read())
        except OSError:  # URLError, refused connections and read time-outs alike: not up yet
            time.sleep(0.2)
    raise AssertionError(f"{url} did not answer within {timeout}s")


def http(method: str, url: str, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


@contextlib.contextmanager
def serving(tmp_path, env=None):
    """``tradewinds serve`` on a free port and its own data folder (``env``: TRADEWINDS_ settings), until the
    block ends: (base URL, process, data folder)."""
    port = free_port()
    cmd, full_env = tradewinds("serve", "--port", str(port), "--data-dir", str(tmp_path / "data"), env=env)
    proc = subprocess.Popen(cmd, cwd=ROOT, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for(base + "/health")
        yield base, proc, tmp_path / "data"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture
def server(tmp_path):
    with serving(tmp_path) as running:
        yield running


def test_serve_answers_on_the_embedded_store(server):
    base, proc, data_dir = server
    health = wait_for(base + "/health")
    assert (
        health["status"] == "ok" and health["store_backend"] == "sqlite" and health["queue_backend"] == "local-runner"
    )
    assert (data_dir / "tradewinds.db").exists()
    status, types = http("GET", base + "/game-types")
    assert status == 200 and isinstance(types, list)
    status, problem = http("GET", base + "/games/does-not-exist")
    assert status == 404 and problem["code"] == "unknown_game"


def test_serve_signs_with_the_key_of_its_data_dir(server, tmp_path):
    base, proc, data_dir = server
    cmd, env = tradewinds("public-key", "--data-dir", str(data_dir))
    printed = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=True)
    assert wait_for(base + "/signing-key")["public_key"] == printed.stdout.strip()  # not a key of the cwd's own


def test_serve_prints_its_url(tmp_path):
    port = free_port()
    cmd, env = tradewinds("serve", "--port", str(port), "--data-dir", str(tmp_path))
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in first
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize(
    "env, expected",
    [
        ({"TRADEWINDS_DATABASE_URL": "mysql://nowhere/x"}, "unsupported event store URL"),
        ({"TRADEWINDS_DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none"}, "cannot open the event store"),
        ({"TRADEWINDS_REDIS_URL": "redis://127.0.0.1:1/0"}, "cannot reach Redis"),
    ],
)
def test_bad_configuration_fails_in_one_line(tmp_path, env, expected):
    cmd, full_env = tradewinds("serve", "--port", str(free_port()), "--data-dir", str(tmp_path), env=env)
    result = subprocess.run(cmd, cwd=ROOT, env=full_env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_a_worker_that_cannot_reach_redis_writes_nothing(tmp_path):
    """It fails before it opens the store: no signing key made, no tables created in the data folder."""
    env = {"TRADEWINDS_REDIS_URL": "redis://127.0.0.1:1/0", "TRADEWINDS_DATA_DIR": str(tmp_path / "data")}
    cmd, full_env = tradewinds("worker", env=env)
    result = subprocess.run(cmd, cwd=ROOT, env=full_env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "cannot reach Redis" in result.stderr, result.stderr
    assert list(tmp_path.iterdir()) == []  # not even the data folder


@pytest.mark.parametrize("command", ["serve", "worker"])
def test_a_process_that_cannot_reach_redis_leaves_the_metrics_folder_alone(tmp_path, command):
    """The metrics folder is emptied of an earlier run's files only once the process will run: a refusal leaves it
    as it was (it may be another running instance's), and makes none."""
    kept = tmp_path / "metrics"
    kept.mkdir()
    (kept / "counter_1.db").write_bytes(b"an earlier run")
    made = tmp_path / "new-metrics"
    for folder in (kept, made):
        env = {
            "TRADEWINDS_REDIS_URL": "redis://127.0.0.1:1/0",
            "TRADEWINDS_DATA_DIR": str(tmp_path / "data"),
            "TRADEWINDS_METRICS_DIR": str(folder),
        }
        port = "--port" if command == "serve" else "--metrics-port"
        cmd, full_env = tradewinds(command, port, str(free_port()), env=env)
        result = subprocess.run(cmd, cwd=ROOT, env=full_env, capture_output=True, text=True, timeout=60)
        assert result.returncode == 2 and "cannot reach Redis" in result.stderr, result.stderr
    assert (kept / "counter_1.db").read_bytes() == b"an earlier run"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["metrics"]  # no data folder, no new metrics folder


def test_a_serve_that_cannot_open_its_store_leaves_the_metrics_folder_alone(tmp_path):
    kept = tmp_path / "metrics"
    kept.mkdir()
    (kept / "counter_1.db").write_bytes(b"an earlier run")
    env = {"TRADEWINDS_DATABASE_URL": "postgresql://127.0.0.1:1/none", "TRADEWINDS_METRICS_DIR": str(kept)}
    cmd, full_env = tradewinds("serve", "--port", str(free_port()), "--data-dir", str(tmp_path / "data"), env=env)
    result = subprocess.run(cmd, cwd=ROOT, env=full_env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "cannot open the event store" in result.stderr, result.stderr
    assert [p.name for p in kept.iterdir()] == ["counter_1.db"]
    assert (kept / "counter_1.db").read_bytes() == b"an earlier run"


def test_a_second_instance_on_a_running_ones_metrics_folder_is_refused(tmp_path, redis_url):
    """Each instance empties its metrics folder of an earlier run's files at start: a second one started on the same
    folder would delete the running one's, and its /metrics would lose them. It is refused, and changes nothing."""
    folder = tmp_path / "metrics"
    with serving(tmp_path, env={"TRADEWINDS_METRICS_DIR": str(folder)}):
        before = {p.name for p in folder.glob("*.db")}
        assert before  # the running instance's processes count into files there
        env = {
            "TRADEWINDS_METRICS_DIR": str(folder),
            "TRADEWINDS_REDIS_URL": redis_url,
            "TRADEWINDS_DATA_DIR": str(tmp_path / "other"),
        }
        for args in (["serve", "--port", str(free_port())], ["worker", "--metrics-port", str(free_port())]):
            cmd, full_env = tradewinds(*args, env=env)
            result = subprocess.run(cmd, cwd=ROOT, env=full_env, capture_output=True, text=True, timeout=60)
            assert result.returncode == 2 and "another running instance" in result.stderr, result.stderr
            assert before <= {p.name for p in folder.glob("*.db")}


def raw_request(base: str, request: bytes) -> tuple[int, dict[str, str], bytes]:
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


def test_the_http_server_refuses_oversized_requests_as_problems(server):
    base, _, _ = server
    status, headers, body = raw_request(base, b"GET /games?x=" + b"a" * 8000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status == 414 and headers["Content-Type"] == "application/problem+json"
    assert json.loads(body)["code"] == "request_line_too_long"
    status, headers, body = raw_request(base, b"GET /games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n")
    assert status == 431 and json.loads(body)["code"] == "headers_too_large"
    many = b"".join(b"X-H%d: v\r\n" % i for i in range(150))
    status, _, body = raw_request(base, b"GET /games HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n")
    assert status == 431 and json.loads(body)["type"] == "/problems/headers_too_large"


@pytest.mark.parametrize(
    ("request_bytes", "status", "code"),
    [
        (
            b"POST /games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: br, chunked\r\n\r\n0\r\n\r\n",
            501,
            "unsupported_transfer_coding",
        ),
        (  # gunicorn hands a gzip body on undecoded: refused, not read as if it were JSON (a 400)
            b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
            501,
            "unsupported_transfer_coding",
        ),
        (
            b"POST /games HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\n{}",
            417,
            "expectation_failed",
        ),
    ],
    ids=["transfer coding", "gzip transfer coding", "expectation"],
)
def test_the_http_server_refuses_what_it_does_not_implement_as_problems(server, request_bytes, status, code):
    base, _, _ = server
    got, headers, body = raw_request(base, request_bytes)
    assert got == status and headers["Content-Type"] == "application/problem+json", (got, headers, body[:200])
    assert json.loads(body)["code"] == code


def test_a_chunked_body_over_the_limit_is_413_not_a_cut_body(server):
    """Without Content-Length the limit is found while reading: the answer is the same 413 as with one, not a
    400 for the JSON the cut-off body no longer is."""
    base, _, _ = server
    body = b'{"game_type": "puerto_rico", "seats": [], "pad": "' + b"x" * (4 * 1024 * 1024) + b'"}'
    chunks = b"".join(
        b"%x\r\n%s\r\n" % (len(body[i : i + 65536]), body[i : i + 65536]) for i in range(0, len(body), 65536)
    )
    head = b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    status, headers, answer = raw_request(base, head + chunks + b"0\r\n\r\n")
    assert status == 413 and json.loads(answer)["code"] == "payload_too_large", (status, answer[:300])
    # any operation, one that reads no body included: each says so in the API document
    get = head.replace(b"POST /games", b"GET /game-types")
    status, headers, answer = raw_request(base, get + chunks + b"0\r\n\r\n")
    assert status == 413 and json.loads(answer)["code"] == "payload_too_large", (status, answer[:300])
    doc = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    assert "payload_too_large" in doc["paths"]["/game-types"]["get"]["x-problem-codes"]
    small = b'{"game_type": "puerto_rico", "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]}'
    status, _, answer = raw_request(base, head + b"%x\r\n%s\r\n0\r\n\r\n" % (len(small), small))
    assert status == 201, answer[:300]


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GET /livez HTTP/2.0\r\nHost: x\r\n\r\n",
        b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
        b"GET /livez HTTP/1.1\r\nHost: x\r\nX-Bad: a\x01b\r\n\r\n",
        b"GET /li\xffvez HTTP/1.1\r\nHost: x\r\n\r\n",
        b"G@T /livez HTTP/1.1\r\nHost: x\r\n\r\n",
    ],
    ids=["HTTP/2.0", "negative length", "control character", "not UTF-8", "bad method"],
)
def test_the_http_server_refuses_malformed_requests_as_problems(server, request_bytes):
    base, _, _ = server
    status, headers, body = raw_request(base, request_bytes)
    assert status == 400 and headers["Content-Type"] == "application/problem+json", (status, headers, body[:200])
    problem = json.loads(body)
    assert problem["code"] == "invalid_request" and "errors" not in problem["detail"]  # no `errors` member here
    assert problem["detail"].startswith("not a well-formed HTTP/1.1 request") and headers["API-Version"]


def test_serve_says_what_it_is_sized_for_and_uses_no_shared_control_socket(tmp_path):
    port = free_port()
    cmd, env = tradewinds("serve", "--port", str(port), "--data-dir", str(tmp_path), "--threads", "16")
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = [proc.stdout.readline() for _ in range(4)]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    n = os.cpu_count() or 1  # one request process per core by default
    assert f"{n} gthread worker process(es) x 16 threads: sized for {12 * n} live followers" in lines[2], lines
    assert f"{4 * n} threads kept for other requests" in lines[2] and "per client address" in lines[2]
    assert lines[3].strip() == "control socket: none"


def test_several_workers_with_a_memory_store_are_refused_in_one_line(tmp_path):
    cmd, env = tradewinds(
        "serve", "--port", str(free_port()), "--workers", "2", env={"TRADEWINDS_DATABASE_URL": "memory://"}
    )
    result = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "memory:// store lives in one process" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_without_redis_every_request_process_counts_against_one_rate_limit(tmp_path):
    """Two request processes on the embedded store: an address gets its quota once, not once per process."""
    import concurrent.futures
    import http.client

    quota, connections, rounds = 20, 8, 6
    port = free_port()
    env = {"TRADEWINDS_RATE_LIMIT_ANONYMOUS": str(quota), "TRADEWINDS_LOG_LEVEL": "INFO"}
    cmd, env = tradewinds(
        "serve", "--port", str(port), "--data-dir", str(tmp_path), "--workers", "2", "--access-log", env=env
    )
    log = (tmp_path / "serve.log").open("w+")
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log, text=True)
    try:
        wait_for(f"http://127.0.0.1:{port}/health")
        time.sleep(1.0)  # both request processes up

        def client(_: int) -> list[int]:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            seen = []
            for _ in range(rounds):
                conn.request("GET", "/game-types")
                response = conn.getresponse()
                response.read()
                seen.append(response.status)
            return seen

        with concurrent.futures.ThreadPoolExecutor(connections) as pool:
            statuses = [s for seen in pool.map(client, range(connections)) for s in seen]
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    log.seek(0)
    lines = [json.loads(line) for line in log if line.startswith("{")]
    served = {r["pid"] for r in lines if r.get("logger") == "tradewinds.access" and r.get("route") == "/game-types"}
    assert len(served) == 2, f"the requests all went to one process ({served}): the test shows nothing"
    assert statuses.count(200) == quota and statuses.count(429) == connections * rounds - quota
