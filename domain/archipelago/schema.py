"""Archipelago's published schemas: the command table (the types ``decide.HANDLERS`` dispatches on) and the view.

Fields a handler reads with ``opt_list`` or ``cmd.get`` are optional; ``use_card`` takes the fields its card needs.
"""

from __future__ import annotations

from typing import Any

from domain.archipelago import data as D
from domain.contract import (
    CommandTable,
    any_value,
    array,
    boolean,
    integer,
    mapping,
    nullable,
    obj,
    string,
    variants,
)
from domain.contract import command_schemas as build_command_schemas

RESOURCE = string(*D.RESOURCES)
CARD = string(*D.CARD_IDS, description="evolution card id")
TILE = string(description="a placed tile id (E01..E24, or the start tile)")
CITIZEN = string(pattern=r"^c\d+-\d+$", description="a citizen id c<seat>-<n>")
SHIP = string(pattern=r"^s\d+-\d+$", description="a ship id s<seat>-<n>")
UNIT = string(pattern=r"^[cs]\d+-\d+$", description="a unit id (citizen or ship)")
BUILDING = string(pattern=r"^[A-Z0-9]+:(TOWN|TEMPLE|MARKET|PORT)$", description="a building id <tile>:<type>")
POS = obj({"q": integer(), "r": integer()}, description="axial hex position")
FACE = string("A", "B")
ROT = integer(0, 5, description="rotation in 60-degree steps")
WITH = array(CARD, "cards used with the action (each is paid for if shared)")
TOKENS = mapping(integer(0), "explorer tokens spent instead of cubes, by resource")
OP = string("BUY", "SELL")
SOURCE = string("MARKET", "CUBE", "TOKEN")
ITEM = obj(
    {
        "kind": string("MONEY_1", "MONEY_5", "CUBE", "TOKEN", "CARD", "GRANT"),
        "resource": RESOURCE,
        "card": CARD,
        "grant": string("HARVEST_ON", "BUILD_ON", "ENTER"),
        "tile": string(),
        "building": string(),
    },
    required=["kind"],
    description="one item of a trade offer",
)


def _f(schema: dict[str, Any], required: bool = True) -> tuple[dict[str, Any], bool]:
    return (schema, required)


