"""Rule boundaries that a wrong comparison would move (docs/rules/puerto_rico.md; found by mutation testing,
docs/testing.md). Each test is a scenario: given a board, when a command, then events or a refusal."""

from __future__ import annotations

import pytest

from domain.puerto_rico import RULES
from domain.puerto_rico.data import CORN, INDIGO, SUGAR
from tests.domain.puerto_rico.helpers import (
    act,
    bare,
    fill_ship,
    give,
    legal,
    load,
    new_game,
    of_type,
    pick,
    play_passes,
    refused,
    sell,
    types,
    wharf,
)

PASS = {"type": "pass"}


def build(name):
    return {"type": "build", "building": name}


# ---------------------------------------------------------------- captain: the loading loop (§4.6, D42)


def test_loop_ends_when_the_nth_turn_without_a_load_is_a_skipped_turn():
    """Seat 0 passes (wharf only), seats 1-3 cannot load: 4 turns without a load, so seat 0 is not asked again."""
    s = bare(new_game(4))
    give(s, 0, goods={"sugar": 2}, buildings={"wharf": 1})
    fill_ship(s, 2, SUGAR)  # sugar is on a full ship: no cargo option, only the wharf
    _, s = pick(s, "captain", 0)
    assert s.current == 0 and legal(s) == [wharf("sugar"), PASS]
    events, s = act(s, PASS)
    # storage: one kind held and no warehouse, so one barrel is kept automatically; the full ship unloads
    assert types(events) == ["Passed", "BarrelKept", "ShipsUnloaded"]
    assert s.phase == "pick"


def test_loop_ends_when_the_nth_turn_without_a_load_is_a_pass():
    """Picker 1 and seat 0 both hold wharf-only options: pass, skip, skip, pass ends the loop at once."""
    s = bare(new_game(4))
    for seat in (0, 1):
        give(s, seat, goods={"sugar": 1}, buildings={"wharf": 1})
    fill_ship(s, 2, SUGAR)
    _, s = pick(s, "captain", 1)
    assert s.current == 1 and legal(s) == [wharf("sugar"), PASS]
    _, s = act(s, PASS)
    assert s.current == 0 and legal(s) == [wharf("sugar"), PASS]  # seats 2 and 3 were skipped
    _, s = act(s, PASS)
    assert not (s.phase == "captain" and s.step == "load"), "seat 1 was asked to load a fifth time"


def test_wharf_used_in_one_captain_phase_is_usable_again_in_the_next():
    """Last duties of the captain: "All wharves become unused again"."""
    s = bare(new_game(4))
    give(s, 0, goods={"sugar": 2}, buildings={"wharf": 1})
    fill_ship(s, 2, SUGAR)
    _, s = pick(s, "captain", 0)
    events, s = act(s, wharf("sugar"))
    assert events[0] == {"type": "GoodsShippedByWharf", "seat": 0, "good": "sugar", "amount": 2, "vp": 3}
    assert s.phase == "pick"
    # the rest of the round: prospector, trader and builder, everyone passing
    for role in ("prospector", "trader", "builder"):
        _, s = act(s, {"type": "select_role", "role": role})
        s = play_passes(s)
    assert s.round == 2
    give(s, 0, goods={"corn": 1})
    fill_ship(s, 0, CORN)
    fill_ship(s, 1, INDIGO)
    fill_ship(s, 2, SUGAR)
    _, s = pick(s, "captain", 0)
    assert s.current == 0 and legal(s) == [wharf("corn"), PASS]


# ---------------------------------------------------------------- builder (§4.3)


def test_a_large_building_is_refused_for_want_of_room_with_eleven_spaces_used():
    """D8: a large building needs 2 free city spaces; the refusal says so, not that it is too dear."""
    s = new_game(4)
    small = ["small_indigo_plant", "small_sugar_mill", "indigo_plant", "sugar_mill", "tobacco_storage"]
    small += ["coffee_roaster", "small_market", "hacienda", "construction_hut", "small_warehouse", "hospice"]
    give(s, 0, doubloons=30, buildings={name: 0 for name in small})
    _, s = pick(s, "builder", 0)
    for name in ("guild_hall", "residence", "fortress", "customs_house", "city_hall"):
        assert "no room" in refused(s, build(name)).message
    assert "no room" not in refused(s, build("hospice")).message  # owned already: that is the reason given
    assert "already own" in refused(s, build("hospice")).message


