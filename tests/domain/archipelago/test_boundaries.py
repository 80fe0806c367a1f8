"""Boundaries the other tests left open (found by mutation testing, docs/testing.md), each pinned from the rules
text of docs/rules/archipelago.md: the events a card use records, the last action disc, the track limit, the
temple and beige-event caps, permissions, refusals that say why, and the views and results built from them."""

from __future__ import annotations

from dataclasses import replace

from domain.archipelago import RULES
from domain.archipelago import data as D
from domain.archipelago.flow import Ctx, advance, beige_event, deal_hand
from domain.archipelago.state import composed_tile, face_source, population
from tests.domain.archipelago.fixtures import (
    GAME,
    first_legal_until,
    give_card,
    island,
    of,
    put_building,
    put_tile,
    put_unit,
    refused,
    stock,
    turn_of,
)
from tests.domain.archipelago.test_round import balance_state, evo_state


def holding(card, seat=0):
    st = island()
    give_card(st, seat, card)
    return st


def card_used(card, name, ad, step=None, seat=0, owner=0, fee=0):
    return {
        "type": "CardUsed",
        "seat": seat,
        "card": card,
        "name": name,
        "owner": owner,
        "fee": fee,
        "ad": ad,
        "step": step,
    }


# ---------------------------------------------------------------------------------------------------- §10.4 cards
def test_banker_records_the_coins_it_pays():
    """BANKER: gain min(5, floor(S / 2)) for S standing citizens (seat 0 has 2: 1 coin)."""
    events, after = GAME.when(holding("C15"), {"type": "use_card", "card": "C15"})
    assert events == [
        card_used("C15", "BANKER", True),
        {"type": "MoneyChanged", "seat": 0, "delta": 1, "reason": "banker"},
    ]
    assert after.players[0]["money"] == 11


def test_emigration_records_the_worker_leaving_and_the_coin():
    """EMIGRATION: SUR -= 1 and gain 1."""
    st = holding("P07")
    st.sur = 2
    events, after = GAME.when(st, {"type": "use_card", "card": "P07"})
    assert events == [
        card_used("P07", "EMIGRATION", True),
        {"type": "SurplusChanged", "delta": -1, "reason": "emigration"},
        {"type": "MoneyChanged", "seat": 0, "delta": 1, "reason": "emigration"},
    ]
    assert (after.sur, after.players[0]["money"]) == (1, 11)


def test_festival_records_the_payment_and_the_fall_of_rebellion():
    """FESTIVAL: pay 1 FRUIT + 1 CATTLE + 1 FISH to the bank: REB -= 2."""
    st = holding("P13")
    st.reb = 3
    stock(st, 0, FRUIT=1, CATTLE=1, FISH=1)
    events, after = GAME.when(st, {"type": "use_card", "card": "P13", "tokens": {}})
    assert events == [
        card_used("P13", "FESTIVAL", True),
        {
            "type": "CubesPaid",
            "seat": 0,
            "cubes": {"FRUIT": 1, "CATTLE": 1, "FISH": 1},
            "tokens": 0,
            "money": 0,
            "reason": "festival",
        },
        {"type": "RebellionChanged", "delta": -2, "reason": "festival"},
    ]
    assert after.reb == 1


def test_charity_moves_one_or_two_cubes_into_rows_with_room():
    """CHARITY: move 1 or 2 of your cubes into domestic rows that have room (a row holds 6); 2 moved: REB -= 1."""
    st = holding("P14")
    stock(st, 0, FRUIT=3)
    st.reb = 2
    st.bank["FRUIT"] += st.dom["FRUIT"] - 4
    st.dom["FRUIT"] = 4  # room for exactly 2
    refused(st, {"type": "use_card", "card": "P14", "cubes": ["FRUIT", "FRUIT", "FRUIT"]}, "invalid_command")
    events, after = GAME.when(st, {"type": "use_card", "card": "P14", "cubes": ["FRUIT", "FRUIT"]})
    assert events == [
        card_used("P14", "CHARITY", False),
        {"type": "CubesToMarket", "seat": 0, "resources": ["FRUIT", "FRUIT"], "reason": "charity"},
        {"type": "RebellionChanged", "delta": -1, "reason": "charity"},
    ]
    assert after.dom["FRUIT"] == D.DOM_CAP and after.reb == 1
    st.dom["FRUIT"] = 5  # room for 1 only
    st.bank["FRUIT"] -= 1
    refused(st, {"type": "use_card", "card": "P14", "cubes": ["FRUIT", "FRUIT"]})
    events, after = GAME.when(st, {"type": "use_card", "card": "P14", "cubes": ["FRUIT"]})
    assert after.dom["FRUIT"] == D.DOM_CAP and after.reb == 2  # one cube: no fall of rebellion


