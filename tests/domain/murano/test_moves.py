"""Ship moves (§6.1-§6.4): blocking, the cost schedule, the completability filter, pass; acceptance examples
1, 2, 3, 10, 11 and 13 of §16.1."""

from __future__ import annotations

from domain.murano import queries as q
from tests.domain.murano.helpers import (
    decide,
    given,
    gold,
    legal,
    moves,
    opening,
    passes,
    play,
    refused,
    setup_event,
    ship_on,
    special,
    started,
    types,
)


def move(state, frm: int, to: int) -> dict:
    return {"type": "move_ship", "ship": ship_on(state, frm), "to": to}


def test_start_position_has_one_ship_per_anchor_and_red_on_the_recorded_anchor():
    state = given(*opening())
    assert sorted(state.ships) == [0, 3, 6, 7, 9, 12, 13, 17]
    assert state.ships[0] == 0


def test_example_1_free_first_move_and_blocking():
    state = given(*opening())
    events = decide(state, move(state, 0, 1))
    assert events == [{"type": "ShipMoved", "seat": 0, "ship": 0, "from": 0, "to": 1, "cost": 0}]
    after = given(*events, state=state)
    assert q.current_action(after) == "buy_glass_factory"
    assert (0, 2) in moves(state)
    refused(state, move(state, 0, 3))  # occupied: no sharing
    refused(state, move(state, 0, 4))  # would pass the ship on 3


def test_example_2_unblocking_costs_one_gold_and_acts_at_build():
    state = given(*opening())
    state, events = play(state, move(state, 7, 8))
    state, more = play(state, move(state, 6, 7))
    assert more[0]["cost"] == 1 and state.gold[0] == 4
    assert q.current_action(state) == "build"
    assert {"type": "act"} in legal(state)
    # a third move would cost 2 more
    state, third = play(state, move(state, 0, 1))
    assert third[0]["cost"] == 2 and state.gold[0] == 2


def test_example_3_cost_series_and_shipyard():
    base = [setup_event(), gold(0, 5)]
    state = given(*base, started(0))
    for frm, to in ((0, 1), (3, 4), (7, 8), (9, 10)):
        state, _ = play(state, move(state, frm, to))
    assert state.gold[0] == 10 - (0 + 1 + 2 + 3)
    state = given(*base, special(0, "SB09"), started(0))
    for frm, to in ((0, 1), (3, 4), (7, 8), (9, 10)):
        state, _ = play(state, move(state, frm, to))
    assert state.gold[0] == 10 - (0 + 0 + 1 + 2)


def test_shipyard_only_counts_from_the_owners_next_turn():
    state = given(setup_event(), started(0), special(0, "SB09"))
    state, _ = play(state, move(state, 0, 1))
    state, events = play(state, move(state, 3, 4))
    assert events[0]["cost"] == 1


def test_the_same_ship_may_move_twice_and_each_move_counts():
    state = given(*opening())
    state, _ = play(state, move(state, 0, 1))
    state, events = play(state, move(state, 1, 2))
    assert events[0]["cost"] == 1 and state.moves == 2


def test_example_10_stranded_moves_are_filtered_with_no_gold():
    state = given(setup_event(), gold(0, -5), started(0))
    assert moves(state) == set()
    expected = {(0, 1), (0, 2), (3, 4), (3, 5), (7, 8), (9, 10), (9, 11), (13, 14), (13, 15), (13, 16)}
    assert passes(state) == {(ship_on(state, frm), to) for frm, to in expected}
    assert len(legal(state)) == 10


def test_example_11_filter_with_one_gold():
    state = given(setup_event(), gold(0, -4), started(0))
    assert (ship_on(state, 7), 8) in moves(state)
    state, _ = play(state, move(state, 7, 8))
    options = legal(state)
    assert {"type": "act"} not in options  # buy special building needs 2 gold
    assert options == [move(state, 6, 7)]
    refused(state, move(state, 0, 1))


def test_act_is_refused_before_any_move_and_when_unavailable():
    state = given(*opening())
    refused(state, {"type": "act"})
    state = given(setup_event(), gold(0, -4), started(0))
    state, _ = play(state, move(state, 7, 8))
    refused(state, {"type": "act"})


def test_pass_takes_one_gold_moves_one_ship_and_ends_the_turn():
    state = given(*opening())
    events = decide(state, {"type": "pass", "ship": ship_on(state, 13), "to": 16})
    assert types(events) == ["Passed", "TurnEnded", "TurnStarted"]
    assert events[0] == {"type": "Passed", "seat": 0, "ship": ship_on(state, 13), "from": 13, "to": 16, "gold": 1}
    after = given(*events, state=state)
    assert after.gold[0] == 6 and after.active == 1 and after.ships[ship_on(state, 13)] == 16


def test_pass_only_as_first_command_and_only_on_legal_moves():
    state = given(*opening())
    refused(state, {"type": "pass", "ship": ship_on(state, 0), "to": 3})
    state, _ = play(state, move(state, 0, 1))
    refused(state, {"type": "pass", "ship": ship_on(state, 3), "to": 4})


def test_malformed_moves_are_invalid_commands():
    state = given(*opening())
    refused(state, {"type": "move_ship", "ship": 9, "to": 1}, "invalid_command")
    refused(state, {"type": "move_ship", "ship": 0, "to": 18}, "invalid_command")
    refused(state, {"type": "move_ship", "ship": "0", "to": 1}, "invalid_command")
    refused(state, {"type": "move_ship", "ship": True, "to": 1}, "invalid_command")
    refused(state, {"type": "move_ship", "ship": 0}, "invalid_command")
    refused(state, {"type": "fly"}, "invalid_command")
    refused(state, {"type": "move_ship", "ship": 0, "to": 1}, "not_your_turn", seat=1)


