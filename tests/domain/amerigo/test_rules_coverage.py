"""Rules of docs/rules/amerigo.md that no other test pinned (found in review), one focused test each.

The seeded 2-player board of ``scenario.base()`` (see scenario.py) also has: island 5 = a big island of 39 squares
with 7 TP spaces (9, 8), (9, 10), (13, 3), (14, 1), (14, 7), (14, 10), (16, 8); the sea square (6, 9) is a one-square
strait between land at (5, 9) and (7, 9): without it, (6, 8) and (6, 10) are 16 squares apart instead of 2.
"""

from __future__ import annotations

import pytest

from domain.amerigo import RULES
from domain.amerigo import board as board_module
from domain.amerigo.board import Board, layout_is_valid
from tests.domain.amerigo.scenario import (
    base,
    fold,
    gold,
    of_type,
    one,
    phase,
    planned,
    post,
    refused,
    ship_at,
    sq,
    token,
    when,
)


def cannons(seat, n):
    return {"type": "CannonsLoaded", "seat": seat, "n": n, "gold": 0}


def special(seat, position):
    return {"type": "SpecialAdvanced", "seat": seat, "n": position, "gold": 0, "position": position}


def round_started(rnd):
    return [{"type": "RoundStarted", "round": rnd, "time_value": 6 - rnd}] if rnd != 1 else []


def neutral_s1(seat, rc, island):
    return {
        "type": "TilePlaced",
        "seat": seat,
        "kind": "neutral",
        "shape": "S1",
        "squares": [sq(*rc)],
        "island": island,
        "vp": 0,
        "commodities": [],
        "cost": 0,
        "gold": 0,
    }


def acting(colour, cubes, *given, mode=None, rnd=1, seats=2):
    """Given ``given`` and a ``colour`` phase of round ``rnd``; the first player chooses ``colour``."""
    before = fold(base(seats), round_started(rnd), list(given))
    order = tuple(before.order)
    state = fold(base(seats), round_started(rnd), list(given), phase(colour, cubes, order=order, rnd=rnd))
    command = {"type": "choose_action", "colour": colour}
    if mode:
        command["mode"] = mode
    state, _ = when(state, order[0], command)
    return state


def end_of_round(*given, rnd=1, seats=2):
    """Given the white (last) phase of round ``rnd``; every player passes; the state and all the chain's events."""
    before = fold(base(seats), round_started(rnd), list(given))
    order = tuple(before.order)
    state = fold(base(seats), round_started(rnd), list(given), phase("white", {"white": 2}, order=order, rnd=rnd))
    events: list[dict] = []
    for seat in order:
        state, new = when(state, seat, {"type": "pass"})
        events += new
    return state, events


def squares_of(state, island):
    board = state.board
    return [divmod(q, board.ncols) for q in board.islands[island]]


def tps_of(state, island):
    board = state.board
    return [divmod(q, board.ncols) for q in board.island_tps[island]]


# -- 1. §5.5 / Q19 -------------------------------------------------------------------------------------
def _tile_of_size(size):
    """A 6x6 island tile holding one island of ``size`` (20..24) squares that reaches no neighbour's land."""
    extra = size - 20
    return (
        "......",
        ".#####",
        ".#####",
        ".#####",
        ".#####",
        "." + "#" * extra + "." * (5 - extra),
    )


def test_with_more_than_five_big_islands_the_five_largest_get_chests_ties_to_the_lower_id(monkeypatch):
    """§5.5 / Q19: each big island gets a chest, at most 5 in total; with more than 5 big islands the 5 largest get
    one, ties go to the lower island id. Seven big islands (ids 0-6) of 20, 24, 20, 23, 22, 20, 21 squares: 24, 23,
    22, 21 and the lowest-id 20 (island 0) get chests; islands 2 and 5 (also 20) do not."""
    sizes = [20, 24, 20, 23, 22, 20, 21]
    for size in set(sizes):
        monkeypatch.setitem(board_module.TILES, f"XB{size}", _tile_of_size(size))
    monkeypatch.setitem(board_module.TILES, "XSEA", ("......",) * 6)
    sel = tuple(f"XB{s}" for s in sizes) + ("XSEA", "XSEA")
    rots = (0,) * 9
    assert layout_is_valid(2, sel, rots)
    board = Board(2, sel, rots)
    assert list(board.island_size) == sizes and all(board.island_big)
    assert board.chest_islands == (0, 1, 3, 4, 6)
    layout = {"type": "IslandsAssembled", "sel": list(sel), "rots": list(rots)}
    state = fold([layout if e["type"] == "IslandsAssembled" else e for e in base()])
    assert state.chest_on == [True, True, False, True, True, False, True]
    assert [i["chest"] for i in RULES.view(state, None)["board"]["islands"]] == state.chest_on


