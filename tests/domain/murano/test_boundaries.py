"""Boundaries the other tests left open (found by mutation testing, docs/testing.md), each pinned from the rules
text of docs/rules/murano.md: the board's adjacency (§2.2, §2.3), the Arsenale fallback of the completability
filter (§6.3), the formula language of the character cards (§13.2), the in-place fast path and the command labels."""

from __future__ import annotations

import random

import pytest

from domain.contract import default_label
from domain.murano import RULES, data
from domain.murano import queries as q
from domain.murano.board import geometry
from domain.murano.formulas import FormulaError, compile_formula
from domain.murano.scoring import card_value
from tests.domain.murano.helpers import (
    before_move,
    bought,
    character,
    given,
    gold,
    legal,
    opening,
    play,
    ready,
    refused,
    seated,
    setup_event,
    special,
    started,
    street,
    tile,
    unavailable,
    vp,
)

# -- §2.2 / §2.3: spaces and adjacency --------------------------------------------------------------------------


def _ids(g, indices) -> set[str]:
    return {g.space_ids[i] for i in indices}


@pytest.mark.parametrize("players", [3, 4])
def test_navagero_spaces_and_orthogonal_adjacency(players):
    """§2.2: NAVAGERO = "BSB..", "BSSSB", ".B.SB", "..BS." (6 paved, 7 brown); §2.3: two spaces are adjacent iff
    they are on the same island and orthogonal neighbours."""
    g = geometry(players)
    nav = g.island_index["NAVAGERO"]
    spaces = _ids(g, g.island_spaces[nav])
    paved = {"NAVAGERO:r0c1", "NAVAGERO:r1c1", "NAVAGERO:r1c2", "NAVAGERO:r1c3", "NAVAGERO:r2c3", "NAVAGERO:r3c3"}
    brown = {"NAVAGERO:r0c0", "NAVAGERO:r0c2", "NAVAGERO:r1c0", "NAVAGERO:r1c4", "NAVAGERO:r2c1", "NAVAGERO:r2c4"}
    brown |= {"NAVAGERO:r3c2"}
    assert spaces == paved | brown
    assert _ids(g, g.paved_spaces) & spaces == paved
    assert _ids(g, g.brown_spaces) & spaces == brown
    assert not set(g.paved_spaces) & set(g.brown_spaces)
    assert sorted(g.paved_spaces + g.brown_spaces) == list(range(len(g.space_ids)))

    def around(name: str) -> set[str]:
        return _ids(g, g.neighbours[g.space_index[name]])

    assert around("NAVAGERO:r1c1") == {"NAVAGERO:r0c1", "NAVAGERO:r2c1", "NAVAGERO:r1c0", "NAVAGERO:r1c2"}
    assert around("NAVAGERO:r2c1") == {"NAVAGERO:r1c1"}  # the diagonals r1c0, r1c2 do not count
    assert around("NAVAGERO:r3c3") == {"NAVAGERO:r2c3", "NAVAGERO:r3c2"}  # r1c3 is two rows up
    assert around("NAVAGERO:r1c4") == {"NAVAGERO:r1c3", "NAVAGERO:r2c4"}
    # §2.3: every neighbour is on the same island, and adjacency is symmetric
    for i, nb in enumerate(g.neighbours):
        for j in nb:
            assert g.island_of[j] == g.island_of[i] and i in g.neighbours[j]
    # each island's spaces are exactly those of its own grid
    for index, name in enumerate(g.islands):
        cells = sum(ch in "SB" for row in data.ISLAND_GRIDS[name] for ch in row)
        assert len(g.island_spaces[index]) == cells
        assert all(g.space_ids[i].startswith(f"{name}:") for i in g.island_spaces[index])


# -- §6.3: the Arsenale owner's exhaustive fallback -------------------------------------------------------------


