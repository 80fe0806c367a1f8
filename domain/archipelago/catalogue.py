"""Archipelago's static catalogue: evolution cards, tiles, objectives, trends, markets, buildings and codes."""

from __future__ import annotations

from typing import Any

from domain.archipelago import data as D
from domain.archipelago.decide import PROMPT_COMMANDS
from domain.archipelago.texts import ACTIONS, BEIGE_EVENTS, BUILDING_ABILITIES, CARD_EFFECTS, METRICS, PREDICATES

_USE = {
    "AD": "costs an action disc",
    "FREE": "free, once per round",
    "PASSIVE": "always in effect",
    "WONDER": "a wonder: build it with build_wonder",
}


def _back(card: D.Card) -> dict[str, Any]:
    b = card.back
    return {
        "color": b.color,
        "domestic": list(b.domestic) if b.domestic else None,
        "export": [list(x) for x in b.export],
        "event": b.event,
    }


def _card(card: D.Card) -> dict[str, Any]:
    use = _USE.get(card.use) or f"used with the {card.use.split(':')[1].lower()} action"
    data = {
        "type": card.kind.lower(),
        "use": card.use,
        "prices_by_orientation": list(card.prices),
        "shareable": card.shareable,
        "back": _back(card),
    }
    if card.wonder_cost:
        cubes, money = card.wonder_cost
        data["wonder_cost"] = {"cubes": dict(cubes), "money": money}
    return {
        "id": card.id,
        "kind": "wonder" if card.use == "WONDER" else card.kind.lower(),
        "name": card.name.title(),
        "cost": min(card.prices),
        "points": card.vp,
        "count": 1,
        "data": data,
        "effect": f"{CARD_EFFECTS[card.id]} ({use})",
    }


def _face(face: D.Face) -> dict[str, Any]:
    return {"edges": face.edges, "icons": list(face.icons), "huts": face.huts, "has_land": face.has_land}


def _objective(o: D.Objective) -> dict[str, Any]:
    n, k = o.arg
    arg = f"{n}N+{k}" if n and k else (f"{n}N" if n else str(k))
    if o.condition in ("POP", "PEACE"):
        arg += "%"
    criterion = METRICS.get(o.criterion, o.criterion)
    if o.special == "SEPARATIST":
        effect = f"Separatist: wins if the colony becomes independent. Scoring: {o.criterion} ({criterion})."
    else:
        cond = PREDICATES[str(o.condition)].split(": ", 1)[1]
        effect = f"End condition {o.condition}({arg}): {cond}. Scoring: {o.criterion} ({criterion})." + (
            " Pacifist: bonus VP if rebellion stays low." if o.special == "PACIFIST" else ""
        )
    return {
        "id": o.id,
        "kind": "objective",
        "name": f"{o.length.capitalize()} objective {o.id}",
        "cost": None,
        "points": None,
        "count": 1,
        "effect": effect,
        "data": {
            "length": o.length,
            "condition": o.condition,
            "argument": arg,
            "criterion": o.criterion,
            "special": o.special,
        },
    }