def _arsenale_setup(owner_has_card: bool):
    ships = [3, 0, 6, 7, 9, 12, 13, 17]  # red ship (id 0) on 3
    events = [setup_event(ships=ships, red_ship_anchor=3)]
    if owner_has_card:
        events.append(special(0, "SB07"))
    events.append(started(0))
    return given(*events)


def test_example_13_arsenale_lets_the_red_ship_join_the_first_ship_ahead():
    with_card = _arsenale_setup(True)
    assert {to for ship, to in moves(with_card) if ship == 0} == {4, 5, 6}
    assert {to for ship, to in passes(with_card) if ship == 0} == {4, 5, 6}
    without = _arsenale_setup(False)
    assert {to for ship, to in moves(without) if ship == 0} == {4, 5}
    state, _ = play(with_card, {"type": "move_ship", "ship": 0, "to": 6})
    assert q.current_action(state) == "production"
    assert {"type": "act"} in legal(state)
    # nobody may move the red ship beyond 6
    refused(with_card, {"type": "move_ship", "ship": 0, "to": 7})


def test_example_13_shared_space_needs_both_ships_to_leave():
    state = _arsenale_setup(True)
    state, _ = play(state, {"type": "pass", "ship": 0, "to": 6})
    assert state.active == 1 and state.ships.count(6) == 2
    occ = q.occupancy(state.ships)
    assert q._route_length(occ, 6) == 5
    # no ship may enter 6 while it is shared
    assert all(to != 6 for _, to in moves(state) | passes(state))
    # either ship may leave it by a normal move
    assert (0, 8) not in moves(state) and (ship_on(state, 7), 8) in moves(state)
    black = [s for s, p in enumerate(state.ships) if p == 6 and s != 0][0]
    assert (0, 7) not in passes(state)  # the red ship on 6 is blocked by the ship on 7
    assert (black, 7) not in passes(state)


def test_route_length_walk():
    occ = q.occupancy([0, 3, 6, 7, 9, 12, 13, 17])
    assert q._route_length(occ, 1) == 1
    assert q._route_length(occ, 7) == 2  # ship on 7 moves to 8, then 6 -> 7
    assert q._route_length(occ, 12) == 3  # 13 -> 14, 12 -> 13, then 9 -> 12


def _exhaustive(ships, k, gold, last, needs, shipyard):
    """The definition of §6.3, by brute force (no Arsenale)."""
    if k >= 1 and needs[ships[last]] <= gold:
        return True
    cost = q.move_cost(k + 1, shipyard)
    if cost > gold:
        return False
    occ = q.occupancy(ships)
    for ship in range(8):
        for to in q.ship_targets(ships, occ, ship, False):
            nxt = list(ships)
            nxt[ship] = to
            if _exhaustive(nxt, k + 1, gold - cost, ship, needs, shipyard):
                return True
    return False


def test_fast_completability_agrees_with_the_definition():
    import random

    rng = random.Random(5)
    for _ in range(400):
        ships = rng.sample(range(18), 8)
        needs = [rng.choice([0, 0, 1, 2, 3, 4, 5, q.INF]) for _ in range(18)]
        k = rng.randint(1, 3)
        gold = rng.randint(0, 6)
        shipyard = rng.random() < 0.3
        last = rng.randrange(8)
        assert q.completable(ships, k, gold, last, needs, shipyard, False) == _exhaustive(
            ships, k, gold, last, needs, shipyard
        )


def _exhaustive_arsenale(ships, k, gold, last, needs, shipyard):
    if k >= 1 and needs[ships[last]] <= gold:
        return True
    cost = q.move_cost(k + 1, shipyard)
    if cost > gold:
        return False
    occ = q.occupancy(ships)
    for ship in range(8):
        for to in q.ship_targets(ships, occ, ship, True):
            nxt = list(ships)
            nxt[ship] = to
            if _exhaustive_arsenale(nxt, k + 1, gold - cost, ship, needs, shipyard):
                return True
    return False


def test_completability_for_arsenale_owners_agrees_with_the_definition():
    import random

    rng = random.Random(8)
    checked = 0
    for _ in range(300):
        ships = rng.sample(range(18), 8)
        if rng.random() < 0.3:  # the red ship sharing a space with a black one
            ships[0] = ships[1]
        needs = [rng.choice([0, 1, 2, 3, 4, 5, q.INF, q.INF]) for _ in range(18)]
        k = rng.randint(1, 3)
        gold = rng.randint(0, 5)
        shipyard = rng.random() < 0.3
        last = rng.randrange(8)
        expected = _exhaustive_arsenale(ships, k, gold, last, needs, shipyard)
        assert q.completable(ships, k, gold, last, needs, shipyard, True) == expected
        checked += expected
    assert 30 < checked < 300


def test_all_moves_matches_ship_targets():
    import random

    rng = random.Random(2)
    for _ in range(500):
        ships = rng.sample(range(18), 8)
        if rng.random() < 0.3:
            ships[0] = ships[rng.randrange(1, 8)]
        occ = q.occupancy(ships)
        for arsenale in (False, True):
            expected = [(s, t) for s in range(8) for t in q.ship_targets(ships, occ, s, arsenale)]
            assert q.all_moves(ships, occ, arsenale) == expected
