"""Rule queries: what a player may do at each decision point, as small internal values (ints, tuples).

Section (§) and ruling (D, Q) numbers are those of docs/rules/puerto_rico.md.
"""

from __future__ import annotations

from .data import (
    CAPS,
    COFFEE,
    COFFEE_ROASTER,
    COLUMNS,
    CONSTRUCTION_HUT,
    CORN,
    COSTS,
    HACIENDA,
    HOSPICE,
    INDIGO,
    INDIGO_PLANT,
    ISLAND_SPACES,
    LARGE_MARKET,
    LARGE_WAREHOUSE,
    N_BUILDINGS,
    OFFICE,
    PRICES,
    QUARRY,
    SIZES,
    SMALL_INDIGO_PLANT,
    SMALL_MARKET,
    SMALL_SUGAR_MILL,
    SMALL_WAREHOUSE,
    SUGAR,
    SUGAR_MILL,
    TOBACCO,
    TOBACCO_STORAGE,
    UNIVERSITY,
    WHARF,
)
from .state import Player, PRState

CITY = 12


# ---------------------------------------------------------------- settler


def hacienda_ok(s: PRState, seat: int) -> bool:
    p = s.players[seat]
    return p.buildings[HACIENDA] > 0 and bool(s.stack) and sum(p.tiles) < ISLAND_SPACES


def take_options(s: PRState, seat: int) -> list[int]:
    """Tile kinds the player may take in the main take (plantation kinds in the row, then QUARRY)."""
    p = s.players[seat]
    if sum(p.tiles) >= ISLAND_SPACES:
        return []
    out = [k for k in range(5) if s.face_up[k] > 0]
    if s.quarries > 0 and (seat == s.picker or p.buildings[CONSTRUCTION_HUT] > 0):
        out.append(QUARRY)
    return out


def colonist_source(s: PRState) -> str | None:
    """Where a hospice or university colonist comes from (D3)."""
    if s.colonist_supply > 0:
        return "supply"
    if s.colonist_ship > 0:
        return "ship"
    return None


def hospice_ok(s: PRState, seat: int) -> bool:
    return s.took >= 0 and s.players[seat].buildings[HOSPICE] > 0 and (s.colonist_supply + s.colonist_ship) > 0


# ---------------------------------------------------------------- mayor

_BUILDING_TARGETS = tuple(zip(range(6, 6 + N_BUILDINGS), CAPS, strict=True))


def place_targets(p: Player) -> list[int]:
    """Mayor placement targets with an empty circle: tile kinds 0..5, then 6 + building index."""
    manned = p.manned
    out = [k for k, n in enumerate(p.tiles) if manned[k] < n]
    out.extend(t for (t, cap), c in zip(_BUILDING_TARGETS, p.buildings, strict=True) if 0 <= c < cap)
    return out


def has_room(p: Player, target: int) -> bool:
    """Whether a placement target (as in ``place_targets``) has an empty circle."""
    if target < 6:
        return p.manned[target] < p.tiles[target]
    c = p.buildings[target - 6]
    return 0 <= c < CAPS[target - 6]


def several_targets(p: Player) -> bool:
    """Whether the player has two or more placement targets (else the step is forced)."""
    found = 0
    manned = p.manned
    for k, n in enumerate(p.tiles):
        if manned[k] < n:
            found += 1
            if found > 1:
                return True
    for b, c in enumerate(p.buildings):
        if 0 <= c < CAPS[b]:
            found += 1
            if found > 1:
                return True
    return False


def distribution(s: PRState) -> list[int]:
    """Colonists each seat gets from the ship, one at a time from the picker (§4.2 step 2)."""
    n, ship = s.n, s.colonist_ship
    out = [0] * n
    for k in range(n):
        out[(s.picker + k) % n] = ship // n + (1 if k < ship % n else 0)
    return out


# ---------------------------------------------------------------- builder


def build_price(s: PRState, seat: int, b: int) -> int:
    p = s.players[seat]
    privilege = 1 if seat == s.picker else 0
    quarries = p.manned[QUARRY]
    col = COLUMNS[b]
    return max(0, COSTS[b] - privilege - (quarries if quarries < col else col))


