"""Puerto Rico's static catalogue: buildings, roles, goods, plantations, ships and set-up tables (rules §1, §14).

Section (§) and ruling (D, Q) numbers are those of docs/rules/puerto_rico.md.
"""

from __future__ import annotations

from typing import Any

from .data import BUILDINGS, FACTORY_PAY, GOODS, PRICES, SETUP, TILE_NAMES, BuildingType, role_cards, role_kind
from .state import AUTO_STEPS

BUILDING_TITLES = {
    "small_indigo_plant": "Small indigo plant",
    "small_sugar_mill": "Small sugar mill",
    "indigo_plant": "Indigo plant",
    "sugar_mill": "Sugar mill",
    "tobacco_storage": "Tobacco storage",
    "coffee_roaster": "Coffee roaster",
    "small_market": "Small market",
    "hacienda": "Hacienda",
    "construction_hut": "Construction hut",
    "small_warehouse": "Small warehouse",
    "hospice": "Hospice",
    "office": "Office",
    "large_market": "Large market",
    "large_warehouse": "Large warehouse",
    "factory": "Factory",
    "university": "University",
    "harbor": "Harbor",
    "wharf": "Wharf",
    "guild_hall": "Guild hall",
    "residence": "Residence",
    "fortress": "Fortress",
    "customs_house": "Customs house",
    "city_hall": "City hall",
}

BUILDING_EFFECTS = {
    "small_indigo_plant": "Production: each occupied circle turns one occupied indigo plantation into one indigo.",
    "small_sugar_mill": "Production: each occupied circle turns one occupied sugar plantation into one sugar.",
    "indigo_plant": "Production: each occupied circle turns one occupied indigo plantation into one indigo.",
    "sugar_mill": "Production: each occupied circle turns one occupied sugar plantation into one sugar.",
    "tobacco_storage": "Production: each occupied circle turns one occupied tobacco plantation into one tobacco.",
    "coffee_roaster": "Production: each occupied circle turns one occupied coffee plantation into one coffee.",
    "small_market": "Trader: you get 1 doubloon more when you sell a good.",
    "hacienda": "Settler: before taking a tile, you may also draw the top face-down plantation.",
    "construction_hut": "Settler: you may take a quarry instead of a plantation.",
    "small_warehouse": "Captain: after loading, you keep all barrels of one kind.",
    "hospice": "Settler: the tile you take arrives with a colonist from the supply (or the ship).",
    "office": "Trader: you may sell a kind the trading house already holds.",
    "large_market": "Trader: you get 2 doubloons more when you sell a good.",
    "large_warehouse": "Captain: after loading, you keep all barrels of two kinds.",
    "factory": "Craftsman: you get doubloons for the kinds you produce: 2 kinds 1, 3 kinds 2, 4 kinds 3, 5 kinds 5.",
    "university": "Builder: the building you buy arrives with a colonist from the supply (or the ship).",
    "harbor": "Captain: each time you load goods you get 1 VP more.",
    "wharf": "Captain: once per captain phase, ship all barrels of one kind on your own ship.",
    "guild_hall": "Game end, if occupied: 1 VP per small production building, 2 VP per large production building.",
    "residence": "Game end, if occupied: 4 VP for up to 9 filled island spaces, 5 for 10, 6 for 11, 7 for 12.",
    "fortress": "Game end, if occupied: 1 VP per 3 colonists you own.",
    "customs_house": "Game end, if occupied: 1 VP per 4 VP chips you hold.",
    "city_hall": "Game end, if occupied: 1 VP per violet building (large ones included).",
}

ROLE_EFFECTS = {
    "settler": "Each player takes a face-up plantation; the picker may take a quarry instead.",
    "mayor": "Colonists from the ship are shared out and placed; the picker takes one more from the supply.",
    "builder": "Each player may buy one building; the picker pays 1 doubloon less.",
    "craftsman": "Every player produces goods; the picker takes one more barrel of a kind produced.",
    "trader": "Each player may sell one good to the trading house; the picker gets 1 doubloon more.",
    "captain": "Players load goods onto the cargo ships for VP until nobody can; the picker gets 1 VP more.",
    "prospector": "The picker takes 1 doubloon; nothing else happens.",
}

TILE_EFFECTS = {
    **{
        g: f"A {g} plantation: occupied, it grows one {g} when a matching production building works it"
        + (" (corn needs no building)." if g == "corn" else ".")
        for g in GOODS
    },
    "quarry": "Occupied, it lowers a building's price by 1 doubloon, up to the building's column (1 to 4).",
}


