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
from .queries import place_targets, production
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
    """``value`` computed: of the arrangement the player's colonists in San Juan would take (``arranged``)."""
    return _placed_value(arranged(p) if p.san_juan and SAN_JUAN_ARRANGED else p)


# Whether colonists in San Juan are valued where they would be placed (``arranged``); 0 values them where they are
# (nowhere, but for what counts colonists). A tuned switch: ``benchmarks/evaluation_ab.py puerto_rico P LEVEL G
# --set SAN_JUAN_ARRANGED=0`` plays the two against each other.
SAN_JUAN_ARRANGED = 1

# The placement targets (``queries.place_targets``) that make a barrel only together: a plantation kind and a
# production building of its good (corn needs no building).
_PAIRS = tuple((BUILDINGS[b].good, 6 + b) for b in range(len(BUILDINGS)) if BUILDINGS[b].good > CORN)


def arranged(p: Player) -> Player:
    """A copy of ``p`` with its colonists in San Juan placed where they add most to ``value``, as long as a
    placement adds anything (``p`` itself when none is in San Juan or no circle is empty).

    The Mayor gathers every colonist of a player in San Juan before they are placed one by one (docs/rules
    §4.2), so a position in the middle of a placement holds the player's workforce in San Juan; a player never
    keeps one there while a circle is empty. Greedy by the gain per colonist of one placement or of a
    plantation with a production building of its good (either alone may add no barrel)."""
    if not p.san_juan or not place_targets(p):
        return p
    p = p.copy()
    current = _placed_value(p)
    while p.san_juan:
        targets = place_targets(p)
        best: tuple[int, ...] = ()
        best_gain = 0.0
        best_value = current
        moves: list[tuple[int, ...]] = [(t,) for t in targets]
        if p.san_juan >= 2:
            moves.extend(pair for pair in _PAIRS if pair[0] in targets and pair[1] in targets)
        for move in moves:
            _place(p, move, 1)
            after = _placed_value(p)
            _place(p, move, -1)
            gain = (after - current) / len(move)
            if gain > best_gain + 1e-9:
                best, best_gain, best_value = move, gain, after
        if not best:
            break
        _place(p, best, 1)
        current = best_value
    return p


def _place(p: Player, targets: tuple[int, ...], step: int) -> None:
    """One colonist from San Juan onto each of ``targets`` (``step`` 1), or back (``step`` -1)."""
    for t in targets:
        if t < 6:
            p.manned[t] += step
        else:
            p.buildings[t - 6] += step
        p.san_juan -= step


def _placed_value(p: Player) -> float:
    """``value`` of the colonists where they are."""
    prod = production(p)
    capacity = sum(amount * (1 + PRICES[g]) for g, amount in enumerate(prod))
    goods = sum(n * (1 + PRICES[g]) for g, n in enumerate(p.goods))
    return score(p) + 0.5 * sum(1 for c in p.buildings if c >= 0) + 0.4 * capacity + 0.3 * p.doubloons + 0.1 * goods


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