# -- 2. §12.3 / Q18 ------------------------------------------------------------------------------------
@pytest.mark.parametrize("k, factor", [(2, 3), (4, 10), (5, 15), (6, 21), (7, 28)])
def test_trading_post_scoring_on_completion(k, factor):
    """§12.3 / Q18: every player with k posts on a completed island gains TP_SCORE(k) x time value; k = 1..6 gives
    1, 3, 6, 10, 15, 21 and k > 6 continues with k(k+1)/2 (k = 7: 28). Island 5 (7 TP spaces) in round 1 (time 5)."""
    board_state = fold(base())
    tps = tps_of(board_state, 5)
    rest = [rc for rc in squares_of(board_state, 5) if rc not in tps[:k]]
    last = next(rc for rc in reversed(rest) if rc not in tps)
    rest.remove(last)
    given = [post(0, sq(*rc), 5) for rc in tps[:k]] + [neutral_s1(1, rc, 5) for rc in rest]
    state = acting("green", {"green": 3}, *given, planned(0, "village", "S1"))
    _, events = when(state, 0, {"type": "place_tile", "kind": "village", "shape": "S1", "squares": [sq(*last)]})
    done = one(events, "IslandCompleted")
    assert done["time_value"] == 5
    assert done["scores"] == [{"seat": 0, "posts": k, "vp": factor * 5}]


# -- 3. Q10 --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("rnd, time_value", [(3, 3), (4, 2), (5, 1)])
def test_time_value_of_rounds_three_to_five_at_island_completion(rnd, time_value):
    """Q10 / §3 TIME_VALUE_BY_ROUND = {1:5, 2:4, 3:3, 4:2, 5:1}: round 5 is worth 1. A post founded on the
    one-square island 3 completes it; its one post scores 1 x the round's time value."""
    state = acting("blue", {"blue": 4}, *ship_at(0, 0, sq(4, 12)), *ship_at(0, 1, sq(2, 5)), rnd=rnd)
    vp = state.players[0].vp
    after, events = when(state, 0, {"type": "found_trading_post", "ship": 0})
    done = one(events, "IslandCompleted")
    assert done["time_value"] == time_value
    assert done["scores"] == [{"seat": 0, "posts": 1, "vp": time_value}]
    assert after.players[0].vp == vp + 3 + 3 + time_value  # discovery, completion, posts


# -- 4. §14 step 3 -------------------------------------------------------------------------------------
@pytest.mark.parametrize("seats, reveal", [(3, {"II": 6, "III": 2}), (4, {"II": 6, "III": 2, "IV": 2})])
def test_between_rounds_the_production_display_shows_ii_iii_and_iv_by_player_count(seats, reveal):
    """§14 step 3: remove the remaining production tokens; reveal a fresh set from the tops of the stacks: 6 II,
    +2 III at 3-4 players, +2 IV at 4 players (§6.7). (The brief says "progress tokens"; the II/III/IV marks are
    those of the production tokens.)"""
    before = fold(base(seats))
    stacks = {mark: list(ids) for mark, ids in before.prod_stacks.items()}
    assert set(stacks) == set(reveal)
    state, events = end_of_round(seats=seats)
    cleared = one(events, "ProductionDisplayCleared")
    assert cleared["round"] == 2 and sorted(cleared["removed"]) == sorted(before.prod_display)
    revealed = of_type(events, "ProductionRevealed")
    assert len(revealed) == 1
    expected = [t for mark in ("II", "III", "IV") for t in stacks.get(mark, [])[: reveal.get(mark, 0)]]
    assert revealed[0]["tokens"] == expected
    assert sorted(state.prod_display) == sorted(expected)
    assert {m: len(ids) for m, ids in state.prod_stacks.items()} == {m: len(stacks[m]) - n for m, n in reveal.items()}


