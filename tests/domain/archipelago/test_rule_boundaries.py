"""Boundaries and less travelled rules of docs/rules/archipelago.md: the rebellion boundary and the loss check
(§3.7, §12.1), the Separatist returned under MORE_FUN, the Pacifist bonus and the tie-breaks of a scored end
(§12.3, §13.3), the CARDS metric (§13.1), the round caps (§12.4), the TILES cap (§13.2), the Phase-3 steps (§5.3),
the surplus cap (§3.7), an emptied explorer stack (§8.6), tax on lying citizens (§8.4) and the last card of the
evolution market (§5.6). Tuned values come from ``domain/archipelago/data.py``."""

from __future__ import annotations

from itertools import count

import pytest

from domain.archipelago import RULES
from domain.archipelago import data as D
from domain.archipelago.scoring import metric
from domain.archipelago.state import ceil_pct, cit_total, population
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
    types,
)
from tests.domain.archipelago.test_actions import explore_state
from tests.domain.archipelago.test_round import evo_state, influence


def tokens(st, seat, n):
    """Seat ``seat`` holds ``n`` explorer tokens, taken from the first stack."""
    st.stacks[0] -= n
    st.players[seat]["tokens"] += n


def evolution(st, rounds_completed):
    """Phase 6 of the round that completes ``rounds_completed + 1`` rounds, every market slot at orientation 0."""
    st.round, st.rounds_completed = rounds_completed + 1, rounds_completed
    st.phase, st.turn, st.step, st.p6, st.active = "EVOLUTION", None, None, {"stage": "step"}, 0
    assert all(st.market)
    st.market = [[card, 0] for card, _ in st.market]
    return st


def rotate_all(st):
    """Every seat in turn order rotates two cards (no card reaches the skull, so no refill): (events, state)."""
    log = []
    for i, seat in enumerate(list(st.order)):
        slots = [(2 * i) % D.EVO_MARKET_SLOTS, (2 * i + 1) % D.EVO_MARKET_SLOTS]
        events, st = GAME.when(st, {"type": "evo_rotate", "slots": slots}, seat=seat)
        log += events
    return log, st


def crowd(st, target):
    """Put citizens on the map (every seat in turn, at most the per-tile limit per seat and tile, on new tiles
    when needed) until the population is ``target``."""
    free = [
        pos for pos in ((0, 1), (-1, 1), (-1, 0), (0, -1), (2, -1), (2, 0), (1, 1), (-1, 2)) if pos not in st.posmap
    ]
    lands = [tid for tid, t in st.tiles.items() if t["land"]]
    seat = 0
    while population(st) < target:
        seat = (seat + 1) % st.n
        if not st.players[seat]["sup_c"]:
            continue
        here = [u["tile"] for u in st.units.values() if u["owner"] == seat and u["kind"] == "C"]
        room = [tid for tid in lands if here.count(tid) < D.MAX_CITIZENS_PER_TILE]
        if not room:
            tid = st.stack[0][0]
            put_tile(st, tid, *free.pop(0))
            lands.append(tid)
            room = [tid]
        put_unit(st, seat, "C", room[0])
    return st


# ---------------------------------------------------------------------------------------------------- §3.7, §12.1
def test_rebellion_equal_to_population_is_safe():
    """§3.7: "if REB > POP (strictly greater; equal is safe) the game ends at once in independence"; §12.1: "As soon
    as REB > POP". A TAX that brings REB from POP − 1 to POP leaves the game going."""
    st = island()
    st.reb = population(st) - 1
    events, after = GAME.when(st, {"type": "tax", "with": []})
    assert {"type": "RebellionChanged", "delta": 1, "reason": "tax"} in events
    assert "GameEnded" not in types(events) and not RULES.is_over(after)
    assert after.reb == population(after) and RULES.to_act(after) == {0}


