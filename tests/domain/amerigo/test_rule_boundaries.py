"""Less travelled rules of docs/rules/amerigo.md, one scenario test each: diagonal land (§5.3), board corners
(§5.4), trading posts and the neutral supply (§11.3, §11.5), converted cubes and an area of white cubes (§11.7, Q29),
gold tokens (§12.1, Q36), fair winds (Q35), the last pirates (§13) and the progress display's refills (§14).

Board facts used here (the seeded 2-player board of ``scenario.base()``, see scenario.py): island 0 (big, 26
squares) has the TP spaces (2, 4) (anchor (2, 5)), (3, 2) (anchor (3, 1)), (8, 1) and (10, 4); the land squares
next to (2, 4) are (2, 3) and (3, 4), and the only one next to (10, 4) is (9, 4). All four board corners are
water. The seeded progress display does not show P17 or P18 (both are in the pile).
"""

from __future__ import annotations

import pytest

from domain.amerigo import RULES
from domain.amerigo import board as board_module
from domain.amerigo.board import layout_is_valid
from tests.domain.amerigo.scenario import (
    base,
    fold,
    gold,
    of_type,
    one,
    phase,
    planned,
    post,
    refused,
    ship_at,
    sq,
    token,
    when,
)


def special(seat, position):
    return {"type": "SpecialAdvanced", "seat": seat, "n": position, "gold": 0, "position": position}


def cannons(seat, n):
    return {"type": "CannonsLoaded", "seat": seat, "n": n, "gold": 0}


def vp(seat, amount):
    return {"type": "IslandCompleted", "seat": seat, "island": 3, "vp": amount, "chest": False, "scores": []}


def round_started(rnd):
    return [{"type": "RoundStarted", "round": rnd, "time_value": 6 - rnd}] if rnd != 1 else []


def acting(colour, cubes, *given, mode=None, rnd=1, opening=None):
    """Given ``given`` and a ``colour`` phase of round ``rnd``; the first player chooses ``colour``."""
    opening = base() if opening is None else opening
    order = tuple(fold(opening, round_started(rnd), list(given)).order)
    state = fold(opening, round_started(rnd), list(given), phase(colour, cubes, order=order, rnd=rnd))
    command = {"type": "choose_action", "colour": colour}
    if mode:
        command["mode"] = mode
    state, _ = when(state, order[0], command)
    return state


def end_of_round(*given, rnd=1):
    """Given the white (last) phase of round ``rnd``; every player passes; the state and all the chain's events."""
    order = tuple(fold(base(), round_started(rnd), list(given)).order)
    state = fold(base(), round_started(rnd), list(given), phase("white", {"white": 2}, order=order, rnd=rnd))
    events: list[dict] = []
    for seat in order:
        state, new = when(state, seat, {"type": "pass"})
        events += new
    return state, events


def showing(**spaces):
    """The seeded opening with ``spaces`` (e.g. R1="P18") shown on the progress display instead of what it drew;
    the pile keeps the tokens that are not shown."""
    events = []
    for event in base():
        if event["type"] == "ProgressTokensRevealed":
            event = {**event, "tokens": {**event["tokens"], **spaces}}
        events.append(event)
    return events


def place(kind, shape, *squares):
    return {"type": "place_tile", "kind": kind, "shape": shape, "squares": [sq(*rc) for rc in squares]}


def found(ship):
    return {"type": "found_trading_post", "ship": ship}


# -- 1. §5.3 (b) ---------------------------------------------------------------------------------------
# one land square in the south-east corner (rotation 0); rotations 1, 2, 3 put it south-west, north-west, north-east
CORNER_ISLET = ("......", "......", "......", "......", "......", ".....#")
SEA = ("......",) * 6


