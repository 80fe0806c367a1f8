"""The bots' heuristic (domain/amerigo/evaluate.py): no rule fixes its weights, so these tests pin what it is meant
to value (its module docstring): what a player holds and can still do. More of anything a player holds is worth
more, a token is worth what it scores or pays, planned tiles are worth more where there is land to build on, and a
ship is worth more the closer it is to an anchor whose trading-post space is still empty."""

from __future__ import annotations

import pytest

from domain.amerigo import evaluate as evaluate_module
from domain.amerigo.data import SHAPES, VILLAGE_SHAPES
from domain.amerigo.evaluate import PLANNED_LAST_ROUND, SHIP_ON_ANCHOR, SHIP_REACH, evaluate, evaluate_all, worth
from domain.amerigo.rules import AmerigoRules
from domain.amerigo.state import EMPTY
from tests.domain.amerigo.scenario import base, fold, gold, phase, planned, post, ship_at, sq, token
from tests.domain.protocol_checks import lockstep_positions

ROUND_5 = {"type": "RoundStarted", "round": 5, "time_value": 1}


def worth_of(*given, seat=0):
    return worth(fold(base(), list(given)), seat)


def chest(seat):
    return {"type": "IslandCompleted", "seat": seat, "island": 0, "vp": 0, "chest": True, "scores": []}


def progress(seat, n):
    return {"type": "ProgressAdvanced", "seat": seat, "n": n, "gold": 0, "tokens_due": 0}


def test_evaluate_all_is_evaluate_for_every_seat():
    state = fold(base(3), [gold(1, 4), token(2, "P23")])
    assert evaluate_all(state) == [evaluate(state, s) for s in range(3)]
    assert evaluate_all(state)[2] > 0 > evaluate_all(state)[0]


@pytest.mark.parametrize(
    "more",
    [
        [gold(0, 3)],
        [chest(0)],
        [progress(0, 3)],  # §6.4: the first numbered space scores 1 VP
        [progress(0, 6)],
    ],
    ids=["gold", "chest", "progress to a VP space", "progress further"],
)
def test_more_of_what_a_player_holds_is_worth_more(more):
    assert worth_of(*more) > worth_of()


def test_tokens_are_worth_what_they_score_or_pay():
    """§16: P23 scores 7 VP at the end; P22 scores 1 VP per own trading post; P17 and P18 pay 3 and 5 gold, so
    flipping them for gold changes nothing of the holder's worth."""
    assert worth_of(token(0, "P23")) == worth_of() + 7
    posts = [post(0, sq(2, 4), 0), post(0, sq(3, 2), 0)]
    assert worth_of(token(0, "P22"), *posts) == worth_of(*posts) + 2
    for tok, pays in (("P17", 3), ("P18", 5)):
        held = worth_of(token(0, tok))
        used = worth_of(token(0, tok), {"type": "GoldTokenUsed", "seat": 0, "token": tok, "gold": pays})
        assert held == used == worth_of() + pays


@pytest.mark.parametrize("kind,shape", [("neutral", s) for s in SHAPES] + [("village", s) for s in VILLAGE_SHAPES])
def test_a_planned_tile_is_worth_something_and_more_where_there_is_land_to_build_on(kind, shape):
    with_land = post(0, sq(2, 4), 0)  # a post on the big island 0, whose land is mostly empty
    gain_with_land = worth_of(with_land, planned(0, kind, shape)) - worth_of(with_land)
    gain_without = worth_of(planned(0, kind, shape)) - worth_of()
    assert gain_with_land > gain_without > 0


@pytest.mark.parametrize("kind,shape", [("neutral", "S3L"), ("village", "S1")])
def test_a_tile_planned_in_the_last_round_is_worth_less_than_one_planned_earlier(kind, shape):
    """Few actions are left in round 5 to build a planned tile, and one left unbuilt at the end scores nothing:
    there it keeps PLANNED_LAST_ROUND of its worth (valued in full, the bots planned tiles to their last turn)."""
    with_land = post(0, sq(2, 4), 0)
    early = worth_of(with_land, planned(0, kind, shape)) - worth_of(with_land)
    late = worth_of(ROUND_5, with_land, planned(0, kind, shape)) - worth_of(ROUND_5, with_land)
    assert early > 0 and late == pytest.approx(early * PLANNED_LAST_ROUND) and late < early


def test_a_second_post_on_an_island_is_worth_more_even_late():
    """Round 5 (time value 1) on the big island 5: each post still adds to its holder's worth."""
    one = [ROUND_5, post(0, sq(9, 8), 5)]
    two = [*one, post(0, sq(9, 10), 5)]
    assert worth_of(*two) > worth_of(*one) > worth_of(ROUND_5)


