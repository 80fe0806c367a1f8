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
    expected = {
        "SACCA_MATTIA": (10, 10),
        "SAN_DONATO": (8, 10),
        "SAN_PIETRO_MARTIRE": (6, 9),
        "NAVAGERO": (6, 7),
        "SANTO_STEFANO": (6, 7),
        "SACCA_SERENELLA": (6, 7),
    }
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
    assert Counter(data.RING) == {
        "BUILD": 3,
        "BUY_GLASS_FACTORY": 2,
        "BUY_SHOP": 2,
        "BUY_PALACE": 2,
        "HIRE_CHARACTER": 2,
        "PLACE_GONDOLIER": 2,
        "TAKE_2_GOLD": 1,
        "BUY_SPECIAL_BUILDING": 1,
        "INCOME": 1,
        "PRODUCTION": 1,
        "GONDOLIERS": 1,
    }
    customers = Counter()
    for face, count in data.STREET_COUNTS.items():
        for colour, k in data.STREET_FACES[face].items():
            customers[colour] += k * count
    assert customers == {"red": 14, "grey": 14, "blue": 14} and sum(data.STREET_COUNTS.values()) == 42


def _connected(spaces: set[int], g) -> bool:
    if not spaces:
        return True
    start = next(iter(spaces))
    seen, todo = {start}, [start]
    while todo:
        for nb in g.neighbours[todo.pop()]:
            if nb in spaces and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen == spaces


@pytest.mark.parametrize("players,streets,buildings", [(3, 35, 40), (4, 42, 48)])
def test_grid_properties_of_section_2_2_hold_after_the_income_redesign(players, streets, buildings):
    """§2.2 checked properties, re-checked for the v1.1 grids (§2.2a): every brown space touches a paved space;
    each island and its paved spaces are connected; every street finds a paved space and, whichever paved space
    stays empty, enough brown spaces become buildable for every building tile."""
    g = geometry(players)
    assert len(g.paved_spaces) >= streets and len(g.brown_spaces) >= buildings
    removed = sum(data.SMALL_GAME_REMOVED_STREETS.values()) if players < 4 else 0
    assert sum(data.STREET_COUNTS.values()) - removed == streets
    paved_nbs = {b: {nb for nb in g.neighbours[b] if g.paved[nb]} for b in g.brown_spaces}
    assert all(paved_nbs.values())
    for spaces in g.island_spaces:
        assert _connected(set(spaces), g)
        assert _connected({s for s in spaces if g.paved[s]}, g)
    spare = len(g.paved_spaces) - streets  # paved spaces left empty once every street lies on the board
    assert spare in (0, 1)
    empties = [set()] if spare == 0 else [{p} for p in g.paved_spaces]
    for empty in empties:
        buildable = sum(1 for b, nbs in paved_nbs.items() if nbs - empty)
        assert buildable >= buildings, (empty, buildable)


@pytest.mark.parametrize("players", [3, 4])
def test_a_shop_can_earn_four_from_its_colour_beside_another_shop(players):
    """§2.2a (v1.1): some brown space touches 4 paved spaces (one customer of a colour on each earns 4), on an
    island where another brown space touches at least 2 (the seed's red 4 + blue 2)."""
    g = geometry(players)
    found = []
    for ii, spaces in enumerate(g.island_spaces):
        counts = {s: sum(1 for nb in g.neighbours[s] if g.paved[nb]) for s in spaces if not g.paved[s]}
        if any(k >= 4 for k in counts.values()) and sum(1 for k in counts.values() if k >= 2) >= 2:
            found.append(g.islands[ii])
    assert found
    red_bearing = sum(n for face, n in data.STREET_COUNTS.items() if data.STREET_FACES[face].get("red"))
    assert red_bearing - (1 if players < 4 else 0) >= 4


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
