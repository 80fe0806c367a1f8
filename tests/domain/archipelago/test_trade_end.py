"""Trading (§11), end of the game (§12) and scoring (§13)."""

from __future__ import annotations

import random

import pytest

from domain.archipelago import RULES
from domain.archipelago import data as D
from domain.archipelago.scoring import condition_true, score_breakdown
from domain.archipelago.state import clone, population
from tests.domain.archipelago.fixtures import (
    do,
    give_card,
    island,
    of,
    put_building,
    put_unit,
    refused,
    stock,
    turn_of,
    types,
)


# ---------------------------------------------------------------------------------------------------- trades
def test_accepted_offer_swaps_both_bundles():
    st = island()
    stock(st, 1, FISH=2)
    give_card(st, 1, "C03")
    st, _ = do(st, {"type": "offer_open", "to": 1})
    st, _ = do(st, {"type": "offer_add", "side": "GIVE", "item": {"kind": "MONEY_5"}})
    st, _ = do(st, {"type": "offer_add", "side": "GET", "item": {"kind": "CUBE", "resource": "FISH"}})
    st, _ = do(st, {"type": "offer_add", "side": "GET", "item": {"kind": "CARD", "card": "C03"}})
    st, ev = do(st, {"type": "offer_send"})
    assert RULES.to_act(st) == {1} and of(ev, "OfferSent")[0]["give"] == [{"kind": "MONEY_5"}]
    st, ev = do(st, {"type": "offer_accept"}, 1)
    assert st.players[0]["money"] == 5 and st.players[1]["money"] == 15
    assert st.players[0]["cubes"]["FISH"] == 1 and "C03" in st.players[0]["track"]
    assert RULES.to_act(st) == {0} and st.offer is None


def test_declined_offer_changes_nothing_and_counts_toward_the_limit():
    st = island()
    st, _ = do(st, {"type": "offer_open", "to": 2})
    st, _ = do(st, {"type": "offer_add", "side": "GIVE", "item": {"kind": "MONEY_1"}})
    st, _ = do(st, {"type": "offer_send"})
    st, _ = do(st, {"type": "offer_decline"}, 2)
    assert st.players[0]["money"] == 10 and st.turn["offers"] == 1
    st.turn["offers"] = D.OFFER_LIMIT
    refused(st, {"type": "offer_open", "to": 2})


def test_invalid_offers_are_refused():
    st = island()
    refused(st, {"type": "offer_open", "to": 0})
    refused(st, {"type": "offer_open", "to": 7})
    st, _ = do(st, {"type": "offer_open", "to": 1})
    refused(st, {"type": "offer_send"})  # empty
    refused(st, {"type": "offer_add", "side": "GIVE", "item": {"kind": "CUBE", "resource": "IRON"}})
    refused(st, {"type": "offer_add", "side": "GIVE", "item": {"kind": "CARD", "card": "C01"}})
    refused(st, {"type": "offer_add", "side": "GET", "item": {"kind": "CARD", "card": "C01"}})
    refused(st, {"type": "offer_add", "side": "GIVE", "item": {"kind": "GRANT", "grant": "HARVEST_ON", "tile": "E03"}})
    refused(
        st, {"type": "offer_add", "side": "GET", "item": {"kind": "GRANT", "grant": "HARVEST_ON", "tile": "E03"}}
    )  # not controlled
    refused(st, {"type": "offer_add", "side": "GET", "item": {"kind": "SHIP"}}, code="invalid_command")
    st, _ = do(st, {"type": "offer_add", "side": "GET", "item": {"kind": "MONEY_5"}})
    st, _ = do(st, {"type": "offer_send"})
    st.players[1]["money"] = 3
    refused(st, {"type": "offer_accept"}, seat=1)  # the recipient does not hold it
    refused(st, {"type": "pass"}, seat=0, code="not_your_turn")


def test_grant_allows_harvest_on_a_controlled_tile_for_the_turn():
    st = island()
    put_unit(st, 2, "C", "E07", "c2-95")
    put_building(st, "E07", "TOWN", "c2-95")
    refused(st, {"type": "harvest", "resource": "WOOD", "with": []})
    st, _ = do(st, {"type": "offer_open", "to": 2})
    st, _ = do(
        st, {"type": "offer_add", "side": "GET", "item": {"kind": "GRANT", "grant": "HARVEST_ON", "tile": "E07"}}
    )
    st, _ = do(st, {"type": "offer_send"})
    st, _ = do(st, {"type": "offer_accept"}, 2)
    st, _ = do(st, {"type": "harvest", "resource": "WOOD", "with": []})
    st, _ = do(st, {"type": "harvest_assign", "unit": "c0-91", "icon": 2})


