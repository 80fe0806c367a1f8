"""Phase-5 wheel actions, movement, exploration, buildings and turn structure (§7–§9)."""

from __future__ import annotations

from domain.archipelago import RULES
from domain.archipelago import data as D
from domain.archipelago.state import population
from tests.domain.archipelago.fixtures import (
    do,
    give_card,
    island,
    of,
    put_building,
    put_tile,
    put_unit,
    refused,
    stock,
    turn_of,
    types,
)


# ---------------------------------------------------------------------------------------------------- harvest
def test_harvest_assigns_units_to_icons_and_gains_cubes():
    st = island()
    st, ev = do(st, {"type": "harvest", "resource": "WOOD", "with": []})
    assert st.players[0]["ad_avail"] == st.players[0]["ad_total"] - 1
    refused(st, {"type": "harvest_done"})
    refused(st, {"type": "harvest_assign", "unit": "c0-91", "icon": 0})  # icon 0 is CATTLE
    st, _ = do(st, {"type": "harvest_assign", "unit": "c0-91", "icon": 2})
    refused(st, {"type": "harvest_assign", "unit": "c0-92", "icon": 2})  # occupied
    assert st.units["c0-91"]["engaged"]
    st, ev = do(st, {"type": "harvest_done"})
    assert st.players[0]["cubes"]["WOOD"] == 1 and st.step is None


def test_harvest_needs_a_possible_assignment_and_one_action_per_turn():
    st = island()
    refused(st, {"type": "harvest", "resource": "IRON", "with": []})
    refused(st, {"type": "harvest", "resource": "FISH", "with": []})  # ship on the ocean start has no icon
    st, _ = do(st, {"type": "tax", "with": []})
    refused(st, {"type": "harvest", "resource": "WOOD", "with": []})


def test_fish_takes_ships_only_and_housed_units_cannot_harvest():
    st = turn_of(island(), 1)
    st, _ = do(st, {"type": "harvest", "resource": "FISH", "with": []}, 1)
    refused(st, {"type": "harvest_assign", "unit": "c1-91", "icon": 0}, seat=1)
    st, _ = do(st, {"type": "harvest_assign", "unit": "s1-90", "icon": 0}, 1)
    st2 = turn_of(island(), 0)
    put_building(st2, "E07", "MARKET", "c0-91")
    st2, _ = do(st2, {"type": "harvest", "resource": "WOOD", "with": []})
    refused(st2, {"type": "harvest_assign", "unit": "c0-91", "icon": 2})


def test_harvest_bonus_cards_foreman_and_irrigation():
    st = island()
    give_card(st, 0, "C05")
    give_card(st, 0, "P02")
    refused(st, {"type": "harvest", "resource": "WOOD", "with": ["P02"]})
    st, _ = do(st, {"type": "harvest", "resource": "FRUIT", "with": ["C05", "P02"]})
    st, _ = do(st, {"type": "harvest_assign", "unit": "c0-91", "icon": 1})
    st, _ = do(st, {"type": "harvest_done"})
    assert st.players[0]["cubes"]["FRUIT"] == 2  # FOREMAN needs 2 units; IRRIGATION +1
    assert {"C05", "P02"} <= st.card_used


def test_harvest_on_a_controlled_tile_needs_a_grant():
    st = island()
    put_unit(st, 2, "C", "E07", "c2-95")
    put_building(st, "E07", "TOWN", "c2-95")
    refused(st, {"type": "harvest", "resource": "WOOD", "with": []})


# ---------------------------------------------------------------------------------------------------- recruit / births
def test_recruit_price_follows_surplus_and_overseer():
    st = island()
    st.sur = 5
    give_card(st, 0, "C09")
    st, _ = do(st, {"type": "recruit", "with": ["C09"]})
    refused(st, {"type": "hire", "tile": "E03"})  # no unit of seat 0 there
    st, _ = do(st, {"type": "hire", "tile": "E07"})
    assert st.players[0]["money"] == 10 - 1 and st.sur == 4  # 3 - 2 (OVERSEER)
    refused(st, {"type": "hire", "tile": "E07"})  # per-tile limit of 3
    st, _ = do(st, {"type": "recruit_done"})
    assert population(st) == 4


