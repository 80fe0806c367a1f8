"""The build action (§8): streets, buildings, adjacency and the group rule, the 3-tile limit, special buildings."""

from __future__ import annotations

from domain.murano import RULES
from tests.domain.murano.helpers import (
    bought,
    decide,
    legal,
    play,
    ready,
    refused,
    street,
    tile,
    types,
    unavailable,
)

BUILD = 7  # a build space on the ring


def build(*before, **over):
    state = ready(BUILD, *before, **over)
    state, _ = play(state, {"type": "act"})
    assert state.phase == "BUILD_STEP"
    return state


def test_example_5_street_then_shop_then_palace():
    state = build(bought(0, "shop", "red"), bought(0, "palace", 3), streets=["ST_R", "ST_NONE"])
    assert {"type": "stop_building"} not in legal(state)
    refused(state, {"type": "stop_building"})
    state, events = play(state, {"type": "draw_street"})
    assert events == [{"type": "StreetDrawn", "seat": 0, "face": "ST_R"}]
    assert RULES.redact(events[0], 2) == events[0]  # the drawn street is public
    state, events = play(state, {"type": "place_street", "space": "NAVAGERO:r1c1"})
    assert events[0]["kind"] == "street" and events[0]["face"] == "ST_R" and events[0]["vp"] == 0
    state, events = play(state, {"type": "build_building", "kind": "shop", "face": "red", "space": "NAVAGERO:r2c1"})
    assert events[0] == {
        "type": "TilePlaced",
        "seat": 0,
        "space": "NAVAGERO:r2c1",
        "kind": "shop",
        "face": "red",
        "owner": 0,
        "vp": 2,
        "free": False,
    }
    refused(state, {"type": "build_building", "kind": "palace", "face": 3, "space": "NAVAGERO:r1c4"})
    state, events = play(state, {"type": "build_building", "kind": "palace", "face": 3, "space": "NAVAGERO:r1c0"})
    assert events[0]["owner"] is None and events[0]["vp"] == 3
    assert types(events) == ["TilePlaced", "TurnEnded", "TurnStarted"]  # three tiles: the action ends
    assert state.vp[0] == 5 + 5 and state.hand[0] == () and state.active == 1


def test_glass_factory_scores_one_and_carries_a_marker():
    state = build(bought(0, "glass_factory"), *street("NAVAGERO:r1c1"))
    events = decide(state, {"type": "build_building", "kind": "glass_factory", "face": None, "space": "NAVAGERO:r2c1"})
    assert events[0]["owner"] == 0 and events[0]["vp"] == 1
    # the identical kinds take no face
    refused(
        state,
        {"type": "build_building", "kind": "glass_factory", "face": "red", "space": "NAVAGERO:r2c1"},
        "invalid_command",
    )
    events = decide(state, {"type": "build_building", "kind": "glass_factory", "space": "NAVAGERO:r2c1"})
    assert events[0]["face"] is None


def test_a_building_needs_a_street_next_to_it_and_a_free_brown_space():
    state = build(bought(0, "shop", "red"), *street("NAVAGERO:r1c1"), *tile(1, "NAVAGERO:r1c0", "shop", "blue"))
    targets = {c["space"] for c in legal(state) if c["type"] == "build_building"}
    assert targets == {"NAVAGERO:r2c1"}  # r1c0 is taken; r0c0 and r0c2 touch r1c1 only diagonally
    refused(state, {"type": "build_building", "kind": "shop", "face": "red", "space": "NAVAGERO:r1c0"})  # taken
    refused(state, {"type": "build_building", "kind": "shop", "face": "red", "space": "NAVAGERO:r1c2"})  # paved
    refused(state, {"type": "build_building", "kind": "shop", "face": "blue", "space": "NAVAGERO:r2c1"})  # not held
    refused(
        state, {"type": "build_building", "kind": "shop", "face": "red", "space": "NOWHERE:r0c0"}, "invalid_command"
    )
    refused(state, {"type": "build_building", "kind": "castle", "space": "NAVAGERO:r2c1"}, "invalid_command")


def test_group_rule_keeps_one_action_on_one_connected_group():
    state = build(
        bought(0, "shop", "red"), bought(0, "palace", 1), *street("NAVAGERO:r1c1"), *street("SAN_DONATO:r1c0")
    )
    state, _ = play(state, {"type": "build_building", "kind": "shop", "face": "red", "space": "NAVAGERO:r2c1"})
    spaces = {c["space"] for c in legal(state) if c["type"] == "build_building"}
    assert spaces == set()  # r2c1 touches no other free brown space that has a street
    refused(state, {"type": "build_building", "kind": "palace", "face": 1, "space": "SAN_DONATO:r2c0"})
    # NAVAGERO:r2c1 has no free paved neighbour either, so no street can follow: only stop remains
    assert legal(state) == [{"type": "stop_building"}]
    refused(state, {"type": "draw_street"})