def test_a_building_too_dear_is_refused_with_its_price():
    """The picker with 4 doubloons affords the office (5 - 1) but not the factory (7 - 1)."""
    s = new_game(4)
    give(s, 1, doubloons=4)
    _, s = pick(s, "builder", 1)
    assert "you cannot pay 6 doubloons" in refused(s, build("factory")).message
    events, s = act(s, build("office"))
    assert events[0]["price"] == 4 and s.players[1].doubloons == 0


def test_price_never_falls_below_zero():
    """Cost = max(0, cost - privilege - quarries): the picker with a quarry pays 0 for a 1-doubloon building."""
    s = new_game(4)
    give(s, 0, doubloons=0, tiles={"quarry": (1, 1)})
    _, s = pick(s, "builder", 0)
    assert build("small_market") in legal(s)
    events, s = act(s, build("small_market"))
    assert events[0] == {"type": "BuildingBought", "seat": 0, "building": "small_market", "price": 0}
    assert s.players[0].doubloons == 0


def test_sold_out_building_is_refused_as_sold_out():
    s = new_game(4)
    s.building_supply[18] = 0  # the only guild hall is gone
    give(s, 0, doubloons=20)
    _, s = pick(s, "builder", 0)
    assert "no guild_hall is left" in refused(s, build("guild_hall")).message


# ---------------------------------------------------------------- refusals say why (§4.5, §4.6)


def test_sell_refusals_name_the_reason():
    s = new_game(4)
    s.trading_house = [SUGAR]
    s.goods_supply[SUGAR] -= 1
    give(s, 0, goods={"sugar": 1, "indigo": 1, "coffee": 1, "corn": 0})
    _, s = pick(s, "trader", 0)
    assert "the trading house already holds sugar" in refused(s, sell("sugar")).message
    assert "you hold no corn" in refused(s, sell("corn")).message
    assert "build does not fit the current decision" in refused(s, build("hospice")).message
    assert "load does not fit the current decision" in refused(s, load("corn", 0)).message


def test_an_unoccupied_office_allows_no_second_barrel_of_a_kind():
    """§4.5: only an occupied office lets a player sell a kind already in the trading house."""
    s = bare(new_game(4))
    s.trading_house = [SUGAR]
    s.goods_supply[SUGAR] -= 1
    give(s, 0, goods={"sugar": 1}, buildings={"office": 0})
    _, s = pick(s, "trader", 0)
    assert s.phase == "pick"  # no legal sale for anybody: the phase was skipped


def test_load_and_pass_refusals_in_the_captain_phase():
    s = bare(new_game(4))
    give(s, 0, goods={"corn": 7, "indigo": 1})
    _, s = pick(s, "captain", 0)
    assert "you may not pass: you must load" in refused(s, PASS).message
    assert "that load is not allowed" in refused(s, load("corn", 0)).message
    assert "you hold no sugar" in refused(s, load("sugar", 0)).message
    assert "you have no occupied, unused wharf" in refused(s, wharf("corn")).message


# ---------------------------------------------------------------- who is to act, as every view shows it


def test_views_name_the_seat_to_act_from_the_first_event_to_the_last():
    """§3: the governor picks first; once the game is over nobody is to act."""
    events = RULES.setup(3, 4, {})
    s = None
    for event in events:
        s = RULES.evolve(s, event) if s is not None else RULES.fold([event])
        assert RULES.view(s, None)["to_act"] == [0]  # seat 0 is the first governor
    s.colonist_supply = 3
    _, s = pick(s, "mayor", 0)
    _, s = act(s, PASS)
    assert RULES.view(s, 2)["to_act"] == [s.current] == [1]
    roles = iter(["prospector", "builder", "craftsman"])
    while not RULES.is_over(s):
        _, s = act(s, {"type": "select_role", "role": next(roles)} if s.phase == "pick" else PASS)
    assert RULES.view(s, None)["to_act"] == [] and RULES.view(s, 0)["to_act"] == []