def test_recruit_on_a_tile_where_the_actor_has_only_a_lying_citizen():
    """§8.2 (v1.2): a hire needs a citizen of the actor, standing or lying, or a ship on the tile; the seed
    names no posture (「工人只能放置在已經有你的人、或是船的該格地圖(陸地)上」)."""
    st = island()
    st.sur = 5
    put_unit(st, 0, "C", "E03", "c0-95", lying=True)
    st, _ = do(st, {"type": "recruit", "with": []})
    assert {"type": "hire", "tile": "E03"} in RULES.legal_commands(st, 0)
    st, events = do(st, {"type": "hire", "tile": "E03"})
    hired = [u for u in st.units.values() if u["owner"] == 0 and u["tile"] == "E03" and not u["lying"]]
    assert len(hired) == 1 and st.sur == 4


def test_recruit_impossible_without_surplus():
    st = island()
    st.sur = 0
    refused(st, {"type": "recruit", "with": []})


def test_reproduce_needs_two_standing_citizens_once_per_round():
    st = island()
    st, _ = do(st, {"type": "reproduce"})
    refused(st, {"type": "birth", "tile": "E03"})
    st, _ = do(st, {"type": "birth", "tile": "E07"})
    refused(st, {"type": "birth", "tile": "E07"})
    st, _ = do(st, {"type": "reproduce_done"})
    assert st.players[0]["reproduced"] and population(st) == 4
    st = turn_of(st, 0)
    refused(st, {"type": "reproduce"})


def test_lying_citizens_do_not_reproduce():
    st = island()
    st.units["c0-92"]["lying"] = True
    refused(st, {"type": "reproduce"})


# ---------------------------------------------------------------------------------------------------- tax / trade
def test_tax_income_and_rebellion():
    st = island()
    put_building(st, "E07", "TOWN", "c0-91")
    st, ev = do(st, {"type": "tax", "with": []})
    assert of(ev, "MoneyChanged")[0]["delta"] == 2 + 1 + 2  # 2 standing citizens, 1 ship, 1 town
    assert st.reb == 1 and st.tax_used == 1


def test_tax_slots_are_limited_and_tax_reform_governor_cancel_rebellion():
    st = island()
    st.tax_used = 2
    refused(st, {"type": "tax", "with": []})
    st = island()
    give_card(st, 0, "P12")
    st.reb = 0
    st, _ = do(st, {"type": "tax", "with": []})
    assert st.reb == 0
    st = turn_of(st, 0)
    st, _ = do(st, {"type": "tax", "with": []})
    assert st.reb == 1
    st = island()
    give_card(st, 0, "C20")
    put_building(st, "E07", "TOWN", "c0-91")
    give_card(st, 0, "C07")
    st, ev = do(st, {"type": "tax", "with": ["C07"]})
    assert st.reb == 0 and of(ev, "MoneyChanged")[0]["delta"] == 7


def test_trade_prices_follow_the_rows():
    st = island()
    st, ev = do(st, {"type": "trade", "market": "DOM", "op": "BUY", "resource": "IRON"})
    assert of(ev, "MarketTraded")[0]["price"] == 6 and st.players[0]["cubes"]["IRON"] == 1
    st = turn_of(st, 0)
    refused(st, {"type": "trade", "market": "EXP", "op": "SELL", "resource": "WOOD"})
    st, ev = do(st, {"type": "trade", "market": "EXP", "op": "SELL", "resource": "IRON"})
    assert of(ev, "MarketTraded")[0]["price"] == 9 and st.players[0]["money"] == 13
    st = turn_of(st, 0)
    refused(st, {"type": "trade", "market": "EXP", "op": "BUY", "resource": "FISH"})


# ---------------------------------------------------------------------------------------------------- explore
def explore_state(tile="E05", up="B"):
    st = island()
    st.stack = [[tile, up]] + [x for x in st.stack if x[0] != tile]
    return st