def test_arsenale_completion_that_only_the_fallback_finds():
    """§6.3, for the owner of Arsenale: "if this fast test finds no target, fall back to the definition above".
    The red ship stands on 3 with ships on 4 and 5 right ahead, so without Arsenale freeing 3 takes three moves
    forward before a fourth reaches it. With Arsenale the red ship joins the ship on 4 (rule (a) waived), and then
    the ship on 2 moves onto 3: two moves. Only the action on 3 is affordable."""
    ships = (3, 4, 5, 2, 9, 11, 13, 15)  # ship 0 (red) on 3
    needs = [q.INF] * data.RING_SIZE
    needs[3] = 0
    # one move made (k = 1): the next two moves cost 1 and 2 gold
    assert q.completable(ships, 1, 3, 4, needs, False, True)
    assert not q.completable(ships, 1, 2, 4, needs, False, True)  # one gold short
    assert not q.completable(ships, 1, 3, 4, needs, False, False)  # no Arsenale: four moves (1+2+3+4 gold)
    assert q.completable(ships, 1, 10, 4, needs, False, False)
    # Shipyard (moves 2 and 3 cost 0 and 1): one gold does it, none does not
    assert q.completable(ships, 1, 1, 4, needs, True, True)
    assert not q.completable(ships, 1, 0, 4, needs, True, True)


def test_arsenale_fallback_three_moves_deep():
    """§6.3 fallback, three moves: the red ship on 4 joins the ship on 5 (Arsenale), the ship on 3 moves up to 4,
    and the ship on 2 moves onto 3. From one move made (k = 1) these cost 1 + 2 + 3 = 6 gold; without Arsenale the
    ships on 4-7 all have to move on first (21 gold)."""
    ships = (4, 3, 5, 6, 7, 2, 11, 14)  # ship 0 (red) on 4, ship 1 on 3, ship 5 on 2
    needs = [q.INF] * data.RING_SIZE
    needs[3] = 0
    assert q.completable(ships, 1, 6, 0, needs, False, True)
    assert not q.completable(ships, 1, 5, 0, needs, False, True)
    assert not q.completable(ships, 1, 20, 0, needs, False, False)
    assert q.completable(ships, 1, 21, 0, needs, False, False)


# -- §13.2: the formula language ---------------------------------------------------------------------------------


def _env(opponents=(1, 2), **values):
    env = {k: 0 for k in ("GF", "GF_own", "GF_opp", "SH", "SH_own", "SH_opp", "PA", "CR", "SB", "BLD", "OWN")}
    env.update({k: 0 for k in ("OPP", "ST", "ST_NONE", "CU", "FREE_S", "FREE_B", "TYPES")})
    env.update({f"{n}[{c}]": 0 for n in ("SH", "CU") for c in ("red", "grey", "blue")})
    env["GF_of"] = [0, 0, 0, 0]
    env["SH_of"] = [0, 0, 0, 0]
    env["OPPONENTS"] = list(opponents)
    env.update(values)
    return env


def test_a_product_reads_both_factors():
    """§13.2: prod := atom ('*' atom)*, any atom on either side."""
    assert compile_formula("GF * 3")(_env(GF=2), None) == 6
    assert compile_formula("GF * PA * 2")(_env(GF=2, PA=5), None) == 20


def test_per_player_counts_inside_if_and_or_of_a_quantifier():
    """§13.2: inside ANY/ALL(q in OPPONENTS: ...) every NAME(q) is read for the bound opponent, also inside an IF,
    and on either side of 'and' / 'or'."""
    env = _env(GF_of=[0, 3, 0, 0], SH_of=[0, 0, 2, 0])
    assert compile_formula("IF(ANY(q in OPPONENTS: IF(GF_of(q) >= 1, GF_of(q)) == 3), 1)")(env, None) == 1
    assert compile_formula("IF(ANY(q in OPPONENTS: GF_of(q) == 3 or SH_of(q) == 9), 1)")(env, None) == 1
    assert compile_formula("IF(ANY(q in OPPONENTS: SH_of(q) == 9 or GF_of(q) == 3), 1)")(env, None) == 1
    assert compile_formula("IF(ANY(q in OPPONENTS: SH_of(q) == 2 and GF_of(q) == 0), 1)")(env, None) == 1
    assert compile_formula("IF(ANY(q in OPPONENTS: GF_of(q) == 0 and SH_of(q) == 2), 1)")(env, None) == 1
    assert compile_formula("IF(ALL(q in OPPONENTS: GF_of(q) == 3 or SH_of(q) == 2), 1)")(env, None) == 1
    assert compile_formula("IF(ALL(q in OPPONENTS: GF_of(q) == 3 and SH_of(q) == 0), 1)")(env, None) == 0


