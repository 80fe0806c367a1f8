"""Craftsman (§4.4), trader (§4.5), prospector (§4.7) and the round structure (§3)."""

from __future__ import annotations

from domain.puerto_rico.data import CORN, INDIGO, SUGAR, TOBACCO
from tests.domain.puerto_rico.helpers import act, give, legal, new_game, of_type, pick, play_passes, refused

PASS = {"type": "pass"}


def sell(good):
    return {"type": "sell", "good": good}


# ------------------------------------------------------------------ craftsman


def test_production_needs_occupied_plantations_and_building_circles():
    s = new_game(4)
    give(
        s,
        0,
        tiles={"corn": (2, 2), "indigo": (3, 3), "sugar": (2, 2), "tobacco": (1, 1), "coffee": (1, 0)},
        buildings={
            "small_indigo_plant": 1,
            "indigo_plant": 1,
            "sugar_mill": 0,
            "tobacco_storage": 2,
            "coffee_roaster": 2,
        },
    )
    events, s = pick(s, "craftsman", 0)
    row = of_type(events, "GoodsProduced")[0]["production"][0]
    # corn 2 (no building), indigo min(3, 1+1) = 2, sugar: unmanned mill 0, tobacco 1, coffee: unmanned plantation 0
    assert row == {"seat": 0, "goods": {"corn": 2, "indigo": 2, "tobacco": 1}, "factory_doubloons": 0}
    assert s.players[0].goods == [2, 2, 0, 1, 0]


def test_shortage_hurts_the_players_served_later():
    """D15: players are served in turn order from the picker."""
    s = new_game(4)
    s.goods_supply[CORN] = 3
    for seat in range(4):
        give(s, seat, tiles={"corn": (2, 2)})
    s.goods_supply[CORN] = 3
    events, s = pick(s, "craftsman", 2)
    rows = of_type(events, "GoodsProduced")[0]["production"]
    assert [(r["seat"], r["goods"]) for r in rows] == [(2, {"corn": 2}), (3, {"corn": 1}), (0, {}), (1, {})]


def test_factory_pays_for_kinds_actually_received():
    s = new_game(4)
    give(
        s,
        1,
        tiles={"corn": (1, 1), "indigo": (1, 1), "sugar": (1, 1)},
        buildings={"factory": 1, "small_indigo_plant": 1, "small_sugar_mill": 1},
    )
    s.goods_supply[SUGAR] = 0
    money = s.players[1].doubloons
    events, s = pick(s, "craftsman", 0)
    row = of_type(events, "GoodsProduced")[0]["production"][1]
    assert row["goods"] == {"corn": 1, "indigo": 1} and row["factory_doubloons"] == 1  # D14: 2 kinds, not 3
    assert s.players[1].doubloons == money + 1


def test_factory_scale():
    from domain.puerto_rico.data import FACTORY_PAY

    assert FACTORY_PAY == (0, 0, 1, 2, 3, 5)


def test_privilege_comes_after_everyone_produced_and_only_for_received_kinds():
    """D2: after all production, a received kind still in the supply."""
    s = new_game(4)
    give(s, 0, tiles={"corn": (1, 1), "indigo": (1, 1)}, buildings={"small_indigo_plant": 1})
    give(s, 1, tiles={"corn": (1, 1)})
    s.goods_supply[INDIGO] = 1
    give(s, 2, tiles={"indigo": (2, 2)}, buildings={"indigo_plant": 2})  # served after seat 0: gets nothing
    events, s = pick(s, "craftsman", 0)
    assert of_type(events, "GoodsProduced")[0]["production"][1]["goods"] == {"corn": 1}  # seat 1 produced first
    assert s.step == "privilege" and s.current == 0
    # indigo ran out (seat 0 took the last), so only corn is eligible
    assert legal(s) == [{"type": "take_good", "good": "corn"}, PASS]
    refused(s, {"type": "take_good", "good": "sugar"})
    events, s = act(s, {"type": "take_good", "good": "corn"})
    assert events[0] == {"type": "ExtraGoodTaken", "seat": 0, "good": "corn"}
    assert s.players[0].goods[CORN] == 2 and s.phase == "pick"


def test_no_privilege_when_the_picker_received_nothing():
    s = new_game(4)
    give(s, 1, tiles={"corn": (1, 1)})
    _, s = pick(s, "craftsman", 0)
    assert s.phase == "pick" and s.current == 1 and s.players[0].goods == [0] * 5


# ------------------------------------------------------------------ trader


def test_prices_with_privilege_and_markets():
    s = new_game(4)
    give(s, 0, goods={"coffee": 1})
    give(s, 1, goods={"corn": 1}, buildings={"small_market": 1, "large_market": 1})
    give(s, 2, goods={"tobacco": 1}, buildings={"small_market": 0})
    _, s = pick(s, "trader", 0)
    events, s = act(s, sell("coffee"))
    assert events[0] == {"type": "GoodSold", "seat": 0, "good": "coffee", "price": 5}
    events, s = act(s, sell("corn"))
    assert events[0]["price"] == 3  # D40: corn sells for 0 + 1 + 2
    events, s = act(s, sell("tobacco"))
    assert events[0]["price"] == 3  # unoccupied market gives nothing
    assert s.players[1].doubloons == 3 + 3 and s.trading_house == [4, 0, 3]


