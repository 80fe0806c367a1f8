"""Round phases: reset, auction, population influence, balance (crises), evolution (§5, §6)."""

from __future__ import annotations

import math
from dataclasses import replace

from domain.archipelago import RULES
from domain.archipelago import data as D
from domain.archipelago.flow import Ctx, advance
from domain.archipelago.state import clone, lying_count, population
from tests.domain.archipelago.fixtures import (
    do,
    first_legal_until,
    give_card,
    island,
    of,
    put_building,
    put_unit,
    refused,
    turn_of,
    types,
)


def auto(st):
    ctx = Ctx(clone(st), None)
    advance(ctx)
    return ctx.state, ctx.events


def bid_state(seats=3):
    st = RULES.fold(RULES.setup(8, seats, {"length": "medium"}))
    return first_legal_until(st, lambda s: s.phase == "BID")


# ---------------------------------------------------------------------------------------------------- reset
def test_reset_returns_discs_frees_units_and_stands_citizens():
    st = island()
    st.players[0]["ad_avail"] = 0
    st.units["c0-91"].update(lying=True)
    st.units["c0-92"].update(engaged=True, place="I:1")
    st.tiles["E07"]["occ"][1] = "c0-92"
    put_building(st, "E07", "MARKET", "c0-91")
    st.units["c0-91"]["temp"] = True
    st.card_used = {"C03"}
    st.players[0].update(reproduced=True, passed=True, taxed=2)
    st.phase, st.turn, st.p6 = "EVOLUTION", None, {"stage": "step"}
    st.active = st.n
    st2, ev = auto(st)
    assert "RoundStarted" in types(ev)
    p = st2.players[0]
    assert p["ad_avail"] == p["ad_total"] and not p["reproduced"] and not p["passed"] and p["taxed"] == 0
    assert st2.card_used == set() and st2.tiles["E07"]["occ"][1] is None
    assert st2.units["c0-92"]["place"] == "LAND" and not st2.units["c0-92"]["engaged"]
    assert st2.units["c0-91"]["place"] == "LAND" and not st2.units["c0-91"]["lying"]
    assert st2.buildings["E07"]["MARKET"] is None


def test_a_ship_that_built_a_port_on_its_own_town_s_tile_goes_back_to_sea_at_reset():
    """§8.8 and §5.1: the temporary builder leaves the building at the next reset; a ship is never on land."""
    st = island()
    for r in ("STONE", "FISH"):
        st.bank[r] -= 1
        st.players[0]["cubes"][r] += 1
    put_unit(st, 0, "S", "E07", "s0-93")
    put_building(st, "E07", "TOWN", "c0-91")
    st, _ = do(st, {"type": "build", "building": "PORT", "tile": "E07", "builder": "s0-93", "tokens": {}})
    assert st.units["s0-93"]["place"] == "B:PORT" and st.units["s0-93"]["temp"]
    st.phase, st.turn, st.step, st.p6, st.active = "EVOLUTION", None, None, {"stage": "step"}, st.n
    st2, _ = auto(st)
    assert st2.buildings["E07"]["PORT"] is None
    assert st2.units["s0-93"]["place"] == "SEA" and not st2.units["s0-93"]["temp"]


def test_housed_units_stay_housed_at_reset():
    st = island()
    put_building(st, "E07", "TOWN", "c0-91")
    st.phase, st.turn, st.p6, st.active = "EVOLUTION", None, {"stage": "step"}, st.n
    st2, _ = auto(st)
    assert st2.buildings["E07"]["TOWN"] == "c0-91"


