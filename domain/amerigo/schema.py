"""Amerigo's published schemas: the command table (the types ``decide.ALL_COMMANDS`` accepts) and the view."""

from __future__ import annotations

from typing import Any

from domain.contract import (
    CommandTable,
    array,
    boolean,
    integer,
    mapping,
    nullable,
    obj,
    one_of,
    string,
    variants,
)
from domain.contract import command_schemas as build_command_schemas

from . import data as D

SQUARE = obj({"r": integer(0), "c": integer(0)}, description="a board square: row and column")
FRAME = obj({"frame": integer(0)}, description="a frame sea space")
LOCATION = one_of(SQUARE, FRAME, description="a board water square or a frame space")
SHIP = integer(0, D.SHIPS - 1, description="your ship, 0 or 1")
SHAPE = string(*D.SHAPES, description="tile shape")
KIND = string(D.NEUTRAL, D.VILLAGE, description="neutral or village tile")
TOKEN = string(*D.PROGRESS_TOKENS)
PRODUCTION = string(pattern=r"^PR-[CESKF]-(II|III|IV)-\d-\d$", description="production token id")

COMMANDS: CommandTable = {
    "cash_chest": ("cash one treasure chest for gold (any time in your turn)", {}),
    "use_gold_token": ("flip P17 or P18 for gold (any time in your turn)", {"token": (string(*D.GOLD_TOKENS), True)}),
    "choose_action": (
        "take a cube colour's action; white needs a mode",
        {"colour": (string(*D.COLOURS), True), "mode": (string("advance", "convert"), False)},
    ),
    "take_gold": ("take gold instead of an action", {}),
    "use_chronicle": ("use P21 as your whole turn", {}),
    "pass": ("do nothing this turn", {}),
    "place_ship": (
        "MOVE: put a ship not yet on the board on a frame space",
        {"ship": (SHIP, True), "frame": (integer(0), True)},
    ),
    "use_fair_winds": ("MOVE: flip P10 for 8 more AP", {}),
    "move_ship": ("MOVE: sail a ship to a water square or frame space", {"ship": (SHIP, True), "to": (LOCATION, True)}),
    "found_trading_post": ("MOVE: found a trading post from the ship's anchor", {"ship": (SHIP, True)}),
    "end_action": ("finish the running action", {}),
    "advance": ("CANNON, PROGRESS or SPECIAL: advance n spaces", {"n": (integer(0), True)}),
    "take_tile": ("PLAN: take a tile to your planning area", {"kind": (KIND, True), "shape": (SHAPE, True)}),
    "place_tile": (
        "BUILD: place a planned tile on these squares",
        {"kind": (KIND, True), "shape": (SHAPE, True), "squares": (array(SQUARE, max_items=6), True)},
    ),
    "buy_production": ("PRODUCE: buy a production token from the display", {"token": (PRODUCTION, True)}),
    "use_fast_passage": ("SPECIAL: flip P16 to jump to the top of the first player's stack", {}),
    "take_progress_token": ("take a progress token from the display", {"token": (TOKEN, True)}),
}


def command_schemas() -> dict[str, dict[str, Any]]:
    """The per-type schemas; ``choose_action`` takes ``mode`` for white only."""
    out = build_command_schemas(COMMANDS)
    out["choose_action"] = variants(
        "choose_action",
        COMMANDS["choose_action"][0],
        "colour",
        [
            (list(D.COLOURS[:-1]), {}, "a coloured cube: that colour's action"),
            (
                ["white"],
                {"mode": (string("advance", "convert"), True)},
                "white: advance, or convert to your space's colour",
            ),
        ],
    )
    return out


_colours = mapping(integer(0), "by colour")

