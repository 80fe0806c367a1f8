"""Archipelago's contract: catalogue, command schemas, labels and views (see tests/domain/contract_checks.py)."""

from __future__ import annotations

import pytest

from domain.archipelago import RULES
from domain.archipelago import data as D
from domain.archipelago.decide import HANDLERS
from tests.domain.archipelago.fixtures import do, island
from tests.domain.contract_checks import (
    check_catalogue,
    check_unknown_fields_refused,
    errors_of,
    play_and_check,
    validator,
)


def test_catalogue_lists_every_card_tile_objective_and_trend():
    cat = check_catalogue(RULES)
    ids = {c["id"] for c in cat["components"]}
    assert set(D.CARD_IDS) | set(D.TILE_IDS) | set(D.OBJECTIVES) | set(D.TRENDS) <= ids
    for tid in D.TILE_IDS:
        for face in D.EXPLORATION_TILES[tid].values():
            assert set(face.edges) <= set(cat["codes"]["edge"])
            assert set(face.icons) <= set(cat["codes"]["resource"])


def test_command_schemas_cover_exactly_what_decide_dispatches_on():
    assert set(RULES.command_schemas()) == set(HANDLERS) | {"stand"}
    check_unknown_fields_refused(RULES, {"type": "bid", "amount": 2})


def test_use_card_takes_only_the_fields_its_card_reads():
    v = validator(RULES.command_schemas()["use_card"])
    assert not errors_of(v, {"type": "use_card", "card": "C18", "ship": "s0-1", "victim": 1})
    assert not errors_of(v, {"type": "use_card", "card": "C06"})
    assert errors_of(v, {"type": "use_card", "card": "C06", "victim": 1})  # the missionary takes no victim
    assert errors_of(v, {"type": "use_card", "card": "C18", "ship": "s0-1"})  # the pirate needs one
    assert errors_of(v, {"type": "use_card", "card": "Z99"})


@pytest.mark.parametrize(
    "seats,seed,options",
    [
        (2, 1, {}),
        (3, 2, {"length": "short"}),
        (4, 3, {"more_fun": True}),
        (5, 4, {"no_secrets": True, "length": "short"}),
    ],
)
def test_random_games_keep_the_contract(seats, seed, options):
    assert play_and_check(RULES, seats, seed, options, view_every=11, view_ids=view_ids) > 0


def view_ids(view):
    yield view["phase"]
    if view["prompt"]:
        yield view["prompt"]
    yield from view["bank"]
    yield from (m["card"] for m in view["market"] if m)
    yield from view["evolution_discard"]
    yield from view["trends"]
    yield from view["table_objectives"]
    for tile in view["tiles"]:
        yield tile["tile"]
        yield from tile["icons"]
        yield from tile["edges"]
        yield from tile["buildings"]
    for unit in view["units"]:
        yield unit["unit"]
    for p in view["players"]:
        yield from p.get("objectives", ())
        yield from (h["tile"] for h in p.get("hand", ()))


def test_offer_and_card_labels_say_what_changes_hands():
    state = RULES.fold(RULES.setup(1, 3, {}))
    label = RULES.label(state, 0, {"type": "offer_add", "side": "GET", "item": {"kind": "CUBE", "resource": "FISH"}})
    assert label == {"label": "Ask for a fish cube"}
    pirate = {"type": "use_card", "card": "C18", "ship": "s0-1", "victim": 2}
    assert RULES.label(state, 0, pirate) == {"label": "Use Pirate: loot seat 3 with s0-1"}


def test_hex_directions_are_symmetric_and_edges_match_them():
    board = RULES.catalogue()["board"]
    directions = [tuple(d) for d in board["hex_directions"]]
    assert len(set(directions)) == 6
    for q, r in directions:
        assert (-q, -r) in directions  # a neighbour's neighbour in the opposite direction is the tile itself
    for comp in RULES.catalogue()["components"]:
        for face in comp["data"].get("faces", {}).values():
            assert len(face["edges"]) == len(directions)


def test_harvest_labels_name_the_unit_and_the_resource_of_the_icon():
    st = island()  # E07 face A: icon 0 cattle, icon 2 wood; c0-91 stands on E07
    st, _ = do(st, {"type": "harvest", "resource": "WOOD", "with": []})
    label = RULES.label(st, 0, {"type": "harvest_assign", "unit": "c0-91", "icon": 2})
    assert label == {"label": "Put citizen c0-91 on E07's wood icon (icon 3)"}
