"""Every action of §7 (except build, see test_build.py): availability, prices, decisions and effects."""

from __future__ import annotations

from collections import Counter

from domain.murano import data
from tests.domain.murano.helpers import (
    beads,
    bought,
    character,
    decide,
    given,
    gold,
    legal,
    play,
    ready,
    refused,
    seated,
    setup_event,
    special,
    started,
    tile,
    types,
    unavailable,
    vp,
)

RING = [a.lower() for a in data.RING]


def act(state):
    return decide(state, {"type": "act"})


def test_take_2_gold_and_customs_house():
    state = ready(RING.index("take_2_gold"))
    events = act(state)
    assert types(events) == ["ActionStarted", "GoldTaken", "TurnEnded", "TurnStarted"]
    assert events[1]["gold"] == 2
    state = ready(RING.index("take_2_gold"), special(0, "SB08"))
    assert act(state)[1]["gold"] == 3


def test_buy_glass_factory_pays_one_and_takes_a_tile():
    state = ready(1)
    events = act(state)
    assert events[1] == {
        "type": "TileBought",
        "seat": 0,
        "kind": "glass_factory",
        "mode": "top",
        "price": 1,
        "face": None,
    }
    after = given(*events, state=state)
    assert after.hand[0] == (("glass_factory", None),) and after.factories == 11 and after.gold[0] == 4
    assert after.active == 1


def test_buy_actions_need_gold_and_a_non_empty_supply():
    unavailable(1, gold(0, -5))
    unavailable(1, glass_factories=0)
    unavailable(2, shops=[])
    unavailable(2, gold(0, -4))
    unavailable(5, palaces=[])
    unavailable(8, special_tiles=0)
    unavailable(8, gold(0, -4))


def test_buy_shop_top_takes_the_top_tile_face_down():
    state = ready(2, shops=["blue", "red", "grey"])
    state, events = play(state, {"type": "act"})
    assert legal(state) == [{"type": "choose_buy_mode", "mode": "top"}, {"type": "choose_buy_mode", "mode": "choose"}]
    events = decide(state, {"type": "choose_buy_mode", "mode": "top"})
    assert events[0] == {"type": "TileBought", "seat": 0, "kind": "shop", "mode": "top", "price": 2, "face": "blue"}
    from domain.murano import RULES

    assert RULES.redact(events[0], 1)["face"] is None and RULES.redact(events[0], 0)["face"] == "blue"
    after = given(*events, state=state)
    assert after.shops == ["red", "grey"] and after.hand[0] == (("shop", "blue"),) and after.gold[0] == 3
    view = RULES.view(after, 1)
    assert view["players"][0]["hand"] == [{"kind": "shop", "face": None}]
    assert RULES.view(after, 0)["players"][0]["hand"] == [{"kind": "shop", "face": "blue"}]


def test_buy_shop_choose_shows_the_stack_then_reshuffles():
    state = ready(2, shops=["blue", "red", "grey", "red"])
    state, _ = play(state, {"type": "act"})
    state, events = play(state, {"type": "choose_buy_mode", "mode": "choose"})
    assert events == [
        {"type": "StackViewed", "seat": 0, "kind": "shop", "price": 4, "faces": ["blue", "red", "grey", "red"]}
    ]
    assert legal(state) == [{"type": "pick_tile", "face": f} for f in ("blue", "grey", "red")]
    refused(state, {"type": "pick_tile", "face": "green"})
    state, events = play(state, {"type": "pick_tile", "face": "red"})
    assert types(events)[:2] == ["TileBought", "StackShuffled"]
    assert events[0]["mode"] == "choose" and events[0]["price"] == 4
    assert sorted(state.shops) == ["blue", "grey", "red"] and state.gold[0] == 1


