"""The Puerto Rico plans of the plan bots (domain/puerto_rico/evaluate.py): each pulls towards its strategy,
on top of the plain evaluation, and an unknown plan is refused."""

from __future__ import annotations

import pytest

from domain.puerto_rico.evaluate import evaluate, plan_evaluation
from tests.domain.puerto_rico.helpers import give, new_game


def gain(plan, **board):
    """What the plan adds to the plain evaluation of seat 0 once seat 0 has ``board``."""
    s = new_game(4)
    give(s, 0, **board)
    return plan_evaluation(plan)(s, 0) - evaluate(s, 0)


def test_unknown_plan_is_refused():
    with pytest.raises(ValueError, match="unknown Puerto Rico plan 'tobacco'; known: shipping, building"):
        plan_evaluation("tobacco")


def test_the_plan_is_added_to_the_plain_evaluation_of_the_seat():
    s = new_game(4)
    give(s, 1, buildings={"harbor": 1})
    plain = [evaluate(s, seat) for seat in range(4)]
    shipping = [plan_evaluation("shipping")(s, seat) for seat in range(4)]
    # seats 0 and 1 start with indigo, no goods: the manned harbor (+3 owned, +3 manned) is all seat 1 gains
    assert shipping[1] - plain[1] == pytest.approx(6.0) and shipping[0] == pytest.approx(plain[0])


def test_shipping_plan_values_harbor_wharf_warehouses_corn_and_goods():
    base = gain("shipping")
    assert gain("shipping", buildings={"harbor": 0}) == pytest.approx(base + 3.0)
    assert gain("shipping", buildings={"harbor": 1}) == pytest.approx(base + 6.0)
    assert gain("shipping", buildings={"wharf": 1}) == pytest.approx(base + 6.0)
    assert gain("shipping", buildings={"small_warehouse": 1}) == pytest.approx(base + 1.5)
    assert gain("shipping", buildings={"large_warehouse": 0}) == pytest.approx(base + 1.0)
    assert gain("shipping", buildings={"customs_house": 1}) == pytest.approx(base + 4.0)
    assert gain("shipping", goods={"sugar": 4}) == pytest.approx(base + 1.0)
    assert gain("shipping", tiles={"corn": (3, 2)}) - gain("shipping", tiles={"corn": (3, 0)}) == pytest.approx(1.2)


def test_building_plan_values_quarries_kinds_factory_large_buildings_and_money():
    base = gain("building", doubloons=0)
    assert gain("building", doubloons=0, tiles={"quarry": (2, 1)}) == pytest.approx(base + 1.6 + 0.6)
    assert gain("building", doubloons=0, buildings={"factory": 1}) == pytest.approx(base + 6.0)
    assert gain("building", doubloons=0, buildings={"university": 1}) == pytest.approx(base + 1.5)
    assert gain("building", doubloons=0, buildings={"guild_hall": 0}) == pytest.approx(base + 2.0)
    assert gain("building", doubloons=0, buildings={"city_hall": 1}) == pytest.approx(base + 4.0)
    # production kinds count only when the building is occupied, each kind once
    two_kinds = {"indigo_plant": 1, "small_indigo_plant": 1, "sugar_mill": 1, "coffee_roaster": 0}
    assert gain("building", doubloons=0, buildings=two_kinds) == pytest.approx(base + 1.6)
    assert gain("building", doubloons=4) == pytest.approx(base + 0.6)
    assert gain("building", doubloons=30) == pytest.approx(base + 1.5)  # money counts up to 10