def test_trade_may_not_exceed_five_cards():
    st = island()
    for c in ("C01", "C02", "C06", "C08", "C10"):
        give_card(st, 0, c)
    give_card(st, 1, "C11")
    st, _ = do(st, {"type": "offer_open", "to": 1})
    st, _ = do(st, {"type": "offer_add", "side": "GET", "item": {"kind": "CARD", "card": "C11"}})
    st, _ = do(st, {"type": "offer_send"})
    refused(st, {"type": "offer_accept"}, seat=1)


def test_hidden_holdings_never_make_offer_items_illegal():
    st = island()
    st, _ = do(st, {"type": "offer_open", "to": 1})
    legal = RULES.legal_commands(st, 0)
    changed = clone(st)
    changed.players[1]["money"] += 50
    assert RULES.legal_commands(changed, 0) == legal


# ---------------------------------------------------------------------------------------------------- end
def test_independence_everyone_loses():
    st = island()
    st.reb = population(st)
    st.objectives = [["M01"], ["M02"], ["M03"]]
    st, ev = do(st, {"type": "tax", "with": []})
    end = of(ev, "GameEnded")[0]
    assert end["cause"] == "INDEPENDENCE" and end["winner"] is None and RULES.is_over(st)
    res = RULES.result(st)
    assert res.details["everyone_lost"] and res.scores == [0.0, 0.0, 0.0]
    assert res.no_winner and res.ranks == [1, 1, 1] and res.as_dict()["no_winner"] is True


def test_independence_separatist_wins_alone():
    st = island()
    st.reb = population(st)
    st.objectives = [["M01"], ["M09"], ["M03"]]
    st, ev = do(st, {"type": "tax", "with": []})
    res = RULES.result(st)
    assert of(ev, "GameEnded")[0]["winner"] == 1 and res.ranks == [2, 1, 2] and not res.no_winner


def test_declare_end_needs_a_true_own_condition():
    st = island()
    st.objectives = [["M07"], ["M01"], ["M03"]]  # ROUNDS(8)
    refused(st, {"type": "declare_end", "objective": "M07"})
    refused(st, {"type": "declare_end", "objective": "M01"})
    st.rounds_completed = 8
    assert {"type": "declare_end", "objective": "M07"} in RULES.legal_commands(st, 0)
    st, ev = do(st, {"type": "declare_end", "objective": "M07"})
    assert of(ev, "GameEnded")[0]["cause"] == "DECLARED" and RULES.result(st).details["declarer"] == 0


def test_a_declared_end_names_the_winner():
    """§12.3 step 6: the winner has most VP; the GameEnded event names it (not "winner": null)."""
    st = island()
    st.objectives = [["M07"], ["M01"], ["M03"]]
    st.trends = []
    st.rounds_completed = 8
    give_card(st, 1, "P16")  # 2 VP for seat 1
    st, ev = do(st, {"type": "declare_end", "objective": "M07"})
    ended = of(ev, "GameEnded")[0]
    assert RULES.result(st).ranks[1] == 1
    assert ended["winner"] == 1 and ended["winners"] == [1]
    assert RULES.result(st).details["winner"] == 1


def test_a_declared_end_with_a_shared_victory_names_every_winner():
    """§12.3 step 6: ties on VP, money and explorer tokens share the victory; the event lists them all."""
    st = island()
    st.objectives = [["L07"], ["M05"], ["S07"]]  # every criterion is MONEY
    st.trends = []
    st.rounds_completed = 12
    for p in st.players:
        p["money"], p["tokens"] = 10, 0
    st, ev = do(st, {"type": "declare_end", "objective": "L07"})
    ended = of(ev, "GameEnded")[0]
    assert RULES.result(st).ranks == [1, 1, 1]
    assert ended["winners"] == [0, 1, 2] and ended["winner"] is None


def test_separatist_can_never_declare():
    st = island()
    st.objectives = [["S09"], ["M01"], ["M03"]]
    refused(st, {"type": "declare_end", "objective": "S09"})


