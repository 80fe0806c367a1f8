"""``POST /verify`` on a tampered export answers a report, never a 500: every field of the header and of the
events replaced by a value of another shape (null, numbers beyond 64 bits or JSON's range, text, lists,
objects), a line with an integer too long for the parser, and whole lines that are not objects. Only the
untouched export verifies."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from tests.api.conftest import auth
from workers.history import verify_export

HUGE = "9" * 5000  # beyond Python's default limit for an integer read from text
ODD: list[Any] = [None, True, -1, 2**70, 1.5, "x", "", [], [1, 2], {}, {"a": 1}, float("inf")]


def finished_export(client) -> str:
    game = client.post(
        "/games",
        json={"game_type": "secret_numbers", "options": {"rounds": 1}, "seed": 5, "seats": [{"kind": "human"}] * 2},
    ).get_json()
    for token in (t["token"] for t in game["seat_tokens"]):
        moved = client.post(
            f"/games/{game['id']}/commands", json={"command": {"type": "bank", "amount": 1}}, headers=auth(token)
        )
        assert moved.status_code == 200
    return client.get(f"/games/{game['id']}/export").get_data(as_text=True)


def paths(value: Any, at: tuple = ()) -> Iterator[tuple]:
    yield at
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:3]):
            yield from paths(v, (*at, i))


def replaced(doc: Any, at: tuple, new: Any) -> Any:
    if not at:
        return new
    out = json.loads(json.dumps(doc))
    holder = out
    for key in at[:-1]:
        holder = holder[key]
    holder[at[-1]] = new
    return out


def tampered(text: str) -> Iterator[tuple[str, str]]:
    lines = text.splitlines()
    rows = [json.loads(line) for line in lines]
    for index in (0, 1, len(rows) - 1):
        for at in paths(rows[index]):
            for new in ODD:
                changed = list(lines)
                changed[index] = json.dumps(replaced(rows[index], at, new))  # inf is written Infinity, as a forger may
                yield f"line {index} {at} = {new!r}", "\n".join(changed)
        yield (
            f"line {index} with a long integer",
            "\n".join([*lines[:index], lines[index][:-1] + f', "x": {HUGE}}}', *lines[index + 1 :]]),
        )
        yield f"line {index} as a list", "\n".join([*lines[:index], "[1, 2]", *lines[index + 1 :]])
    head = rows[0]
    for field, new in [("generation", "Infinity"), ("version", "1e400"), ("version", "-Infinity")]:
        raw = json.dumps(replaced(head, ("signature", field), "@")).replace('"@"', new)
        yield f"signature {field} {new}", "\n".join([raw, *lines[1:]])


def test_every_tampered_shape_gets_a_report_not_a_crash(client, runtime):
    text = finished_export(client)
    assert verify_export(text.splitlines(), [runtime.key.public_key])["ok"]
    checked = 0
    for what, forged in tampered(text):
        answer = client.post("/verify", json={"export": forged})
        assert answer.status_code == 200, (what, answer.get_data()[:300])
        assert isinstance(answer.get_json()["ok"], bool), what
        checked += 1
    assert checked > 500


def test_the_api_answers_a_tampered_export_with_a_report(client):
    text = finished_export(client)
    header, *rest = text.splitlines()
    head = json.loads(header)
    forged = {
        "seats not a list": [json.dumps({**head, "seats": [1, 2]}), *rest],
        "seats text": [json.dumps({**head, "seats": "ab"}), *rest],
        "generation infinite": [
            json.dumps(replaced(head, ("signature", "generation"), "@")).replace('"@"', "Infinity"),
            *rest,
        ],
        "a long integer": [header[:-1] + f', "x": {HUGE}}}', *rest],
        "an event hash that is a number": [header, *[json.dumps({**json.loads(line), "hash": 7}) for line in rest]],
    }
    for what, lines in forged.items():
        answer = client.post("/verify", json={"export": "\n".join(lines)})
        assert answer.status_code == 200, (what, answer.get_data()[:300])
        report = answer.get_json()
        assert report["ok"] is False and report["detail"], (what, report)


def test_any_edit_of_what_the_export_says_fails_verification(client, runtime):
    """Every value of the header and of the first and last events, edited to another JSON value (True for 1, 1.0
    for 1 and other values equal in Python but not in JSON included), fails: the header's game id, seed, options,
    seats, status, versions and key id are checked against the signed chain as its result is. Only
    ``state_version``, the exporting server's state format, is no fact of the game; a seat emptied of every field
    shows nothing to check."""
    text = finished_export(client)
    lines = text.splitlines()
    rows = [json.loads(line) for line in lines]
    trusted = [runtime.key.public_key]
    assert verify_export(lines, trusted)["ok"]
    passed, tried = [], 0
    for index in (0, 1, len(rows) - 1):
        for at in paths(rows[index]):
            if at == ("state_version",):
                continue
            old: Any = rows[index]
            for key in at:
                old = old[key]
            for new in [*ODD, 0, 1, 1.0, False, "2026-01-01T00:00:00Z"]:
                if json.dumps(new) == json.dumps(old):
                    continue
                if index == 0 and at[:1] == ("seats",) and len(at) == 2 and new == {}:
                    continue  # a seat shown with no field says nothing (older exports lack some: the next test)
                changed = list(lines)
                changed[index] = json.dumps(replaced(rows[index], at, new))
                tried += 1
                if verify_export(changed, trusted)["ok"]:
                    passed.append((index, at, new))
    assert tried > 500 and passed == []
    edited = json.dumps({**rows[0], "seed": rows[0]["seed"] + 1})
    report = verify_export([edited, *lines[1:]], trusted)
    assert not report["ok"] and report["detail"].endswith("the header's seed differs from what the signed chain holds")


def test_a_header_field_exports_do_not_write_fails_and_one_left_out_says_nothing(client, runtime):
    """A forger's extra field (a winner, a seat's id) would be believed unchecked: it fails. An export written
    before a field existed (no ``status``, seats without ``resigned``, with an ``external_id`` of null) verifies:
    what it shows is still the chain's."""
    lines = finished_export(client).splitlines()
    head, rest, trusted = json.loads(lines[0]), lines[1:], [runtime.key.public_key]
    for forged in (
        {**head, "winner": "Mallory"},
        {**head, "seats": [{**head["seats"][0], "external_id": "mallory@example.org"}, *head["seats"][1:]]},
        {**head, "seats": [{**seat, "name": "Mallory"} for seat in head["seats"]]},
    ):
        report = verify_export([json.dumps(forged), *rest], trusted)
        assert not report["ok"] and "the header's" in report["detail"], report["detail"]
    older = {k: v for k, v in head.items() if k != "status"}
    older["seats"] = [
        {**{k: v for k, v in seat.items() if k != "resigned"}, "external_id": None} for seat in head["seats"]
    ]
    assert verify_export([json.dumps(older), *rest], trusted)["ok"]