def test_researcher_reveals_the_top_five_to_everyone():
    """RESEARCHER: reveal the top 5 cards of the deck to everyone; the reveal names who revealed them."""
    st = holding("C01")
    top = st.deck[:5]
    events, after = GAME.when(st, {"type": "use_card", "card": "C01"})
    assert events == [
        card_used("C01", "RESEARCHER", True),
        {"type": "CardsRevealed", "seat": 0, "card": "C01", "cards": top},
    ]
    picks = RULES.legal_commands(after, 0)
    assert {"type": "research_pick", "card": None} in picks
    assert {c["card"] for c in picks if c["card"]} == {
        c for c in top if D.CARDS[c].kind == "PROGRESS" and D.CARDS[c].prices[2] <= 10
    }


def test_head_hunter_offers_only_characters():
    st = holding("C02")
    st.deck = ["C03", "P02", "C05", "P06", "W01"] + [c for c in st.deck if c not in ("C03", "P02", "C05", "P06", "W01")]
    _, after = GAME.when(st, {"type": "use_card", "card": "C02"})
    assert [c["card"] for c in RULES.legal_commands(after, 0)] == [None, "C03", "C05"]


def test_a_research_purchase_that_makes_five_cards_needs_no_discard():
    """§5.6: the track limit is 5; only a sixth card asks for a discard."""
    st = holding("C01")
    for card in ("C03", "C05", "C07"):
        give_card(st, 0, card)
    st.deck = ["P06"] + [c for c in st.deck if c != "P06"]
    _, st = GAME.when(st, {"type": "use_card", "card": "C01"})
    events, after = GAME.when(st, {"type": "research_pick", "card": "P06"})
    assert not of(events, "DiscardRequired") and len(after.players[0]["track"]) == 5
    assert after.discard_pending is None


def test_a_sixth_card_asks_its_owner_which_card_to_discard():
    st = holding("C01")
    for card in ("C03", "C05", "C07", "C09"):
        give_card(st, 0, card)
    st.deck = ["P06"] + [c for c in st.deck if c != "P06"]
    _, st = GAME.when(st, {"type": "use_card", "card": "C01"})
    events, after = GAME.when(st, {"type": "research_pick", "card": "P06"})
    assert of(events, "DiscardRequired") == [{"type": "DiscardRequired", "seat": 0}]
    assert RULES.to_act(after) == {0}
    track = after.players[0]["track"]
    assert len(track) == 6
    assert RULES.legal_commands(after, 0) == [{"type": "discard_card", "card": c} for c in track]


def test_midwife_does_not_use_up_the_rounds_reproduction():
    """MIDWIFE: a birth step without an AD; it does not set reproduced, so REPRODUCE stays available."""
    st = holding("C10")
    put_unit(st, 0, "C", "E03", "c0-95")
    put_unit(st, 0, "C", "E03", "c0-96")
    events, st = GAME.when(st, {"type": "use_card", "card": "C10"})
    step = {"kind": "birth", "source": "midwife", "eligible": ["E03", "E07"], "done": []}
    assert events == [card_used("C10", "MIDWIFE", False, step=step)]
    _, st = GAME.when(st, {"type": "birth", "tile": "E07"})
    _, st = GAME.when(st, {"type": "reproduce_done"})
    assert not st.players[0]["reproduced"] and population(st) == 6
    st = turn_of(st, 0)
    events, st = GAME.when(st, {"type": "reproduce"})
    assert st.step is not None


def test_conquistador_with_cartographer_looks_at_three_tiles():
    """CONQUISTADOR {pick, with}: with may name CARTOGRAPHER, which shows the top 3 tiles; the cartographer is a
    free use of its own (no AD, no fee for its owner)."""
    st = holding("C13")
    give_card(st, 0, "C12")
    top = [x[0] for x in st.stack[:3]]
    events, after = GAME.when(st, {"type": "use_card", "card": "C13", "pick": "TOP", "with": ["C12"]})
    step = {"kind": "explore", "phase": "draw", "with": ["C12"], "tile": None}
    assert events[0] == card_used("C13", "CONQUISTADOR", True, step=step)
    assert [t["tile"] for t in events[1]["tiles"]] == top and events[1]["type"] == "CartographerLooked"
    assert events[2:] == [card_used("C12", "CARTOGRAPHER", False)]
    assert "C12" in after.card_used and after.step["phase"] == "cartographer"
    assert [c["type"] for c in RULES.legal_commands(after, 0)] == ["cartographer_pick"] * 3