# ---------------------------------------------------------------------------------------------------- auction
def test_bids_are_secret_until_all_committed_then_everyone_pays():
    st = bid_state()
    assert RULES.to_act(st) == {0, 1, 2}
    st, ev = do(st, {"type": "bid", "amount": 3}, 0)
    assert RULES.redact(ev[0], 1)["amount"] is None and RULES.redact(ev[0], 0)["amount"] == 3
    assert RULES.to_act(st) == {1, 2} and "bid" not in RULES.view(st, 1)["players"][0]
    assert RULES.view(st, 1)["players"][0]["bid_committed"] is True
    refused(st, {"type": "bid", "amount": 1}, "not_your_turn", seat=0)
    refused(st, {"type": "bid", "amount": 99}, seat=1)
    st, _ = do(st, {"type": "bid", "amount": 1}, 1)
    money = [p["money"] for p in st.players]
    st, ev = do(st, {"type": "bid", "amount": 0}, 2)
    assert of(ev, "BidsRevealed")[0]["bids"] == [
        {"seat": 0, "amount": 3},
        {"seat": 1, "amount": 1},
        {"seat": 2, "amount": 0},
    ]
    assert [p["money"] for p in st.players] == [money[0] - 3, money[1] - 1, money[2]]
    assert st.phase == "ORDER" and RULES.to_act(st) == {0}
    st, _ = do(st, {"type": "order_pick", "seat": 2}, 0)
    refused(st, {"type": "order_pick", "seat": 2}, seat=0)
    st, ev = do(st, {"type": "order_pick", "seat": 0}, 0)
    assert of(ev, "TurnOrderSet")[0]["order"] == [2, 0, 1]


def test_tie_rebids_only_the_tied_then_keeps_the_order():
    st = bid_state()
    before = list(st.order)
    for s, a in ((0, 2), (1, 2), (2, 1)):
        st, ev = do(st, {"type": "bid", "amount": a}, s)
    assert of(ev, "BiddingStarted")[0]["seats"] == [0, 1] and RULES.to_act(st) == {0, 1}
    st, _ = do(st, {"type": "bid", "amount": 1}, 0)
    st, ev = do(st, {"type": "bid", "amount": 1}, 1)
    assert of(ev, "TurnOrderSet")[0] == {"type": "TurnOrderSet", "order": before, "kept": True}
    assert st.players[0]["money"] == 10 - 3


def test_rebid_winner_chooses_order():
    st = bid_state()
    for s, a in ((0, 2), (1, 2), (2, 1)):
        st, _ = do(st, {"type": "bid", "amount": a}, s)
    st, _ = do(st, {"type": "bid", "amount": 0}, 0)
    st, ev = do(st, {"type": "bid", "amount": 1}, 1)
    assert of(ev, "AuctionWon")[0]["seat"] == 1


def test_two_player_tie_keeps_the_order_without_rebid():
    st = bid_state(2)
    before = list(st.order)
    st, _ = do(st, {"type": "bid", "amount": 0}, 0)
    st, ev = do(st, {"type": "bid", "amount": 0}, 1)
    assert "BiddingStarted" not in types(ev) and of(ev, "TurnOrderSet")[0]["order"] == before


# ---------------------------------------------------------------------------------------------------- phase 3
def influence(st):
    st.phase, st.turn = "INFLUENCE", None
    st.round = 1  # phase 4 skipped
    return auto(st)


def test_glut_raises_rebellion_capped_at_two():
    st = island()
    put_unit(st, 2, "C", "E03")
    for r in ("FRUIT", "WOOD", "FISH"):
        st.bank[r] -= 5 - st.dom[r]
        st.dom[r] = 5
    st.reb = 0
    st2, ev = influence(st)
    assert of(ev, "RebellionChanged")[0] == {"type": "RebellionChanged", "delta": 2, "reason": "glut"}


def test_content_colony_lowers_rebellion():
    st = island()
    st.reb = 2
    st2, ev = influence(st)
    assert of(ev, "RebellionChanged")[0]["reason"] == "content_colony" and st2.reb == 1