def test_a_wonder_s_sacrifice_with_rebellion_equal_to_population_brings_independence_at_once():
    """§12.1: "As soon as REB > POP (checked after every change of either, §3.7), the game ends immediately";
    §3.7: citizens sacrificed to wonders are not on the map. With REB == POP the sacrifice for the CATHEDRAL
    lowers POP below REB: independence follows before the cathedral's REB -= 3 could save the colony."""
    st = island()
    give_card(st, 0, "W01")
    cubes, money = D.CARDS["W01"].wonder_cost
    stock(st, 0, **cubes)
    st.players[0]["money"] = 10 + money
    st.objectives = [["M01"], ["M02"], ["M03"]]
    st.reb = population(st)
    events, after = GAME.when(st, {"type": "build_wonder", "card": "W01", "citizen": "c0-91", "tokens": {}})
    assert types(events)[-2:] == ["CitizenSacrificed", "GameEnded"]
    assert not of(events, "RebellionChanged")
    ended = of(events, "GameEnded")[0]
    assert (ended["cause"], ended["winner"], ended["rebellion"], ended["population"]) == (
        "INDEPENDENCE",
        None,
        st.reb,
        population(st) - 1,
    )
    assert RULES.is_over(after) and after.reb == st.reb


def test_a_separatist_returned_under_more_fun_does_not_win_the_independence():
    """§12.1: "If a player holds the Separatist objective (and it is in play), that player is the sole winner.
    Otherwise every player loses"; §12.3: "with MORE_FUN the returned cards are not in play"."""
    for seed in count(1):
        setup = RULES.setup(seed, 3, {"more_fun": True, "length": "medium"})
        dealt = {e["seat"]: e["cards"] for e in of(setup, "ObjectivesDealt")}
        if any(D.OBJECTIVES[c].special == "SEPARATIST" for cards in dealt.values() for c in cards):
            break
    st = GAME.given(*setup)
    for seat, cards in sorted(dealt.items()):
        kept = [c for c in cards if D.OBJECTIVES[c].special != "SEPARATIST"][:1]
        _, st = GAME.when(st, {"type": "keep_objectives", "cards": kept}, seat=seat)
    assert not any(D.OBJECTIVES[c].special == "SEPARATIST" for held in st.objectives for c in held)
    st = first_legal_until(st, lambda s: s.phase == "ACTIONS" and s.turn is not None)
    st.reb = population(st)
    events, after = GAME.when(st, {"type": "tax", "with": []})
    ended = of(events, "GameEnded")[0]
    assert (ended["cause"], ended["winner"], ended["winners"]) == ("INDEPENDENCE", None, [])
    result = RULES.result(after)
    assert result.no_winner and result.details["everyone_lost"] and result.scores == [0.0] * st.n


# ---------------------------------------------------------------------------------------------------- §12.3, §13.3
def test_the_pacifist_gets_the_bonus_when_another_seat_declares_but_not_at_the_round_cap():
    """§13.3 PACIFIST: "Whoever declares, if the game ends by a declaration (not by the safety cap) with
    REB ≤ floor(POP/4), the Pacifist holder gains PACIFIST_BONUS"; §12.4: at the cap "the Pacifist bonus does not
    apply"."""
    st = island()
    st.objectives = [["M07"], ["M10"], ["M03"]]  # M10: the Pacifist, held by seat 1
    st.trends = []
    st.rounds_completed = 8  # M07 ROUNDS(8) holds for seat 0
    assert st.reb <= population(st) // D.PACIFIST_REB_DIVISOR
    events, after = GAME.when(st, {"type": "declare_end", "objective": "M07"})
    ended = of(events, "GameEnded")[0]
    assert (ended["cause"], ended["declarer"]) == ("DECLARED", 0)
    rows = RULES.result(after).details["breakdown"]
    assert [r["pacifist"] for r in rows] == [0, D.PACIFIST_BONUS, 0]
    assert rows[1]["total"] == sum(rows[1]["criteria"].values()) + D.PACIFIST_BONUS
    st = evolution(island(), D.ROUND_CAP["medium"] - 1)
    st.objectives, st.trends = [["M07"], ["M10"], ["M03"]], []
    assert st.reb <= population(st) // D.PACIFIST_REB_DIVISOR
    events, after = rotate_all(st)
    assert of(events, "GameEnded")[0]["cause"] == "ROUND_CAP"
    rows = RULES.result(after).details["breakdown"]
    assert [r["pacifist"] for r in rows] == [0, 0, 0]


