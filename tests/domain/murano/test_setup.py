"""Setup (§4), the board data checks of §16.2, the protocol identity and the views of a fresh game."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from domain.murano import RULES, data
from domain.murano.board import geometry


def test_identity():
    assert RULES.name == "murano" and RULES.title == "Murano"
    assert (RULES.min_players, RULES.max_players) == (2, 4)
    with pytest.raises(ValueError):
        RULES.setup(1, 5, {})
    with pytest.raises(ValueError):
        RULES.setup(1, 3, {"variant": True})


@pytest.mark.parametrize("n", [2, 3, 4])
def test_supplies_per_player_count(n):
    state = RULES.fold(RULES.setup(11, n, {}))
    small = n < 4
    assert len(state.streets) == (35 if small else 42)
    assert state.factories == (11 if small else 12)
    assert Counter(state.shops) == ({"red": 3, "grey": 3, "blue": 3} if small else {"red": 4, "grey": 4, "blue": 4})
    assert len(state.palaces) == (11 if small else 12)
    assert (state.removed_palace is not None) == small
    assert state.special_tiles == (9 if small else 12)
    assert len(state.special_deck) == 15
    assert len(state.char_deck) == (33 if small else 35) and len(state.removed_chars) == 5
    if small:
        assert "C39" not in state.char_deck + list(state.removed_chars)
    assert len(geometry(n).islands) == (5 if small else 6)
    assert len(state.gondolas) == 4 * len(geometry(n).islands)
    assert state.gold == [5] * n and state.vp == [5] * n
    assert state.personal == [5] * n and state.general == [2] * n
    assert state.bag == (10, 10, 10)
    street_mix = Counter(state.streets)
    expected = Counter(data.STREET_COUNTS)
    if small:
        expected -= Counter(data.SMALL_GAME_REMOVED_STREETS)
    assert street_mix == expected
    assert sorted(state.ships) == sorted(data.ANCHORS)
    assert state.phase == "TURN" and state.active == state.start_seat


def test_setup_is_deterministic_per_seed():
    assert RULES.setup(5, 4, {}) == RULES.setup(5, 4, {})
    assert RULES.setup(5, 4, {}) != RULES.setup(6, 4, {})
    starts = {RULES.setup(seed, 4, {})[0]["start_seat"] for seed in range(40)}
    anchors = {RULES.setup(seed, 4, {})[0]["red_ship_anchor"] for seed in range(40)}
    assert starts == {0, 1, 2, 3} and len(anchors) > 4


def test_setup_event_is_redacted_for_everyone():
    event = RULES.setup(5, 3, {})[0]
    for seat in (None, 0, 1, 2):
        redacted = RULES.redact(event, seat)
        assert redacted["streets"] is None and redacted["characters"] is None
        assert redacted["removed_palace"] is None and redacted["removed_characters"] is None
        assert redacted["removed"]["characters"] == ["C39", "C40"]
    assert RULES.reveals(event)


def test_fresh_views_show_counts_not_orders():
    state = RULES.fold(RULES.setup(5, 4, {}))
    view = RULES.view(state, 0)
    text = json.dumps(view)
    for card in state.char_deck:
        assert f'"{card}"' not in text
    assert view["supplies"]["streets"] == 42 and view["supplies"]["character_deck"] == 35
    assert view["players"][0]["gold"] == 5 and view["pending"]["decision"] == "TURN"
    assert RULES.view(state, None)["viewer"] is None
    full = RULES.reveal_all(state)
    assert full["stacks"]["character_deck"] == state.char_deck


def test_grid_counts_and_adjacency_facts():
    expected = {"SACCA_MATTIA": (9, 11), "SAN_DONATO": (8, 10), "SAN_PIETRO_MARTIRE": (7, 8), "NAVAGERO": (6, 7),
                "SANTO_STEFANO": (6, 7), "SACCA_SERENELLA": (6, 7)}
    for n, paved, brown in ((3, 36, 43), (4, 42, 50)):
        g = geometry(n)
        assert (len(g.paved_spaces), len(g.brown_spaces)) == (paved, brown)
        for ii, name in enumerate(g.islands):
            spaces = g.island_spaces[ii]
            assert (sum(g.paved[s] for s in spaces), sum(not g.paved[s] for s in spaces)) == expected[name]
        for s in g.brown_spaces:
            assert any(g.paved[nb] for nb in g.neighbours[s]), g.space_ids[s]
        for s, nbs in enumerate(g.neighbours):
            assert all(g.island_of[nb] == g.island_of[s] for nb in nbs)
    assert sum(Counter(data.RING).values()) == 18 and len(set(data.ANCHORS)) == 8
    assert Counter(data.RING) == {"BUILD": 3, "BUY_GLASS_FACTORY": 2, "BUY_SHOP": 2, "BUY_PALACE": 2,
                                  "HIRE_CHARACTER": 2, "PLACE_GONDOLIER": 2, "TAKE_2_GOLD": 1,
                                  "BUY_SPECIAL_BUILDING": 1, "INCOME": 1, "PRODUCTION": 1, "GONDOLIERS": 1}
    customers = Counter()
    for face, count in data.STREET_COUNTS.items():
        for colour, k in data.STREET_FACES[face].items():
            customers[colour] += k * count
    assert customers == {"red": 14, "grey": 14, "blue": 14} and sum(data.STREET_COUNTS.values()) == 42


def test_pickle_and_equality_of_states():
    import pickle

    state = RULES.fold(RULES.setup(5, 2, {}))
    assert pickle.loads(pickle.dumps(state)) == state
    other = RULES.fold(RULES.setup(6, 2, {}))
    assert other != state


def test_colours_option_sets_seat_colours_and_own_gondola_prices():
    from domain.game import InvalidOptions
    from domain.murano import queries as q

    events = RULES.setup(3, 2, {"colours": "grey,white"})
    assert events[0]["colours"] == ["grey", "white"]
    state = RULES.fold(events)
    assert q.seat_price(state, 0, q.COLOUR_INDEX["grey"]) == 2 and q.seat_price(state, 0, 0) == 5
    for bad in ("grey", "grey,grey", "grey,pink", "white,brown,orange"):
        with pytest.raises(InvalidOptions):
            RULES.setup(3, 2, {"colours": bad})
    assert RULES.describe()["options"][0]["name"] == "colours"
