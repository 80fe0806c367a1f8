"""Captain phase (§4.6): forced loading, ship choice, wharf, harbor, privilege, storage, unloading, VP end."""

from __future__ import annotations

from domain.puerto_rico.data import CORN, INDIGO, SUGAR
from tests.domain.puerto_rico.helpers import act, give, legal, new_game, of_type, pick, refused, types

PASS = {"type": "pass"}


def load(good, ship):
    return {"type": "load", "good": good, "ship": ship}


def wharf(good):
    return {"type": "ship_with_wharf", "good": good}


def only(s, seat, **goods):
    """Give goods to ``seat`` and nothing to the others."""
    for other in range(s.n):
        give(s, other, goods={g: 0 for g in ("corn", "indigo", "sugar", "tobacco", "coffee")})
    give(s, seat, goods=goods)
    return s


def test_loading_is_forced_and_the_amount_is_everything_that_fits():
    """D9, D32: loading is forced; the amount is min(held, free space)."""
    s = only(new_game(4), 0, corn=7)
    events, _ = pick(s, "captain", 0)
    # only the 7-ship takes all 7: one forced option, applied automatically
    assert events[1] == {"type": "GoodsShipped", "seat": 0, "good": "corn", "ship": 2, "amount": 7, "vp": 8}
    s = only(new_game(4), 0, corn=7, indigo=1)
    _, s = pick(s, "captain", 0)
    assert PASS not in legal(s)
    refused(s, PASS)
    refused(s, load("corn", 0))  # the 5-ship takes fewer barrels than the 7-ship
    events, s = act(s, load("corn", 2))
    assert events[0] == {"type": "GoodsShipped", "seat": 0, "good": "corn", "ship": 2, "amount": 7, "vp": 8}


def test_single_forced_option_is_applied_automatically():
    s = only(new_game(4), 1, sugar=9)
    events, s = pick(s, "captain", 0)
    # seat 0 has nothing; seat 1 must load 7 sugar onto the 7-ship, keeps 1 of the 2 left; the full ship unloads
    assert types(events) == ["RoleSelected", "GoodsShipped", "BarrelKept", "ShipsUnloaded"]
    assert events[1]["amount"] == 7 and events[1]["ship"] == 2 and s.players[1].vp == 7
    assert s.players[1].goods[SUGAR] == 1 and events[3]["ships"] == [2]


def test_ties_between_empty_ships_are_free():
    """D9: free choice among kinds and among tied ships."""
    s = only(new_game(4), 0, corn=3, indigo=6)
    _, s = pick(s, "captain", 0)
    assert legal(s) == [load("corn", 0), load("corn", 1), load("corn", 2), load("indigo", 1), load("indigo", 2)]


def test_kind_already_on_a_ship_goes_to_that_ship_only():
    s = only(new_game(4), 0, corn=3)
    s.ship_kinds[1], s.ship_loads[1] = CORN, 4
    s.goods_supply[CORN] -= 4
    give(s, 1, goods={"corn": 2, "indigo": 1})
    _, s = pick(s, "captain", 0)
    # seat 0 loaded 2 corn (the space left) automatically; seat 1: corn has no room, indigo may use an empty ship
    assert s.ship_loads[1] == 6 and s.players[0].goods[CORN] == 1
    assert s.current == 1 and legal(s) == [load("indigo", 0), load("indigo", 2)]


def test_kind_on_a_full_ship_cannot_go_to_another_ship():
    s = only(new_game(4), 0, corn=3)
    s.ship_kinds[0], s.ship_loads[0] = CORN, 5
    s.goods_supply[CORN] -= 5
    _, s = pick(s, "captain", 0)
    # D43: no cargo option and no wharf: nothing happens, the phase goes on to storage
    assert s.ship_loads[1] == 0 and s.ship_loads[2] == 0


