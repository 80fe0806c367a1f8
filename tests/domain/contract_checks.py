"""Checks of what a game publishes to clients (``domain/contract.py``), shared by the games' contract tests.

Random legal games are played; at every decision, every legal command must match the game's command schema,
carry a non-empty label that depends only on what the seat may see, and use only ids the catalogue explains;
views of every seat and of a spectator must match the view schema; the result must match the shared one.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import jsonschema_rs

from domain.contract import RESULT_SCHEMA, as_json_schema
from domain.game import Rules
from domain.rng import rng_for

PREVIEW_KEYS = {"label", "cost", "gain", "points"}


def validator(schema: dict[str, Any]):
    return jsonschema_rs.validator_for(as_json_schema(schema))


def errors_of(v, instance: Any) -> list[str]:
    return [f"{'.'.join(map(str, e.instance_path))}: {e.message}" for e in v.iter_errors(instance)]


def known_codes(catalogue: dict[str, Any]) -> tuple[set[str], list[re.Pattern]]:
    ids = {c["id"] for c in catalogue["components"]}
    for group, codes in catalogue["codes"].items():
        if group != "id_patterns":
            ids |= set(codes)
    patterns = [re.compile(p) for p in catalogue["codes"].get("id_patterns", {})]
    return ids, patterns


def strings_in(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item, key)
    elif isinstance(value, dict):
        for k, item in value.items():
            if k != "type":
                yield from strings_in(item, k)


def check_catalogue(rules: Rules) -> dict[str, Any]:
    cat = rules.catalogue()
    json.dumps(cat)
    assert set(cat) >= {"components", "board", "codes"}
    seen = set()
    for comp in cat["components"]:
        assert set(comp) == {"id", "kind", "name", "cost", "points", "effect", "count", "data"}, comp
        key = (comp["kind"], comp["id"])
        assert key not in seen, f"component listed twice: {key}"
        seen.add(key)
        assert isinstance(comp["effect"], str) and comp["effect"].strip(), f"{comp['id']} has no effect text"
        assert isinstance(comp["name"], str) and comp["name"].strip()
        for num in ("cost", "points", "count"):
            assert comp[num] is None or (isinstance(comp[num], int) and not isinstance(comp[num], bool)), comp
    numbers = set()
    for schema in rules.command_schemas().values():
        for case in schema.get("oneOf", [schema]):
            numbers |= {name for name, field in case["properties"].items() if field.get("type") == "integer"}
    missing = numbers - set(cat["codes"].get("command_field", {}))
    assert not missing, f"number fields of commands not explained in codes.command_field: {sorted(missing)}"
    for group, codes in cat["codes"].items():
        assert isinstance(codes, dict) and codes, group
        for code, meaning in codes.items():
            assert isinstance(code, str) and isinstance(meaning, str) and meaning.strip(), (group, code)
    return cat


def play_and_check(
    rules: Rules,
    seats: int,
    seed: int,
    options: dict | None = None,
    max_steps: int = 20_000,
    view_every: int = 7,
    view_ids=None,
) -> int:
    """Play one random game checking the contract at each decision; return the number of decisions.

    ``view_ids(view)`` lists the ids a view shows (cards, tiles, buildings ...): each must be in the catalogue."""
    schemas = {t: validator(s) for t, s in rules.command_schemas().items()}
    view_v = validator(rules.view_schema())
    result_v = validator(RESULT_SCHEMA)
    ids, patterns = known_codes(rules.catalogue())
    chooser = random.Random(seed)
    events = rules.setup(seed, seats, options or {})
    state = rules.fold(events)
    steps = 0
    while not rules.is_over(state) and steps < max_steps:
        if steps % view_every == 0:
            for viewer in [None, *range(seats)]:
                view = json.loads(json.dumps(rules.view(state, viewer)))
                assert not errors_of(view_v, view), (viewer, errors_of(view_v, view)[:5])
                for text in view_ids(view) if view_ids and view.get("started", True) else ():
                    assert text in ids or any(p.fullmatch(text) for p in patterns), (
                        f"{text!r} in the view is not explained by the catalogue"
                    )
        seat = chooser.choice(sorted(rules.to_act(state)))
        legal = rules.legal_commands(state, seat)
        twin = rules.determinize(state, seat, random.Random(seed * 7919 + steps))
        for command in legal:
            v = schemas.get(command["type"])
            assert v is not None, f"legal command type {command['type']!r} has no schema"
            assert not errors_of(v, command), (command, errors_of(v, command))
            for key, text in strings_in(command):
                assert text in ids or any(p.fullmatch(text) for p in patterns), (
                    f"{command['type']}.{key} = {text!r} is not explained by the catalogue"
                )
            label = rules.label(state, seat, command)
            assert set(label) <= PREVIEW_KEYS and isinstance(label["label"], str) and label["label"].strip(), label
            assert all(isinstance(label[k], int) for k in label if k != "label"), label
            assert rules.label(twin, seat, command) == label, f"the label of {command} depends on hidden information"
        command = chooser.choice(legal)
        for event in rules.decide(state, command, seat, rng_for(seed, len(events))):
            state = rules.evolve(state, event)
            events.append(event)
        steps += 1
    assert rules.is_over(state), f"the game did not finish in {max_steps} decisions"
    final = json.loads(json.dumps(rules.reveal_all(state)))
    assert not errors_of(view_v, final), errors_of(view_v, final)[:5]
    result = json.loads(json.dumps(rules.result(state).as_dict()))
    assert not errors_of(result_v, result), errors_of(result_v, result)
    return steps


def check_unknown_fields_refused(rules: Rules, command: dict[str, Any]) -> None:
    v = validator(rules.command_schemas()[command["type"]])
    assert not errors_of(v, command)
    assert errors_of(v, {**command, "surprise": 1})
