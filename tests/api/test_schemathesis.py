"""schemathesis runs the committed contract against the WSGI app: no 5xx, conforming responses,
documented status codes. A second pass gives operations on a game a live game and the token of the
seat to act, so the fuzzer reaches move handling rather than stopping at 404/401."""

from __future__ import annotations

import os
from pathlib import Path

import hypothesis
import pytest
import schemathesis
from schemathesis.config import SchemathesisConfig

from api.app import create_app
from domain import registry
from tests.api.conftest import make_runtime
from tests.support.secret_game import RULES as SECRET

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("TRADEWINDS_SCHEMATHESIS_EXAMPLES", "40"))

registry.register(SECRET)
RUNTIME = make_runtime()
APP = create_app(RUNTIME, {"STREAM_MAX_SECONDS": 0.3})  # live streams of running games close quickly here
CLIENT = APP.test_client()

# The default checks, with one documented adjustment: a request can match the schema and still be refused
# by the game's rules (an illegal move, options a game does not take: 422) or by a stale If-Match (412).
# positive_data_acceptance is told to accept those; 400 stays reserved for requests the schema rejects.
CONFIG = SchemathesisConfig.from_dict(
    {"checks": {"positive_data_acceptance": {"expected-statuses": ["2xx", "3xx", 401, 403, 404, 409, 412, 422, 429]}}}
)


@schemathesis.deserializer("application/x-ndjson")
def ndjson_response(ctx, response):
    return response.content.decode("utf-8")


schema = schemathesis.openapi.from_path(ROOT / "openapi.yaml", config=CONFIG)
schema.app = APP


def real_game(case) -> None:
    """Point the case at a live game, authorised as the seat to act."""
    created = CLIENT.post(
        "/games",
        json={"game_type": SECRET.name, "seats": [{"kind": "human", "name": "a"}, {"kind": "human", "name": "b"}],
              "options": {"rounds": 2}},
    ).get_json()
    case.path_parameters["game_id"] = created["id"]
    if "version" in (case.path_parameters or {}):
        case.path_parameters["version"] = created["version"]
    if case.headers and "Authorization" in case.headers:  # keep cases that test a missing token as they are
        token = created["seat_tokens"][created["to_act"][0]]["token"]
        case.headers["Authorization"] = f"Bearer {token}"


SETTINGS = hypothesis.settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(hypothesis.HealthCheck),
    derandomize=True,
)


@schema.parametrize()
@SETTINGS
def test_api_contract(case):
    case.call_and_validate(app=APP)


@schema.include(path_regex="game_id").parametrize()
@SETTINGS
def test_api_contract_on_live_games(case):
    real_game(case)
    case.call_and_validate(app=APP)


@pytest.mark.filterwarnings("ignore")
def test_stateful_links():
    machine = schema.as_state_machine()
    machine.run(settings=hypothesis.settings(max_examples=max(5, EXAMPLES // 4), deadline=None,
                                             suppress_health_check=list(hypothesis.HealthCheck),
                                             derandomize=True, stateful_step_count=6))