# -- 5. §12.2 / Q15 ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "space, colour, track, at",
    [
        (2, "black", "cannon", cannons(0, 11)),
        (4, "brown", "progress", {"type": "ProgressAdvanced", "seat": 0, "n": 17, "gold": 0, "tokens_due": 0}),
    ],
)
def test_track_overflow_applies_through_white_convert(space, colour, track, at):
    """§12.2 / Q15: the overflow applies to CANNON and PROGRESS also when the action comes through white mode B.
    One space left, 3 free AP (3 white cubes converted): the disc ends on the last space with AP to spare: 2 gold."""
    state = acting("white", {"white": 3}, special(0, space), at, mode="convert")
    assert state.x == ["blue", "black", "red", "brown"].index(colour) and state.ap_free == 3
    after, events = when(state, 0, {"type": "advance", "n": 1})
    assert one(events, "TrackOverflowed") == {"type": "TrackOverflowed", "seat": 0, "track": track, "gold": 2}
    assert after.players[0].gold == state.players[0].gold + 2


def test_fair_winds_works_through_white_convert_to_blue():
    """§11.7 / Q15: P10 applies when X is blue through white mode B (before the action's first MoveShip): +8 AP."""
    given = [token(0, "P10"), special(0, 1), *ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1))]
    state = acting("white", {"white": 2, "red": 1}, *given, mode="convert")
    assert state.x == 0 and state.ap_free == 2
    assert {"type": "use_fair_winds"} in RULES.legal_commands(state, 0)
    after, events = when(state, 0, {"type": "use_fair_winds"})
    assert one(events, "FairWindsUsed")["seat"] == 0
    assert after.ap_free == 10 and after.players[0].tokens["P10"] is True
    after, events = when(after, 0, {"type": "move_ship", "ship": 0, "to": {"frame": 6}})
    moved = one(events, "ShipMoved")
    assert 2 < moved["distance"] <= 10 and moved["gold"] == 0


# -- 6. §10.3 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "single, pair, colour",
    [
        ("P01", "P07", "blue"),
        ("P03", "P07", "red"),
        ("P02", "P09", "black"),
        ("P06", "P09", "yellow"),
        ("P04", "P08", "brown"),
        ("P05", "P08", "green"),
    ],
)
def test_single_colour_and_two_colour_bonuses_add_up(single, pair, colour):
    """§10.3: +2 for the single-colour token of X (P01-P06) and +1 for the two-colour token including X (P07-P09);
    both can apply: +3."""
    cubes = {"blue": 1, "black": 1, "red": 1, "brown": 1, "green": 1, "yellow": 1, "white": 1, colour: 4}
    state = fold(base(), [token(0, single, "R1"), token(0, pair, "R2")], phase(colour, cubes))
    _, events = when(state, 0, {"type": "choose_action", "colour": colour})
    assert one(events, "ActionChosen")["ap_free"] == 4 + 3


# -- 7. §11.5 ------------------------------------------------------------------------------------------
def test_building_on_several_islands_in_one_action():
    """§11.5: a player may build on several islands in one action. Posts on island 8 (10, 13) and island 0 (2, 4):
    one village tile on each, in the same BUILD action."""
    given = [post(0, sq(10, 13), 8), post(0, sq(2, 4), 0), planned(0, "village", "S1"), planned(0, "village", "S1")]
    state = acting("green", {"green": 3}, *given)
    state, events = when(state, 0, {"type": "place_tile", "kind": "village", "shape": "S1", "squares": [sq(9, 13)]})
    assert one(events, "TilePlaced")["island"] == 8 and state.turn_seat == 0 and state.stage == "act"
    second = {"type": "place_tile", "kind": "village", "shape": "S1", "squares": [sq(2, 3)]}
    assert second in RULES.legal_commands(state, 0)
    state, events = when(state, 0, second)
    placed = one(events, "TilePlaced")
    assert placed["island"] == 0 and placed["vp"] == 2  # village on a big island
    assert state.ap_used == 2 and state.players[0].planned == [0] * len(state.players[0].planned)
    assert [t[3] for t in state.placed] == [(9 * 18 + 13,), (2 * 18 + 3,)]


