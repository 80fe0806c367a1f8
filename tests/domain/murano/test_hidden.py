"""Hidden information (§5.1, §16.3): who sees drawn cards, returned cards, stack snapshots and hand faces;
determinize keeps what a seat knows and resamples the rest."""

from __future__ import annotations

import json
import random

from domain.murano import RULES
from tests.domain.murano.helpers import bought, character, play, ready

HIRE = 10


def test_drawn_characters_are_seen_only_by_the_hirer():
    state = ready(HIRE, characters=["C05", "C01", "C02", "C03"])
    state, events = play(state, {"type": "act"})
    drawn = events[1]
    assert RULES.redact(drawn, 0) == drawn
    assert RULES.redact(drawn, 1)["cards"] is None and RULES.redact(drawn, None)["cards"] is None
    assert RULES.redact(drawn, 1)["count"] == 3
    assert RULES.view(state, 0)["pending"]["drawn"] == ["C05", "C01", "C02"]
    assert RULES.view(state, 2)["pending"]["drawn"] is None and RULES.view(state, 2)["pending"]["drawn_count"] == 3
    state, events = play(state, {"type": "keep_character", "card": "C02"})
    kept = events[0]
    assert RULES.redact(kept, 1)["card"] is None and RULES.redact(kept, 1)["returned"] is None
    assert RULES.redact(kept, 1)["returned_count"] == 2 and RULES.redact(kept, 1)["price"] == 1
    # the hirer remembers where the returned cards went; nobody else does
    assert RULES.view(state, 0)["known_character_deck"] == [
        {"position": 1, "card": "C05"},
        {"position": 2, "card": "C01"},
    ]
    assert RULES.view(state, 1)["known_character_deck"] == []
    assert RULES.view(state, 1)["players"][0]["characters"] is None
    assert RULES.view(state, 1)["players"][0]["character_count"] == 1
    assert RULES.view(state, 0)["players"][0]["characters"] == ["C02"]


def test_fewer_than_three_cards_draws_what_is_left():
    state = ready(HIRE, characters=["C07"])
    state, events = play(state, {"type": "act"})
    assert events[1]["count"] == 1 and events[1]["cards"] == ["C07"]


def test_choose_snapshot_is_private_and_the_reshuffle_is_secret():
    state = ready(2, shops=["blue", "red", "grey"])
    state, _ = play(state, {"type": "act"})
    state, events = play(state, {"type": "choose_buy_mode", "mode": "choose"})
    assert RULES.redact(events[0], 1)["faces"] is None and RULES.redact(events[0], 0)["faces"] == [
        "blue",
        "red",
        "grey",
    ]
    assert RULES.view(state, 1)["pending"]["stack"] is None
    assert RULES.view(state, 0)["pending"]["stack"] == ["blue", "red", "grey"]
    state, events = play(state, {"type": "pick_tile", "face": "grey"})
    bought_event, shuffled = events[0], events[1]
    assert RULES.redact(bought_event, 2)["face"] is None and RULES.redact(bought_event, 2)["mode"] == "choose"
    for seat in (None, 0, 1):
        assert RULES.redact(shuffled, seat)["order"] is None
    assert RULES.reveals(shuffled)


def test_once_the_tile_is_picked_no_state_of_the_move_shows_the_buyer_a_stack():
    """The states between a pick's events (a replay, ``/states/{v}``) are views too: after the pick the stack is
    reshuffled in secret, and the buyer must see neither the new shop order nor, as the turn ends, the palaces."""
    state = ready(2, shops=["blue", "red", "grey"], palaces=[3, 1, 2])
    state, _ = play(state, {"type": "act"})
    state, _ = play(state, {"type": "choose_buy_mode", "mode": "choose"})
    events = RULES.decide(state, {"type": "pick_tile", "face": "grey"}, 0, random.Random(3))
    assert [e["type"] for e in events][:2] == ["TileBought", "StackShuffled"]
    for event in events:
        state = RULES.evolve(state, event)
        for seat in (0, 1, None):
            assert "stack" not in RULES.view(state, seat)["pending"], (event["type"], seat)


def test_determinize_keeps_own_knowledge_and_resamples_the_rest():
    state = ready(
        HIRE,
        bought(1, "shop", "red"),
        bought(1, "palace", 2),
        character(1, "C33"),
        characters=["C05", "C01", "C02", "C03", "C04", "C06", "C07", "C08"],
        shops=["blue"] * 3 + ["grey"],
        palaces=[1, 3, 3, 1],
    )
    state, _ = play(state, {"type": "act"}, {"type": "keep_character", "card": "C02"})
    seen_hands = set()
    seen_cards = set()
    for seed in range(40):
        mine = RULES.determinize(state, 0, random.Random(seed))
        assert mine.chars[0] == ("C02",)
        assert mine.char_deck[5:] == ["C05", "C01"]  # the positions seat 0 put there
        assert RULES.view(mine, 0) == RULES.view(state, 0)
        seen_hands.add(mine.hand[1])
        seen_cards.add(mine.chars[1])
        theirs = RULES.determinize(state, 1, random.Random(seed))
        assert theirs.hand[1] == state.hand[1] and theirs.chars[1] == ("C33",)
    assert len(seen_hands) > 1 and len(seen_cards) > 1
    assert state == RULES.fold([], state)


def test_views_are_json_and_spectators_see_no_hand_faces():
    state = ready(HIRE, bought(1, "shop", "red"), bought(1, "glass_factory"))
    view = RULES.view(state, None)
    json.dumps(view)
    assert view["players"][1]["hand"] == [{"kind": "shop", "face": None}, {"kind": "glass_factory", "face": None}]
    assert view["players"][1]["hand_counts"]["shop"] == 1
    assert "known_character_deck" not in view


def test_evaluate_prefers_more_vp():
    state = ready(HIRE)
    better = RULES.fold([{"type": "BonusScored", "seat": 0, "vp": 5, "card": "test"}], state)
    assert RULES.evaluate(better, 0) > RULES.evaluate(state, 0)
    assert RULES.evaluate(better, 1) < RULES.evaluate(state, 1)


def test_reveals_marks_random_outcomes_and_uncovered_faces():
    assert RULES.reveals({"type": "TileBought", "seat": 0, "kind": "shop", "mode": "top", "price": 2, "face": "red"})
    assert not RULES.reveals(
        {"type": "TileBought", "seat": 0, "kind": "glass_factory", "mode": "top", "price": 1, "face": None}
    )
    assert RULES.reveals(
        {
            "type": "TilePlaced",
            "seat": 0,
            "space": "NAVAGERO:r2c1",
            "kind": "palace",
            "face": 2,
            "owner": None,
            "vp": 3,
            "free": False,
        }
    )
    assert not RULES.reveals(
        {
            "type": "TilePlaced",
            "seat": 0,
            "space": "NAVAGERO:r1c1",
            "kind": "street",
            "face": "ST_R",
            "owner": None,
            "vp": 0,
            "free": False,
        }
    )
    assert RULES.reveals({"type": "BeadDrawn", "seat": 0, "colour": "red", "extra": False})
    assert not RULES.reveals({"type": "ShipMoved", "seat": 0, "ship": 1, "from": 3, "to": 4, "cost": 0})