def test_a_seat_field_the_chain_does_not_hold_fails_even_as_null(client, runtime):
    """Exports write no seat's ``external_id`` (its chain holds only a salted commitment): a header that says it
    is null ("no id") for a seat that has one fails, as does any seat field the chain's seat record lacks."""
    from tests.api.conftest import integrator

    body = {
        "game_type": "secret_numbers",
        "options": {"rounds": 1},
        "seed": 5,
        "seats": [{"kind": "human", "external_id": f"player-{i}@example.org"} for i in range(2)],
    }
    game = client.post("/games", json=body, headers=integrator(runtime)).get_json()
    for token in (t["token"] for t in game["seat_tokens"]):
        played = client.post(
            f"/games/{game['id']}/commands", json={"command": {"type": "bank", "amount": 1}}, headers=auth(token)
        )
        assert played.status_code == 200
    lines = client.get(f"/games/{game['id']}/export").get_data(as_text=True).splitlines()
    head, rest, trusted = json.loads(lines[0]), lines[1:], [runtime.key.public_key]
    assert verify_export(lines, trusted)["ok"]
    for extra in ({"external_id": None}, {"player_id": None}, {"timed_out": True}):
        forged = {**head, "seats": [{**seat, **extra} for seat in head["seats"]]}
        assert not verify_export([json.dumps(forged), *rest], trusted)["ok"], extra