def test_an_ad_card_needs_an_action_disc():
    """§10.2: an AD card costs 1 AD."""
    st = holding("C15")
    st.players[0]["ad_avail"] = 0
    err = refused(st, {"type": "use_card", "card": "C15"})
    assert err.message == "you have no action disc left"


def test_a_wonder_can_be_built_with_the_last_action_disc():
    """§10.3: building a wonder is an AD use (1 AD placed on it)."""
    st = holding("W04")
    stock(st, 0, FRUIT=1, CATTLE=1, FISH=1, WOOD=1)
    st.players[0]["ad_avail"] = 1
    events, after = GAME.when(st, {"type": "build_wonder", "card": "W04", "citizen": "c0-91", "tokens": {}})
    assert events == [
        card_used("W04", "GRAND BAZAAR", True),
        {
            "type": "CubesPaid",
            "seat": 0,
            "cubes": {"FRUIT": 1, "CATTLE": 1, "FISH": 1, "WOOD": 1},
            "tokens": 0,
            "money": 0,
            "reason": "wonder",
        },
        {"type": "CitizenSacrificed", "seat": 0, "unit": "c0-91", "card": "W04"},
        {"type": "MoneyChanged", "seat": 0, "delta": 4, "reason": "grand_bazaar"},
    ]
    assert after.players[0]["ad_avail"] == 0
    st.players[0]["ad_avail"] = 0
    assert refused(st, {"type": "build_wonder", "card": "W04", "citizen": "c0-91", "tokens": {}}).message == (
        "you have no action disc left"
    )
    st.players[0]["ad_avail"] = 1
    st.units["c0-91"]["engaged"] = True
    assert refused(st, {"type": "build_wonder", "card": "W04", "citizen": "c0-91", "tokens": {}}).message == (
        "the sacrificed citizen must be available"
    )


def test_merchant_legal_uses_name_the_operation_and_smuggler_only_sells():
    """MERCHANT {op, resource}; SMUGGLER {resource}: it only sells."""
    st = holding("C03")
    give_card(st, 0, "C16")
    stock(st, 0, IRON=1)
    uses = [c for c in RULES.legal_commands(st, 0) if c["type"] == "use_card"]
    merchant = [c for c in uses if c["card"] == "C03"]
    smuggler = [c for c in uses if c["card"] == "C16"]
    assert {"type": "use_card", "card": "C03", "op": "SELL", "resource": "IRON"} in merchant
    assert all(set(c) == {"type", "card", "op", "resource"} for c in merchant)
    assert smuggler == [{"type": "use_card", "card": "C16", "resource": "IRON"}]


# ---------------------------------------------------------------------------------------------------- §6 crises, §6.4 events
def beige(st, event, monkeypatch):
    """The events of a Phase-4 beige back carrying ``event`` (§6.4; the v1.2 backs carry only two of the six)."""
    card = "C19"
    monkeypatch.setitem(D.CARDS, card, replace(D.CARDS[card], back=D.Back("BX", "BEIGE", event=event)))
    ctx = Ctx(st, None)
    beige_event(ctx, card)
    return ctx.events


def test_religious_holiday_lowers_rebellion_by_two_at_most(monkeypatch):
    """RELIGIOUS_HOLIDAY: REB -= min(2, number of temples on the map)."""
    st = island()
    st.reb = 5
    put_building(st, "E07", "TEMPLE")
    assert beige(st, "RELIGIOUS_HOLIDAY", monkeypatch)[0]["rebellion_down"] == 1
    for tid in ("E03", st.start):
        put_building(st, tid, "TEMPLE")
    assert beige(st, "RELIGIOUS_HOLIDAY", monkeypatch) == [
        {"type": "BeigeEventApplied", "back": "BX", "event": "RELIGIOUS_HOLIDAY", "rebellion_down": 2}
    ]


