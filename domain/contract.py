"""Building blocks for what a game publishes to clients: command schemas, view schemas, labels.

Schemas are plain dicts in the subset of JSON Schema that OpenAPI 3.0 accepts (``nullable`` instead of type
lists, ``enum`` instead of ``const``), so the API can publish them unchanged in ``openapi.yaml`` and check
commands with them. ``as_json_schema`` turns one into standard JSON Schema (draft 7) for a validator.

A game's command vocabulary is one table: command type -> (English summary, {field: (schema, required)}).
``command_schemas`` builds the per-type schemas from it; each game's decide reads the same field names, and a
test per game keeps the table's types equal to the types decide dispatches on.
"""

from __future__ import annotations

import copy
from typing import Any

Schema = dict[str, Any]
# command type -> (summary, {field: (schema, required)})
CommandTable = dict[str, tuple[str, dict[str, tuple[Schema, bool]]]]


# ------------------------------------------------------------------------------------------------ schema kit
def string(*choices: Any, description: str = "", pattern: str | None = None) -> Schema:
    out: Schema = {"type": "string"}
    if choices:
        out["enum"] = list(choices)
    if pattern:
        out["pattern"] = pattern
    if description:
        out["description"] = description
    return out


def integer(minimum: int | None = None, maximum: int | None = None, description: str = "") -> Schema:
    out: Schema = {"type": "integer"}
    if minimum is not None:
        out["minimum"] = minimum
    if maximum is not None:
        out["maximum"] = maximum
    if description:
        out["description"] = description
    return out


def number(description: str = "") -> Schema:
    return {"type": "number", **({"description": description} if description else {})}


def boolean(description: str = "") -> Schema:
    return {"type": "boolean", **({"description": description} if description else {})}


def array(items: Schema, description: str = "", max_items: int | None = None) -> Schema:
    out: Schema = {"type": "array", "items": items}
    if max_items is not None:
        out["maxItems"] = max_items
    if description:
        out["description"] = description
    return out


def obj(
    properties: dict[str, Schema], required: list[str] | None = None, description: str = "", extra: bool = False
) -> Schema:
    """An object; every property is required unless ``required`` says otherwise; no other keys unless ``extra``."""
    out: Schema = {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
    }
    if not out["required"]:
        del out["required"]
    if not extra:
        out["additionalProperties"] = False
    if description:
        out["description"] = description
    return out


def mapping(values: Schema, description: str = "") -> Schema:
    """An object whose keys are names (goods, colours, ...) and whose values all have one schema."""
    out: Schema = {"type": "object", "additionalProperties": values}
    if description:
        out["description"] = description
    return out


def nullable(schema: Schema) -> Schema:
    return {**schema, "nullable": True}


def any_value(description: str = "") -> Schema:
    return {"description": description} if description else {}


def one_of(*schemas: Schema, description: str = "") -> Schema:
    out: Schema = {"oneOf": list(schemas)}
    if description:
        out["description"] = description
    return out


def describe(schema: Schema, description: str) -> Schema:
    return {**schema, "description": description}


# ------------------------------------------------------------------------------------------------ commands
def command_schemas(table: CommandTable) -> dict[str, Schema]:
    """One closed object schema per command type, from the game's command table."""
    out: dict[str, Schema] = {}
    for ctype, (summary, fields) in table.items():
        properties: dict[str, Schema] = {"type": string(ctype)}
        required = ["type"]
        for name, (schema, needed) in fields.items():
            properties[name] = schema
            if needed:
                required.append(name)
        out[ctype] = {
            "type": "object",
            "description": summary,
            "properties": properties,
            "required": required,
            "additionalProperties": False,
        }
    return out


def variants(
    ctype: str, summary: str, key: str, cases: list[tuple[list[Any], dict[str, tuple[Schema, bool]], str]]
) -> Schema:
    """A command whose fields depend on one field's value (``key``): one closed object per case.

    ``cases`` is ``[(values of key, {field: (schema, required)}, summary of the case)]``."""
    alternatives = []
    for values, fields, note in cases:
        properties: dict[str, Schema] = {"type": string(ctype), key: {"type": "string", "enum": list(values)}}
        required = ["type", key]
        for name, (schema, needed) in fields.items():
            properties[name] = schema
            if needed:
                required.append(name)
        alternatives.append(
            {
                "type": "object",
                "description": note,
                "properties": properties,
                "required": required,
                "additionalProperties": False,
            }
        )
    return {"description": summary, "oneOf": alternatives}


def as_json_schema(schema: Any) -> Any:
    """An OpenAPI 3.0 schema as standard JSON Schema: ``nullable: true`` becomes a null alternative."""
    if isinstance(schema, list):
        return [as_json_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {
        k: as_json_schema(v) if k not in ("enum", "required", "example") else copy.deepcopy(v)
        for k, v in schema.items()
        if k != "nullable"
    }
    if isinstance(out.get("properties"), dict):
        out["properties"] = {k: as_json_schema(v) for k, v in schema["properties"].items()}
    if schema.get("nullable"):
        if "type" in out:
            out["type"] = [out["type"], "null"]
            if "enum" in out:
                out["enum"] = [*out["enum"], None]
        else:
            return {"anyOf": [out, {"type": "null"}]}
    return out


# ------------------------------------------------------------------------------------------------ labels
def words(name: str) -> str:
    return str(name).replace("_", " ")


def default_label(command: dict[str, Any]) -> str:
    """A plain label from the command itself: "build: building small market"."""
    kind = words(command.get("type", "?"))
    parts = [f"{words(k)} {_show(v)}" for k, v in command.items() if k != "type"]
    text = kind + (": " + ", ".join(parts) if parts else "")
    return text[:1].upper() + text[1:]


def _show(value: Any) -> str:
    if isinstance(value, str):
        return words(value)
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {_show(v)}" for k, v in value.items()) + "}"
    return str(value)


def a(noun: str) -> str:
    """The noun with its indefinite article: "a corn barrel", "an indigo barrel"."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


# ------------------------------------------------------------------------------------------------ results
RESULT_SCHEMA: Schema = obj(
    {
        "scores": array(number(), "final score per seat"),
        "ranks": array(integer(1), "rank per seat: 1 is best; tied seats share a rank"),
        "no_winner": boolean("true when nobody won (a collective loss, an aborted game): every rank is then 1"),
        "tiebreaks": array(any_value(), "per seat, the values that broke ties (game-specific)"),
        "details": mapping(any_value(), "game-specific details of the final scoring"),
        "forfeited": array(integer(0), "seats that ran out of time and were ranked last"),
    },
    required=["scores", "ranks", "no_winner", "tiebreaks", "details"],
    description="The final result of a game; one shape for every game type.",
)