@pytest.mark.parametrize(
    "placed, meeting",
    [
        ({0: 0, 4: 2}, "(5, 5) and (6, 6): north-west and south-east of the corner"),
        ({1: 1, 3: 3}, "(5, 6) and (6, 5): north-east and south-west of the corner"),
    ],
)
def test_land_meeting_only_diagonally_across_a_tile_corner_makes_the_layout_invalid(monkeypatch, placed, meeting):
    """§5.3 step 3 (b): "No diagonal-only land contact: there is no 2x2 block in which exactly the two diagonal
    squares are land. (Source: where land on adjacent tiles meets, it must meet orthogonally.)" Two one-square
    islets on tiles around the corner where tiles 0, 1, 3 and 4 meet touch only diagonally: invalid. The same
    islets side by side across a tile edge ((5, 5) and (5, 6)) meet orthogonally: valid."""
    monkeypatch.setitem(board_module.TILES, "XCORNER", CORNER_ISLET)
    monkeypatch.setitem(board_module.TILES, "XSEA", SEA)

    def layout(tiles):
        return tuple("XCORNER" if i in tiles else "XSEA" for i in range(9)), tuple(tiles.get(i, 0) for i in range(9))

    assert layout_is_valid(2, *layout({0: 0})), "one islet alone is valid"
    assert not layout_is_valid(2, *layout(placed)), meeting
    assert layout_is_valid(2, *layout({0: 0, 1: 1})), "orthogonal contact across a tile edge is valid"


# -- 2. §5.4 -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "corner, frames",
    [((0, 0), (0, 11)), ((0, 17), (2, 3)), ((17, 17), (5, 6)), ((17, 0), (8, 9))],
)
def test_a_board_corner_square_borders_two_frame_spaces(corner, frames):
    """§5.4: "F[x] <-> each water square of the 6-square board edge segment it borders. (A board corner square
    borders two frame spaces.)" At 2 players (W = H = 3) the frame is F[0]..F[11]: the corner (0, 0) borders the
    north F[0] and the west F[11] (which borders tile-row 0, column 0), and so on round the board. From either
    frame space the corner is 1 square away: with 1 AP and no gold, a ship on each reaches it for free."""
    state = fold(base())
    board = state.board
    node = corner[0] * board.ncols + corner[1]
    assert not board.land[node]
    for frame in frames:
        assert node in board.adj[board.frame_node(frame)] and board.frame_node(frame) in board.adj[node]
        assert board.distances(board.frame_node(frame))[node] == 1
    placed = [{"type": "ShipPlaced", "seat": 0, "ship": ship, "frame": f} for ship, f in enumerate(frames)]
    state = acting("blue", {"blue": 1}, *placed)
    assert state.players[0].gold == 0 and state.ap_free == 1
    for ship in (0, 1):
        command = {"type": "move_ship", "ship": ship, "to": sq(*corner)}
        assert command in RULES.legal_commands(state, 0)
        _, events = when(state, 0, command)
        moved = one(events, "ShipMoved")
        assert moved["distance"] == 1 and moved["gold"] == 0


# -- 3. §11.5 check 4 ----------------------------------------------------------------------------------
def test_another_players_trading_post_does_not_count_for_adjacency():
    """§11.5 check 4: "at least one square is orthogonally adjacent to (a) one of this player's trading posts on
    that island, or (b) any tile already on that island". Seat 0 has a post on island 0 at (10, 4), seat 1 one at
    (2, 4): (2, 3) touches only seat 1's post, so seat 0 is not offered it and is refused; the only 1-square
    placement offered is (9, 4), next to seat 0's own post. Were the post at (2, 4) seat 0's, (2, 3) would do."""
    state = acting("green", {"green": 3}, planned(0, "village", "S1"), post(0, sq(10, 4), 0), post(1, sq(2, 4), 0))
    offered = [c for c in RULES.legal_commands(state, 0) if c["type"] == "place_tile"]
    assert offered == [place("village", "S1", (9, 4))]
    err = refused(state, place("village", "S1", (2, 3)), "illegal_command", seat=0)
    assert err.message == "a tile must touch one of your trading posts or a tile already on that island"
    own = acting("green", {"green": 3}, planned(0, "village", "S1"), post(0, sq(10, 4), 0), post(0, sq(2, 4), 0))
    assert place("village", "S1", (2, 3)) in RULES.legal_commands(own, 0)


