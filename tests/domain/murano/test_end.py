"""End of the game (§14) and final scoring (§15): trigger, final round, free placement, assignments, tie-break."""

from __future__ import annotations

from domain.murano import RULES, data
from domain.murano.state import ASSIGN
from tests.domain.murano.helpers import (
    beads,
    bought,
    character,
    decide,
    given,
    gold,
    legal,
    opening,
    play,
    ready,
    refused,
    seated,
    setup_event,
    special,
    started,
    street,
    tile,
    types,
    vp,
)

BUY_PALACE = 5
BUILD = 7


def pass_turn(state):
    """The seat to act passes with the first legal pass move."""
    first = next(c for c in legal(state) if c["type"] == "pass")
    return play(state, first)


def test_example_8_last_palace_triggers_the_end_with_a_free_placement():
    state = ready(BUY_PALACE, *street("NAVAGERO:r1c1"), seat=1, glass_factories=0, palaces=[3])
    state, _ = play(state, {"type": "act"})
    state, events = play(state, {"type": "choose_buy_mode", "mode": "top"})
    assert types(events) == ["TileBought", "EndTriggered", "FreePlacementOffered"]
    assert events[1] == {"type": "EndTriggered", "seat": 1, "empty": ["glass_factories", "palaces"]}
    assert events[2] == {"type": "FreePlacementOffered", "seat": 1, "kind": "palace"}
    options = legal(state)
    assert options[0] == {"type": "keep_tile"}
    assert {c["space"] for c in options[1:]} == {"NAVAGERO:r1c0", "NAVAGERO:r2c1"}
    refused(state, {"type": "place_tile", "space": "NAVAGERO:r1c4"})
    state, events = play(state, {"type": "place_tile", "space": "NAVAGERO:r1c0"})
    assert events[0] == {
        "type": "TilePlaced",
        "seat": 1,
        "space": "NAVAGERO:r1c0",
        "kind": "palace",
        "face": 3,
        "owner": None,
        "vp": 3,
        "free": True,
    }
    assert events[-1] == {"type": "TurnStarted", "seat": 2, "final": True}
    assert state.vp[1] == 8 and state.hand[1] == ()
    for seat in (2, 3, 0):
        assert state.active == seat
        state, events = pass_turn(state)
    finished = [e["seat"] for e in events if e["type"] == "ScoringFinished"]
    assert finished == [1, 2, 3, 0]
    assert events[-1]["type"] == "GameOver" and RULES.is_over(state)


def test_keeping_the_tile_and_no_second_trigger():
    state = ready(BUY_PALACE, seat=1, glass_factories=0, palaces=[3, 2])
    state, _ = play(state, {"type": "act"}, {"type": "choose_buy_mode", "mode": "top"})
    assert state.phase == "TURN" and not state.end_triggered  # one empty supply is not enough
    state = ready(BUY_PALACE, seat=1, glass_factories=0, palaces=[3])
    state, _ = play(state, {"type": "act"}, {"type": "choose_buy_mode", "mode": "top"})
    assert legal(state) == [{"type": "keep_tile"}]  # no street on the board: nowhere to place
    state, events = play(state, {"type": "keep_tile"})
    assert types(events) == ["FreePlacementDeclined", "TurnEnded", "TurnStarted"]
    assert state.hand[1] == (("palace", 3),) and state.final_queue == (3, 0)


def test_later_final_turn_buy_also_gets_a_free_placement_but_old_tiles_do_not():
    # seat 2 holds an old shop; after the trigger it buys a factory: only the factory is offered
    state = ready(
        1,
        bought(0, "shop", "red"),
        *street("NAVAGERO:r1c1"),
        glass_factories=3,
        palaces=[],
        shops=[],
        after=({"type": "EndTriggered", "seat": 3, "empty": ["shops", "palaces"]},),
    )
    state, events = play(state, {"type": "act"})
    assert types(events)[-1] == "FreePlacementOffered" and events[-1]["kind"] == "glass_factory"
    state, events = play(state, {"type": "place_tile", "space": "NAVAGERO:r2c1"})
    assert state.hand[0] == (("shop", "red"),) and events[0]["kind"] == "glass_factory" and events[0]["vp"] == 1


