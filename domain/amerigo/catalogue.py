"""Amerigo's static catalogue: progress and production tokens, tile shapes, island tiles, tracks and codes."""

from __future__ import annotations

from typing import Any, cast

from . import data as D

TOKEN_EFFECTS = {
    "P01": "When you execute MOVE (blue): +2 AP.",
    "P02": "When you execute CANNON (black): +2 AP.",
    "P03": "When you execute PLAN (red): +2 AP.",
    "P04": "When you execute PROGRESS (brown): +2 AP.",
    "P05": "When you execute BUILD (green): +2 AP.",
    "P06": "When you execute PRODUCE (yellow): +2 AP.",
    "P07": "When you execute MOVE or PLAN: +1 AP.",
    "P08": "When you execute PROGRESS or BUILD: +1 AP.",
    "P09": "When you execute CANNON or PRODUCE: +1 AP.",
    "P10": "Once, in MOVE before the first ship moves: +8 AP for the action.",
    "P11": "At every pirate check, each other player faces strength +2.",
    "P12": "If you fail a pirate check you lose half the VP (rounded up) instead of all.",
    "P13": "If you fend off the pirates: +2 gold.",
    "P14": "PLAN: you may take up to 2 neutral tiles (paying for each).",
    "P15": "You may choose PLAN when a green cube is present and BUILD when a red one is (the AP do not change).",
    "P16": "Once, in SPECIAL: move your disc to the top of the first player's stack.",
    "P17": "Once, at any time in your turn: +3 gold (unused at the end: +3 gold).",
    "P18": "Once, at any time in your turn: +5 gold (unused at the end: +5 gold).",
    "P19": "+1 gold for each trading post you found after taking it.",
    "P20": "Taking gold gives one gold per 2 cubes (rounded up) instead of per 3.",
    "P21": "Once, as your whole turn: +1 VP per cube in the action area.",
    "P22": "Game end: +1 VP per trading post of yours on the board.",
    "P23": "Game end: +7 VP.",
    "P24": "Game end: +VP equal to your gold.",
}

ACTION_EFFECTS = {
    "blue": "MOVE: sail your ships (1 AP per step) and found trading posts.",
    "black": "CANNON: advance on the cannon track (1 AP per space).",
    "red": "PLAN: take island tiles to your planning area (AP = the tile's cost).",
    "brown": "PROGRESS: advance on the progress track (1 AP per space); take progress tokens at numbered spaces.",
    "green": "BUILD: place planned tiles on islands where you have a trading post (AP = the tile's cost).",
    "yellow": "PRODUCE: buy production tokens from the display (AP = the token's cost).",
    "white": "SPECIAL: advance on the special track (mode advance), or execute the colour of your space (convert).",
}

SQUARE_CODES = {
    ".": "water",
    "A": "anchor (water) linked to the adjacent trading-post space",
    "#": "land",
    "T": "trading-post space (land)",
    **{c: f"{name} commodity space (land)" for c, name in zip(D.COMMODITIES, D.COMMODITY_NAMES, strict=True)},
}


def _production(token: str) -> dict[str, Any]:
    _, commodity, mark, cost, _n = token.split("-")
    name = D.COMMODITY_NAMES[D.COMMODITY_INDEX[commodity]]
    return {
        "id": token,
        "kind": "production_token",
        "name": f"{name.capitalize()} production {mark} ({cost} AP)",
        "cost": int(cost),
        "points": None,
        "count": 1,
        "data": {"commodity": commodity, "stack": mark},
        "effect": f"Final scoring: each {name} commodity you hold scores 1 VP more per {name} production token.",
    }