# -- 4. §11.5 check 2 ----------------------------------------------------------------------------------
def test_an_empty_trading_post_space_covered_by_a_built_tile_takes_no_post():
    """§11.5 check 2: "An empty TP space may be covered; after that, no post can be founded there." Seat 0 (post at
    (3, 2)) builds a bent village tile over the empty TP space (2, 4) and (3, 3), (3, 4). In the next blue phase its
    ship on the anchor (2, 5) is not offered a post there and is refused; without the tile it could found one."""
    given = [post(0, sq(3, 2), 0), planned(0, "village", "S3L")]
    green = fold(base(), given, phase("green", {"green": 2}))
    cover = place("village", "S3L", (2, 4), (3, 3), (3, 4))
    state, events = when(green, 0, {"type": "choose_action", "colour": "green"})
    assert cover in RULES.legal_commands(state, 0)
    state, built = when(state, 0, cover, {"type": "end_action"})
    assert one(built, "TilePlaced")["squares"] == cover["squares"]
    ships = [*ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1))]
    blue = fold(base(), given, phase("green", {"green": 2}), events + built, ships, phase("blue", {"blue": 4}))
    blue, _ = when(blue, 0, {"type": "choose_action", "colour": "blue"})
    assert found(0) not in RULES.legal_commands(blue, 0)
    refused(blue, found(0), "illegal_command", seat=0)
    open_space = acting("blue", {"blue": 4}, *given, *ships)
    assert found(0) in RULES.legal_commands(open_space, 0)


# -- 5. §11.3 ------------------------------------------------------------------------------------------
def test_plan_neither_offers_nor_takes_a_neutral_shape_the_supply_has_run_out_of():
    """§11.3: "TakeTile {kind: NEUTRAL, shape} - the common supply has a tile of that shape". §17: 3 neutral
    6-square tiles; seat 1 has planned all three. With 6 AP seat 0 is offered the U tile but not the 6-square one,
    and taking one is refused."""
    state = acting("red", {"red": 6}, *[planned(1, "neutral", "S6R")] * 3)
    assert state.neutral_supply[-1] == 0
    neutral = {
        c["shape"] for c in RULES.legal_commands(state, 0) if c["type"] == "take_tile" and c["kind"] == "neutral"
    }
    assert "S5U" in neutral and "S6R" not in neutral
    err = refused(state, {"type": "take_tile", "kind": "neutral", "shape": "S6R"}, "illegal_command", seat=0)
    assert err.message == "no 6-square (S6R) neutral tile is left in the supply"


# -- 6. §11.3 ------------------------------------------------------------------------------------------
def test_planned_tiles_are_worth_nothing_at_the_end():
    """§11.3: "Planned tiles have no value at game end." Seat 0 ends round 5 holding a planned neutral 6-square,
    U and 1-square tile and two village tiles: its final row equals the row without them."""
    held = [planned(0, "neutral", s) for s in ("S6R", "S5U", "S1")] + [planned(0, "village", s) for s in ("S4O", "S1")]
    with_tiles, _ = end_of_round(*held, rnd=5)
    without, _ = end_of_round(rnd=5)
    assert with_tiles.over and without.over
    assert sum(with_tiles.players[0].planned) == 5
    row = next(r for r in with_tiles.final if r["seat"] == 0)
    assert row == next(r for r in without.final if r["seat"] == 0)
    assert with_tiles.players[0].vp == without.players[0].vp


# -- 7. §11.7 B ----------------------------------------------------------------------------------------
def test_converting_white_cubes_leaves_the_action_area_of_the_other_players_unchanged():
    """§11.7 B: "Treat all white cubes in the action area as cubes of colour X for this player only ... The real
    action area does not change for other players." Seat 0 (space 2, black) converts 3 white cubes and loads
    cannons with AP 3; then seat 1 sees the same area and may choose what seat 0 could (white included, black
    still not; no convert from the start space), with the same AP."""
    area = {"white": 3, "blue": 2, "red": 1}
    state = fold(base(), [special(0, 2)], phase("white", area))
    before = RULES.view(state, None)["action_area"]
    seat0_options = RULES.legal_commands(state, 0)
    state, events = when(state, 0, {"type": "choose_action", "colour": "white", "mode": "convert"})
    assert one(events, "ActionChosen")["executed"] == "black" and state.ap_free == 3
    state, _ = when(state, 0, {"type": "advance", "n": 3})
    assert state.turn_seat == 1 and state.players[0].cannon == 3
    assert RULES.view(state, None)["action_area"] == before
    convert = {"type": "choose_action", "colour": "white", "mode": "convert"}
    assert RULES.legal_commands(state, 1) == [c for c in seat0_options if c != convert]
    refused(state, {"type": "choose_action", "colour": "black"}, "illegal_command", seat=1)
    _, events = when(state, 1, {"type": "choose_action", "colour": "white", "mode": "advance"})
    assert one(events, "ActionChosen")["ap_free"] == 3
    _, events = when(state, 1, {"type": "take_gold"})
    assert one(events, "GoldTaken")["gold"] == 2  # 6 cubes / 3


