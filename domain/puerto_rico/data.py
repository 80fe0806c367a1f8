"""Puerto Rico components and set-up tables (rules file §1, §14).

Goods and plantation kinds are small integers in the state; events and commands use their names.

Section (§) and ruling (D, Q) numbers are those of docs/rules/puerto_rico.md.
"""

from __future__ import annotations

from dataclasses import dataclass

# Goods / plantation kinds (canonical order of the rules file §11). QUARRY is an island tile, not a good.
CORN, INDIGO, SUGAR, TOBACCO, COFFEE, QUARRY = range(6)
GOODS = ("corn", "indigo", "sugar", "tobacco", "coffee")
TILE_NAMES = GOODS + ("quarry",)
GOOD_INDEX = {name: i for i, name in enumerate(GOODS)}
TILE_INDEX = {name: i for i, name in enumerate(TILE_NAMES)}
PRICES = (0, 1, 2, 3, 4)

ROLE_KINDS = ("settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector")

ISLAND_SPACES = 12
CITY_SPACES = 12
TRADING_HOUSE_SPACES = 4


@dataclass(frozen=True)
class BuildingType:
    name: str
    cost: int
    vp: int  # printed VP; also the column, i.e. the quarry-discount cap (D19)
    cap: int  # colonist circles
    copies: int
    size: int  # city spaces
    kind: str  # "small_production", "large_production", "violet", "large"
    good: int  # the good a production building turns out, else -1


BUILDINGS: tuple[BuildingType, ...] = (
    BuildingType("small_indigo_plant", 1, 1, 1, 4, 1, "small_production", INDIGO),
    BuildingType("small_sugar_mill", 2, 1, 1, 4, 1, "small_production", SUGAR),
    BuildingType("indigo_plant", 3, 2, 3, 3, 1, "large_production", INDIGO),
    BuildingType("sugar_mill", 4, 2, 3, 3, 1, "large_production", SUGAR),
    BuildingType("tobacco_storage", 5, 3, 3, 3, 1, "large_production", TOBACCO),
    BuildingType("coffee_roaster", 6, 3, 2, 3, 1, "large_production", COFFEE),
    BuildingType("small_market", 1, 1, 1, 2, 1, "violet", -1),
    BuildingType("hacienda", 2, 1, 1, 2, 1, "violet", -1),
    BuildingType("construction_hut", 2, 1, 1, 2, 1, "violet", -1),
    BuildingType("small_warehouse", 3, 1, 1, 2, 1, "violet", -1),
    BuildingType("hospice", 4, 2, 1, 2, 1, "violet", -1),
    BuildingType("office", 5, 2, 1, 2, 1, "violet", -1),
    BuildingType("large_market", 5, 2, 1, 2, 1, "violet", -1),
    BuildingType("large_warehouse", 6, 2, 1, 2, 1, "violet", -1),
    BuildingType("factory", 7, 3, 1, 2, 1, "violet", -1),
    BuildingType("university", 8, 3, 1, 2, 1, "violet", -1),
    BuildingType("harbor", 8, 3, 1, 2, 1, "violet", -1),
    BuildingType("wharf", 9, 3, 1, 2, 1, "violet", -1),
    BuildingType("guild_hall", 10, 4, 1, 1, 2, "large", -1),
    BuildingType("residence", 10, 4, 1, 1, 2, "large", -1),
    BuildingType("fortress", 10, 4, 1, 1, 2, "large", -1),
    BuildingType("customs_house", 10, 4, 1, 1, 2, "large", -1),
    BuildingType("city_hall", 10, 4, 1, 1, 2, "large", -1),
)
(
    SMALL_INDIGO_PLANT,
    SMALL_SUGAR_MILL,
    INDIGO_PLANT,
    SUGAR_MILL,
    TOBACCO_STORAGE,
    COFFEE_ROASTER,
    SMALL_MARKET,
    HACIENDA,
    CONSTRUCTION_HUT,
    SMALL_WAREHOUSE,
    HOSPICE,
    OFFICE,
    LARGE_MARKET,
    LARGE_WAREHOUSE,
    FACTORY,
    UNIVERSITY,
    HARBOR,
    WHARF,
    GUILD_HALL,
    RESIDENCE,
    FORTRESS,
    CUSTOMS_HOUSE,
    CITY_HALL,
) = range(23)
BUILDING_NAMES = tuple(b.name for b in BUILDINGS)
BUILDING_INDEX = {name: i for i, name in enumerate(BUILDING_NAMES)}
N_BUILDINGS = len(BUILDINGS)
CAPS = tuple(b.cap for b in BUILDINGS)
COSTS = tuple(b.cost for b in BUILDINGS)
COLUMNS = tuple(b.vp for b in BUILDINGS)
SIZES = tuple(b.size for b in BUILDINGS)
VIOLET = frozenset(i for i, b in enumerate(BUILDINGS) if b.kind in ("violet", "large"))
LARGE_BUILDINGS = frozenset(i for i, b in enumerate(BUILDINGS) if b.kind == "large")
# Mayor placement targets: plantation kinds and quarry (0..5), then buildings (6 + index).
TARGET_NAMES = TILE_NAMES + BUILDING_NAMES
TARGET_INDEX = {name: i for i, name in enumerate(TARGET_NAMES)}