def test_free_special_building_draws_a_card_then_the_turn_ends():
    state = ready(
        8, *street("NAVAGERO:r1c1"), special_tiles=1, palaces=[], special_cards=["SB08", "SB09", "SB10", "SB11"]
    )
    state, events = play(state, {"type": "act"})
    assert events[-2]["type"] == "EndTriggered"
    state, events = play(state, {"type": "place_tile", "space": "NAVAGERO:r2c1"})
    assert events[-1] == {
        "type": "SpecialCardsDrawn",
        "seat": 0,
        "count": 3,
        "cards": ["SB08", "SB09", "SB10"],
        "during": "free",
    }
    state, events = play(state, {"type": "take_special_card", "card": "SB09"})
    assert types(events) == ["SpecialCardTaken", "TurnEnded", "TurnStarted"]
    assert events[-1] == {"type": "TurnStarted", "seat": 1, "final": True}


def test_street_supply_emptying_mid_build_triggers_and_the_build_continues():
    state = ready(BUILD, bought(0, "shop", "blue"), streets=["ST_B"], shops=[])
    state, _ = play(state, {"type": "act"})
    state, events = play(state, {"type": "draw_street"})
    assert types(events) == ["StreetDrawn", "EndTriggered"]
    assert events[1]["empty"] == ["streets", "shops"]
    state, _ = play(state, {"type": "place_street", "space": "NAVAGERO:r1c1"})
    assert state.phase == "BUILD_STEP"
    assert {"type": "draw_street"} not in legal(state)
    state, events = play(state, {"type": "build_building", "kind": "shop", "face": "blue", "space": "NAVAGERO:r2c1"})
    state, events = play(state, {"type": "stop_building"})
    assert events[-1] == {"type": "TurnStarted", "seat": 1, "final": True}


def scoring_board(*extra):
    """§16.1 example 9: SAN_DONATO has 2 red shops and 1 factory of B (seat 1); NAVAGERO 1 special building.
    A (seat 0) has gondoliers at SAN_DONATO (white and brown gondolas) and NAVAGERO, cards C01, C04, C35."""
    return given(
        *opening(),
        *tile(1, "SAN_DONATO:r0c1", "shop", "red"),
        *tile(1, "SAN_DONATO:r0c3", "shop", "red"),
        *tile(1, "SAN_DONATO:r1c5", "glass_factory"),
        *tile(2, "NAVAGERO:r0c0", "special_building"),
        seated(0, "SAN_DONATO", "white"),
        seated(0, "SAN_DONATO", "brown"),
        seated(0, "NAVAGERO", "white"),
        character(0, "C01"),
        character(0, "C04"),
        character(0, "C35"),
        *extra,
        {"type": "TurnEnded", "seat": 0},
        {"type": "EndTriggered", "seat": 0, "empty": ["shops", "palaces"]},
        {"type": "ScoringStarted", "seat": 0},
    )


