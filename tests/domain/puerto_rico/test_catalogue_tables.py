"""The published catalogue says what the rules say: tables 1.1 to 1.4 of docs/rules/puerto_rico.md,
transcribed here by hand (not computed from the engine's data), and one description per step and phase."""

from __future__ import annotations

import pytest

from domain.puerto_rico import RULES

# Table 1.2: name -> (cost, VP, cap, copies, size, category)
BUILDINGS = {
    "small_indigo_plant": (1, 1, 1, 4, 1, "small_production"),
    "small_sugar_mill": (2, 1, 1, 4, 1, "small_production"),
    "indigo_plant": (3, 2, 3, 3, 1, "large_production"),
    "sugar_mill": (4, 2, 3, 3, 1, "large_production"),
    "tobacco_storage": (5, 3, 3, 3, 1, "large_production"),
    "coffee_roaster": (6, 3, 2, 3, 1, "large_production"),
    "small_market": (1, 1, 1, 2, 1, "violet"),
    "hacienda": (2, 1, 1, 2, 1, "violet"),
    "construction_hut": (2, 1, 1, 2, 1, "violet"),
    "small_warehouse": (3, 1, 1, 2, 1, "violet"),
    "hospice": (4, 2, 1, 2, 1, "violet"),
    "office": (5, 2, 1, 2, 1, "violet"),
    "large_market": (5, 2, 1, 2, 1, "violet"),
    "large_warehouse": (6, 2, 1, 2, 1, "violet"),
    "factory": (7, 3, 1, 2, 1, "violet"),
    "university": (8, 3, 1, 2, 1, "violet"),
    "harbor": (8, 3, 1, 2, 1, "violet"),
    "wharf": (9, 3, 1, 2, 1, "violet"),
    "guild_hall": (10, 4, 1, 1, 2, "large"),
    "residence": (10, 4, 1, 1, 2, "large"),
    "fortress": (10, 4, 1, 1, 2, "large"),
    "customs_house": (10, 4, 1, 1, 2, "large"),
    "city_hall": (10, 4, 1, 1, 2, "large"),
}

# Table 1.1: players -> (doubloons, starting plantations, VP chips, colonists, ship colonists, cargo ships, prospectors)
SETUP = {
    3: (2, ["indigo", "indigo", "corn"], 75, 55, 3, [4, 5, 6], 0),
    4: (3, ["indigo", "indigo", "corn", "corn"], 100, 75, 4, [5, 6, 7], 1),
    5: (4, ["indigo", "indigo", "indigo", "corn", "corn"], 122, 95, 5, [6, 7, 8], 2),
}
PLANTATIONS = {"corn": 10, "indigo": 12, "sugar": 11, "tobacco": 9, "coffee": 8}  # table 1.3
BARRELS = {"corn": 10, "indigo": 11, "sugar": 11, "tobacco": 9, "coffee": 9}  # table 1.4
PRICES = {"corn": 0, "indigo": 1, "sugar": 2, "tobacco": 3, "coffee": 4}


@pytest.fixture(scope="module")
def catalogue():
    return RULES.catalogue()


def test_buildings_are_table_1_2(catalogue):
    rows = {c["id"]: c for c in catalogue["components"] if c["kind"] == "building"}
    assert list(rows) == list(BUILDINGS)  # the canonical order of §11
    for name, (cost, vp, cap, copies, size, category) in BUILDINGS.items():
        c = rows[name]
        assert (c["cost"], c["points"], c["count"]) == (cost, vp, copies), name
        assert c["data"]["circles"] == cap and c["data"]["city_spaces"] == size, name
        assert c["data"]["column"] == vp and c["data"]["category"] == category, name
        assert c["name"] == catalogue["codes"]["building"][name] == name.replace("_", " ").capitalize()


def test_setup_is_table_1_1(catalogue):
    by_players = catalogue["board"]["setup_by_players"]
    for n, (doubloons, starting, vp, colonists, ship, ships, prospectors) in SETUP.items():
        t = by_players[str(n)]
        assert t["doubloons"] == doubloons and t["starting_plantations"] == starting
        assert (t["vp_chips"], t["colonists"], t["colonist_ship"]) == (vp, colonists, ship)
        assert t["cargo_ships"] == ships and t["prospectors"] == prospectors
        assert t["plantations"] == PLANTATIONS and t["quarries"] == 8 and t["goods"] == BARRELS
        assert t["building_copies"] == {name: row[3] for name, row in BUILDINGS.items()}
        assert t["roles_picked_per_round"] == n and t["minimum_colonist_refill"] == n


def test_board_and_goods(catalogue):
    board = catalogue["board"]
    assert (board["island_spaces"], board["city_spaces"], board["trading_house_spaces"]) == (12, 12, 4)
    assert board["large_building_city_spaces"] == 2
    assert board["factory_pay"] == {"2": 1, "3": 2, "4": 3, "5": 5}  # §4.4: 0 for 0 or 1 kind
    assert catalogue["codes"]["good"] == {g: f"{g} (price {p})" for g, p in PRICES.items()}


def test_roles_and_prospector_cards(catalogue):
    roles = [c for c in catalogue["components"] if c["kind"] == "role"]
    assert [r["id"] for r in roles] == [
        "settler",
        "mayor",
        "builder",
        "craftsman",
        "trader",
        "captain",
        "prospector",
        "prospector_2",
    ]
    names = {r["id"]: r["name"] for r in roles}
    assert names["prospector"] == "Prospector" and names["prospector_2"] == "Prospector (second card)"
    for r in roles:
        assert r["data"]["role"] == r["id"].removesuffix("_2")
        assert (r["data"]["players"] == "all") == (r["data"]["role"] != "prospector")
        assert r["effect"] == catalogue["codes"]["role"][r["id"]]


def test_every_step_and_phase_has_a_description_naming_its_role(catalogue):
    """§5: the step within a turn belongs to a role (settler: hacienda/take/hospice, and so on)."""
    steps = catalogue["codes"]["step"]
    role_of = {
        "hacienda": "settler",
        "take": "settler",
        "hospice": "settler",
        "place": "mayor",
        "build": "builder",
        "university": "builder",
        "sell": "trader",
        "load": "captain",
        "warehouse": "captain",
        "windrose": "captain",
    }
    for step, role in role_of.items():
        assert steps[step].startswith(f"{role}: "), step
    assert "picks a role" in steps["pick"] and "privilege" in steps["privilege"]
    automatic = {k for k, v in steps.items() if v == "automatic: the engine carries it out"}
    assert automatic and not automatic & set(role_of)
    phases = catalogue["codes"]["phase"]
    assert phases == {
        "setup": "being set up",
        "pick": "a seat picks a role",
        **{role: f"the {role} role is carried out" for role in ("settler", "mayor", "builder", "craftsman")},
        **{role: f"the {role} role is carried out" for role in ("trader", "captain")},
        "round_end": "the round ends",
        "over": "the game is over",
    }