def test_explore_placement_rules_and_rewards():
    st = explore_state("E05", "B")  # face B: all sea, icons FIS, FIS; face A SSSPMP
    stacks = list(st.stacks)
    st, ev = do(st, {"type": "explore", "slot": "PERSONAL", "pick": "TOP", "with": []})
    assert of(ev, "TileDrawn")[0]["tile"] == "E05"
    pos = {"q": 0, "r": -1}  # touches the start and E03
    refused(st, {"type": "place_tile", "pos": {"q": 2, "r": 0}, "face": "B", "rot": 0, "mover": "s0-90"})
    refused(st, {"type": "place_tile", "pos": {"q": 3, "r": 3}, "face": "B", "rot": 0, "mover": "s0-90"})
    refused(st, {"type": "place_tile", "pos": pos, "face": "B", "rot": 0, "mover": "c0-91"})  # not adjacent
    refused(st, {"type": "place_tile", "pos": pos, "face": "A", "rot": 0, "mover": "s0-90"})  # edge mismatch
    st, ev = do(st, {"type": "place_tile", "pos": pos, "face": "B", "rot": 0, "mover": "s0-90"})
    assert st.units["s0-90"]["tile"] == "E05" and st.players[0]["tokens"] == 1
    assert sum(st.stacks) == sum(stacks) - 1 and st.sur == 3
    # two FISH icons: the market icon choice is automatic, so is the own icon
    assert of(ev, "MarketIconChosen") and of(ev, "OwnIconChosen") and st.step is None
    assert st.players[0]["cubes"]["FISH"] == 1 and st.players[0]["personal_explore_used"]
    st = turn_of(st, 0)
    refused(st, {"type": "explore", "slot": "PERSONAL", "pick": "TOP", "with": []})


def test_explore_icon_choices_and_discard():
    st = explore_state("E03", "A")
    st.stack = [["E13", "A"]] + [x for x in st.stack if x[0] != "E13"]  # SSPPMP WOO STO FRU
    st, _ = do(st, {"type": "explore", "slot": "SHARED", "pick": "TOP", "with": []})
    legal = [c for c in RULES.legal_commands(st, 0) if c["type"] == "place_tile"]
    assert legal
    st, ev = do(st, legal[0])
    assert RULES.to_act(st) == {0} and st.step["phase"] == "icons"
    st, _ = do(st, {"type": "choose_market_icon", "icon": 1})
    refused(st, {"type": "choose_own_icon", "icon": 1})
    st, ev = do(st, {"type": "choose_own_icon", "icon": 0})
    assert st.players[0]["cubes"]["WOOD"] == 1 and st.step is None
    st = turn_of(explore_state(), 0)
    st, _ = do(st, {"type": "explore", "slot": "SHARED", "pick": "SECOND", "with": []})
    st, ev = do(st, {"type": "discard_tile"})
    assert st.tile_discard and st.step is None and st.shared_explores == 1


def test_cartographer_looks_privately_and_keeps_order():
    st = explore_state()
    give_card(st, 0, "C12")
    top3 = [x[0] for x in st.stack[:3]]
    st, ev = do(st, {"type": "explore", "slot": "PERSONAL", "pick": "TOP", "with": ["C12"]})
    look = of(ev, "CartographerLooked")[0]
    assert RULES.redact(look, 1)["tiles"] is None and [t["tile"] for t in look["tiles"]] == top3
    st, ev = do(st, {"type": "cartographer_pick", "index": 1})
    assert of(ev, "TileDrawn")[0]["tile"] == top3[1] and [x[0] for x in st.stack[:2]] == [top3[0], top3[2]]


def test_an_explorer_sees_both_faces_of_the_drawn_tile_in_the_events_and_the_view():
    """§3.10 (v1.2): a tile drawn by EXPLORE shows both faces (「你可以自由看正反兩面」); once drawn both faces are
    public (Q39), so every seat and spectators see them too."""
    st = explore_state("E05", "B")  # face B: all sea, icons FIS, FIS; face A SSSPMP
    st, ev = do(st, {"type": "explore", "slot": "PERSONAL", "pick": "TOP", "with": []})
    drawn = of(ev, "TileDrawn")[0]
    a, b = D.EXPLORATION_TILES["E05"]["A"], D.EXPLORATION_TILES["E05"]["B"]
    assert drawn["faces"]["A"] == {"edges": a.edges, "icons": list(a.icons), "huts": a.huts}
    assert drawn["faces"]["B"] == {"edges": b.edges, "icons": list(b.icons), "huts": b.huts}
    assert drawn["faces"]["A"] != drawn["faces"]["B"]
    for viewer in (0, 1, None):
        assert RULES.redact(drawn, viewer) == drawn
        assert RULES.view(st, viewer)["step"]["tile_faces"] == drawn["faces"]