# -- 8. §15 step 1 -------------------------------------------------------------------------------------
def test_unused_fair_winds_fast_passage_and_chronicle_are_worth_nothing_at_the_end():
    """§15 step 1: unused P17/P18 and chests become gold; other unused one-time tokens (P10, P16, P21) give
    nothing. The final row with the three tokens equals the row without them."""
    held = [token(0, "P10", "R1"), token(0, "P16", "R2"), token(0, "P21", "R3")]
    with_tokens, _ = end_of_round(*held, rnd=5)
    without, _ = end_of_round(rnd=5)
    assert with_tokens.over and without.over
    row = next(r for r in with_tokens.final if r["seat"] == 0)
    plain = next(r for r in without.final if r["seat"] == 0)
    assert all(with_tokens.players[0].tokens[t] is False for t in ("P10", "P16", "P21"))
    assert row["token_gold"] == 0 and row["token_vp"] == 0 and row["cap_vp"] == 0
    assert row == plain
    assert with_tokens.players[0].vp == without.players[0].vp


# -- 9. §11.1 ------------------------------------------------------------------------------------------
def test_ships_sail_through_squares_holding_other_ships():
    """§11.1 / §5.4: squares on the way may hold ships; ships never block. Seat 1's ship stands in the strait
    (6, 9); seat 0 sails from (6, 8) to (6, 10) through it: distance 2 (16 around, more than the 4 AP)."""
    given = [*ship_at(1, 0, sq(6, 9)), *ship_at(0, 0, sq(6, 8)), *ship_at(0, 1, sq(3, 1))]
    state = acting("blue", {"blue": 4}, *given)
    assert state.players[0].gold == 0
    refused(state, {"type": "move_ship", "ship": 0, "to": sq(6, 9)}, "illegal_command", seat=0)  # may not stop
    command = {"type": "move_ship", "ship": 0, "to": sq(6, 10)}
    assert command in RULES.legal_commands(state, 0)
    after, events = when(state, 0, command)
    moved = one(events, "ShipMoved")
    assert moved["distance"] == 2 and moved["gold"] == 0
    assert after.players[0].ships[0] == 6 * 18 + 10 and after.players[1].ships[0] == 6 * 18 + 9


# -- 10. §6.5 ------------------------------------------------------------------------------------------
CYCLE = ["blue", "black", "red", "brown", "green", "yellow"]


@pytest.mark.parametrize("space, colour", [(s, CYCLE[(s - 1) % 6]) for s in range(7, 21)])
def test_special_track_colours_cycle_past_space_six_for_convert(space, colour):
    """§6.5: space s >= 1 has colour [BLUE, BLACK, RED, BROWN, GREEN, YELLOW][(s-1) mod 6]: 7 blue, 8 black, ...,
    19 blue, 20 black. White mode B executes the colour of the disc's space."""
    state = fold(base(), [special(0, space)], phase("white", {"white": 2, "red": 1}))
    _, events = when(state, 0, {"type": "choose_action", "colour": "white", "mode": "convert"})
    assert one(events, "ActionChosen")["executed"] == colour


