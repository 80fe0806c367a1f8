"""decide: parsing of raw JSON commands, the refusal of an illegal one, and the events a command causes
(the command itself, then the automatic events that follow it; the legal list is in ``legal.py``).

Section (§) and ruling (D, Q) numbers are those of docs/rules/puerto_rico.md.
"""

from __future__ import annotations

import random
from typing import Any

from domain.game import IllegalCommand

from . import queries as q
from .data import (
    BUILDING_INDEX,
    BUILDING_NAMES,
    FACTORY,
    FACTORY_PAY,
    GOOD_INDEX,
    GOODS,
    HARBOR,
    TARGET_INDEX,
    TILE_NAMES,
    role_kind,
)
from .legal import legal
from .state import PRState

Command = dict[str, Any]
Event = dict[str, Any]

# Field specs per command type: name -> (field, kind). kind "int" or a name table.
_SPECS: dict[str, tuple[tuple[str, Any], ...]] = {
    "select_role": (("role", None),),
    "pass": (),
    "draw_from_hacienda": (),
    "take_plantation": (("plantation", GOOD_INDEX),),
    "take_quarry": (),
    "take_colonist": (),
    "place_colonist": (("target", TARGET_INDEX),),
    "build": (("building", BUILDING_INDEX),),
    "take_good": (("good", GOOD_INDEX),),
    "sell": (("good", GOOD_INDEX),),
    "load": (("good", GOOD_INDEX), ("ship", "int")),
    "ship_with_wharf": (("good", GOOD_INDEX),),
    "store_in_warehouse": (("good", GOOD_INDEX),),
    "keep_barrel": (("good", GOOD_INDEX),),
}

COMMAND_TYPES = frozenset(_SPECS)

_STEP_HELP = {
    "pick": "pick a role",
    "hacienda": "settler: draw the top face-down plantation with your hacienda, or pass",
    "take": "settler: take a face-up plantation or a quarry, or pass",
    "hospice": "settler: take a hospice colonist for the new tile, or pass",
    "privilege": "take the privilege, or pass",
    "place": "mayor: place one colonist from San Juan on a target with an empty circle",
    "build": "builder: build one building, or pass",
    "university": "builder: take a university colonist for the new building, or pass",
    "sell": "trader: sell one good, or pass",
    "load": "captain: load goods (you must load if any cargo ship can take your goods)",
    "warehouse": "captain storage: choose a kind to keep whole in a warehouse",
    "windrose": "captain storage: choose the kind of which you keep one barrel",
}


def parse(s: PRState, command: Command, kind: str) -> Command:
    """Canonical form of a command whose ``type`` the opening checks accepted (``kind``), or
    IllegalCommand("invalid_command") for a missing or malformed field."""
    out: Command = {"type": kind}
    for name, table in _SPECS[kind]:
        if name not in command:
            raise IllegalCommand("invalid_command", f"command {kind!r} needs the field {name!r}")
        value = command[name]
        if table == "int":
            if not isinstance(value, int) or isinstance(value, bool):
                raise IllegalCommand("invalid_command", f"field {name!r} must be an integer")
        elif table is None:  # role card names depend on the game
            if not isinstance(value, str) or value not in s.role_names:
                raise IllegalCommand("invalid_command", f"field {name!r} must be one of {', '.join(s.role_names)}")
        elif not isinstance(value, str) or value not in table:
            raise IllegalCommand("invalid_command", f"field {name!r} must be one of {', '.join(table)}")
        out[name] = value
    return out


def is_legal(s: PRState, c: Command) -> bool:
    """Whether a canonical command is in ``legal(s)`` (with a shortcut for the frequent placement step)."""
    if s.step == "place":
        return c["type"] == "place_colonist" and q.has_room(s.players[s.current], TARGET_INDEX[c["target"]])
    return c in legal(s)


def refusal(s: PRState, command: Command, legal_list: list[Command]) -> IllegalCommand:
    help_text = _STEP_HELP.get(s.step, "")
    if s.step == "privilege":
        help_text = (
            "mayor: take a colonist from the supply, or pass"
            if s.role == "mayor"
            else "craftsman: take one more barrel of a kind you produced, or pass"
        )
    reason = _reason(s, command)
    listed = "; ".join(_short(c) for c in legal_list[:12])
    return IllegalCommand("illegal_command", f"{reason} (step: {help_text}). Legal now: {listed}")