def catalogue() -> dict[str, Any]:
    comps = [_card(c) for c in D.CARDS.values()]
    for tid in D.TILE_IDS:
        faces = D.EXPLORATION_TILES[tid]
        comps.append(
            {
                "id": tid,
                "kind": "exploration_tile",
                "name": f"Exploration tile {tid}",
                "cost": None,
                "points": None,
                "count": 1,
                "data": {"faces": {k: _face(f) for k, f in faces.items()}},
                "effect": "A double-sided hex tile: placed face up next to your units when explored; its "
                "icons give resources, its huts room for citizens.",
            }
        )
    for name, face in D.START_FACES.items():
        comps.append(
            {
                "id": name,
                "kind": "start_tile",
                "name": f"{name.capitalize()} start tile",
                "cost": None,
                "points": None,
                "count": 1,
                "data": {"faces": {"A": _face(face)}},
                "effect": "The tile the game starts from (option `start`).",
            }
        )
    comps.extend(_objective(o) for o in D.OBJECTIVES.values())
    for tid, (name, criterion) in D.TRENDS.items():
        metric = METRICS.get(criterion) or METRICS["RES(R)"].replace("R", criterion.split(":")[-1].lower(), 1)
        comps.append(
            {
                "id": tid,
                "kind": "trend",
                "name": name,
                "cost": None,
                "points": None,
                "count": 1,
                "data": {"criterion": criterion},
                "effect": f"Public scoring criterion: {criterion} ({metric}).",
            }
        )
    for btype, (cubes, money) in D.BUILD_COSTS.items():
        comps.append(
            {
                "id": btype,
                "kind": "building",
                "name": btype.capitalize(),
                "cost": money,
                "points": None,
                "count": D.BUILDING_POOL.get(D.BUILDING_POOL_OF.get(btype, ""), None),
                "data": {"cubes": dict(cubes), "pool": D.BUILDING_POOL_OF.get(btype)},
                "effect": f"{BUILDING_ABILITIES[btype]} Costs {', '.join(f'{n} {r.lower()}' for r, n in cubes.items())}"
                f" and {money} coins.",
            }
        )
    return {
        "components": comps,
        "board": {
            "hex_directions": [list(d) for d in D.DIRECTIONS],
            "coordinates": "axial hex coordinates {q, r}; the start tile is at (0, 0); edge e<i> of a tile at "
            "rotation 0 faces hex_directions[i], and rotation k turns the edges by k steps",
            "domestic_prices": {r: list(p) for r, p in D.DOMESTIC_PRICES.items()},
            "export_prices": {r: list(p) for r, p in D.EXPORT_PRICES.items()},
            "cube_totals": dict(D.CUBE_TOTALS),
            "tax": {
                "per_citizen": D.TAX_PER_CITIZEN,
                "per_ship": D.TAX_PER_SHIP,
                "per_town": D.TAX_PER_TOWN,
                "per_temple": D.TAX_PER_TEMPLE,
            },
            "recruit_price_by_surplus": {str(s): D.recruit_price(s) for s in range(1, D.SURPLUS_MAX + 1)},
            "rank_vp": {str(n): list(v) for n, v in D.RANK_VP.items()},
            "round_cap": dict(D.ROUND_CAP),
            "limits": {
                "start_money": D.START_MONEY,
                "start_action_discs": D.START_AD,
                "max_action_discs": D.MAX_AD,
                "citizens_per_player": D.CITIZENS_PER_PLAYER,
                "ships_per_player": D.SHIPS_PER_PLAYER,
                "citizens_per_tile": D.MAX_CITIZENS_PER_TILE,
                "market_slots": D.EVO_MARKET_SLOTS,
                "track_size": D.EVO_TRACK_SIZE,
                "domestic_cap": D.DOM_CAP,
                "export_cap": D.EXP_CAP,
                "surplus_max": D.SURPLUS_MAX,
            },
        },
        "codes": {
            "resource": {r: r.lower() for r in D.RESOURCES},
            "edge": {"S": "sea", "P": "plain", "M": "mountain"},
            "face": {"A": "face A", "B": "face B"},
            "action": ACTIONS,
            "building": BUILDING_ABILITIES,
            "market": {"DOM": "the domestic market", "EXP": "the export market"},
            "op": {"BUY": "buy a cube from the market", "SELL": "sell a cube to the market"},
            "source": {
                "MARKET": "from the export market",
                "CUBE": "one of your cubes",
                "TOKEN": "an explorer token instead of a cube",
            },
            "slot": {"PERSONAL": "your personal exploration", "SHARED": "a shared exploration slot"},
            "pick": {"TOP": "the top tile of the stack", "SECOND": "the second tile"},
            "side": {"GIVE": "what you give", "GET": "what you ask for"},
            "offer_item": {
                "MONEY_1": "1 coin",
                "MONEY_5": "5 coins",
                "CUBE": "a resource cube",
                "TOKEN": "an explorer token",
                "CARD": "an evolution card",
                "GRANT": "a permission",
            },
            "grant": {"HARVEST_ON": "harvest on a tile", "BUILD_ON": "build on a tile", "ENTER": "enter a building"},
            "back_color": {"YELLOW": "domestic demand", "RED": "immediate crisis", "BEIGE": "a beige event"},
            "beige_event": BEIGE_EVENTS,
            "card_use": {**_USE, "WITH:<ACTION>": "used with that action"},
            "metric": METRICS,
            "end_condition": PREDICATES,
            "length": {n: f"{n} game (round cap {D.ROUND_CAP[n]})" for n in D.LENGTHS},
            "phase": {
                "SETUP": "being set up",
                "OBJECTIVES": "keeping objectives (more_fun)",
                "TURN0": "turn 0: start tiles",
                "RESET": "phase 1: reset",
                "BID": "phase 2: sealed bids for turn order",
                "ORDER": "phase 2: picking the turn order",
                "INFLUENCE": "phase 3: population influence",
                "BALANCE": "phase 4: balance and crises",
                "ACTIONS": "phase 5: player turns",
                "EVOLUTION": "phase 6: evolution market",
                "OVER": "the game is over",
            },
            "prompt": {kind: "accepts " + ", ".join(cmds) for kind, cmds in PROMPT_COMMANDS.items()},
            "command_field": {
                "icon": "index of an icon on the tile (its icons list, from 0)",
                "rot": "rotation in 60-degree steps (0-5)",
                "pos": "axial hex position {q, r}",
                "index": "position among the tiles the cartographer shows (from 0)",
                "unit": "export_supply: index of the requirement on the card back (from 0); elsewhere a unit id",
                "slot": "evolution market slot (from 0)",
                "amount": "coins bid",
                "seat": "a seat number",
                "victim": "the seat looted",
                "with": "cards used with the action",
                "to": "offer_open: the seat offered to; elsewhere a tile id",
                "rotate": "evo_buy: another occupied slot to rotate (null: none)",
                "slots": "evo_rotate: the market slots to rotate",
                "tokens": "explorer tokens spent instead of cubes, by resource",
            },
            "id_patterns": {
                r"c\d+-\d+": "a citizen: c<seat>-<n>",
                r"s\d+-\d+": "a ship: s<seat>-<n>",
                r"(E\d\d|OCEAN|DESERT|VOLCANO):(TOWN|TEMPLE|MARKET|PORT)": "a building: <tile>:<type>",
            },
        },
    }
