"""Builder phase (§4.3): costs, privilege, quarry discounts, one of each kind, city space, university, trigger."""

from __future__ import annotations

from domain.puerto_rico import RULES
from domain.puerto_rico.data import BUILDING_INDEX, BUILDINGS
from domain.puerto_rico.queries import build_price
from tests.domain.puerto_rico.helpers import (
    ELEVEN_SMALL_BUILDINGS,
    act,
    give,
    legal,
    new_game,
    pick,
    play_passes,
    refused,
)

PASS = {"type": "pass"}


def build(name):
    return {"type": "build", "building": name}


def test_catalogue_of_23_buildings():
    assert len(BUILDINGS) == 23 and sum(b.copies for b in BUILDINGS) == 49
    assert sum(b.copies for b in BUILDINGS if b.kind.endswith("production")) == 20
    table = {b.name: (b.cost, b.vp, b.cap, b.copies, b.size) for b in BUILDINGS}
    assert table["coffee_roaster"] == (6, 3, 2, 3, 1)
    assert table["wharf"] == (9, 3, 1, 2, 1)
    assert table["city_hall"] == (10, 4, 1, 1, 2)
    assert table["small_indigo_plant"] == (1, 1, 1, 4, 1)


def test_quarry_discount_example_of_the_rules():
    """D19: the column (= printed VP) caps the quarry discount."""
    s = new_game(4)
    give(s, 1, tiles={"quarry": (3, 3)})
    s.picker = 0
    prices = [build_price(s, 1, BUILDING_INDEX[b]) for b in ("construction_hut", "office", "harbor", "city_hall")]
    assert prices == [1, 3, 5, 7]
    s.picker = 1
    prices = [build_price(s, 1, BUILDING_INDEX[b]) for b in ("construction_hut", "office", "harbor", "city_hall")]
    assert prices == [0, 2, 4, 6]


def test_unoccupied_quarries_give_no_discount_and_the_column_caps_it():
    s = new_game(4)
    give(s, 1, tiles={"quarry": (4, 1)})
    assert build_price(s, 1, BUILDING_INDEX["guild_hall"]) == 9
    give(s, 1, tiles={"quarry": (4, 4)})
    assert build_price(s, 1, BUILDING_INDEX["small_market"]) == 0  # column 1 caps the discount at 1
    assert build_price(s, 1, BUILDING_INDEX["guild_hall"]) == 6


def test_picker_builds_one_building_with_the_privilege_and_pays_the_bank():
    s = new_game(4)
    give(s, 0, doubloons=3)
    _, s = pick(s, "builder", 0)
    options = legal(s)
    assert build("indigo_plant") in options and build("sugar_mill") in options  # 4 - 1 = 3
    assert build("tobacco_storage") not in options and options[-1] == PASS
    refused(s, build("tobacco_storage"))
    events, s = act(s, build("sugar_mill"))
    assert events[0] == {"type": "BuildingBought", "seat": 0, "building": "sugar_mill", "price": 3}
    assert s.players[0].doubloons == 0 and s.players[0].buildings[BUILDING_INDEX["sugar_mill"]] == 0
    assert s.building_supply[BUILDING_INDEX["sugar_mill"]] == 2 and s.current == 1


def test_a_player_never_owns_two_of_a_kind_and_sold_out_kinds_are_gone():
    s = new_game(4)
    give(s, 0, doubloons=20, buildings={"small_market": 0})
    s.building_supply[BUILDING_INDEX["hacienda"]] = 0
    _, s = pick(s, "builder", 0)
    assert build("small_market") not in legal(s)  # D18
    assert build("hacienda") not in legal(s)
    refused(s, build("small_market"))


def test_large_building_needs_two_free_city_spaces():
    s = new_game(4)
    give(s, 0, doubloons=30, buildings={name: 0 for name in ELEVEN_SMALL_BUILDINGS})
    assert s.players[0].spaces == 11
    _, s = pick(s, "builder", 0)
    assert all(BUILDING_INDEX[c["building"]] < 18 for c in legal(s) if c["type"] == "build")  # D8
    assert build("office") in legal(s)


def test_filling_the_twelfth_city_space_triggers_the_end_and_the_round_finishes():
    s = new_game(4)
    give(s, 1, doubloons=30, buildings={name: 0 for name in ELEVEN_SMALL_BUILDINGS[:10]})  # ten city spaces
    _, s = pick(s, "builder", 0)
    _, s = act(s, PASS)
    events, s = act(s, build("fortress"))
    assert s.players[1].spaces == 12 and s.triggers == ["city"]
    s = play_passes(s)
    assert s.phase == "pick" and not RULES.is_over(s)  # the round is played to its end
    picks = 1
    while not RULES.is_over(s):
        assert s.phase == "pick" and s.round == 1
        _, s = act(s, {"type": "select_role", "role": ["prospector", "craftsman", "trader"][picks - 1]})
        picks += 1
        s = play_passes(s)
    assert picks == 4 and s.round == 1 and RULES.result(s).ranks


def test_university_mans_the_new_building_once_from_supply_then_ship():
    s = new_game(4)
    give(s, 0, doubloons=10, buildings={"university": 1})
    _, s = pick(s, "builder", 0)
    _, s = act(s, build("coffee_roaster"))
    assert s.step == "university" and legal(s) == [{"type": "take_colonist"}, PASS]
    events, s = act(s, {"type": "take_colonist"})
    assert events[0] == {
        "type": "UniversityColonistPlaced",
        "seat": 0,
        "building": "coffee_roaster",
        "source": "supply",
    }
    assert s.players[0].buildings[BUILDING_INDEX["coffee_roaster"]] == 1  # one colonist even with 2 circles
    s2 = new_game(4)
    give(s2, 0, doubloons=10, buildings={"university": 1})
    s2.colonist_ship += s2.colonist_supply
    s2.colonist_supply = 0
    _, s2 = pick(s2, "builder", 0)
    _, s2 = act(s2, build("small_market"))
    events, s2 = act(s2, {"type": "take_colonist"})
    assert events[0]["source"] == "ship"
    s3 = new_game(4)
    give(s3, 0, doubloons=10, buildings={"university": 1})
    s3.colonist_supply = s3.colonist_ship = 0
    _, s3 = pick(s3, "builder", 0)
    _, s3 = act(s3, build("small_market"))
    assert s3.current == 1  # no colonist anywhere: no decision


def test_building_the_university_itself_gives_no_colonist():
    s = new_game(4)
    give(s, 0, doubloons=10)
    _, s = pick(s, "builder", 0)
    _, s = act(s, build("university"))
    assert s.current == 1 and s.players[0].buildings[BUILDING_INDEX["university"]] == 0  # D35


def test_unoccupied_university_does_nothing_and_a_pass_earns_nothing():
    s = new_game(4)
    give(s, 0, doubloons=10, buildings={"university": 0})
    _, s = pick(s, "builder", 0)
    _, s = act(s, build("small_market"))
    assert s.current == 1
    s2 = new_game(4)
    _, s2 = pick(s2, "builder", 0)
    money = s2.players[0].doubloons
    _, s2 = act(s2, PASS)
    assert s2.players[0].doubloons == money


def test_players_who_cannot_build_are_skipped():
    s = new_game(4)
    for seat in range(4):
        give(s, seat, doubloons=0)
    _, s = pick(s, "builder", 0)
    assert s.current == 0 and legal(s) == [build("small_indigo_plant"), build("small_market"), PASS]  # 1 - 1 = 0
    _, s = act(s, PASS)
    assert s.phase == "pick" and s.current == 1