@pytest.mark.parametrize(
    "oid,arrange",
    [
        ("S01", lambda st: st.bank.update(IRON=0)),
        ("S02", lambda st: [st.tiles.setdefault(f"X{i}", {}) for i in range(7)]),
        ("S03", lambda st: [put_unit(st, i % 3, "S", "OCEAN") for i in range(4)]),
        ("S04", lambda st: [put_unit(st, i % 3, "C", "E03") for i in range(12)]),
        ("S05", lambda st: st.deck.__delitem__(slice(0, 20))),
        ("S06", lambda st: [put_building(st, t, b) for t in ("E07", "E03") for b in ("MARKET", "TEMPLE", "TOWN")]),
        ("S07", lambda st: setattr(st, "rounds_completed", 5)),
        ("S08", lambda st: st.exp.update(FRUIT=4, WOOD=3)),
        ("M03", lambda st: st.stacks.__setitem__(slice(0, 2), [0, 0])),
        ("M08", lambda st: st.players[0]["wonders"].append({"card": "W01", "citizen": "x"})),
        ("S10", lambda st: [put_unit(st, i % 3, "C", "E03") for i in range(9)]),
    ],
)
def test_end_conditions(oid, arrange):
    st = island()
    st.reb = 0
    assert not condition_true(st, oid)
    arrange(st)
    assert condition_true(st, oid)


def test_peace_condition_needs_low_rebellion():
    st = island()
    for i in range(9):
        put_unit(st, i % 3, "C", "E03")
    st.reb = population(st) // 5 + 1
    assert not condition_true(st, "S10")


def test_scoring_ranks_criteria_with_ties_and_zero_metrics():
    st = island()
    st.objectives = [["M02"], ["M06"], ["M07"]]  # PORTS, EXPLORER, BUILDINGS
    st.trends = ["T10"]  # MONEY
    st.players[0]["money"], st.players[1]["money"], st.players[2]["money"] = 5, 5, 2
    st.players[1]["tokens"] = 2
    st.stacks[0] -= 2
    put_building(st, "E07", "PORT", "c0-91")
    give_card(st, 2, "P16")  # 2 VP
    rows = score_breakdown(st, pacifist=False)
    crit = [list(r["criteria"].values()) for r in rows]
    assert crit[0] == [3, 0, 3, 3] and crit[1] == [0, 3, 0, 3] and crit[2] == [0, 0, 0, 1]
    assert [r["total"] for r in rows] == [9, 6, 3]
    st.phase, st.end = "OVER", {"cause": "DECLARED", "declarer": 0, "objective": "M02"}
    assert RULES.result(st).ranks == [1, 2, 3]


def test_two_player_rank_values_and_money_tiebreak():
    st = RULES.fold(RULES.setup(3, 2, {"length": "short"}))
    st.objectives = [["S07"], ["S08"]]
    st.trends = []
    st.players[0]["money"], st.players[1]["money"] = 4, 4
    st.phase, st.end = "OVER", {"cause": "ROUND_CAP"}
    res = RULES.result(st)
    assert res.scores == [3.0, 3.0] and res.ranks == [1, 1]
    st.players[1]["money"] = 3
    res = RULES.result(st)
    assert res.scores == [3.0, 1.0]


def test_pacifist_bonus_only_on_declared_end_with_low_rebellion():
    st = island()
    st.objectives = [["M10"], ["M01"], ["M03"]]
    st.reb = 0
    assert score_breakdown(st, pacifist=True)[0]["pacifist"] == D.PACIFIST_BONUS
    assert score_breakdown(st, pacifist=False)[0]["pacifist"] == 0
    st.reb = 3
    assert score_breakdown(st, pacifist=True)[0]["pacifist"] == 0


def _one_birth_short_of_s04(options: dict | None = None):
    """Seat 1 holds S04 (POP >= 50% of CIT_TOTAL: 15 of 30) with 14 citizens on the map; seat 0 to act."""
    st = island(options=options)
    st.objectives = [["S07"], ["S04"], ["S03"]]
    for k in range(11):
        put_unit(st, 1, "C", "E03", f"c1-{k}")
    assert population(st) == 14
    return st


def test_auto_end_declares_for_the_holder_right_after_the_event():
    st = _one_birth_short_of_s04({"auto_end": True})
    st, _ = do(st, {"type": "reproduce"})
    assert not RULES.is_over(st)
    st, events = do(st, {"type": "birth", "tile": "E07"})
    # The birth is the last event before the end: nothing after it runs (the step stays open, §12.2).
    assert types(events)[-2:] == ["CitizenAdded", "GameEnded"], types(events)
    ended = of(events, "GameEnded")[0]
    assert (ended["cause"], ended["declarer"], ended["objective"]) == ("DECLARED", 1, "S04")


