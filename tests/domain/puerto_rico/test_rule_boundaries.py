"""Less travelled rules of docs/rules/puerto_rico.md: each market bonus on its own, the small warehouse alone with
a choice, the residence counting quarries, unoccupied large buildings at game end, the hacienda filling the island
and ahead of the hospice, the colonist supply emptied outside the mayor refill, the craftsman privilege with every
received kind gone, a colonist ship holding fewer colonists than players, the role bonus in 3- and 5-player
rounds, two end triggers in one round, the captain privilege after a pass, the factory and the privilege barrel,
the picker's corn sale and the exact role money of a pick. Each test is a scenario: given a board, when a
command, then events or a refusal."""

from __future__ import annotations

from domain.puerto_rico import RULES
from domain.puerto_rico.data import CORN, INDIGO, QUARRY, SUGAR, TILE_INDEX, TILE_NAMES
from domain.puerto_rico.scoring import score_breakdown
from tests.domain.puerto_rico.helpers import (
    ELEVEN_SMALL_BUILDINGS,
    act,
    bare,
    fill_ship,
    give,
    legal,
    load,
    new_game,
    of_type,
    pick,
    sell,
    types,
    wharf,
)

PASS = {"type": "pass"}
TAKE = {"type": "take_colonist"}


def select(role):
    return {"type": "select_role", "role": role}


def finish(s):
    """Like ``play_passes`` (pass, else the first legal option) until the role is over; returns (events, state)."""
    events = []
    while s.phase != "pick" and not RULES.is_over(s):
        options = legal(s)
        new, s = act(s, PASS if PASS in options else options[0])
        events += new
    return events, s


def money(s):
    return dict(zip(s.role_names, s.role_money, strict=True))


# ---------------------------------------------------------------- trader (§4.5, §6, D40)


def test_each_market_adds_its_own_bonus_when_it_is_the_only_one():
    """§4.5: price = base + 1 for the picker "+ 1 for an occupied small market + 2 for an occupied large market";
    §6: large market "+2 doubloons", small market "+1 doubloon"."""
    s = bare(new_game(4))
    give(s, 1, goods={"sugar": 1}, buildings={"large_market": 1})
    give(s, 2, goods={"indigo": 1}, buildings={"small_market": 1})
    _, s = pick(s, "trader", 0)  # the picker holds nothing: seat 1 sells first
    assert s.current == 1
    events, s = act(s, sell("sugar"))
    assert events[0] == {"type": "GoodSold", "seat": 1, "good": "sugar", "price": 2 + 2}
    events, s = act(s, sell("indigo"))
    assert events[0] == {"type": "GoodSold", "seat": 2, "good": "indigo", "price": 1 + 1}
    assert s.players[1].doubloons == 3 + 4 and s.players[2].doubloons == 3 + 2


def test_the_picker_selling_corn_gets_the_trader_privilege():
    """D40: "The market bonuses and trader privilege still apply to a corn sale"; §4.5: corn 0 + 1 for the picker."""
    s = bare(new_game(4))
    give(s, 0, goods={"corn": 1})
    _, s = pick(s, "trader", 0)
    assert legal(s) == [sell("corn"), PASS]
    events, s = act(s, sell("corn"))
    assert events[0] == {"type": "GoodSold", "seat": 0, "good": "corn", "price": 1}
    assert s.players[0].doubloons == 3 + 1 and s.trading_house == [CORN]


# ---------------------------------------------------------------- captain (§4.6, D11, D36, D42)


def test_small_warehouse_alone_protects_one_chosen_kind_then_the_windrose_barrel():
    """§4.6 storage: with k = 1 (occupied small warehouse) "Each step P picks one kind P holds that is not yet
    protected", then the windrose step keeps one barrel of an unprotected kind; "All other barrels of P go back"."""
    s = bare(new_game(4))
    give(s, 1, goods={"corn": 2, "indigo": 3, "sugar": 1}, buildings={"small_warehouse": 1})
    for ship, good in enumerate((CORN, INDIGO, SUGAR)):
        fill_ship(s, ship, good)  # every kind seat 1 holds is on a full ship: nothing can be loaded
    _, s = pick(s, "captain", 0)
    assert s.current == 1 and s.step == "warehouse"
    assert legal(s) == [{"type": "store_in_warehouse", "good": g} for g in ("corn", "indigo", "sugar")]
    events, s = act(s, {"type": "store_in_warehouse", "good": "indigo"})
    assert events == [{"type": "WarehouseKindChosen", "seat": 1, "good": "indigo"}]
    assert s.step == "windrose" and legal(s) == [{"type": "keep_barrel", "good": g} for g in ("corn", "sugar")]
    events, s = act(s, {"type": "keep_barrel", "good": "corn"})
    assert events[0] == {"type": "BarrelKept", "seat": 1, "good": "corn", "discarded": {"corn": 1, "sugar": 1}}
    assert s.players[1].goods == [1, 3, 0, 0, 0]