# ---------------------------------------------------------------------------------------------------- §8.7, §9, §11
def test_a_convoy_records_who_moved_where():
    """§8.7 convoy: the citizen moves to `to`'s land across a bridge of the actor's ships."""
    st = island()
    put_unit(st, 0, "S", "E07", "s0-93")
    put_unit(st, 0, "S", "E03", "s0-94")
    _, st = GAME.when(st, {"type": "migrate"})
    events, after = GAME.when(st, {"type": "convoy", "citizen": "c0-91", "to": "E03"})
    assert events == [{"type": "UnitMoved", "seat": 0, "unit": "c0-91", "to": "E03", "via": "convoy"}]
    assert after.units["c0-91"]["tile"] == "E03"


def test_only_citizens_walk():
    """§8.7 walk{citizen, to}: ships sail, they do not walk."""
    st = island()
    put_unit(st, 0, "S", "E07", "s0-93")
    _, st = GAME.when(st, {"type": "migrate"})
    refused(st, {"type": "walk", "citizen": "s0-93", "to": "E03"})


def test_entering_a_building_on_a_tile_another_player_controls_needs_a_grant():
    """§3.5: on a tile controlled by X, another player needs X's permission to enter one of its empty buildings."""
    st = island()
    put_building(st, "E03", "TOWN", "c1-91")
    put_building(st, "E03", "MARKET")
    put_unit(st, 0, "C", "E03", "c0-95")
    _, without = GAME.when(st, {"type": "migrate"})
    err = refused(without, {"type": "enter_building", "unit": "c0-95", "building": "E03:MARKET"})
    assert err.message == "that tile is controlled by another player: you need their permission"
    grant = {"kind": "GRANT", "grant": "ENTER", "building": "E03:MARKET"}
    _, st = GAME.when_all(
        st, {"type": "offer_open", "to": 1}, {"type": "offer_add", "side": "GET", "item": grant}, {"type": "offer_send"}
    )
    _, st = GAME.when(st, {"type": "offer_accept"}, seat=1)
    _, st = GAME.when(st, {"type": "migrate"})
    events, _ = GAME.when(st, {"type": "enter_building", "unit": "c0-95", "building": "E03:MARKET"})
    assert events == [{"type": "UnitHoused", "seat": 0, "unit": "c0-95", "tile": "E03", "building": "MARKET"}]


def test_a_market_or_port_once_per_turn_and_for_its_fee():
    """§9: either a market or a port in a single turn, not both; the use costs 1 coin."""
    st = island()
    put_unit(st, 0, "C", "E03", "c0-95")
    put_building(st, "E07", "MARKET", "c0-91")
    put_building(st, "E03", "PORT", "c0-95")
    st.players[0]["money"] = 0
    err = refused(st, {"type": "use_building", "building": "E07:MARKET"})
    assert err.message == "the fee is 1 florin"
    st.players[0]["money"] = 10
    _, st = GAME.when(st, {"type": "use_building", "building": "E07:MARKET"})
    _, st = GAME.when(st, {"type": "ability_done"})
    err = refused(st, {"type": "use_building", "building": "E03:PORT"})
    assert err.message == "you already used a market or port this turn"


# ---------------------------------------------------------------------------------------------------- refusals say why
def test_refusals_name_the_rule_that_was_broken():
    st = island()
    st.sur = 0
    st.step = {"kind": "recruit", "with": [], "first_discount": False, "hired": 0}
    st.turn["action"] = True
    assert refused(st, {"type": "hire", "tile": "E07"}).message == "there are no surplus workers"
    st = holding("C11")
    for u in ("c0-91", "c0-92", "c1-91"):
        st.units[u]["lying"] = True
    _, st = GAME.when(st, {"type": "use_card", "card": "C11"})
    _, st = GAME.when(st, {"type": "stand", "citizen": "c0-91"})
    _, st = GAME.when(st, {"type": "stand", "citizen": "c0-92"})
    assert refused(st, {"type": "stand", "citizen": "c1-91"}).message == "DIPLOMAT stands up at most 2 citizens"


# ---------------------------------------------------------------------------------------------------- §12 the end
def test_a_declared_end_records_the_objective():
    """§12.2–12.3: the result records the cause, the declarer and the objective."""
    st = island()
    st.objectives = [["M07"], ["M01"], ["M03"]]  # M07: ROUNDS(8)
    st.rounds_completed = 8
    events, after = GAME.when(st, {"type": "declare_end", "objective": "M07"})
    ended = of(events, "GameEnded")[0]
    assert (ended["cause"], ended["declarer"], ended["objective"]) == ("DECLARED", 0, "M07")
    details = RULES.result(after).details
    assert details["objective"] == "M07"
    for row in details["breakdown"]:
        assert set(row) == {"criteria", "cards", "wonders", "pacifist", "total"}
        assert row["total"] == sum(row["criteria"].values()) + row["cards"] + row["wonders"] + row["pacifist"]
    err = refused(island(), {"type": "declare_end", "objective": "M07"})
    assert err.message == "that objective is not yours or its end condition does not hold"