def build_options(s: PRState, seat: int) -> list[tuple[int, int]]:
    """(building, price) pairs the player may build now."""
    p = s.players[seat]
    free = CITY - p.spaces
    if free <= 0:
        return []
    privilege = 1 if seat == s.picker else 0
    quarries = p.manned[QUARRY]
    money = p.doubloons
    supply = s.building_supply
    owned = p.buildings
    out = []
    for b in range(N_BUILDINGS):
        if supply[b] <= 0 or owned[b] >= 0 or SIZES[b] > free:
            continue
        col = COLUMNS[b]
        price = COSTS[b] - privilege - (quarries if quarries < col else col)
        if price < 0:
            price = 0
        if price <= money:
            out.append((b, price))
    return out


def university_ok(s: PRState, seat: int) -> bool:
    return s.built >= 0 and s.players[seat].buildings[UNIVERSITY] > 0 and (s.colonist_supply + s.colonist_ship) > 0


# ---------------------------------------------------------------- craftsman


def production(p: Player) -> list[int]:
    """Barrels a player's occupied plantations and buildings turn out, before supply limits (§4.4)."""
    b = p.buildings
    m = p.manned
    indigo = max(b[SMALL_INDIGO_PLANT], 0) + max(b[INDIGO_PLANT], 0)
    sugar = max(b[SMALL_SUGAR_MILL], 0) + max(b[SUGAR_MILL], 0)
    return [
        m[CORN],
        min(m[INDIGO], indigo),
        min(m[SUGAR], sugar),
        min(m[TOBACCO], max(b[TOBACCO_STORAGE], 0)),
        min(m[COFFEE], max(b[COFFEE_ROASTER], 0)),
    ]


def craftsman_privilege_options(s: PRState) -> list[int]:
    return [g for g in s.received if s.goods_supply[g] > 0]


# ---------------------------------------------------------------- trader


def sell_price(s: PRState, seat: int, g: int) -> int:
    p = s.players[seat]
    price = PRICES[g]
    if seat == s.picker:
        price += 1
    if p.buildings[SMALL_MARKET] > 0:
        price += 1
    if p.buildings[LARGE_MARKET] > 0:
        price += 2
    return price


def sell_options(s: PRState, seat: int) -> list[int]:
    house = s.trading_house
    if len(house) >= 4:
        return []
    p = s.players[seat]
    office = p.buildings[OFFICE] > 0
    return [g for g in range(5) if p.goods[g] > 0 and (office or g not in house)]


# ---------------------------------------------------------------- captain


def cargo_options(s: PRState, seat: int) -> list[tuple[int, int, int]]:
    """(good, ship, amount) cargo loads the player may make (§4.6, D9, D43)."""
    goods = s.players[seat].goods
    kinds = s.ship_kinds
    loads = s.ship_loads
    caps = s.ship_caps
    out = []
    for g in range(5):
        held = goods[g]
        if held <= 0:
            continue
        if g in kinds:
            i = kinds.index(g)
            free = caps[i] - loads[i]
            if free > 0:
                out.append((g, i, held if held < free else free))
            continue
        best = 0
        cand = []
        for i in range(len(caps)):
            if loads[i] == 0:
                amount = held if held < caps[i] else caps[i]
                if amount > best:
                    best = amount
                    cand = [i]
                elif amount == best:
                    cand.append(i)
        for i in cand:
            out.append((g, i, best))
    return out


def wharf_options(s: PRState, seat: int) -> list[int]:
    p = s.players[seat]
    if p.buildings[WHARF] <= 0 or s.wharf_used[seat]:
        return []
    return [g for g in range(5) if p.goods[g] > 0]


def has_load_option(s: PRState, seat: int) -> bool:
    p = s.players[seat]
    goods = p.goods
    if not any(goods):
        return False
    if p.buildings[WHARF] > 0 and not s.wharf_used[seat]:
        return True
    kinds = s.ship_kinds
    loads = s.ship_loads
    caps = s.ship_caps
    empty_ship = 0 in loads
    for g in range(5):
        if goods[g] <= 0:
            continue
        if g in kinds:
            i = kinds.index(g)
            if loads[i] < caps[i]:
                return True
        elif empty_ship:
            return True
    return False


def storage_capacity(p: Player) -> int:
    """Kinds kept whole by warehouses: 1 (small) + 2 (large), occupied only."""
    return (1 if p.buildings[SMALL_WAREHOUSE] > 0 else 0) + (2 if p.buildings[LARGE_WAREHOUSE] > 0 else 0)


def held_kinds(p: Player) -> list[int]:
    return [g for g in range(5) if p.goods[g] > 0]
