"""End of round: pirates (§13), between-rounds refresh (§14), final scoring and tie-break (§15)."""

from __future__ import annotations

from domain.amerigo import RULES
from tests.domain.amerigo.scenario import base, fold, gold, of_type, one, phase, sq, token, when


def vp(seat, amount):
    return {"type": "IslandCompleted", "seat": seat, "island": 3, "vp": amount, "chest": False, "scores": []}


def cannons(seat, n):
    return {"type": "CannonsLoaded", "seat": seat, "n": n, "gold": 0}


def end_of_round(*given, rnd=1):
    """Given the white phase of round ``rnd``; both players pass; return all events of the chain."""
    extra = [{"type": "RoundStarted", "round": rnd, "time_value": 6 - rnd}] if rnd != 1 else []
    state = fold(base(), extra, list(given), phase("white", {"white": 2}, rnd=rnd))
    state, events1 = when(state, 0, {"type": "pass"})
    state, events2 = when(state, 1, {"type": "pass"})
    return state, events1 + events2


def outcome(events, seat):
    return [o for o in one(events, "PiratesAttacked")["outcomes"] if o["seat"] == seat][0]


def test_pirates_fended_off_cost_cannons_failing_costs_all_cannons_and_vp():
    # round 1 of the seeded game: slot 1 shows a 4
    state, events = end_of_round(cannons(0, 5), cannons(1, 2), vp(1, 10))
    attack = one(events, "PiratesAttacked")
    assert attack["strength"] == 4 and attack["round"] == 1
    assert outcome(events, 0) == {"seat": 0, "strength": 4, "fended": True, "cannon_after": 1, "vp_lost": 0, "gold": 0}
    assert outcome(events, 1)["fended"] is False and outcome(events, 1)["vp_lost"] == 4
    assert state.players[0].cannon == 1 and state.players[1].cannon == 0 and state.players[1].vp == 6


def test_pirate_losses_never_go_below_zero():
    state, events = end_of_round(vp(0, 2))
    assert outcome(events, 0)["vp_lost"] == 2 and state.players[0].vp == 0


def test_pirate_ally_p11_strengthens_the_pirates_for_the_others_only():
    state, events = end_of_round(token(0, "P11"), cannons(0, 4), cannons(1, 5))
    assert outcome(events, 0)["strength"] == 4 and outcome(events, 0)["fended"]
    assert outcome(events, 1)["strength"] == 6 and not outcome(events, 1)["fended"]


def test_damage_control_p12_halves_the_loss_rounded_up():
    state, events = end_of_round(token(0, "P12"), vp(0, 10), cannons(0, 1))
    assert outcome(events, 0)["vp_lost"] == 2 and state.players[0].vp == 8 and state.players[0].cannon == 0


def test_bounty_p13_pays_two_gold_when_fended_off():
    state, events = end_of_round(token(0, "P13"), cannons(0, 4))
    assert outcome(events, 0)["gold"] == 2 and outcome(events, 0)["cannon_after"] == 0
    assert state.players[0].gold == 0 + 2


def test_between_rounds_refresh():
    before = fold(base())
    pile = list(before.progress_pile)
    stack = list(before.prod_stacks["II"])
    display = list(before.progress_display)
    state, events = end_of_round(token(0, display[1], "R2"), token(1, display[5], "L2"))
    assert one(events, "RoundStarted") == {"type": "RoundStarted", "round": 2, "time_value": 4}
    assert one(events, "PirateRevealed") == {"type": "PirateRevealed", "slot": 2, "value": before.pirates[1]}
    refresh = one(events, "ProgressDisplayRefreshed")
    assert refresh["removed"] == [display[0], display[2], display[3]]
    assert state.progress_display[:4] == [display[4], None, display[6], display[7]]
    assert state.progress_display[4:] == pile[:4]
    assert state.progress_pile == pile[4:]
    assert sorted(state.progress_removed) == sorted(refresh["removed"])
    cleared = one(events, "ProductionDisplayCleared")
    assert sorted(cleared["removed"]) == sorted(before.prod_display)
    assert state.prod_display == stack[:6] and state.prod_stacks["II"] == stack[6:]
    assert state.round == 2 and state.pirates_revealed == 2
    # the new round opens with the blue phase (skipped here: the scenario left no blue cube in storage)
    phases = [e for e in events if e["type"] in ("PhaseSkipped", "PhaseStarted")]
    assert phases[0]["colour"] == "blue" and phases[0]["round"] == 2
    assert phases[0]["type"] == "PhaseSkipped" and phases[0]["reason"] == "storage_empty"
    assert not [e for e in of_type(events, "TowerDropped") if e["colour"] == "blue"]