def test_without_auto_end_a_true_condition_waits_for_its_holder():
    st = _one_birth_short_of_s04()
    st, _ = do(st, {"type": "reproduce"})
    st, events = do(st, {"type": "birth", "tile": "E07"})
    assert not RULES.is_over(st) and condition_true(st, "S04")


# ---------------------------------------------------------------------------------------------------- views
def test_views_hide_holdings_objectives_and_show_them_at_the_end():
    st = island()
    v = RULES.view(st, 1)
    assert "money" in v["players"][1] and "money" not in v["players"][0] and "objectives" not in v["players"][0]
    assert "money" not in RULES.view(st, None)["players"][0]
    assert RULES.reveal_all(st)["players"][0]["money"] == 10
    assert RULES.redact({"type": "EvolutionDeckShuffled", "deck": ["C01"]}, 0) == {
        "type": "EvolutionDeckShuffled",
        "size": 1,
    }
    assert RULES.reveals({"type": "BidsRevealed"}) and not RULES.reveals({"type": "TurnEnded"})


def test_determinize_resamples_other_objectives_only():
    import random

    st = island()
    det = RULES.determinize(st, 0, random.Random(1))
    assert det.objectives[0] == st.objectives[0]
    assert D.CARDS[det.deck[0]].back.id == D.CARDS[st.deck[0]].back.id  # the top card's back is public
    assert sorted(det.deck) == sorted(st.deck) and det.players == st.players
    turn_of(det, 0)


def test_determinize_resamples_the_front_of_the_top_evolution_card_among_its_back():
    """§3.10 (v1.2): the deck's top card shows its back, shared by 3 to 5 cards; its front is hidden from every
    seat, so a bot's world keeps the back and draws the front among the deck's cards of that back."""
    import random

    st = island()
    top = st.deck[0]
    back = D.CARDS[top].back.id
    alike = {c for c in st.deck if D.CARDS[c].back.id == back}
    # a red card whose crisis was resolved stays on top: that much is public, its front is not (the mark goes with
    # the front a world draws, so that the mark does not name the real one)
    assert top in st.resolved_red
    worlds = [RULES.determinize(st, 0, random.Random(i)) for i in range(60)]
    assert {det.deck[0] for det in worlds} == alike and all(det.deck[0] in det.resolved_red for det in worlds)
    assert all(top not in det.resolved_red for det in worlds if det.deck[0] != top) and top in st.resolved_red
    st.resolved_red = set()
    fronts = set()
    for i in range(60):
        det = RULES.determinize(st, 0, random.Random(i))
        assert D.CARDS[det.deck[0]].back.id == back and sorted(det.deck) == sorted(st.deck)
        fronts.add(det.deck[0])
    assert fronts == alike and len(alike) > 1, (fronts, alike)
    # an open crisis is the top card's: a world's crisis names the world's top card, never the real front
    st.crisis = {"card": top, "back": back, "color": D.CARDS[top].back.color, "part": None, "idx": 0}
    for i in range(20):
        det = RULES.determinize(st, 0, random.Random(i))
        assert det.crisis["card"] == det.deck[0] and st.crisis["card"] == top


def test_metrics_for_every_criterion():
    from domain.archipelago.scoring import metric

    st = island()
    put_building(st, "E07", "TOWN", "c0-91")
    put_building(st, "E07", "MARKET")  # empty: controlled through the town
    stock(st, 0, FISH=2)
    st.players[0]["contrib"] = 4
    give_card(st, 0, "C03")
    expected = {
        "PORTS": 0,
        "MARKETS": 1,
        "TOWNS": 1,
        "TEMPLES": 0,
        "BUILDINGS": 2,
        "CITIZENS": 2,
        "SHIPS": 1,
        "MONEY": 10,
        "EXPLORER": 0,
        "CUBES": 2,
        "RES:FISH": 2,
        "CARDS": 1,
        "REGIONS": 2,
        "CONTRIB": 4,
    }
    assert {k: metric(st, 0, k) for k in expected} == expected
    codes = {o.criterion for o in D.OBJECTIVES.values()} | {t[1] for t in D.TRENDS.values()}
    assert codes <= set(expected) | {f"RES:{r}" for r in D.RESOURCES}