def test_captain_privilege_only_on_the_first_load_and_harbor_on_every_load():
    """D11, D36: +1 at the first load only; D34 harbor per load."""
    s = only(new_game(4), 0, corn=1, indigo=1)
    give(s, 0, buildings={"harbor": 1})
    _, s = pick(s, "captain", 0)
    events, s = act(s, load("corn", 0))
    assert events[0]["vp"] == 1 + 1 + 1  # barrel + harbor + privilege
    assert s.current == 0 and legal(s) == [load("indigo", 1), load("indigo", 2)]
    events, s = act(s, load("indigo", 2))
    assert events[0]["vp"] == 1 + 1
    assert s.players[0].vp == 5


def test_no_privilege_for_a_captain_who_does_not_load():
    """D11: never if the captain loads nothing."""
    s = only(new_game(4), 1, corn=1)
    _, s = pick(s, "captain", 0)
    assert s.current == 1
    _, s = act(s, load("corn", 0))
    assert s.players[0].vp == 0 and s.players[1].vp == 1


def test_wharf_is_optional_replaces_a_forced_load_and_takes_any_kind():
    """D10: the wharf takes any kind and may replace a forced load."""
    s = only(new_game(4), 0, corn=2, sugar=3)
    give(s, 0, buildings={"wharf": 1})
    s.ship_kinds[0], s.ship_loads[0] = SUGAR, 5
    s.goods_supply[SUGAR] -= 5
    _, s = pick(s, "captain", 0)
    assert legal(s) == [load("corn", 1), load("corn", 2), wharf("corn"), wharf("sugar")]
    refused(s, PASS)
    supply = s.goods_supply[SUGAR]
    events, s = act(s, wharf("sugar"))  # sugar is on a (full) cargo ship: the wharf still takes it
    assert events[0] == {"type": "GoodsShippedByWharf", "seat": 0, "good": "sugar", "amount": 3, "vp": 4}
    assert s.goods_supply[SUGAR] == supply + 3 and s.wharf_used[0]
    # next time round the wharf is used: only cargo options for corn, no pass
    assert s.current == 0 and legal(s) == [load("corn", 1), load("corn", 2)]
    _, s = act(s, load("corn", 2))
    assert s.players[0].vp == 4 + 2


def only_a_wharf_option():
    """Seat 1 holds 2 sugar, which fits no cargo ship (the sugar ship is full), and a wharf and a harbor; the
    captain (seat 0) has loaded its corn: seat 1 may ship by its wharf or pass."""
    s = only(new_game(4), 1, sugar=2)
    give(s, 1, buildings={"wharf": 1, "harbor": 1})
    give(s, 0, goods={"corn": 1, "indigo": 1})
    s.ship_kinds[0], s.ship_loads[0] = SUGAR, 5
    s.goods_supply[SUGAR] -= 5
    _, s = pick(s, "captain", 0)
    _, s = act(s, load("corn", 1))
    return s


def test_player_with_only_wharf_options_may_pass_and_use_it_later():
    """D42: pass with only wharf options, use it later in the loop."""
    s = only_a_wharf_option()
    assert s.current == 1 and legal(s) == [wharf("sugar"), PASS]
    events, s = act(s, PASS)
    assert events[0] == {"type": "Passed", "seat": 1, "decision": "load"}
    # seat 0's indigo can only go to the last empty ship (applied automatically); back to seat 1
    assert events[1]["type"] == "GoodsShipped" and events[1]["good"] == "indigo"
    assert s.current == 1 and legal(s) == [wharf("sugar"), PASS]
    events, s = act(s, wharf("sugar"))
    assert events[0]["vp"] == 2 + 1  # D34: harbor bonus on a wharf load


def test_loop_ends_after_n_turns_without_a_load_then_storage():
    """D42: the loop ends after N turns without a load."""
    s = only(new_game(4), 2, corn=3, indigo=2, sugar=1)
    _, s = pick(s, "captain", 0)
    # seat 2 loads corn, then indigo, then sugar on the three ships in turn; everything fits
    while s.phase == "captain" and s.step == "load":
        _, s = act(s, legal(s)[0])
    assert s.players[2].goods == [0, 0, 0, 0, 0]
    assert s.phase == "pick"


