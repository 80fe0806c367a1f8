"""The published catalogue says what the rules say: the components and codes of docs/rules/archipelago.md
(§2 components and constants, §3 data model, §4 setup, §5 phases, §8 actions, §10.4 cards, §11 trading,
§13 objectives and trends, §14 tiles), transcribed here by hand, not computed from the engine's data."""

from __future__ import annotations

import pytest

from domain.archipelago import RULES

TILE_EFFECT = (
    "A double-sided hex tile: placed face up next to your units when explored; its icons give resources, its huts "
    "room for citizens."
)


@pytest.fixture(scope="module")
def catalogue():
    return RULES.catalogue()


def _rows(catalogue, kind):
    return {c["id"]: c for c in catalogue["components"] if c["kind"] == kind}


def test_components_are_section_2_2(catalogue):
    """§2.2: 40 evolution cards (20 characters, 16 progress, 4 wonders), 24 exploration tiles and 3 start tiles,
    30 objectives (10 per length), 12 trends; §3.5/§8.8: four building types and the ship."""
    counts = {}
    for c in catalogue["components"]:
        counts[c["kind"]] = counts.get(c["kind"], 0) + 1
    assert counts == {
        "character": 20,
        "progress": 16,
        "wonder": 4,
        "exploration_tile": 24,
        "start_tile": 3,
        "objective": 30,
        "trend": 12,
        "building": 5,
    }


def test_exploration_tiles_have_two_faces_with_huts_for_the_missing_icons(catalogue):
    """§3.2: a physical tile has faces A and B; huts = 5 - icons; every exploration face has land."""
    tiles = _rows(catalogue, "exploration_tile")
    assert tiles["E01"] == {
        "id": "E01",
        "kind": "exploration_tile",
        "name": "Exploration tile E01",
        "cost": None,
        "points": None,
        "count": 1,
        "data": {
            "faces": {
                "A": {"edges": "SSSSSS", "icons": ["FISH", "FRUIT"], "huts": 3, "has_land": True},
                "B": {"edges": "SSSSPP", "icons": ["FISH", "CATTLE", "WOOD"], "huts": 2, "has_land": True},
            }
        },
        "effect": TILE_EFFECT,
    }
    for tile in tiles.values():
        assert tile["kind"] == "exploration_tile" and tile["effect"] == TILE_EFFECT
        assert set(tile["data"]["faces"]) == {"A", "B"}
        for face in tile["data"]["faces"].values():
            assert face["huts"] == 5 - len(face["icons"]) and face["has_land"]


def test_start_tiles_are_section_14_1(catalogue):
    """§3.2/§14.1: the ocean start is all sea without land; desert and volcano have land; no icons, no huts."""
    starts = _rows(catalogue, "start_tile")
    assert {k: (s["name"], s["data"]["faces"]["A"]["has_land"]) for k, s in starts.items()} == {
        "OCEAN": ("Ocean start tile", False),
        "DESERT": ("Desert start tile", True),
        "VOLCANO": ("Volcano start tile", True),
    }
    assert starts["OCEAN"]["data"]["faces"]["A"] == {"edges": "SSSSSS", "icons": [], "huts": 0, "has_land": False}
    assert {s["effect"] for s in starts.values()} == {"The tile the game starts from (option `start`)."}


def test_buildings_are_section_8_8(catalogue):
    """§8.8 costs; §3.5 pools of 13 market/port and 13 town/temple tokens (ships come from the supply)."""
    b = _rows(catalogue, "building")
    assert {k: (x["name"], x["data"]["cubes"], x["cost"], x["data"]["pool"], x["count"]) for k, x in b.items()} == {
        "SHIP": ("Ship", {"WOOD": 1}, 1, None, None),
        "TOWN": ("Town", {"STONE": 1, "WOOD": 1}, 2, "TOWN_TEMPLE", 13),
        "MARKET": ("Market", {"FRUIT": 1, "CATTLE": 1}, 0, "MARKET_PORT", 13),
        "PORT": ("Port", {"STONE": 1, "FISH": 1}, 2, "MARKET_PORT", 13),
        "TEMPLE": ("Temple", {"STONE": 2}, 1, "TOWN_TEMPLE", 13),
    }
    assert b["TOWN"]["effect"] == "Controls its tile; worth +2 coins in tax. Costs 1 stone, 1 wood and 2 coins."