def test_export_brings_surplus_workers_and_surplus_raises_rebellion():
    st = island()
    for r in ("FRUIT", "WOOD", "CATTLE"):
        st.bank[r] -= 2
        st.exp[r] = 2
    st.sur = D.P3_SURPLUS_STEPS[1][0] - 1  # the export step brings it to the threshold
    st.reb = 1
    for _ in range(3):
        put_unit(st, 2, "C", "E03")
    st2, ev = influence(st)
    reasons = [(e.get("reason"), e["delta"]) for e in ev if e["type"] in ("SurplusChanged", "RebellionChanged")]
    assert ("export", 1) in reasons and ("surplus", 1) in reasons


def test_population_threshold_raises_rebellion():
    st = island()
    st.reb = 0
    for i in range(19):  # 3 + 19 = 22 >= 70% of 30 (21)
        put_unit(st, i % 3, "C", ["E07", "E03"][i % 2])
    st2, ev = influence(st)
    assert ("population", 1) in [(e.get("reason"), e["delta"]) for e in of(ev, "RebellionChanged")]


# ---------------------------------------------------------------------------------------------------- phase 4
def balance_state(card):
    st = island()
    st.deck.remove(card) if card in st.deck else None
    st.deck.insert(0, card)
    for i, m in enumerate(st.market):
        if m and m[0] == card:
            st.market[i] = None
    st.evo_discard = [c for c in st.evo_discard if c != card]
    st.round = 2
    st.phase, st.turn = "BALANCE", None
    st.reb = 0
    return auto(st)


def test_round_one_skips_the_balance_phase():
    st = island()
    st.round = 1
    st.phase, st.turn = "BALANCE", None
    _, ev = auto(st)
    assert "CrisisStarted" not in types(ev)


def test_yellow_domestic_demand_lays_everyone_down_and_market_is_compulsory():
    st, ev = balance_state("C01")  # Y · D:FISH 5/5 · X:WOOD×1
    assert "DomesticDemandStarted" in types(ev) and lying_count(st) == population(st) == 3
    first = st.order[0]
    assert RULES.to_act(st) == {first}
    assert [c["source"] for c in RULES.legal_commands(st, first) if c["type"] == "supply"] == ["MARKET"]
    st, ev = do(st, {"type": "supply", "source": "MARKET"}, first)
    assert of(ev, "CubeSupplied")[0]["stand_ups"] == 3 and st.dom["FISH"] == 0
    refused(st, {"type": "supply_done"}, seat=first)
    refused(st, {"type": "supply", "source": "MARKET"}, seat=first)
    for u in ("c1-91", "c0-91", "c0-92"):
        st, ev = do(st, {"type": "stand", "citizen": u}, first)
    assert lying_count(st) == 0
    assert of(ev, "DemandResolved")[0]["rebellion"] == 0 and st.crisis["part"] == "EXP"


def test_domestic_demand_own_cubes_and_penalty():
    st, _ = balance_state("C01")
    st.bank["FISH"] += st.dom["FISH"]
    st.dom["FISH"] = 0
    first = st.order[0]
    refused(st, {"type": "supply", "source": "CUBE"}, seat=first)
    st.players[first]["cubes"]["FISH"] = 1
    st.bank["FISH"] -= 1
    assert [c["source"] for c in RULES.legal_commands(st, first) if c["type"] == "supply"] == ["CUBE"]
    for s in st.order:
        st, ev = do(st, {"type": "supply_done"}, s)
    k = D.CARDS["C01"].back.domestic[2]
    assert of(ev, "DemandResolved")[0] == {
        "type": "DemandResolved",
        "part": "DOM",
        "lying": 3,
        "rebellion": math.ceil(3 / k),
    }
    assert st.reb == 1 and st.crisis["part"] == "EXP"


