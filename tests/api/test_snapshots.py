"""Snapshots and the in-memory state cache are a pure cache: deleting them changes no answer."""

from __future__ import annotations

import json

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
        assert (
            client.post(f"/games/{game['id']}/commands", json={"command": command}, headers=auth(token)).status_code
            == 200
        )
    runtime.service.forget()
    runtime.service.load(game["id"])  # folds from scratch and writes a snapshot
    assert runtime.store.load_snapshot(game["id"], 0, 10**9, "secret_numbers:1:facts/1") is not None
    with_cache = answers(client, game, [token])
    runtime.store.delete_snapshots()
    runtime.service.forget()
    assert runtime.store.load_snapshot(game["id"], 0, 10**9, "secret_numbers:1:facts/1") is None
    assert answers(client, game, [token]) == with_cache
    # and a move played with no cache at all lands on the same state as one played with it
    runtime.service.forget()
    cold = runtime.service.load(game["id"], use_snapshots=False)
    warm = runtime.service.load(game["id"])
    assert cold.state == warm.state and cold.version == warm.version


# --------------------------------------------------------------------------- tampered snapshot rows
class RunsCode:
    """What a hostile pickle would do when loaded: create a file."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def long_game(client, runtime, moves=SNAPSHOT_EVERY + 10):
    game = create_secret_game(client, seats=1, rounds=moves)
    token = game["seat_tokens"][0]["token"]
    for _ in range(moves // 2):
        assert (
            client.post(
                f"/games/{game['id']}/commands", json={"command": {"type": "bank", "amount": 1}}, headers=auth(token)
            ).status_code
            == 200
        )
    runtime.service.forget()
    runtime.service.load(game["id"])  # writes a snapshot
    found = runtime.store.load_snapshot(game["id"], 0, 10**9, "secret_numbers:1:facts/1")
    assert found is not None
    return game["id"], found


def tampered_rows(runtime, game_id, version, blob, tmp_path):
    import pickle

    from workers.signing import ServerKey
    from workers.snapshots import dump

    body = json.loads(blob)
    richer = json.loads(blob)
    richer["state"]["t"][0]["v"]["banked"] = {"t": [10**6]}  # the MAC still names the honest state
    rules = runtime.service.rules_for(runtime.store.stream_info(game_id))
    honest_state = runtime.service.load(game_id, at_version=version, use_snapshots=False).state
    forged = type(honest_state)(**{**honest_state.__dict__, "banked": (10**6,)})
    # a snapshot holds the rules' state with the platform facts (workers.facts)
    forged_state = (forged, runtime.service.load(game_id, at_version=version, use_snapshots=False).facts.to_json())
    return {
        "a pickle that runs code": pickle.dumps(RunsCode(str(tmp_path / "pwned"))),
        "an edited state under the old MAC": json.dumps(richer).encode(),
        "a state MACed by another server's key": dump(
            ServerKey.generate(), rules, game_id, 0, version, body["chain_hash"], forged_state
        ),
        "another version's chain hash": dump(runtime.service.key, rules, game_id, 0, version, "0" * 64, forged_state),
        "not JSON": b"\x80\x04garbage",
    }


def test_a_tampered_snapshot_row_is_ignored_and_the_answer_comes_from_the_fold(client, runtime, tmp_path, caplog):
    game_id, (version, blob) = long_game(client, runtime)
    runtime.service.forget()
    with caplog.at_level("WARNING", logger="workers.games"):
        honest = client.get(f"/games/{game_id}").get_json()
    assert not [r for r in caplog.records if r.name == "workers.games"]  # the server's own snapshot is used
    assert honest["state"]["banked"] != [10**6]
    for name, row in tampered_rows(runtime, game_id, version, blob, tmp_path).items():
        runtime.store.delete_snapshots(game_id)
        runtime.store.save_snapshot(game_id, 0, version, "secret_numbers:1:facts/1", row)
        runtime.service.forget()
        caplog.clear()
        with caplog.at_level("WARNING", logger="workers.games"):
            answer = client.get(f"/games/{game_id}").get_json()
            past = client.get(f"/games/{game_id}/states/{version}").get_json()
        assert answer == honest, name
        assert past["state"]["banked"] != [10**6], name
        assert any("ignored the snapshot" in r.getMessage() for r in caplog.records if r.name == "workers.games"), name
        assert not (tmp_path / "pwned").exists(), name


def test_no_pickle_is_read_or_written_for_snapshots():
    import pathlib

    import workers.games

    source = pathlib.Path(workers.games.__file__).read_text()
    assert "pickle" not in source
