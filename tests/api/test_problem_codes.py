"""One list of problem codes: the code that raises them, the API document, the README and the problem pages agree."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from api.contract import CODES_KEY
from api.errors import CODES, HTTP_STATUS_CODES
from tests.api.conftest import create_secret_game

ROOT = Path(__file__).resolve().parents[2]
RAISED = re.compile(r'(?:ApiError|GameError|IllegalCommand|problem)\(\s*"([a-z_]+)"')


def codes_in_the_code() -> set[str]:
    found = set(HTTP_STATUS_CODES.values())
    for package in ("api", "workers", "domain"):
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text()
            found |= set(RAISED.findall(text))
            if "NotYourTurn(" in text:
                found.add("not_your_turn")
    return found


def test_every_code_raised_is_listed_and_every_listed_code_is_raised():
    assert codes_in_the_code() == set(CODES)


def test_the_document_lists_every_code_on_the_operations_that_return_it():
    doc = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    documented = set(doc["info"][CODES_KEY])
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            listed = operation[CODES_KEY]
            documented |= set(listed)
            for code in listed:
                response = operation["responses"][str(CODES[code].status)]
                assert code in response[CODES_KEY] and f"`{code}`" in response["description"], (method, path, code)
            for status, response in operation["responses"].items():
                if status.startswith(("4", "5")) and "application/problem+json" in response.get("content", {}):
                    assert response[CODES_KEY], (method, path, status)
    assert documented == set(CODES)


def test_the_readme_lists_every_code():
    readme = (ROOT / "README.md").read_text()
    table = re.findall(r"^\| `([a-z_]+)` \| (\d{3}) \|", readme, flags=re.M)
    assert {code: int(status) for code, status in table} == {code: e.status for code, e in CODES.items()}


def test_a_problem_type_resolves_to_the_page_that_explains_it(client):
    problem = client.get("/games/" + "0" * 32).get_json()
    assert problem["code"] == "unknown_game" and problem["type"] == "/problems/unknown_game"
    page = client.get(problem["type"])
    assert page.status_code == 200 and page.get_json()["status"] == 404 and page.get_json()["explanation"]
    html = client.get(problem["type"], headers={"Accept": "text/html"})
    assert html.mimetype == "text/html" and "unknown_game" in html.get_data(as_text=True)
    listed = client.get("/problems").get_json()
    assert {p["code"] for p in listed} == set(CODES)
    for code in CODES:
        assert client.get(f"/problems/{code}").get_json()["code"] == code
    assert client.get("/problems/no_such_code").get_json()["code"] == "not_found"


def test_error_responses_answer_with_documented_codes(client):
    doc = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    game = create_secret_game(client)
    gid = game["id"]
    cases = [
        ("get", "/games/{game_id}", f"/games/{gid}", {"Authorization": "Bearer nope"}, None),
        (
            "post",
            "/games/{game_id}/commands",
            f"/games/{gid}/commands",
            {"Authorization": f"Bearer {game['seat_tokens'][1]['token']}"},
            {"command": {"type": "bank", "amount": 1}},
        ),
        ("get", "/games/{game_id}/export", f"/games/{gid}/export", {}, None),
        ("get", "/games/{game_id}/states/{version}", f"/games/{gid}/states/999", {}, None),
        ("post", "/games", "/games", {}, {"game_type": "murano", "seats": [{"kind": "human"}]}),
    ]
    aborted = create_secret_game(client)
    seat_0, seat_1 = (t["token"] for t in aborted["seat_tokens"])
    assert (
        client.post(f"/games/{aborted['id']}/abort", headers={"Authorization": f"Bearer {seat_0}"}).status_code == 200
    )
    undo = f"/games/{aborted['id']}/undo"
    cases += [
        # the checks of every request's query string, on an operation that takes no parameter
        ("get", "/game-types", "/game-types?a=1&a=2", {}, None),
        ("get", "/signing-key", "/signing-key?a=%C3%A9", {}, None),
        # an undo answered on a game over
        ("post", "/games/{game_id}/undo/accept", f"{undo}/accept", {"Authorization": f"Bearer {seat_1}"}, None),
        ("post", "/games/{game_id}/undo/decline", f"{undo}/decline", {"Authorization": f"Bearer {seat_1}"}, None),
    ]
    for method, template, url, headers, body in cases:
        response = getattr(client, method)(url, headers=headers, json=body)
        code = response.get_json()["code"]
        assert code in doc["paths"][template][method][CODES_KEY], (template, code)
        assert str(response.status_code) in doc["paths"][template][method]["responses"], (template, code)