def test_equal_totals_and_money_are_ranked_by_explorer_tokens():
    """§12.3 step 6: "Winner: most VP. Ties are broken by most money, then most explorer tokens, then the tied
    players share the victory.\""""
    st = island()
    st.objectives = [["M07"], ["M05"], ["M02"]]  # BUILDINGS and PORTS: nobody; MONEY: a three-way tie
    st.trends = []
    st.rounds_completed = 8
    for p in st.players:
        p["money"] = 10
    tokens(st, 0, 1)
    tokens(st, 2, 2)
    events, after = GAME.when(st, {"type": "declare_end", "objective": "M07"})
    result = RULES.result(after)
    assert len(set(result.scores)) == 1 and result.scores[0] > 0
    assert result.tiebreaks == [[10, 1], [10, 0], [10, 2]]
    assert result.ranks == [2, 3, 1]
    ended = of(events, "GameEnded")[0]
    assert (ended["winner"], ended["winners"]) == (2, [2])


# ---------------------------------------------------------------------------------------------------- §13.1, §13.2
def test_a_built_wonder_counts_toward_cards():
    """§13.1 CARDS: "evolution cards owned plus wonders built"."""
    st = island()
    give_card(st, 0, "W04")
    give_card(st, 1, "C03")
    cubes, money = D.CARDS["W04"].wonder_cost
    stock(st, 0, **cubes)
    _, st = GAME.when(st, {"type": "build_wonder", "card": "W04", "citizen": "c0-91", "tokens": {}})
    assert st.players[0]["track"] == [] and [w["card"] for w in st.players[0]["wonders"]] == ["W04"]
    assert [metric(st, s, "CARDS") for s in range(st.n)] == [1, 1, 0]
    st.objectives, st.trends, st.rounds_completed = [["M07"], ["M01"], ["M03"]], [], 8  # M01 scores CARDS
    _, after = GAME.when(st, {"type": "declare_end", "objective": "M07"})
    rows = RULES.result(after).details["breakdown"]
    cards = [next(v for k, v in r["criteria"].items() if k.endswith(":M01:CARDS")) for r in rows]
    assert cards == [D.RANK_VP[st.n][0], D.RANK_VP[st.n][0], 0]


def test_tiles_target_is_capped_at_twenty_five():
    """§13.2 TILES(x): "placed tiles (start tile included) ≥ min(x, 25)" (25 tiles in all, §2.2). None of the
    printed arguments reaches 25 (at most N+14), so the argument is raised here above the tile count."""
    st = island()
    st.objectives = [["M02"], ["M01"], ["M03"]]  # M02: TILES(N+10)
    st.obj_args["M02"] = 25 + st.n
    ring = sorted(
        (q, r)
        for q in range(-3, 4)
        for r in range(-3, 4)
        if max(abs(q), abs(r), abs(q + r)) <= 3 and (q, r) not in st.posmap
    )
    placed = [tid for tid, _ in st.stack]
    for pos, tid in zip(ring, placed[:-1]):
        put_tile(st, tid, *pos)
    assert len(st.tiles) == 24
    refused(st, {"type": "declare_end", "objective": "M02"})
    put_tile(st, placed[-1], *ring[len(placed) - 1])
    assert len(st.tiles) == 25 and not st.stack
    assert {"type": "declare_end", "objective": "M02"} in RULES.legal_commands(st, 0)
    events, _ = GAME.when(st, {"type": "declare_end", "objective": "M02"})
    assert of(events, "GameEnded")[0]["objective"] == "M02"


# ---------------------------------------------------------------------------------------------------- §12.4
@pytest.mark.parametrize("length", ["short", "long"])
def test_the_round_cap_ends_the_game_after_that_round_not_before(length):
    """§12.4: "If the game is still running at the end of round ROUND_CAP[length] (...), it ends and is scored as
    in §12.3"."""
    cap = D.ROUND_CAP[length]
    st = island(options={"length": length})
    events, st = rotate_all(evolution(st, cap - 2))
    assert "GameEnded" not in types(events) and not RULES.is_over(st)
    assert st.rounds_completed == cap - 1 and of(events, "RoundStarted") == [{"type": "RoundStarted", "round": cap}]
    events, st = rotate_all(evolution(st, cap - 1))
    assert "GameEnded" in types(events)
    ended = of(events, "GameEnded")[0]
    assert (ended["cause"], ended["round"]) == ("ROUND_CAP", cap)
    assert RULES.is_over(st) and RULES.result(st).details["cause"] == "ROUND_CAP"