def test_cartographer_look_shows_both_faces_to_the_user_only():
    """§3.10 (v1.2): CARTOGRAPHER looks show both faces of each tile, to the user only."""
    st = explore_state()
    give_card(st, 0, "C12")
    st, ev = do(st, {"type": "explore", "slot": "PERSONAL", "pick": "TOP", "with": ["C12"]})
    look = of(ev, "CartographerLooked")[0]
    for entry in look["tiles"]:
        assert set(entry["faces"]) == {"A", "B"}
        assert entry["faces"]["A"]["edges"] == D.EXPLORATION_TILES[entry["tile"]]["A"].edges
        assert entry["faces"]["B"]["edges"] == D.EXPLORATION_TILES[entry["tile"]]["B"].edges
    assert RULES.redact(look, 1)["tiles"] is None
    mine = RULES.view(st, 0)["players"][0]["cartographer_tiles"]
    assert mine == look["tiles"]
    assert "cartographer_tiles" not in RULES.view(st, 1)["players"][0]
    assert "cartographer_tiles" not in RULES.view(st, None)["players"][0]


# ---------------------------------------------------------------------------------------------------- migrate
def test_walk_only_across_plain_and_mountain_needs_engineer():
    st = island()
    put_tile(st, "E11", 2, -1, "B", 0)  # mountain links to E07 and E03
    st, _ = do(st, {"type": "migrate"})
    refused(st, {"type": "walk", "citizen": "c0-91", "to": "E11"})
    refused(st, {"type": "walk", "citizen": "c0-91", "to": "OCEAN"})
    st, _ = do(st, {"type": "walk", "citizen": "c0-91", "to": "E03"})
    refused(st, {"type": "walk", "citizen": "c0-91", "to": "E07"})  # one walk
    st, _ = do(st, {"type": "migrate_done"})
    st = turn_of(island(), 0)
    put_tile(st, "E11", 2, -1, "B", 0)
    give_card(st, 0, "C17")
    st, _ = do(st, {"type": "migrate"})
    st, _ = do(st, {"type": "walk", "citizen": "c0-91", "to": "E11"})


def test_ship_moves_carry_passengers_and_convoys_use_bridges():
    st = island()
    put_unit(st, 0, "S", "E07", "s0-93")
    put_unit(st, 0, "S", "OCEAN", "s0-94")
    st, _ = do(st, {"type": "migrate"})
    # convoy from E07 to E03 (via the ocean start) needs a ship on every tile of the way
    refused(st, {"type": "convoy", "citizen": "c0-91", "to": "E03"})
    st, _ = do(st, {"type": "move_ship", "ship": "s0-94", "to": "E03", "passengers": []})
    refused(st, {"type": "move_ship", "ship": "s0-94", "to": "OCEAN", "passengers": []})  # one sea step
    st, _ = do(st, {"type": "convoy", "citizen": "c0-91", "to": "E03"})
    assert st.units["c0-91"]["tile"] == "E03"
    st, _ = do(st, {"type": "convoy", "citizen": "c0-91", "to": "E07"})
    refused(st, {"type": "convoy", "citizen": "c0-91", "to": "E03"})  # 1 + 1 ship move = 2 convoys
    st, _ = do(st, {"type": "move_ship", "ship": "s0-93", "to": "OCEAN", "passengers": []})
    st, _ = do(st, {"type": "migrate_done"})
    st = turn_of(island(), 0)
    put_unit(st, 0, "S", "E07", "s0-93")
    st, _ = do(st, {"type": "migrate"})
    put_tile(st, "E05", 0, 1, "B", 0)  # an islet touching E07 and the start across sea
    refused(st, {"type": "move_ship", "ship": "s0-93", "to": "OCEAN", "passengers": ["c0-91"]})  # no land
    refused(st, {"type": "move_ship", "ship": "s0-93", "to": "E03", "passengers": []})  # plain link
    st, _ = do(st, {"type": "move_ship", "ship": "s0-93", "to": "E05", "passengers": ["c0-91", "c0-92"]})
    assert st.units["c0-92"]["tile"] == "E05" and st.units["s0-93"]["tile"] == "E05"


