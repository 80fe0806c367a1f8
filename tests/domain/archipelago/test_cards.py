"""Evolution cards (§10.4), sharing (§10.2) and wonders (§10.3)."""

from __future__ import annotations

import pytest

from domain.archipelago import RULES
from domain.archipelago import data as D
from domain.archipelago.scoring import score_breakdown
from domain.archipelago.state import population
from tests.domain.archipelago.fixtures import do, give_card, island, of, put_building, put_unit, refused, stock, turn_of


def with_card(card, seat=0):
    st = island()
    give_card(st, seat, card)
    return st


def test_every_card_has_a_complete_definition():
    assert len(D.CARDS) == 40
    colors = [c.back.color for c in D.CARDS.values()]
    assert colors.count("YELLOW") == 28 and colors.count("RED") == 6 and colors.count("BEIGE") == 6
    assert sum(1 for c in D.CARDS.values() if c.use == "WONDER") == 4


def test_every_back_is_shared_by_at_least_three_cards():
    """§3.10 (v1.2): a public back must not identify the hidden front; colour counts stay 28 / 6 / 6 (§10.4)."""
    by_back: dict = {}
    for card in D.CARDS.values():
        by_back.setdefault(card.back.id, []).append(card.id)
        assert D.BACKS[card.back.id] == card.back
    assert all(len(cards) >= 3 for cards in by_back.values()), by_back
    specs = {(b.color, b.domestic, b.export, b.event) for b in D.BACKS.values()}
    assert len(specs) == len(D.BACKS)  # distinct ids are distinct specifications
    for color, count in (("YELLOW", 28), ("RED", 6), ("BEIGE", 6)):
        assert sum(len(v) for k, v in by_back.items() if D.BACKS[k].color == color) == count


def test_researcher_reveals_five_buys_a_progress_card_and_discards_the_rest():
    st = with_card("C01")
    st.deck = ["C03", "P02", "C05", "P06", "C07", "C09", "C10"]
    st.evo_discard = [
        c
        for c in D.CARD_IDS
        if c not in st.deck
        and c not in st.players[0]["track"]
        and not any(m and m[0] == c for m in st.market)
        and c not in st.players[1]["track"]
        and c not in st.players[2]["track"]
    ]
    st, ev = do(st, {"type": "use_card", "card": "C01"})
    assert of(ev, "CardsRevealed")[0]["cards"] == ["C03", "P02", "C05", "P06", "C07"]
    refused(st, {"type": "research_pick", "card": "C03"})  # a character
    st, ev = do(st, {"type": "research_pick", "card": "P06"})
    assert "P06" in st.players[0]["track"] and st.players[0]["money"] == 7
    assert st.deck == ["C09", "C10"] and {"C03", "P02", "C05", "C07"} <= set(st.evo_discard)


def test_head_hunter_buys_characters_only_and_may_pass():
    st = with_card("C02")
    st.deck = ["C03", "P02"] + [c for c in st.deck if c not in ("C03", "P02")]
    st, _ = do(st, {"type": "use_card", "card": "C02"})
    refused(st, {"type": "research_pick", "card": "P02"})
    st, ev = do(st, {"type": "research_pick", "card": None})
    assert st.players[0]["money"] == 10


def test_research_exposing_a_red_card_runs_the_crisis_then_resumes_the_turn():
    st = with_card("C01")
    rest = [c for c in st.deck if c not in ("P02", "C04")]
    st.deck = ["P02"] + rest[:4] + ["C04"] + rest[4:]
    st.resolved_red = set()
    st, ev = do(st, {"type": "use_card", "card": "C01"})
    st, ev = do(st, {"type": "research_pick", "card": None})
    assert of(ev, "CrisisStarted")[0]["back"] == D.CARDS["C04"].back.id == "R1" and st.crisis["card"] == "C04"
    for _ in range(20):
        if st.crisis is None:
            break
        seat = sorted(RULES.to_act(st))[0]
        st, _ = do(st, {"type": "supply_done"}, seat)
    assert st.crisis is None and st.turn["seat"] == 0 and RULES.to_act(st) == {0} and "C04" in st.resolved_red


