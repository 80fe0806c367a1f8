"""Projections: per-seat views, event redaction, the full reveal after the game (§9).

Section (§) and ruling (D, Q) numbers are those of docs/rules/puerto_rico.md.
"""

from __future__ import annotations

from typing import Any

from .data import BUILDING_NAMES, CAPS, GOODS, TILE_NAMES
from .scoring import score_breakdown
from .state import Player, PRState

# Events that draw from the face-down stack or reshuffle it (or pick the first governor at random).
REVEALING = frozenset({"PlantationStackShuffled", "PlantationsDealt", "HaciendaPlantationDrawn"})


def _counts(counts: list[int], names: tuple[str, ...] = GOODS) -> dict[str, int]:
    return {names[i]: counts[i] for i in range(len(counts))}


def _player_view(p: Player, seat: int, show_vp: bool) -> dict[str, Any]:
    return {
        "seat": seat,
        "doubloons": p.doubloons,
        "vp_chips": (p.vp + p.vp_owed) if show_vp else None,
        "vp_owed_beyond_supply": p.vp_owed if show_vp else None,
        "goods": _counts(p.goods),
        "island": {TILE_NAMES[k]: {"tiles": p.tiles[k], "occupied": p.manned[k]} for k in range(6) if p.tiles[k]},
        "island_spaces_used": sum(p.tiles),
        "buildings": {
            BUILDING_NAMES[b]: {"colonists": c, "circles": CAPS[b]} for b, c in enumerate(p.buildings) if c >= 0
        },
        "city_spaces_used": p.spaces,
        "san_juan": p.san_juan,
        "colonists": p.colonists(),
    }


def view(s: PRState, seat: int | None) -> dict[str, Any]:
    if not s.started:
        return {"started": False}
    return {
        "started": True,
        "variant": s.variant,
        "seats": s.n,
        "round": s.round,
        "governor": s.governor,
        "phase": s.phase,
        "step": s.step,
        "role": s.role or None,
        "picker": s.picker if s.role else None,
        "to_act": [] if s.phase == "over" else [s.current],
        "roles": [
            {"role": r, "doubloons": m, "taken": t}
            for r, m, t in zip(s.role_names, s.role_money, s.role_taken, strict=True)
        ],
        "players": [
            _player_view(p, i, not s.hide_vp_chips or i == seat or s.phase == "over") for i, p in enumerate(s.players)
        ],
        "colonist_supply": s.colonist_supply,
        "colonist_ship": s.colonist_ship,
        "vp_supply": s.vp_supply,
        "goods_supply": _counts(s.goods_supply),
        "building_supply": {BUILDING_NAMES[b]: n for b, n in enumerate(s.building_supply)},
        "quarries": s.quarries,
        "face_up_plantations": _counts(s.face_up),
        "discarded_plantations": _counts(s.discard),
        "face_down_stack_size": len(s.stack),
        "cargo_ships": [
            {"capacity": cap, "good": GOODS[k] if k >= 0 else None, "load": load}
            for cap, k, load in zip(s.ship_caps, s.ship_kinds, s.ship_loads, strict=True)
        ],
        "trading_house": [GOODS[g] for g in s.trading_house],
        "storage_protected": [GOODS[g] for g in s.protected],
        "wharf_used": list(s.wharf_used),
        "end_triggers": list(s.triggers),
        "game_over": s.phase == "over",
        "aborted": s.aborted,
    }


def reveal_all(s: PRState) -> dict[str, Any]:
    out = view(s, None)
    if not s.started:
        return out
    out["players"] = [_player_view(p, i, True) for i, p in enumerate(s.players)]
    out["face_down_stack"] = [TILE_NAMES[k] for k in reversed(s.stack)]
    out["scores"] = [score_breakdown(p) for p in s.players]
    return out


def redact(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """Hide the stack order from every seat; the stack size stays public."""
    if event.get("type") == "PlantationStackShuffled":
        return {"type": "PlantationStackShuffled", "size": len(event.get("plantations", ()))}
    return event


def reveals(event: dict[str, Any]) -> bool:
    if event.get("type") in REVEALING:
        return True
    return event.get("type") == "GameStarted" and bool(event.get("random_first_governor"))