def test_choose_needs_four_gold_or_three_with_town_hall():
    state = ready(5, gold(0, -2))  # palace, 3 gold
    state, _ = play(state, {"type": "act"})
    assert legal(state) == [{"type": "choose_buy_mode", "mode": "top"}]
    refused(state, {"type": "choose_buy_mode", "mode": "choose"})
    refused(state, {"type": "choose_buy_mode", "mode": "cheap"}, "invalid_command")
    state = ready(5, gold(0, -2), special(0, "SB13"), palaces=[3, 1, 2])
    state, _ = play(state, {"type": "act"}, {"type": "choose_buy_mode", "mode": "choose"})
    state, events = play(state, {"type": "pick_tile", "face": 2})
    assert events[0]["price"] == 3 and state.hand[0] == (("palace", 2),) and state.gold[0] == 0


def test_buy_special_building_pays_two():
    state = ready(8)
    events = act(state)
    assert events[1]["kind"] == "special_building" and events[1]["price"] == 2
    assert given(*events, state=state).special_tiles == 11


def test_hire_character_three_choose_one():
    deck = ["C05", "C01", "C02", "C03", "C04"]
    state = ready(10, character(0, "C40"), characters=deck)
    state, events = play(state, {"type": "act"})
    assert events[1] == {"type": "CharactersDrawn", "seat": 0, "count": 3, "cards": ["C05", "C01", "C02"], "price": 2}
    assert legal(state) == [{"type": "keep_character", "card": c} for c in ("C05", "C01", "C02")] + [
        {"type": "decline_characters"}
    ]
    refused(state, {"type": "keep_character", "card": "C03"})
    state, events = play(state, {"type": "keep_character", "card": "C01"})
    assert events[0] == {
        "type": "CharacterKept",
        "seat": 0,
        "card": "C01",
        "price": 2,
        "returned": ["C05", "C02"],
        "returned_count": 2,
    }
    assert state.chars[0] == ("C40", "C01") and state.gold[0] == 3
    assert state.char_deck == ["C03", "C04", "C05", "C02"]
    assert state.char_known == [0, 0, 1, 1]


def test_hire_character_decline_pays_nothing_and_moves_are_not_refunded():
    ships = [9, 10, 12, 13, 14, 15, 16, 17]
    state = given(setup_event(ships=ships, characters=["C01", "C02", "C03"]), started(0))
    state, _ = play(state, {"type": "move_ship", "ship": 1, "to": 11}, {"type": "move_ship", "ship": 0, "to": 10})
    assert state.gold[0] == 4
    state, events = play(state, {"type": "act"}, {"type": "decline_characters"})
    assert state.gold[0] == 4 and state.active == 1


def test_hire_decline():
    state = ready(10, characters=["C01", "C02"])
    state, events = play(state, {"type": "act"})
    assert events[1]["count"] == 2
    state, events = play(state, {"type": "decline_characters"})
    assert events[0] == {"type": "CharactersDeclined", "seat": 0, "returned": ["C01", "C02"], "returned_count": 2}
    assert state.gold[0] == 5 and state.chars[0] == () and state.char_deck == ["C01", "C02"]
    assert state.gold[0] == 5 and not any(e["type"] == "Passed" for e in events)


def test_hire_cost_grows_with_cards_held_and_scuola_grande():
    state = ready(10, character(0, "C01"), character(0, "C02"))
    assert act(state)[1]["price"] == 3
    state = ready(10, character(0, "C01"), special(0, "SB14"))
    assert act(state)[1]["price"] == 1
    state = ready(10, special(0, "SB14"))
    assert act(state)[1]["price"] == 0
    unavailable(10, character(0, "C01"), character(0, "C02"), gold(0, -3))  # cost 3, gold 2
    unavailable(10, characters=[])