def test_cards_are_section_10_4(catalogue):
    """§10.4: kind, use, prices p0/p1/p2 (cost = the minimal price p2), shareability, VP, wonder costs; the backs'
    colours (28 yellow, 6 red, 6 beige) and the penalty divisors in force (data module: yellow k + 2, red k + 4)."""
    cards = {c["id"]: c for c in catalogue["components"] if c["kind"] in ("character", "progress", "wonder")}
    researcher = cards["C01"]
    assert (researcher["name"], researcher["kind"], researcher["cost"], researcher["points"]) == (
        "Researcher",
        "character",
        3,
        0,
    )
    assert researcher["data"] == {
        "type": "character",
        "use": "AD",
        "prices_by_orientation": [6, 4, 3],
        "shareable": False,
        "back": {"color": "YELLOW", "domestic": ["FISH", 5, 7], "export": [["WOOD", 1]], "event": None},
    }
    assert researcher["effect"].endswith("Pre: the deck is not empty. (costs an action disc)")
    palace = cards["W03"]  # ROYAL PALACE: 6/5/4, 4 VP, 2 STONE + 2 IRON + 1 WOOD + 2ƒ
    assert (palace["kind"], palace["cost"], palace["points"]) == ("wonder", 4, 4)
    assert palace["data"]["type"] == "progress" and palace["data"]["use"] == "WONDER"
    assert palace["data"]["wonder_cost"] == {"cubes": {"STONE": 2, "IRON": 2, "WOOD": 1}, "money": 2}
    assert palace["data"]["back"] == {
        "color": "RED",
        "domestic": ["FISH", 4, 7],
        "export": [["WOOD", 1], ["ANY", 1]],
        "event": None,
    }
    assert cards["C06"]["data"]["back"] == {"color": "BEIGE", "domestic": None, "export": [], "event": "FAIR_WEATHER"}
    assert cards["C07"]["data"]["use"] == "WITH:TAX" and cards["C07"]["effect"].endswith("(used with the tax action)")
    assert cards["C03"]["data"]["shareable"] and not cards["C01"]["data"]["shareable"]
    colours = [c["data"]["back"]["color"] for c in cards.values()]
    assert (colours.count("YELLOW"), colours.count("RED"), colours.count("BEIGE")) == (28, 6, 6)
    for c in cards.values():
        back = c["data"]["back"]
        if back["domestic"]:
            per_cube, divisor = back["domestic"][1:]
            assert divisor == ({5: 7, 6: 8}[per_cube] if back["color"] == "YELLOW" else 7), c["id"]


def test_objectives_are_section_13_3(catalogue):
    """§13: 10 cards per length, each set with one Separatist (no end condition) and one Pacifist; POP and PEACE
    take a percentage, other arguments a count (possibly k·N + c)."""
    obj = _rows(catalogue, "objective")
    for length in ("short", "medium", "long"):
        cards = [o for o in obj.values() if o["data"]["length"] == length]
        assert len(cards) == 10
        assert sorted(str(o["data"]["special"]) for o in cards) == ["None"] * 8 + ["PACIFIST", "SEPARATIST"]
    assert obj["S04"]["data"] == {
        "length": "short",
        "condition": "POP",
        "argument": "50%",
        "criterion": "CITIZENS",
        "special": None,
    }
    assert obj["S04"]["name"] == "Short objective S04"
    assert obj["S04"]["effect"] == (
        "End condition POP(50%): POP ≥ ⌈p × CIT_TOTAL / 100⌉. Scoring: CITIZENS (own citizens on the map, any "
        "posture (sacrificed ones are not on the map))."
    )
    assert obj["S10"]["data"]["argument"] == "40%" and obj["S10"]["effect"].endswith(
        "Pacifist: bonus VP if rebellion stays low."
    )
    assert obj["S09"]["data"]["condition"] is None and obj["S09"]["effect"] == (
        "Separatist: wins if the colony becomes independent. Scoring: SHIPS (own ships on the map)."
    )
    assert obj["M02"]["data"]["argument"] == "1N+10"
    assert obj["S03"]["data"]["argument"] == "2N"
    assert obj["S01"]["data"]["argument"] == "1"


def test_trends_are_section_13_4(catalogue):
    trends = _rows(catalogue, "trend")
    assert trends["T07"]["name"] == "Humanism" and trends["T07"]["data"] == {"criterion": "CONTRIB"}
    assert trends["T01"]["effect"] == "Public scoring criterion: RES:FRUIT (cubes of fruit held)."


