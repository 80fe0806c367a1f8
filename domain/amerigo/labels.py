"""English labels for Amerigo's legal commands, with the gold each step costs beyond the free AP.

Everything Amerigo labels is public (the pirate markers and pile orders are never named)."""

from __future__ import annotations

from typing import Any

from domain.contract import default_label, plural

from . import data as D
from .queries import extra_gold, gold_for_taking, track_of
from .state import State

_TRACK = {"cannon": "cannon", "progress": "progress", "special": "special-action"}


def _where(loc: dict[str, int]) -> str:
    return f"frame space {loc['frame']}" if "frame" in loc else f"row {loc['r'] + 1}, column {loc['c'] + 1}"


def _cost(s: State, ap: int) -> dict[str, int]:
    gold = extra_gold(s, ap)
    return {"cost": gold} if gold > 0 else {}


def _pay(s: State, ap: int) -> str:
    gold = extra_gold(s, ap)
    return f" (pay {gold} gold)" if gold > 0 else ""


def label(s: State, seat: int, c: dict[str, Any]) -> dict[str, Any]:
    kind = c.get("type")
    if kind == "cash_chest":
        return {"label": f"Cash a treasure chest for {D.CHEST_GOLD} gold", "gain": D.CHEST_GOLD}
    if kind == "use_gold_token":
        gold = D.GOLD_TOKENS[c["token"]]
        return {"label": f"Flip {c['token']} ({D.TOKEN_NAME[c['token']]}) for {gold} gold", "gain": gold}
    if kind == "choose_action":
        colour = c["colour"]
        action = D.ACTION_OF_COLOUR[D.COLOUR_INDEX[colour]].capitalize()
        if colour == "white":
            how = "advance on the special track" if c.get("mode") == "advance" else "convert to your space's colour"
            return {"label": f"Take a white cube: {how}"}
        return {"label": f"Take a {colour} cube: {action}"}
    if kind == "take_gold":
        gold = gold_for_taking(s, seat)
        return {"label": f"Take {gold} gold instead of an action", "gain": gold}
    if kind == "use_chronicle":
        vp = sum(s.area)
        return {"label": f"Flip P21 (Chronicle) for {vp} VP", "points": vp}
    if kind == "pass":
        return {"label": "Pass"}
    if kind == "place_ship":
        return {"label": f"Put ship {c['ship']} on frame space {c['frame']}"}
    if kind == "use_fair_winds":
        return {"label": f"Flip P10 (Fair winds) for {D.FAIR_WINDS_AP} more AP"}
    if kind == "move_ship":
        return {"label": f"Sail ship {c['ship']} to {_where(c['to'])}"}
    if kind == "found_trading_post":
        return {"label": f"Found a trading post from ship {c['ship']}"}
    if kind == "end_action":
        return {"label": "End the action"}
    if kind == "advance":
        track = _TRACK[track_of(s.x)[0]]
        if c["n"] == 0:
            return {"label": f"Stay on the {track} track"}
        return {"label": f"Advance {plural(c['n'], 'space')} on the {track} track{_pay(s, c['n'])}", **_cost(s, c["n"])}
    if kind == "take_tile":
        ap = D.VILLAGE_COST if c["kind"] == D.VILLAGE else D.SHAPE_SIZE[c["shape"]]
        return {"label": f"Plan a {c['kind']} {D.SHAPE_NAMES[c['shape']]} tile ({ap} AP){_pay(s, ap)}", **_cost(s, ap)}
    if kind == "place_tile":
        ap = D.VILLAGE_COST if c["kind"] == D.VILLAGE else D.SHAPE_SIZE[c["shape"]]
        first = c["squares"][0] if c["squares"] else {"r": 0, "c": 0}
        return {
            "label": f"Build the {c['kind']} {D.SHAPE_NAMES[c['shape']]} tile at {_where(first)}{_pay(s, ap)}",
            **_cost(s, ap),
        }
    if kind == "buy_production":
        _, commodity, mark, cost, _n = c["token"].split("-")
        name = D.COMMODITY_NAMES[D.COMMODITY_INDEX[commodity]]
        return {"label": f"Buy a {name} production token ({cost} AP){_pay(s, int(cost))}", **_cost(s, int(cost))}
    if kind == "use_fast_passage":
        return {"label": "Flip P16 (Fast passage): jump to the top of the first player's stack"}
    if kind == "take_progress_token":
        return {"label": f"Take {c['token']} ({D.TOKEN_NAME[c['token']]})"}
    return {"label": default_label(c)}
