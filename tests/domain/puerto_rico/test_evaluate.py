"""The bots' Puerto Rico heuristic (``value``) is kept by what it reads of a player: the kept value is the
computed one along random games, and every field of the player that counts is part of what it is kept by."""

from __future__ import annotations

import dataclasses
import random

import pytest

from domain.puerto_rico import evaluate as evaluate_module
from domain.puerto_rico.data import (
    BUILDINGS,
    CAPS,
    COFFEE,
    COFFEE_ROASTER,
    CORN,
    CUSTOMS_HOUSE,
    FORTRESS,
    INDIGO,
    N_BUILDINGS,
    SMALL_INDIGO_PLANT,
)
from domain.puerto_rico.evaluate import value, value_key
from domain.puerto_rico.queries import place_targets
from domain.puerto_rico.rules import PuertoRicoRules
from domain.puerto_rico.state import Player
from tests.domain.protocol_checks import lockstep_positions


def test_every_field_but_spaces_is_in_the_key():
    """A field added to the player is in ``value_key`` (or, like ``spaces``, shown not to count)."""
    base = Player()
    for f in dataclasses.fields(Player):
        if f.name == "spaces":
            continue
        changed = base.copy()
        current = getattr(changed, f.name)
        if isinstance(current, list):
            setattr(changed, f.name, [current[0] + 1, *current[1:]])
        else:
            setattr(changed, f.name, current + 1)
        assert value_key(changed) != value_key(base), f.name


def test_the_colonists_in_san_juan_and_owed_chips_count_through_the_large_buildings():
    """Two players alike but for what only a large building reads: the Fortress counts colonists in San Juan,
    the Customs House owed VP chips; a value kept for one is not read for the other."""
    fortress = Player()
    fortress.buildings = [-1] * N_BUILDINGS
    fortress.buildings[FORTRESS] = 1
    more = fortress.copy()
    more.san_juan = 3
    assert value(fortress) != value(more)
    customs = Player()
    customs.buildings = [-1] * N_BUILDINGS
    customs.buildings[CUSTOMS_HOUSE] = 1
    owed = customs.copy()
    owed.vp_owed = 4
    assert value(owed) - value(customs) == pytest.approx(5)  # 4 owed chips, and the Customs House's (0 + 4) // 4


@pytest.mark.parametrize("seats,seed", [(3, 2), (4, 7), (5, 11)])
def test_a_kept_value_is_the_computed_value_along_random_games(seats, seed):
    """Along random games played by the pure fold and by the in-place path (which changes players in place),
    every player's value read with the cache filled by every earlier position equals the value computed."""
    rules = PuertoRicoRules()
    for state, live in lockstep_positions(rules, seats, seed, 3000):
        for pure, fast in zip(state.players, live.players, strict=True):
            computed = evaluate_module._value(pure)
            assert value(pure) == computed and value(fast) == computed
    assert rules.is_over(state)


def _player(tiles: dict[int, int], buildings: dict[int, int], san_juan: int) -> Player:
    p = Player()
    p.tiles = [tiles.get(k, 0) for k in range(6)]
    p.manned = [0] * 6
    p.buildings = [buildings.get(b, -1) for b in range(N_BUILDINGS)]
    p.san_juan = san_juan
    return p


def test_colonists_gathered_in_san_juan_are_valued_where_they_would_be_placed():
    """The Mayor gathers every colonist in San Juan before placement (docs/rules/puerto_rico.md §4.2 step 3), and a
    player never keeps one there while a circle is empty: a position mid-placement is worth what the best arrangement
    gives, so a look-ahead cut short in the middle of the placement does not see the player's production as lost."""
    gathered = _player({CORN: 1, COFFEE: 1}, {COFFEE_ROASTER: 0}, san_juan=3)
    placed = gathered.copy()
    placed.san_juan = 0
    placed.manned[CORN] = placed.manned[COFFEE] = 1
    placed.buildings[COFFEE_ROASTER] = 1
    assert value(gathered) == pytest.approx(value(placed))
    worse = placed.copy()  # the coffee plantation manned without the roaster: no coffee
    worse.buildings[COFFEE_ROASTER] = 0
    worse.san_juan = 1
    assert value(gathered) > evaluate_module._placed_value(worse)


