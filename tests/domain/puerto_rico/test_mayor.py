"""Mayor phase (§4.2): privilege, distribution, forced placement in single steps, ship refill, end trigger."""

from __future__ import annotations

from domain.puerto_rico.data import CORN, INDIGO, QUARRY
from tests.domain.puerto_rico.helpers import act, give, legal, new_game, of_type, pick, refused, types

PASS = {"type": "pass"}
TAKE = {"type": "take_colonist"}


def test_privilege_is_optional_and_comes_from_the_supply():
    s = new_game(4)
    _, s = pick(s, "mayor", 0)
    assert s.step == "privilege" and legal(s) == [TAKE, PASS]
    supply, ship = s.colonist_supply, s.colonist_ship
    events, s = act(s, TAKE)
    assert events[0] == {"type": "MayorColonistTaken", "seat": 0}
    assert events[1] == {"type": "ColonistsDistributed", "colonists": [1, 1, 1, 1]}
    # picker: 1 (privilege) + 1 from the ship = 2 colonists, 1 island tile -> automatic, 1 left in San Juan
    assert s.colonist_supply == supply - 1 - 4 and s.colonist_ship == 4
    assert ship == 4
    assert s.players[0].manned[INDIGO] == 1 and s.players[0].san_juan == 1


def test_declined_privilege_gives_nothing():
    s = new_game(4)
    _, s = pick(s, "mayor", 0)
    events, s = act(s, PASS)
    assert events[0] == {"type": "Passed", "seat": 0, "decision": "mayor_privilege"}
    assert s.players[0].colonists() == 1


def test_privilege_skipped_when_the_supply_is_empty_and_never_taken_from_the_ship():
    s = new_game(4)
    s.colonist_supply = 0
    _, s = pick(s, "mayor", 0)  # D1: no decision at all
    assert s.phase == "pick"
    assert [p.colonists() for p in s.players] == [1, 1, 1, 1]


def test_distribution_example_of_the_rules():
    s = new_game(4)
    s.colonist_supply -= 2
    s.colonist_ship = 6
    events, s = pick(s, "mayor", 2)
    _, s = act(s, PASS)
    assert [p.colonists() for p in s.players] == [1, 1, 2, 2]


def test_placement_is_one_colonist_per_step_after_gathering():
    """D45: gather, then one colonist per step; D32: placement is forced."""
    s = new_game(4)
    give(s, 0, tiles={"corn": (1, 1), "quarry": (1, 0)}, buildings={"small_market": 1, "indigo_plant": 1})
    # seat 0 owns 1 (corn) + 1 (small market) + 1 (indigo plant) + 1 from the ship = 4 colonists, 7 circles
    _, s = pick(s, "mayor", 0)
    events, s = act(s, PASS)
    assert of_type(events, "ColonistsGathered") == [{"type": "ColonistsGathered", "seat": 0, "colonists": 4}]
    p = s.players[0]
    assert p.san_juan == 4 and p.manned == [0] * 6 and p.buildings[6] == 0
    assert legal(s) == [
        {"type": "place_colonist", "target": t} for t in ("corn", "indigo", "quarry", "indigo_plant", "small_market")
    ]
    refused(s, PASS)  # placement is forced
    refused(s, {"type": "place_colonist", "target": "sugar"})
    refused(s, {"type": "place_colonist", "target": "moon"}, code="invalid_command")
    for target in ("indigo_plant", "indigo_plant", "indigo_plant"):
        _, s = act(s, {"type": "place_colonist", "target": target})
    assert s.players[0].buildings[2] == 3 and s.current == 0
    refused(s, {"type": "place_colonist", "target": "indigo_plant"})  # full
    events, s = act(s, {"type": "place_colonist", "target": "quarry"})
    assert s.players[0].manned[QUARRY] == 1 and s.players[0].san_juan == 0
    assert s.phase == "pick"  # the other players had nothing to choose