def test_per_tile_limit_blocks_moves_and_colonial_charter_raises_it():
    st = island()
    put_unit(st, 0, "C", "E03", "c0-95")
    put_unit(st, 0, "C", "E03", "c0-96")
    put_unit(st, 0, "C", "E03", "c0-97")
    st, _ = do(st, {"type": "migrate"})
    refused(st, {"type": "walk", "citizen": "c0-91", "to": "E03"})
    st = turn_of(st, 0)
    give_card(st, 0, "P16")
    st, _ = do(st, {"type": "migrate"})
    st, _ = do(st, {"type": "walk", "citizen": "c0-91", "to": "E03"})


def test_enter_and_leave_buildings():
    st = island()
    put_building(st, "E03", "MARKET")
    put_building(st, "E07", "PORT")
    st, _ = do(st, {"type": "migrate"})
    refused(st, {"type": "enter_building", "unit": "s0-90", "building": "E03:MARKET"})
    st, _ = do(st, {"type": "enter_building", "unit": "c0-91", "building": "E03:MARKET"})
    assert st.units["c0-91"]["tile"] == "E03" and st.buildings["E03"]["MARKET"] == "c0-91"
    refused(st, {"type": "walk", "citizen": "c0-91", "to": "E07"})
    st, _ = do(st, {"type": "walk", "citizen": "c0-92", "to": "E03"})
    refused(st, {"type": "enter_building", "unit": "c0-92", "building": "E07:PORT"})  # moved already
    st, _ = do(st, {"type": "enter_building", "unit": "s0-90", "building": "E07:PORT"})
    st, _ = do(st, {"type": "migrate_done"})
    st = turn_of(st, 0)
    st, _ = do(st, {"type": "migrate"})
    st, _ = do(st, {"type": "leave_building", "unit": "c0-91"})
    assert st.buildings["E03"]["MARKET"] is None and st.units["c0-91"]["place"] == "LAND"


# ---------------------------------------------------------------------------------------------------- build
def test_build_town_controls_the_tile_and_later_buildings_are_temporary():
    st = island()
    stock(st, 0, STONE=3, WOOD=1, FRUIT=1, CATTLE=1)
    refused(st, {"type": "build", "building": "TOWN", "tile": "E03", "builder": "c0-91", "tokens": {}})
    st, ev = do(st, {"type": "build", "building": "TOWN", "tile": "E07", "builder": "c0-91", "tokens": {}})
    assert st.players[0]["money"] == 8 and st.buildings["E07"]["TOWN"] == "c0-91"
    assert st.units["c0-91"]["engaged"] and RULES.view(st, None)["tiles"][1]["controller"] == 0
    st = turn_of(st, 0)
    st, _ = do(st, {"type": "build", "building": "MARKET", "tile": "E07", "builder": "c0-92", "tokens": {}})
    assert st.units["c0-92"]["temp"]
    st = turn_of(st, 0)
    refused(st, {"type": "build", "building": "MARKET", "tile": "E07", "builder": "c0-92", "tokens": {}})


def test_build_costs_tokens_architect_and_ship_rules():
    st = island()
    stock(st, 0, STONE=1)
    st.players[0]["tokens"] = 1
    st.stacks[0] -= 1
    refused(st, {"type": "build", "building": "TEMPLE", "tile": "E07", "builder": "c0-91", "tokens": {}})
    st, ev = do(st, {"type": "build", "building": "TEMPLE", "tile": "E07", "builder": "c0-91", "tokens": {"STONE": 1}})
    assert of(ev, "CubesPaid")[0] == {
        "type": "CubesPaid",
        "seat": 0,
        "cubes": {"STONE": 1},
        "tokens": 1,
        "money": 1,
        "reason": "build",
    }
    st = turn_of(st, 0)
    give_card(st, 1, "C14")  # shareable: seat 0 pays seat 1 a florin
    stock(st, 0, WOOD=1)
    refused(
        st,
        {
            "type": "build",
            "building": "SHIP",
            "tile": "E07",
            "builder": "c0-92",
            "with": ["C14"],
            "waive": "WOOD",
            "tokens": {},
        },
    )
    money1 = st.players[1]["money"]
    st, _ = do(
        st,
        {
            "type": "build",
            "building": "TOWN",
            "tile": "E07",
            "builder": "c0-92",
            "with": ["C14"],
            "waive": "STONE",
            "tokens": {},
        },
    )
    assert st.players[1]["money"] == money1 + 1 and st.players[0]["cubes"]["WOOD"] == 0
    st = turn_of(st, 0)
    refused(st, {"type": "build", "building": "PORT", "tile": "OCEAN", "builder": "s0-90", "tokens": {}})