def test_storage_keeps_one_barrel_and_discards_the_rest():
    """D16: storage first, then the full ships are unloaded."""
    s = only(new_game(4), 1, corn=2, indigo=3)
    s.ship_kinds = [CORN, INDIGO, SUGAR]
    s.ship_loads = [5, 6, 7]
    for g, n in ((CORN, 5), (INDIGO, 6), (SUGAR, 7)):
        s.goods_supply[g] -= n
    _, s = pick(s, "captain", 0)
    assert s.step == "windrose" and s.current == 1
    assert legal(s) == [{"type": "keep_barrel", "good": "corn"}, {"type": "keep_barrel", "good": "indigo"}]
    events, s = act(s, {"type": "keep_barrel", "good": "indigo"})
    assert events[0] == {"type": "BarrelKept", "seat": 1, "good": "indigo", "discarded": {"corn": 2, "indigo": 2}}
    assert s.players[1].goods == [0, 1, 0, 0, 0]
    assert events[-1] == {"type": "ShipsUnloaded", "ships": [0, 1, 2]}
    assert s.ship_loads == [0, 0, 0] and s.ship_kinds == [-1, -1, -1]


def test_single_kind_storage_is_automatic():
    s = only(new_game(4), 1, corn=4)
    s.ship_kinds = [CORN, INDIGO, SUGAR]
    s.ship_loads = [5, 6, 7]
    for g, n in ((CORN, 5), (INDIGO, 6), (SUGAR, 7)):
        s.goods_supply[g] -= n
    events, s = pick(s, "captain", 0)
    assert {"type": "BarrelKept", "seat": 1, "good": "corn", "discarded": {"corn": 3}} in events
    assert s.players[1].goods[CORN] == 1


def test_warehouses_protect_whole_kinds_one_step_each():
    """D38: keep-as-much-as-possible storage, one kind per step."""
    s = only(new_game(4), 1, corn=2, indigo=3, sugar=2, tobacco=1, coffee=2)
    give(s, 1, buildings={"small_warehouse": 1, "large_warehouse": 1})
    s.ship_kinds = [CORN, INDIGO, SUGAR]
    s.ship_loads = [5, 6, 7]
    for g, n in ((CORN, 5), (INDIGO, 6), (SUGAR, 7)):
        s.goods_supply[g] -= n
    give(s, 1, goods={"tobacco": 1, "coffee": 2})  # tobacco and coffee can go to no ship
    s.ship_loads = [5, 6, 7]
    _, s = pick(s, "captain", 0)
    # seat 1: 5 kinds, tobacco/coffee have no ship (all full): storage with k = 3
    assert s.step == "warehouse" and len(legal(s)) == 5
    for good in ("indigo", "coffee", "corn"):
        _, s = act(s, {"type": "store_in_warehouse", "good": good})
    assert s.step == "windrose"
    assert legal(s) == [{"type": "keep_barrel", "good": "sugar"}, {"type": "keep_barrel", "good": "tobacco"}]
    events, s = act(s, {"type": "keep_barrel", "good": "sugar"})
    assert events[0]["discarded"] == {"sugar": 1, "tobacco": 1}
    assert s.players[1].goods == [2, 3, 1, 0, 2]


def test_warehouse_with_few_kinds_needs_no_decision():
    s = only(new_game(4), 1, corn=2)
    give(s, 1, buildings={"small_warehouse": 1})
    s.ship_kinds = [CORN, INDIGO, SUGAR]
    s.ship_loads = [5, 6, 7]
    for g, n in ((CORN, 5), (INDIGO, 6), (SUGAR, 7)):
        s.goods_supply[g] -= n
    events, s = pick(s, "captain", 0)
    assert "BarrelKept" not in types(events) and s.players[1].goods[CORN] == 2