def _reason(s: PRState, command: Command) -> str:
    """A plain-English reason for the most common refusals."""
    kind, step = command["type"], s.step
    expected = {
        "select_role": ("pick",),
        "take_plantation": ("take",),
        "take_quarry": ("take",),
        "take_colonist": ("hospice", "university", "privilege"),
        "place_colonist": ("place",),
        "build": ("build",),
        "take_good": ("privilege",),
        "sell": ("sell",),
        "load": ("load",),
        "ship_with_wharf": ("load",),
        "store_in_warehouse": ("warehouse",),
        "keep_barrel": ("windrose",),
    }.get(kind, ())
    if kind != "pass" and step not in expected:
        return f"{kind} does not fit the current decision"
    p = s.players[s.current]
    good = GOOD_INDEX.get(command.get("good", ""), -1)
    if kind == "pass":
        if step == "load":
            return "you may not pass: you must load goods onto a cargo ship"
        return "you may not pass here"
    if kind == "select_role":
        return f"the {command['role']} card was already picked this round"
    if kind in ("sell", "load", "ship_with_wharf", "store_in_warehouse", "keep_barrel") and p.goods[good] <= 0:
        return f"you hold no {command['good']}"
    if kind == "sell":
        if good in s.trading_house:
            return f"the trading house already holds {command['good']} (only an occupied office allows that)"
        return "you cannot sell that now"
    if kind == "load":
        return (
            "that load is not allowed: a kind already on a ship must go to that ship, a kind on a full ship cannot "
            "be loaded, and an empty ship must be one that takes the most barrels"
        )
    if kind == "ship_with_wharf":
        return "you have no occupied, unused wharf"
    if kind == "build":
        b = BUILDING_INDEX[command["building"]]
        if p.buildings[b] >= 0:
            return f"you already own a {command['building']}"
        if s.building_supply[b] <= 0:
            return f"no {command['building']} is left"
        if s.players[s.current].spaces + (2 if b >= 18 else 1) > 12:
            return "your city has no room for it"
        return f"you cannot pay {q.build_price(s, s.current, b)} doubloons"
    if kind == "place_colonist":
        return f"{command['target']} has no empty circle of yours"
    if kind in ("take_plantation", "take_quarry"):
        return "that tile cannot be taken (not in the row, no quarry left or no right to a quarry, or island full)"
    return f"{kind} is not legal now"


def _short(c: Command) -> str:
    fields = ", ".join(f"{k}={v}" for k, v in c.items() if k != "type")
    return f"{c['type']}({fields})" if fields else c["type"]


def event_for(s: PRState, c: Command) -> Event:
    """The event a (legal, canonical) command causes."""
    seat = s.current
    kind = c["type"]
    step = s.step
    if kind == "select_role":
        idx = s.role_names.index(c["role"])
        return {
            "type": "RoleSelected",
            "seat": seat,
            "role": c["role"],
            "doubloons": s.role_money[idx],
            "prospector_bonus": 1 if role_kind(c["role"]) == "prospector" else 0,
        }
    if kind == "pass":
        decision = {"privilege": "mayor_privilege" if s.role == "mayor" else "craftsman_privilege"}.get(step, step)
        return {"type": "Passed", "seat": seat, "decision": decision}
    if kind == "draw_from_hacienda":
        return {"type": "HaciendaPlantationDrawn", "seat": seat, "plantation": TILE_NAMES[s.stack[-1]]}
    if kind == "take_plantation":
        return {"type": "PlantationTaken", "seat": seat, "plantation": c["plantation"]}
    if kind == "take_quarry":
        return {"type": "QuarryTaken", "seat": seat}
    if kind == "take_colonist":
        if step == "privilege":
            return {"type": "MayorColonistTaken", "seat": seat}
        source = q.colonist_source(s)
        if step == "hospice":
            return {"type": "HospiceColonistPlaced", "seat": seat, "tile": TILE_NAMES[s.took], "source": source}
        return {"type": "UniversityColonistPlaced", "seat": seat, "building": BUILDING_NAMES[s.built], "source": source}
    if kind == "place_colonist":
        return {"type": "ColonistPlaced", "seat": seat, "target": c["target"]}
    if kind == "build":
        b = BUILDING_INDEX[c["building"]]
        return {"type": "BuildingBought", "seat": seat, "building": c["building"], "price": q.build_price(s, seat, b)}
    if kind == "take_good":
        return {"type": "ExtraGoodTaken", "seat": seat, "good": c["good"]}
    if kind == "sell":
        return {
            "type": "GoodSold",
            "seat": seat,
            "good": c["good"],
            "price": q.sell_price(s, seat, GOOD_INDEX[c["good"]]),
        }
    if kind == "load" or kind == "ship_with_wharf":
        g = GOOD_INDEX[c["good"]]
        p = s.players[seat]
        if kind == "load":
            i = c["ship"]
            free = s.ship_caps[i] - s.ship_loads[i]
            amount = min(p.goods[g], free)
        else:
            amount = p.goods[g]
        vp = amount + (1 if p.buildings[HARBOR] > 0 else 0) + (1 if seat == s.picker and not s.captain_loaded else 0)
        if kind == "load":
            return {
                "type": "GoodsShipped",
                "seat": seat,
                "good": c["good"],
                "ship": c["ship"],
                "amount": amount,
                "vp": vp,
            }
        return {"type": "GoodsShippedByWharf", "seat": seat, "good": c["good"], "amount": amount, "vp": vp}
    if kind == "store_in_warehouse":
        return {"type": "WarehouseKindChosen", "seat": seat, "good": c["good"]}
    # keep_barrel
    g = GOOD_INDEX[c["good"]]
    p = s.players[seat]
    discarded = {}
    for k in range(5):
        if p.goods[k] > 0 and k not in s.protected:
            lost = p.goods[k] - (1 if k == g else 0)
            if lost:
                discarded[GOODS[k]] = lost
    return {"type": "BarrelKept", "seat": seat, "good": c["good"], "discarded": discarded}