def _printed_faces(st):
    from domain.archipelago.state import face_source

    entries = list(st.stack) + [x for h in st.hands for x in h] + list(st.set_aside)
    return sorted(face_source(t, f) for t, _ in entries for f in "AB")


def test_determinize_resamples_the_hidden_face_of_the_top_exploration_tile():
    """§3.10 (v1.2): the top tile's up face is public, its other face is not; determinize resamples it like any
    other hidden face, keeps the up face, and keeps every printed face in play exactly once."""
    import random

    from domain.archipelago.state import face_of

    st = island()
    real, up = st.stack[0]
    back = "B" if up == "A" else "A"
    changed = 0
    for i in range(40):
        det = RULES.determinize(st, 0, random.Random(i))
        tid, det_up = det.stack[0]
        assert det_up == up and face_of(tid, up) == face_of(real, up)
        assert RULES.view(det, 0)["exploration_top_face"] == RULES.view(st, 0)["exploration_top_face"]
        assert _printed_faces(det) == _printed_faces(st)
        changed += face_of(tid, back) != face_of(real, back)
        turn_of(det, 0)
    assert changed >= 30  # 1 chance in 47 to keep the real face in each sample


def test_determinize_keeps_the_top_tiles_the_seat_saw_with_cartographer():
    import random

    st = island()
    give_card(st, 0, "C12")
    st, _ = do(st, {"type": "explore", "slot": "PERSONAL", "pick": "TOP", "with": ["C12"]})
    seen = [list(x) for x in st.stack[:3]]
    for i in range(10):
        assert RULES.determinize(st, 0, random.Random(i)).stack[:3] == seen
    assert any(RULES.determinize(st, 1, random.Random(i)).stack[:3] != seen for i in range(10))


@pytest.mark.parametrize(
    "seats,options",
    [(2, {}), (3, {}), (4, {"more_trends": True}), (5, {"no_secrets": True}), (3, {"length": "long"})],
)
def test_the_bots_score_totals_are_the_breakdowns_totals_along_random_games(seats, options):
    """``score_totals`` (what the bots' evaluation reads, written out for speed) equals the ``total`` of every
    ``score_breakdown`` row without the Pacifist bonus, at every tenth position of random games."""
    from domain.archipelago.rules import Archipelago
    from domain.archipelago.scoring import score_totals, seat_stats
    from domain.rng import rng_for

    rules = Archipelago()
    seed = 40 + seats
    chooser = random.Random(seed)
    log = rules.setup(seed, seats, options)
    st = rules.fold(log)
    checked = 0
    while not rules.is_over(st) and checked < 60:
        if len(log) % 10 == 0:
            assert score_totals(st, seat_stats(st)) == [r["total"] for r in score_breakdown(st, pacifist=False)]
            checked += 1
        seat = chooser.choice(sorted(rules.to_act(st)))
        for event in rules.decide(st, chooser.choice(rules.legal_commands(st, seat)), seat, rng_for(seed, len(log))):
            log.append(event)
            st = rules.evolve(st, event)
    assert checked >= 10
    assert any(score_totals(st, seat_stats(st)))


def test_a_version_between_turn_0_deals_shows_no_seat_the_tile_dealt_next():
    """§3.10: a turn-0 hand is its holder's alone. While the hands are dealt one seat after another (past versions
    a replay can show), the stack's top tile is the next hand's: its face is shown to nobody until every seat has
    its hand (and to everyone after the end)."""
    from domain.archipelago.state import face_of

    events = RULES.setup(5, 3, {})
    shown = []
    for i, event in enumerate(events):
        if event["type"] == "Turn0HandDealt":
            before = RULES.fold(events[:i])
            for viewer in [s for s in range(3) if s != event["seat"]] + [None]:
                top = RULES.view(before, viewer)["exploration_top_face"]
                faces = [face_of(t, f) for t in event["tiles"] for f in "AB"]
                if top is not None and any(
                    {"edges": x.edges, "icons": list(x.icons), "huts": x.huts} == top for x in faces
                ):
                    shown.append((viewer, event["seat"]))
            assert RULES.reveal_all(before)["exploration_top_face"] is not None
    assert shown == []
    assert RULES.view(RULES.fold(events), None)["exploration_top_face"] is not None  # dealt: the top face is public
