"""The heuristic the bots play Puerto Rico with (``evaluate``), and hand-written plans: evaluations that pull
a bot towards one known strategy.

A plan bot (``domain.bots.planned``, ``plan:pr-shipping`` / ``plan:pr-building``) is the greedy bot
scoring positions with ``evaluate`` plus the plan's bonus for the seat's own progress on it:

- **shipping** (corn, harbor, wharf): corn plantations, manned; a harbor and a wharf, manned; warehouses
  to keep what cannot ship; goods in store (they are shipped for VP); later the customs house;
- **building** (factory and large buildings): quarries, manned; production buildings of several kinds
  for the factory; the factory, manned; money towards the large buildings, which count most.

Bonuses are in the units of ``value`` (about one VP), small enough that a plan never makes the
bot give up a clearly better move, large enough to decide between comparable ones.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.game import keep, relative_to_best_other

from .data import (
    BUILDINGS,
    CAPS,
    CORN,
    CUSTOMS_HOUSE,
    FACTORY,
    HARBOR,
    LARGE_BUILDINGS,
    LARGE_WAREHOUSE,
    PRICES,
    QUARRY,
    SMALL_WAREHOUSE,
    UNIVERSITY,
    WHARF,
)
from .queries import production
from .scoring import score
from .state import Player, PRState


def value(p: Player) -> float:
    """Heuristic worth of one player's position: VP, buildings, production capacity, money. Kept by what it
    reads of the player (``_VALUES``)."""
    key = value_key(p)
    known = _VALUES.get(key)
    return keep(_VALUES, key, _value(p), _VALUES_ENTRIES) if known is None else known


def value_key(p: Player) -> tuple[int, ...]:
    """Every field of the player ``value`` reads, by value (the fast path changes players in place): all of them
    but ``spaces``, which follows from the buildings."""
    return (p.doubloons, p.vp, p.vp_owed, p.san_juan, *p.goods, *p.tiles, *p.manned, *p.buildings)


# ``value`` by ``value_key``: a search scores many positions in which only the seat to move changed.
_VALUES: dict[tuple[int, ...], float] = {}
_VALUES_ENTRIES = 4096


def _value(p: Player) -> float:
    """``value`` computed: with the player's colonists in San Juan where they would be placed (``arranged``)."""
    return _placed_value(arranged(p) if p.san_juan and SAN_JUAN_ARRANGED else p)


# Whether colonists in San Juan are valued where they would be placed (``arranged``); 0 values them where they
# are (nowhere, but for what counts colonists). Measured 2026-11-30 with ``benchmarks/evaluation_ab.py
# puerto_rico P LEVEL G --set SAN_JUAN_ARRANGED=0`` (LEVEL with it against LEVEL without it): ``easy`` won 0.443
# [0.376, 0.512] of 201 three-player games (even 0.333; seed 7100) and 0.782 [0.720, 0.834] of 200 two-player games
# (seed 7101); ``medium`` won 0.738 [0.585, 0.849] of 40 two-player games (seed 7200).
SAN_JUAN_ARRANGED = 1