@pytest.mark.parametrize("card,market", [("C03", "DOM"), ("C04", "EXP")])
def test_merchant_and_shipowner_make_one_free_transaction(card, market):
    st = with_card(card)
    stock(st, 0, WOOD=1)
    ad = st.players[0]["ad_avail"]
    st, ev = do(st, {"type": "use_card", "card": card, "op": "SELL", "resource": "WOOD"})
    assert of(ev, "MarketTraded")[0]["market"] == market and st.players[0]["ad_avail"] == ad
    refused(st, {"type": "use_card", "card": card, "op": "SELL", "resource": "WOOD"})  # once per round


def test_shared_card_costs_a_florin_paid_to_the_owner():
    st = with_card("C03", seat=1)
    stock(st, 0, WOOD=1)
    st, ev = do(st, {"type": "use_card", "card": "C03", "op": "SELL", "resource": "WOOD"})
    assert st.players[1]["money"] == 11 and of(ev, "CardUsed")[0]["fee"] == 1
    st2 = with_card("C15", seat=1)
    refused(st2, {"type": "use_card", "card": "C15"})  # BANKER is not shareable


def test_missionary_lowers_rebellion_more_with_a_temple():
    st = with_card("C06")
    st.reb = 3
    put_building(st, "E07", "TEMPLE", "c0-91")
    st, _ = do(st, {"type": "use_card", "card": "C06"})
    assert st.reb == 1
    st = with_card("C06")
    st.reb = 0
    refused(st, {"type": "use_card", "card": "C06"})


def test_navigator_moves_a_ship_without_engaging_it():
    st = with_card("C08")
    st, _ = do(st, {"type": "use_card", "card": "C08", "ship": "s0-90", "to": "E07"})
    assert st.units["s0-90"]["tile"] == "E07" and not st.units["s0-90"]["engaged"]


def test_midwife_births_without_a_disc_even_after_reproducing():
    st = with_card("C10")
    st.players[0]["reproduced"] = True
    ad = st.players[0]["ad_avail"]
    st, _ = do(st, {"type": "use_card", "card": "C10"})
    st, _ = do(st, {"type": "birth", "tile": "E07"})
    st, _ = do(st, {"type": "reproduce_done"})
    assert population(st) == 4 and st.players[0]["ad_avail"] == ad


def test_diplomat_stands_up_two_citizens():
    st = with_card("C11")
    refused(st, {"type": "use_card", "card": "C11"})
    for u in ("c0-91", "c0-92", "c1-91"):
        st.units[u]["lying"] = True
    st, _ = do(st, {"type": "use_card", "card": "C11"})
    st, _ = do(st, {"type": "stand", "citizen": "c1-91"})
    st, _ = do(st, {"type": "stand", "citizen": "c0-91"})
    refused(st, {"type": "stand", "citizen": "c0-92"})
    st, _ = do(st, {"type": "card_done"})


def test_conquistador_explores_without_a_slot():
    st = with_card("C13")
    st.players[0]["personal_explore_used"] = True
    st.shared_explores = 9
    st, ev = do(st, {"type": "use_card", "card": "C13", "pick": "TOP", "with": []})
    assert of(ev, "TileDrawn") and st.step["kind"] == "explore"


def test_banker_pays_for_standing_citizens():
    st = with_card("C15")
    st, ev = do(st, {"type": "use_card", "card": "C15"})
    assert of(ev, "MoneyChanged")[0]["delta"] == 1
    st = with_card("C15")
    st.units["c0-91"]["lying"] = True
    refused(st, {"type": "use_card", "card": "C15"})


def test_smuggler_sells_abroad_for_one_more():
    st = with_card("C16")
    stock(st, 0, IRON=1)
    st, ev = do(st, {"type": "use_card", "card": "C16", "resource": "IRON"})
    assert of(ev, "MarketTraded")[0]["price"] == 10