PLAYER = obj(
    {
        "seat": integer(0),
        "vp": integer(0),
        "gold": integer(0, D.GOLD_MAX),
        "cannon": integer(0, D.CANNON_MAX),
        "progress": integer(0, D.PROGRESS_TRACK_LAST),
        "special": integer(0, D.SPECIAL_TRACK_LAST),
        "trading_posts_left": integer(0),
        "chests": integer(0),
        "planned": obj(
            {"neutral": mapping(integer(0)), "village": mapping(integer(0))}, description="planned tiles by shape"
        ),
        "village_left": mapping(integer(0), "village tiles left by shape"),
        "commodities": mapping(integer(0), "commodities by code (C, E, S, K, F)"),
        "production": array(PRODUCTION),
        "progress_tokens": array(obj({"token": TOKEN, "used": boolean()})),
        "ships": array(nullable(LOCATION), "where each ship is (null: not placed yet)"),
    },
    description="one player's sheet (all public)",
)

TURN = obj(
    {
        "seat": integer(0),
        "stage": string("choose", "act", "tokens"),
        "colour": nullable(string(*D.COLOURS)),
        "mode": nullable(string()),
        "executed": nullable(string(*D.COLOURS)),
        "ap_free": integer(0),
        "ap_used": integer(0),
        "gold_paid": integer(0),
        "neutral_taken": integer(0),
        "sailed": array(integer(0)),
        "founded": array(boolean()),
        "tokens_due": integer(0),
    },
    description="the turn in progress",
)

VIEW = obj(
    {
        "started": boolean(),
        "seats": integer(2, 4),
        "round": integer(0),
        "phase": nullable(string(*D.COLOURS, description="the colour phase in play")),
        "phase_active": boolean(),
        "time_value": nullable(integer(0)),
        "board": obj(
            {
                "sel": array(string(), "the island tiles in use, in grid order"),
                "rots": array(integer(0, 3), "their rotations"),
                "rows": array(string(), "the assembled board, one string per row (see codes.square)"),
                "frame_spaces": integer(0),
                "islands": array(
                    obj(
                        {
                            "id": integer(0),
                            "size": integer(0),
                            "big": boolean(),
                            "empty": integer(0, description="land squares still uncovered"),
                            "chest": boolean(),
                        }
                    )
                ),
                "trading_posts": array(obj({"square": SQUARE, "seat": integer(0)})),
                "tiles": array(
                    obj({"kind": KIND, "shape": SHAPE, "seat": nullable(integer(0)), "squares": array(SQUARE)})
                ),
                "commodities": array(obj({"square": SQUARE, "commodity": string(*D.COMMODITIES)})),
            }
        ),
        "tower": _colours,
        "storage": _colours,
        "action_area": _colours,
        "ap": integer(0),
        "special_track_order": array(integer(0), "seats, first player first"),
        "phase_order": array(integer(0)),
        "pirates": obj(
            {
                "revealed": array(integer(0)),
                "hidden_slots": integer(0),
                "unrevealed_markers": array(integer(0)),
                "slots": array(integer(0)),
                "out": nullable(integer(0)),
            },
            required=["revealed", "hidden_slots", "unrevealed_markers"],
        ),
        "progress_display": mapping(nullable(TOKEN), "progress display space -> token (null: empty)"),
        "progress_pile": obj(
            {"count": integer(0), "contents": array(TOKEN), "order": array(TOKEN)}, required=["count", "contents"]
        ),
        "production_display": array(PRODUCTION),
        "production_stacks": mapping(
            obj(
                {"count": integer(0), "contents": array(PRODUCTION), "order": array(PRODUCTION)},
                required=["count", "contents"],
            )
        ),
        "neutral_supply": mapping(integer(0), "neutral tiles left by shape"),
        "players": array(PLAYER),
        "turn": nullable(TURN),
        "over": boolean(),
        "final": nullable(
            array(
                mapping(integer(), "score part -> value"),
                "final scoring rows, one per seat in turn order (null until the end)",
            )
        ),
        "viewer": nullable(integer(0)),
    },
    required=["started"],
    description="Amerigo as a seat (or a spectator) sees it. Before set-up only `started` is present.",
)