def test_export_demand_counts_missing_units():
    st, _ = balance_state("C01")
    for s in st.order:
        st, _ = do(st, {"type": "supply_done"}, s)
    assert st.crisis["part"] == "EXP" and st.reb == 1
    first = st.order[0]
    refused(st, {"type": "export_supply", "unit": 0, "source": "MARKET", "resource": "WOOD"}, seat=first)
    st.players[first]["cubes"]["WOOD"] = 1
    st.bank["WOOD"] -= 1
    refused(st, {"type": "export_supply", "unit": 0, "source": "CUBE", "resource": "FISH"}, seat=first)
    st, ev = do(st, {"type": "export_supply", "unit": 0, "source": "CUBE", "resource": "WOOD"}, first)
    assert of(ev, "DemandResolved") == [{"type": "DemandResolved", "part": "EXP", "missing": 0, "rebellion": 0}]
    assert st.crisis is None
    assert st.players[first]["contrib"] == 1


def test_temple_stands_up_citizens_on_its_tile_and_priest_adjacent():
    st, _ = balance_state("C01")
    st.order[0]
    put_building(st, "E03", "TEMPLE", None)
    st.units["s1-90"]["place"] = "SEA"
    st.buildings["E03"]["TEMPLE"] = None
    # seat 1 controls the temple through an occupant who stands
    st.units["c1-91"].update(place="B:TEMPLE", lying=False)
    st.buildings["E03"]["TEMPLE"] = "c1-91"
    put_unit(st, 0, "C", "E03", "c0-95", lying=True)
    put_unit(st, 2, "C", "E07", "c2-95", lying=True)
    give_card(st, 1, "C19")
    st.crisis["idx"] = st.order.index(1)
    st.bank["FISH"] += st.dom["FISH"]
    st.dom["FISH"] = 0
    assert {"type": "activate_temple", "temple": "E03:TEMPLE"} in RULES.legal_commands(st, 1)
    st, _ = do(st, {"type": "activate_temple", "temple": "E03:TEMPLE"}, 1)
    refused(st, {"type": "supply_done"}, seat=1)
    st, ev = do(st, {"type": "stand", "citizen": "c0-95"}, 1)
    assert ev == [{"type": "CitizenStood", "seat": 1, "unit": "c0-95", "mode": "temple"}]
    st, ev = do(st, {"type": "stand", "citizen": "c0-91"}, 1)  # adjacent tile E07, PRIEST
    assert ev == [{"type": "CitizenStood", "seat": 1, "unit": "c0-91", "mode": "priest"}]
    st, _ = do(st, {"type": "stand", "citizen": "c0-92"}, 1)
    refused(st, {"type": "stand", "citizen": "c2-95"}, seat=1)  # PRIEST allows only 2 adjacent
    st, _ = do(st, {"type": "temple_done"}, 1)
    err = refused(st, {"type": "activate_temple", "temple": "E03:TEMPLE"}, seat=1)  # once per temple per crisis
    assert err.message == "you cannot activate that temple now"


def test_phase_four_is_over_before_phase_five_starts():
    """§5 round order: Phase 4 (balance) ends, crisis included, before Phase 5 (actions) starts, in the events
    and in the view."""
    st, ev = balance_state("C01")  # a yellow crisis
    assert "CrisisStarted" in types(ev) and "PhaseStarted" not in types(ev)
    assert st.phase == "BALANCE" and RULES.view(st, 0)["phase"] == "BALANCE"
    log = list(ev)
    for s in st.order:
        st, ev = do(st, {"type": "supply_done"}, s)
        log += ev
        assert st.crisis is None or RULES.view(st, None)["phase"] == "BALANCE"
    while st.crisis is not None:
        seat = sorted(RULES.to_act(st))[0]
        st, ev = do(
            st,
            {"type": "export_done"}
            if {"type": "export_done"} in RULES.legal_commands(st, seat)
            else RULES.legal_commands(st, seat)[0],
            seat,
        )
        log += ev
    kinds = types(log)
    assert kinds.index("CrisisEnded") < kinds.index("PhaseStarted")
    assert of(log, "PhaseStarted") == [{"type": "PhaseStarted", "phase": "ACTIONS"}]
    assert RULES.view(st, 0)["phase"] == "ACTIONS" and st.turn is not None


