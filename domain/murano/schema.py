"""Murano's published schemas: the command table (the types ``decide.HANDLERS`` dispatches on) and the view."""

from __future__ import annotations

from domain.contract import (
    CommandTable,
    array,
    boolean,
    integer,
    mapping,
    nullable,
    obj,
    one_of,
    string,
)
from domain.murano import data
from domain.murano.state import BUILDING_KINDS

SPACE = string(pattern=r"^[A-Z_]+:r\d+c\d+$", description="a space id, ISLAND:r<row>c<column>")
ISLAND = string(*data.ISLANDS, description="island id")
SHIP = integer(0, data.SHIPS - 1, description="ship id (0 is the red ship)")
RING_SPACE = integer(0, data.RING_SIZE - 1, description="action ring space")
FACE = one_of(string(*data.SHOP_COUNTS), integer(1, 3), description="shop colour or palace crests")
CHARACTER = string(*data.CHARACTERS, description="character card id")
BEADS = {
    **obj({c: integer(0, 3) for c in data.BEAD_COLOURS}, required=[], description="beads sold, by colour"),
    "minProperties": 1,
}

COMMANDS: CommandTable = {
    "pass": (
        "move a ship one space for free (no action) and take the pass gold",
        {"ship": (SHIP, True), "to": (RING_SPACE, True)},
    ),
    "move_ship": (
        "move a ship forward (the first move of a turn is free)",
        {"ship": (SHIP, True), "to": (RING_SPACE, True)},
    ),
    "act": ("take the action of the space the last moved ship stands on", {}),
    "choose_buy_mode": ("buy the top tile or choose from the stack", {"mode": (string("top", "choose"), True)}),
    "pick_tile": ("choose a face from the stack", {"face": (FACE, True)}),
    "keep_tile": ("keep the tile bought in your final turn in hand", {}),
    "place_tile": ("place the tile bought in your final turn", {"space": (SPACE, True)}),
    "draw_street": ("draw a street tile to lay", {}),
    "place_street": ("lay the drawn street tile", {"space": (SPACE, True)}),
    "build_building": (
        "build a tile from your hand",
        {"kind": (string(*BUILDING_KINDS), True), "face": (nullable(FACE), True), "space": (SPACE, True)},
    ),
    "stop_building": ("end the build action", {}),
    "take_special_card": (
        "keep one of the drawn special-building cards",
        {"card": (string(*data.SPECIAL_CARDS), True)},
    ),
    "keep_character": ("keep one of the drawn characters and pay for it", {"card": (CHARACTER, True)}),
    "decline_characters": ("keep none of the drawn characters", {}),
    "seat_gondolier": (
        "seat a gondolier on a gondola",
        {"island": (ISLAND, True), "colour": (string(*data.PLAYER_COLOURS), True)},
    ),
    "fire_gondolier": ("fire a gondolier for gold", {}),
    "hire_gondolier": ("hire a gondolier", {}),
    "collect_income": (
        "collect income on an island from the listed shops",
        {"island": (ISLAND, True), "shops": (array(SPACE), True)},
    ),
    "produce": ("use this many glass factories", {"factories": (integer(0), True)}),
    "sell_beads": ("sell beads", {"beads": (BEADS, True)}),
    "skip_sale": ("sell nothing", {}),
    "assign_character": (
        "assign a character card to an island at final scoring",
        {"card": (CHARACTER, True), "island": (ISLAND, True)},
    ),
    "stop_assigning": ("stop assigning characters", {}),
}

TILE = obj({"kind": string(*BUILDING_KINDS), "face": nullable(FACE)}, description="a tile; face null when hidden")

PLAYER = obj(
    {
        "seat": integer(0),
        "colour": string(*data.PLAYER_COLOURS),
        "gold": integer(0),
        "vp": integer(),
        "personal_gondoliers": integer(0),
        "general_supply_gondoliers": integer(0),
        "seated_gondoliers": integer(0),
        "beads": mapping(integer(0), "beads held by colour"),
        "hand_counts": mapping(integer(0), "tiles in hand by kind"),
        "hand": array(TILE, "tiles in hand; shop and palace faces only for their owner"),
        "character_count": integer(0),
        "characters": nullable(array(CHARACTER, "character cards (null when hidden)")),
        "special_cards": array(string(*data.SPECIAL_CARDS)),
        "special_cards_in_effect": array(string(*data.SPECIAL_CARDS)),
        "assigned_characters": array(obj({"card": CHARACTER, "island": string(), "vp": integer()})),
    },
    description="one player's public board (hidden parts null)",
)

KNOWN = array(obj({"position": integer(0), "card": string()}), "deck positions this seat has seen")

VIEW = obj(
    {
        "game": string("murano"),
        "seats": integer(2, 4),
        "viewer": nullable(integer(0)),
        "start_seat": integer(0),
        "turns_played": integer(0),
        "pending": obj(
            {
                "decision": string(description="the pending decision (see codes.decision)"),
                "seat": nullable(integer(0)),
                "moves_made": integer(0),
                "last_moved_ship": integer(0),
                "buy_kind": string(),
                "build_placements": integer(0),
                "build_spaces": array(SPACE),
                "street_face": string(),
                "free_tile": TILE,
                "drawn_count": integer(0),
                "drawn": nullable(array(string())),
                "price": integer(0),
                "stack": nullable(array(FACE)),
            },
            required=["decision", "seat"],
            description="the decision the game waits for",
        ),
        "ring": array(string(), "the action of each ring space"),
        "ships": array(RING_SPACE, "ring space of each ship"),
        "red_ship": integer(0),
        "players": array(PLAYER),
        "board": array(
            obj(
                {
                    "space": SPACE,
                    "kind": string(),
                    "face": nullable(one_of(string(), integer())),
                    "owner": nullable(integer(0)),
                }
            ),
            "tiles on the islands",
        ),
        "islands": array(ISLAND, "buildable islands in this game"),
        "gondolas": array(
            obj({"island": ISLAND, "colour": string(*data.PLAYER_COLOURS), "seat": integer(0)}), "seated gondoliers"
        ),
        "supplies": mapping(integer(0), "tiles and cards left by supply"),
        "bag": mapping(integer(0), "beads left in the bag by colour"),
        "removed": obj(
            {
                "streets": mapping(integer(0)),
                "shops": mapping(integer(0)),
                "glass_factories": integer(0),
                "special_buildings": integer(0),
                "palaces": integer(0),
                "characters": array(CHARACTER),
            },
            required=[],
            description="components removed at set-up in a 2-3 player game (empty with 4)",
        ),
        "end_triggered": boolean(),
        "trigger_seat": nullable(integer(0)),
        "empty_supplies": array(string()),
        "final_turns_left": array(integer(0)),
        "aborted": boolean(),
        "known_character_deck": KNOWN,
        "known_special_deck": KNOWN,
        "stacks": mapping(array(one_of(string(), integer())), "every stack in order; only once the game is over"),
        "removed_palace": nullable(integer(1, 3)),
        "removed_characters": array(CHARACTER),
    },
    required=["game", "seats", "viewer", "pending", "players", "board", "ships", "supplies", "removed"],
    description="Murano as a seat (or a spectator) sees it",
)