def test_a_production_pair_is_filled_even_when_each_half_alone_adds_nothing():
    """An indigo plantation and an indigo plant, both empty, and two colonists: one colonist on either adds no
    barrel, the two together add one. The arrangement places the pair."""
    gathered = _player({INDIGO: 1}, {SMALL_INDIGO_PLANT: 0}, san_juan=2)
    placed = gathered.copy()
    placed.san_juan = 0
    placed.manned[INDIGO] = 1
    placed.buildings[SMALL_INDIGO_PLANT] = 1
    assert value(gathered) == pytest.approx(value(placed))
    assert value(gathered) > evaluate_module._placed_value(gathered)


def test_colonists_with_no_empty_circle_add_nothing_but_what_reads_them():
    """With every circle full, the colonists in San Juan stay there (only the Fortress reads them)."""
    full = _player({CORN: 1}, {}, san_juan=0)
    full.manned[CORN] = 1
    spare = full.copy()
    spare.san_juan = 2
    assert value(spare) == pytest.approx(value(full))


def _place(p: Player, target: int) -> None:
    """One colonist from San Juan onto a placement target (as in ``queries.place_targets``)."""
    if target < 6:
        p.manned[target] += 1
    else:
        p.buildings[target - 6] += 1
    p.san_juan -= 1


def _one_at_a_time(p: Player) -> float:
    """The reference for ``arranged``: place the colonists in San Juan one at a time (or a plantation and a
    production building of its good together; of equal gains, the one first listed, a single colonist before a
    pair) where ``_placed_value`` gains most per colonist, while a placement gains anything; the value reached."""
    p = p.copy()
    current = evaluate_module._placed_value(p)
    pairs = [(BUILDINGS[b].good, 6 + b) for b in range(N_BUILDINGS) if BUILDINGS[b].good > CORN]
    while p.san_juan:
        targets = place_targets(p)
        moves: list[tuple[int, ...]] = [(t,) for t in targets]
        if p.san_juan >= 2:
            moves.extend(pair for pair in pairs if pair[0] in targets and pair[1] in targets)
        best: tuple[int, ...] = ()
        best_gain, best_value = 0.0, current
        for move in moves:
            q = p.copy()
            for t in move:
                _place(q, t)
            after = evaluate_module._placed_value(q)
            if (after - current) / len(move) > best_gain + 1e-9:
                best, best_gain, best_value = move, (after - current) / len(move), after
        if not best:
            break
        for t in best:
            _place(p, t)
        current = best_value
    return current


def _random_player(rng: random.Random) -> Player:
    p = Player()
    p.tiles = [rng.randint(0, 4) for _ in range(6)]
    p.manned = [rng.randint(0, n) for n in p.tiles]
    p.buildings = [rng.randint(0, CAPS[b]) if rng.random() < 0.3 else -1 for b in range(N_BUILDINGS)]
    p.san_juan = rng.randint(0, 9)
    p.vp = rng.randint(0, 30)
    p.doubloons = rng.randint(0, 12)
    return p


def test_the_arrangement_is_that_of_placing_one_colonist_at_a_time_where_the_value_gains_most():
    """``arranged`` (a closed form), through ``_value``, against the reference greedy over ``_placed_value`` itself,
    for players along random games (every Mayor placement among them) and for random players of every make-up."""
    rng = random.Random(5)
    players = [_random_player(rng) for _ in range(3000)]
    rules = PuertoRicoRules()
    for state, _ in lockstep_positions(rules, 3, 4, 3000):
        players.extend(p for p in state.players if p.san_juan)
    assert sum(1 for p in players if p.san_juan and place_targets(p)) > 1000
    for p in players:
        assert evaluate_module._value(p) == _one_at_a_time(p), p