def test_command_schemas_describe_every_field_and_refuse_a_negative_ship():
    from tests.domain.contract_checks import errors_of, validator

    for ctype, schema in RULES.command_schemas().items():
        for name, field in schema["properties"].items():
            assert name == "type" or field.get("description"), (ctype, name)
    v = validator(RULES.command_schemas()["load"])
    assert errors_of(v, {"type": "load", "good": "corn", "ship": -1})
    assert not errors_of(v, {"type": "load", "good": "corn", "ship": 0})


# ---------------------------------------------------------------- set-up (§2, §10)


def test_setup_draws_from_the_rng_its_creation_event_names():
    """§10: one game RNG seeded at creation, its id recorded. "python-random-sha256/1" is Python's Random
    seeded with the first 16 bytes of SHA-256("tradewinds:setup:<seed>:0"); the first governor is its first draw."""
    import hashlib
    import random

    for seed in range(1, 30):
        events = RULES.setup(seed, 5, {"random_first_governor": True})
        assert events[0]["rng"] == "python-random-sha256/1"
        digest = hashlib.sha256(f"tradewinds:setup:{seed}:0".encode()).digest()
        expected = random.Random(int.from_bytes(digest[:16], "big")).randrange(5)
        assert events[0]["first_governor"] == expected, seed


def test_seat_count_refusals_say_which_variant_fits():
    from domain.game import InvalidOptions

    with pytest.raises(InvalidOptions, match="the base game needs 3 to 5 seats; use variant 'official_2p' for 2 seats"):
        RULES.validate_options({"variant": "standard"}, 2)
    with pytest.raises(InvalidOptions, match="the official 2-player variant needs exactly 2 seats"):
        RULES.validate_options({"variant": "official_2p"}, 3)


# ---------------------------------------------------------------- more building functions (§4.3, §4.6, §6)


def test_university_mans_the_first_building_of_the_table_too():
    """§4.3 step 2: any building built with an occupied university, the small indigo plant included."""
    s = new_game(4)
    give(s, 0, doubloons=5, buildings={"university": 1})
    _, s = pick(s, "builder", 0)
    _, s = act(s, build("small_indigo_plant"))
    assert s.step == "university" and legal(s) == [{"type": "take_colonist"}, PASS]
    events, s = act(s, {"type": "take_colonist"})
    assert events[0]["building"] == "small_indigo_plant" and s.players[0].buildings[0] == 1


def test_an_unoccupied_wharf_offers_nothing_beside_a_cargo_load():
    s = bare(new_game(4))
    give(s, 0, goods={"corn": 3}, buildings={"wharf": 0})
    give(s, 1, goods={"sugar": 2})
    _, s = pick(s, "captain", 1)
    _, s = act(s, load("sugar", 0))  # seat 1 (picker) loads first; seat 0 then has two cargo options
    assert s.current == 0 and legal(s) == [load("corn", 1), load("corn", 2)]
    assert "you have no occupied, unused wharf" in refused(s, wharf("corn")).message


def test_vp_supply_trigger_fires_at_exactly_zero_and_not_before():
    """§4.6, §7: the end is triggered as soon as the VP supply reaches 0, exactly used up or overdrawn."""
    for supply, triggered in ((9, False), (8, True)):
        s = bare(new_game(4))
        s.players[3].vp, s.vp_supply = 100 - supply, supply
        give(s, 0, goods={"corn": 7})
        events, s = pick(s, "captain", 0)  # 7 barrels + 1 (privilege) = 8 VP, forced onto the 7-ship
        assert of_type(events, "GoodsShipped")[0]["vp"] == 8
        assert s.vp_supply == supply - 8 and s.players[0].vp_owed == 0
        assert (s.triggers == ["victory_points"]) is triggered, supply
