"""A forger who rewrites the log and recomputes every hash is caught: the server signed the old head.

Given a finished game on a signed store (SQLite and PostgreSQL), when someone with write access to the
database (or to an export) edits an event, moves a timestamp, changes an actor or a seat name, and then
recomputes the whole hash chain so that it is consistent again, then ``/audit`` reports the head as
not signed by this server and the export fails ``verify`` (CLI and POST /verify).
"""

from __future__ import annotations

import json
import sqlite3

import psycopg
import pytest

from api.app import create_app
from eventstore.base import chain_hash, genesis_hash
from eventstore.postgres import PostgresStore
from eventstore.sqlite import SqliteStore
from tests.api.conftest import auth
from tests.eventstore.conftest import empty_postgres
from workers import jobs
from workers.dispatch import InlineDispatcher
from workers.history import verify_export
from workers.runtime import Runtime, run_job


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def signed(request, tmp_path):
    if request.param == "sqlite":
        path = tmp_path / "signed.db"

        def open_store(signer):
            return SqliteStore(path, signer=signer)

        def connect():
            return sqlite3.connect(path, isolation_level=None)

        placeholder = "?"
    else:
        url = request.getfixturevalue("postgres_url")
        empty_postgres(url)

        def open_store(signer):
            return PostgresStore(url, signer=signer)

        def connect():
            return psycopg.connect(url, autocommit=True)

        placeholder = "%s"
    runtime = Runtime.signed(open_store, InlineDispatcher(run_job))
    jobs.set_runtime(runtime)
    yield runtime, create_app(runtime).test_client(), connect, placeholder
    jobs.set_runtime(None)
    runtime.store.close()


def finished_game(client) -> str:
    game = client.post(
        "/games",
        json={
            "game_type": "secret_numbers",
            "options": {"rounds": 1},
            "seed": 5,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}],
        },
    ).get_json()
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    for seat in (0, 1):
        played = client.post(
            f"/games/{game['id']}/commands", json={"command": {"type": "bank", "amount": 1}}, headers=auth(tokens[seat])
        )
        assert played.status_code == 200
        body = played.get_json()
        assert body["head_hash"] == body_head(client, game["id"], body["version"])
    return game["id"]


def body_head(client, game_id, version):
    return client.get(f"/games/{game_id}/audit").get_json()["head_hash"] if version else None


# --------------------------------------------------------------------------- forgeries
def edit_event(rows, creation):
    rows[-2]["data"]["amount"] = 3  # seat 1 banked 3, not 1


def move_timestamp(rows, creation):
    rows[-1]["recorded_at"] = "2020-01-01T00:00:00.000000Z"


def change_actor(rows, creation):
    rows[-1]["meta"]["actor"] = "bot"


def change_seat_name(rows, creation):
    creation["metadata"]["seats"][1]["name"] = "Mallory"


def edit_platform_fact(rows, creation):
    """The recorded result (platform.GameFinished, a fact of the chain) names the other seat the winner."""
    fact = next(r for r in reversed(rows) if r["data"]["type"] == "platform.GameFinished")
    fact["data"]["result"]["ranks"] = list(reversed(fact["data"]["result"]["ranks"]))


FORGERIES = [edit_event, move_timestamp, change_actor, change_seat_name, edit_platform_fact]


def rehash(rows, creation):
    """What a forger does after an edit: recompute the chain from the (edited) stream as created."""
    previous = genesis_hash(creation["stream"], creation["game_type"], creation["created_at"], creation["metadata"])
    for row in rows:
        row["hash"] = previous = chain_hash(
            previous, row["version"], row["generation"], row["recorded_at"], row["data"], row["meta"]
        )
    return previous


def forge_export(text: str, forgery) -> str:
    lines = text.splitlines()
    header, rows = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    forgery(rows, header["creation"])
    head = rehash(rows, header["creation"])
    header["signature"]["head_hash"] = head  # the old signature cannot cover the new head
    if forgery is change_seat_name:
        header["seats"][1]["name"] = "Mallory"
    return "\n".join(json.dumps(r) for r in [header, *rows])


def forge_database(connect, p, game_id, forgery, recompute=True):
    """Rewrite the stored stream in place, with a consistent chain, the way a database intruder could."""
    with connect() as conn:
        stream = conn.execute(
            f"SELECT game_type, created_at, creation, metadata FROM {table(p)} WHERE stream = {p}", (game_id,)
        ).fetchone()
        creation = {
            "stream": game_id,
            "game_type": stream[0],
            "created_at": iso(stream[1]),
            "metadata": loads(stream[2]),
        }
        metadata = loads(stream[3])
        rows = [
            {"version": r[0], "generation": r[1], "data": loads(r[2]), "meta": loads(r[3]), "recorded_at": iso(r[4])}
            for r in conn.execute(
                f"SELECT version, generation, data, meta, recorded_at FROM events WHERE stream = {p} ORDER BY version",
                (game_id,),
            ).fetchall()
        ]
        old = {row["version"]: row for row in json.loads(json.dumps(rows))}
        forgery(rows, creation)
        head = rehash(rows, creation) if recompute else None
        for row in rows:
            if not recompute:
                row["hash"] = rehash(
                    [old[v] for v in sorted(old) if v <= row["version"]], old_creation(conn, p, game_id)
                )
        for row in rows:
            conn.execute(
                f"UPDATE events SET data = {p}, meta = {p}, recorded_at = {p}, hash = {p}"
                f" WHERE stream = {p} AND version = {p}",
                (
                    json.dumps(row["data"]),
                    json.dumps(row["meta"]),
                    row["recorded_at"],
                    row["hash"],
                    game_id,
                    row["version"],
                ),
            )
        metadata["seats"] = creation["metadata"]["seats"]
        if recompute:
            conn.execute(
                f"UPDATE {table(p)} SET creation = {p}, metadata = {p}, last_hash = {p} WHERE stream = {p}",
                (json.dumps(creation["metadata"]), json.dumps(metadata), head, game_id),
            )
        else:
            conn.execute(
                f"UPDATE {table(p)} SET creation = {p} WHERE stream = {p}", (json.dumps(creation["metadata"]), game_id)
            )


