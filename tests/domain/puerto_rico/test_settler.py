"""Settler phase (§4.1): hacienda, main take, quarry privilege, construction hut, hospice, last duties."""

from __future__ import annotations

from domain.puerto_rico import RULES
from domain.puerto_rico.data import CORN, INDIGO, QUARRY, TILE_INDEX, TILE_NAMES
from tests.domain.puerto_rico.helpers import act, give, legal, new_game, of_type, pick, refused, types

PASS = {"type": "pass"}
QUARRY_CMD = {"type": "take_quarry"}


def _row_kind(s):
    return next(TILE_NAMES[k] for k in range(5) if s.face_up[k])


def test_picker_may_take_a_quarry_others_may_not():
    s = new_game(4)
    _, s = pick(s, "settler", 0)
    assert s.step == "take" and s.current == 0
    assert QUARRY_CMD in legal(s) and legal(s)[-1] == PASS
    kind = _row_kind(s)
    events, s = act(s, QUARRY_CMD)
    assert types(events) == ["QuarryTaken"] and s.players[0].tiles[QUARRY] == 1 and s.quarries == 7
    assert s.current == 1 and QUARRY_CMD not in legal(s)
    refused(s, QUARRY_CMD)
    events, s = act(s, {"type": "take_plantation", "plantation": kind})
    assert events[0] == {"type": "PlantationTaken", "seat": 1, "plantation": kind}
    assert s.current == 2


def test_construction_hut_offers_a_quarry_to_a_non_picker_and_the_picker_still_takes_one_tile():
    s = new_game(4)
    give(s, 1, buildings={"construction_hut": 1})
    give(s, 0, buildings={"construction_hut": 1})
    _, s = pick(s, "settler", 0)
    events, s = act(s, QUARRY_CMD)  # D6: the picker with a hut still takes one tile
    assert s.current == 1 and s.players[0].tiles[QUARRY] == 1
    assert QUARRY_CMD in legal(s)
    _, s = act(s, QUARRY_CMD)
    assert s.players[1].tiles[QUARRY] == 1


def test_unoccupied_construction_hut_does_nothing():
    s = new_game(4)
    give(s, 1, buildings={"construction_hut": 0})
    _, s = pick(s, "settler", 0)
    _, s = act(s, PASS)
    assert QUARRY_CMD not in legal(s)


def test_no_quarry_left_means_no_quarry_option():
    s = new_game(4)
    s.quarries = 0
    _, s = pick(s, "settler", 0)
    assert QUARRY_CMD not in legal(s)


def test_hacienda_draws_the_top_tile_before_the_main_take_even_for_the_picker():
    s = new_game(4)
    give(s, 0, buildings={"hacienda": 1, "hospice": 1})
    top = TILE_NAMES[s.stack[-1]]
    _, s = pick(s, "settler", 0)
    assert s.step == "hacienda" and legal(s) == [{"type": "draw_from_hacienda"}, PASS]
    events, s = act(s, {"type": "draw_from_hacienda"})
    assert events == [{"type": "HaciendaPlantationDrawn", "seat": 0, "plantation": top}]
    assert RULES.reveals(events[0])
    # D4: the hacienda tile arrives unoccupied, and no hospice step follows it
    assert s.players[0].manned == [0] * 6 and s.step == "take"
    # D5: using the hacienda does not stop the player passing on the main take
    events, s = act(s, PASS)
    assert events[0] == {"type": "Passed", "seat": 0, "decision": "take"} and s.current == 1


def test_hacienda_needs_a_non_empty_stack_and_island_space():
    s = new_game(4)
    give(s, 1, buildings={"hacienda": 1})
    s.discard = [a + s.stack.count(k) for k, a in enumerate(s.discard)]
    s.stack = []
    _, s = pick(s, "settler", 0)
    _, s = act(s, PASS)
    assert s.current == 1 and s.step == "take"  # D44: empty stack is not reshuffled for the hacienda
    s2 = new_game(4)
    give(s2, 1, buildings={"hacienda": 1}, tiles={"corn": (6, 0), "quarry": (6, 0)})
    _, s2 = pick(s2, "settler", 0)
    _, s2 = act(s2, PASS)
    assert s2.current == 2  # full island: neither hacienda nor main take (D7)


def test_unoccupied_hacienda_is_not_offered():
    s = new_game(4)
    give(s, 0, buildings={"hacienda": 0})
    _, s = pick(s, "settler", 0)
    assert s.step == "take"


def test_hospice_mans_the_new_tile_from_the_supply():
    """D26: the hospice colonist goes straight onto the new tile."""
    s = new_game(4)
    give(s, 0, buildings={"hospice": 1})
    kind = _row_kind(s)
    _, s = pick(s, "settler", 0)
    _, s = act(s, {"type": "take_plantation", "plantation": kind})
    assert s.step == "hospice" and legal(s) == [{"type": "take_colonist"}, PASS]
    supply = s.colonist_supply
    events, s = act(s, {"type": "take_colonist"})
    assert events[0] == {"type": "HospiceColonistPlaced", "seat": 0, "tile": kind, "source": "supply"}
    assert s.colonist_supply == supply - 1
    assert s.players[0].manned[TILE_INDEX[kind]] == 1


