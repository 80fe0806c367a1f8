"""Boundaries the other tests left open (found by mutation testing, docs/testing.md), each pinned from the rules
text of docs/rules/amerigo.md: founding without Trade income, the last trading post, progress that adds up,
a built tile's AP and gold, who owns a placed tile, refusal reasons and the result's details."""

from __future__ import annotations

from domain.amerigo import RULES
from domain.amerigo import data as D
from tests.domain.amerigo.scenario import base, fold, gold, one, phase, planned, post, refused, ship_at, sq, token, when

BLUE4 = {"blue": 4, "red": 1}


def moving(*given, cubes=BLUE4):
    state = fold(base(), list(given), phase("blue", cubes))
    state, _ = when(state, 0, {"type": "choose_action", "colour": "blue"})
    return state


def acting(colour, cubes, *given):
    state = fold(base(), list(given), phase(colour, cubes))
    state, _ = when(state, 0, {"type": "choose_action", "colour": colour})
    return state


def test_founding_without_trade_income_gives_no_gold():
    """Trade income (P19) gives 1 gold per post founded; without it founding gives none."""
    state = moving(*ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1)))
    after, events = when(state, 0, {"type": "found_trading_post", "ship": 0})
    assert one(events, "TradingPostFounded")["gold"] == 0
    assert after.players[0].gold == state.players[0].gold


def test_the_last_trading_post_can_still_be_founded():
    """Each player has 12 trading posts; a post can be founded while at least one is left."""
    eleven = [post(0, sq(8, 1), 0) for _ in range(11)]
    state = moving(*ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1)), *eleven)
    assert state.players[0].posts_left == 1
    assert {"type": "found_trading_post", "ship": 0} in RULES.legal_commands(state, 0)
    after, _ = when(state, 0, {"type": "found_trading_post", "ship": 0})
    assert after.players[0].posts_left == 0


def test_progress_adds_up_over_actions():
    """PROGRESS: advance on your progress track from where you stand."""
    state = acting("brown", {"brown": 5}, {"type": "ProgressAdvanced", "seat": 0, "n": 3, "gold": 0, "tokens_due": 0})
    after, _ = when(state, 0, {"type": "advance", "n": 1})
    assert after.players[0].progress == 4


def test_building_spends_the_actions_points_then_gold_and_a_neutral_tile_has_no_owner():
    """BUILD: a tile costs its size in AP; AP beyond the phase's AP are paid in gold; a village belongs to its
    builder, a neutral tile to nobody."""
    state = acting("green", {"green": 1}, planned(0, "neutral", "S2"), post(0, sq(2, 4), 0), gold(0, 5))
    command = next(c for c in RULES.legal_commands(state, 0) if c["type"] == "place_tile")
    after, events = when(state, 0, command)
    placed = one(events, "TilePlaced")
    assert placed["cost"] == 2 and placed["gold"] == 1
    assert after.players[0].gold == state.players[0].gold - 1
    assert after.ap_used == 2
    assert RULES.view(after, 1)["board"]["tiles"][-1]["seat"] is None
    village = acting("green", {"green": 1}, planned(0, "village", "S1"), post(0, sq(2, 4), 0))
    command = next(c for c in RULES.legal_commands(village, 0) if c["type"] == "place_tile")
    after, _ = when(village, 0, command)
    assert RULES.view(after, 1)["board"]["tiles"][-1]["seat"] == 0


def test_refusals_say_why():
    state = moving(*ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1)))
    err = refused(state, {"type": "found_trading_post", "ship": 2}, "illegal_command", seat=0)
    assert err.message == "ship must be 0 or 1"


def test_the_result_names_the_special_track_order():
    """Ties are broken by the special-track order (the first player first)."""
    state = fold(base())
    details = RULES.result(state).details
    assert details["special_track_order"] == list(state.order) and "final" in details


def test_catalogue_tables():
    """§2/§3 constants as published: 5 rounds, 6x6 island tiles, the special track's numbered spaces
    {5:1, 8:3, 11:5, 14:8, 17:11, 20:15}, starting gold 0, 1, 2, 3 by stack position, and P23 (Fame) +7 VP."""
    cat = RULES.catalogue()
    board = cat["board"]
    assert board["rounds"] == 5 and board["tile_size"] == 6
    assert board["special_track"]["vp"] == {"5": 1, "8": 3, "11": 5, "14": 8, "17": 11, "20": 15}
    assert board["start_gold_by_stack_position"] == [0, 1, 2, 3]
    tokens = {c["id"]: c for c in cat["components"] if c["kind"] == "progress_token"}
    assert tokens["P23"]["points"] == 7
    assert all(t["points"] is None for k, t in tokens.items() if k != "P23")
    assert cat["codes"]["token_use"] == {
        "perm": "permanent",
        "once": "used once, then flipped",
        "end": "scores at the end",
    }