def test_a_phase_four_crisis_names_the_back_not_the_front():
    """§3.10 (v1.2): events and views refer to the top card's back until its front is revealed."""
    st, ev = balance_state("C01")
    started = of(ev, "CrisisStarted")[0]
    assert started == {"type": "CrisisStarted", "back": "Y1", "color": "YELLOW", "trigger": "PHASE4"}
    for viewer in (None, 0, 1, 2):
        view = RULES.view(st, viewer)
        assert view["crisis"]["back"] == "Y1" and "card" not in view["crisis"]
        assert view["deck_top_back"]["back"] == "Y1"
        assert '"C01"' not in str(view["crisis"]).replace("'", '"')
    assert RULES.reveal_all(st)["crisis"]["card"] == "C01"
    log = []
    while st.crisis is not None:
        seat = sorted(RULES.to_act(st))[0]
        st, events = do(st, {"type": "supply_done"}, seat)
        log += events
    assert of(log, "CrisisEnded") == [{"type": "CrisisEnded", "back": "Y1"}]
    st, ev = balance_state("C11")  # beige
    applied = of(ev, "BeigeEventApplied")[0]
    assert applied["back"] == "B2" and "card" not in applied


def test_beige_event_applies_at_once():
    st, ev = balance_state("C06")  # FAIR_WEATHER
    assert of(ev, "BeigeEventApplied")[0]["event"] == "FAIR_WEATHER" and st.crisis is None
    st, ev = balance_state("C11")  # PEACE_TREATY: every player +1
    assert of(ev, "BeigeEventApplied")[0]["paid"] == [0, 1, 2]


def test_resolved_red_is_not_repeated():
    st = island()
    st.resolved_red.add("C04")
    st.deck.remove("C04") if "C04" in st.deck else None
    st.deck.insert(0, "C04")
    st.round, st.phase, st.turn = 2, "BALANCE", None
    _, ev = auto(st)
    assert "CrisisStarted" not in types(ev)


# ---------------------------------------------------------------------------------------------------- phase 6
def evo_state():
    st = island()
    st.phase, st.turn, st.p6, st.active = "EVOLUTION", None, {"stage": "step"}, 0
    st.market = [[c, 0] for c in ("C03", "C05", "C07", "P02", "P05")]
    st.deck = [c for c in st.deck if c not in ("C03", "C05", "C07", "P02", "P05", "C04")]
    st.evo_discard = []
    st.resolved_red = set()
    return st


def test_buy_pays_price_rotates_another_card_and_refills():
    st = evo_state()
    seat = st.order[0]
    refused(st, {"type": "evo_buy", "slot": 0, "rotate": 0}, seat=seat)
    refused(st, {"type": "evo_buy", "slot": 0, "rotate": None}, seat=seat)
    top = st.deck[0]
    st, ev = do(st, {"type": "evo_buy", "slot": 0, "rotate": 1}, seat)
    assert st.players[seat]["money"] == 5 and "C03" in st.players[seat]["track"]
    assert st.market[1] == ["C05", 1] and st.market[0] == [top, 0]
    assert RULES.to_act(st) == {st.order[1]}


def test_rotation_to_skull_discards_and_red_refill_triggers_crisis():
    st = evo_state()
    st.market[2][1] = 2
    st.deck.insert(1, "C04")  # red back, exposed on top by the refill draw
    seat = st.order[0]
    refill = st.deck[0]
    st, ev = do(st, {"type": "evo_rotate", "slots": [2, 3]}, seat)
    assert of(ev, "CardSkulled")[0]["card"] == "C07" and "C07" in st.evo_discard
    assert of(ev, "SlotRefilled")[0]["card"] == refill
    assert of(ev, "CrisisStarted")[0] == {"type": "CrisisStarted", "back": "R1", "color": "RED", "trigger": "RED"}
    assert st.crisis["card"] == "C04" and "C04" not in str(RULES.view(st, seat)["crisis"])
    assert st.crisis is not None and RULES.to_act(st) == {st.order[0]}