def test_single_target_steps_are_automatic():
    s = new_game(4)
    give(s, 1, tiles={"indigo": (3, 1)})  # 1 owned + 1 arriving, 3 indigo circles (the starting tile is indigo)
    _, s = pick(s, "mayor", 0)
    events, s = act(s, PASS)
    placed = of_type(events, "ColonistPlaced")
    assert placed == [{"type": "ColonistPlaced", "seat": 1, "target": "indigo"}] * 2
    assert s.players[1].manned[INDIGO] == 2 and s.players[1].san_juan == 0


def test_more_colonists_than_circles_fill_everything_and_the_rest_waits_in_san_juan():
    s = new_game(4)
    give(s, 3, san_juan=3)
    _, s = pick(s, "mayor", 0)
    events, s = act(s, PASS)
    assert {"type": "ColonistsArranged", "seat": 3, "san_juan": 3} in events
    assert s.players[3].manned[CORN] == 1 and s.players[3].san_juan == 3


def test_placement_is_sequential_from_the_picker():
    """D24: placement is sequential, from the picker."""
    s = new_game(4)
    for seat in range(4):
        give(s, seat, tiles={"quarry": (1, 0)})
    s.colonist_ship = 4
    _, s = pick(s, "mayor", 2)
    events, s = act(s, PASS)
    gathered = [e["seat"] for e in of_type(events, "ColonistsGathered")]
    assert gathered == [2] and s.current == 2  # seat 2 decides before seat 3
    _, s = act(s, {"type": "place_colonist", "target": "quarry"})
    assert s.current == 3


def test_refill_takes_the_empty_building_circles_or_at_least_n():
    s = new_game(4)
    give(s, 0, buildings={"coffee_roaster": 0, "small_market": 0})
    give(s, 1, buildings={"sugar_mill": 0})
    s.colonist_ship = 0
    _, s = pick(s, "mayor", 3)
    events, s = act(s, PASS)
    refill = of_type(events, "ColonistShipRefilled")
    assert refill == [{"type": "ColonistShipRefilled", "colonists": 6, "ends_game": False}]
    assert s.colonist_ship == 6
    s2 = new_game(4)
    s2.colonist_ship = 0
    _, s2 = pick(s2, "mayor", 0)
    events, s2 = act(s2, PASS)
    assert of_type(events, "ColonistShipRefilled")[0]["colonists"] == 4


def test_exact_refill_does_not_end_the_game_but_a_short_one_does():
    s = new_game(4)
    s.colonist_supply = 4
    _, s = pick(s, "mayor", 0)
    events, s = act(s, PASS)
    assert of_type(events, "ColonistShipRefilled")[0] == {
        "type": "ColonistShipRefilled",
        "colonists": 4,
        "ends_game": False,
    }
    assert s.colonist_supply == 0 and s.triggers == []  # D13
    s2 = new_game(4)
    s2.colonist_supply = 4
    _, s2 = pick(s2, "mayor", 0)
    events, s2 = act(s2, TAKE)  # the privilege empties the supply further: 3 < 4
    assert of_type(events, "ColonistShipRefilled")[0] == {
        "type": "ColonistShipRefilled",
        "colonists": 3,
        "ends_game": True,
    }
    assert s2.triggers == ["colonists"] and s2.colonist_supply == 0 and s2.phase == "pick"


def test_empty_ship_gives_nothing_but_players_still_rearrange():
    s = new_game(4)
    s.colonist_ship = 0
    give(s, 0, tiles={"corn": (1, 1)}, buildings={"small_market": 0})
    _, s = pick(s, "mayor", 0)
    events, s = act(s, PASS)
    assert "ColonistsDistributed" not in types(events)
    assert s.current == 0 and s.players[0].san_juan == 1  # 1 colonist, 3 circles: choose
    assert len(legal(s)) == 3


def test_two_player_variant_refills_at_least_two():
    s = new_game(2)
    _, s = pick(s, "mayor", 1)
    events, s = act(s, PASS)
    assert of_type(events, "ColonistsDistributed") == [{"type": "ColonistsDistributed", "colonists": [1, 1]}]
    assert of_type(events, "ColonistShipRefilled")[0]["colonists"] == 2 and s.colonist_ship == 2