def test_labels_name_the_track_the_spaces_and_the_white_mode():
    state = acting("brown", {"brown": 5})
    assert RULES.label(state, 0, {"type": "advance", "n": 1})["label"] == "Advance 1 space on the progress track"
    assert RULES.label(state, 0, {"type": "advance", "n": 3})["label"] == "Advance 3 spaces on the progress track"
    white = fold(base(), phase("white", {"white": 3}))
    assert RULES.label(white, 0, {"type": "choose_action", "colour": "white", "mode": "advance"}) == {
        "label": "Take a white cube: advance on the special track"
    }
    assert RULES.label(white, 0, {"type": "choose_action", "colour": "white", "mode": "convert"}) == {
        "label": "Take a white cube: convert to your space's colour"
    }
    assert RULES.label(white, 0, {"type": "choose_action", "colour": "blue"}) == {"label": "Take a blue cube: Move"}


def test_move_refusals_say_why():
    """MOVE: both ships start on the frame; ships sail on water; Fair winds (P10) only before the first move."""
    unplaced = moving()
    err = refused(unplaced, {"type": "move_ship", "ship": 0, "to": sq(2, 5)}, "illegal_command", seat=0)
    assert err.message == "place both ships on the frame first"
    state = moving(token(0, "P10"), *ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1)))
    err = refused(state, {"type": "move_ship", "ship": 0, "to": sq(2, 4)}, "illegal_command", seat=0)
    assert err.message == "ships sail on water only"
    moved, _ = when(state, 0, {"type": "move_ship", "ship": 0, "to": sq(1, 5)})
    err = refused(moved, {"type": "use_fair_winds"}, "illegal_command", seat=0)
    assert err.message == "P10 must be used before the first ship move of the action"


def test_a_disc_on_the_last_progress_space_may_only_stay():
    state = acting("brown", {"brown": 5}, {"type": "ProgressAdvanced", "seat": 0, "n": 18, "gold": 0, "tokens_due": 0})
    err = refused(state, {"type": "advance", "n": 1}, "illegal_command", seat=0)
    assert err.message == "your disc is on the last space: the only legal step is n = 0"


def test_build_and_buy_labels_preview_the_gold_and_the_view_names_the_phase_colour():
    """§10.3: AP beyond the phase's AP are paid in gold (1 gold = 1 AP); the labels say how much."""
    state = acting("green", {"green": 1}, planned(0, "neutral", "S2"), post(0, sq(2, 4), 0), gold(0, 5))
    command = {"type": "place_tile", "kind": "neutral", "shape": "S2", "squares": [sq(1, 3), sq(2, 3)]}
    assert RULES.label(state, 0, command) == {
        "label": "Build the neutral 2-square tile at row 2, column 4 (pay 1 gold)",
        "cost": 1,
    }
    assert RULES.view(state, 1)["turn"]["colour"] == "green"
    state = acting("yellow", {"yellow": 3}, gold(0, 5))
    assert RULES.label(state, 0, {"type": "buy_production", "token": "PR-K-II-4-2"}) == {
        "label": "Buy a coconut production token (4 AP) (pay 1 gold)",
        "cost": 1,
    }


def test_square_fields_are_objects_with_integer_r_and_c_and_frame_spaces_are_numbered_from_zero():
    """§10.4: an invalid command changes nothing and names the broken rule. §5.4: the frame has 2W + 2H spaces
    (12 at 2 players, F[0] to F[11]); a board square is (r, c) and nothing else."""
    state = moving(*ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1)), gold(0, 9))
    err = refused(state, {"type": "move_ship", "ship": 0, "to": 5}, "invalid_command", seat=0)
    assert err.message == 'field \'to\' must be an object like {"r": 0, "c": 0} or {"frame": 0}'
    err = refused(state, {"type": "move_ship", "ship": 0, "to": {"frame": 12}}, "illegal_command", seat=0)
    assert err.message == "frame spaces are numbered 0 to 11"
    assert {"type": "move_ship", "ship": 0, "to": {"frame": 11}} in RULES.legal_commands(state, 0)
    err = refused(state, {"type": "move_ship", "ship": 0, "to": {"r": 1, "c": 5, "x": 0}}, "invalid_command", seat=0)
    assert err.message == "field 'to' needs integer 'r' and 'c' and nothing else"
    building = acting("green", {"green": 1}, planned(0, "neutral", "S2"), post(0, sq(2, 4), 0))
    err = refused(
        building,
        {"type": "place_tile", "kind": "neutral", "shape": "S2", "squares": [21, 39]},
        "invalid_command",
        seat=0,
    )
    assert err.message == 'field \'squares\' must be an object like {"r": 0, "c": 0}'