def test_auto_end_ends_on_a_face_up_objective_without_secrets():
    """§12.2 AUTO_END with NO_SECRETS: a face-up objective whose condition holds ends the game, the first in turn
    order recorded as the declarer."""
    st = island(3, {"no_secrets": True, "auto_end": True})
    st.table_objectives = ["M07"]
    st.rounds_completed = 8
    events, after = GAME.when(st, {"type": "tax", "with": []})
    ended = of(events, "GameEnded")[0]
    assert (ended["cause"], ended["declarer"], ended["objective"]) == ("DECLARED", st.order[0], "M07")
    assert after.phase == "OVER"


def test_choose_trends_takes_up_to_all_twelve():
    """§16 CHOOSE_TRENDS replaces the random draw by the configured list (1 to 12 distinct trend cards)."""
    every = ",".join(f"T{i:02d}" for i in range(1, 13))
    st = RULES.fold(RULES.setup(4, 3, {"choose_trends": every}))
    assert st.trends == [f"T{i:02d}" for i in range(1, 13)]


# ---------------------------------------------------------------------------------------------------- §3.10 views
def test_the_deck_top_back_is_public_with_its_event():
    """§3.10: everyone sees the back of the deck's top card (its colour and specification, a beige event too)."""
    st = island()
    beige = next(c for c in D.CARDS if D.CARDS[c].back.color == "BEIGE" and c in st.deck)
    st.deck = [beige] + [c for c in st.deck if c != beige]
    back = D.CARDS[beige].back
    for viewer in (None, 0, 1):
        assert RULES.view(st, viewer)["deck_top_back"] == {
            "back": back.id,
            "color": "BEIGE",
            "domestic": None,
            "export": [],
            "event": back.event,
        }


# ---------------------------------------------------------------------------------------------------- §8.7 migrate
def test_engineer_citizens_walk_across_mountains():
    """§3.3: nothing crosses a mountain link, except citizens of a player who owns ENGINEER (walks, §8.7)."""
    st = island()
    put_tile(st, "E05", 2, 0, "A", 2)  # E07 | E05 across a mountain
    _, plain = GAME.when(st, {"type": "migrate"})
    walks = {c["to"] for c in RULES.legal_commands(plain, 0) if c["type"] == "walk" and c["citizen"] == "c0-91"}
    assert walks == {"E03"}
    refused(plain, {"type": "walk", "citizen": "c0-91", "to": "E05"})
    give_card(st, 0, "C17")
    _, st = GAME.when(st, {"type": "migrate"})
    walks = {c["to"] for c in RULES.legal_commands(st, 0) if c["type"] == "walk" and c["citizen"] == "c0-91"}
    assert walks == {"E03", "E05"}
    _, st = GAME.when(st, {"type": "walk", "citizen": "c0-91", "to": "E05"})
    assert st.units["c0-91"]["tile"] == "E05"


def test_navigation_gives_two_sea_steps_not_three():
    """NAVIGATION: each of your ships may make up to 2 sea steps per MIGRATE."""
    st = holding("P15")
    _, st = GAME.when(st, {"type": "migrate"})
    _, st = GAME.when(st, {"type": "move_ship", "ship": "s0-90", "to": "E07", "passengers": []})
    _, st = GAME.when(st, {"type": "move_ship", "ship": "s0-90", "to": "OCEAN", "passengers": []})
    err = refused(st, {"type": "move_ship", "ship": "s0-90", "to": "E07", "passengers": []})
    assert err.message == "the ship has no sea step left"
    events, _ = GAME.when(st, {"type": "migrate_done"})
    assert events == [{"type": "StepClosed", "seat": 0}]