def test_example_12_gondola_seats():
    state = ready(4)
    state, _ = play(state, {"type": "act"})
    options = legal(state)
    assert len(options) == 24
    own = [o for o in options if o["colour"] == "white"]
    assert len(own) == 6
    state, events = play(state, {"type": "seat_gondolier", "island": "NAVAGERO", "colour": "brown"})
    assert events[0] == {"type": "GondolierSeated", "seat": 0, "island": "NAVAGERO", "colour": "brown", "price": 5}
    assert state.personal[0] == 4 and state.gold[0] == 0
    # brown (seat 1) at NAVAGERO: only orange, grey and white seats remain, each 5 gold
    assert state.active == 1 and RING[15] == "place_gondolier"
    brown, _ = play(state, {"type": "move_ship", "ship": state.ships.index(11), "to": 15}, {"type": "act"})
    assert len(legal(brown)) == 23
    at_navagero = [o for o in legal(brown) if o["island"] == "NAVAGERO"]
    assert sorted(o["colour"] for o in at_navagero) == ["grey", "orange", "white"]


def test_place_gondolier_prices_harbor_and_refusals():
    state = ready(4, gold(0, -3))  # 2 gold: only own-colour seats
    state, _ = play(state, {"type": "act"})
    assert {o["colour"] for o in legal(state)} == {"white"}
    refused(state, {"type": "seat_gondolier", "island": "NAVAGERO", "colour": "grey"})
    refused(state, {"type": "seat_gondolier", "island": "SG_SM", "colour": "white"}, "invalid_command")
    refused(state, {"type": "seat_gondolier", "island": "NAVAGERO", "colour": "pink"}, "invalid_command")
    state = ready(4, special(0, "SB01"), gold(0, -2))  # Harbor, 3 gold
    state, _ = play(state, {"type": "act"})
    assert len(legal(state)) == 24
    state, events = play(state, {"type": "seat_gondolier", "island": "NAVAGERO", "colour": "white"})
    assert events[0]["price"] == 1
    state = ready(4, special(0, "SB01"))
    state, _ = play(state, {"type": "act"})
    assert decide(state, {"type": "seat_gondolier", "island": "NAVAGERO", "colour": "grey"})[0]["price"] == 3


def test_two_and_three_players_use_colours_not_in_play_and_have_no_serenella():
    state = ready(4, n=2)
    state, _ = play(state, {"type": "act"})
    options = legal(state)
    assert len(options) == 20 and not any(o["island"] == "SACCA_SERENELLA" for o in options)
    state, events = play(state, {"type": "seat_gondolier", "island": "SAN_DONATO", "colour": "grey"})
    assert events[0]["price"] == 5


def test_place_gondolier_needs_a_personal_gondolier_and_a_free_seat():
    fired = [{"type": "GondolierFired", "seat": 0, "gold": 0}] * 5
    unavailable(4, *fired)
    unavailable(4, gold(0, -4))  # 1 gold: no seat is affordable


def test_gondoliers_fire_or_hire_exactly_one():
    state = ready(9)
    state, _ = play(state, {"type": "act"})
    assert legal(state) == [{"type": "fire_gondolier"}, {"type": "hire_gondolier"}]
    after, events = play(state, {"type": "fire_gondolier"})
    assert events[0] == {"type": "GondolierFired", "seat": 0, "gold": 3}
    assert after.personal[0] == 4 and after.general[0] == 3 and after.gold[0] == 8 and after.active == 1
    after, events = play(state, {"type": "hire_gondolier"})
    assert events[0] == {"type": "GondolierHired", "seat": 0, "price": 3}
    assert after.personal[0] == 6 and after.general[0] == 1 and after.gold[0] == 2


def test_hire_gondolier_limits():
    hired = [{"type": "GondolierHired", "seat": 0, "price": 0}] * 2  # 7 owned, general supply empty
    state = ready(9, *hired)
    state, _ = play(state, {"type": "act"})
    assert legal(state) == [{"type": "fire_gondolier"}]
    refused(state, {"type": "hire_gondolier"})
    state = ready(9, gold(0, -3))
    state, _ = play(state, {"type": "act"})
    assert legal(state) == [{"type": "fire_gondolier"}]
    # no personal gondolier and no gold: the action is unavailable
    fired = [{"type": "GondolierFired", "seat": 0, "gold": 0}] * 5
    unavailable(9, *fired, gold(0, -3))
    state = ready(9, *fired)
    state, _ = play(state, {"type": "act"})
    assert legal(state) == [{"type": "hire_gondolier"}]
    refused(state, {"type": "fire_gondolier"})