# -- 8. Q29 --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("space", [0, 3])
def test_an_action_area_of_only_white_cubes_offers_only_white_gold_and_pass(space):
    """Q29: "Can a phase's action area contain only white cubes? Yes: only white is available (mode A, or mode B
    if the disc is on a coloured space), plus gold/P21/pass." A blue phase out of which only 3 white cubes came:
    the legal commands are take gold, pass and white advance, plus white convert when the disc is on space 3."""
    state = fold(base(), [special(0, space)] if space else [], phase("blue", {"white": 3}))
    expected = [
        {"type": "take_gold"},
        {"type": "pass"},
        {"type": "choose_action", "colour": "white", "mode": "advance"},
    ]
    if space:
        expected.append({"type": "choose_action", "colour": "white", "mode": "convert"})
    assert RULES.legal_commands(state, 0) == expected
    for colour in ("blue", "black", "red", "brown", "green", "yellow"):
        refused(state, {"type": "choose_action", "colour": colour}, "illegal_command", seat=0)


# -- 9. Q36 --------------------------------------------------------------------------------------------
def test_a_gold_token_taken_first_in_a_progress_action_can_be_cashed_before_the_next_token():
    """Q36: "Gold from P17/P18 taken during a PROGRESS action can be cashed at once, unless it is the last token
    due". Seat 0 advances 6 (spaces 3 and 6: 2 tokens due), takes P18 first, then flips it for 5 gold while the
    second token is still due, and the turn ends with the second token."""
    state = acting("brown", {"brown": 6}, opening=showing(R1="P18"))
    state, _ = when(state, 0, {"type": "advance", "n": 6})
    assert state.stage == "tokens" and state.tokens_due == 2
    state, _ = when(state, 0, {"type": "take_progress_token", "token": "P18"})
    assert state.stage == "tokens" and state.turn_seat == 0
    assert {"type": "use_gold_token", "token": "P18"} in RULES.legal_commands(state, 0)
    state, events = when(state, 0, {"type": "use_gold_token", "token": "P18"})
    assert one(events, "GoldTokenUsed")["gold"] == 5 and not of_type(events, "TurnEnded")
    assert state.players[0].gold == 5 and state.players[0].tokens["P18"] is True and state.tokens_due == 1
    state, events = when(state, 0, {"type": "take_progress_token", "token": state.progress_display[1]})
    assert one(events, "TurnEnded")["seat"] == 0 and state.turn_seat == 1


def test_a_gold_token_taken_as_the_last_token_ends_the_turn_unused():
    """Q36: "the turn ends when the last due token is taken, and the token is cashed in a later turn (or converted
    at the end)". Seat 0 advances 3 (1 token due) and takes P17: the turn ends, P17 is unused, and seat 0 may not
    flip it in seat 1's turn; in the next phase it may."""
    state = acting("brown", {"brown": 3}, opening=showing(R1="P17"))
    state, events = when(state, 0, {"type": "advance", "n": 3}, {"type": "take_progress_token", "token": "P17"})
    assert one(events, "TurnEnded")["seat"] == 0 and state.turn_seat == 1
    assert state.players[0].tokens["P17"] is False and state.players[0].gold == 0
    assert RULES.legal_commands(state, 0) == []
    refused(state, {"type": "use_gold_token", "token": "P17"}, "not_your_turn", seat=0)
    later = fold(showing(R1="P17"), [token(0, "P17")], phase("black", {"black": 2}))
    assert {"type": "use_gold_token", "token": "P17"} in RULES.legal_commands(later, 0)