def test_captain_privilege_still_pays_on_a_first_load_after_a_pass():
    """§4.6: "+ 1 if P is the picker and this is P's first load of this phase"; D11/D36: +1 on the captain's first
    load, a wharf load counts; D42: "A player who passed may still use the wharf on a later turn"."""
    s = bare(new_game(4))
    give(s, 0, goods={"sugar": 2}, buildings={"wharf": 1})
    give(s, 1, goods={"corn": 1})
    fill_ship(s, 0, SUGAR)  # sugar fits no cargo ship: the captain has only the wharf
    _, s = pick(s, "captain", 0)
    assert s.current == 0 and legal(s) == [wharf("sugar"), PASS]
    _, s = act(s, PASS)
    _, s = act(s, load("corn", 1))
    assert s.current == 0 and legal(s) == [wharf("sugar"), PASS]  # seats 2 and 3 have nothing to load
    events, s = act(s, wharf("sugar"))
    assert events[0] == {"type": "GoodsShippedByWharf", "seat": 0, "good": "sugar", "amount": 2, "vp": 2 + 1}
    assert s.players[0].vp == 3


# ---------------------------------------------------------------- craftsman (§4.4, D2, D14)


def test_no_craftsman_privilege_when_every_received_kind_has_run_out():
    """§4.4 step 2: "If the picker received nothing, or every eligible kind has run out, there is no privilege";
    D2: the privilege comes after all players have produced."""
    s = bare(new_game(4))
    give(s, 0, tiles={"corn": (1, 1), "indigo": (1, 1)}, buildings={"small_indigo_plant": 1})
    give(s, 1, tiles={"corn": (1, 1)})
    give(s, 2, goods={"corn": 8, "indigo": 10})  # the supply holds 2 corn and 1 indigo
    events, s = pick(s, "craftsman", 0)
    rows = of_type(events, "GoodsProduced")[0]["production"]
    assert [(r["seat"], r["goods"]) for r in rows[:2]] == [(0, {"corn": 1, "indigo": 1}), (1, {"corn": 1})]
    assert s.goods_supply[CORN] == 0 and s.goods_supply[INDIGO] == 0  # seat 1 took the last corn
    assert types(events) == ["RoleSelected", "GoodsProduced"]
    assert s.phase == "pick" and s.current == 1


def test_the_privilege_barrel_does_not_change_the_factory_pay():
    """§4.4: the factory pays "right after P receives goods" for "the number of kinds P actually received"
    (D14: 2 kinds -> 1); the privilege barrel comes later and pays nothing more."""
    s = bare(new_game(4))
    give(s, 0, tiles={"corn": (1, 1), "indigo": (1, 1)}, buildings={"small_indigo_plant": 1, "factory": 1})
    events, s = pick(s, "craftsman", 0)
    row = of_type(events, "GoodsProduced")[0]["production"][0]
    assert row == {"seat": 0, "goods": {"corn": 1, "indigo": 1}, "factory_doubloons": 1}
    assert s.step == "privilege" and s.players[0].doubloons == 3 + 1
    events, s = act(s, {"type": "take_good", "good": "indigo"})
    assert events == [{"type": "ExtraGoodTaken", "seat": 0, "good": "indigo"}]
    assert s.players[0].goods[INDIGO] == 2 and s.players[0].doubloons == 3 + 1


# ---------------------------------------------------------------- settler (§4.1)