def income_board():
    return [
        *tile(0, "SAN_DONATO:r2c4", "shop", "red"),
        *tile(0, "SAN_DONATO:r1c4", "street", "ST_R"),
        *tile(0, "SAN_DONATO:r2c3", "street", "ST_RB"),
        *tile(0, "SAN_DONATO:r3c3", "street", "ST_R"),
    ]


def test_seed_income_example_red_shop_4_blue_shop_2_pays_6():
    """§2.2a (v1.1) and §9: the seed's example 「他總共獲得 6 元:紅色商店獲得 4 元,藍色商店獲得 2 元」 can be built from
    the 2-3 player supplies. SACCA_MATTIA r2c3 touches four paved spaces, r2c1 two."""
    board = [
        *tile(0, "SACCA_MATTIA:r2c3", "shop", "red"),
        *tile(0, "SACCA_MATTIA:r2c1", "shop", "blue"),
        *tile(0, "SACCA_MATTIA:r1c3", "street", "ST_R"),
        *tile(0, "SACCA_MATTIA:r3c3", "street", "ST_R"),
        *tile(0, "SACCA_MATTIA:r2c4", "street", "ST_RG"),
        *tile(0, "SACCA_MATTIA:r2c2", "street", "ST_RB"),  # touches both shops
        *tile(0, "SACCA_MATTIA:r1c1", "street", "ST_B"),
    ]
    used = Counter(e["face"] for e in board if e["type"] == "TilePlaced" and e["kind"] == "street")
    small = {face: data.STREET_COUNTS[face] - data.SMALL_GAME_REMOVED_STREETS.get(face, 0) for face in used}
    assert all(used[face] <= small[face] for face in used)
    state = ready(3, *board, n=3)
    state, _ = play(state, {"type": "act"})
    both = {"type": "collect_income", "island": "SACCA_MATTIA", "shops": ["SACCA_MATTIA:r2c1", "SACCA_MATTIA:r2c3"]}
    assert both in legal(state)
    events = decide(state, both)
    assert events[0] == {
        "type": "IncomeCollected",
        "seat": 0,
        "island": "SACCA_MATTIA",
        "shops": ["SACCA_MATTIA:r2c1", "SACCA_MATTIA:r2c3"],
        "gold": 6,
    }
    red_only = decide(state, {**both, "shops": ["SACCA_MATTIA:r2c3"]})
    blue_only = decide(state, {**both, "shops": ["SACCA_MATTIA:r2c1"]})
    assert (red_only[0]["gold"], blue_only[0]["gold"]) == (4, 2)
    after, _ = play(state, both)
    assert after.gold[0] == state.gold[0] + 6


def test_example_4_income_counts_only_streets_touching_the_shop():
    state = ready(3, *income_board())
    state, _ = play(state, {"type": "act"})
    events = decide(state, {"type": "collect_income", "island": "SAN_DONATO", "shops": ["SAN_DONATO:r2c4"]})
    assert events[0] == {
        "type": "IncomeCollected",
        "seat": 0,
        "island": "SAN_DONATO",
        "shops": ["SAN_DONATO:r2c4"],
        "gold": 2,
    }
    blue = [*tile(0, "SAN_DONATO:r2c4", "shop", "blue"), *income_board()[2:]]
    state = ready(3, *blue)
    state, _ = play(state, {"type": "act"})
    assert (
        decide(state, {"type": "collect_income", "island": "SAN_DONATO", "shops": ["SAN_DONATO:r2c4"]})[0]["gold"] == 1
    )