# ---------------------------------------------------------------------------------------------------- §5.3
def rises(events, reason):
    return [e["delta"] for e in events if e["type"] in ("RebellionChanged", "SurplusChanged") and e["reason"] == reason]


def test_one_glutted_row_raises_rebellion_by_one():
    """§5.3 step 3a: "G = number of glutted rows (≥5 cubes)": REB += min(G, 2); one row just below the glut zone is
    not glutted (the content colony then applies instead)."""
    st = island()
    st.reb = 1
    st.bank["FISH"] -= D.GLUT_THRESHOLD - 1 - st.dom["FISH"]
    st.dom["FISH"] = D.GLUT_THRESHOLD - 1
    _, ev = influence(st)
    assert rises(ev, "glut") == [] and rises(ev, "content_colony") == [-1]
    st.bank["FISH"] -= 1
    st.dom["FISH"] = D.GLUT_THRESHOLD
    _, ev = influence(st)
    assert rises(ev, "glut") == [1] and rises(ev, "content_colony") == []


def test_a_large_export_market_brings_two_surplus_workers():
    """§5.3 step 3b: E = total cubes in the export market: "E ≥ 12: SUR += 2; else if E ≥ 6: SUR += 1" (the
    engine's thresholds in data.py)."""
    (high, two), (low, one) = D.P3_EXPORT_STEPS
    for cubes, expected in ((high, two), (high - 1, one), (low - 1, None)):
        st = island()
        placed = 0
        for r in D.RESOURCES:
            k = min(D.EXP_CAP, cubes - placed, st.bank[r])
            st.bank[r] -= k
            st.exp[r] = k
            placed += k
        assert sum(st.exp.values()) == cubes
        after, ev = influence(st)
        assert rises(ev, "export") == ([expected] if expected else [])
        assert after.sur == (expected or 0)


def test_a_population_near_the_citizen_total_raises_rebellion_by_two():
    """§5.3 step 3c: "POP ≥ ⌈0.9 × CIT_TOTAL⌉: REB += 2; else if POP ≥ ⌈0.7 × CIT_TOTAL⌉: REB += 1"."""
    (high, two), (low, one) = D.P3_POP_STEPS
    st = island()
    top = ceil_pct(high, cit_total(st))
    crowd(st, top - 1)
    assert ceil_pct(low, cit_total(st)) <= top - 1
    _, ev = influence(st)
    assert rises(ev, "population") == [one]
    crowd(st, top)
    after, ev = influence(st)
    assert rises(ev, "population") == [two] and after.reb == two


def test_mass_unemployment_raises_rebellion_by_two():
    """§5.3 step 3d: "SUR ≥ 18: REB += 2; else if SUR ≥ 14: REB += 1" (the engine uses 19 / 16, tuned, logged in
    data.py)."""
    (high, two), (low, one) = D.P3_SURPLUS_STEPS
    for sur, expected in ((high, two), (high - 1, one), (low - 1, None)):
        st = island()
        st.sur = sur
        after, ev = influence(st)
        assert rises(ev, "surplus") == ([expected] if expected else [])
        assert after.reb == (expected or 0)


# ---------------------------------------------------------------------------------------------------- §3.7, §8.6
def test_huts_never_push_surplus_workers_past_the_maximum():
    """§3.7: "If an effect would push SUR above 20, SUR becomes 20 and the excess is lost (DESIGNED; v1.1 dropped
    the extra REB per excess point)"; §8.6: "SUR += huts (capped as in §3.7)"."""
    st = explore_state("E05", "B")  # face B: 3 huts
    st.sur = D.SURPLUS_MAX - 1
    reb = st.reb
    _, st = GAME.when(st, {"type": "explore", "slot": "PERSONAL", "pick": "TOP", "with": []})
    events, after = GAME.when(
        st, {"type": "place_tile", "pos": {"q": 0, "r": -1}, "face": "B", "rot": 0, "mover": "s0-90"}
    )
    assert after.tiles["E05"]["huts"] > 1
    assert of(events, "SurplusChanged") == [{"type": "SurplusChanged", "delta": 1, "reason": "huts"}]
    assert after.sur == D.SURPLUS_MAX
    assert not of(events, "RebellionChanged") and after.reb == reb