COMMANDS: CommandTable = {
    "keep_objectives": ("keep these objective cards (more_fun)", {"cards": _f(array(string()), False)}),
    "place_start_tile": (
        "turn 0: place a tile from your hand",
        {"tile": _f(string()), "pos": _f(POS), "face": _f(FACE), "rot": _f(ROT)},
    ),
    "choose_market_icon": ("put the chosen icon's cube on the market", {"icon": _f(integer(0))}),
    "choose_own_icon": ("take the chosen icon's cube", {"icon": _f(integer(0))}),
    "discard_card": ("discard an evolution card over the track limit", {"card": _f(CARD)}),
    "supply": ("domestic demand: supply a cube from this source", {"source": _f(SOURCE)}),
    "stand": ("stand up a lying citizen (demand crisis or diplomat)", {"citizen": _f(CITIZEN)}),
    "activate_temple": ("domestic demand: use a temple", {"temple": _f(string())}),
    "temple_done": ("stop using temples", {}),
    "supply_done": ("stop supplying", {}),
    "export_supply": (
        "export demand: supply a cube for a requirement",
        {"unit": _f(integer(0)), "source": _f(SOURCE), "resource": _f(RESOURCE)},
    ),
    "bid": ("commit a sealed bid for turn order", {"amount": _f(integer(0))}),
    "order_pick": ("choose the next seat in the turn order", {"seat": _f(integer(0))}),
    "harvest": ("action: harvest a resource", {"resource": _f(RESOURCE), "with": _f(WITH, False)}),
    "recruit": ("action: recruit citizens", {"with": _f(WITH, False)}),
    "reproduce": ("action: reproduce", {}),
    "tax": ("action: collect taxes", {"with": _f(WITH, False)}),
    "trade": (
        "action: trade on a market",
        {"market": _f(string("DOM", "EXP")), "op": _f(OP), "resource": _f(RESOURCE)},
    ),
    "explore": (
        "action: explore",
        {"slot": _f(string("PERSONAL", "SHARED")), "pick": _f(string("TOP", "SECOND")), "with": _f(WITH, False)},
    ),
    "migrate": ("action: migrate", {}),
    "build": (
        "action: build",
        {
            "building": _f(string("SHIP", "TOWN", "TEMPLE", "MARKET", "PORT")),
            "tile": _f(TILE),
            "builder": _f(UNIT),
            "tokens": _f(TOKENS, False),
            "with": _f(WITH, False),
            "waive": _f(nullable(RESOURCE), False),
        },
    ),
    "use_card": (
        "use an evolution card (the fields depend on the card: see USE_CARD_FIELDS)",
        {
            "card": _f(CARD),
            "op": _f(OP, False),
            "resource": _f(RESOURCE, False),
            "ship": _f(SHIP, False),
            "to": _f(TILE, False),
            "victim": _f(integer(0), False),
            "tokens": _f(TOKENS, False),
            "cubes": _f(array(RESOURCE), False),
            "pick": _f(string("TOP", "SECOND"), False),
            "with": _f(WITH, False),
        },
    ),
    "build_wonder": ("build a wonder", {"card": _f(CARD), "citizen": _f(CITIZEN), "tokens": _f(TOKENS, False)}),
    "use_building": ("use a market's or port's ability", {"building": _f(BUILDING)}),
    "offer_open": ("open a trade offer to a seat", {"to": _f(integer(0))}),
    "end_turn": ("end your turn", {}),
    "pass": ("pass for the rest of the round", {}),
    "offer_add": ("add an item to the offer", {"side": _f(string("GIVE", "GET")), "item": _f(ITEM)}),
    "offer_send": ("send the offer", {}),
    "offer_cancel": ("withdraw the offer", {}),
    "offer_accept": ("accept the offer", {}),
    "offer_decline": ("decline the offer", {}),
    "evo_buy": (
        "evolution: buy the card in a market slot",
        {"slot": _f(integer(0)), "rotate": _f(nullable(integer(0)), False)},
    ),
    "evo_rotate": ("evolution: rotate market cards", {"slots": _f(array(integer(0)), False)}),
    "harvest_assign": ("harvest: put a unit on an icon", {"unit": _f(UNIT), "icon": _f(integer(0))}),
    "harvest_done": ("harvest: finish", {}),
    "hire": ("recruit: hire a citizen onto a tile", {"tile": _f(TILE)}),
    "recruit_done": ("recruit: finish", {}),
    "birth": ("reproduce: a new citizen on a tile", {"tile": _f(TILE)}),
    "reproduce_done": ("reproduce: finish", {}),
    "cartographer_pick": ("explore with the cartographer: choose a seen tile", {"index": _f(integer(0))}),
    "place_tile": (
        "explore: place the drawn tile",
        {"pos": _f(POS), "face": _f(FACE), "rot": _f(ROT), "mover": _f(UNIT, False)},
    ),
    "discard_tile": ("explore: discard the drawn tile", {}),
    "move_ship": (
        "migrate: move a ship with passengers",
        {"ship": _f(SHIP), "to": _f(TILE), "passengers": _f(array(CITIZEN), False)},
    ),
    "convoy": ("migrate: move a citizen over a bridge of ships", {"citizen": _f(CITIZEN), "to": _f(TILE)}),
    "walk": ("migrate: walk a citizen to a neighbouring tile", {"citizen": _f(CITIZEN), "to": _f(TILE)}),
    "enter_building": ("migrate: enter a building", {"unit": _f(UNIT), "building": _f(BUILDING)}),
    "leave_building": ("migrate: leave a building", {"unit": _f(UNIT)}),
    "migrate_done": ("migrate: finish", {}),
    "ability_trade": ("building ability: one transaction", {"op": _f(OP), "resource": _f(RESOURCE)}),
    "ability_done": ("building ability: finish", {}),
    "research_pick": ("researcher / head hunter: buy a revealed card, or none", {"card": _f(nullable(CARD))}),
    "card_done": ("finish the card's steps", {}),
    "declare_end": ("declare the end of the game with a fulfilled objective", {"objective": _f(string())}),
}

# use_card: the fields each card reads (card_uses.CARD_USES); every other card takes none.
USE_CARD_FIELDS: list[tuple[tuple[str, ...], dict, str]] = [
    (("C03", "C04"), {"op": _f(OP), "resource": _f(RESOURCE)}, "merchant / shipowner: one market transaction"),
    (("C16",), {"resource": _f(RESOURCE)}, "smuggler: sell one cube on the export market"),
    (("C08",), {"ship": _f(SHIP), "to": _f(TILE)}, "navigator: sail a ship across a sea link"),
    (("C13",), {"pick": _f(string("TOP", "SECOND")), "with": _f(WITH, False)}, "conquistador: explore"),
    (("C18",), {"ship": _f(SHIP), "victim": _f(integer(0))}, "pirate: loot a seat's ship on your ship's tile"),
    (("P13",), {"tokens": _f(TOKENS, False)}, "festival: pay fruit, cattle and fish (tokens may stand in)"),
    (("P14",), {"cubes": _f(array(RESOURCE, max_items=2))}, "charity: give 1 or 2 cubes to the market"),
]