def test_board_constants_are_sections_2_3_and_3_6(catalogue):
    board = catalogue["board"]
    assert board["hex_directions"] == [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]]  # §3.1
    assert board["coordinates"].startswith("axial hex coordinates {q, r}; the start tile is at (0, 0)")
    assert board["domestic_prices"]["IRON"] == [6, 5, 4, 4, 3, 2]  # §3.6
    assert board["export_prices"]["IRON"] == [9, 8, 7, 6, 5]
    assert board["cube_totals"] == {"FRUIT": 15, "WOOD": 15, "CATTLE": 15, "STONE": 12, "FISH": 15, "IRON": 10}
    assert board["tax"] == {"per_citizen": 1, "per_ship": 1, "per_town": 2, "per_temple": 2}  # §8.4
    assert board["rank_vp"] == {"2": [3, 1], "3": [3, 2, 1], "4": [3, 2, 1], "5": [3, 2, 1]}  # §2.3
    assert board["limits"] == {  # §2.3
        "start_money": 10,
        "start_action_discs": 3,
        "max_action_discs": 5,
        "citizens_per_player": 10,
        "ships_per_player": 4,
        "citizens_per_tile": 3,
        "market_slots": 5,
        "track_size": 5,
        "domestic_cap": 6,
        "export_cap": 5,
        "surplus_max": 20,
    }


def test_codes_name_the_values_of_the_rules(catalogue):
    codes = catalogue["codes"]
    assert codes["resource"] == {r: r.lower() for r in ("FRUIT", "WOOD", "CATTLE", "STONE", "FISH", "IRON")}
    assert codes["edge"] == {"S": "sea", "P": "plain", "M": "mountain"}  # §3.2
    assert codes["face"] == {"A": "face A", "B": "face B"}
    assert codes["market"] == {"DOM": "the domestic market", "EXP": "the export market"}  # §3.6
    assert codes["op"] == {"BUY": "buy a cube from the market", "SELL": "sell a cube to the market"}
    assert set(codes["source"]) == {"MARKET", "CUBE", "TOKEN"}  # §6.2, §6.3
    assert "market" in codes["source"]["MARKET"]
    assert codes["source"]["CUBE"] == "one of your cubes"
    assert codes["source"]["TOKEN"] == "an explorer token instead of a cube"
    assert codes["slot"] == {"PERSONAL": "your personal exploration", "SHARED": "a shared exploration slot"}  # §8.6
    assert codes["pick"] == {"TOP": "the top tile of the stack", "SECOND": "the second tile"}
    assert codes["side"] == {"GIVE": "what you give", "GET": "what you ask for"}  # §11
    assert codes["offer_item"] == {
        "MONEY_1": "1 coin",
        "MONEY_5": "5 coins",
        "CUBE": "a resource cube",
        "TOKEN": "an explorer token",
        "CARD": "an evolution card",
        "GRANT": "a permission",
    }
    assert codes["grant"] == {
        "HARVEST_ON": "harvest on a tile",
        "BUILD_ON": "build on a tile",
        "ENTER": "enter a building",
    }
    assert codes["back_color"] == {"YELLOW": "domestic demand", "RED": "immediate crisis", "BEIGE": "a beige event"}
    assert codes["card_use"] == {  # §10.2
        "AD": "costs an action disc",
        "FREE": "free, once per round",
        "PASSIVE": "always in effect",
        "WONDER": "a wonder: build it with build_wonder",
        "WITH:<ACTION>": "used with that action",
    }
    assert set(codes["beige_event"]) == {  # §6.4
        "FAIR_WEATHER",
        "PEACE_TREATY",
        "RELIGIOUS_HOLIDAY",
        "BUMPER_HARVEST",
        "IMMIGRANTS",
        "TRADE_WINDS",
    }
    assert set(codes["metric"]) >= {"PORTS", "BUILDINGS", "CITIZENS", "CONTRIB", "REGIONS"}  # §13.1
    assert set(codes["end_condition"]) == {  # §13.2
        "BANK_EMPTY",
        "TILES",
        "STACKS",
        "FLEET",
        "POP",
        "DECK",
        "BUILDINGS",
        "ROUNDS",
        "EXPORT",
        "WONDERS",
        "PEACE",
    }
    # §12.4 (engine values 14 / 18 / 22)
    assert codes["length"] == {
        "short": "short game (round cap 14)",
        "medium": "medium game (round cap 18)",
        "long": "long game (round cap 22)",
    }
    assert codes["phase"] == {  # §1, §4, §5
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
    }
    assert codes["prompt"]["exp_supply"] == "accepts export_supply, supply_done"  # §6.3
    assert codes["prompt"]["step_research"] == "accepts research_pick"
    assert codes["command_field"] == {
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
    }
    assert codes["id_patterns"] == {
        r"c\d+-\d+": "a citizen: c<seat>-<n>",
        r"s\d+-\d+": "a ship: s<seat>-<n>",
        r"(E\d\d|OCEAN|DESERT|VOLCANO):(TOWN|TEMPLE|MARKET|PORT)": "a building: <tile>:<type>",
    }
