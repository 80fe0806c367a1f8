"""The heuristic the bots play Archipelago with, and the generic turn look-ahead on Archipelago's steps."""

from __future__ import annotations

import random

from domain.archipelago import RULES
from domain.archipelago.evaluate import evaluate, heuristic
from domain.archipelago.state import population
from domain.bots import make_bot
from domain.bots.lookahead import evaluate_through, play_out
from tests.domain.archipelago.fixtures import do, island


def test_an_opened_birth_step_is_scored_by_the_births_it_allows():
    st = island()
    opened, _ = do(st, {"type": "reproduce"})
    # The bare opener only spends a disc; played out, it brings a citizen.
    assert population(opened) == population(st)
    played, count = play_out(RULES, opened, 0, random.Random(0))
    assert count >= 1
    assert population(played) == population(st) + 1
    assert evaluate_through(RULES, opened, 0, random.Random(0)) > RULES.evaluate(opened, 0)


def test_playing_out_changes_nothing_when_no_step_of_the_seat_is_open():
    opened, _ = do(island(), {"type": "reproduce"})
    played, count = play_out(RULES, opened, 1, random.Random(0))
    assert played is opened and count == 0
    assert evaluate_through(RULES, opened, 1, random.Random(0)) == RULES.evaluate(opened, 1)


def test_playing_out_is_deterministic_and_leaves_the_state_alone():
    opened, _ = do(island(), {"type": "reproduce"})
    before = RULES.view(opened, None)
    first = evaluate_through(RULES, opened, 0, random.Random(5))
    assert evaluate_through(RULES, opened, 0, random.Random(5)) == first
    assert RULES.view(opened, None) == before


def test_greedy_reproduces_when_births_are_possible():
    st = island()
    choice = make_bot("greedy", 1).choose(RULES, st, 0)
    assert choice["type"] == "reproduce", choice


def test_an_open_trade_offer_costs_a_little_until_it_is_answered():
    st = island()
    offered, _ = do(st, {"type": "offer_open", "to": 1}, seat=0)
    assert offered.offer is not None
    assert RULES.evaluate(offered, 0) < RULES.evaluate(st, 0)
    assert RULES.evaluate(offered, 1) == heuristic(offered, 1)


def test_greedy_opens_no_offer_when_nothing_scores_better():
    st = island()
    for seed in range(8):
        choice = make_bot("greedy", seed).choose(RULES, st, 0)
        assert choice["type"] != "offer_open", choice


def test_a_placed_bid_counts_as_committed_money():
    st = island()
    base = evaluate(st, 0)
    st.bids[0] = 3
    assert evaluate(st, 0) < base