def test_track_limit_forces_a_discard():
    st = evo_state()
    seat = st.order[0]
    for c in ("C01", "C02", "C06", "C08", "C10"):
        give_card(st, seat, c)
    st.players[seat]["money"] = 20
    st, ev = do(st, {"type": "evo_buy", "slot": 0, "rotate": 1}, seat)
    assert st.discard_pending == seat and RULES.to_act(st) == {seat}
    assert st.market[0] is None  # refill waits for the discard
    st, ev = do(st, {"type": "discard_card", "card": "C03"}, seat)
    assert "C03" in st.evo_discard and len(st.players[seat]["track"]) == 5 and st.market[0] is not None


def test_round_ends_after_every_step_and_round_cap_ends_the_game():
    st = evo_state()
    st.rounds_completed = D.ROUND_CAP["medium"] - 1
    for s in list(st.order):
        st, ev = do(st, {"type": "evo_rotate", "slots": [0, 1]}, s)
    assert of(ev, "GameEnded")[0]["cause"] == "ROUND_CAP" and RULES.is_over(st)
    res = RULES.result(st)
    assert res.details["cause"] == "ROUND_CAP"


def test_turn_of_helper_is_consistent():
    st = turn_of(island(), 1)
    assert RULES.to_act(st) == {1}


def _with_beige(monkeypatch, card, event):
    """§6.4 events that no back of the current card set carries (v1.2 kept two beige backs): put one on ``card``."""
    monkeypatch.setitem(D.CARDS, card, replace(D.CARDS[card], back=D.Back("BX", "BEIGE", event=event)))


def test_other_beige_events(monkeypatch):
    _with_beige(monkeypatch, "P03", "BUMPER_HARVEST")
    _with_beige(monkeypatch, "P09", "IMMIGRANTS")
    _with_beige(monkeypatch, "C19", "RELIGIOUS_HOLIDAY")
    _with_beige(monkeypatch, "P14", "TRADE_WINDS")
    st, ev = balance_state("P03")  # BUMPER_HARVEST
    assert of(ev, "BeigeEventApplied")[0]["cubes"] == ["FRUIT", "CATTLE", "FISH"]
    st, ev = balance_state("P09")  # IMMIGRANTS
    assert st.sur == 2
    st = island()
    put_building(st, "E07", "TEMPLE", "c0-91")
    st.deck.remove("C19") if "C19" in st.deck else None
    st.deck.insert(0, "C19")
    st.market = [m if not m or m[0] != "C19" else None for m in st.market]
    st.evo_discard = [c for c in st.evo_discard if c != "C19"]
    for p in st.players:
        if "C19" in p["track"]:
            p["track"].remove("C19")
    st.round, st.phase, st.turn, st.reb = 2, "BALANCE", None, 2
    st, ev = auto(st)
    assert of(ev, "BeigeEventApplied")[0]["rebellion_down"] == 1 and st.reb == 1  # RELIGIOUS_HOLIDAY, 1 temple
    st = island()
    put_building(st, "E03", "PORT", "s1-90")
    st.deck.remove("P14") if "P14" in st.deck else None
    st.deck.insert(0, "P14")
    st.market = [m if not m or m[0] != "P14" else None for m in st.market]
    st.evo_discard = [c for c in st.evo_discard if c != "P14"]
    for p in st.players:
        if "P14" in p["track"]:
            p["track"].remove("P14")
    st.round, st.phase, st.turn = 2, "BALANCE", None
    st, ev = auto(st)
    assert of(ev, "BeigeEventApplied")[0]["paid"] == [1] and st.players[1]["money"] == 12  # TRADE_WINDS