def test_streets_first_placement_anywhere_then_adjacent():
    state = build(streets=["ST_NONE", "ST_B", "ST_G", "ST_R"])
    state, _ = play(state, {"type": "draw_street"})
    first = {c["space"] for c in legal(state)}
    assert len(first) == 42  # every paved space of the 4-player board
    state, _ = play(state, {"type": "place_street", "space": "NAVAGERO:r1c2"}, {"type": "draw_street"})
    assert {c["space"] for c in legal(state)} == {"NAVAGERO:r1c1", "NAVAGERO:r1c3"}
    refused(state, {"type": "place_street", "space": "NAVAGERO:r3c3"})
    state, events = play(state, {"type": "place_street", "space": "NAVAGERO:r1c3"})
    assert state.build_k == 2
    assert legal(state) == [{"type": "draw_street"}, {"type": "stop_building"}]
    state, events = play(state, {"type": "stop_building"})
    assert types(events) == ["BuildStopped", "TurnEnded", "TurnStarted"]


def test_three_tile_limit():
    state = build(streets=["ST_NONE"] * 5)
    for sp in ("NAVAGERO:r1c1", "NAVAGERO:r1c2", "NAVAGERO:r1c3"):
        state, events = play(state, {"type": "draw_street"}, {"type": "place_street", "space": sp})
    assert types(events)[-2:] == ["TurnEnded", "TurnStarted"] and state.active == 1
    assert len(state.streets) == 2


def test_build_needs_a_legal_first_placement():
    unavailable(BUILD, streets=[])
    unavailable(BUILD, bought(0, "shop", "red"), streets=[])  # no street on the board yet
    state = build(bought(0, "shop", "red"), *street("NAVAGERO:r1c1"), streets=[])
    assert {"type": "draw_street"} not in legal(state)
    refused(state, {"type": "draw_street"})


def test_special_building_draws_three_cards_keeps_one_and_the_build_continues():
    cards = ["SB03", "SB07", "SB12", "SB01", "SB02"]
    state = build(bought(0, "special_building"), *street("NAVAGERO:r1c1"), special_cards=cards, streets=["ST_NONE"])
    state, events = play(
        state, {"type": "build_building", "kind": "special_building", "face": None, "space": "NAVAGERO:r2c1"}
    )
    assert events[0]["vp"] == 0 and events[0]["owner"] is None
    assert events[1] == {
        "type": "SpecialCardsDrawn",
        "seat": 0,
        "count": 3,
        "cards": ["SB03", "SB07", "SB12"],
        "during": "build",
    }
    assert RULES.redact(events[1], 1)["cards"] is None
    assert legal(state) == [{"type": "take_special_card", "card": c} for c in ("SB03", "SB07", "SB12")]
    refused(state, {"type": "take_special_card", "card": "SB01"})
    vp_before = state.vp[0]
    state, events = play(state, {"type": "take_special_card", "card": "SB03"})  # Guild Hall: +5 at once
    assert events == [
        {
            "type": "SpecialCardTaken",
            "seat": 0,
            "card": "SB03",
            "returned": ["SB07", "SB12"],
            "returned_count": 2,
            "vp": 5,
        }
    ]
    assert state.vp[0] == vp_before + 5
    assert state.special_deck == ["SB01", "SB02", "SB07", "SB12"] and state.specials[0] == ("SB03",)
    assert state.effective[0] == ()  # ongoing effects start with the next turn
    assert state.phase == "BUILD_STEP" and state.build_k == 1
    assert RULES.redact(events[0], 1)["returned"] is None
    view = RULES.view(state, 0)
    assert view["known_special_deck"] == [{"position": 2, "card": "SB07"}, {"position": 3, "card": "SB12"}]
    assert "known_special_deck" in RULES.view(state, 1) and RULES.view(state, 1)["known_special_deck"] == []


def test_special_building_as_third_tile_ends_the_action_after_the_card():
    state = build(
        bought(0, "special_building"), streets=["ST_NONE", "ST_NONE"], special_cards=["SB05", "SB06", "SB08", "SB09"]
    )
    state, _ = play(
        state,
        {"type": "draw_street"},
        {"type": "place_street", "space": "NAVAGERO:r1c1"},
        {"type": "draw_street"},
        {"type": "place_street", "space": "NAVAGERO:r1c2"},
    )
    state, events = play(state, {"type": "build_building", "kind": "special_building", "space": "NAVAGERO:r0c2"})
    assert types(events) == ["TilePlaced", "SpecialCardsDrawn"] and state.build_k == 3
    state, events = play(state, {"type": "take_special_card", "card": "SB08"})
    assert types(events) == ["SpecialCardTaken", "TurnEnded", "TurnStarted"]
    assert state.specials[0] == ("SB08",) and state.active == 1