def test_example_9_strict_final_scoring_by_decisions():
    state = scoring_board()
    assert state.phase == ASSIGN and state.active == 0
    assert legal(state) == [
        {"type": "assign_character", "card": "C01", "island": "SAN_DONATO"},
        {"type": "assign_character", "card": "C01", "island": "NAVAGERO"},
        {"type": "assign_character", "card": "C04", "island": "SAN_DONATO"},
        {"type": "assign_character", "card": "C04", "island": "NAVAGERO"},
        {"type": "assign_character", "card": "C35", "island": "NAVAGERO"},
    ]
    refused(state, {"type": "assign_character", "card": "C35", "island": "SAN_DONATO"})
    refused(state, {"type": "assign_character", "card": "C02", "island": "SAN_DONATO"})
    refused(state, {"type": "assign_character", "card": "C01", "island": "SG_SM"}, "invalid_command")
    state, events = play(state, {"type": "assign_character", "card": "C01", "island": "SAN_DONATO"})
    assert events == [{"type": "CardAssigned", "seat": 0, "card": "C01", "island": "SAN_DONATO", "vp": 8}]
    state, events = play(state, {"type": "assign_character", "card": "C35", "island": "NAVAGERO"})
    assert events[0]["vp"] == 6
    # strict: C04 must still take the free SAN_DONATO gondolier; there is no stop
    assert legal(state) == [{"type": "assign_character", "card": "C04", "island": "SAN_DONATO"}]
    state, events = play(state, {"type": "assign_character", "card": "C04", "island": "SAN_DONATO"})
    # §15 step 3 (Q51 revised): A's 2 gondoliers left in the personal supply score 1 VP each
    assert events[1] == {
        "type": "ScoringFinished",
        "seat": 0,
        "unassigned": [],
        "unused_gondoliers": 0,
        "personal_gondoliers": 2,
        "vp": 2,
    }
    assert state.vp[0] == 5 + 14 + 2
    assert [e["type"] for e in events[2:]] == ["ScoringStarted", "ScoringFinished"] * 3 + ["GameOver"]
    assert RULES.is_over(state)


def test_example_9_a_poor_order_leaves_a_card_unscored():
    state = scoring_board()
    state, _ = play(state, {"type": "assign_character", "card": "C04", "island": "NAVAGERO"})
    assert legal(state) == [{"type": "assign_character", "card": "C01", "island": "SAN_DONATO"}]
    state, events = play(state, {"type": "assign_character", "card": "C01", "island": "SAN_DONATO"})
    assert events[1] == {
        "type": "ScoringFinished",
        "seat": 0,
        "unassigned": ["C35"],
        "unused_gondoliers": 1,
        "personal_gondoliers": 2,
        "vp": 3,
    }
    assert state.vp[0] == 5 + 9 + 2


def test_hidden_cards_are_revealed_one_by_one_during_scoring():
    state = scoring_board()
    assert RULES.view(state, 1)["players"][0]["characters"] is None
    state, _ = play(state, {"type": "assign_character", "card": "C01", "island": "SAN_DONATO"})
    view = RULES.view(state, 1)
    assert view["players"][0]["assigned_characters"] == [{"card": "C01", "island": "SAN_DONATO", "vp": 8}]
    assert '"C04"' not in str(view).replace("'", '"')


def test_leftover_cards_are_public_once_that_player_has_scored():
    state = scoring_board(seated(1, "NAVAGERO", "brown"), character(1, "C12"))
    state, _ = play(
        state,
        {"type": "assign_character", "card": "C04", "island": "NAVAGERO"},
        {"type": "assign_character", "card": "C01", "island": "SAN_DONATO"},
    )
    assert state.phase == ASSIGN and state.active == 1 and not RULES.is_over(state)
    view = RULES.view(state, 2)
    assert view["players"][0]["characters"] == ["C35"] and view["players"][1]["characters"] is None
    import random

    other = RULES.determinize(state, 2, random.Random(1))
    assert other.chars[0] == ("C35",) and RULES.view(other, 2) == view


def test_unused_seated_and_personal_gondoliers_score_one_each():
    """§15 step 3, §11, Q51 (revised): every gondolier without a card scores 1 VP, seated or personal."""
    state = given(
        *opening(start=3),
        seated(2, "NAVAGERO", "orange"),
        seated(2, "SAN_DONATO", "white"),
        {"type": "EndTriggered", "seat": 3, "empty": ["shops", "palaces"]},
    )
    assert state.final_queue == (0, 1, 2)
    for _ in range(3):  # seat 3 ends its (triggering) turn; seats 0 and 1 play their final turns
        state, _ = pass_turn(state)
    state, events = pass_turn(state)  # seat 2's final turn, then scoring
    finished = {e["seat"]: e for e in events if e["type"] == "ScoringFinished"}
    assert finished[2]["unused_gondoliers"] == 2 and finished[2]["personal_gondoliers"] == 3
    assert finished[2]["vp"] == 5
    assert finished[0]["vp"] == 5 and [e["seat"] for e in events if e["type"] == "ScoringFinished"] == [3, 0, 1, 2]