def test_pirate_robs_a_ship_on_the_same_tile_and_raises_rebellion():
    st = with_card("C18")
    st.units["s0-90"]["tile"] = "E03"
    st.reb = 0
    refused(st, {"type": "use_card", "card": "C18", "ship": "s0-90", "victim": 2})
    st, ev = do(st, {"type": "use_card", "card": "C18", "ship": "s0-90", "victim": 1})
    assert st.players[0]["money"] == 12 and st.players[1]["money"] == 8 and st.reb == 1
    assert st.units["s0-90"]["engaged"]


def test_expansionism_migrates_without_a_disc():
    st = with_card("P01")
    ad = st.players[0]["ad_avail"]
    st, _ = do(st, {"type": "use_card", "card": "P01"})
    st, _ = do(st, {"type": "walk", "citizen": "c0-91", "to": "E03"})
    st, _ = do(st, {"type": "migrate_done"})
    assert st.players[0]["ad_avail"] == ad and not st.turn["action"]


def test_education_and_emigration_lower_surplus():
    st = with_card("P06")
    st.sur = 3
    st, _ = do(st, {"type": "use_card", "card": "P06"})
    assert st.sur == 1
    st = with_card("P07")
    st.sur = 1
    st, _ = do(st, {"type": "use_card", "card": "P07"})
    assert st.sur == 0 and st.players[0]["money"] == 11
    refused(turn_of(st, 0), {"type": "use_card", "card": "P06"})


def test_festival_pays_three_cubes_for_two_rebellion():
    st = with_card("P13")
    st.reb = 3
    stock(st, 0, FRUIT=1, CATTLE=1)
    refused(st, {"type": "use_card", "card": "P13", "tokens": {}})
    st.players[0]["tokens"] = 1
    st.stacks[0] -= 1
    st, _ = do(st, {"type": "use_card", "card": "P13", "tokens": {"FISH": 1}})
    assert st.reb == 1 and st.players[0]["tokens"] == 0


def test_charity_puts_cubes_in_the_domestic_market():
    st = with_card("P14")
    stock(st, 0, FRUIT=2)
    st.reb = 2
    st.bank["FRUIT"] += st.dom["FRUIT"] - 1
    st.dom["FRUIT"] = 1
    st, _ = do(st, {"type": "use_card", "card": "P14", "cubes": ["FRUIT", "FRUIT"]})
    assert st.dom["FRUIT"] == 3 and st.reb == 1


def test_navigation_and_roads_extend_movement():
    st = with_card("P15")
    give_card(st, 0, "P11")
    st, _ = do(st, {"type": "migrate"})
    st, _ = do(st, {"type": "move_ship", "ship": "s0-90", "to": "E07", "passengers": []})
    st, _ = do(st, {"type": "move_ship", "ship": "s0-90", "to": "OCEAN", "passengers": []})
    st, _ = do(st, {"type": "walk", "citizen": "c0-91", "to": "E03"})
    st, _ = do(st, {"type": "walk", "citizen": "c0-91", "to": "E07"})


def test_guilds_gives_a_third_market_transaction():
    st = with_card("P08")
    put_building(st, "E07", "MARKET", "c0-91")
    st, _ = do(st, {"type": "use_building", "building": "E07:MARKET"})
    assert st.step["left"] == 3


def test_passive_cards_cannot_be_used():
    st = with_card("P16")
    refused(st, {"type": "use_card", "card": "P16"})


@pytest.mark.parametrize(
    "wonder,check",
    [
        ("W01", lambda st: st.reb == 0),
        ("W02", lambda st: st.players[0]["tokens"] == 1),
        ("W03", lambda st: st.sur == 1),
        ("W04", lambda st: st.players[0]["money"] == 14),
    ],
)
def test_wonders_sacrifice_a_citizen_and_apply_their_effect(wonder, check):
    st = with_card(wonder)
    cubes, money = D.CARDS[wonder].wonder_cost
    stock(st, 0, **cubes)
    st.players[0]["money"] = 10 + money
    st.reb, st.sur = 2, 3
    put_unit(st, 0, "C", "E03", "c0-95")
    refused(st, {"type": "build_wonder", "card": wonder, "citizen": "c1-91", "tokens": {}})
    st, ev = do(st, {"type": "build_wonder", "card": wonder, "citizen": "c0-95", "tokens": {}})
    assert "c0-95" not in st.units and st.players[0]["wonders"] == [{"card": wonder, "citizen": "c0-95"}]
    assert wonder not in st.players[0]["track"] and check(st)
    assert RULES.result(st).scores is not None


