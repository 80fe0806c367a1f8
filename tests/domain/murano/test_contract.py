"""Murano's contract: catalogue, command schemas, labels and views (see tests/domain/contract_checks.py)."""

from __future__ import annotations

import pytest

from domain.murano import RULES, data
from domain.murano.board import LARGE, SMALL
from domain.murano.decide import HANDLERS
from tests.domain.contract_checks import check_catalogue, check_unknown_fields_refused, play_and_check


def test_catalogue_lists_every_card_and_a_symmetric_board():
    cat = check_catalogue(RULES)
    ids = {(c["kind"], c["id"]) for c in cat["components"]}
    assert {("character", c) for c in data.CHARACTERS} <= ids
    assert {("special_card", c) for c in data.SPECIAL_CARDS} <= ids
    assert {("street", f) for f in data.STREET_FACES} <= ids
    for key, geometry in (("geometry_2_3_players", SMALL), ("geometry_4_players", LARGE)):
        spaces = {s["id"]: s for s in cat["board"][key]["spaces"]}
        assert set(spaces) == set(geometry.space_ids)
        for sid, space in spaces.items():
            for other in space["neighbours"]:
                assert sid in spaces[other]["neighbours"], f"{sid} -> {other} is not symmetric"
    assert len(cat["board"]["ring"]) == data.RING_SIZE


def test_command_schemas_cover_exactly_what_decide_dispatches_on():
    assert set(RULES.command_schemas()) == set(HANDLERS)
    check_unknown_fields_refused(RULES, {"type": "produce", "factories": 1})


def test_removed_components_are_data():
    state = RULES.fold(RULES.setup(3, 2, {}))
    removed = RULES.view(state, None)["removed"]
    assert removed["streets"] == data.SMALL_GAME_REMOVED_STREETS
    assert removed["glass_factories"] == data.SMALL_GAME_REMOVED_FACTORIES


def view_ids(view):
    yield from view["islands"]
    yield from view["ring"]
    for cell in view["board"]:
        yield cell["space"]
        yield cell["kind"]
        if cell["face"] is not None:
            yield str(cell["face"])
    for p in view["players"]:
        yield p["colour"]
        yield from p["characters"] or ()
        yield from p["special_cards"]
        yield from p["beads"]
        for tile in p["hand"]:
            yield tile["kind"]
            if tile["face"] is not None:
                yield str(tile["face"])
    for g in view["gondolas"]:
        yield g["island"]
        yield g["colour"]
    yield view["pending"]["decision"]
    yield from view["removed"].get("characters", ())


@pytest.mark.parametrize("seats,seed", [(2, 1), (3, 2), (4, 3)])
def test_random_games_keep_the_contract(seats, seed):
    assert play_and_check(RULES, seats, seed, view_ids=view_ids) > 0


def test_move_and_seat_labels_preview_the_gold():
    from domain.murano import queries as q

    state = RULES.fold(RULES.setup(5, 3, {}))
    seat = state.active
    move = next(c for c in RULES.legal_commands(state, seat) if c["type"] == "move_ship")
    label = RULES.label(state, seat, move)
    assert label["cost"] == 0 and label["label"].startswith(f"Move ship {move['ship']} to space {move['to']}")
    passing = next(c for c in RULES.legal_commands(state, seat) if c["type"] == "pass")
    assert RULES.label(state, seat, passing)["gain"] == data.PASS_GOLD
    own = data.PLAYER_COLOURS.index(state.colours[seat])
    assert q.seat_price(state, seat, own) == data.SEAT_OWN_PRICE
    seat_cmd = {"type": "seat_gondolier", "island": "NAVAGERO", "colour": state.colours[seat]}
    assert RULES.label(state, seat, seat_cmd)["cost"] == data.SEAT_OWN_PRICE