def catalogue() -> dict[str, Any]:
    comps: list[dict[str, Any]] = []
    for token in D.PROGRESS_TOKENS:
        comps.append(
            {
                "id": token,
                "kind": "progress_token",
                "name": D.TOKEN_NAME[token],
                "cost": None,
                "points": D.FAME_VP if token == "P23" else None,
                "effect": TOKEN_EFFECTS[token],
                "count": 1,
                "data": {"use": D.TOKEN_KIND[token]},
            }
        )
    for mark in D.MARKS:
        comps.extend(_production(t) for t in D.PRODUCTION_IDS[mark])
    for shape in D.SHAPES:
        size = D.SHAPE_SIZE[shape]
        comps.append(
            {
                "id": shape,
                "kind": "tile_shape",
                "name": f"{D.SHAPE_NAMES[shape]} tile",
                "cost": size,
                "points": D.NEUTRAL_VP_PER_SQUARE[0] * size,
                "count": D.NEUTRAL_COUNTS[shape],
                "data": {
                    "cells": [list(c) for c in D.SHAPE_CELLS[shape]],
                    "neutral_vp_small_big": [v * size for v in D.NEUTRAL_VP_PER_SQUARE],
                    "village_per_player": D.VILLAGE_COUNTS.get(shape, 0),
                },
                "effect": f"Neutral: {size} AP to plan and to build, {D.NEUTRAL_VP_PER_SQUARE[0] * size} VP on a "
                f"small island, {D.NEUTRAL_VP_PER_SQUARE[1] * size} on a big one"
                + (
                    f". Village: {D.VILLAGE_COST} AP, {D.VILLAGE_VP[0]}/{D.VILLAGE_VP[1]} VP."
                    if shape in D.VILLAGE_COUNTS
                    else "."
                ),
            }
        )
    for tile in D.TILE_IDS:
        comps.append(
            {
                "id": tile,
                "kind": "island_tile",
                "name": f"Island tile {tile}",
                "cost": None,
                "points": None,
                "count": 1,
                "data": {"rows": list(D.TILES[tile])},
                "effect": "A 6x6 part of the island area, laid at set-up in one of four rotations.",
            }
        )
    for colour, effect in ACTION_EFFECTS.items():
        comps.append(
            {
                "id": colour,
                "kind": "action",
                "name": effect.split(":")[0].capitalize(),
                "cost": None,
                "points": None,
                "effect": effect,
                "count": D.CUBES_PER_COLOUR,
                "data": {},
            }
        )
    return {
        "components": comps,
        "board": {
            "tile_size": D.TILE_SIZE,
            "tile_grid_by_players": {str(n): {"columns": w, "rows": h} for n, (w, h) in D.TILE_GRID_BY_PLAYERS.items()},
            "frame": "one frame sea space per outer tile edge (2W + 2H), numbered clockwise from the north-west; "
            "each is adjacent to the next and to the water squares of the edge it borders",
            "progress_track": {"last": D.PROGRESS_TRACK_LAST, "vp": {str(k): v for k, v in D.PROGRESS_VP.items()}},
            "special_track": {
                "last": D.SPECIAL_TRACK_LAST,
                "vp": {str(k): v for k, v in D.SPECIAL_VP.items()},
                "colours": {
                    str(s): D.COLOURS[cast(int, D.special_colour(s))] for s in range(1, D.SPECIAL_TRACK_LAST + 1)
                },
            },
            "gold_track_max": D.GOLD_MAX,
            "cannon_track_max": D.CANNON_MAX,
            "time_value_by_round": {str(k): v for k, v in D.TIME_VALUE_BY_ROUND.items()},
            "pirate_markers": list(D.PIRATE_MARKERS),
            "rounds": D.ROUNDS,
            "progress_display_spaces": list(D.PROGRESS_DISPLAY_SPACES),
            "production_reveal_by_players": {str(n): r for n, r in D.PRODUCTION_REVEAL.items()},
            "start_gold_by_stack_position": list(D.START_GOLD_BY_STACK),
            "values": {
                "discovery_vp": D.DISCOVERY_VP,
                "completion_vp": D.COMPLETION_VP,
                "chest_gold": D.CHEST_GOLD,
                "big_island_min_land": D.BIG_ISLAND_MIN_LAND,
                "trading_posts": D.TRADING_POSTS,
            },
        },
        "codes": {
            "square": SQUARE_CODES,
            "colour": ACTION_EFFECTS,
            "commodity": dict(zip(D.COMMODITIES, D.COMMODITY_NAMES, strict=True)),
            "tile_kind": {
                D.NEUTRAL: "a neutral tile (any shape)",
                D.VILLAGE: f"one of your village tiles ({D.VILLAGE_COST} AP)",
            },
            "choose_mode": {
                "advance": "white: advance on the special track",
                "convert": "white: execute the colour of your special-track space",
            },
            "progress_display_space": {s: f"progress display space {s}" for s in D.PROGRESS_DISPLAY_SPACES},
            "token_use": {D.PERM: "permanent", D.ONCE: "used once, then flipped", D.END: "scores at the end"},
            "stage": {
                "choose": "choose an action, take gold, use P21 or pass",
                "act": "carry out the action",
                "tokens": "take the progress tokens you earned",
            },
            "command_field": {
                "ship": "your ship, 0 or 1",
                "frame": "frame sea space, numbered clockwise from the north-west",
                "r": "board row from 0 (north)",
                "c": "board column from 0 (west)",
                "n": "track spaces to advance",
                "squares": "the board squares a tile covers",
            },
            "id_patterns": {r"PR-[CESKF]-(II|III|IV)-\d-\d": "a production token: PR-<commodity>-<stack>-<AP>-<n>"},
        },
    }