def test_income_options_one_shop_per_colour_own_shops_only_and_market_hall():
    board = [
        *income_board(),
        *tile(0, "SAN_DONATO:r2c2", "shop", "red"),
        *tile(1, "SAN_DONATO:r3c4", "shop", "blue"),
        *tile(0, "SAN_DONATO:r3c1", "shop", "blue"),
    ]
    state = ready(3, *board)
    state, _ = play(state, {"type": "act"})
    options = [o for o in legal(state) if o["island"] == "SAN_DONATO"]
    assert len(options) == 3 * 2  # red: none/r2c2/r2c4, blue: none/r3c1
    assert len(legal(state)) == 6 + 5
    refused(state, {"type": "collect_income", "island": "SAN_DONATO", "shops": ["SAN_DONATO:r2c4", "SAN_DONATO:r2c2"]})
    refused(state, {"type": "collect_income", "island": "SAN_DONATO", "shops": ["SAN_DONATO:r3c4"]})
    refused(state, {"type": "collect_income", "island": "NAVAGERO", "shops": ["SAN_DONATO:r2c4"]})
    refused(state, {"type": "collect_income", "island": "SAN_DONATO", "shops": "SAN_DONATO:r2c4"}, "invalid_command")
    events = decide(
        state, {"type": "collect_income", "island": "SAN_DONATO", "shops": ["SAN_DONATO:r3c1", "SAN_DONATO:r2c4"]}
    )
    assert events[0]["gold"] == 2 and events[0]["shops"] == ["SAN_DONATO:r2c4", "SAN_DONATO:r3c1"]
    state = ready(3, *board, special(0, "SB11"))
    state, _ = play(state, {"type": "act"})
    events = decide(
        state, {"type": "collect_income", "island": "SAN_DONATO", "shops": ["SAN_DONATO:r3c1", "SAN_DONATO:r2c4"]}
    )
    assert events[0]["gold"] == 3  # +1 for the red shop that earned; the blue one earned nothing
    assert decide(state, {"type": "collect_income", "island": "NAVAGERO", "shops": []})[0]["gold"] == 0


def factories(seat: int, count: int) -> list[dict]:
    spaces = ["SACCA_MATTIA:r0c1", "SACCA_MATTIA:r0c2", "SACCA_MATTIA:r0c4", "SACCA_MATTIA:r0c5"]
    out = []
    for sp in spaces[:count]:
        out += tile(seat, sp, "glass_factory")
    return out


def test_example_6_production_limited_by_vp():
    state = ready(6, *factories(0, 3), vp(0, -2))  # VP 3
    state, _ = play(state, {"type": "act"})
    assert legal(state) == [{"type": "produce", "factories": 0}, {"type": "produce", "factories": 1}]
    refused(state, {"type": "produce", "factories": 2})
    state, events = play(state, {"type": "produce", "factories": 1})
    assert types(events) == ["FactoriesUsed", "BeadDrawn"]
    assert state.vp[0] == 1 and sum(state.beads[0]) == 1 and sum(state.bag) == 29
    assert state.phase == "SELL"


def test_production_limited_by_factories_and_bag():
    state = ready(6, *factories(0, 2), vp(0, 20), *tile(1, "SACCA_MATTIA:r0c4", "glass_factory"))
    state, _ = play(state, {"type": "act"})
    assert len(legal(state)) == 3  # 0, 1, 2
    drained = []
    for colour in ("red", "green", "blue"):
        drained += beads(1, colour, 10 if colour != "blue" else 9)
    state = ready(6, *factories(0, 3), vp(0, 20), *drained)
    state, _ = play(state, {"type": "act"})
    assert legal(state)[-1] == {"type": "produce", "factories": 1}


def test_seed_example_production_and_sale():
    # only green beads are left in the bag, so both draws are green
    others = [*beads(1, "red", 10), *beads(1, "blue", 9)]
    state = ready(6, *factories(0, 3), vp(0, 5), *beads(0, "green", 1), *beads(0, "blue", 1), *others)
    state, _ = play(state, {"type": "act"})
    state, events = play(state, {"type": "produce", "factories": 2})
    assert events == [
        {"type": "FactoriesUsed", "seat": 0, "factories": 2, "vp_lost": 4},
        {"type": "BeadDrawn", "seat": 0, "colour": "green", "extra": False},
        {"type": "BeadDrawn", "seat": 0, "colour": "green", "extra": False},
    ]
    assert state.vp[0] == 6 and state.beads[0] == (0, 3, 1)
    state, events = play(state, {"type": "sell_beads", "beads": {"green": 3}})
    assert events[0] == {"type": "BeadsSold", "seat": 0, "beads": {"green": 3}, "gold": 20}
    assert state.gold[0] == 25 and state.beads[0] == (0, 0, 1)


