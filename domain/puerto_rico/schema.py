"""Puerto Rico's published schemas: the commands (built from the table ``decide.parse`` reads) and the view."""

from __future__ import annotations

from typing import Any

from domain.contract import (
    CommandTable,
    array,
    boolean,
    integer,
    mapping,
    nullable,
    obj,
    string,
)

from .data import GOODS, TILE_NAMES, role_cards
from .decide import _SPECS

ROLE_CARDS = role_cards(2)

SUMMARIES = {
    "select_role": "pick a role card from the row (with the doubloons on it)",
    "pass": "decline the current choice",
    "draw_from_hacienda": "settler: draw the top face-down plantation with an occupied hacienda",
    "take_plantation": "settler: take a face-up plantation",
    "take_quarry": "settler: take a quarry (the settler, or an occupied construction hut)",
    "take_colonist": "take the offered colonist (mayor privilege, hospice or university)",
    "place_colonist": "mayor: place a colonist from San Juan on a plantation kind, quarry or building",
    "build": "builder: buy a building",
    "take_good": "craftsman privilege: take one more barrel of a kind you produced",
    "sell": "trader: sell one barrel to the trading house",
    "load": "captain: load every barrel of a kind you can onto a cargo ship (by index)",
    "ship_with_wharf": "captain: ship every barrel of a kind with your wharf",
    "store_in_warehouse": "captain storage: keep every barrel of a kind in a warehouse",
    "keep_barrel": "captain storage: the one barrel you keep on your windrose",
}

_FIELD_DOC = {
    "role": "role card id",
    "plantation": "plantation kind",
    "target": "a plantation kind, quarry, or building id with an empty circle",
    "building": "building id (see the catalogue)",
    "good": "good kind",
    "ship": "cargo ship index (0 = smallest)",
}


def _field(name: str, table: Any) -> dict[str, Any]:
    if table is None:
        return string(*ROLE_CARDS, description=_FIELD_DOC[name])
    if table == "int":
        return integer(0, description=_FIELD_DOC[name])
    return string(*table, description=_FIELD_DOC[name])


COMMANDS: CommandTable = {
    ctype: (SUMMARIES[ctype], {name: (_field(name, table), True) for name, table in fields})
    for ctype, fields in _SPECS.items()
}

_goods = mapping(integer(0), "barrels by good kind")
_plantations = mapping(integer(0), "plantation tiles by kind")

PLAYER = obj(
    {
        "seat": integer(0),
        "doubloons": integer(0),
        "vp_chips": nullable(integer(0, description="VP chips (null when hidden by hide_vp_chips)")),
        "vp_owed_beyond_supply": nullable(integer(0, description="VP earned after the chip supply ran out")),
        "goods": _goods,
        "island": mapping(
            obj({"tiles": integer(0), "occupied": integer(0)}),
            "island tiles by kind (plantation kinds and quarry) and how many are occupied",
        ),
        "island_spaces_used": integer(0, 12),
        "buildings": mapping(
            obj({"colonists": integer(0), "circles": integer(1)}),
            "owned buildings by id, with colonists on them and their circles",
        ),
        "city_spaces_used": integer(0, 12),
        "san_juan": integer(0, description="colonists waiting in San Juan"),
        "colonists": integer(0, description="colonists owned in total"),
    },
    description="one player's board (public)",
)

VIEW = obj(
    {
        "started": boolean(),
        "variant": string("standard", "official_2p"),
        "seats": integer(2, 5),
        "round": integer(0),
        "governor": integer(0),
        "phase": string(description="the role being carried out, pick, round_end or over"),
        "step": string(description="the decision or automatic step at the cursor"),
        "role": nullable(string(description="the role card in play")),
        "picker": nullable(integer(0, description="the seat that picked the role in play")),
        "to_act": array(integer(0)),
        "roles": array(
            obj({"role": string(*ROLE_CARDS), "doubloons": integer(0), "taken": boolean()}),
            "the role row: doubloons lying on each card and whether it was taken this round",
        ),
        "players": array(PLAYER),
        "colonist_supply": integer(0),
        "colonist_ship": integer(0),
        "vp_supply": integer(0),
        "goods_supply": _goods,
        "building_supply": mapping(integer(0), "buildings left by id"),
        "quarries": integer(0),
        "face_up_plantations": _plantations,
        "discarded_plantations": _plantations,
        "face_down_stack_size": integer(0),
        "cargo_ships": array(obj({"capacity": integer(1), "good": nullable(string(*GOODS)), "load": integer(0)})),
        "trading_house": array(string(*GOODS)),
        "storage_protected": array(string(*GOODS), "kinds kept whole by warehouses this captain phase"),
        "wharf_used": array(boolean(), "per seat: whether its wharf was used this captain phase"),
        "end_triggers": array(string(), "what triggered the end of the game"),
        "game_over": boolean(),
        "aborted": boolean(),
        "face_down_stack": array(string(*TILE_NAMES), "top first; only once the game is over"),
        "scores": array(mapping(integer(), "score parts"), "score breakdown per seat; only once the game is over"),
    },
    required=["started"],
    description="Puerto Rico as a seat (or a spectator) sees it. Before set-up only `started` is present.",
)
