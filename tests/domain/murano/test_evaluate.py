"""The bots' Murano heuristic values what a player holds and can still do: a built shop more than one in hand,
a shop by the Income it can pay; and the greedy level (``easy``) acts on it: it builds what it holds, takes Income
when its shops pay well, and over whole games uses every kind of action the issue names (ship moves, Income,
building, hiring)."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.bots import make_bot
from domain.murano import RULES, data
from domain.murano import evaluate as evaluate_module
from domain.murano.evaluate import best_incomes
from domain.rng import rng_for
from tests.domain.murano.helpers import before_move, bought, given, gold, play, setup_event, started, tile
from tests.domain.protocol_checks import lockstep_positions

# SAN_DONATO (2-3 players): the red shop space r2c4 touches the streets r1c4 and r2c3, the blue shop space r3c4
# touches r3c3 and is next to r2c4.
STREETS = [
    *tile(1, "SAN_DONATO:r1c4", "street", "ST_R"),
    *tile(1, "SAN_DONATO:r2c3", "street", "ST_RB"),
    *tile(1, "SAN_DONATO:r3c3", "street", "ST_B"),
]


def built(seat: int, space: str, colour: str) -> dict:
    """The shop of that colour in ``seat``'s hand built on ``space`` (+2 VP)."""
    return {
        "type": "TilePlaced",
        "seat": seat,
        "space": space,
        "kind": "shop",
        "face": colour,
        "owner": seat,
        "vp": 2,
        "free": True,
    }


def own_turn(state, seat: int = 0):
    """Let ``easy`` play ``seat``'s turn to its end; the commands it chose and the state after."""
    bot = make_bot("easy", seed=1)
    chosen: list[dict] = []
    while not RULES.is_over(state) and state.active == seat and (state.phase != "TURN" or not chosen):
        command = bot.choose(RULES, state, seat)
        chosen.append(command)
        state, _ = play(state, command)
    return chosen, state


def test_a_built_shop_is_worth_more_than_a_bought_one_and_most_next_to_its_customers():
    """Buying a shop (2 gold for a tile in hand) must gain less than building one from hand, else a greedy player
    only buys (the bots bought 9 shops and built 3). A shop also counts by the Income it can pay."""
    base = given(setup_event(3), started(0), *STREETS, bought(0, "shop", "red"))
    after_buy = given(bought(0, "shop", "red", price=2), state=base)
    near = given(built(0, "SAN_DONATO:r2c4", "red"), state=base)
    far = given(built(0, "SAN_DONATO:r3c4", "red"), state=base)  # touches no red customer
    assert near.hand[0] == far.hand[0] == ()
    assert best_incomes(near)[0] == 2 and best_incomes(far)[0] == 0
    value = lambda state: RULES.evaluate(state, 0)  # noqa: E731
    assert value(far) - value(base) > value(after_buy) - value(base) > 0
    assert value(near) > value(far)


def test_gondolier_value_prices_firing_against_the_point_a_gondolier_scores(monkeypatch):
    """A gondolier in the personal supply scores a point at the end (§11, §17 Q51). At the shipped
    ``GONDOLIER_VALUE`` (0, see its comment) firing one for 3 gold reads as a point gained; at 1 it gains nothing
    and hiring one back costs nothing, while seating one on a gondola for 2 gold pays either way."""
    state = given(setup_event(3), started(0))
    value = lambda st: RULES.evaluate(st, 0)  # noqa: E731
    fired = given({"type": "GondolierFired", "seat": 0, "gold": data.GONDOLIER_FIRE_GOLD}, state=state)
    assert fired.personal[0] == state.personal[0] - 1 and fired.gold[0] == state.gold[0] + 3
    hired = given({"type": "GondolierHired", "seat": 0, "price": data.GONDOLIER_HIRE_PRICE}, state=fired)
    seated = RULES.copy_state(state)
    seated.personal[0] -= 1
    seated.gondolas[seated.gondolas.index(-1)] = 0
    seated.gold[0] -= 2
    assert value(fired) == pytest.approx(value(state) + 1.0)
    assert value(seated) > value(state)
    monkeypatch.setattr(evaluate_module, "GONDOLIER_VALUE", 1.0)
    assert value(fired) == pytest.approx(value(state))
    assert value(hired) == pytest.approx(value(state))
    assert value(seated) > value(state)