def test_a_table_without_cards_scores_every_owned_gondolier_but_not_the_general_supply():
    """Issue example, §15 step 3 and Q51 (revised): no cards, 5 personal gondoliers each -> 5 VP each, so a
    player's 5 start VP become 10. The 2 gondoliers of the general supply and the score marker score nothing."""
    state = given(*opening(n=2, start=1), {"type": "EndTriggered", "seat": 1, "empty": ["shops", "palaces"]})
    state, _ = pass_turn(state)  # seat 1 ends its triggering turn
    state, _ = pass_turn(state)  # seat 0's final turn, then scoring from seat 1
    assert RULES.is_over(state)
    assert state.general == [data.START_GENERAL_GONDOLIERS] * 2
    assert RULES.result(state).scores == [data.START_VP + 5, data.START_VP + 5] == [10, 10]


def test_a_fired_gondolier_scores_nothing_a_hired_one_scores():
    """§11: firing moves a gondolier to the general supply (no VP at the end); hiring brings one back (1 VP)."""
    state = given(
        *opening(n=2, start=1),
        *[{"type": "GondolierFired", "seat": 0, "gold": 3}] * 2,
        *[{"type": "GondolierHired", "seat": 1, "price": 3}] * 2,
        {"type": "EndTriggered", "seat": 1, "empty": ["shops", "palaces"]},
    )
    assert state.personal == [3, 7] and state.general == [4, 0]
    state, _ = pass_turn(state)
    state, events = pass_turn(state)
    finished = {e["seat"]: e for e in events if e["type"] == "ScoringFinished"}
    assert finished[0]["personal_gondoliers"] == 3 and finished[0]["vp"] == 3
    assert finished[1]["personal_gondoliers"] == 7 and finished[1]["vp"] == 7


def test_tie_break_by_gold_and_shared_win():
    # seat 2 triggered in its turn; seats 0 and 1 pass (+1 gold each); VP 5 / 9 / 9 + 5 personal gondoliers each
    state = given(
        *opening(n=3, start=2),
        vp(1, 4),
        vp(2, 4),
        gold(1, 3),
        gold(2, 1),
        {"type": "EndTriggered", "seat": 2, "empty": ["shops", "palaces"]},
    )
    for _ in range(3):
        state, events = pass_turn(state)
    result = RULES.result(state)
    assert RULES.is_over(state) and result.scores == [10, 14, 14]
    assert state.gold == [6, 9, 7]
    assert result.ranks == [3, 1, 2] and result.tiebreaks == [6, 9, 7]
    assert events[-1]["ranks"] == result.ranks
    tied = given(*opening(n=2), {"type": "EndTriggered", "seat": 1, "empty": ["shops", "palaces"]})
    tied = given(
        {"type": "TurnEnded", "seat": 0},
        {"type": "ScoringStarted", "seat": 1},
        {"type": "ScoringFinished", "seat": 1, "unassigned": [], "unused_gondoliers": 0, "vp": 0},
        state=tied,
    )
    assert RULES.result(tied).ranks == [1, 1]


def test_ranking_uses_gold_only_on_equal_vp():
    state = given(*opening(n=2), vp(0, 1), gold(1, 10))
    assert RULES.result(state).ranks == [1, 2]
    state = given(*opening(n=2), gold(1, 10))
    assert RULES.result(state).ranks == [2, 1]


def test_max_turns_aborts_a_stalled_game():
    filler = []
    for i in range(data.MAX_TURNS - 1):
        filler += [{"type": "TurnEnded", "seat": i % 2}, started((i + 1) % 2)]
    state = given(*opening(n=2), *filler)
    state, events = pass_turn(state)
    assert events[-1]["type"] == "GameOver" and events[-1]["aborted"] is True
    assert RULES.result(state).ranks == [1, 1] and RULES.result(state).details["aborted"]
    assert RULES.result(state).no_winner


