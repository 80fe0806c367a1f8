"""Snapshots and the in-memory state cache are a pure cache: deleting them changes no answer."""

from __future__ import annotations

from tests.api.conftest import auth, create_secret_game
from workers.games import SNAPSHOT_EVERY


def answers(client, game, tokens):
    gid = game["id"]
    out = []
    version = client.get(f"/games/{gid}").get_json()["version"]
    for headers in [{}] + [auth(t) for t in tokens]:
        out.append(client.get(f"/games/{gid}", headers=headers).get_json())
        out.append(client.get(f"/games/{gid}/events?limit=1000", headers=headers).get_json())
        for v in range(1, version + 1, 7):
            out.append(client.get(f"/games/{gid}/states/{v}", headers=headers).get_json())
    return out


def test_snapshots_are_a_pure_cache(client, runtime):
    rounds = SNAPSHOT_EVERY  # two events a turn: the stream grows well past several snapshot intervals
    game = create_secret_game(client, seats=1, rounds=rounds)
    token = game["seat_tokens"][0]["token"]
    for turn in range(rounds - 1):
        command = {"type": "draw"} if turn % 3 == 0 else {"type": "bank", "amount": 1 + turn % 3}
        assert client.post(f"/games/{game['id']}/commands", json={"command": command},
                           headers=auth(token)).status_code == 200
    runtime.service.forget()
    runtime.service.load(game["id"])  # folds from scratch and writes a snapshot
    assert runtime.store.load_snapshot(game["id"], 0, 10**9, "secret_numbers:1") is not None
    with_cache = answers(client, game, [token])
    runtime.store.delete_snapshots()
    runtime.service.forget()
    assert runtime.store.load_snapshot(game["id"], 0, 10**9, "secret_numbers:1") is None
    assert answers(client, game, [token]) == with_cache
    # and a move played with no cache at all lands on the same state as one played with it
    runtime.service.forget()
    cold = runtime.service.load(game["id"], use_snapshots=False)
    warm = runtime.service.load(game["id"])
    assert cold.state == warm.state and cold.version == warm.version
