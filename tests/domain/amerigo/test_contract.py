"""Amerigo's contract: catalogue, command schemas, labels and views (see tests/domain/contract_checks.py)."""

from __future__ import annotations

import pytest

from domain.amerigo import RULES
from domain.amerigo import data as D
from domain.amerigo.decide import ALL_COMMANDS
from tests.domain.contract_checks import (
    check_catalogue,
    check_unknown_fields_refused,
    errors_of,
    play_and_check,
    validator,
)


def test_catalogue_lists_every_token_shape_and_tile():
    cat = check_catalogue(RULES)
    ids = {(c["kind"], c["id"]) for c in cat["components"]}
    assert {("progress_token", t) for t in D.PROGRESS_TOKENS} <= ids
    assert {("production_token", t) for ids_ in D.PRODUCTION_IDS.values() for t in ids_} <= ids
    assert {("tile_shape", s) for s in D.SHAPES} <= ids
    assert {("island_tile", t) for t in D.TILE_IDS} <= ids
    for tile in D.TILE_IDS:  # every square letter of every tile is explained
        assert set("".join(D.TILES[tile])) <= set(cat["codes"]["square"])
    assert cat["board"]["progress_track"]["vp"]["18"] == 15


def test_command_schemas_cover_exactly_what_decide_accepts():
    assert set(RULES.command_schemas()) == set(ALL_COMMANDS)
    check_unknown_fields_refused(RULES, {"type": "move_ship", "ship": 0, "to": {"r": 1, "c": 2}})
    v = validator(RULES.command_schemas()["move_ship"])
    assert not errors_of(v, {"type": "move_ship", "ship": 1, "to": {"frame": 3}})
    assert errors_of(v, {"type": "move_ship", "ship": 1, "to": {"frame": 3, "r": 1}})
    choose = validator(RULES.command_schemas()["choose_action"])
    assert not errors_of(choose, {"type": "choose_action", "colour": "white", "mode": "convert"})
    assert not errors_of(choose, {"type": "choose_action", "colour": "red"})
    assert errors_of(choose, {"type": "choose_action", "colour": "red", "mode": "advance"})
    assert errors_of(choose, {"type": "choose_action", "colour": "white"})


def view_ids(view):
    board = view["board"]
    yield from board["sel"]
    yield from "".join(board["rows"])
    yield from (c["commodity"] for c in board["commodities"])
    yield from (t["shape"] for t in board["tiles"])
    yield from view["production_display"]
    yield from (t for t in view["progress_display"].values() if t)
    yield from view["progress_display"]
    yield from view["tower"]
    yield from view["neutral_supply"]
    for p in view["players"]:
        yield from p["commodities"]
        yield from p["production"]
        yield from (t["token"] for t in p["progress_tokens"])
    if view["turn"]:
        yield view["turn"]["stage"]


@pytest.mark.parametrize("seats,seed", [(2, 1), (3, 2), (4, 3)])
def test_random_games_keep_the_contract(seats, seed):
    assert play_and_check(RULES, seats, seed, view_ids=view_ids) > 0


def test_take_gold_label_previews_the_gold():
    from domain.amerigo.queries import gold_for_taking

    state = RULES.fold(RULES.setup(2, 3, {}))
    seat = next(iter(RULES.to_act(state)))
    label = RULES.label(state, seat, {"type": "take_gold"})
    assert label == {
        "label": f"Take {gold_for_taking(state, seat)} gold instead of an action",
        "gain": gold_for_taking(state, seat),
    }


def test_every_anchor_in_the_catalogued_tiles_has_one_trading_post_and_back():
    for comp in RULES.catalogue()["components"]:
        if comp["kind"] != "island_tile":
            continue
        rows = comp["data"]["rows"]

        def around(r, c, rows=rows):
            return [
                rows[r + dr][c + dc]
                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if 0 <= r + dr < len(rows) and 0 <= c + dc < len(rows[0])
            ]

        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                if cell == "A":
                    assert around(r, c).count("T") == 1, (comp["id"], r, c)
                if cell == "T":
                    assert around(r, c).count("A") == 1, (comp["id"], r, c)
