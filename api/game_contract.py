"""What the API tells clients about each game: typed commands, views, the catalogue, labels.

Each game's rules object publishes its command schemas, view schema and catalogue (``domain/contract.py``).
This module puts them in the OpenAPI components (``PuertoRicoCommand``: a union of ``PuertoRicoBuildCommand``,
... discriminated by ``type``; ``PuertoRicoView``), checks submitted commands against them before
the rules see them, and labels legal commands.
"""

from __future__ import annotations

import functools
from typing import Any

import jsonschema_rs

from api.errors import ApiError
from domain import registry
from domain.contract import as_json_schema
from domain.game import Rules


def camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def command_component(game: str) -> str:
    return f"{camel(game)}Command"


def register_components(spec) -> None:
    """Add every game's command union and view schema to the spec (the shared result is ``GameResultSchema``)."""
    for rules in registry.all_rules():
        schemas = rules.command_schemas()
        if schemas:
            refs = {}
            for ctype, schema in schemas.items():
                name = f"{camel(rules.name)}{camel(ctype)}Command"
                if "oneOf" in schema:  # fields depend on a value: each case is a component of its own
                    cases = []
                    for i, case in enumerate(schema["oneOf"], start=1):
                        spec.components.schema(f"{name}{i}", component=case)
                        cases.append({"$ref": f"#/components/schemas/{name}{i}"})
                    schema = {**schema, "oneOf": cases}
                spec.components.schema(name, component=schema)
                refs[ctype] = f"#/components/schemas/{name}"
            spec.components.schema(
                command_component(rules.name),
                component={
                    "description": f"A {rules.title} command: one of these, chosen by `type`.",
                    "oneOf": [{"$ref": ref} for ref in refs.values()],
                    "discriminator": {"propertyName": "type", "mapping": refs},
                },
            )
        view = rules.view_schema()
        if view:
            spec.components.schema(f"{camel(rules.name)}View", component=view)


@functools.cache
def _validators(game: str) -> dict[str, Any]:
    rules = registry.get(game)
    return {
        ctype: jsonschema_rs.validator_for(as_json_schema(schema)) for ctype, schema in rules.command_schemas().items()
    }


def check_commands(rules: Rules, commands: list[Any]) -> None:
    """Refuse (400 ``invalid_request``) a command that does not match the game's command schema."""
    validators = _validators(rules.name)
    if not validators:  # the game publishes no command schemas (test games): the rules check everything
        return
    for index, command in enumerate(commands):
        where = f"command {index}" if len(commands) > 1 else "command"
        ctype = command.get("type") if isinstance(command, dict) else None
        validator = validators.get(ctype) if isinstance(ctype, str) else None
        if validator is None:
            raise ApiError(
                "invalid_request",
                f"{where}: unknown command type {ctype!r} for {rules.name}; expected "
                f"one of {', '.join(validators)} (see the {command_component(rules.name)} schema)",
                index=index if len(commands) > 1 else None,
            )
        problems = [_say(err) for err in validator.iter_errors(command)]
        if problems:
            raise ApiError(
                "invalid_request",
                f"{where} ({ctype}) does not match its schema: {'; '.join(problems)}",
                index=index if len(commands) > 1 else None,
            )


def _say(err) -> str:
    path = ".".join(str(p) for p in err.instance_path)
    return f"{path or 'command'}: {err.message}"


def choices(rules: Rules, state: Any, seat: int, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each legal command with its label and previews."""
    return [{"command": command, **rules.label(state, seat, command)} for command in commands]