def test_quantifier_grammar():
    """§13.2: ('ANY' | 'ALL') '(' 'q' 'in' 'OPPONENTS' ':' cond ')'; NAME(q) only inside ANY/ALL, also nested."""
    with pytest.raises(FormulaError):
        compile_formula("IF(ANY(p in OPPONENTS: GF_of(q) == 1), 1)")
    with pytest.raises(FormulaError):  # after the quantifier closes, q is no longer bound
        compile_formula("IF(ANY(q in OPPONENTS: GF_of(q) == 1) and GF_of(q) == 1, 1)")
    nested = compile_formula("IF(ALL(q in OPPONENTS: ANY(q in OPPONENTS: GF == 1) and GF_of(q) == 0), 1)")
    assert nested(_env(GF=1), None) == 1


def test_formula_errors_name_what_is_wrong():
    with pytest.raises(FormulaError, match="unexpected '3'"):
        compile_formula("GF 3")
    with pytest.raises(FormulaError, match="expected a comparison, found ','"):
        compile_formula("IF(GF, 3)")


# -- §13.2 counts on an island ----------------------------------------------------------------------------------


def test_two_palaces_on_an_island_count_twice():
    """§13.2: PA = palaces on I, CR = crests on all of them; C12 = 4 * PA, C11 = 2 * CR,
    C24 = IF(GF == 0 and PA >= 2, 10), C38 (Santo Stefano) = 3 * (GF + PA)."""
    state = given(
        setup_event(),
        *street("NAVAGERO:r1c1"),
        *tile(0, "NAVAGERO:r1c0", "palace", 1),
        *tile(0, "NAVAGERO:r2c1", "palace", 3),
        started(0),
    )
    nav = geometry(4).island_index["NAVAGERO"]
    assert card_value(state, "C12", 0, nav) == 8
    assert card_value(state, "C11", 0, nav) == 8
    assert card_value(state, "C24", 0, nav) == 10
    assert card_value(state, "C27", 0, nav) == 3  # 1 * (BLD + ST)


# -- §14: the final-turn free placement --------------------------------------------------------------------------


def test_free_placement_refuses_a_space_without_a_street_and_says_why():
    """§14: the bought tile may be placed on any unoccupied brown space orthogonally adjacent to a street tile."""
    state = ready(5, *street("NAVAGERO:r1c1"), seat=1, glass_factories=0, palaces=[3])
    state, _ = play(state, {"type": "act"}, {"type": "choose_buy_mode", "mode": "top"})
    err = refused(state, {"type": "place_tile", "space": "NAVAGERO:r1c4"})
    assert err.message == "a building needs an unoccupied brown space next to a street tile"


# -- the in-place fast path -------------------------------------------------------------------------------------


def test_the_in_place_fast_path_plays_turn_after_turn_on_one_state():
    """``play`` folds straight into a state it owns; playing one opening after another on that same state
    gives the events and the state of decide + evolve (a cache kept on the state must stay readable)."""
    state = RULES.fold(opening())
    fast = RULES.copy_state(state)
    for i in range(12):
        seat = state.active
        options = RULES.legal_commands(state, seat)
        preferred = [c for c in options if c["type"] in ("move_ship", "act")]  # both read the cached needs
        command = (preferred or options)[i % 2 if len(preferred or options) > 1 else 0]
        events = RULES.decide(state, command, seat, random.Random(i))
        assert RULES.play(fast, command, seat, random.Random(i)) == events
        for event in events:
            state = RULES.evolve(state, event)
        assert fast == state


# -- labels ------------------------------------------------------------------------------------------------------


def _label(state, command) -> str:
    return RULES.label(state, state.active, command)["label"]