# What a barrel a player can make each production phase adds to ``_placed_value``, by good.
CAPACITY_WEIGHT = 0.4
# Tried and not kept (2026-12-02): the wharf's function worth W in ``_placed_value``, half for owning it and half for
# manning it, with ``arranged`` placing a colonist on an empty wharf for W / 2. Without it no level builds a wharf (it
# costs 9 doubloons less up to 3 for quarries, worth 3 VP, where cheaper buildings score more per doubloon), so none
# chooses ``ship_with_wharf``. ``benchmarks/evaluation_ab.py puerto_rico P LEVEL G --set WHARF_VALUE=4`` (LEVEL
# without the term against LEVEL with it): ``easy`` without it won 0.507 [0.439, 0.576] of 200 two-player games (seed
# 7405) and 0.331 [0.270, 0.399] of 201 three-player games (even 0.333; seed 7406), not shown apart, while ``easy`` with
# it chose ``ship_with_wharf`` 52 and 56 times; but ``medium`` without it won 0.675 [0.520, 0.799] of 40 two-player
# games (seed 7407; 34.3 points against 31.2), and ``medium`` with it shipped by the wharf 4 times in them. (Drafts
# before: W = 8 read as W = 4 for ``easy``; the wharf counted only when manned, W = 3, 6 and 10, was almost never
# built.)
# Tried and not kept (2026-11-30, on a scratch change): a manned violet building worth W per doubloon of its cost in
# ``_placed_value`` (its function works only while manned; nothing values that here), with ``arranged`` placing a
# colonist on an empty violet building for that gain. ``benchmarks/evaluation_ab.py puerto_rico P easy G`` with the
# term against ``easy`` without it: W = 0.1 won 0.502 [0.434, 0.571] of 200 two-player games (seed 7300) and 0.391
# [0.326, 0.459] of 201 three-player games (even 0.333; seed 7302), neither shown apart; W = 0.1 against W = 0.3 won
# 0.568 [0.498, 0.634] of 200 two-player games (seed 7301). ``medium`` was not measured with it.
_BARREL = tuple(CAPACITY_WEIGHT * (1 + price) for price in PRICES)
# The production buildings of each good (none for corn).
_MAKERS = tuple(tuple(b for b, building in enumerate(BUILDINGS) if building.good == g) for g in range(len(PRICES)))
_LARGE = tuple(sorted(LARGE_BUILDINGS))