def test_build_ship_by_a_housed_citizen_and_shipyards():
    st = island()
    stock(st, 0, WOOD=2)
    put_building(st, "E07", "TOWN", "c0-91")
    give_card(st, 0, "P10")
    st, ev = do(st, {"type": "build", "building": "SHIP", "tile": "E07", "builder": "c0-91", "tokens": {}})
    assert of(ev, "ShipAdded") and st.players[0]["money"] == 10 and not st.units["c0-91"]["engaged"]


def test_build_on_another_players_tile_needs_permission():
    st = island()
    stock(st, 0, FRUIT=1, CATTLE=1)
    put_unit(st, 2, "C", "E07", "c2-95")
    put_building(st, "E07", "TOWN", "c2-95")
    refused(st, {"type": "build", "building": "MARKET", "tile": "E07", "builder": "c0-91", "tokens": {}})


# ---------------------------------------------------------------------------------------------------- abilities
def test_market_ability_two_transactions_fee_and_once_per_round():
    st = island()
    put_building(st, "E07", "MARKET", "c0-91")
    st, ev = do(st, {"type": "use_building", "building": "E07:MARKET"})
    assert st.players[0]["money"] == 9 and st.units["c0-91"]["engaged"]
    st, _ = do(st, {"type": "ability_trade", "op": "BUY", "resource": "FISH"})
    st, _ = do(st, {"type": "ability_trade", "op": "SELL", "resource": "FISH"})
    refused(st, {"type": "ability_trade", "op": "BUY", "resource": "FISH"})
    st, _ = do(st, {"type": "ability_done"})
    refused(st, {"type": "use_building", "building": "E07:MARKET"})
    st, _ = do(st, {"type": "end_turn"})
    assert RULES.to_act(st) != {0} or st.turn["seat"] == 0


def test_port_ability_with_a_ship_anchor_and_trading_company():
    st = island()
    put_building(st, "E07", "PORT", "s0-90")
    st.units["s0-90"]["tile"] = "E07"
    give_card(st, 0, "P09")
    st, ev = do(st, {"type": "use_building", "building": "E07:PORT"})
    assert st.step["left"] == 3 and st.step["market"] == "EXP"


def test_ability_needs_a_standing_anchor_and_control():
    st = island()
    put_building(st, "E07", "MARKET", "c0-91")
    st.units["c0-91"]["lying"] = True
    refused(st, {"type": "use_building", "building": "E07:MARKET"})
    st = turn_of(island(), 1)
    put_building(st, "E07", "MARKET", "c0-91")
    refused(st, {"type": "use_building", "building": "E07:MARKET"}, seat=1)


# ---------------------------------------------------------------------------------------------------- turn structure
def test_end_turn_needs_an_action_and_pass_leaves_the_phase():
    st = island()
    refused(st, {"type": "end_turn"})
    st, ev = do(st, {"type": "pass"})
    assert st.players[0]["passed"] and of(ev, "TurnStarted")[0]["seat"] != 0


def test_player_without_discs_or_uses_is_passed_automatically():
    st = island()
    nxt = st.order[(st.order.index(0) + 1) % st.n]
    st.players[nxt]["ad_avail"] = 0
    st, _ = do(st, {"type": "tax", "with": []})
    st, ev = do(st, {"type": "end_turn"})
    auto = [e for e in of(ev, "TurnEnded") if e.get("auto")]
    assert auto and auto[0]["seat"] == nxt and st.players[nxt]["passed"]


def test_phase_five_ends_when_everyone_passed():
    st = island()
    for _ in range(st.n):
        seat = sorted(RULES.to_act(st))[0]
        st, ev = do(st, {"type": "pass"}, seat)
    assert st.phase == "EVOLUTION" and "PhaseStarted" in types(ev)