def _building(b: BuildingType) -> dict[str, Any]:
    return {
        "id": b.name,
        "kind": "building",
        "name": BUILDING_TITLES[b.name],
        "cost": b.cost,
        "points": b.vp,
        "effect": BUILDING_EFFECTS[b.name],
        "count": b.copies,
        "data": {
            "category": b.kind,
            "circles": b.cap,
            "city_spaces": b.size,
            "column": b.vp,
            "good": GOODS[b.good] if b.good >= 0 else None,
        },
    }


def catalogue() -> dict[str, Any]:
    components = [_building(b) for b in BUILDINGS]
    for card in role_cards(2):
        kind = role_kind(card)
        components.append(
            {
                "id": card,
                "kind": "role",
                "name": kind.capitalize() + (" (second card)" if card.endswith("_2") else ""),
                "cost": None,
                "points": None,
                "effect": ROLE_EFFECTS[kind],
                "count": 1,
                "data": {
                    "role": kind,
                    "players": "4-5 (one card), 5 (two cards), official 2-player (one)"
                    if kind == "prospector"
                    else "all",
                },
            }
        )
    for i, tile in enumerate(TILE_NAMES):
        components.append(
            {
                "id": tile,
                "kind": "plantation" if i < 5 else "quarry",
                "name": tile.capitalize(),
                "cost": None,
                "points": None,
                "effect": TILE_EFFECTS[tile],
                "count": None,
                "data": {},
            }
        )
    for g, price in zip(GOODS, PRICES, strict=True):
        components.append(
            {
                "id": g,
                "kind": "good",
                "name": g.capitalize() + " barrel",
                "cost": None,
                "points": None,
                "effect": f"Sells for {price} doubloons at the trading house; ships for 1 VP per barrel.",
                "count": None,
                "data": {"price": price},
            }
        )
    setups = {
        str(n): {
            "doubloons": t.doubloons,
            "starting_plantations": [TILE_NAMES[k] for k in t.starting],
            "vp_chips": t.vp,
            "colonists": t.colonists,
            "colonist_ship": t.ship_colonists,
            "cargo_ships": list(t.ships),
            "prospectors": t.prospectors,
            "plantations": dict(zip(GOODS, t.plantations, strict=True)),
            "quarries": t.quarries,
            "goods": dict(zip(GOODS, t.goods, strict=True)),
            "building_copies": {b.name: c for b, c in zip(BUILDINGS, t.building_copies, strict=True)},
            "roles_picked_per_round": t.picks_per_round,
            "minimum_colonist_refill": t.min_refill,
        }
        for n, t in sorted(SETUP.items())
    }
    return {
        "components": components,
        "board": {
            "island_spaces": 12,
            "city_spaces": 12,
            "trading_house_spaces": 4,
            "large_building_city_spaces": 2,
            "factory_pay": {str(k): v for k, v in enumerate(FACTORY_PAY) if k >= 2},
            "setup_by_players": setups,
        },
        "codes": {
            "building": {b.name: BUILDING_TITLES[b.name] for b in BUILDINGS},
            "role": {c: ROLE_EFFECTS[role_kind(c)] for c in role_cards(2)},
            "good": {g: f"{g} (price {p})" for g, p in zip(GOODS, PRICES, strict=True)},
            "island_tile": {t: TILE_EFFECTS[t] for t in TILE_NAMES},
            "step": {
                "pick": "the seat on turn picks a role",
                "hacienda": "settler: hacienda draw or pass",
                "take": "settler: take a face-up plantation or a quarry",
                "hospice": "settler: hospice colonist",
                "privilege": "the picker's privilege (mayor colonist or craftsman barrel)",
                "place": "mayor: place colonists",
                "build": "builder: buy a building",
                "university": "builder: university colonist",
                "sell": "trader: sell a good",
                "load": "captain: load goods",
                "warehouse": "captain: choose a kind to keep whole",
                "windrose": "captain: choose the one barrel to keep",
                **{step: "automatic: the engine carries it out" for step in sorted(AUTO_STEPS)},
            },
            "phase": {
                "setup": "being set up",
                "pick": "a seat picks a role",
                **{
                    r: f"the {r} role is carried out"
                    for r in ("settler", "mayor", "builder", "craftsman", "trader", "captain")
                },
                "round_end": "the round ends",
                "over": "the game is over",
            },
            "command_field": {
                "ship": "cargo ship index, from 0 for the smallest",
                "target": "a plantation kind or quarry (the island) or a building id (the city)",
            },
        },
    }