def test_no_duplicates_without_an_office():
    s = new_game(4)
    s.trading_house = [SUGAR]
    s.goods_supply[SUGAR] -= 1
    give(s, 0, goods={"sugar": 2, "indigo": 1})
    give(s, 1, goods={"sugar": 1}, buildings={"office": 1})
    give(s, 2, goods={"sugar": 1})
    _, s = pick(s, "trader", 0)
    assert legal(s) == [sell("indigo"), PASS]
    refused(s, sell("sugar"))
    _, s = act(s, PASS)
    assert legal(s) == [sell("sugar"), PASS]  # the office allows a kind already there
    _, s = act(s, sell("sugar"))
    assert s.trading_house == [SUGAR, SUGAR] and s.phase == "pick"  # seat 2 could not sell: skipped


def test_full_trading_house_ends_the_phase_and_is_emptied():
    """D17: the phase stops when the house is full; emptied at 4."""
    s = new_game(4)
    s.trading_house = [CORN, INDIGO, SUGAR]
    for g in (CORN, INDIGO, SUGAR):
        s.goods_supply[g] -= 1
    give(s, 1, goods={"tobacco": 1})
    give(s, 2, goods={"coffee": 1})
    supply = list(s.goods_supply)
    _, s = pick(s, "trader", 1)
    events, s = act(s, sell("tobacco"))
    assert [e["type"] for e in events] == ["GoodSold", "TradingHouseEmptied"]
    assert events[1]["goods"] == ["corn", "indigo", "sugar", "tobacco"]
    assert s.trading_house == [] and s.players[2].goods[4] == 1  # seat 2 got no turn
    assert s.goods_supply == [supply[0] + 1, supply[1] + 1, supply[2] + 1, supply[3] + 1, supply[4]]


def test_trading_house_not_full_keeps_its_goods_and_blocks_them():
    """D17: not emptied below 4 goods."""
    s = new_game(4)
    give(s, 0, goods={"tobacco": 2})
    _, s = pick(s, "trader", 0)
    _, s = act(s, sell("tobacco"))
    assert s.trading_house == [TOBACCO] and s.phase == "pick"
    s.role_taken = [False] * len(s.role_taken)
    _, s = pick(s, "trader", 0)
    assert s.phase == "pick"  # tobacco blocked, nobody else can sell


def test_pass_in_trader_earns_nothing():
    s = new_game(4)
    give(s, 0, goods={"corn": 1})
    money = s.players[0].doubloons
    _, s = pick(s, "trader", 0)
    _, s = act(s, PASS)
    assert s.players[0].doubloons == money  # D39


# ------------------------------------------------------------------ prospector and round structure


def test_prospector_takes_one_doubloon_plus_the_card_pile():
    s = new_game(4)
    s.role_money[6] = 2
    events, s = pick(s, "prospector", 0)
    assert events == [{"type": "RoleSelected", "seat": 0, "role": "prospector", "doubloons": 2, "prospector_bonus": 1}]
    assert s.players[0].doubloons == 3 + 3 and s.current == 1 and s.role_money[6] == 0


def test_round_bonus_on_unpicked_cards_and_governor_passes():
    s = new_game(4)
    for role in ("prospector", "builder", "trader", "craftsman"):
        _, s = act(s, {"type": "select_role", "role": role})
        s = play_passes(s)
    assert s.round == 2 and s.governor == 1 and s.current == 1
    assert dict(zip(s.role_names, s.role_money, strict=True)) == {
        "settler": 1,
        "mayor": 1,
        "builder": 0,
        "craftsman": 0,
        "trader": 0,
        "captain": 1,
        "prospector": 0,
    }
    assert s.role_taken == [False] * 7
    _, s = act(s, {"type": "select_role", "role": "settler"})
    assert s.players[1].doubloons >= 4


def test_five_players_prospectors_have_separate_piles():
    """D30: two separate prospector cards."""
    s = new_game(5)
    s.role_money[6:8] = [1, 3]
    _, s = pick(s, "prospector_2", 0)
    assert s.players[0].doubloons == 4 + 3 + 1 and s.role_money[6:8] == [1, 0]
    _, s = act(s, {"type": "select_role", "role": "prospector"})
    assert s.players[1].doubloons == 4 + 1 + 1


def test_two_player_round_alternates_three_picks_each():
    s = new_game(2)
    pickers = []
    for role in ("prospector", "builder", "trader", "craftsman", "settler", "captain"):
        pickers.append(s.current)
        _, s = act(s, {"type": "select_role", "role": role})
        s = play_passes(s)
    assert pickers == [0, 1, 0, 1, 0, 1]
    assert s.round == 2 and s.governor == 1 and s.current == 1
    assert s.role_money == [0, 1, 0, 0, 0, 0, 0]  # only the mayor was left


def test_picking_is_mandatory_and_in_turn():
    s = new_game(4)
    refused(s, PASS)
    refused(s, {"type": "select_role", "role": "settler"}, code="not_your_turn", seat=1)
    refused(s, {"type": "select_role", "role": "banker"}, code="invalid_command")


def test_every_production_building_and_the_factory_top_rate():
    s = new_game(4)
    give(
        s,
        3,
        tiles={"corn": (1, 1), "indigo": (1, 1), "sugar": (2, 2), "tobacco": (3, 3), "coffee": (3, 3)},
        buildings={
            "small_indigo_plant": 1,
            "small_sugar_mill": 1,
            "sugar_mill": 1,
            "tobacco_storage": 3,
            "coffee_roaster": 2,
            "factory": 1,
        },
    )
    money = s.players[3].doubloons
    events, s = pick(s, "craftsman", 3)
    row = of_type(events, "GoodsProduced")[0]["production"][0]
    # sugar: 2 plantations, 1 + 1 mill circles; coffee: 3 plantations but only 2 roaster circles
    assert row["goods"] == {"corn": 1, "indigo": 1, "sugar": 2, "tobacco": 3, "coffee": 2}
    assert row["factory_doubloons"] == 5 and s.players[3].doubloons == money + 5
