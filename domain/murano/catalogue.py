"""Murano's static catalogue: cards, tiles, islands, the action ring and codes (rules file §1-§3, §12, §13).

Section (§) and ruling (D, Q) numbers are those of docs/rules/murano.md.
"""

from __future__ import annotations

from typing import Any

from domain.murano import data
from domain.murano.board import LARGE, SMALL, Geometry

SPECIAL_EFFECTS = {
    "SB01": "Placing a gondolier costs 1 gold on your own colour, 3 on another, instead of 2 and 5.",
    "SB02": "+1 VP after each production action in which you used at least one factory.",
    "SB03": "+5 VP at once (once).",
    "SB04": "When selling, red and green beads count as one colour.",
    "SB05": "When selling, green and blue beads count as one colour.",
    "SB06": "When selling, blue and red beads count as one colour.",
    "SB07": "When you move the red ship it may end on the first occupied space ahead, sharing it with a black ship.",
    "SB08": "The take-gold action gives 3 gold instead of 2.",
    "SB09": "Your ship moves in a turn cost 0, 0, 1, 2, ... gold instead of 0, 1, 2, ...",
    "SB10": "In production, if you use at least one factory, draw one extra bead (no VP loss for it).",
    "SB11": "In income, +1 gold for each chosen shop that earned at least 1 gold.",
    "SB12": "+2 gold whenever you sell beads.",
    "SB13": "Choosing a shop or palace from the stack costs 3 gold instead of 4.",
    "SB14": "Hiring a character costs 1 gold less (minimum 0).",
    "SB15": "Production costs 1 VP per factory used instead of 2.",
}

ACTION_EFFECTS = {
    "build": "Place up to 3 tiles from your hand (or draw and lay streets) on the islands.",
    "buy_glass_factory": f"Pay {data.FACTORY_PRICE} gold: take a glass factory tile into your hand.",
    "buy_shop": f"Pay {data.TOP_PRICE} gold for the top shop, or {data.CHOOSE_PRICE} to choose one from the stack.",
    "income": "Collect gold from the customers walking past your shops on one island.",
    "place_gondolier": f"Seat a gondolier on a gondola: {data.SEAT_OWN_PRICE} gold on your own colour, "
    f"{data.SEAT_OTHER_PRICE} on another.",
    "buy_palace": f"Pay {data.TOP_PRICE} gold for the top palace, or {data.CHOOSE_PRICE} to choose one.",
    "production": f"Use factories to draw beads from the bag (each costs {data.PRODUCTION_VP_LOSS} VP), then you may "
    "sell beads of one colour.",
    "buy_special_building": f"Pay {data.SPECIAL_TILE_PRICE} gold: take a special-building tile into your hand.",
    "gondoliers": f"Fire a gondolier for {data.GONDOLIER_FIRE_GOLD} gold, or hire one for {data.GONDOLIER_HIRE_PRICE}.",
    "hire_character": "Draw 3 character cards; keep one for (cards you hold + 1) gold, or decline.",
    "take_2_gold": f"Take {data.TAKE_GOLD} gold.",
}

FORMULA_SYMBOLS = {
    "GF": "glass factories on the island (GF_own yours, GF_opp others', GF_of(q) player q's)",
    "SH": "shops on the island (SH[c] of colour c; SH_own, SH_opp, SH_of(q) by owner)",
    "PA": "palaces on the island",
    "CR": "crests on all palaces of the island",
    "SB": "special buildings",
    "BLD": "all building tiles (GF + SH + PA + SB)",
    "OWN": "GF_own + SH_own",
    "OPP": "GF_opp + SH_opp",
    "ST": "street tiles (ST_NONE: those without customers)",
    "CU": "customers on street tiles (CU[c] of colour c)",
    "FREE_S": "empty paved spaces",
    "FREE_B": "empty brown spaces",
    "TYPES": "building kinds present among GF, SH, PA, SB (0-4)",
    "IF(c, n)": "n if the condition holds, else 0",
    "ANY/ALL(q in OPPONENTS: c)": "some / every other player",
}


def _geometry(g: Geometry) -> dict[str, Any]:
    return {
        "islands": list(g.islands),
        "spaces": [
            {
                "id": sid,
                "island": g.islands[g.island_of[i]],
                "paved": g.paved[i],
                "neighbours": [g.space_ids[n] for n in g.neighbours[i]],
            }
            for i, sid in enumerate(g.space_ids)
        ],
    }


def _street(face: str, customers: dict[str, Any]) -> dict[str, Any]:
    walkers = ", ".join(f"{n} {c}" for c, n in customers.items()) or "no"
    noun = "customer" if sum(customers.values()) == 1 else "customers"
    return {
        "id": face,
        "kind": "street",
        "name": f"Street ({walkers} {noun})",
        "cost": None,
        "points": None,
        "effect": f"A street tile with {walkers} customer(s); customers bring income to shops of their colour "
        "next to the street.",
        "count": data.STREET_COUNTS[face],
        "data": {"customers": customers},
    }