def test_a_village_tile_can_be_planned_only_while_one_of_that_shape_is_left():
    """§11.3 / §17: each player has 2 village tiles of shape S3I; a third cannot be planned."""
    state = acting("red", {"red": 3}, planned(0, "village", "S3I"))
    assert {"type": "take_tile", "kind": "village", "shape": "S3I"} in RULES.legal_commands(state, 0)
    state = acting("red", {"red": 3}, planned(0, "village", "S3I"), planned(0, "village", "S3I"))
    assert {"type": "take_tile", "kind": "village", "shape": "S3I"} not in RULES.legal_commands(state, 0)
    err = refused(state, {"type": "take_tile", "kind": "village", "shape": "S3I"}, "illegal_command", seat=0)
    assert err.message == "you have no straight 3-square (S3I) village tile left to plan"


def _last_phase_of_round(rnd, *given):
    """Given the white (last) phase of round ``rnd``; both players pass; the state and the chain's events."""
    extra = [{"type": "RoundStarted", "round": rnd, "time_value": 6 - rnd}] if rnd != 1 else []
    state = fold(base(), extra, list(given), phase("white", {"white": 2}, rnd=rnd))
    state, first = when(state, 0, {"type": "pass"})
    state, second = when(state, 1, {"type": "pass"})
    return state, first + second


def test_the_refresh_names_its_round_and_after_the_last_phase_no_action_points_are_left():
    """§14: the production display is cleared at the start of rounds 2-5; §9 step 6: at a phase's end every cube
    returns to storage, so the action area is empty and holds no AP (the game ends after round 5's pirates)."""
    _, events = _last_phase_of_round(1)
    assert one(events, "ProductionDisplayCleared")["round"] == 2
    state, _ = _last_phase_of_round(5)
    view = RULES.view(state, 0)
    assert view["over"] is True
    assert view["ap"] == 0 and set(view["action_area"].values()) == {0}


def test_fast_passage_has_a_label_naming_the_token():
    state = fold(base(), [token(0, "P16")], phase("white", {"white": 3}))
    assert RULES.label(state, 0, {"type": "use_fast_passage"})["label"].startswith("Flip P16 (Fast passage)")


def test_the_catalogue_gives_each_neutral_shapes_vp_and_the_frame_size():
    """§17: a neutral tile of size k scores 2k on a small island and 3k on a big one; §5.4: 2W + 2H frame spaces."""
    cat = RULES.catalogue()
    effects = {c["id"]: c["effect"] for c in cat["components"] if c["kind"] == "tile_shape"}
    assert effects["S3L"].startswith("Neutral: 3 AP to plan and to build, 6 VP on a small island, 9 on a big one")
    assert effects["S6R"].startswith("Neutral: 6 AP to plan and to build, 12 VP on a small island, 18 on a big one")
    assert "(2W + 2H)" in cat["board"]["frame"]


def test_tile_shapes_are_named_as_a_player_says_them_and_each_name_is_its_own():
    """The log and the move list name a shape in words ("bent 3-square"), never by its command code (S3L)."""
    names = {c["id"]: c["name"] for c in RULES.catalogue()["components"] if c["kind"] == "tile_shape"}
    assert names["S3L"] == "bent 3-square tile" and names["S4O"] == "square 4-square tile"
    assert len(set(names.values())) == len(D.SHAPES)
    assert not any(code in name for name in names.values() for code in D.SHAPES)
    state = acting("red", {"red": 3})
    label = RULES.label(state, 0, {"type": "take_tile", "kind": "village", "shape": "S3L"})["label"]
    assert label == "Plan a village bent 3-square tile (1 AP)"


def test_setup_draws_from_the_game_seed_at_stream_version_zero():
    """§4.1: setup uses an RNG made from the game seed (docs/design.md: derived from seed and stream version 0)."""
    from domain.rng import rng_for

    for seed in (1, 2024):
        assert RULES.setup(seed, 3, {}) == RULES.setup_with_rng(3, rng_for(seed, 0, "setup"))


def test_building_at_the_board_edge_offers_whole_tiles_only():
    """§11.5 check 1: `squares` is the whole shape on the board. Island 5 reaches the west edge at (14, 0) and
    (15, 0); with a post on (14, 1) every offered L tile has its three squares on the board, and each is accepted."""
    state = acting(
        "green", {"green": 6}, planned(0, "neutral", "S3L"), planned(0, "neutral", "S2"), post(0, sq(14, 1), 5)
    )
    tiles = [c for c in RULES.legal_commands(state, 0) if c["type"] == "place_tile"]
    ls = [c for c in tiles if c["shape"] == "S3L"]
    assert ls and all(len(c["squares"]) == 3 for c in ls)
    assert all(0 <= s["r"] < 18 and 0 <= s["c"] < 18 for c in tiles for s in c["squares"])
    assert {"type": "place_tile", "kind": "neutral", "shape": "S2", "squares": [sq(14, 0), sq(15, 0)]} in tiles
    for command in ls:
        when(state, 0, command)