def test_a_ship_carries_only_its_owners_citizens_to_land():
    """§8.7 move_ship: passengers are the actor's own available citizens on the ship's tile; `to` needs land."""
    st = island()
    put_tile(st, "E01", 0, 1, "A", 0)  # E07 - E01 across the sea; E01 has land
    put_unit(st, 0, "S", "E07", "s0-93")
    put_unit(st, 1, "C", "E07", "c1-95")
    _, st = GAME.when(st, {"type": "migrate"})
    err = refused(st, {"type": "move_ship", "ship": "s0-93", "to": "E01", "passengers": ["c1-95"]})
    assert err.message == "unit c1-95 is not yours"
    err = refused(st, {"type": "move_ship", "ship": "s0-93", "to": "OCEAN", "passengers": ["c0-91"]})
    assert err.message == "passengers need land at the destination"
    err = refused(st, {"type": "move_ship", "ship": "s0-93", "to": "E01", "passengers": [5]}, "invalid_command")
    assert err.message == "passengers must be citizen ids"
    events, st = GAME.when(st, {"type": "move_ship", "ship": "s0-93", "to": "E01", "passengers": ["c0-91"]})
    assert (st.units["s0-93"]["tile"], st.units["c0-91"]["tile"]) == ("E01", "E01")


def test_legal_entries_need_the_grant_too():
    """§3.5: entering an empty building on a tile another player controls needs that player's permission; the
    commands offered say the same as the refusal."""
    st = island()
    put_building(st, "E03", "TOWN", "c1-91")
    put_building(st, "E03", "MARKET")
    put_unit(st, 0, "C", "E03", "c0-95")
    _, st = GAME.when(st, {"type": "migrate"})
    entries = [c for c in RULES.legal_commands(st, 0) if c["type"] == "enter_building"]
    assert {"type": "enter_building", "unit": "c0-95", "building": "E03:MARKET"} not in entries


# ---------------------------------------------------------------------------------------------------- §8.8 build
def test_a_ship_builds_a_port_and_nothing_else():
    """§8.8: TOWN, TEMPLE, MARKET need a citizen builder; a PORT may be built by a ship on a tile with land and sea."""
    st = island()
    put_unit(st, 0, "S", "E07", "s0-93")
    stock(st, 0, STONE=1, FISH=1, FRUIT=1, CATTLE=1)
    market = {"type": "build", "building": "MARKET", "tile": "E07", "builder": "s0-93", "tokens": {}, "with": []}
    assert refused(st, market).message == "only a port may be built by a ship"
    port = {"type": "build", "building": "PORT", "tile": "E07", "builder": "s0-93", "tokens": {}, "with": []}
    events, after = GAME.when(st, port)
    assert events[1:] == [
        {"type": "CubesPaid", "seat": 0, "cubes": {"STONE": 1, "FISH": 1}, "tokens": 0, "money": 2, "reason": "build"},
        {"type": "BuildingBuilt", "seat": 0, "tile": "E07", "building": "PORT", "builder": "s0-93", "temp": False},
    ]
    assert after.buildings["E07"] == {"PORT": "s0-93"}


# ---------------------------------------------------------------------------------------------------- §3.10 determinize
def test_made_up_tiles_name_the_printed_faces_behind_them():
    """§3.10: determinize resamples hidden faces; a made-up tile pairs two printed faces, and a pair that is a
    printed tile's own A and B is that tile."""
    assert composed_tile(("E05", "A"), ("E05", "B")) == "E05"
    assert composed_tile(("E05", "B"), ("E05", "A")) == "E05B+E05A"
    made = composed_tile(("E01", "B"), ("E09", "A"))
    assert (face_source(made, "A"), face_source(made, "B")) == (("E01", "B"), ("E09", "A"))
    assert face_source("E05", "B") == ("E05", "B")


# ---------------------------------------------------------------------------------------------------- payments, supplies, offers
def test_a_payment_lists_only_the_cubes_not_replaced_by_tokens():
    """§3.9: an explorer token counts as one cube of R; the payment shows the cubes handed in and the tokens."""
    st = holding("P13")
    st.reb = 3
    stock(st, 0, FRUIT=1, CATTLE=1)
    st.players[0]["tokens"] = 1
    st.stacks[0] -= 1
    events, _ = GAME.when(st, {"type": "use_card", "card": "P13", "tokens": {"FISH": 1}})
    assert events[1] == {
        "type": "CubesPaid",
        "seat": 0,
        "cubes": {"FRUIT": 1, "CATTLE": 1},
        "tokens": 1,
        "money": 0,
        "reason": "festival",
    }


def test_a_supply_names_one_of_the_three_sources():
    """§6.2 supply{source}: MARKET, CUBE or TOKEN."""
    st, _ = balance_state("C01")
    seat = sorted(RULES.to_act(st))[0]
    err = refused(st, {"type": "supply", "source": "BANK"}, "invalid_command", seat=seat)
    assert err.message == "field 'source' must be one of ['MARKET', 'CUBE', 'TOKEN']"


