"""The heuristic the bots play Archipelago with: it looks through the seat's own open step."""

from __future__ import annotations

from domain.archipelago import RULES
from domain.archipelago.scoring import evaluate
from domain.archipelago.state import population
from domain.bots import make_bot
from tests.domain.archipelago.fixtures import do, island


def test_an_opened_birth_step_is_scored_by_the_births_it_allows():
    st = island()
    opened, _ = do(st, {"type": "reproduce"})
    # The bare opener only spends a disc; played out, it brings a citizen.
    assert population(opened) == population(st)
    assert population(RULES.through_own_step(opened, 0)) == population(st) + 1
    assert RULES.evaluate(opened, 0) > evaluate(opened, 0)


def test_looking_through_changes_nothing_when_no_step_of_the_seat_is_open():
    st = island()
    assert RULES.through_own_step(st, 0) is st
    opened, _ = do(st, {"type": "reproduce"})
    assert RULES.through_own_step(opened, 1) is opened
    assert RULES.evaluate(opened, 1) == evaluate(opened, 1)


def test_looking_through_is_deterministic_and_leaves_the_state_alone():
    opened, _ = do(island(), {"type": "reproduce"})
    before = RULES.view(opened, None)
    assert RULES.evaluate(opened, 0) == RULES.evaluate(opened, 0)
    assert RULES.view(opened, None) == before


def test_greedy_reproduces_when_births_are_possible():
    st = island()
    choice = make_bot("greedy", 1).choose(RULES, st, 0)
    assert choice["type"] == "reproduce", choice


def test_a_placed_bid_counts_as_committed_money():
    st = island()
    base = evaluate(st, 0)
    st.bids[0] = 3
    assert evaluate(st, 0) < base