# Factory: doubloons for the number of kinds actually received (D14).
FACTORY_PAY = (0, 0, 1, 2, 3, 5)


@dataclass(frozen=True)
class SetupTable:
    doubloons: int
    starting: tuple[int, ...]  # plantation kind by clockwise offset from the first governor
    vp: int
    colonists: int  # colonist supply
    ship_colonists: int  # on the colonist ship at the start (from outside the supply, D27)
    ships: tuple[int, ...]  # cargo ship capacities, increasing
    prospectors: int
    plantations: tuple[int, ...]  # plantation tiles by kind (corn, indigo, sugar, tobacco, coffee), incl. starting
    quarries: int
    goods: tuple[int, ...]
    building_copies: tuple[int, ...]
    picks_per_round: int
    min_refill: int


_STANDARD_PLANTATIONS = (10, 12, 11, 9, 8)
_STANDARD_GOODS = (10, 11, 11, 9, 9)
_STANDARD_COPIES = tuple(b.copies for b in BUILDINGS)

SETUP: dict[int, SetupTable] = {
    3: SetupTable(
        2,
        (INDIGO, INDIGO, CORN),
        75,
        55,
        3,
        (4, 5, 6),
        0,
        _STANDARD_PLANTATIONS,
        8,
        _STANDARD_GOODS,
        _STANDARD_COPIES,
        3,
        3,
    ),
    4: SetupTable(
        3,
        (INDIGO, INDIGO, CORN, CORN),
        100,
        75,
        4,
        (5, 6, 7),
        1,
        _STANDARD_PLANTATIONS,
        8,
        _STANDARD_GOODS,
        _STANDARD_COPIES,
        4,
        4,
    ),
    5: SetupTable(
        4,
        (INDIGO, INDIGO, INDIGO, CORN, CORN),
        122,
        95,
        5,
        (6, 7, 8),
        2,
        _STANDARD_PLANTATIONS,
        8,
        _STANDARD_GOODS,
        _STANDARD_COPIES,
        5,
        5,
    ),
    # §14: the official 2-player variant.
    2: SetupTable(
        3,
        (INDIGO, CORN),
        65,
        40,
        2,
        (4, 6),
        1,
        (7, 9, 8, 6, 5),
        5,
        (8, 9, 9, 7, 7),
        tuple(2 if b.kind.endswith("production") else 1 for b in BUILDINGS),
        6,
        2,
    ),
}


def role_cards(prospectors: int) -> tuple[str, ...]:
    """The role cards of a game, in canonical order; the second prospector is a separate card (D30)."""
    base = ("settler", "mayor", "builder", "craftsman", "trader", "captain")
    extra = ("prospector", "prospector_2")[:prospectors]
    return base + extra


def role_kind(card: str) -> str:
    return "prospector" if card.startswith("prospector") else card