def test_emptying_an_explorer_stack_gives_every_seat_one_more_action_disc_up_to_the_maximum():
    """§8.6: "If that empties a stack, every player immediately gets ad_total = min(5, ad_total + 1) and
    ad_available += 1 if that increased ad_total. The new AD can be used at once (Q15)"."""
    st = explore_state("E05", "B")
    st.tokens_spent += st.stacks[0] - 1
    st.stacks[0] = 1
    discs = {0: (D.START_AD, D.START_AD), 1: (D.MAX_AD - 1, 1), 2: (D.MAX_AD, 2)}
    for seat, (total, avail) in discs.items():
        st.players[seat].update(ad_total=total, ad_avail=avail)
    _, st = GAME.when(st, {"type": "explore", "slot": "PERSONAL", "pick": "TOP", "with": []})
    events, after = GAME.when(
        st, {"type": "place_tile", "pos": {"q": 0, "r": -1}, "face": "B", "rot": 0, "mover": "s0-90"}
    )
    assert of(events, "ExplorerTokenTaken") == [
        {"type": "ExplorerTokenTaken", "seat": 0, "stack": 0, "stack_emptied": True}
    ]
    assert [(p["ad_total"], p["ad_avail"]) for p in after.players] == [
        (D.START_AD + 1, D.START_AD),  # one disc spent on the EXPLORE, one gained
        (D.MAX_AD, 2),
        (D.MAX_AD, 2),
    ]


# ---------------------------------------------------------------------------------------------------- §8.4
def test_lying_citizens_pay_no_tax_but_a_town_and_temple_held_by_lying_occupants_do():
    """§8.4: "Lying citizens pay nothing"; §3.5 and Q41: "a lying occupant still controls its building ... TAX counts
    controlled towns and temples whatever the posture of their occupants"."""
    st = island()
    put_unit(st, 0, "C", "E07", "c0-95")
    put_building(st, "E07", "TOWN", "c0-91")
    put_building(st, "E07", "TEMPLE", "c0-95")
    for unit in ("c0-91", "c0-95"):
        st.units[unit]["lying"] = True
    events, _ = GAME.when(st, {"type": "tax", "with": []})
    income = D.TAX_PER_CITIZEN + D.TAX_PER_SHIP + D.TAX_PER_TOWN + D.TAX_PER_TEMPLE  # c0-92 stands, s0-90
    assert of(events, "MoneyChanged") == [{"type": "MoneyChanged", "seat": 0, "delta": income, "reason": "tax"}]


# ---------------------------------------------------------------------------------------------------- §5.6
def test_the_last_card_in_the_market_is_bought_with_no_rotation():
    """§5.6 (a) Buy: "rotate one other market card ... rotate is null only when no other card is in the market"."""
    st = evo_state()
    st.evo_discard += [m[0] for m in st.market if m and m[0] != "C03"] + st.deck
    st.market = [None, None, ["C03", 0], None, None]
    st.deck = []
    seat = st.order[0]
    buy = {"type": "evo_buy", "slot": 2, "rotate": None}
    assert [c for c in RULES.legal_commands(st, seat) if c["type"] == "evo_buy"] == [buy]
    events, after = GAME.when(st, buy, seat=seat)
    assert of(events, "EvolutionBought") == [
        {"type": "EvolutionBought", "seat": seat, "slot": 2, "card": "C03", "price": D.CARDS["C03"].prices[0]}
    ]
    assert not of(events, "EvolutionRotated")
    assert "C03" in after.players[seat]["track"] and after.market == [None] * D.EVO_MARKET_SLOTS