def test_buying_from_an_empty_slot_is_refused():
    """§5.6 evo_buy: pick a market card."""
    st = evo_state()
    st.market[0] = None
    err = refused(st, {"type": "evo_buy", "slot": 0, "rotate": 1}, seat=st.order[0])
    assert err.message == "that slot is empty"


def test_a_sent_offer_names_its_recipient_and_both_sides():
    """§11: offers are public events; the recipient answers."""
    events, st = GAME.when_all(
        island(),
        {"type": "offer_open", "to": 1},
        {"type": "offer_add", "side": "GIVE", "item": {"kind": "MONEY_1"}},
        {"type": "offer_send"},
    )
    assert events[-1] == {"type": "OfferSent", "seat": 0, "to": 1, "give": [{"kind": "MONEY_1"}], "get": []}
    assert RULES.to_act(st) == {1}


def test_slots_are_numbers_not_booleans():
    st = evo_state()
    err = refused(st, {"type": "evo_rotate", "slots": [True, 2]}, "invalid_command", seat=st.order[0])
    assert err.message == "slots must be slot numbers"


def test_an_empty_evolution_market_skips_the_step():
    """§5.6: if the market is empty, the engine records the step with no effect (no command)."""
    st = evo_state()
    st.market = [None] * 5
    st.deck = []
    ctx = Ctx(st, None)
    advance(ctx)
    skipped = [e for e in ctx.events if e["type"] == "EvolutionStepSkipped"]
    assert skipped[0] == {"type": "EvolutionStepSkipped", "seat": st.order[0]}


def test_a_building_two_tiles_away_cannot_be_entered():
    """§8.7 enter_building: the building is on the unit's tile or on an adjacent tile across a usable link."""
    st = island()
    put_building(st, "E03", "MARKET")
    put_tile(st, "E05", 2, 0, "A", 0)
    put_unit(st, 0, "C", "E05", "c0-96")
    _, st = GAME.when(st, {"type": "migrate"})
    err = refused(st, {"type": "enter_building", "unit": "c0-96", "building": "E03:MARKET"})
    assert err.message == "the building must be on the unit's tile or one step away across a link it can use"


# ---------------------------------------------------------------------------------------------------- §4 turn 0, §8.1 harvest
def test_foreman_adds_a_cube_when_two_units_harvest():
    """FOREMAN: if at least 2 of your units are assigned in this harvest, gain +1 cube of the harvested resource."""
    st = holding("C05")
    put_unit(st, 0, "C", "E03", "c0-95")
    _, st = GAME.when(st, {"type": "harvest", "resource": "CATTLE", "with": ["C05"]})
    _, st = GAME.when(st, {"type": "harvest_assign", "unit": "c0-91", "icon": 0})  # E07's cattle
    _, st = GAME.when(st, {"type": "harvest_assign", "unit": "c0-95", "icon": 2})  # E03's cattle
    _, st = GAME.when(st, {"type": "harvest_done"})
    assert st.players[0]["cubes"]["CATTLE"] == 3


def turn0_state():
    st = RULES.fold(RULES.setup(3, 3, {}))
    return first_legal_until(st, lambda s: s.phase == "TURN0" and s.t0 and s.t0.get("sub") == "place")


def test_a_start_tile_must_face_the_start_with_a_matching_edge():
    """§4 step 12: the new tile's edge must match every placed neighbour, the start tile included."""
    st = turn0_state()
    seat = sorted(RULES.to_act(st))[0]
    tile = st.hands[seat][0][0]
    placements = [
        {"type": "place_start_tile", "tile": tile, "face": "A", "pos": {"q": 1, "r": 0}, "rot": rot} for rot in range(6)
    ]
    legal = RULES.legal_commands(st, seat)
    wrong = next(c for c in placements if c not in legal)
    assert refused(st, wrong, seat=seat).message == "the edges do not match the neighbouring tiles"


def test_turn0_hands_come_from_the_set_aside_pile_once_the_stack_is_empty():
    """§4 step 12: when the stack is empty, the set-aside pile, in the order it was set aside, becomes the stack
    first; while the stack holds tiles, hands are dealt from it."""
    st = turn0_state()
    seat = sorted(RULES.to_act(st))[0]
    aside = st.stack[:3]
    st.stack, st.set_aside = st.stack[3:], aside
    ctx = Ctx(st, None)
    deal_hand(ctx, seat)
    assert [e["type"] for e in ctx.events] == ["Turn0HandDealt"]
    st = turn0_state()
    aside = st.stack[:3]
    st.stack, st.set_aside = [], aside
    ctx = Ctx(st, None)
    deal_hand(ctx, seat)
    assert ctx.events[0] == {"type": "SetAsidePileRecycled", "seat": seat}
    assert ctx.events[1]["tiles"] == [x[0] for x in aside]


