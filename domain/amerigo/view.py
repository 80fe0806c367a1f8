"""What each seat may see (docs/rules/amerigo.md §4.3): view, redact, reveal_all, reveals and determinize."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .data import (
    COLOURS,
    COMMODITIES,
    PIRATE_MARKERS,
    PROGRESS_DISPLAY_SPACES,
    SHAPES,
    TIME_VALUE_BY_ROUND,
    VILLAGE_SHAPES,
)
from .state import NEUTRAL_SLOT, POST, VILLAGE_SLOT, State

REVEALING = frozenset(
    {
        "IslandsAssembled",
        "StackOrderDrawn",
        "PiratesPlaced",
        "PirateRevealed",
        "ProgressPileShuffled",
        "ProgressTokensRevealed",
        "ProductionStacksShuffled",
        "ProductionRevealed",
        "TowerDropped",
    }
)


def _player_view(state: State, seat: int) -> dict[str, Any]:
    p = state.players[seat]
    board = state.board
    return {
        "seat": seat,
        "vp": p.vp,
        "gold": p.gold,
        "cannon": p.cannon,
        "progress": p.progress,
        "special": p.special,
        "trading_posts_left": p.posts_left,
        "chests": p.chests,
        "planned": {
            "neutral": {s: p.planned[NEUTRAL_SLOT[s]] for s in SHAPES if p.planned[NEUTRAL_SLOT[s]]},
            "village": {s: p.planned[VILLAGE_SLOT[s]] for s in VILLAGE_SHAPES if p.planned[VILLAGE_SLOT[s]]},
        },
        "village_left": dict(zip(VILLAGE_SHAPES, p.village_left)),
        "commodities": dict(zip(COMMODITIES, p.commodities)),
        "production": list(p.production),
        "progress_tokens": [{"token": t, "used": used} for t, used in sorted(p.tokens.items())],
        "ships": [None if loc < 0 else board.node_json(loc) for loc in p.ships],
    }


def public_view(state: State) -> dict[str, Any]:
    if not state.started or state.board is None:  # a past version inside the set-up: no board yet
        return {"started": False}
    board = state.board
    revealed = state.pirates[: state.pirates_revealed]
    unrevealed = Counter(PIRATE_MARKERS)
    unrevealed.subtract(revealed)
    cover = state.cover
    posts = [{"square": board.square_json(sq), "seat": c - POST} for sq, c in enumerate(cover) if POST <= c < 10]
    tiles = [
        {
            "kind": kind,
            "shape": shape,
            "seat": None if owner < 0 else owner,
            "squares": [board.square_json(sq) for sq in squares],
        }
        for kind, shape, owner, squares in state.placed
    ]
    goods = [
        {"square": board.square_json(sq), "commodity": COMMODITIES[t]}
        for sq, t in enumerate(board.commodity)
        if t >= 0 and cover[sq] == 0
    ]
    tower_counts = [7 - state.storage[c] - state.area[c] for c in range(7)]
    turn = None
    if state.turn_seat >= 0:
        turn = {
            "seat": state.turn_seat,
            "stage": state.stage,
            "colour": COLOURS[state.colour] if state.colour >= 0 else None,
            "mode": state.mode,
            "executed": COLOURS[state.x] if state.x >= 0 else None,
            "ap_free": state.ap_free,
            "ap_used": state.ap_used,
            "gold_paid": state.gold_paid,
            "neutral_taken": state.neutral_taken,
            "sailed": list(state.sailed),
            "founded": list(state.founded),
            "tokens_due": state.tokens_due,
        }
    return {
        "started": True,
        "seats": state.seats,
        "round": state.round,
        "phase": COLOURS[state.phase] if state.phase >= 0 else None,
        "phase_active": state.phase_active,
        "time_value": TIME_VALUE_BY_ROUND.get(state.round),
        "board": {
            "sel": list(board.key[1]),
            "rots": list(board.key[2]),
            "rows": [board.grid[r * board.ncols : (r + 1) * board.ncols] for r in range(board.nrows)],
            "frame_spaces": board.nframe,
            "islands": [
                {
                    "id": i,
                    "size": board.island_size[i],
                    "big": board.island_big[i],
                    "empty": state.island_empty[i],
                    "chest": state.chest_on[i],
                }
                for i in range(len(board.islands))
            ],
            "trading_posts": posts,
            "tiles": tiles,
            "commodities": goods,
        },
        "tower": {COLOURS[c]: tower_counts[c] for c in range(7)},
        "storage": dict(zip(COLOURS, state.storage)),
        "action_area": dict(zip(COLOURS, state.area)),
        "ap": state.ap,
        "special_track_order": list(state.order),
        "phase_order": list(state.phase_order) if state.phase_active else [],
        "pirates": {
            "revealed": list(revealed),
            "hidden_slots": 5 - state.pirates_revealed,
            "unrevealed_markers": sorted(unrevealed.elements()),
        },
        "progress_display": dict(zip(PROGRESS_DISPLAY_SPACES, state.progress_display)),
        "progress_pile": {"count": len(state.progress_pile), "contents": sorted(state.progress_pile)},
        "production_display": sorted(state.prod_display),
        "production_stacks": {m: {"count": len(ids), "contents": sorted(ids)} for m, ids in state.prod_stacks.items()},
        "neutral_supply": dict(zip(SHAPES, state.neutral_supply)),
        "players": [_player_view(state, s) for s in range(state.seats)],
        "turn": turn,
        "over": state.over,
        "final": state.final,
    }


def view(state: State, seat: int | None) -> dict[str, Any]:
    out = public_view(state)
    out["viewer"] = seat
    return out


def reveal_all(state: State) -> dict[str, Any]:
    out = public_view(state)
    if "pirates" in out:  # the board and markers exist (not a version inside the set-up)
        out["pirates"]["slots"] = list(state.pirates)
        out["pirates"]["out"] = state.pirate_out
        out["progress_pile"]["order"] = list(state.progress_pile)
        for mark, ids in state.prod_stacks.items():
            out["production_stacks"][mark]["order"] = list(ids)
    return out


def redact(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    kind = event.get("type")
    if kind == "PiratesPlaced":
        return {**event, "slots": [None] * len(event["slots"]), "out": None}
    if kind == "ProgressPileShuffled":
        return {**event, "pile": [None] * len(event["pile"])}
    if kind == "ProductionStacksShuffled":
        return {**event, "stacks": {m: [None] * len(ids) for m, ids in event["stacks"].items()}}
    return event


def reveals(event: dict[str, Any]) -> bool:
    return event.get("type") in REVEALING


def determinize(state: State, seat: int, rng: random.Random) -> State:
    new = state.clone()
    if not state.started:
        return new
    k = state.pirates_revealed
    hidden = list(state.pirates[k:]) + [state.pirate_out]
    rng.shuffle(hidden)
    new.pirates = list(state.pirates[:k]) + hidden[:-1]
    new.pirate_out = hidden[-1]
    pile = list(state.progress_pile)
    rng.shuffle(pile)
    new.progress_pile = pile
    stacks = {}
    for mark, ids in state.prod_stacks.items():
        ids = list(ids)
        rng.shuffle(ids)
        stacks[mark] = ids
    new.prod_stacks = stacks
    return new