def test_labels_name_the_action_the_mode_the_face_and_the_character():
    state = RULES.fold(opening())
    assert _label(state, {"type": "pass", "ship": 6, "to": 14}) == (
        "Pass: move ship 6 to space 14 (buy glass factory) and take 1 gold"
    )
    take = before_move(13)
    assert _label(take, {"type": "pass", "ship": 0, "to": 13}).startswith("Pass: move ship 0 to space 13 (take 2 gold)")
    shop = ready(2)
    shop, _ = play(shop, {"type": "act"})
    assert RULES.label(shop, 0, {"type": "choose_buy_mode", "mode": "top"}) == {
        "label": "Buy the top tile unseen for 2 gold",
        "cost": 2,
    }
    assert RULES.label(shop, 0, {"type": "choose_buy_mode", "mode": "choose"}) == {
        "label": "Look through the stack and choose a tile for 4 gold",
        "cost": 4,
    }
    palace = ready(5, palaces=[3, 1, 2])
    palace, _ = play(palace, {"type": "act"}, {"type": "choose_buy_mode", "mode": "choose"})
    assert _label(palace, {"type": "pick_tile", "face": 2}) == "Take the palace with 2 crests"
    shop, _ = play(shop, {"type": "choose_buy_mode", "mode": "choose"})
    assert _label(shop, {"type": "pick_tile", "face": "red"}) == "Take the red shop"
    build = ready(7, bought(0, "palace", 3))
    build, _ = play(build, {"type": "act"})
    palace_cmd = {"type": "build_building", "kind": "palace", "face": 3, "space": "NAVAGERO:r1c0"}
    assert RULES.label(build, 0, palace_cmd) == {
        "label": "Build a palace with 3 crests on Navagero, row 2, column 1",
        "points": 3,
    }
    produce = ready(6, *tile(0, "SACCA_MATTIA:r0c1", "glass_factory"), *tile(0, "SACCA_MATTIA:r0c2", "glass_factory"))
    produce, _ = play(produce, {"type": "act"})
    assert RULES.label(produce, 0, {"type": "produce", "factories": 1}) == {
        "label": "Use 1 factory for 2 VP",
        "points": -2,
    }
    assert _label(produce, {"type": "produce", "factories": 2}) == "Use 2 factories for 4 VP"
    assert _label(produce, {"type": "stop_assigning"}) == "Stop assigning characters"  # §15, lenient variant
    assert RULES.label(produce, 0, {"type": "wave"}) == {"label": default_label({"type": "wave"})}
    hire = ready(10, character(0, "C40"), characters=["C05", "C01", "C02"])
    hire, _ = play(hire, {"type": "act"})
    assert RULES.label(hire, 0, {"type": "keep_character", "card": "C01"}) == {
        "label": f"Hire {data.CHARACTERS['C01'][0]} for 2 gold",
        "cost": 2,
    }


# -- §5.1: what determinize may resample --------------------------------------------------------------------------


def test_an_opponents_drawn_characters_are_resampled_but_the_hirers_are_kept():
    """§5.1: the 1-3 cards drawn at HIRE_CHARACTER are shown to the hirer only."""
    deck = ["C05", "C01", "C02", "C03", "C04", "C06", "C07", "C08", "C09", "C10"]
    state = ready(10, characters=deck)
    state, _ = play(state, {"type": "act"})
    assert state.drawn == ("C05", "C01", "C02")
    seen = set()
    for seed in range(30):
        assert RULES.determinize(state, 0, random.Random(seed)).drawn == ("C05", "C01", "C02")
        theirs = RULES.determinize(state, 1, random.Random(seed))
        assert len(theirs.drawn) == 3 and all(card in data.CHARACTERS for card in theirs.drawn)
        seen.add(theirs.drawn)
    assert len(seen) > 1


def test_the_special_deck_order_is_resampled_and_drawn_special_cards_stay_special_cards():
    """§5.1: the special-building deck's order is hidden from everyone, and the cards drawn when a special building
    is built are shown to the builder only; character cards and special cards are different decks."""
    cards = ["SB03", "SB07", "SB12", "SB01", "SB02", "SB04", "SB05"]
    state = ready(7, bought(0, "special_building"), *street("NAVAGERO:r1c1"), special_cards=cards)
    state, _ = play(
        state,
        {"type": "act"},
        {"type": "build_building", "kind": "special_building", "face": None, "space": "NAVAGERO:r2c1"},
    )
    assert state.drawn == ("SB03", "SB07", "SB12")
    decks, drawn = set(), set()
    for seed in range(30):
        theirs = RULES.determinize(state, 1, random.Random(seed))
        assert all(card in data.CHARACTERS for card in [*theirs.char_deck, *theirs.removed_chars])
        assert all(card in data.SPECIAL_CARDS for card in [*theirs.special_deck, *theirs.drawn])
        assert sorted([*theirs.special_deck, *theirs.drawn]) == sorted(cards)
        decks.add(tuple(theirs.special_deck))
        drawn.add(theirs.drawn)
    assert len(decks) > 1 and len(drawn) > 1


def test_evaluate_counts_a_special_card_as_an_asset():
    """§12: a special-building card is a permanent ability; holding one is never worse."""
    state = ready(10)
    assert RULES.evaluate(RULES.fold([special(0, "SB09")], state), 0) > RULES.evaluate(state, 0)


