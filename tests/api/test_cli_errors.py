"""The command line answers what it cannot do in one line on stderr with exit status 2, never a traceback: files
it cannot read or write, keys it cannot use, settings and arguments out of range. Run in this process (``main``),
with a data folder of the test's own."""

from __future__ import annotations

import logging

import pytest

from api.cli import main
from workers.signing import ServerKey


def run(capsys, *argv) -> tuple[int, str]:
    try:
        code = main(list(argv))
    except SystemExit as stop:  # argparse's own refusals
        code = int(stop.code or 0)
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    return code, err


@pytest.fixture
def folder(tmp_path, monkeypatch):
    for name in ("TRADEWINDS_DATA_DIR", "TRADEWINDS_DATABASE_URL", "TRADEWINDS_REDIS_URL", "TRADEWINDS_PORT"):
        monkeypatch.delenv(name, raising=False)
    # main() sets up logging for a process of its own; in this one it would replace the test run's handlers
    from workers import logs

    monkeypatch.setattr(logs, "configure", lambda *args, **kwargs: None)
    monkeypatch.setattr(logging, "basicConfig", lambda *args, **kwargs: None)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_files_the_cli_cannot_use_are_one_line(capsys, folder):
    (folder / "bin.dat").write_bytes(b"\xff\xfe\x00\x81")
    (folder / "plain").write_text("x")
    (folder / "dir").mkdir()
    bad_key = folder / "badkey"
    bad_key.mkdir()
    (bad_key / "signing-key.pem").write_text("not a key")
    (folder / "export.jsonl").write_text("{}\n")
    cases = [
        ("verify", "bin.dat"),
        ("verify", "export.jsonl", "--data-dir", str(bad_key)),
        ("verify", "export.jsonl", "--public-key", "garbage"),
        ("migrate", "--data-dir", "plain"),
        ("apikey", "list", "--data-dir", "plain"),
        ("openapi", "--output", "dir"),
        ("openapi", "--output", str(folder / "no" / "such" / "x.yaml")),
        ("simulate", "--game", "murano", "--seats", "random,random", "--games", "1", "--out", "dir"),
        ("simulate", "--game", "murano", "--seats", "random,random", "--games", "1", "--out", "no/such/x.jsonl"),
        ("simulate", "--game", "murano", "--seats", "random,random", "--max-decisions", "-10"),
        ("simulate", "--game", "murano", "--seats", "mcts:99999999999999999999,random", "--games", "1"),
        ("serve", "--port", "99999", "--data-dir", "dir"),
        ("serve", "--port", "-1", "--data-dir", "dir"),
        ("apikey", "create", "--name", "   ", "--data-dir", "keys"),
        ("apikey", "create", "--name", "a\nb\x1b[31m", "--data-dir", "keys"),
        ("apikey", "create", "--name", "n" * 101, "--data-dir", "keys"),
    ]
    for argv in cases:
        code, err = run(capsys, *argv)
        assert code == 2 and err.strip(), (argv, code, err)
    assert not (folder / "keys").exists() or "API key" not in capsys.readouterr().out  # no key was made


def test_a_pem_public_key_is_taken_as_well_as_base64(capsys, folder):
    key = ServerKey.load_or_create(folder / "signing-key.pem")
    (folder / "export.jsonl").write_text("{}\n")
    for given in (key.public_key, key.public_pem):
        code, err = run(capsys, "verify", "export.jsonl", "--public-key", given)
        assert code == 1 and "--public-key" not in err  # the key is fine; the export is not one


@pytest.mark.parametrize(
    "name, value",
    [
        ("TRADEWINDS_PORT", "abc"),
        ("TRADEWINDS_PORT", "70000"),
        ("TRADEWINDS_RATE_LIMIT", "abc"),
        ("TRADEWINDS_BOT_GAMES_TOTAL", "many"),
        ("TRADEWINDS_GAME_EXPIRY_SECONDS", "-5"),
        ("TRADEWINDS_FOLLOWERS_PER_ADDRESS", "nan"),
    ],
)
def test_a_setting_that_is_not_a_number_of_its_kind_is_one_line(capsys, folder, monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    code, err = run(capsys, "migrate", "--data-dir", str(folder / "data"))
    assert code == 2 and name in err and len(err.strip().splitlines()) == 1, err


def test_serve_on_a_port_that_is_taken_says_so_in_one_line_before_announcing_anything(capsys, folder):
    import socket

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        code, err = run(capsys, "serve", "--port", str(port), "--data-dir", str(folder / "data"))
    assert code == 2 and str(port) in err and len(err.strip().splitlines()) == 1, err
    assert "serving" not in capsys.readouterr().out
    assert not (folder / "data").exists()  # refused before anything was made


def test_an_ipv6_address_in_brackets_is_checked_and_bound_as_ipv6():
    import socket

    from api import cli, serving

    try:
        with socket.create_server(("::1", 0), family=socket.AF_INET6) as probe:
            port = probe.getsockname()[1]
    except OSError:
        pytest.skip("no IPv6 loopback on this machine")
    cli._check_free("[::1]", port)  # free: no refusal, whether written with brackets or without
    cli._check_free("::1", port)
    assert serving.address("::1", 80) == serving.address("[::1]", 80) == "[::1]:80"
    assert serving.address("127.0.0.1", 80) == "127.0.0.1:80"
    assert serving.gunicorn_level("WARN") == "warning" and serving.gunicorn_level("fatal") == "critical"
    assert serving.gunicorn_level("info") == "info" and serving.gunicorn_level("nonsense") == "warning"