def sell_state(*held: dict, cards: tuple = ()):
    extra = [special(0, c) for c in cards]
    bead_events = []
    for h in held:
        for colour, count in h.items():
            bead_events += beads(0, colour, count)
    state = ready(6, *extra, *bead_events)
    state, _ = play(state, {"type": "act"}, {"type": "produce", "factories": 0})
    return state


def test_example_7_sale_options():
    state = sell_state({"red": 2, "green": 1})
    assert legal(state) == [
        {"type": "skip_sale"},
        {"type": "sell_beads", "beads": {"red": 1}},
        {"type": "sell_beads", "beads": {"red": 2}},
        {"type": "sell_beads", "beads": {"green": 1}},
    ]
    refused(state, {"type": "sell_beads", "beads": {"red": 1, "green": 1}})
    assert decide(state, {"type": "sell_beads", "beads": {"red": 2}})[0]["gold"] == 12
    assert decide(state, {"type": "sell_beads", "beads": {"red": 1}})[0]["gold"] == 5
    state = sell_state({"red": 1, "green": 1, "blue": 1}, cards=("SB04", "SB05"))
    sales = [o["beads"] for o in legal(state) if o["type"] == "sell_beads"]
    assert {"red": 1, "green": 1} in sales and {"green": 1, "blue": 1} in sales
    assert {"blue": 1, "red": 1} not in sales
    refused(state, {"type": "sell_beads", "beads": {"red": 1, "green": 1, "blue": 1}})
    refused(state, {"type": "sell_beads", "beads": {"red": 1, "blue": 1}})
    events = decide(state, {"type": "sell_beads", "beads": {"green": 1, "blue": 1}})
    assert events[0]["gold"] == 12
    after = given(*events, state=state)
    assert after.beads[0] == (1, 0, 0) and after.bag == (9, 10, 10)


def test_sale_prices_three_beads_and_mint():
    state = sell_state({"blue": 4})
    assert decide(state, {"type": "sell_beads", "beads": {"blue": 3}})[0]["gold"] == 20
    refused(state, {"type": "sell_beads", "beads": {"blue": 4}})
    refused(state, {"type": "sell_beads", "beads": {"blue": 0}})
    refused(state, {"type": "sell_beads", "beads": {"purple": 1}}, "invalid_command")
    refused(state, {"type": "sell_beads", "beads": {}}, "invalid_command")
    state = sell_state({"blue": 1}, cards=("SB12",))
    assert decide(state, {"type": "sell_beads", "beads": {"blue": 1}})[0]["gold"] == 7


def test_production_may_do_nothing():
    state = ready(6)
    state, _ = play(state, {"type": "act"})
    assert legal(state) == [{"type": "produce", "factories": 0}]
    state, events = play(state, {"type": "produce", "factories": 0}, {"type": "skip_sale"})
    assert types(events) == ["FactoriesUsed", "SaleSkipped", "TurnEnded", "TurnStarted"]


def test_out_of_phase_commands_are_refused():
    state = ready(6)
    refused(state, {"type": "produce", "factories": 0})
    refused(state, {"type": "seat_gondolier", "island": "NAVAGERO", "colour": "white"})
    state, _ = play(state, {"type": "act"})
    refused(state, {"type": "act"})
    refused(state, {"type": "skip_sale"})


def test_unused_helpers_are_used():
    assert bought(0, "shop", "red")["face"] == "red"
    assert seated(0, "NAVAGERO", "white")["colour"] == "white"
