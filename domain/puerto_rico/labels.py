"""English labels for Puerto Rico's legal commands, with price and VP previews.

Built only from public state and the acting seat's own board: the face-down stack is never named."""

from __future__ import annotations

from typing import Any

from domain.contract import a, default_label, plural

from . import queries as q
from .catalogue import BUILDING_TITLES
from .data import BUILDING_INDEX, COLUMNS, GOOD_INDEX, HARBOR, role_kind
from .state import PRState


def _what(target: str) -> str:
    if target in BUILDING_TITLES:
        return "your " + BUILDING_TITLES[target].lower()
    return a(target + ("" if target == "quarry" else " plantation"))


def label(s: PRState, seat: int, c: dict[str, Any]) -> dict[str, Any]:
    kind = c.get("type")
    if kind == "select_role":
        idx = s.role_names.index(c["role"])
        money = s.role_money[idx] + (1 if role_kind(c["role"]) == "prospector" else 0)
        text = f"Take the {role_kind(c['role'])} role"
        if s.role_money[idx]:
            text += f" and the {plural(s.role_money[idx], 'doubloon')} on it"
        return {"label": text, **({"gain": money} if money else {})}
    if kind == "pass":
        return {"label": "Pass"}
    if kind == "draw_from_hacienda":
        return {"label": "Draw the top face-down plantation with your hacienda"}
    if kind == "take_plantation":
        return {"label": f"Take a face-up {c['plantation']} plantation"}
    if kind == "take_quarry":
        return {"label": "Take a quarry"}
    if kind == "take_colonist":
        reasons = {"hospice": "for your new tile (hospice)", "university": "for your new building (university)"}
        return {"label": "Take a colonist " + reasons.get(s.step, "from the supply (mayor's privilege)")}
    if kind == "place_colonist":
        return {"label": f"Place a colonist on {_what(c['target'])}"}
    if kind == "build":
        b = BUILDING_INDEX[c["building"]]
        price = q.build_price(s, seat, b)
        return {
            "label": f"Build the {BUILDING_TITLES[c['building']].lower()} for {plural(price, 'doubloon')}",
            "cost": price,
            "points": COLUMNS[b],
        }
    if kind == "take_good":
        return {"label": f"Take one more {c['good']} barrel"}
    if kind == "sell":
        price = q.sell_price(s, seat, GOOD_INDEX[c["good"]])
        return {"label": f"Sell {a(c['good'] + ' barrel')} for {plural(price, 'doubloon')}", "gain": price}
    if kind in ("load", "ship_with_wharf"):
        g = GOOD_INDEX[c["good"]]
        p = s.players[seat]
        if kind == "load":
            i = c["ship"]
            amount = min(p.goods[g], s.ship_caps[i] - s.ship_loads[i])
            where = f"onto the {s.ship_caps[i]}-barrel ship"
        else:
            amount, where = p.goods[g], "with your wharf"
        vp = amount + (1 if p.buildings[HARBOR] > 0 else 0) + (1 if seat == s.picker and not s.captain_loaded else 0)
        return {"label": f"Ship {plural(amount, c['good'] + ' barrel')} {where} for {vp} VP", "points": vp}
    if kind == "store_in_warehouse":
        return {"label": f"Keep all your {c['good']} in a warehouse"}
    if kind == "keep_barrel":
        return {"label": f"Keep one {c['good']} barrel; the rest not stored is lost"}
    return {"label": default_label(c)}