def catalogue() -> dict[str, Any]:
    comps: list[dict[str, Any]] = []
    for cid, name in data.SPECIAL_CARDS.items():
        comps.append(
            {
                "id": cid,
                "kind": "special_card",
                "name": name,
                "cost": None,
                "points": None,
                "effect": SPECIAL_EFFECTS[cid],
                "count": 1,
                "data": {},
            }
        )
    for cid, (name, island, players, formula) in data.CHARACTERS.items():
        where = "any island" if island == "ANY" else data.ISLAND_NAMES[island]
        comps.append(
            {
                "id": cid,
                "kind": "character",
                "name": name,
                "cost": None,
                "points": None,
                "effect": f"Final scoring: assigned to {where}, scores {formula} VP there.",
                "count": 1,
                "data": {"island": island, "min_players": players, "formula": formula},
            }
        )
    for face, customers in data.STREET_FACES.items():
        comps.append(_street(face, customers))
    for colour, n in data.SHOP_COUNTS.items():
        comps.append(
            {
                "id": colour,
                "kind": "shop",
                "name": f"{colour.capitalize()} shop",
                "cost": data.TOP_PRICE,
                "points": data.BUILD_VP["shop"],
                "count": n,
                "data": {},
                "effect": f"Earns gold when {colour} customers walk past; {data.BUILD_VP['shop']} VP when built.",
            }
        )
    for crests, n in data.PALACE_COUNTS.items():
        comps.append(
            {
                "id": str(crests),
                "kind": "palace",
                "name": f"Palace with {crests} crest(s)",
                "cost": data.TOP_PRICE,
                "points": data.BUILD_VP["palace"],
                "count": n,
                "data": {"crests": crests},
                "effect": f"{data.BUILD_VP['palace']} VP when built; its {crests} crest(s) count for characters.",
            }
        )
    comps.append(
        {
            "id": "glass_factory",
            "kind": "building_tile",
            "name": "Glass factory",
            "cost": data.FACTORY_PRICE,
            "points": data.BUILD_VP["glass_factory"],
            "count": data.GLASS_FACTORY_COUNT,
            "data": {},
            "effect": "Lets you draw one bead per production action; 1 VP when built.",
        }
    )
    comps.append(
        {
            "id": "special_building",
            "kind": "building_tile",
            "name": "Special building",
            "cost": data.SPECIAL_TILE_PRICE,
            "points": 0,
            "count": data.SPECIAL_TILE_COUNT,
            "data": {},
            "effect": "When built, draw 3 special-building cards and keep one in effect.",
        }
    )
    comps.append(
        {
            "id": "street",
            "kind": "building_tile",
            "name": "Street tile",
            "cost": None,
            "points": None,
            "count": sum(data.STREET_COUNTS.values()),
            "data": {},
            "effect": "Drawn during the build action and laid on a paved space.",
        }
    )
    for action, effect in ACTION_EFFECTS.items():
        comps.append(
            {
                "id": action,
                "kind": "action",
                "name": action.replace("_", " ").capitalize(),
                "cost": None,
                "points": None,
                "effect": effect,
                "count": data.RING.count(action.upper()),
                "data": {},
            }
        )
    return {
        "components": comps,
        "board": {
            "ring": [{"index": i, "action": a.lower(), "anchor": i in data.ANCHORS} for i, a in enumerate(data.RING)],
            "ships": data.SHIPS,
            "red_ship": data.RED_SHIP,
            "island_grids": {name: list(rows) for name, rows in data.ISLAND_GRIDS.items()},
            "geometry_2_3_players": _geometry(SMALL),
            "geometry_4_players": _geometry(LARGE),
            "sale_gold": {str(k): v for k, v in data.SALE.items()},
            "start": {
                "gold": data.START_GOLD,
                "vp": data.START_VP,
                "personal_gondoliers": data.START_PERSONAL_GONDOLIERS,
                "general_gondoliers": data.START_GENERAL_GONDOLIERS,
            },
        },
        "codes": {
            "island": dict(data.ISLAND_NAMES),
            "grid_cell": {"S": "paved space (streets)", "B": "brown space (buildings)", ".": "water"},
            "action": {a: ACTION_EFFECTS[a] for a in ACTION_EFFECTS},
            "building_kind": {
                "glass_factory": "glass factory",
                "shop": "shop (face: customer colour)",
                "palace": "palace (face: crests)",
                "special_building": "special building",
                "street": "street tile (face: ST_* id)",
            },
            "player_colour": {c: f"player colour {c}" for c in data.PLAYER_COLOURS},
            "bead_colour": {c: f"{c} glass bead" for c in data.BEAD_COLOURS},
            "customer_colour": {c: f"{c} customer" for c in data.CUSTOMER_COLOURS},
            "buy_mode": {
                "top": f"pay {data.TOP_PRICE}, take the top tile unseen",
                "choose": f"pay {data.CHOOSE_PRICE}, look through the stack and choose",
            },
            "decision": {
                "TURN": "move a ship and act, or pass",
                "CONTINUE": "move another ship or act",
                "BUY_MODE": "top or choose",
                "PICK_TILE": "choose a tile from the stack",
                "FREE_PLACE": "place the bought tile at once or keep it",
                "HIRE_PICK": "keep a character or decline",
                "SEAT": "choose a gondola seat",
                "BUILD_STEP": "build from hand, draw a street, or stop",
                "STREET_SPACE": "place the drawn street",
                "SPECIAL_CARD": "keep one special card",
                "INCOME": "choose the island to collect on",
                "PRODUCE": "choose how many factories to use",
                "SELL": "sell beads or skip",
                "GONDOLIERS": "fire or hire",
                "ASSIGN": "assign characters to islands",
                "NOT_STARTED": "not set up yet",
                "OVER": "the game is over",
            },
            "formula_symbol": FORMULA_SYMBOLS,
            "command_field": {
                "ship": f"ship id 0-{data.SHIPS - 1}; ship {data.RED_SHIP} is the red ship",
                "to": f"action ring space 0-{data.RING_SIZE - 1} (board.ring)",
                "face": "shop: customer colour; palace: number of crests; null for glass factories and special "
                "buildings",
                "factories": "how many glass factories to use (one bead each)",
                "beads": "bead colour -> how many to sell (1-3 in total)",
                "shops": "the shop spaces whose income is collected",
            },
            "id_patterns": {r"[A-Z_]+:r\d+c\d+": "a space: ISLAND:r<row>c<column> in the island's grid"},
        },
    }
