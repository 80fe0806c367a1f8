"""The published catalogue says what the rules say: the tables of docs/rules/murano.md (§1 components, §2.1
islands, §2.2 grid legend, §3 tile mixes, §4 setup, §6.5 decisions, §10 sale prices, §13.2 symbols), transcribed
here by hand, not computed from the engine's data."""

from __future__ import annotations

import pytest

import domain.murano.state as state_module
from domain.murano import RULES


@pytest.fixture(scope="module")
def catalogue():
    return RULES.catalogue()


def _rows(catalogue, kind):
    return {c["id"]: c for c in catalogue["components"] if c["kind"] == kind}


def test_building_tiles_are_section_1_and_7(catalogue):
    """§1: 12 glass factories, 12 special building tiles, 42 streets; §7: a factory costs 1, a special building 2;
    §8: a factory scores 1 VP, a special building none."""
    tiles = _rows(catalogue, "building_tile")
    assert {k: (t["name"], t["cost"], t["points"], t["count"]) for k, t in tiles.items()} == {
        "glass_factory": ("Glass factory", 1, 1, 12),
        "special_building": ("Special building", 2, 0, 12),
        "street": ("Street tile", None, None, 42),
    }
    shops = _rows(catalogue, "shop")  # §3.2: 4 of each colour; §7: top price 2; §8: +2 VP
    assert {k: (s["name"], s["cost"], s["points"], s["count"]) for k, s in shops.items()} == {
        "red": ("Red shop", 2, 2, 4),
        "grey": ("Grey shop", 2, 2, 4),
        "blue": ("Blue shop", 2, 2, 4),
    }
    palaces = _rows(catalogue, "palace")  # §3.3: four each of 1, 2, 3 crests; §8: +3 VP
    assert {k: (p["data"]["crests"], p["points"], p["count"]) for k, p in palaces.items()} == {
        "1": (1, 3, 4),
        "2": (2, 3, 4),
        "3": (3, 3, 4),
    }


def test_start_and_sale_are_sections_4_and_10(catalogue):
    board = catalogue["board"]
    # §4 steps 3 and 7: 5 gold, score marker on 5, 5 personal gondoliers, 2 in the general supply
    assert board["start"] == {"gold": 5, "vp": 5, "personal_gondoliers": 5, "general_gondoliers": 2}
    assert board["sale_gold"] == {"1": 5, "2": 12, "3": 20}  # §10: SALE = {1: 5, 2: 12, 3: 20}
    assert (board["ships"], board["red_ship"]) == (8, 0)  # §2.5: 8 ships, ship 0 is the red one


def test_codes_are_sections_2_and_6_5(catalogue):
    codes = catalogue["codes"]
    assert codes["island"] == {  # §2.1: display names
        "SACCA_MATTIA": "Sacca Mattia",
        "SAN_DONATO": "San Donato",
        "SAN_PIETRO_MARTIRE": "San Pietro Martire",
        "NAVAGERO": "Navagero",
        "SANTO_STEFANO": "Santo Stefano",
        "SACCA_SERENELLA": "Sacca Serenella",
        "SG_SM": "S. Giacomo e S. Maffio",
    }
    # §2.2 legend: S = paved (street) space, B = brown (building) space, . = not a space (water)
    assert codes["grid_cell"] == {"S": "paved space (streets)", "B": "brown space (buildings)", ".": "water"}
    assert codes["building_kind"] == {
        "glass_factory": "glass factory",
        "shop": "shop (face: customer colour)",
        "palace": "palace (face: crests)",
        "special_building": "special building",
        "street": "street tile (face: ST_* id)",
    }
    # §6.5: every decision point the state can name is explained, and nothing else
    decisions = {v for k, v in vars(state_module).items() if k.isupper() and isinstance(v, str) and v == k}
    assert set(codes["decision"]) == decisions
    assert all(isinstance(text, str) and text.strip() for text in codes["decision"].values())
    # §13.2: every count symbol of the formula language is explained
    for symbol in ("GF", "SH", "PA", "CR", "SB", "BLD", "OWN", "OPP", "ST", "CU", "FREE_S", "FREE_B", "TYPES"):
        assert codes["formula_symbol"][symbol], symbol
    assert set(codes["command_field"]) == {"ship", "to", "face", "factories", "beads", "shops"}
    assert "1-3" in codes["command_field"]["beads"]  # §10: 1, 2 or 3 beads


def test_both_geometries_list_their_islands(catalogue):
    """§2.1: 6 buildable islands with 4 players, 5 with 2-3 players (Sacca Serenella is only a card tray)."""
    board = catalogue["board"]
    five = ["SACCA_MATTIA", "SAN_DONATO", "SAN_PIETRO_MARTIRE", "NAVAGERO", "SANTO_STEFANO"]
    assert board["geometry_2_3_players"]["islands"] == five
    assert board["geometry_4_players"]["islands"] == [*five, "SACCA_SERENELLA"]