def test_final_scoring():
    given = [
        gold(0, 10),
        token(0, "P17"),
        token(0, "P18"),
        token(0, "P22"),
        token(0, "P23"),
        token(0, "P24"),
        {"type": "IslandCompleted", "seat": 0, "island": 0, "vp": 20, "chest": True, "scores": []},
        {
            "type": "TradingPostFounded",
            "seat": 0,
            "ship": 0,
            "square": sq(2, 4),
            "island": 0,
            "discovery_vp": 0,
            "gold": 0,
        },
        {
            "type": "TilePlaced",
            "seat": 0,
            "kind": "neutral",
            "shape": "S1",
            "squares": [sq(4, 3)],
            "island": 0,
            "vp": 0,
            "commodities": ["C", "C", "C", "E", "E"],
            "cost": 0,
            "gold": 0,
        },
        {"type": "ProductionBought", "seat": 0, "token": "PR-C-II-2-1", "cost": 0, "gold": 0},
        {"type": "ProductionBought", "seat": 0, "token": "PR-C-III-2-1", "cost": 0, "gold": 0},
        {"type": "ProgressAdvanced", "seat": 0, "n": 10, "gold": 0, "tokens_due": 0},
        {"type": "SpecialAdvanced", "seat": 0, "n": 11, "gold": 0, "position": 11},
        cannons(0, 12),
        cannons(1, 12),
    ]
    state, events = end_of_round(*given, rnd=5)
    assert RULES.is_over(state) and events[-1]["type"] == "GameEnded"
    row = [r for r in one(events, "GameEnded")["final"] if r["seat"] == 0][0]
    # gold 10 + chest 3 + P17 3 + P18 5 = 21: 12 gold and 9 VP
    assert row["chest_gold"] == 3 and row["token_gold"] == 8 and row["cap_vp"] == 9 and row["gold_after"] == 12
    assert row["gold_vp"] == 12
    assert row["goods_vp"] == 3 * 3 + 2 * 1  # the rules file's example: 11
    assert row["progress_vp"] == 5  # space 10: highest numbered space reached is 9
    assert row["token_vp"] == 1 + 7 + 12  # P22 one post, P23, P24 final gold
    assert row["special_vp"] == 5  # space 11
    assert row["total"] == 20 + 9 + 12 + 11 + 5 + 20 + 5
    assert state.players[0].vp == row["total"]
    result = RULES.result(state)
    assert result.scores[0] == row["total"] and result.ranks == [1, 2]


def test_tie_break_by_special_track():
    # seat 0 starts with 0 gold, seat 1 with 1: one more gold for seat 0 makes the scores equal
    given = [
        cannons(0, 12),
        cannons(1, 12),
        gold(0, 1),
        {"type": "SpecialAdvanced", "seat": 1, "n": 1, "gold": 0, "position": 1},
    ]
    state, _ = end_of_round(*given, rnd=5)
    assert state.players[0].vp == state.players[1].vp == 1
    result = RULES.result(state)
    assert result.ranks == [2, 1]
    # same space: the disc on top goes first
    given = [
        cannons(0, 12),
        cannons(1, 12),
        gold(0, 1),
        {"type": "SpecialAdvanced", "seat": 1, "n": 1, "gold": 0, "position": 1},
        {"type": "SpecialAdvanced", "seat": 0, "n": 1, "gold": 0, "position": 1},
    ]
    state, _ = end_of_round(*given, rnd=5)
    assert state.players[0].vp == state.players[1].vp
    assert RULES.result(state).ranks == [1, 2]


def test_bounty_p13_pays_even_against_strength_zero():
    no_pirates = {"type": "PirateRevealed", "slot": 1, "value": 0}
    state, events = end_of_round(no_pirates, token(0, "P13"))
    assert one(events, "PiratesAttacked")["strength"] == 0
    assert outcome(events, 0) == {"seat": 0, "strength": 0, "fended": True, "cannon_after": 0, "vp_lost": 0, "gold": 2}
    assert outcome(events, 1)["gold"] == 0 and outcome(events, 1)["fended"]


def test_rules_file_pirate_example():
    """Revealed markers 2, 0 and 3 give s = 5: 4 cannons drop to 0 and 5 VP are lost (3 with P12)."""
    markers = [{"type": "PirateRevealed", "slot": i + 1, "value": v} for i, v in enumerate([2, 0, 3])]
    given = [*markers, token(1, "P12"), cannons(0, 4), cannons(1, 4), vp(0, 10), vp(1, 10)]
    extra = [{"type": "RoundStarted", "round": 3, "time_value": 3}]
    state = fold(base(), extra, given, phase("white", {"white": 2}, rnd=3))
    state, events = when(state, 0, {"type": "pass"})
    state, more = when(state, 1, {"type": "pass"})
    attack = one(more, "PiratesAttacked")
    assert attack["strength"] == 5
    assert outcome(more, 0)["cannon_after"] == 0 and outcome(more, 0)["vp_lost"] == 5
    assert outcome(more, 1)["cannon_after"] == 0 and outcome(more, 1)["vp_lost"] == 3