def _expand(counts: list[int]) -> list[str]:
    return [TILE_NAMES[k] for k in range(5) for _ in range(counts[k])]


def auto_event(s: PRState, rng: random.Random) -> Event | None:
    """The automatic event due at the cursor, or None when a player must decide (two or more options)."""
    step = s.step
    if step == "" or s.phase == "over":
        return None
    if step == "discard":
        return {"type": "PlantationsDiscarded", "plantations": _expand(s.face_up)}
    if step == "refill":
        if s.stack:
            need = s.n + 1 - sum(s.face_up)
            take = s.stack[-need:] if need < len(s.stack) else s.stack[:]
            return {"type": "PlantationsDealt", "plantations": [TILE_NAMES[k] for k in reversed(take)]}
        tiles = _expand(s.discard)
        rng.shuffle(tiles)
        return {"type": "PlantationStackShuffled", "plantations": tiles}
    if step == "distribute":
        return {"type": "ColonistsDistributed", "colonists": q.distribution(s)}
    if step == "arrange":
        p = s.players[s.current]
        total = p.colonists()
        circles = p.circles()
        if total >= circles:
            return {"type": "ColonistsArranged", "seat": s.current, "san_juan": total - circles}
        return {"type": "ColonistsGathered", "seat": s.current, "colonists": total}
    if step == "refill_ship":
        required = max(s.min_refill, s.empty_building_circles())
        if s.colonist_supply >= required:
            return {"type": "ColonistShipRefilled", "colonists": required, "ends_game": False}
        return {"type": "ColonistShipRefilled", "colonists": s.colonist_supply, "ends_game": True}
    if step == "produce":
        return _production_event(s)
    if step == "empty_house":
        return {"type": "TradingHouseEmptied", "goods": [GOODS[g] for g in s.trading_house]}
    if step == "unload":
        return {"type": "ShipsUnloaded", "ships": [i for i, cap in enumerate(s.ship_caps) if s.ship_loads[i] >= cap]}
    if step == "round_end":
        return {
            "type": "RoundEnded",
            "round": s.round,
            "bonus_roles": [r for r, taken in zip(s.role_names, s.role_taken, strict=True) if not taken],
        }
    if step == "game_end":
        from .scoring import score

        return {
            "type": "GameEnded",
            "aborted": not s.triggers,
            "triggers": list(s.triggers),
            "scores": [score(p) for p in s.players],
        }
    if step in _MAYBE_SINGLE:
        if step == "place" and q.several_targets(s.players[s.current]):
            return None
        options = legal(s)
        if len(options) == 1:
            return event_for(s, options[0])
    return None


# Only these decision steps can offer a single option (then forced and applied by the engine). Every other
# decision always offers two or more: a pass, or at least two roles or kinds (see the rules file §11).
_MAYBE_SINGLE = frozenset({"place", "windrose", "load"})


def _production_event(s: PRState) -> Event:
    supply = s.goods_supply[:]
    rows = []
    for k in range(s.n):
        seat = (s.picker + k) % s.n
        p = s.players[seat]
        made = q.production(p)
        goods = {}
        for g in range(5):
            amount = min(made[g], supply[g])
            if amount > 0:
                goods[GOODS[g]] = amount
                supply[g] -= amount
        factory = FACTORY_PAY[len(goods)] if p.buildings[FACTORY] > 0 else 0
        rows.append({"seat": seat, "goods": goods, "factory_doubloons": factory})
    return {"type": "GoodsProduced", "production": rows}