# ---------------------------------------------------------------------------------------------------- more refusals and events
def test_explore_records_its_step_and_a_placement_its_huts():
    """§8.6: EXPLORE opens a draw step; a placed tile's huts add surplus workers (SUR += huts)."""
    events, st = GAME.when(island(), {"type": "explore", "slot": "PERSONAL", "pick": "TOP", "with": []})
    assert events[0] == {
        "type": "ActionStarted",
        "seat": 0,
        "action": "EXPLORE",
        "with": [],
        "fees": [],
        "slot": "PERSONAL",
        "step": {"kind": "explore", "phase": "draw", "with": [], "tile": None},
    }
    place = next(c for c in RULES.legal_commands(st, 0) if c["type"] == "place_tile")
    tile = st.step["tile"]
    events, after = GAME.when(st, place)
    huts = after.tiles[tile]["huts"]
    assert {"type": "SurplusChanged", "delta": huts, "reason": "huts"} in events


def test_a_domestic_row_takes_a_sixth_cube():
    """§3.6: the domestic market's capacity is 6 (the export market's 5)."""
    st = island()
    st.bank["FISH"] += st.dom["FISH"] - 5
    st.dom["FISH"] = 5
    stock(st, 0, FISH=1)
    events, after = GAME.when(st, {"type": "trade", "market": "DOM", "op": "SELL", "resource": "FISH"})
    assert events[1] == {
        "type": "MarketTraded",
        "seat": 0,
        "market": "DOM",
        "op": "SELL",
        "resource": "FISH",
        "price": 1,
    }
    assert after.dom["FISH"] == 6


def test_wonders_and_granted_builds_are_offered():
    """§10.3: an owned unbuilt wonder whose cost is payable can be built with an available citizen; §3.5: a
    BUILD_ON grant lets a player build on a tile another controls."""
    st = holding("W04")
    stock(st, 0, FRUIT=1, CATTLE=1, FISH=1, WOOD=1)
    wonders = [c for c in RULES.legal_commands(st, 0) if c["type"] == "build_wonder"]
    assert {c["citizen"] for c in wonders} == {"c0-91", "c0-92"}
    st = island()
    put_building(st, "E03", "TOWN", "c1-91")
    put_unit(st, 0, "C", "E03", "c0-95")
    stock(st, 0, STONE=2)
    temple = {"type": "build", "building": "TEMPLE", "tile": "E03", "builder": "c0-95"}

    def offered(s):
        return [c for c in RULES.legal_commands(s, 0) if c["type"] == "build" and c["builder"] == "c0-95"]

    assert not offered(st)
    grant = {"kind": "GRANT", "grant": "BUILD_ON", "tile": "E03"}
    _, st = GAME.when_all(
        st, {"type": "offer_open", "to": 1}, {"type": "offer_add", "side": "GET", "item": grant}, {"type": "offer_send"}
    )
    _, st = GAME.when(st, {"type": "offer_accept"}, seat=1)
    assert any(all(c[k] == v for k, v in temple.items()) for c in offered(st))


def test_offer_and_harvest_refusals_say_why():
    st = island()
    _, st = GAME.when(st, {"type": "offer_open", "to": 1})
    err = refused(st, {"type": "offer_add", "side": "BOTH", "item": {"kind": "MONEY_1"}}, "invalid_command")
    assert err.message == "field 'side' must be one of ['GIVE', 'GET']"
    bad = {"kind": "GRANT", "grant": "ENTER", "building": "E03"}
    err = refused(st, {"type": "offer_add", "side": "GET", "item": bad}, "invalid_command")
    assert err.message == "building ids look like '<tile>:<TYPE>'"
    st.players[0]["money"] = 4
    err = refused(st, {"type": "offer_add", "side": "GIVE", "item": {"kind": "MONEY_5"}})
    assert err.message == "you do not hold that much money"
    st = island()
    _, st = GAME.when(st, {"type": "harvest", "resource": "WOOD", "with": []})
    err = refused(st, {"type": "harvest_assign", "unit": "c0-91", "icon": 0})  # E07's icon 0 is cattle
    assert err.message == "that unit cannot harvest that icon (own tile, matching free icon, available, not housed)"