def test_game_over_refuses_commands_and_reveals_everything():
    state = scoring_board()
    state, _ = play(
        state,
        {"type": "assign_character", "card": "C04", "island": "NAVAGERO"},
        {"type": "assign_character", "card": "C01", "island": "SAN_DONATO"},
    )
    assert RULES.is_over(state) and RULES.to_act(state) == set() and RULES.legal_commands(state, 0) == []
    refused(state, {"type": "pass", "ship": 0, "to": 1}, "game_over", seat=0)
    assert RULES.view(state, 1)["players"][0]["characters"] == ["C35"]
    full = RULES.reveal_all(state)
    assert full["stacks"]["shops"] == state.shops and full["removed_characters"] == []


def test_setup_helpers_consistent():
    assert setup_event()["seats"] == 4 and decide is not None


def test_lenient_variant_offers_stop(monkeypatch):
    state = scoring_board()
    refused(state, {"type": "stop_assigning"})
    monkeypatch.setattr(data, "FINAL_SCORING_STRICT", False)
    assert legal(state)[-1] == {"type": "stop_assigning"}
    state, _ = play(
        state,
        {"type": "assign_character", "card": "C01", "island": "SAN_DONATO"},
        {"type": "assign_character", "card": "C35", "island": "NAVAGERO"},
    )
    state, events = play(state, {"type": "stop_assigning"})
    assert events[0] == {
        "type": "ScoringFinished",
        "seat": 0,
        "unassigned": ["C04"],
        "unused_gondoliers": 1,
        "personal_gondoliers": 2,
        "vp": 3,
    }
    assert state.vp[0] == 5 + 15 + 2


def test_tiles_in_hand_beads_and_gold_score_nothing_at_the_end_and_gold_only_breaks_the_tie():
    """§15: buildings in hand, beads and leftover gold are not scored; gold decides between equal scores."""
    state = given(*opening(n=2, start=1))
    state = given(
        bought(0, "palace", face=state.palaces[0]),
        bought(0, "shop", face=state.shops[0]),
        bought(0, "glass_factory"),
        *beads(0, "red", 3),
        *beads(0, "blue", 2),
        gold(0, 40),
        {"type": "EndTriggered", "seat": 1, "empty": ["shops", "palaces"]},
        state=state,
    )
    assert len(state.hand[0]) == 3 and sum(state.beads[0]) == 5 and state.vp == [5, 5]
    state, _ = pass_turn(state)  # seat 1 ends its triggering turn
    state, _ = pass_turn(state)  # seat 0's final turn, then scoring
    result = RULES.result(state)
    assert RULES.is_over(state) and len(state.hand[0]) == 3 and sum(state.beads[0]) == 5
    assert result.scores == [10, 10]  # 5 start VP and 5 personal gondoliers each: nothing for the rest
    assert result.tiebreaks[0] > result.tiebreaks[1] and result.ranks == [1, 2]


def test_no_limit_on_tiles_in_hand_beads_or_cards_held():
    """§5: a player holding many tiles, beads, character cards and special cards still buys, and each is kept."""
    characters = sorted(data.CHARACTERS)[:8]
    specials = sorted(data.SPECIAL_CARDS)[:6]
    setup = given(*opening())
    many = [bought(0, "shop", face=face) for face in setup.shops[:9]]
    many += beads(0, "red", 4) + beads(0, "green", 4) + beads(0, "blue", 4)
    many += [character(0, card) for card in characters] + [special(0, card) for card in specials]
    state = ready(BUY_PALACE, gold(0, 60), *many)
    assert len(state.hand[0]) == 9 and sum(state.beads[0]) == 12
    assert len(state.chars[0]) == 8 and len(state.specials[0]) == 6
    state, events = play(state, {"type": "act"}, {"type": "choose_buy_mode", "mode": "top"})
    assert "TileBought" in types(events) and len(state.hand[0]) == 10
    assert sum(state.beads[0]) == 12 and len(state.chars[0]) == 8 and len(state.specials[0]) == 6
