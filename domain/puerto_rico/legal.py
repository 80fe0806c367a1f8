"""legal_commands: every legal command of the seat on turn at each decision point, in canonical order."""

from __future__ import annotations

from typing import Any

from . import queries as q
from .data import BUILDING_NAMES, GOODS, TARGET_NAMES, TILE_NAMES
from .state import PRState

Command = dict[str, Any]

PASS: Command = {"type": "pass"}
TAKE_COLONIST: Command = {"type": "take_colonist"}


def legal(s: PRState) -> list[Command]:
    """Every legal command of the seat on turn (``s.current``), in canonical order."""
    seat = s.current
    step = s.step
    if step == "pick":
        return [
            {"type": "select_role", "role": r} for r, taken in zip(s.role_names, s.role_taken, strict=True) if not taken
        ]
    if step == "hacienda":
        return [{"type": "draw_from_hacienda"}, PASS]
    if step == "take":
        out = [
            {"type": "take_plantation", "plantation": TILE_NAMES[k]} if k < 5 else {"type": "take_quarry"}
            for k in q.take_options(s, seat)
        ]
        out.append(PASS)
        return out
    if step in ("hospice", "university"):
        return [TAKE_COLONIST, PASS]
    if step == "privilege":
        if s.role == "mayor":
            return [TAKE_COLONIST, PASS]
        return [{"type": "take_good", "good": GOODS[g]} for g in q.craftsman_privilege_options(s)] + [PASS]
    if step == "place":
        return [{"type": "place_colonist", "target": TARGET_NAMES[t]} for t in q.place_targets(s.players[seat])]
    if step == "build":
        return [{"type": "build", "building": BUILDING_NAMES[b]} for b, _ in q.build_options(s, seat)] + [PASS]
    if step == "sell":
        return [{"type": "sell", "good": GOODS[g]} for g in q.sell_options(s, seat)] + [PASS]
    if step == "load":
        cargo = q.cargo_options(s, seat)
        loads: list[Command] = [{"type": "load", "good": GOODS[g], "ship": i} for g, i, _ in cargo]
        loads.extend({"type": "ship_with_wharf", "good": GOODS[g]} for g in q.wharf_options(s, seat))
        if not cargo:
            loads.append(PASS)
        return loads
    if step == "warehouse":
        return [
            {"type": "store_in_warehouse", "good": GOODS[g]}
            for g in q.held_kinds(s.players[seat])
            if g not in s.protected
        ]
    if step == "windrose":
        return [
            {"type": "keep_barrel", "good": GOODS[g]} for g in q.held_kinds(s.players[seat]) if g not in s.protected
        ]
    return []