# -- 10. §12.1 -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("tok, vp_gained", [("P18", 4), ("P17", 2)])
def test_gold_cap_applies_to_the_gold_tokens(tok, vp_gained):
    """§12.1: "The gold cap and conversion to VP (§6.2) apply to every gold gain: taking gold, chests, P13, P17,
    P18, P19, overflow"; §6.2: "the gold stays at 12 and every excess gold becomes +1 VP at once". With 11 gold,
    P18 (+5) gives 12 gold and 4 VP; P17 (+3) gives 12 gold and 2 VP."""
    state = fold(base(), [gold(0, 11), token(0, tok)], phase("black", {"black": 2}))
    assert state.players[0].gold == 11 and state.players[0].vp == 0
    after, events = when(state, 0, {"type": "use_gold_token", "token": tok})
    assert one(events, "GoldTokenUsed")["token"] == tok
    assert (after.players[0].gold, after.players[0].vp) == (12, vp_gained)


# -- 11. Q35 -------------------------------------------------------------------------------------------
def test_fair_winds_cannot_be_used_before_both_ships_are_placed():
    """Q35: "both ships are placed (free) before any other step of that action; P10 only before the action's first
    MoveShip". §11.1: "Both must be placed before any other MOVE step". Seat 0 holds P10 and its ships are off
    the board: Fair winds is neither offered nor accepted before the second ship is placed; then it is."""
    state = acting("blue", {"blue": 3}, token(0, "P10"))
    for ship in (0, 1):
        assert {"type": "use_fair_winds"} not in RULES.legal_commands(state, 0)
        err = refused(state, {"type": "use_fair_winds"}, "illegal_command", seat=0)
        assert err.message == "place both ships on the frame first"
        state, _ = when(state, 0, {"type": "place_ship", "ship": ship, "frame": 0})
    assert {"type": "use_fair_winds"} in RULES.legal_commands(state, 0)
    state, events = when(state, 0, {"type": "use_fair_winds"})
    assert one(events, "FairWindsUsed")["seat"] == 0 and state.ap_free == 3 + 8


# -- 12. §13 / §15 -------------------------------------------------------------------------------------
def test_the_round_five_pirates_attack_before_final_scoring():
    """§9: "pirates(round)" for every round, then "final_scoring()"; §15: "Final scoring (after the round-5
    pirates)". All five slots face up (4 + 2 + 3 + 0 + 0 = 9); seat 0 has 10 VP and no cannons: it loses 9 VP
    and the final scoring starts from the 1 VP left."""
    revealed = [{"type": "PirateRevealed", "slot": s, "value": v} for s, v in enumerate(fold(base()).pirates, 1)]
    state, events = end_of_round(*revealed, vp(0, 10), rnd=5)
    attack = one(events, "PiratesAttacked")
    kinds = [e["type"] for e in events]
    assert kinds.index("PiratesAttacked") < kinds.index("GameEnded") == len(kinds) - 1
    assert attack["round"] == 5 and attack["strength"] == 9
    assert [o["vp_lost"] for o in attack["outcomes"] if o["seat"] == 0] == [9]
    row = next(r for r in one(events, "GameEnded")["final"] if r["seat"] == 0)
    assert row["vp_before"] == 1
    assert state.over and state.players[0].vp == row["total"]


# -- 13. §14 -------------------------------------------------------------------------------------------
def test_each_refresh_fills_the_left_column_and_round_five_empties_the_pile():
    """§14 step 2: "move the left column's tokens to the right column ...; draw 4 new tokens from the top of the
    pile into L1..L4 (the first drawn into L1). The pile holds 24 - 8 = 16 = 4 x 4 tokens, so it never runs short
    and is empty after round 5's refill." Rounds 1-4 end in turn; each refresh fills L1..L4 from the pile's top."""
    history = base()
    for rnd in range(1, 5):
        white = phase("white", {"white": 2}, order=tuple(fold(history).order), rnd=rnd)
        state = fold(history, white)
        pile, display = list(state.progress_pile), list(state.progress_display)
        assert len(pile) == 16 - 4 * (rnd - 1)
        events: list[dict] = []
        for seat in state.phase_order:
            state, new = when(state, seat, {"type": "pass"})
            events += new
        assert one(events, "ProgressDisplayRefreshed")["round"] == rnd + 1
        assert one(events, "ProgressTokensRevealed")["tokens"] == dict(zip(("L1", "L2", "L3", "L4"), pile[:4]))
        assert state.progress_display == display[4:] + pile[:4]
        assert state.progress_pile == pile[4:]
        history = history + white + events
    assert state.round == 5 and state.progress_pile == []
    assert None not in state.progress_display