def test_a_ship_is_worth_more_the_closer_it_is_to_an_open_anchor_and_half_as_much_at_its_reach():
    """A ship on an anchor whose trading-post space is empty is worth SHIP_ON_ANCHOR; at SHIP_REACH squares from
    the nearest such anchor it is worth half as much. Here every trading-post space but (2, 4) (anchor (2, 5))
    holds a post of the other player."""
    board = fold(base()).board
    anchor = 2 * board.ncols + 5
    others = [post(1, board.square_json(tp), board.island_of[tp]) for a, tp in board.anchor_tp.items() if a != anchor]
    others += phase("blue", {"blue": 1})  # a new phase: no ship has founded in the running action
    other_ship = ship_at(0, 1, sq(17, 17))
    on_anchor = worth_of(*others, *other_ship, *ship_at(0, 0, sq(2, 5)))
    far = next(
        q
        for q in range(board.nsq)
        if not board.land[q] and q != 17 * board.ncols + 17 and board.distances(q)[anchor] == SHIP_REACH
    )
    at_reach = worth_of(*others, *other_ship, *ship_at(0, 0, board.square_json(far)))
    assert on_anchor - at_reach == pytest.approx(SHIP_ON_ANCHOR / 2)
    # once that anchor's trading-post space is taken too, no anchor is open and ships are worth nothing more
    closed = [post(1, sq(2, 4), 0), *others]
    assert worth_of(*closed, *other_ship, *ship_at(0, 0, sq(2, 5))) == worth_of(
        *closed, *other_ship, *ship_at(0, 0, board.square_json(far))
    )
    assert worth_of(*closed, *other_ship, *ship_at(0, 0, sq(2, 5))) < on_anchor


def test_a_kept_worth_follows_the_round_when_nothing_else_changed():
    """The round alone changes what posts are worth (their time value): a worth kept from round 1 is not read for
    the same players and board in round 5."""
    rules = AmerigoRules()
    early = fold(base(), [post(0, sq(9, 8), 5)])
    late = rules.evolve(early, {**ROUND_5})
    assert late.players[0] is early.players[0] and late.cover is early.cover  # the same objects, a later round
    first, then = worth(early, 0), worth(late, 0)
    evaluate_module.forget()
    assert worth(late, 0) == then != first


def nearest_open_anchor_by_rings(state, loc):
    """The sailing distance from ``loc`` to the nearest open anchor, ring by ring from the ship (-1: none)."""
    board = state.board
    anchors = {a for a, tp in board.anchor_tp.items() if state.cover[tp] == EMPTY}
    rings = board.rings(loc, board.nsq + board.nframe)
    return next((d for d, ring in enumerate(rings) if not anchors.isdisjoint(ring)), -1)


@pytest.mark.parametrize("seats,seed", [(2, 3), (3, 5), (4, 8)])
def test_worth_read_from_the_cache_is_worth_from_scratch_along_random_games(seats, seed):
    """``worth`` reads the board once per cover list (a cache keyed by the list's identity, with the open anchors'
    sailing distances from one search from all of them) and keeps each seat's worth, and within it the player's
    holdings and its posts, by the identity of what they read: along random games played both by the pure fold and
    by the in-place path, every seat's worth, read with the caches filled by every earlier position, equals the one
    computed with empty caches, and each ship's distance equals the distance found ring by ring from the ship."""
    rules = AmerigoRules()
    checked = 0
    for step, (state, live) in enumerate(lockstep_positions(rules, seats, seed, 400)):
        if rules.is_over(state):
            break
        warm = [worth(state, s) for s in range(seats)]
        assert [worth(live, s) for s in range(seats)] == warm
        if step % 7 == 0:
            evaluate_module.forget()
            assert [worth(state, s) for s in range(seats)] == warm
            for p in state.players:
                for loc in p.ships:
                    if loc >= 0:
                        assert evaluate_module._shared(state)[2][loc] == nearest_open_anchor_by_rings(state, loc)
                        checked += 1
    assert checked > 20


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_fair_winds_and_choosing_an_action_leave_every_seats_evaluation_as_it_was(seats):
    """Their stated evaluation change is 0 (``evaluation_change``, which the bots' look-ahead trusts instead of playing
    them). Random games seldom offer Fair Winds (P10): here the acting player is given an unused one at every blue
    action's start. Compared with a deep copy, so that no value kept for the same objects answers."""
    import copy
    import random

    from domain.amerigo.data import BLUE
    from domain.amerigo.evaluate import evaluation_change
    from domain.bots.base import apply_command
    from domain.rng import rng_for

    rules = AmerigoRules()
    checked = {"use_fair_winds": 0, "choose_action": 0}
    chooser = random.Random(seats)
    state = rules.fold(rules.setup(seats, seats, {}))
    for step in range(3000):
        if rules.is_over(state):
            break
        (seat,) = rules.to_act(state)
        trial = state
        if state.stage == "act" and state.x == BLUE and not state.moved_any:
            trial = state.clone()
            player = trial.mut_player(seat)
            player.tokens = {**player.tokens, "P10": False}
        for command in rules.legal_commands(trial, seat):
            if command["type"] in checked:
                assert evaluation_change(command) == 0.0
                after = apply_command(rules, trial, command, seat, rng_for(seats, step))
                before = [evaluate(copy.deepcopy(trial), s) for s in range(seats)]
                assert [evaluate(copy.deepcopy(after), s) for s in range(seats)] == before, command
                checked[command["type"]] += 1
        state = apply_command(rules, state, chooser.choice(rules.legal_commands(state, seat)), seat, rng_for(0, step))
    assert all(checked.values()), checked
