"""Rotating the signing key: games signed before stay verifiable (their key is retired, not forgotten), and every
change after is signed with the new key."""

from __future__ import annotations

import json

import pytest

from api.app import create_app
from api.cli import main
from tests.api.conftest import auth, create_secret_game
from tests.workers.test_webhooks import play_out
from workers import jobs
from workers.runtime import Runtime
from workers.signing import retired_path


@pytest.fixture
def deployment(tmp_path, monkeypatch):
    monkeypatch.delenv("TRADEWINDS_SIGNING_KEY_FILE", raising=False)
    runtimes = []

    def start():
        runtime = Runtime.build(f"sqlite:///{tmp_path / 'tw.db'}", None, "inline", str(tmp_path))
        runtimes.append(runtime)
        return runtime, create_app(runtime).test_client()

    yield start, tmp_path
    for runtime in runtimes:
        runtime.close()
    jobs.set_runtime(None)


def test_a_rotation_keeps_old_games_verifiable_and_signs_new_changes_with_the_new_key(deployment, capsys):
    start, folder = deployment
    runtime, client = start()
    old_id = client.get("/signing-key").get_json()["key_id"]
    finished = create_secret_game(client, rounds=1)
    play_out(client, finished)
    active = create_secret_game(client, rounds=3)
    runtime.close()

    assert main(["rotate-signing-key", "--data-dir", str(folder)]) == 0
    out = capsys.readouterr().out
    assert f"retired key {old_id}" in out and "restart every server and worker" in out

    runtime, client = start()
    key = client.get("/signing-key").get_json()
    new_id = key["key_id"]
    assert new_id != old_id and [k["key_id"] for k in key["retired_keys"]] == [old_id]
    audit = client.get(f"/games/{finished['id']}/audit").get_json()
    assert audit["ok"] and audit["signed"] and audit["key_id"] == old_id
    export = client.get(f"/games/{finished['id']}/export").get_data(as_text=True)
    assert json.loads(export.splitlines()[0])["signature"]["key_id"] == old_id
    assert client.post("/verify", json={"export": export}).get_json()["ok"]
    (folder / "game.jsonl").write_text(export)
    assert main(["verify", str(folder / "game.jsonl"), "--data-dir", str(folder)]) == 0  # trusts retired keys
    assert main(["verify", str(folder / "game.jsonl"), "--public-key", key["public_key"]]) == 1  # not the new one
    capsys.readouterr()

    # the active game: its head is re-signed with the new key by its next move
    assert client.get(f"/games/{active['id']}/audit").get_json()["key_id"] == old_id
    token = next(t["token"] for t in active["seat_tokens"] if t["seat"] == 0)
    move = client.post(
        f"/games/{active['id']}/commands", json={"command": {"type": "bank", "amount": 1}}, headers=auth(token)
    )
    assert move.status_code == 200
    audit = client.get(f"/games/{active['id']}/audit").get_json()
    assert audit["ok"] and audit["key_id"] == new_id
    fresh = create_secret_game(client)
    assert client.get(f"/games/{fresh['id']}/audit").get_json()["key_id"] == new_id
    runtime.close()

    # without the retired list, what the old key signed no longer verifies: the list is what keeps it
    retired_path(folder / "signing-key.pem").unlink()
    runtime, client = start()
    audit = client.get(f"/games/{finished['id']}/audit").get_json()
    assert not audit["ok"] and not audit["signed"]


def test_rotating_without_a_key_file_is_a_one_line_error(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("TRADEWINDS_SIGNING_KEY_FILE", raising=False)
    assert main(["rotate-signing-key", "--data-dir", str(tmp_path / "none")]) == 2
    assert "there is no key to rotate" in capsys.readouterr().err


def test_a_damaged_retired_list_is_refused_at_start(tmp_path, monkeypatch):
    monkeypatch.delenv("TRADEWINDS_SIGNING_KEY_FILE", raising=False)
    assert main(["public-key", "--data-dir", str(tmp_path)]) == 0
    retired_path(tmp_path / "signing-key.pem").write_text("not-a-key\n")
    from workers.runtime import ConfigError

    with pytest.raises(ConfigError, match="not a base64 Ed25519 public key"):
        Runtime.build(f"sqlite:///{tmp_path / 'tw.db'}", None, "inline", str(tmp_path))