# -- 11. §12.1 -----------------------------------------------------------------------------------------
def test_gold_cap_applies_to_chests_bounty_trade_income_and_overflow():
    """§12.1 / §6.2: the cap applies to every gold gain (chests, P13, P19, overflow): gold stays at 12 and every
    excess gold becomes 1 VP at once."""
    # chest: 11 gold + 3 = 12 gold and 2 VP
    chest = {"type": "IslandCompleted", "seat": 0, "island": 0, "vp": 0, "chest": True, "scores": []}
    state = fold(base(), [gold(0, 11), chest], phase("black", {"black": 2}))
    after, _ = when(state, 0, {"type": "cash_chest"})
    assert (after.players[0].gold, after.players[0].vp) == (12, 2)
    # P13: fended off with 12 gold: 12 gold and 2 VP
    after, events = end_of_round(gold(0, 12), token(0, "P13"), cannons(0, 4))
    assert [o["gold"] for o in one(events, "PiratesAttacked")["outcomes"] if o["seat"] == 0] == [2]
    assert (after.players[0].gold, after.players[0].vp) == (12, 2)
    # P19: a post founded with 12 gold: 12 gold, 3 VP discovery + 1 VP
    state = acting(
        "blue", {"blue": 4}, gold(0, 12), token(0, "P19"), *ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1))
    )
    after, events = when(state, 0, {"type": "found_trading_post", "ship": 0})
    assert one(events, "TradingPostFounded")["gold"] == 1
    assert (after.players[0].gold, after.players[0].vp) == (12, 3 + 1)
    # overflow: cannons full, 12 gold: 12 gold and 2 VP
    state = acting("black", {"black": 2}, gold(0, 12), cannons(0, 12))
    after, events = when(state, 0, {"type": "advance", "n": 0})
    assert one(events, "TrackOverflowed")["gold"] == 2
    assert (after.players[0].gold, after.players[0].vp) == (12, 2)


# -- 12. Q39 -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seats", [3, 4])
def test_ranking_has_no_shared_places(seats):
    """§15 / Q39: all players are ranked by VP, then by special-track order; there are no shared places. With
    3-4 players on equal VP the ranks follow the special-track order (the first player first)."""
    start = fold(base(seats))
    top = max(p.gold for p in start.players)
    even = [gold(s, top - start.players[s].gold) for s in range(seats) if start.players[s].gold < top]
    state, _ = end_of_round(*even, rnd=5, seats=seats)
    assert state.over
    result = RULES.result(state)
    assert len(set(result.scores)) == 1
    assert sorted(result.ranks) == list(range(1, seats + 1))
    assert result.ranks == [state.order.index(s) + 1 for s in range(seats)]
    # one player ahead on VP is first; the others still take distinct places by the special-track order
    leader = state.order[-1]
    state, _ = end_of_round(*even, gold(leader, 1), rnd=5, seats=seats)
    ranks = RULES.result(state).ranks
    assert ranks[leader] == 1 and sorted(ranks) == list(range(1, seats + 1))
    rest = [s for s in state.order if s != leader]
    assert [ranks[s] for s in rest] == list(range(2, seats + 1))


# -- 13. §11.1 step 4 / §12.3 --------------------------------------------------------------------------
def test_founding_a_trading_post_completes_a_big_island_and_takes_its_chest():
    """§11.1 step 4 / §12.3: if the post's square was the island's last empty land square, the founder completes
    the island: +3 VP and the island's chest, then the posts score. Big island 0 (26 squares, chest) is covered
    except its TP space (2, 4); seat 0 founds there from the anchor (2, 5) in round 1 (time value 5)."""
    fresh = fold(base())
    assert fresh.board.island_big[0] and fresh.chest_on[0]
    cover = [neutral_s1(1, rc, 0) for rc in squares_of(fresh, 0) if rc != (2, 4)]
    state = acting("blue", {"blue": 4}, *cover, *ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1)))
    assert state.island_empty[0] == 1
    vp = state.players[0].vp
    after, events = when(state, 0, {"type": "found_trading_post", "ship": 0})
    assert one(events, "TradingPostFounded")["discovery_vp"] == 3
    done = one(events, "IslandCompleted")
    assert done["seat"] == 0 and done["island"] == 0 and done["vp"] == 3 and done["chest"] is True
    assert done["scores"] == [{"seat": 0, "posts": 1, "vp": 5}]
    assert after.players[0].chests == 1 and after.chest_on[0] is False and after.island_empty[0] == 0
    assert after.players[0].vp == vp + 3 + 3 + 5
    assert after.players[1].chests == 0
    # the chest is the founder's: cashing it gives 3 gold in the same turn
    cashed, events = when(after, 0, {"type": "cash_chest"})
    assert one(events, "ChestCashed")["gold"] == 3 and cashed.players[0].chests == 0


# Skipped: none. Rule 1 is reached with the board functions directly, on island tiles added for the test only
# (the designed tiles never give more than 5 big islands, §5.2).