@pytest.mark.parametrize("wonder", ["W01", "W02", "W03", "W04"])
def test_an_unbuilt_wonder_scores_nothing_and_a_built_one_scores_its_vp(wonder):
    """§12.3 step 4 (v1.2): owned but unbuilt wonders score nothing; the seed scores a wonder once built."""
    st = with_card(wonder)
    give_card(st, 0, "P16")  # a progress card that is not a wonder: 2 VP while owned
    assert D.CARDS[wonder].vp > 0
    row = score_breakdown(st, pacifist=False)[0]
    assert (row["cards"], row["wonders"]) == (D.CARDS["P16"].vp, 0)
    cubes, money = D.CARDS[wonder].wonder_cost
    stock(st, 0, **cubes)
    st.players[0]["money"] = 10 + money
    put_unit(st, 0, "C", "E03", "c0-95")
    st, _ = do(st, {"type": "build_wonder", "card": wonder, "citizen": "c0-95", "tokens": {}})
    row = score_breakdown(st, pacifist=False)[0]
    assert (row["cards"], row["wonders"]) == (D.CARDS["P16"].vp, D.CARDS[wonder].vp)
    assert row["total"] - sum(row["criteria"].values()) == D.CARDS["P16"].vp + D.CARDS[wonder].vp


def test_wonder_needs_the_cost():
    st = with_card("W01")
    refused(st, {"type": "build_wonder", "card": "W01", "citizen": "c0-91", "tokens": {}})


@pytest.mark.parametrize(
    "card,resource,unit,icon_tile",
    [
        ("P03", "FISH", "s1-90", "E03"),
        ("P04", "STONE", "c0-91", "E07"),
        ("P05", "WOOD", "c0-91", "E07"),
    ],
)
def test_harvest_bonus_cards_add_one_cube(card, resource, unit, icon_tile):
    seat = 1 if unit.startswith("s1") else 0
    st = turn_of(island(), seat)
    give_card(st, seat, card)
    st, _ = do(st, {"type": "harvest", "resource": resource, "with": [card]}, seat)
    icon = st.tiles[icon_tile]["icons"].index(resource)
    st, _ = do(st, {"type": "harvest_assign", "unit": unit, "icon": icon}, seat)
    st, _ = do(st, {"type": "harvest_done"}, seat)
    assert st.players[seat]["cubes"][resource] == 2


def test_the_rules_document_shows_each_card_s_back_as_the_engine_deals_it():
    """§10.4's Back column and the back summary are the v1.2 shared backs (§3.10) the engine uses."""
    import re
    from collections import Counter
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "docs" / "rules" / "archipelago.md").read_text(encoding="utf-8")

    def shown(back):
        if back.event:
            return f"{back.color[0]} · {back.event}"
        demand = f"D:{back.domestic[0]} {back.domestic[1]}/{back.domestic[2]}" if back.domestic else "—"
        export = "X:" + ", ".join(f"{r}×{q}" for r, q in back.export) if back.export else "—"
        return f"{back.color[0]} · {demand} · {export}"

    rows = dict(re.findall(r"^\| ([CPW]\d\d) \| [A-Z ]+? \|.*\| ([YRB] · [^|]*?) \|$", text, re.M))
    assert rows == {card: shown(D.CARDS[card].back) for card in D.CARDS}
    demand = Counter(c.back.domestic[0] for c in D.CARDS.values() if c.back.domestic)
    listed = ", ".join(f"{r} {n}" for r, n in demand.most_common())
    assert f"**Domestic demand resources** ({sum(demand.values())} backs): {listed}." in text