def old_creation(conn, p, game_id):
    stream = conn.execute(
        f"SELECT game_type, created_at, creation FROM {table(p)} WHERE stream = {p}", (game_id,)
    ).fetchone()
    return {"stream": game_id, "game_type": stream[0], "created_at": iso(stream[1]), "metadata": loads(stream[2])}


def table(p):
    return "streams" if p == "?" else "event_streams"


def loads(value):
    return json.loads(value) if isinstance(value, str) else value


def iso(value):
    return value if isinstance(value, str) else value.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# --------------------------------------------------------------------------- tests
@pytest.mark.parametrize("forgery", FORGERIES, ids=lambda f: f.__name__)
def test_a_rehashed_forgery_of_an_export_fails_verify(signed, forgery):
    runtime, client, _, _ = signed
    game_id = finished_game(client)
    text = client.get(f"/games/{game_id}/export").get_data(as_text=True)
    assert client.post("/verify", json={"export": text}).get_json()["ok"]
    forged = forge_export(text, forgery)
    report = client.post("/verify", json={"export": forged}).get_json()
    assert report["chain_ok"] and not report["signature_ok"] and not report["ok"], report
    # re-signing with a key of the forger's own is caught too: the verifier trusts only the server's key
    assert not verify_export(forged.splitlines(), [runtime.key.public_key])["ok"]


@pytest.mark.parametrize("forgery", FORGERIES, ids=lambda f: f.__name__)
def test_a_rehashed_forgery_in_the_database_fails_audit_and_its_export_fails_verify(signed, forgery):
    runtime, client, connect, p = signed
    game_id = finished_game(client)
    assert client.get(f"/games/{game_id}/audit").get_json()["ok"]
    forge_database(connect, p, game_id, forgery)
    runtime.service.forget()
    audit = client.get(f"/games/{game_id}/audit").get_json()
    assert audit["chain_ok"] and not audit["signed"] and not audit["ok"], audit  # the hashes all agree
    export = client.get(f"/games/{game_id}/export").get_data(as_text=True)
    report = client.post("/verify", json={"export": export}).get_json()
    assert not report["ok"] and not report["signature_ok"], report


@pytest.mark.parametrize("forgery", FORGERIES, ids=lambda f: f.__name__)
def test_every_stored_field_is_in_the_hash(signed, forgery):
    """The same edits without recomputing the chain break it: the hash covers data, time, actor, seats."""
    runtime, client, connect, p = signed
    game_id = finished_game(client)
    forge_database(connect, p, game_id, forgery, recompute=False)
    audit = client.get(f"/games/{game_id}/audit").get_json()
    assert not audit["chain_ok"] and not audit["ok"], audit
    expected = (
        1
        if forgery is change_seat_name
        else runtime.store.stream_info(game_id).version - (1 if forgery is edit_event else 0)
    )
    assert audit["broken_version"] == expected


def test_an_untouched_game_is_signed_by_the_key_the_api_serves(signed):
    runtime, client, _, _ = signed
    game_id = finished_game(client)
    served = client.get("/signing-key").get_json()
    assert served["algorithm"] == "Ed25519" and served["public_key"] == runtime.key.public_key
    audit = client.get(f"/games/{game_id}/audit").get_json()
    assert audit["ok"] and audit["signed"] and audit["key_id"] == served["key_id"]
    text = client.get(f"/games/{game_id}/export").get_data(as_text=True)
    header = json.loads(text.splitlines()[0])
    assert header["signature"]["public_key"] == served["public_key"]
    assert header["signature"]["head_hash"] == audit["head_hash"]


def test_the_key_file_is_created_once_private_and_reused(tmp_path):
    import os
    import threading

    from workers.signing import KeyFileError, ServerKey

    path = tmp_path / "keys" / "signing-key.pem"
    keys, barrier = [], threading.Barrier(8)

    def start():
        barrier.wait()
        keys.append(ServerKey.load_or_create(path).public_key)

    threads = [threading.Thread(target=start) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(keys) == 8 and len(set(keys)) == 1  # every process of a deployment signs with the same key
    assert os.stat(path).st_mode & 0o777 == 0o600 and os.listdir(path.parent) == ["signing-key.pem"]
    assert ServerKey.load_or_create(path).public_key == keys[0]
    path.write_text("not a key")
    with pytest.raises(KeyFileError):
        ServerKey.load_or_create(path)


def test_the_cli_prints_the_public_key_serve_signs_with(tmp_path, capsys, monkeypatch):
    from api.cli import main
    from workers.runtime import Runtime
    from workers.signing import ServerKey

    monkeypatch.delenv("TRADEWINDS_SIGNING_KEY_FILE", raising=False)
    assert main(["public-key", "--data-dir", str(tmp_path)]) == 0
    printed = capsys.readouterr().out.strip()
    assert printed == ServerKey.load_or_create(tmp_path / "signing-key.pem").public_key
    runtime = Runtime.build(None, None, "inline", str(tmp_path))  # the embedded default: same folder, same key
    try:
        assert runtime.key.public_key == printed
    finally:
        runtime.store.close()
        jobs.set_runtime(None)