def test_a_kept_income_follows_the_market_hall_on_the_same_board():
    """``best_incomes`` is kept by what it reads: the same board pays one more gold a paying shop once the Market
    Hall is in effect, whichever was read first."""
    base = given(setup_event(3), started(0), *STREETS, bought(0, "shop", "red"))
    near = given(built(0, "SAN_DONATO:r2c4", "red"), state=base)
    hall = RULES.copy_state(near)
    hall.effective = [(*hall.effective[0], data.MARKET_HALL), *hall.effective[1:]]
    assert best_incomes(near)[0] == 2
    assert best_incomes(hall)[0] == 3
    evaluate_module._INCOMES.clear()
    assert best_incomes(hall)[0] == 3 and best_incomes(near)[0] == 2


@pytest.mark.parametrize("seats,seed", [(2, 4), (3, 6), (4, 9)])
def test_incomes_read_from_the_cache_are_incomes_from_scratch_along_random_games(seats, seed):
    """Along random games played by the pure fold and by the in-place path (which changes the board in place),
    ``best_incomes`` read with the cache filled by every earlier position equals the incomes computed afresh."""
    paying = 0
    for state, live in lockstep_positions(RULES, seats, seed, 1500):
        fresh = list(evaluate_module._best_incomes(state))
        assert best_incomes(state) == fresh
        assert best_incomes(live) == fresh
        paying += any(fresh)
    assert RULES.is_over(state) and paying > 20  # shops paid in many of the positions checked


def test_easy_builds_the_shops_it_holds_instead_of_buying_a_palace():
    """Two shops in hand, each next to streets with customers of its colour, a build space and a palace stack in
    reach: easy builds both shops (before, it bought a palace and kept the shops in hand)."""
    state = before_move(0, *STREETS, bought(0, "shop", "red"), bought(0, "shop", "blue"), n=3, characters=[])
    chosen, after = own_turn(state)
    built = [c for c in chosen if c["type"] == "build_building"]
    assert {(c["face"], c["space"]) for c in built} == {("red", "SAN_DONATO:r2c4"), ("blue", "SAN_DONATO:r3c4")}
    assert after.hand[0] == ()
    assert best_incomes(after)[0] == 3


def test_easy_moves_a_ship_to_income_when_its_shops_pay_well():
    """The seed's income example (red shop 4 + blue shop 2) with the Income space free in front of a ship."""
    board = [
        *tile(0, "SACCA_MATTIA:r2c3", "shop", "red"),
        *tile(0, "SACCA_MATTIA:r2c1", "shop", "blue"),
        *tile(0, "SACCA_MATTIA:r1c3", "street", "ST_R"),
        *tile(0, "SACCA_MATTIA:r3c3", "street", "ST_R"),
        *tile(0, "SACCA_MATTIA:r2c4", "street", "ST_RG"),
        *tile(0, "SACCA_MATTIA:r2c2", "street", "ST_RB"),
        *tile(0, "SACCA_MATTIA:r1c1", "street", "ST_B"),
    ]
    state = before_move(3, *board, gold(0, 0), n=3, characters=[])
    chosen, after = own_turn(state)
    assert [c["type"] for c in chosen] == ["move_ship", "act", "collect_income"]
    assert after.gold[0] == state.gold[0] + 6


def test_easy_games_use_ship_moves_income_building_and_hiring():
    """Three whole games of three easy bots: every action type the issue names is chosen, and no game is aborted."""
    kinds: Counter[str] = Counter()
    for seed in (1, 2, 3):
        events = RULES.setup(seed, 3, {})
        state = RULES.fold(events)
        bots = [make_bot("easy", seed=seed * 10 + s) for s in range(3)]
        while not RULES.is_over(state):
            seat = min(RULES.to_act(state))
            command = bots[seat].choose(RULES, state, seat)
            kinds[command["type"]] += 1
            new = RULES.decide(state, command, seat, rng_for(seed, len(events)))
            for event in new:
                state = RULES.evolve(state, event)
            events.extend(new)
        assert not state.aborted
    for kind in ("move_ship", "act", "collect_income", "build_building", "keep_character"):
        assert kinds[kind] > 0, (kind, kinds)