def command_schemas() -> dict[str, dict]:
    """The per-type schemas; ``use_card`` is one closed variant per group of cards."""
    out = build_command_schemas(COMMANDS)
    special = {c for cards, _, _ in USE_CARD_FIELDS for c in cards}
    cases = [(list(cards), fields, note) for cards, fields, note in USE_CARD_FIELDS]
    cases.append(([c for c in D.CARD_IDS if c not in special], {}, "every other card: no further field"))
    out["use_card"] = variants("use_card", COMMANDS["use_card"][0], "card", cases)
    return out


_counts = mapping(integer(0), "by resource")
FACE_VIEW = obj({"edges": string(), "icons": array(RESOURCE), "huts": integer(0)})

PLAYER = obj(
    {
        "seat": integer(0),
        "ad_total": integer(0),
        "ad_available": integer(0),
        "track": array(any_value()),
        "wonders": array(mapping(any_value())),
        "supply_citizens": integer(0),
        "supply_ships": integer(0),
        "reproduced": boolean(),
        "market_used": boolean(),
        "port_used": boolean(),
        "personal_explore_used": boolean(),
        "taxed": integer(0, description="tax actions taken this round"),
        "passed": boolean(),
        "contrib": integer(),
        "cards_owned": integer(0),
        "money": integer(0, description="private unless no_secrets or the game is over"),
        "cubes": _counts,
        "explorer_tokens": integer(0),
        "objectives": array(string(), "own objectives (private)"),
        "dealt_objectives": array(string()),
        "hand": array(obj({"tile": string(), "faces": mapping(FACE_VIEW)}), "turn-0 hand (private)"),
        "cartographer_seen": array(string()),
        "cartographer_tiles": array(
            obj({"tile": string(), "up": string(description="the face up"), "faces": mapping(FACE_VIEW)}),
            "tiles the cartographer showed (private)",
        ),
        "objectives_count": integer(0),
        "hand_count": integer(0),
        "bid_committed": boolean(),
        "bid": nullable(integer(0)),
    },
    required=["seat", "ad_total", "ad_available", "track", "cards_owned"],
    description="one player: public parts, plus the private ones for the seat itself",
)

_free = nullable(mapping(any_value()))

VIEW = obj(
    {
        "started": boolean(),
        "seats": integer(2, 5),
        "options": mapping(any_value(), "the game's options"),
        "phase": string(),
        "round": integer(0),
        "rounds_completed": integer(0),
        "order": array(integer(0)),
        "prompt": nullable(string(description="the kind of decision awaited")),
        "to_act": array(integer(0)),
        "rebellion": integer(),
        "population": integer(0),
        "surplus": integer(),
        "bank": _counts,
        "domestic_market": _counts,
        "export_market": _counts,
        "explorer_stacks": array(integer(0)),
        "building_pool": mapping(integer(0)),
        "deck_size": integer(0),
        "deck_top_back": _free,
        "market": array(
            nullable(
                obj(
                    {
                        "slot": integer(0),
                        "card": CARD,
                        "name": string(),
                        "orientation": integer(0, 3),
                        "price": nullable(integer(0)),
                    }
                )
            )
        ),
        "evolution_discard": array(CARD),
        "trends": array(string()),
        "table_objectives": array(string()),
        "tiles": array(
            obj(
                {
                    "tile": string(),
                    "q": integer(),
                    "r": integer(),
                    "face": FACE,
                    "rot": integer(0, 5),
                    "edges": string(),
                    "has_land": boolean(),
                    "has_sea": boolean(),
                    "icons": array(RESOURCE),
                    "occupants": array(nullable(string())),
                    "huts": integer(0),
                    "controller": nullable(integer(0)),
                    "buildings": mapping(nullable(string()), "building type -> the unit in it (null: empty)"),
                }
            )
        ),
        "units": array(
            obj(
                {
                    "unit": UNIT,
                    "owner": integer(0),
                    "kind": string("citizen", "ship"),
                    "tile": string(),
                    "place": string(),
                    "lying": boolean(),
                    "engaged": boolean(),
                    "temp_housed": boolean(),
                }
            )
        ),
        "exploration_stack_size": integer(0),
        "exploration_top_face": nullable(FACE_VIEW),
        "tile_discard": array(string()),
        "set_aside_count": integer(0),
        "tax_slots_used": integer(0),
        "shared_explores_used": integer(0),
        "cards_used_this_round": array(string()),
        "players": array(PLAYER),
        "crisis": _free,
        "turn": _free,
        "step": _free,
        "offer": _free,
        "discard_pending": nullable(integer(0)),
        "auction": obj(
            {
                "bidders": array(integer(0)),
                "attempt": integer(0),
                "picker": nullable(integer(0)),
                "picked": array(integer(0)),
            }
        ),
        "end": _free,
        "deck": array(CARD, "only once the game is over"),
        "exploration_stack": array(array(string()), "only once the game is over"),
        "set_aside": array(array(string()), "only once the game is over"),
    },
    required=["started"],
    description="Archipelago as a seat (or a spectator) sees it. Before set-up only `started` is present.",
)
