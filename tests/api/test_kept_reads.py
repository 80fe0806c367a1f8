"""A read of a game that has not moved is sent from the encoded body its version's first read made: the same bytes
a fresh read makes, never another caller's (another seat's hidden information, another key's external ids), and
never for a body that moves between moves (a running clock)."""

from __future__ import annotations

import time

from tests.api.conftest import auth
from tests.api.test_clocks import clocked_game
from workers import apikeys


def reads(client, game_id: str, callers: dict[str, dict[str, str]]) -> dict[str, tuple[bytes, bytes]]:
    """Each caller's game read and legal-commands read (the latter for seats only), as raw bytes."""
    out = {}
    for name, headers in callers.items():
        body = client.get(f"/games/{game_id}", headers=headers).get_data()
        legal = client.get(f"/games/{game_id}/legal-commands", headers=headers).get_data() if "seat" in name else b""
        out[name] = (body, legal)
    return out


def test_kept_reads_are_the_bytes_a_fresh_read_makes_for_each_caller(runtime, client):
    _, key = apikeys.create_key(runtime.store, "site")
    _, other_key = apikeys.create_key(runtime.store, "other")
    seats = [{"kind": "human", "name": "Ann", "external_id": "ann@example.com"}, {"kind": "human", "name": "Ben"}]
    body = {"game_type": "secret_numbers", "seats": seats, "options": {"rounds": 2}, "seed": 7}
    game = client.post("/games", json=body, headers=auth(key)).get_json()
    tokens = [t["token"] for t in game["seat_tokens"]]
    callers = {
        "seat 0": auth(tokens[0]),
        "seat 1": auth(tokens[1]),
        "creator": auth(key),
        "other key": auth(other_key),
        "spectator": {},
    }
    for order in (list(callers), list(reversed(callers))):
        runtime.service.forget()
        first = reads(client, game["id"], {name: callers[name] for name in order})
        again = reads(client, game["id"], callers)
        runtime.service.forget()
        fresh = reads(client, game["id"], callers)
        assert first == again == fresh, order
    assert first["seat 0"] != first["seat 1"]  # each seat sees its own hand
    assert first["seat 0"][1] != first["seat 1"][1]
    assert len({first[name][0] for name in ("creator", "other key", "spectator")}) == 2  # only the creator's differs
    client.post(
        f"/games/{game['id']}/commands", json={"command": {"type": "bank", "amount": 1}}, headers=auth(tokens[0])
    )
    moved = reads(client, game["id"], callers)
    runtime.service.forget()
    assert moved == reads(client, game["id"], callers) and moved["seat 0"] != first["seat 0"]


def test_a_running_clock_is_read_afresh_each_time(client, monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    game = clocked_game(client, "bot", bank=60)
    url = f"/games/{game['id']}"
    before = client.get(url).get_json()["clock"]["remaining"][0]
    now[0] += 5
    after = client.get(url)
    assert after.get_json()["clock"]["remaining"][0] == before - 5
    assert after.headers["ETag"] != f'"{after.get_json()["etag"]}"'  # the clock's own tag, not the version's