def test_every_rotation_of_a_tile_is_offered():
    """§17: any of the 4 rotations is allowed. On the big island 5, with posts around it, the L tile is offered
    in all four rotations and the I tile both ways."""
    posts = [post(0, sq(r, c), 5) for r, c in ((9, 8), (9, 10), (13, 3), (14, 7), (14, 10), (16, 8))]
    state = acting("green", {"green": 6}, *[planned(0, "neutral", s) for s in ("S3L", "S4I")], *posts, gold(0, 12))
    shapes: dict[str, set] = {}
    for c in RULES.legal_commands(state, 0):
        if c["type"] == "place_tile":
            r0 = min(s["r"] for s in c["squares"])
            c0 = min(s["c"] for s in c["squares"])
            shapes.setdefault(c["shape"], set()).add(frozenset((s["r"] - r0, s["c"] - c0) for s in c["squares"]))
    assert len(shapes["S3L"]) == 4
    assert len(shapes["S4I"]) == 2


def test_with_ap_to_spare_a_ship_reaches_every_free_water_square_and_frame_space():
    """§5.4: every board water square is reachable from the frame; §11.1: `to` is any frame space or any water
    square holding no ship, other than where the ship stands."""
    state = acting("blue", {"blue": 40}, *ship_at(0, 0, sq(2, 5)), *ship_at(0, 1, sq(3, 1)))
    board = state.board
    targets = {
        (c["to"]["frame"],) if "frame" in c["to"] else (c["to"]["r"], c["to"]["c"])
        for c in RULES.legal_commands(state, 0)
        if c["type"] == "move_ship" and c["ship"] == 0
    }
    water = {divmod(q, board.ncols) for q in range(board.nsq) if not board.land[q]} - {(2, 5), (3, 1)}
    assert targets == water | {(f,) for f in range(board.nframe)}


def test_a_tile_over_two_islands_is_refused():
    """§11.5 check 3: all the squares are on one island. A U tile whose arms stand on the one-square island 3
    (4, 13) and on island 4 (4, 15), with its base in the sea between, is refused for that reason first."""
    state = acting("green", {"green": 6}, planned(0, "neutral", "S5U"), gold(0, 12))
    squares = [sq(4, 13), sq(4, 15), sq(5, 13), sq(5, 14), sq(5, 15)]
    err = refused(state, {"type": "place_tile", "kind": "neutral", "shape": "S5U", "squares": squares}, seat=0)
    assert err.message == "a tile must lie on one island"


def test_a_tile_never_wraps_around_the_board_edge():
    """§11.5 check 1 on a valid layout (§5.3) whose island 0 runs from the west edge to the east edge (rows 2 and 3): the squares
    west of column 0 are off the board, not the east edge's squares one row up, so every offered L tile is a real
    L on the board, and each is accepted."""
    layout = {"type": "IslandsAssembled", "sel": ["T05", "T10", "T12", "T01", "T02", "T03", "T04", "T06", "T07"]}
    layout["rots"] = [0, 0, 1, 0, 0, 0, 0, 0, 0]
    opening = [layout if e["type"] == "IslandsAssembled" else e for e in base()]
    given = [planned(0, "neutral", "S1"), planned(0, "neutral", "S3L"), post(0, sq(2, 2), 0), gold(0, 12)]
    state = fold(opening, given, phase("green", {"green": 6}))
    board = state.board
    assert {board.island_of[r * board.ncols + c] for r, c in ((2, 0), (3, 0), (2, 17))} == {0}
    state, _ = when(state, 0, {"type": "choose_action", "colour": "green"})
    state, _ = when(state, 0, {"type": "place_tile", "kind": "neutral", "shape": "S1", "squares": [sq(2, 1)]})
    ls = [c for c in RULES.legal_commands(state, 0) if c["type"] == "place_tile" and c["shape"] == "S3L"]
    assert {"type": "place_tile", "kind": "neutral", "shape": "S3L", "squares": [sq(2, 0), sq(3, 0), sq(3, 1)]} in ls
    for command in ls:
        when(state, 0, command)


def test_white_needs_a_white_cube_and_a_mode():
    """§10.2: white is available only if a white cube is present; with white the player names the mode."""
    state = fold(base(), phase("blue", BLUE4))
    err = refused(state, {"type": "choose_action", "colour": "white", "mode": "advance"}, seat=0)
    assert err.message == "white is not available: no white cube in the action area"
    white = fold(base(), phase("white", {"white": 3}))
    err = refused(white, {"type": "choose_action", "colour": "white"}, "invalid_command", seat=0)
    assert err.message == "white needs 'mode': 'advance' or 'convert'"