def test_hospice_with_a_quarry_and_from_the_ship_when_the_supply_is_empty():
    s = new_game(4)
    give(s, 0, buildings={"hospice": 1})
    s.colonist_ship += s.colonist_supply
    s.colonist_supply = 0
    _, s = pick(s, "settler", 0)
    _, s = act(s, QUARRY_CMD)  # D41
    ship = s.colonist_ship
    events, s = act(s, {"type": "take_colonist"})
    assert events[0]["source"] == "ship" and events[0]["tile"] == "quarry"  # D3
    assert s.colonist_ship == ship - 1 and s.players[0].manned[QUARRY] == 1


def test_hospice_without_any_colonist_is_skipped():
    s = new_game(4)
    give(s, 0, buildings={"hospice": 1})
    s.colonist_supply = 0
    s.colonist_ship = 0
    _, s = pick(s, "settler", 0)
    _, s = act(s, QUARRY_CMD)
    assert s.current == 1 and s.step != "hospice"


def test_hospice_declined():
    s = new_game(4)
    give(s, 0, buildings={"hospice": 1})
    _, s = pick(s, "settler", 0)
    _, s = act(s, QUARRY_CMD)
    events, s = act(s, PASS)
    assert events[0] == {"type": "Passed", "seat": 0, "decision": "hospice"}
    assert s.players[0].manned[QUARRY] == 0


def test_full_island_cannot_take():
    s = new_game(4)
    give(s, 0, tiles={"corn": (6, 0), "quarry": (5, 0)})  # 11 + the starting indigo = 12
    assert sum(s.players[0].tiles) == 12
    _, s = pick(s, "settler", 0)
    assert s.current == 1  # D7: the picker is skipped


def test_last_duties_discard_the_row_and_refill():
    s = new_game(4)
    _, s = pick(s, "settler", 0)
    row_before = list(s.face_up)
    stack_before = len(s.stack)
    events = []
    for _ in range(4):
        ev, s = act(s, PASS)
        events += ev
    assert types(events)[-2:] == ["PlantationsDiscarded", "PlantationsDealt"]
    assert s.discard == row_before and sum(s.face_up) == 5 and len(s.stack) == stack_before - 5
    assert of_type(events, "PlantationsDealt")[0]["plantations"] and s.phase == "pick" and s.current == 1


def test_refill_reshuffles_the_discards_only_when_a_tile_is_still_needed():
    s = new_game(4)
    # leave 2 tiles in the stack, 7 in the discard pile
    while len(s.stack) > 2:
        s.discard[s.stack.pop(0)] += 1
    _, s = pick(s, "settler", 0)
    events = []
    for _ in range(4):
        ev, s = act(s, PASS)
        events += ev
    assert types(events)[-4:] == [
        "PlantationsDiscarded",
        "PlantationsDealt",
        "PlantationStackShuffled",
        "PlantationsDealt",
    ]
    assert len(events[-3]["plantations"]) == 2 and len(events[-1]["plantations"]) == 3
    assert sum(s.face_up) == 5 and s.discard == [0] * 5
    assert all(RULES.reveals(e) for e in events[-3:])


def test_exactly_emptied_stack_is_not_reshuffled():
    s = new_game(4)
    while len(s.stack) > 5:
        s.discard[s.stack.pop(0)] += 1
    discard = list(s.discard)
    _, s = pick(s, "settler", 0)
    events = []
    for _ in range(4):
        ev, s = act(s, PASS)
        events += ev
    assert "PlantationStackShuffled" not in types(events)
    assert s.stack == [] and sum(s.face_up) == 5
    assert sum(s.discard) == sum(discard) + 5  # the old row joined the discard pile, which stays as it is


def test_row_stays_short_when_no_tiles_are_left():
    s = new_game(4)
    s.stack = [CORN, INDIGO]
    s.discard = [0] * 5
    s.face_up = [0] * 5
    _, s = pick(s, "settler", 0)
    # nobody can take a plantation; only the picker has a quarry option
    assert legal(s) == [QUARRY_CMD, PASS]
    events = []
    for _ in range(1):
        ev, s = act(s, PASS)
        events += ev
    assert sum(s.face_up) == 2 and s.stack == []  # D29: fewer tiles on offer
    refused(s, {"type": "select_role", "role": "settler"})  # already picked this round
    s.role_taken = [False] * len(s.role_taken)
    _, s = pick(s, "settler", 1)
    assert s.current == 1 and legal(s)[-1] == PASS


def test_settler_turn_order_runs_clockwise_from_the_picker():
    s = new_game(4)
    _, s = pick(s, "settler", 2)
    seen = []
    while s.phase == "settler":
        seen.append(s.current)
        _, s = act(s, PASS)
    assert seen == [2, 3, 0, 1] and s.current == 3 and s.phase == "pick"