def arranged(p: Player) -> Player:
    """``p``, or a copy with its colonists in San Juan placed on its empty circles where they add most to
    ``_placed_value``, greedily by the gain per colonist, as long as a placement adds anything.

    The Mayor gathers every colonist of a player in San Juan before they are placed one by one
    (docs/rules/puerto_rico.md §4.2), so a position in the middle of a placement holds the player's workforce in
    San Juan; a player never keeps one there while a circle is empty. A colonist adds to ``_placed_value`` in two
    ways only: a barrel of production (a corn plantation; a plantation of another good with a manned circle of its
    production buildings to spare, or such a circle with a manned plantation to spare; else the two together, two
    colonists for one barrel), and the bonus of a large building it occupies.
    ``tests/domain/puerto_rico/test_evaluate.py`` holds this equal to placing one colonist (or pair) at a time where
    ``_placed_value`` gains most."""
    b = p.buildings
    manned = p.manned
    tiles = p.tiles
    options: list[tuple[float, int, int, int, int]] = []  # (gain per colonist, colonists a unit, units, how, what)
    corn = tiles[CORN] - manned[CORN]
    if corn > 0:
        options.append((_BARREL[CORN], 1, corn, _PLANTATION, CORN))
    for good in range(CORN + 1, len(PRICES)):
        plantations = tiles[good] - manned[good]
        working = 0  # manned circles of the good's production buildings
        circles = 0  # empty ones
        for maker in _MAKERS[good]:
            c = b[maker]
            if c >= 0:
                working += c
                circles += CAPS[maker] - c
        spare = working - manned[good]  # manned circles without a manned plantation (negative: the other way)
        if spare > 0 and plantations > 0:
            single = min(plantations, spare)
            options.append((_BARREL[good], 1, single, _PLANTATION, good))
            plantations -= single
        elif spare < 0 and circles > 0:
            single = min(circles, -spare)
            options.append((_BARREL[good], 1, single, _MAKER, good))
            circles -= single
        pairs = min(plantations, circles)
        if pairs > 0:
            options.append((_BARREL[good] / 2, 2, pairs, _PAIR, good))
    large = [building for building in _LARGE if b[building] == 0]
    if large:
        before = score(p)
        q = p.copy()
        for building in large:
            q.buildings[building] = 1
            q.san_juan -= 1
            options.append((score(q) - before, 1, 1, _LARGE_BUILDING, building))
            q.buildings[building] = 0
            q.san_juan += 1
    free = p.san_juan
    out = p
    for per, cost, units, how, what in sorted(options, key=_most_per_colonist):  # of equals, one colonist first
        if per <= 0 or free < cost:
            continue
        taken = min(units, free // cost)
        if out is p:
            out = p.copy()
        if how == _LARGE_BUILDING:
            out.buildings[what] = 1
        if how in (_PLANTATION, _PAIR):
            out.manned[what] += taken
        if how in (_MAKER, _PAIR):
            _man_makers(out, what, taken)
        out.san_juan -= taken * cost
        free -= taken * cost
        if not free:
            break
    return out


# How an option of ``arranged`` places its colonists: on plantations of a good, on its production buildings, on
# both (a pair), on a large building.
_PLANTATION, _MAKER, _PAIR, _LARGE_BUILDING = range(4)


def _man_makers(p: Player, good: int, colonists: int) -> None:
    """``colonists`` more on the empty circles of ``p``'s production buildings of ``good``."""
    b = p.buildings
    for maker in _MAKERS[good]:
        if colonists <= 0:
            return
        if b[maker] >= 0:
            added = min(colonists, CAPS[maker] - b[maker])
            b[maker] += added
            colonists -= added


def _most_per_colonist(option: tuple[float, int, int, int, int]) -> tuple[float, int]:
    return -option[0], option[1]


def _placed_value(p: Player) -> float:
    """``value`` of the colonists where they are."""
    prod = production(p)
    capacity = sum(amount * (1 + PRICES[g]) for g, amount in enumerate(prod))
    goods = sum(n * (1 + PRICES[g]) for g, n in enumerate(p.goods))
    return (
        score(p)
        + 0.5 * sum(1 for c in p.buildings if c >= 0)
        + CAPACITY_WEIGHT * capacity
        + 0.3 * p.doubloons
        + 0.1 * goods
    )


def evaluate(s: PRState, seat: int) -> float:
    """Own value minus the best opponent's (higher is better for ``seat``)."""
    mine = value(s.players[seat])
    others = [value(p) for i, p in enumerate(s.players) if i != seat]
    return mine - (max(others) if others else 0.0)


def evaluate_all(s: PRState) -> list[float]:
    """``evaluate`` for every seat, each value computed once."""
    return relative_to_best_other([value(p) for p in s.players])


def _owned(p: Player, building: int, owned: float, manned: float) -> float:
    colonists = p.buildings[building]
    if colonists < 0:
        return 0.0
    return owned + (manned if colonists > 0 else 0.0)


def shipping_bonus(p: Player) -> float:
    bonus = 0.8 * p.tiles[CORN] + 0.6 * p.manned[CORN]
    bonus += _owned(p, HARBOR, 3.0, 3.0) + _owned(p, WHARF, 3.0, 3.0)
    bonus += _owned(p, SMALL_WAREHOUSE, 1.0, 0.5) + _owned(p, LARGE_WAREHOUSE, 1.0, 0.5)
    bonus += _owned(p, CUSTOMS_HOUSE, 2.0, 2.0)
    bonus += 0.25 * sum(p.goods)
    return bonus


def building_bonus(p: Player) -> float:
    bonus = 0.8 * p.tiles[QUARRY] + 0.6 * p.manned[QUARRY]
    kinds = {BUILDINGS[i].good for i, c in enumerate(p.buildings) if c > 0 and BUILDINGS[i].good >= 0}
    bonus += 0.8 * len(kinds)
    bonus += _owned(p, FACTORY, 3.0, 3.0) + _owned(p, UNIVERSITY, 1.0, 0.5)
    bonus += sum(_owned(p, i, 2.0, 2.0) for i in LARGE_BUILDINGS)
    bonus += 0.15 * min(p.doubloons, 10)
    return bonus


PLANS: dict[str, Callable[[Player], float]] = {"shipping": shipping_bonus, "building": building_bonus}


def plan_evaluation(plan: str) -> Callable[[PRState, int], float]:
    """``evaluate`` plus the named plan's bonus for the seat (``ValueError`` for an unknown plan)."""
    try:
        bonus = PLANS[plan]
    except KeyError:
        raise ValueError(f"unknown Puerto Rico plan {plan!r}; known: {', '.join(PLANS)}") from None

    def plan_evaluate(state: PRState, seat: int) -> float:
        return evaluate(state, seat) + bonus(state.players[seat])

    return plan_evaluate