def test_a_field_the_chain_does_not_cover_fails_in_any_line_and_a_repeated_key_fails(client, runtime):
    """An event line, the stream as created or the signature with a field exports do not write would show a
    reader words no hash covers ("FakeEvent", an actor): it fails. A key written twice in a line fails too: a
    reader sees the first, a JSON parser keeps the last."""
    lines = finished_export(client).splitlines()
    trusted = [runtime.key.public_key]
    assert verify_export(lines, trusted)["ok"]
    head = json.loads(lines[0])
    for index, extra in ((1, {"type": "FakeEvent"}), (-1, {"actor": "bot", "seat": 2})):
        forged = list(lines)
        forged[index] = json.dumps({**json.loads(lines[index]), **extra})
        report = verify_export(forged, trusted)
        assert not report["ok"] and "malformed export" in report["detail"], (extra, report["detail"])
    for part, extra in (("creation", {"note": "audited"}), ("signature", {"verified_by": "someone"})):
        forged_head = {**head, part: {**head[part], **extra}}
        report = verify_export([json.dumps(forged_head), *lines[1:]], trusted)
        assert not report["ok"] and "malformed export" in report["detail"], (part, report["detail"])
    repeated = '{"result":{"ranks":[1,2]},' + lines[0][1:]
    report = verify_export([repeated, *lines[1:]], trusted)
    assert not report["ok"] and "repeats the key" in report["detail"], report["detail"]
    nested = lines[1].replace('"data":{', '"data":{"type":"FakeEvent",', 1)
    report = verify_export([lines[0], nested, *lines[2:]], trusted)
    assert not report["ok"] and "repeats the key" in report["detail"], report["detail"]


def test_a_malformed_event_line_is_reported_at_once_and_a_long_export_is_refused_before_reading(client, runtime):
    """A line of the wrong shape stops the check there (the report names it), so a body of a million empty
    objects costs one line's check, not a report of every line; ``POST /verify`` takes at most
    VERIFY_MAX_EVENTS event lines (413), more than any game stores."""
    from workers.history import VERIFY_MAX_EVENTS

    lines = finished_export(client).splitlines()
    report = verify_export([lines[0], *lines[1:3], *(["{}"] * 200_000)], [runtime.key.public_key])
    assert not report["ok"] and report["detail"].startswith("malformed export: event line 4:"), report["detail"][:200]
    assert len(report["detail"]) < 400
    too_long = "\n".join([lines[0], *(["{}"] * (VERIFY_MAX_EVENTS + 1))])
    answer = client.post("/verify", json={"export": too_long})
    assert answer.status_code == 413 and answer.get_json()["code"] == "payload_too_large", answer.get_json()
    assert str(VERIFY_MAX_EVENTS) in answer.get_json()["detail"]


def _with_line(lines: list[str], index: int, row: Any, nested: int = 0) -> str:
    """The export with line ``index`` replaced by ``row``, its value "@" (if any) by ``nested`` nested arrays."""
    text = json.dumps(row).replace('"@"', "[" * nested + "]" * nested)
    return "\n".join([*lines[:index], text, *lines[index + 1 :]])


def test_text_no_unicode_can_hold_and_nesting_past_what_the_checks_take_are_reports_not_crashes(
    client, runtime, tmp_path
):
    """A lone surrogate (JSON's escapes can write one, UTF-8 cannot encode it) in an event or the signed head, and
    arrays nested as deep as the parser still reads (the hashes and the answer encode them again, deeper in the
    stack) are a failed verification, by the API and by ``tradewinds verify``, never a crash."""
    from api.cli import main

    lines = finished_export(client).splitlines()
    head, row = json.loads(lines[0]), json.loads(lines[1])
    forged = [
        _with_line(lines, 1, {**row, "data": {**row["data"], "note": "\ud800"}}),
        _with_line(lines, 0, {**head, "signature": {**head["signature"], "head_hash": "\udc80"}}),
        *(_with_line(lines, 1, {**row, "data": {**row["data"], "deep": "@"}}, n) for n in (65, 900, 935, 936, 990)),
        *(_with_line(lines, 0, {**head, "result": {"x": "@"}}, n) for n in (65, 935, 936, 990)),
    ]
    for text in forged:
        answer = client.post("/verify", json={"export": text})
        assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
        report = answer.get_json()
        assert not report["ok"] and ("malformed export" in report["detail"] or "nested" in report["detail"]), report
        assert not verify_export(text.splitlines(), [runtime.key.public_key])["ok"]
    path = tmp_path / "forged.jsonl"
    for text in (forged[0], forged[5]):
        path.write_text(text)
        assert main(["verify", "--public-key", runtime.key.public_key, str(path)]) == 1
    assert verify_export(lines, [runtime.key.public_key])["ok"]  # the export as made still verifies