def test_hacienda_filling_the_twelfth_island_space_leaves_no_main_take():
    """§4.1 step 2: "If P still has at least 1 empty island space, P may take"; D7: a full island takes nothing."""
    s = new_game(4)
    give(s, 1, tiles={"corn": (6, 0), "quarry": (4, 0)}, buildings={"hacienda": 1})  # + starting indigo = 11
    _, s = pick(s, "settler", 0)
    _, s = act(s, PASS)
    assert s.current == 1 and legal(s) == [{"type": "draw_from_hacienda"}, PASS]
    events, s = act(s, {"type": "draw_from_hacienda"})
    assert types(events) == ["HaciendaPlantationDrawn"] and sum(s.players[1].tiles) == 12
    assert s.current == 2 and s.step == "take"  # seat 1 was offered no main take: the turn passed on


def test_hospice_after_hacienda_and_main_take_mans_the_taken_tile_only():
    """§4.1 steps 1-3: the hacienda tile comes first, then the main take; "If P took a tile in step 2 and has an
    occupied hospice, P may put one colonist on that new tile"; D4: no hospice colonist for the hacienda tile."""
    s = new_game(4)
    give(s, 0, buildings={"hacienda": 1, "hospice": 1})
    assert TILE_NAMES[s.stack[-1]] == "corn" and s.face_up[TILE_INDEX["coffee"]]  # given: corn on top, coffee up
    _, s = pick(s, "settler", 0)
    events, s = act(s, {"type": "draw_from_hacienda"})
    assert events[0]["plantation"] == "corn" and s.step == "take"
    _, s = act(s, {"type": "take_plantation", "plantation": "coffee"})
    assert s.step == "hospice" and legal(s) == [TAKE, PASS]
    events, s = act(s, TAKE)
    assert events[0] == {"type": "HospiceColonistPlaced", "seat": 0, "tile": "coffee", "source": "supply"}
    assert s.players[0].manned == [0, 0, 0, 0, 1, 0]  # the hacienda corn stays unoccupied
    assert s.current == 1 and s.step == "take"  # one hospice step only


def test_hospice_emptying_the_colonist_supply_ends_nothing_until_the_next_mayor_refill():
    """§7: "the supply running dry through the privilege, the hospice or the university does not trigger it at
    that moment"; D13: "does not trigger by itself, but the next refill will"."""
    s = new_game(4)
    give(s, 0, buildings={"hospice": 1})
    s.colonist_supply = 1
    _, s = pick(s, "settler", 0)
    _, s = act(s, {"type": "take_quarry"})
    events, s = act(s, TAKE)
    assert events[0] == {"type": "HospiceColonistPlaced", "seat": 0, "tile": "quarry", "source": "supply"}
    assert s.colonist_supply == 0 and s.players[0].manned[QUARRY] == 1
    assert s.triggers == []
    _, s = finish(s)
    assert s.phase == "pick" and s.current == 1 and s.triggers == []
    events, s = act(s, select("mayor"))  # the supply is empty: no privilege decision
    more, s = finish(s)
    events += more
    assert of_type(events, "ColonistShipRefilled") == [
        {"type": "ColonistShipRefilled", "colonists": 0, "ends_game": True}
    ]
    assert s.triggers == ["colonists"] and not RULES.is_over(s)


# ---------------------------------------------------------------- scoring (§6, §8, D22, D28)


def test_residence_counts_quarries_as_filled_island_spaces():
    """§6 residence: "filled island spaces (tiles, occupied or not) ... 10: +5"; quarries are island tiles (§1.3)."""
    s = new_game(4)
    give(s, 0, buildings={"residence": 1}, tiles={"corn": (7, 0), "quarry": (2, 2)})  # 1 + 7 plantations + 2
    assert sum(s.players[0].tiles[:QUARRY]) == 8 and sum(s.players[0].tiles) == 10
    assert score_breakdown(s.players[0])["bonus_residence"] == 5


def test_unoccupied_guild_hall_residence_and_customs_house_score_only_their_printed_vp():
    """D28: "The printed 4 VP always count", and the bonus needs at least 1 colonist; §8: "bonuses of OCCUPIED
    large buildings"."""
    s = new_game(4)
    give(
        s,
        0,
        vp=20,
        tiles={"corn": (11, 11)},
        buildings={
            "guild_hall": 0,
            "residence": 0,
            "customs_house": 0,
            "small_indigo_plant": 1,
            "coffee_roaster": 2,
        },
    )
    b = score_breakdown(s.players[0])
    assert b == {"chips": 20, "buildings": 4 + 4 + 4 + 1 + 3, "total": 20 + 16}


# ---------------------------------------------------------------- mayor (§4.2)