def test_partly_filled_ships_keep_their_goods_across_phases():
    s = only(new_game(4), 1, corn=2)
    _, s = pick(s, "captain", 0)
    events, s = act(s, load("corn", 1))
    assert of_type(events, "ShipsUnloaded") == [{"type": "ShipsUnloaded", "ships": []}]
    ship = s.ship_kinds.index(CORN)
    assert ship == 1
    assert s.ship_loads[ship] == 2  # D37: still there, corn locked to that ship
    give(s, 2, goods={"corn": 9})
    s.role_taken = [False] * 7
    events, s = pick(s, "captain", 0)
    # seat 2's corn had to go to the same ship (4 barrels of 9), which then sailed
    assert of_type(events, "GoodsShipped") == [
        {"type": "GoodsShipped", "seat": 2, "good": "corn", "ship": 1, "amount": 4, "vp": 4}
    ]
    assert of_type(events, "ShipsUnloaded") == [{"type": "ShipsUnloaded", "ships": [1]}]


def test_vp_supply_running_out_records_owed_vp_and_triggers_the_end():
    s = only(new_game(4), 0, corn=5)
    give(s, 1, goods={"indigo": 3})
    give(s, 1, vp=s.vp_supply - 4 + s.players[1].vp)
    assert s.vp_supply == 4
    _, s = pick(s, "captain", 0)
    events, s = act(s, load("corn", 0))
    assert s.vp_supply == 0 and s.players[0].vp == 4 and s.players[0].vp_owed == 2  # D12
    assert s.triggers == ["victory_points"]
    # later loads are still awarded, beyond the chips
    _, s = act(s, load("indigo", 1))
    assert s.players[1].vp_owed == 3 and s.phase == "pick"


def test_captain_role_money_and_privilege_with_two_ships_in_the_variant():
    s = new_game(2)
    give(s, 0, goods={"corn": 4, "indigo": 5})
    give(s, 1, goods={"corn": 0})
    _, s = pick(s, "captain", 0)
    assert legal(s) == [load("corn", 0), load("corn", 1), load("indigo", 1)]
    events, s = act(s, load("indigo", 1))
    assert events[0]["vp"] == 6
    assert events[1] == {"type": "GoodsShipped", "seat": 0, "good": "corn", "ship": 0, "amount": 4, "vp": 4}
    assert s.players[0].vp == 10 and s.ship_loads == [0, 5] and s.ship_kinds == [-1, INDIGO]


def test_large_warehouse_alone_protects_two_kinds():
    s = only(new_game(4), 2, corn=2, indigo=3, sugar=4)
    give(s, 2, buildings={"large_warehouse": 1})
    s.ship_kinds = [CORN, INDIGO, SUGAR]
    s.ship_loads = [5, 6, 7]
    for g, n in ((CORN, 5), (INDIGO, 6), (SUGAR, 7)):
        s.goods_supply[g] -= n
    _, s = pick(s, "captain", 0)
    assert s.current == 2 and s.step == "warehouse" and len(legal(s)) == 3
    _, s = act(s, {"type": "store_in_warehouse", "good": "sugar"})
    assert s.step == "warehouse" and legal(s) == [
        {"type": "store_in_warehouse", "good": "corn"},
        {"type": "store_in_warehouse", "good": "indigo"},
    ]
    events, s = act(s, {"type": "store_in_warehouse", "good": "corn"})
    # only indigo is left unprotected: the windrose barrel is applied automatically
    assert events[1] == {"type": "BarrelKept", "seat": 2, "good": "indigo", "discarded": {"indigo": 2}}
    assert s.players[2].goods == [2, 1, 4, 0, 0]


def test_unoccupied_warehouse_protects_nothing():
    s = only(new_game(4), 2, corn=2, indigo=3)
    give(s, 2, buildings={"small_warehouse": 0, "harbor": 0, "wharf": 0})
    s.ship_kinds = [CORN, INDIGO, SUGAR]
    s.ship_loads = [5, 6, 7]
    for g, n in ((CORN, 5), (INDIGO, 6), (SUGAR, 7)):
        s.goods_supply[g] -= n
    _, s = pick(s, "captain", 0)
    assert s.step == "windrose"  # no wharf option either: the wharf is unoccupied
