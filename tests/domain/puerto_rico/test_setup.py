"""Set-up per player count (rules §1.1, §2, §14) and the options."""

from __future__ import annotations

import pytest

from domain.game import InvalidOptions
from domain.puerto_rico import RULES
from domain.puerto_rico.data import BUILDINGS, CORN, INDIGO
from tests.domain.puerto_rico.helpers import new_game


def test_identity():
    assert RULES.name == "puerto_rico" and RULES.title == "Puerto Rico"
    assert (RULES.min_players, RULES.max_players) == (2, 5)
    names = {o.name for o in RULES.options_schema}
    assert {"variant", "random_first_governor", "hide_vp_chips", "max_rounds"} <= names


@pytest.mark.parametrize(
    ("seats", "doubloons", "vp", "supply", "ship", "caps", "roles", "row", "starting"),
    [
        (3, 2, 75, 55, 3, (4, 5, 6), 6, 4, [INDIGO, INDIGO, CORN]),
        (4, 3, 100, 75, 4, (5, 6, 7), 7, 5, [INDIGO, INDIGO, CORN, CORN]),
        (5, 4, 122, 95, 5, (6, 7, 8), 8, 6, [INDIGO, INDIGO, INDIGO, CORN, CORN]),
    ],
)
def test_setup_per_player_count(seats, doubloons, vp, supply, ship, caps, roles, row, starting):
    s = new_game(seats)
    assert [p.doubloons for p in s.players] == [doubloons] * seats
    assert s.vp_supply == vp
    assert s.colonist_supply == supply and s.colonist_ship == ship  # D27: ship colonists come from outside
    assert s.ship_caps == caps and s.ship_kinds == [-1] * 3 and s.ship_loads == [0] * 3
    assert len(s.role_names) == roles and s.role_money == [0] * roles
    assert sum(s.face_up) == row
    # D33: starting plantations come out of the 50 plantation tiles
    for seat, kind in enumerate(starting):
        tiles = s.players[seat].tiles
        assert tiles[kind] == 1 and sum(tiles) == 1 and s.players[seat].manned == [0] * 6
    assert len(s.stack) + sum(s.face_up) + seats == 50
    assert s.quarries == 8
    assert s.goods_supply == [10, 11, 11, 9, 9]
    assert s.building_supply == [b.copies for b in BUILDINGS]
    assert s.phase == "pick" and s.current == 0 and s.governor == 0
    assert RULES.to_act(s) == {0}


def test_five_players_have_two_separate_prospectors():
    s = new_game(5)
    assert s.role_names[-2:] == ("prospector", "prospector_2")
    assert new_game(3).role_names == ("settler", "mayor", "builder", "craftsman", "trader", "captain")


def test_two_player_variant_setup():
    s = new_game(2)
    assert s.variant == "official_2p"
    assert [p.doubloons for p in s.players] == [3, 3]
    assert s.players[0].tiles[INDIGO] == 1 and s.players[1].tiles[CORN] == 1
    assert sum(s.face_up) == 3 and s.quarries == 5
    assert len(s.stack) + 3 + 2 == 35
    assert s.building_supply == [2] * 6 + [1] * 17
    assert s.vp_supply == 65 and s.colonist_supply == 40 and s.colonist_ship == 2
    assert s.goods_supply == [8, 9, 9, 7, 7]
    assert s.ship_caps == (4, 6)
    assert len(s.role_names) == 7 and s.picks_per_round == 6


def test_variant_option_checks_the_seat_count():
    assert RULES.validate_options({}, 2)["variant"] == "official_2p"
    assert RULES.validate_options({}, 4)["variant"] == "standard"
    with pytest.raises(InvalidOptions):
        RULES.validate_options({"variant": "official_2p"}, 3)
    with pytest.raises(InvalidOptions):
        RULES.validate_options({"variant": "standard"}, 2)
    with pytest.raises(InvalidOptions):
        RULES.setup(1, 6, {})
    with pytest.raises(InvalidOptions):
        RULES.setup(1, 4, {"colour": "red"})


def test_random_first_governor_is_drawn_and_gets_the_first_starting_tile():
    """D31: seat 0 by default, RNG option."""
    governors = set()
    for seed in range(12):
        events = RULES.setup(seed, 4, {"random_first_governor": True})
        s = RULES.fold(events)
        g = events[0]["first_governor"]
        governors.add(g)
        assert s.governor == g and s.current == g
        assert s.players[g].tiles[INDIGO] == 1 and s.players[(g + 2) % 4].tiles[CORN] == 1
        assert RULES.reveals(events[0])
    assert len(governors) > 1
    assert not RULES.reveals(RULES.setup(1, 4, {})[0])


def test_setup_is_deterministic_and_the_shuffle_is_hidden():
    a, b = RULES.setup(5, 4, {}), RULES.setup(5, 4, {})
    assert a == b
    shuffle = a[1]
    assert shuffle["type"] == "PlantationStackShuffled" and RULES.reveals(shuffle)
    for seat in (None, 0, 1, 2, 3):
        assert RULES.redact(shuffle, seat) == {"type": "PlantationStackShuffled", "size": len(shuffle["plantations"])}
    dealt = a[2]
    assert dealt["plantations"] == shuffle["plantations"][:5]
    s = RULES.fold(a)
    assert "face_down_stack" not in RULES.view(s, 0) and RULES.view(s, 0)["face_down_stack_size"] == len(s.stack)
    assert RULES.reveal_all(s)["face_down_stack"] == shuffle["plantations"][5:]
