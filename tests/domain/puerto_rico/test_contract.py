"""Puerto Rico's contract: catalogue, command schemas, labels and views (see tests/domain/contract_checks.py)."""

from __future__ import annotations

import random

import pytest

from domain.puerto_rico import RULES
from domain.puerto_rico.data import BUILDING_NAMES, TILE_NAMES, role_cards
from domain.puerto_rico.decide import _SPECS
from tests.domain.contract_checks import check_catalogue, check_unknown_fields_refused, play_and_check
from tests.domain.puerto_rico.helpers import new_game


def test_catalogue_lists_every_building_role_and_tile():
    cat = check_catalogue(RULES)
    by_kind = {}
    for comp in cat["components"]:
        by_kind.setdefault(comp["kind"], set()).add(comp["id"])
    assert by_kind["building"] == set(BUILDING_NAMES)
    assert by_kind["role"] == set(role_cards(2))
    assert by_kind["plantation"] | by_kind["quarry"] == set(TILE_NAMES)
    small_market = next(c for c in cat["components"] if c["id"] == "small_market")
    assert (small_market["cost"], small_market["points"], small_market["count"]) == (1, 1, 2)


def test_command_schemas_are_the_table_parse_reads():
    assert set(RULES.command_schemas()) == set(_SPECS)
    for ctype, fields in _SPECS.items():
        assert set(RULES.command_schemas()[ctype]["required"]) == {"type", *(name for name, _ in fields)}


def test_a_command_with_an_unknown_field_or_a_wrong_type_does_not_match():
    check_unknown_fields_refused(RULES, {"type": "build", "building": "small_market"})
    from tests.domain.contract_checks import errors_of, validator

    v = validator(RULES.command_schemas()["load"])
    assert errors_of(v, {"type": "load", "good": "corn", "ship": "0"})
    assert errors_of(v, {"type": "load", "good": "gold", "ship": 0})


def test_build_label_shows_the_price_after_discounts():
    state = new_game(3)
    seat = state.current
    events = RULES.decide(state, {"type": "select_role", "role": "builder"}, seat, random.Random(0))
    state = RULES.fold(events, state)
    label = RULES.label(state, seat, {"type": "build", "building": "small_market"})
    assert label == {"label": "Build the small market for 0 doubloons", "cost": 0, "points": 1}
    other = (seat + 1) % 3
    assert RULES.label(state, other, {"type": "build", "building": "hacienda"})["cost"] == 2


def view_ids(view):
    yield view["phase"]
    if view["step"]:
        yield view["step"]
    yield from view["building_supply"]
    yield from (r["role"] for r in view["roles"])
    yield from view["goods_supply"]
    yield from view["face_up_plantations"]
    yield from (s["good"] for s in view["cargo_ships"] if s["good"])
    for p in view["players"]:
        yield from p["buildings"]
        yield from p["island"]
        yield from p["goods"]


@pytest.mark.parametrize("seats,seed", [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_random_games_keep_the_contract(seats, seed):
    assert play_and_check(RULES, seats, seed, view_ids=view_ids) > 0