def test_fewer_colonists_on_the_ship_than_players_go_one_each_from_the_picker():
    """§4.2 step 2: "the player at offset k from the picker ... gets S // N + (1 if k < S % N else 0)"."""
    s = new_game(4)
    s.colonist_ship, s.colonist_supply = 3, s.colonist_supply + 1
    _, s = pick(s, "mayor", 2)
    events, s = act(s, PASS)
    assert events[1] == {"type": "ColonistsDistributed", "colonists": [1, 0, 1, 1]}  # seats 2, 3, 0 get one


# ---------------------------------------------------------------- round structure (§3, §7, D30)


def test_five_player_round_puts_a_doubloon_on_each_unpicked_card_prospectors_apart():
    """§3 step 2: "Put 1 doubloon from the bank on each role card nobody picked ... The two prospector cards in a
    5-player game are separate cards with their own piles" (D30); "These doubloons build up over rounds"."""
    s = new_game(5)
    s.role_money[s.role_names.index("captain")] = 2
    events = []
    for role in ("settler", "mayor", "builder", "craftsman", "trader"):
        new, s = act(s, select(role))
        events += new
        new, s = finish(s)
        events += new
    assert of_type(events, "RoundEnded") == [
        {"type": "RoundEnded", "round": 1, "bonus_roles": ["captain", "prospector", "prospector_2"]}
    ]
    assert money(s) == {
        "settler": 0,
        "mayor": 0,
        "builder": 0,
        "craftsman": 0,
        "trader": 0,
        "captain": 3,
        "prospector": 1,
        "prospector_2": 1,
    }


def test_three_player_round_has_no_prospector_and_three_unpicked_roles_gain_one():
    """§1.1: 3 players have "settler, mayor, builder, craftsman, trader, captain"; §3: "After N picks, every player
    has picked exactly once", then 1 doubloon on each role card nobody picked (always 3 cards)."""
    s = new_game(3)
    assert legal(s) == [select(r) for r in ("settler", "mayor", "builder", "craftsman", "trader", "captain")]
    events = []
    for role in ("settler", "builder", "craftsman"):
        new, s = act(s, select(role))
        events += new
        new, s = finish(s)
        events += new
    assert of_type(events, "RoundEnded")[0]["bonus_roles"] == ["mayor", "trader", "captain"]
    assert money(s) == {"settler": 0, "mayor": 1, "builder": 0, "craftsman": 0, "trader": 1, "captain": 1}
    assert s.round == 2 and s.governor == 1 and s.current == 1


def test_two_end_triggers_in_one_round_are_both_listed():
    """§7: "Game end is triggered when any of these happens" (mayor refill short, 12th city space, ...); the
    round is played to its end, then the game ends with the triggers that fired."""
    s = new_game(4)
    s.colonist_supply = 3
    give(s, 1, doubloons=10, buildings={name: 0 for name in ELEVEN_SMALL_BUILDINGS})
    _, s = pick(s, "mayor", 0)
    events, s = finish(s)
    assert of_type(events, "ColonistShipRefilled")[0]["ends_game"] and s.triggers == ["colonists"]
    assert s.current == 1
    _, s = act(s, select("builder"))
    _, s = act(s, {"type": "build", "building": "office"})
    assert s.players[1].spaces == 12 and s.triggers == ["colonists", "city"]
    events, s = finish(s)
    for role in ("prospector", "craftsman"):  # the round is played to its end
        new, s = act(s, select(role))
        events += new
        new, s = finish(s)
        events += new
    assert RULES.is_over(s) and s.round == 1
    assert of_type(events, "GameEnded")[0]["triggers"] == ["colonists", "city"]


def test_a_role_pick_gives_exactly_the_doubloons_on_the_card():
    """§3 step 1: "The picker takes all doubloons lying on that card"; only the prospector adds 1 (§4.7)."""
    for idx, role in enumerate(("settler", "mayor", "builder", "craftsman", "trader", "captain")):
        s = bare(new_game(4))
        s.role_money[idx] = idx + 1
        events, s = pick(s, role, 0)
        assert events[0] == {
            "type": "RoleSelected",
            "seat": 0,
            "role": role,
            "doubloons": idx + 1,
            "prospector_bonus": 0,
        }
        assert s.players[0].doubloons == 3 + idx + 1 and s.role_money[idx] == 0, role
