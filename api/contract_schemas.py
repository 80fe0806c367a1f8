"""Marshmallow schemas for the game catalogue and labelled legal commands (see api/game_contract.py)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields

from api.schemas import GameTypeSchema


class ComponentSchema(ma.Schema):
    id = fields.String(required=True, metadata={"description": "the id used in views, events and commands"})
    kind = fields.String(required=True, metadata={"description": "card, tile, building, token, role, ... (per game)"})
    name = fields.String(required=True, metadata={"description": "English name"})
    cost = fields.Integer(
        allow_none=True, required=True, metadata={"description": "price in the game's currency, if it has one"}
    )
    points = fields.Integer(allow_none=True, required=True, metadata={"description": "printed victory points"})
    effect = fields.String(required=True, metadata={"description": "what it does, in English"})
    count = fields.Integer(allow_none=True, required=True, metadata={"description": "copies in the game"})
    data = fields.Dict(required=True, metadata={"description": "game-specific details (shape, colours, formula)"})


class CatalogueSchema(ma.Schema):
    components = fields.List(
        fields.Nested(ComponentSchema),
        required=True,
        metadata={"description": "every card, tile, building, token and role of the game"},
    )
    board = fields.Dict(
        required=True,
        metadata={"description": "board geometry: spaces, adjacency, island grids, tracks and their values (per game)"},
    )
    codes = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(keys=fields.String(), values=fields.String()),
        required=True,
        metadata={
            "description": "what each letter, number or name code in views and commands means, "
            "by group; `id_patterns` maps a regular expression for ids made "
            "during play to their meaning"
        },
    )


class GameTypeDetailSchema(GameTypeSchema):
    catalogue = fields.Nested(CatalogueSchema, required=True)
    commands = fields.Dict(
        required=True,
        metadata={
            "description": "command type -> JSON schema of that command (the `<Game>Command` union in the "
            "components); a command that does not match is refused with 400 invalid_request"
        },
    )
    command_schema = fields.String(
        allow_none=True, required=True, metadata={"description": "name of the command union in the OpenAPI components"}
    )
    view_schema = fields.String(
        allow_none=True, required=True, metadata={"description": "name of the view schema in the OpenAPI components"}
    )