# -- §4, §7, §5.1: the opening turn, gondolier hire refusals, a later seat's returned cards --------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_game_opens_with_an_ordinary_turn_of_the_start_player(seats):
    """§4 step 8 and §14: the start player takes the first turn; final turns come only after the end trigger."""
    events = RULES.setup(3, seats, {})
    first = events[-1]
    assert first == {"type": "TurnStarted", "seat": events[0]["start_seat"], "final": False}
    state = RULES.fold(events)
    assert not state.end_triggered and state.final_queue == ()


def test_hire_gondolier_refusal_says_what_it_needs():
    """§7 GONDOLIERS: HIRE needs gold >= 3, owned < 7 and a gondolier of your colour in the general supply."""
    state = ready(9, gold(0, -3))
    state, _ = play(state, {"type": "act"})
    err = refused(state, {"type": "hire_gondolier"})
    assert err.message == ("hiring needs 3 gold, fewer than 7 gondoliers owned and one of yours in the general supply")


def test_a_later_seat_remembers_the_characters_it_put_under_the_deck():
    """§5.1: the hirer remembers which cards went under the deck, in which order; nobody else does."""
    deck = ["C05", "C01", "C02", "C03", "C04"]
    state = ready(10, characters=deck, seat=2)
    state, _ = play(state, {"type": "act"}, {"type": "keep_character", "card": "C01"})
    assert RULES.view(state, 2)["known_character_deck"] == [
        {"position": 2, "card": "C05"},
        {"position": 3, "card": "C02"},
    ]
    assert RULES.view(state, 0)["known_character_deck"] == []
    for seed in range(5):
        assert RULES.determinize(state, 2, random.Random(seed)).char_deck[2:] == ["C05", "C02"]


# -- §7 PLACE_GONDOLIER availability: the cheapest free seat decides ------------------------------------------------


def _white_seats_taken() -> list[dict]:
    """Every white gondola (seat 0's colour) taken by the other seats, two each."""
    islands = geometry(4).islands
    return [seated(1 + i // 2, island, "white") for i, island in enumerate(islands)]


def test_place_gondolier_is_available_with_the_price_of_the_cheapest_free_seat():
    """§7: own-colour gondola 2 gold, another colour's 5; the action is available only if some free seat is
    affordable."""
    state = ready(4, gold(0, -3))  # 2 gold, own seats free
    assert {"type": "act"} in legal(state)
    unavailable(4, gold(0, -1), *_white_seats_taken())  # 4 gold, only other colours' seats (5) left
    state = ready(4, *_white_seats_taken())  # 5 gold
    assert {"type": "act"} in legal(state)
    others = [seated(1, island, c) for island in geometry(4).islands for c in data.PLAYER_COLOURS if c != "white"]
    state = ready(4, gold(0, -3), *others)  # 2 gold, only own seats left
    assert {"type": "act"} in legal(state)
    state, _ = play(state, {"type": "act"})
    assert {c["colour"] for c in legal(state)} == {"white"}


# -- before set-up, and an aborted game --------------------------------------------------------------------------


def test_no_command_before_the_game_is_set_up():
    err = refused(RULES.fold([]), {"type": "pass", "ship": 0, "to": 1}, seat=0)
    assert err.message == "the game has not been set up"
    assert RULES.view(RULES.fold([]), None)["pending"]["decision"] == "NOT_STARTED"


def test_an_aborted_game_ranks_nobody_above_anybody():
    """§14 safeguard: MAX_TURNS ends a stalled game, reported as aborted with no winner."""
    filler = []
    for i in range(data.MAX_TURNS - 1):
        filler += [{"type": "TurnEnded", "seat": i % 2}, started((i + 1) % 2)]
    state = given(*opening(n=2), vp(0, 7), *filler)
    move = next(c for c in legal(state) if c["type"] == "pass")
    _, events = play(state, move)
    assert events[-1]["type"] == "GameOver" and events[-1]["aborted"] is True
    assert events[-1]["ranks"] == [1, 1]


def test_reveal_all_shows_the_tile_waiting_for_a_free_placement():
    state = ready(5, *street("NAVAGERO:r1c1"), seat=1, glass_factories=0, palaces=[3])
    state, _ = play(state, {"type": "act"}, {"type": "choose_buy_mode", "mode": "top"})
    assert RULES.reveal_all(state)["pending"]["free_tile"] == {"kind": "palace", "face": 3}
