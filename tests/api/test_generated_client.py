"""The committed document works for a client generator: it validates, openapi-python-client turns it into a
client without a warning, and that client alone plays a complete game of every hosted game type."""

from __future__ import annotations

import importlib
import os
import random
import subprocess
import sys
import uuid
from pathlib import Path

import httpx
import pytest
from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename

from api.app import create_app
from domain import registry
from tests.api.conftest import make_runtime

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["amerigo", "archipelago", "murano", "puerto_rico"]
# several human seats, or humans against random bots (bots play inline in the test runtime)
SEATS = {
    "puerto_rico": ["human", "bot", "human", "bot"],
    "murano": ["human", "human", "human"],
    "amerigo": ["human", "bot"],
    "archipelago": ["human", "human", "bot"],
}


def test_the_committed_document_is_valid_openapi():
    spec, _ = read_from_filename(str(ROOT / "openapi.yaml"))
    validate(spec)


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """Generate the client from the committed file; the generator's whole output is checked."""
    out = tmp_path_factory.mktemp("client")
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            str(ROOT / "openapi.yaml"),
            "--meta",
            "none",
            "--output-path",
            str(out / "tradewinds_client"),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "warning" not in output.lower() and "error" not in output.lower(), output
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module("tradewinds_client"), output
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == "tradewinds_client" or m.startswith("tradewinds_client.")]:
            del sys.modules[name]


def test_the_generator_prints_no_warning(generated):
    _, output = generated
    assert "Generating" in output


def module(package, name):
    return importlib.import_module(f"{package.__name__}.{name}")


@pytest.mark.parametrize("game_type", GAMES)
def test_the_generated_client_plays_a_complete_game(generated, game_type):
    tw, _ = generated
    games = module(tw, "api.games")
    history = module(tw, "api.history")
    models = module(tw, "models")
    for op in ("create_game", "get_game", "get_legal_commands", "submit_commands"):
        module(tw, f"api.games.{op}")
    for op in ("export_game", "verify_export"):
        module(tw, f"api.history.{op}")
    assert game_type in registry.names()

    app = create_app(make_runtime())
    transport = httpx.WSGITransport(app=app)
    base = "http://tradewinds.test"

    def client(token: str | None = None):
        if token is None:
            made = tw.Client(base_url=base, raise_on_unexpected_status=True)
        else:
            made = tw.AuthenticatedClient(base_url=base, token=token, raise_on_unexpected_status=True)
        made.set_httpx_client(
            httpx.Client(
                base_url=base, transport=transport, headers={"Authorization": f"Bearer {token}"} if token else {}
            )
        )
        return made

    seats = [
        models.SeatRequest(
            kind=models.SeatRequestKind(kind),
            name=f"{kind} {i}",
            level=models.SeatRequestLevel("random") if kind == "bot" else tw.types.UNSET,
        )
        for i, kind in enumerate(SEATS[game_type])
    ]
    created = games.create_game.sync(
        client=client(), body=models.CreateGame(game_type=models.CreateGameGameType(game_type), seats=seats, seed=2026)
    )
    assert isinstance(created, models.CreatedGame), created
    tokens = {t.seat: t.token for t in created.seat_tokens}
    assert sorted(tokens) == [i for i, kind in enumerate(SEATS[game_type]) if kind == "human"]
    chooser = random.Random(11)
    moves = replays = 0
    while True:
        game = games.get_game.sync(created.id, client=client())
        assert isinstance(game, models.Game), game
        if game.status == "finished":
            break
        seat = chooser.choice([s for s in game.to_act if s in tokens])
        legal = games.get_legal_commands.sync(created.id, client=client(tokens[seat]))
        assert isinstance(legal, models.LegalCommands) and legal.commands, legal
        command = chooser.choice(legal.commands).to_dict()
        key = str(uuid.uuid4())
        body = models.Submit(command=models.Command.from_dict(command))
        result = games.submit_commands.sync(
            created.id, client=client(tokens[seat]), body=body, if_match=f'"{legal.etag}"', idempotency_key=key
        )
        assert isinstance(result, models.MoveResult) and not result.replayed, result
        if moves % 25 == 0:  # a retried request with the same key answers the same move, not a second one
            again = games.submit_commands.sync(
                created.id, client=client(tokens[seat]), body=body, if_match=f'"{legal.etag}"', idempotency_key=key
            )
            assert isinstance(again, models.MoveResult) and again.replayed
            assert (again.version, again.etag, again.to_dict()["events"]) == (
                result.version,
                result.etag,
                result.to_dict()["events"],
            )
            replays += 1
        moves += 1
        assert moves < 5000, "the game did not end"
    assert replays >= 1 and moves > 1
    ranks = game.result.to_dict()["ranks"]
    assert sorted(ranks)[0] == 1 and len(ranks) == len(SEATS[game_type])
    export = history.export_game.sync(created.id, client=client())
    assert isinstance(export, str) and export.count("\n") > moves, export
    report = history.verify_export.sync(client=client(), body=models.VerifyBody(export=export))
    assert isinstance(report, models.VerifyReport) and report.ok, report
    print(
        f"\n{game_type}: {moves} moves by the generated client ({replays} idempotent retries), "
        f"{report.events} events exported and verified, ranks {ranks}"
    )
