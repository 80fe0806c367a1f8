"""schemathesis runs the committed contract against the WSGI app: no 5xx, conforming responses,
documented status codes. A second pass gives operations on a game a live game and the token of the
seat to act, so the fuzzer reaches move handling rather than stopping at 404/401."""

from __future__ import annotations

import os
from pathlib import Path

import hypothesis
import pytest
import schemathesis
import yaml
from schemathesis.config import SchemathesisConfig
from schemathesis.core.parameters import ParameterLocation

from api.app import create_app
from api.conventions import has_control_characters
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


def committed_document() -> dict:
    """The committed document, with one reading schemathesis needs: it checks a text/event-stream response event
    by event (as OpenAPI 3.2 does), so it is given the per-event schema the document carries in `x-sse-event`
    where OpenAPI 3.0.3 can only say `string`."""
    doc = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    for operations in doc["paths"].values():
        for operation in operations.values():
            for response in operation.get("responses", {}).values() if isinstance(operation, dict) else ():
                stream = response.get("content", {}).get("text/event-stream")
                if stream and "x-sse-event" in stream:
                    stream["schema"] = stream.pop("x-sse-event")
    return doc


def acceptable_text(value) -> bool:
    """No NUL in any string, no control character in a field name (the API refuses both with 400)."""
    if isinstance(value, str):
        return "\x00" not in value
    if isinstance(value, dict):
        return all(
            acceptable_text(k) and not has_control_characters(k) and acceptable_text(v) for k, v in value.items()
        )
    if isinstance(value, list):
        return all(acceptable_text(v) for v in value)
    return True


@schemathesis.hook
def filter_body(ctx, body):
    """Every string field of the document forbids NUL and names forbid control characters with a pattern;
    free-form objects (game options, a command's fields) cannot say so of their field names in OpenAPI 3.0.3
    (no propertyNames), so generated bodies with such names are left out. The fuzz test (test_bad_input.py)
    sends them everywhere and expects 400."""
    return acceptable_text(body)


schema = schemathesis.openapi.from_dict(committed_document(), config=CONFIG)
schema.app = APP


def generated_negative(case, location: str) -> bool:
    """Whether schemathesis made this part of the case invalid on purpose (a negative case)."""
    info = case.meta.components.get(ParameterLocation(location)) if case.meta else None
    return info is not None and info.mode.is_negative


def real_game(case) -> None:
    """Point the case at a live game, authorised as the seat to act. The parts a negative case made
    invalid on purpose stay invalid: replacing them would make it a valid request that is rightly
    accepted (an abort or a resignation needs nothing but the game and a token)."""
    if generated_negative(case, "path"):
        return
    created = CLIENT.post(
        "/games",
        json={
            "game_type": SECRET.name,
            "seats": [{"kind": "human", "name": "a"}, {"kind": "human", "name": "b"}],
            "options": {"rounds": 2},
        },
    ).get_json()
    case.path_parameters["game_id"] = created["id"]
    if "version" in (case.path_parameters or {}):
        case.path_parameters["version"] = created["version"]
    if case.headers and "Authorization" in case.headers and not generated_negative(case, "header"):
        # cases that test a missing or malformed token are kept as they are
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
    machine.run(
        settings=hypothesis.settings(
            max_examples=max(5, EXAMPLES // 4),
            deadline=None,
            suppress_health_check=list(hypothesis.HealthCheck),
            derandomize=True,
            stateful_step_count=6,
        )
    )
