"""Archipelago: every constant and card/tile definition, in one place.

Everything tagged DESIGNED in ``docs/rules/archipelago.md`` lives here (tile faces, market and colony tracks,
population-influence thresholds, evolution cards with their backs, objectives, trends), so it can be tuned or
replaced without touching the rules code.  Section numbers refer to the rules file.

Balance tuning log (changes against the rules file v1.1, all DESIGNED constants). Measured with
``python benchmarks/archipelago_balance.py 500 2``: the ``greedy`` bot of ``domain.bots`` in every seat (its
evaluation then played out the seat's own open step, now ``domain.bots.lookahead``), 500 games per player count,
short/medium/long objectives in turn:
    * YELLOW_DIVISOR_BONUS = 2: every yellow domestic back's penalty divisor k + 2 (5/5 -> 5/7, 6/6 -> 6/8).
    * RED_DIVISOR_BONUS = 4: every red domestic back's k + 4 (4/3 -> 4/7, 3/3 -> 3/7). With 30-40 citizens on
      the map a v1.1 red crisis alone raised REB by about 10, the main cause of independence in long games.
    * P3_SURPLUS_STEPS: (18 -> +2, 14 -> +1) became (19 -> +2, 16 -> +1).
    * ROUND_CAP: 10 / 14 / 18 became 14 / 18 / 22 (fewer games stopped by the safety net).
    With these values (2 / 3 / 4 / 5 players): independence 2.6 / 17.0 / 13.8 / 8.6 %, declared end
    96.8 / 83.0 / 86.2 / 91.4 %, safety cap 0.6 / 0 / 0 / 0 %, mean rounds 8.7 / 6.7 / 5.8 / 5.3. Independence
    is concentrated in long games (5 / 35 / 30 / 19 %).
    v1.1 values, 60 games per player count: independence 7 / 28 / 27 / 15 %, cap 0 % everywhere.
    v1.1 values with only the two divisor changes, 60 games: independence 2 / 22 / 12 / 7 %, cap 0 / 0 / 2 / 0 %.

Crisis penalty in force (Q53, v1.2 records it as a DECISION): after a domestic demand ``REB += ceil(L / k)``
for ``L`` citizens still lying, with ``k`` = the back's printed divisor + the bonus above: every yellow back with
``c = 5`` has ``k = 7``, with ``c = 6`` ``k = 8``; both red backs have ``k = 7`` (``c`` = 4 and 3). The seed's
reading is one step per lying citizen (``k = 1``); an export demand adds 1 ``REB`` per missing unit (unchanged).

Card backs (v1.2, §3.10: a public back must not name its hidden front). The 40 distinct backs became the 12 named
backs of ``BACKS``, each shared by 3 to 5 cards; colour counts kept (28 yellow, 6 red, 6 beige). Yellow: 8 backs
(FISH 8 cards, FRUIT 7, CATTLE 7, WOOD 3, STONE 3 domestic demands, against 7 / 7 / 7 / 3 / 2 and two export-only
backs before; c = 5 on 16 cards and c = 6 on 12, against 15 / 11; 36 export units, 15 of them ANY, against 38 / 14).
Red: R1 (FISH 4, X: WOOD + ANY) and R2 (FRUIT 3, X: IRON + ANY), 2 export units each (13 before on 6 cards).
Beige: two events are left, FAIR_WEATHER (3 cards) and PEACE_TREATY (3 cards); BUMPER_HARVEST, IMMIGRANTS,
RELIGIOUS_HOLIDAY and TRADE_WINDS stay implemented (§6.4) but no back carries them now. Together with the v1.2
rule changes (unbuilt wonders score nothing, any unit of the hirer allows a hire) the balance was measured again
with ``ARCHIPELAGO_BALANCE_LOG=FILE python benchmarks/archipelago_balance.py 500 2`` (stopped early, then
``python benchmarks/archipelago_balance.py report FILE``), greedy bots as on this branch:
    305 games (77 / 77 / 76 / 75 for 2 / 3 / 4 / 5 players, games 0-76 of each count, lengths in turn; the run
    was stopped early on a busy machine). Independence 5.2 % [2.0, 12.6] / 16.9 % [10.1, 26.8] / 11.8 % [6.4,
    21.0] / 9.3 % [4.6, 18.0]; safety cap 0 % at every count, upper bounds 4.8 / 4.8 / 4.8 / 4.9 %; declared
    94.8 / 83.1 / 88.2 / 90.7 %; mean rounds 8.5 / 6.4 / 5.7 / 4.8 (95 % Wilson intervals in brackets).
    The cap target (< 5 % at the upper bound) holds at every count. The independence target (< 25 % at the upper
    bound) holds for 2, 4 and 5 players but not for 3 (upper bound 26.8 %; the point estimate, 16.9 %, is the
    v1.1-tuned figure of 17.0 % at 500 games); independence is again concentrated in long games (16 / 36 / 28 /
    24 %). Not retuned here: a 3-player retune needs runs longer than this machine allowed.

Long objectives (after v1.2). Before this change, with the greedy bots as on this branch (363 games, about 91 per
count): independence 3.3 % [1.1, 9.2] / 19.8 % [12.9, 29.1] / 17.6 % [11.1, 26.7] / 10.0 % [5.4, 17.9], no game
at the cap; short games never ended in independence, long ones did in 6.7 / 46.7 / 36.7 / 30.0 % (30 per count),
so the 3- and 4-player upper bounds missed the 25 % target. Where the REB of long games comes from (90 long games
of 3 and 4 players, games 0-44 of each count, as in ``... 45 2 long 3,4``; REB per game):
    * 3 players, 19 games ending in independence (in round 10.3 on average, POP 27.9): yellow domestic demands
      +10.3, red domestic demands (red trigger) +9.3, Phase 3 population step +8.2, TAX +7.1, Phase 3 surplus step
      +3.5, export demands +3.2 (red 1.7, yellow 1.5), glut +1.5; content colony -7.1, MISSIONARY -3.5, FESTIVAL
      and CHARITY -2.0, FAIR_WEATHER and PEACE_TREATY -1.1. 26 declared games (round 8.1): yellow +7.8, TAX +6.8,
      population +4.0, red +3.7, export +2.4, surplus +1.2, glut +0.7; content colony -5.3, MISSIONARY -2.8.
    * 4 players, 9 games ending in independence (round 8.2, POP 35.4): red domestic +14.2, yellow domestic +11.3,
      TAX +8.1, population +4.3, glut +3.1, export +2.9, surplus +1.3; content colony -4.3, MISSIONARY -2.7.
      36 declared games (round 6.8): yellow +7.9, TAX +6.6, red +6.6, population +2.5, export +2.4.
    REB thus rises by about 3 a round, net, from many sources, while POP stops near CIT_TOTAL; a long game falls
    when no objective in play comes true in time. In 42 of these games (games 0-20) only L02, L04 and L05 were
    declared regularly; the others stayed out of reach: L01 BANK_EMPTY(3) (never more than 1 resource type used up
    in the bank), L08 WONDERS(2) (never more than 1 wonder built), L03 EXPORT(14) (the export market held 4 cubes at
    the median), L06 BUILDINGS(3N+4) (13 / 16 with 3 / 4 players; 4 to 14 buildings at the end), L07 ROUNDS(12)
    (independence in rounds 7 to 14). 4 of the 5 three-player independence games held none of L02, L04, L05 (1 of 6
    with 4 players, where the red crises weigh more). Slowing REB alone only delays such games (towards the cap):
    red divisors k + 6 instead of k + 4 gave 12 / 8 independent games in 30 long games of 3 / 4 players (games 0-29,
    ``... 30 2 long 3,4``), against 11 / 8 with the values in force, and was not kept. Changed instead (long
    objectives only, so short and medium games are untouched): L03 EXPORT(14) -> EXPORT(10), L06 BUILDINGS(3N+4) ->
    BUILDINGS(2N+4), L07 ROUNDS(12) -> ROUNDS(10); the quick check gave 9 / 8 of 30. Measured with
    ``ARCHIPELAGO_BALANCE_LOG=FILE nice -n 5 python benchmarks/archipelago_balance.py 300 2``, stopped at a time
    limit, then ``python benchmarks/archipelago_balance.py report FILE``:
    836 games (209 per count, games 0-208 of each, lengths in turn). Independence
    2.9 % [1.3, 6.1] / 17.7 % [13.1, 23.4] / 15.3 % [11.1, 20.8] / 10.5 % [7.1, 15.4]; declared 97.1 / 81.8 /
    84.7 / 89.5 %; safety cap 0 % [0, 1.8] / 0.5 % [0.1, 2.7] / 0 % [0, 1.8] / 0 % [0, 1.8]; mean rounds 8.1 /
    6.5 / 5.7 / 5.1 (95 % Wilson intervals in brackets). Both targets hold at every count (independence upper
    bound < 25 %, cap upper bound < 5 %). Long games (69 per count): independence 7.2 / 34.8 / 31.9 / 27.5 %
    against 6.7 / 46.7 / 36.7 / 30.0 % before, cap 0 / 1.4 / 0 / 0 %; L03, L06 and L07 now end 34 / 11 / 5 / 9 of
    these long games by declaration. Short and medium games play exactly as before (same seeds, same
    objectives); their figures here (independence in short games 0 / 4.3 / 1.4 / 0 %, medium 1.4 / 14.3 / 12.9 /
    4.3 %) differ from earlier runs by sampling only. Long games remain the main source of independence; the
    red crises weigh most at 4 players.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

RESOURCES: tuple[str, ...] = ("FRUIT", "WOOD", "CATTLE", "STONE", "FISH", "IRON")
CUBE_TOTALS: dict[str, int] = {"FRUIT": 15, "WOOD": 15, "CATTLE": 15, "STONE": 12, "FISH": 15, "IRON": 10}  # [RB]

# §2.3 tunable constants
START_MONEY = 10
START_AD = 3
MAX_AD = 5
CITIZENS_PER_PLAYER = 10
SHIPS_PER_PLAYER = 4
TWO_PLAYER_SUPPLY_FACTOR = 2  # §15: two colours
MAX_CITIZENS_PER_TILE = 3
CHARTER_CITIZENS_PER_TILE = 4
EVO_MARKET_SLOTS = 5
EVO_TRACK_SIZE = 5
DOM_CAP = 6
EXP_CAP = 5
SURPLUS_MAX = 20
TAX_SLOTS = {2: 2, 3: 2, 4: 2, 5: 3}
EXPLORE_SHARED_SLOTS = {2: 1, 3: 1, 4: 2, 5: 2}
MARKET_USE_FEE = 1
PORT_USE_FEE = 1
SHARED_CARD_FEE = 1
RANK_VP = {2: (3, 1), 3: (3, 2, 1), 4: (3, 2, 1), 5: (3, 2, 1)}
PACIFIST_BONUS = 3
ROUND_CAP = {"short": 14, "medium": 18, "long": 22}  # tuned from 10 / 14 / 18, see docstring
OFFER_LIMIT = 5
OFFER_ITEMS_MAX = 12
TURN0_HAND_LIMIT = 8
TURN0_HAND_SIZE = 3
EXPLORER_STACKS = (8, 8, 8)
BUILDING_POOL = {"MARKET_PORT": 13, "TOWN_TEMPLE": 13}
BUILDING_POOL_OF = {"MARKET": "MARKET_PORT", "PORT": "MARKET_PORT", "TOWN": "TOWN_TEMPLE", "TEMPLE": "TOWN_TEMPLE"}
BUILDING_TYPES: tuple[str, ...] = ("TOWN", "TEMPLE", "MARKET", "PORT")

# §3.6 market price tables (DESIGNED). Index 0 is cell c1.
DOMESTIC_PRICES: dict[str, tuple[int, ...]] = {
    "FRUIT": (4, 3, 3, 2, 2, 1),
    "CATTLE": (4, 3, 3, 2, 2, 1),
    "FISH": (4, 3, 3, 2, 2, 1),
    "WOOD": (5, 4, 3, 3, 2, 1),
    "STONE": (5, 4, 4, 3, 2, 2),
    "IRON": (6, 5, 4, 4, 3, 2),
}
EXPORT_PRICES: dict[str, tuple[int, ...]] = {
    "FRUIT": (6, 5, 4, 3, 2),
    "CATTLE": (6, 5, 4, 3, 2),
    "FISH": (5, 4, 4, 3, 2),
    "WOOD": (6, 5, 4, 3, 2),
    "STONE": (7, 6, 5, 4, 3),
    "IRON": (9, 8, 7, 6, 5),
}
GLUT_THRESHOLD = 5  # a domestic row with this many cubes is glutted
DOMESTIC_START_CUBES = 1


def recruit_price(surplus: int) -> int | None:
    """§3.7 recruit price table (DESIGNED); None when recruiting is impossible."""
    if surplus <= 0:
        return None
    if surplus <= 3:
        return 4
    if surplus <= 6:
        return 3
    if surplus <= 9:
        return 2
    return 1


# §5.3 Phase 3 thresholds (DESIGNED, v1.1)
P3_GLUT_MAX_REB = 2
P3_CONTENT_ROWS = 4
P3_EXPORT_STEPS = ((12, 2), (6, 1))  # (cubes >=, SUR +)
P3_POP_STEPS = ((90, 2), (70, 1))  # (% of CIT_TOTAL >=, REB +)
P3_SURPLUS_STEPS = ((19, 2), (16, 1))  # (SUR >=, REB +); tuned from ((18, 2), (14, 1)), see docstring

# §8.8 building costs [AID]: cubes, money
BUILD_COSTS: dict[str, tuple[dict[str, int], int]] = {
    "SHIP": ({"WOOD": 1}, 1),
    "TOWN": ({"STONE": 1, "WOOD": 1}, 2),
    "MARKET": ({"FRUIT": 1, "CATTLE": 1}, 0),
    "PORT": ({"STONE": 1, "FISH": 1}, 2),
    "TEMPLE": ({"STONE": 2}, 1),
}

# §8.4 tax
TAX_PER_CITIZEN = 1
TAX_PER_SHIP = 1
TAX_PER_TOWN = 2
TAX_PER_TEMPLE = 2
TAX_COLLECTOR_BONUS = 2


# §3.1 hex directions (axial)
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


# §14 tiles ---------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Face:
    edges: str
    icons: tuple[str, ...]
    huts: int
    has_land: bool = True


_ABBR = {"FRU": "FRUIT", "CAT": "CATTLE", "WOO": "WOOD", "STO": "STONE", "FIS": "FISH", "IRO": "IRON"}

START_FACES: dict[str, Face] = {
    "OCEAN": Face("SSSSSS", (), 0, has_land=False),
    "DESERT": Face("PPPPPP", (), 0),
    "VOLCANO": Face("MPMPMP", (), 0),
}

_TILE_TABLE = """
E01 SSSSSS FIS,FRU SSSSPP FIS,CAT,WOO
E02 SSSSSP FIS,WOO,FRU SSSPPP CAT,CAT,WOO
E03 SSSSPP FIS,FIS,CAT SSPPMP STO,WOO,CAT
E04 SSSPPP FRU,FRU,WOO SSSSMM FIS,STO,IRO
E05 SSSPMP STO,IRO,WOO SSSSSS FIS,FIS
E06 SPSSPS FIS,FRU,CAT SSSSSP FRU,WOO
E07 SSPPPP CAT,FRU,WOO,STO SSSSPP FIS,FRU
E08 PPPPMP CAT,WOO,STO,FRU SSSPPP FIS,CAT,FRU
E09 SSSSMP FIS,STO,WOO SPPPPS FRU,CAT,WOO
E10 SSSSSS FIS,WOO,FRU SSMMPS IRO,STO,CAT
E11 SSSPPP WOO,WOO,FIS PPMMMP IRO,STO,STO
E12 SSSSPP CAT,FRU,FIS SPSSPS FIS,CAT
E13 SSPPMP WOO,STO,FRU SSSSSP FIS,FIS,CAT
E14 SSSSMM STO,IRO,FIS SSSPPP FRU,CAT,WOO,FIS
E15 SPPPPP CAT,CAT,FRU SSSSSS FIS,CAT
E16 SSSSPP WOO,FRU,FIS SSPPMP STO,IRO,WOO
E17 SSSPMP FRU,STO,FIS SSSSPP CAT,WOO
E18 SSSSSP FIS,CAT,WOO PPPPMP WOO,CAT,FRU,STO
E19 SSSPPP FRU,CAT,FIS SSSSMP IRO,WOO,FIS
E20 SPSSPS FRU,WOO,FIS SSSSSS FIS,FRU,WOO
E21 SSPPPP CAT,STO,FRU SSSSSP FIS,IRO
E22 SSSSPP FIS,FRU,STO SSMMPS STO,IRO,CAT
E23 SSSSSP FIS,CAT,FRU SSSPPP WOO,STO,FIS
E24 SSSSPP FRU,WOO,CAT SSSPMP FIS,STO,IRO
"""


def _parse_tiles() -> dict[str, dict[str, Face]]:
    out: dict[str, dict[str, Face]] = {}
    for line in _TILE_TABLE.strip().splitlines():
        tid, ea, ia, eb, ib = line.split()
        faces = {}
        for name, edges, icons in (("A", ea, ia), ("B", eb, ib)):
            res = tuple(_ABBR[i] for i in icons.split(","))
            faces[name] = Face(edges, res, 5 - len(res))
        out[tid] = faces
    return out


EXPLORATION_TILES: dict[str, dict[str, Face]] = _parse_tiles()
TILE_IDS: tuple[str, ...] = tuple(sorted(EXPLORATION_TILES))


# Balance tuning (see the module docstring): added to the penalty divisor k of every YELLOW domestic back.
YELLOW_DIVISOR_BONUS = 2
RED_DIVISOR_BONUS = 4


# §10.4 evolution cards ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Back:
    id: str  # the public name of the back (shared by at least 3 cards, §3.10 v1.2)
    color: str  # YELLOW, RED, BEIGE
    domestic: tuple[str, int, int] | None = None  # (resource, per_cube c, penalty divisor k)
    export: tuple[tuple[str, int], ...] = ()  # ((resource or ANY, qty), ...)
    event: str | None = None


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    kind: str  # CHARACTER or PROGRESS
    use: str  # AD, FREE, WITH:<ACTION>, PASSIVE, WONDER
    prices: tuple[int, int, int]
    shareable: bool
    vp: int
    back: Back
    wonder_cost: tuple[dict[str, int], int] | None = None
    wonder_effect: str | None = None


def _y(
    bid: str,
    res: str | None = None,
    c: int = 0,
    k: int = 0,
    export: Sequence[tuple[str, int]] = (),
    color: str = "YELLOW",
) -> Back:
    if res:
        k += YELLOW_DIVISOR_BONUS if color == "YELLOW" else RED_DIVISOR_BONUS
    return Back(bid, color, (res, c, k) if res else None, tuple(export))


def _r(bid: str, res: str | None = None, c: int = 0, k: int = 0, export: Sequence[tuple[str, int]] = ()) -> Back:
    return _y(bid, res, c, k, export, color="RED")


def _b(bid: str, event: str) -> Back:
    return Back(bid, "BEIGE", event=event)


# The backs (DESIGNED, v1.2 redesign: every back is shared by at least 3 cards, so the public back of the deck's
# top card never names its front; 28 yellow, 6 red, 6 beige as before; see the tuning log above).
BACKS: dict[str, Back] = {
    b.id: b
    for b in (
        _y("Y1", "FISH", 5, 5, [("WOOD", 1)]),
        _y("Y2", "FISH", 6, 6, [("ANY", 1)]),
        _y("Y3", "FRUIT", 5, 5, [("STONE", 1), ("ANY", 1)]),
        _y("Y4", "FRUIT", 6, 6, [("CATTLE", 1)]),
        _y("Y5", "CATTLE", 5, 5, [("ANY", 2)]),
        _y("Y6", "CATTLE", 6, 6, [("FISH", 1)]),
        _y("Y7", "WOOD", 5, 5, [("FRUIT", 1)]),
        _y("Y8", "STONE", 6, 6, [("IRON", 1)]),
        _r("R1", "FISH", 4, 3, [("WOOD", 1), ("ANY", 1)]),
        _r("R2", "FRUIT", 3, 3, [("IRON", 1), ("ANY", 1)]),
        _b("B1", "FAIR_WEATHER"),
        _b("B2", "PEACE_TREATY"),
    )
}
_K = BACKS

_CARD_LIST = (
    # Characters
    Card("C01", "RESEARCHER", "CHARACTER", "AD", (6, 4, 3), False, 0, _K["Y1"]),
    Card("C02", "HEAD HUNTER", "CHARACTER", "AD", (6, 4, 3), False, 0, _K["Y3"]),
    Card("C03", "MERCHANT", "CHARACTER", "FREE", (5, 4, 2), True, 0, _K["Y6"]),
    Card("C04", "SHIPOWNER", "CHARACTER", "FREE", (5, 4, 2), True, 0, _K["R1"]),
    Card("C05", "FOREMAN", "CHARACTER", "WITH:HARVEST", (6, 4, 3), False, 0, _K["Y4"]),
    Card("C06", "MISSIONARY", "CHARACTER", "AD", (6, 5, 3), True, 1, _K["B1"]),
    Card("C07", "TAX COLLECTOR", "CHARACTER", "WITH:TAX", (5, 3, 2), False, 0, _K["Y5"]),
    Card("C08", "NAVIGATOR", "CHARACTER", "FREE", (5, 3, 2), True, 0, _K["Y2"]),
    Card("C09", "OVERSEER", "CHARACTER", "WITH:RECRUIT", (5, 4, 2), False, 0, _K["Y5"]),
    Card("C10", "MIDWIFE", "CHARACTER", "FREE", (6, 4, 3), False, 0, _K["Y3"]),
    Card("C11", "DIPLOMAT", "CHARACTER", "FREE", (4, 3, 2), True, 0, _K["B2"]),
    Card("C12", "CARTOGRAPHER", "CHARACTER", "WITH:EXPLORE", (5, 3, 2), False, 0, _K["Y7"]),
    Card("C13", "CONQUISTADOR", "CHARACTER", "AD", (8, 6, 4), False, 1, _K["R2"]),
    Card("C14", "ARCHITECT", "CHARACTER", "WITH:BUILD", (6, 4, 3), True, 0, _K["Y8"]),
    Card("C15", "BANKER", "CHARACTER", "AD", (5, 4, 3), False, 0, _K["Y1"]),
    Card("C16", "SMUGGLER", "CHARACTER", "FREE", (4, 3, 2), False, 0, _K["Y6"]),
    Card("C17", "ENGINEER", "CHARACTER", "PASSIVE", (5, 4, 2), False, 0, _K["Y2"]),
    Card("C18", "PIRATE", "CHARACTER", "AD", (6, 4, 3), False, 0, _K["R1"]),
    Card("C19", "PRIEST", "CHARACTER", "PASSIVE", (5, 4, 3), False, 1, _K["B1"]),
    Card("C20", "GOVERNOR", "CHARACTER", "PASSIVE", (7, 5, 4), False, 1, _K["Y4"]),
    # Progress
    Card("P01", "EXPANSIONISM", "PROGRESS", "FREE", (6, 4, 3), False, 0, _K["Y2"]),
    Card("P02", "IRRIGATION", "PROGRESS", "WITH:HARVEST", (5, 3, 2), False, 0, _K["Y5"]),
    Card("P03", "FISHING NETS", "PROGRESS", "WITH:HARVEST", (5, 3, 2), False, 0, _K["B1"]),
    Card("P04", "MINING", "PROGRESS", "WITH:HARVEST", (5, 3, 2), False, 0, _K["Y3"]),
    Card("P05", "SAWMILL", "PROGRESS", "WITH:HARVEST", (4, 3, 2), False, 0, _K["Y7"]),
    Card("P06", "EDUCATION", "PROGRESS", "AD", (5, 4, 3), True, 0, _K["Y1"]),
    Card("P07", "EMIGRATION", "PROGRESS", "AD", (4, 3, 2), False, 0, _K["Y6"]),
    Card("P08", "GUILDS", "PROGRESS", "PASSIVE", (5, 4, 2), False, 0, _K["Y4"]),
    Card("P09", "TRADING COMPANY", "PROGRESS", "PASSIVE", (5, 4, 2), False, 0, _K["B2"]),
    Card("P10", "SHIPYARDS", "PROGRESS", "PASSIVE", (4, 3, 2), False, 0, _K["Y1"]),
    Card("P11", "ROADS", "PROGRESS", "PASSIVE", (5, 3, 2), False, 0, _K["R2"]),
    Card("P12", "TAX REFORM", "PROGRESS", "PASSIVE", (6, 4, 3), False, 0, _K["Y8"]),
    Card("P13", "FESTIVAL", "PROGRESS", "AD", (5, 3, 2), True, 0, _K["Y3"]),
    Card("P14", "CHARITY", "PROGRESS", "FREE", (4, 3, 2), True, 0, _K["B2"]),
    Card("P15", "NAVIGATION", "PROGRESS", "PASSIVE", (5, 4, 3), False, 0, _K["Y7"]),
    Card("P16", "COLONIAL CHARTER", "PROGRESS", "PASSIVE", (7, 5, 4), False, 2, _K["R2"]),
    # Wonders
    Card(
        "W01",
        "CATHEDRAL",
        "PROGRESS",
        "WONDER",
        (5, 4, 3),
        False,
        3,
        _K["Y5"],
        ({"STONE": 3, "IRON": 1}, 0),
        "CATHEDRAL",
    ),
    Card(
        "W02",
        "LIGHTHOUSE",
        "PROGRESS",
        "WONDER",
        (4, 3, 2),
        False,
        2,
        _K["Y1"],
        ({"STONE": 2, "WOOD": 1, "FISH": 1}, 0),
        "LIGHTHOUSE",
    ),
    Card(
        "W03",
        "ROYAL PALACE",
        "PROGRESS",
        "WONDER",
        (6, 5, 4),
        False,
        4,
        _K["R1"],
        ({"STONE": 2, "IRON": 2, "WOOD": 1}, 2),
        "ROYAL_PALACE",
    ),
    Card(
        "W04",
        "GRAND BAZAAR",
        "PROGRESS",
        "WONDER",
        (5, 4, 3),
        False,
        2,
        _K["Y8"],
        ({"FRUIT": 1, "CATTLE": 1, "FISH": 1, "WOOD": 1}, 0),
        "GRAND_BAZAAR",
    ),
)
CARDS: dict[str, Card] = {c.id: c for c in _CARD_LIST}
CARD_IDS: tuple[str, ...] = tuple(c.id for c in _CARD_LIST)
CARD_BY_NAME: dict[str, str] = {c.name: c.id for c in _CARD_LIST}

# card-effect constants (§10.4, DESIGNED)
OVERSEER_DISCOUNT = 2
BANKER_MAX = 5
PIRATE_LOOT = 2
SMUGGLER_BONUS = 1
DIPLOMAT_STANDS = 2
PRIEST_STANDS = 2
CARTOGRAPHER_LOOK = 3
RESEARCH_REVEAL = 5
EDUCATION_SUR = 2
EMIGRATION_SUR = 1
EMIGRATION_MONEY = 1
FESTIVAL_COST = {"FRUIT": 1, "CATTLE": 1, "FISH": 1}
FESTIVAL_REB = 2
CATHEDRAL_REB = 3
ROYAL_PALACE_SUR = 2
GRAND_BAZAAR_MONEY = 4
HARVEST_BONUS_CARDS = {"P02": ("FRUIT", "CATTLE"), "P03": ("FISH",), "P04": ("STONE", "IRON"), "P05": ("WOOD",)}


# §13 objectives and trends -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Objective:
    id: str
    length: str
    condition: str | None  # predicate code, None for the Separatist
    arg: tuple[int, int]  # value = arg[0] * N + arg[1]; percentages for POP / PEACE
    criterion: str
    special: str | None = None  # SEPARATIST or PACIFIST


def _o(
    oid: str, length: str, cond: str | None, arg: int | tuple[int, int], crit: str, special: str | None = None
) -> Objective:
    if isinstance(arg, int):
        arg = (0, arg)
    return Objective(oid, length, cond, arg, crit, special)


_OBJECTIVE_LIST = (
    _o("S01", "short", "BANK_EMPTY", 1, "PORTS"),
    _o("S02", "short", "TILES", (1, 6), "EXPLORER"),
    _o("S03", "short", "FLEET", (2, 0), "CUBES"),
    _o("S04", "short", "POP", 50, "CITIZENS"),
    _o("S05", "short", "DECK", 25, "CARDS"),
    _o("S06", "short", "BUILDINGS", (1, 2), "MARKETS"),
    _o("S07", "short", "ROUNDS", 5, "MONEY"),
    _o("S08", "short", "EXPORT", 7, "TOWNS"),
    _o("S09", "short", None, 0, "SHIPS", "SEPARATIST"),
    _o("S10", "short", "PEACE", 40, "TEMPLES", "PACIFIST"),
    _o("M01", "medium", "BANK_EMPTY", 2, "CARDS"),
    _o("M02", "medium", "TILES", (1, 10), "PORTS"),
    _o("M03", "medium", "STACKS", 2, "REGIONS"),
    _o("M04", "medium", "POP", 70, "SHIPS"),
    _o("M05", "medium", "DECK", 16, "MONEY"),
    _o("M06", "medium", "BUILDINGS", (2, 3), "EXPLORER"),
    _o("M07", "medium", "ROUNDS", 8, "BUILDINGS"),
    _o("M08", "medium", "WONDERS", 1, "CITIZENS"),
    _o("M09", "medium", None, 0, "MARKETS", "SEPARATIST"),
    _o("M10", "medium", "PEACE", 60, "TEMPLES", "PACIFIST"),
    _o("L01", "long", "BANK_EMPTY", 3, "TOWNS"),
    _o("L02", "long", "TILES", (1, 14), "REGIONS"),
    _o("L03", "long", "EXPORT", 10, "EXPLORER"),  # tuned from 14, see the docstring
    _o("L04", "long", "POP", 90, "BUILDINGS"),
    _o("L05", "long", "DECK", 6, "CARDS"),
    _o("L06", "long", "BUILDINGS", (2, 4), "PORTS"),  # tuned from (3, 4), i.e. 3N+4, see the docstring
    _o("L07", "long", "ROUNDS", 10, "MONEY"),  # tuned from 12, see the docstring
    _o("L08", "long", "WONDERS", 2, "CUBES"),
    _o("L09", "long", None, 0, "CITIZENS", "SEPARATIST"),
    _o("L10", "long", "PEACE", 80, "TEMPLES", "PACIFIST"),
)
OBJECTIVES: dict[str, Objective] = {o.id: o for o in _OBJECTIVE_LIST}
LENGTHS: tuple[str, ...] = ("short", "medium", "long")
PEACE_REB_DIVISOR = 5  # PEACE(p%): REB <= floor(POP / 5)
PACIFIST_REB_DIVISOR = 4  # Pacifist bonus: REB <= floor(POP / 4)

TRENDS: dict[str, tuple[str, str]] = {
    "T01": ("Orchards", "RES:FRUIT"),
    "T02": ("Ranching", "RES:CATTLE"),
    "T03": ("Fisheries", "RES:FISH"),
    "T04": ("Timber", "RES:WOOD"),
    "T05": ("Quarries", "RES:STONE"),
    "T06": ("Foundries", "RES:IRON"),
    "T07": ("Humanism", "CONTRIB"),
    "T08": ("Seafaring", "SHIPS"),
    "T09": ("Urbanism", "TOWNS"),
    "T10": ("Commerce", "MONEY"),
    "T11": ("Discovery", "EXPLORER"),
    "T12": ("Enlightenment", "CARDS"),
}
HUMANISM = "T07"

# §6.4 beige events (DESIGNED)
FAIR_WEATHER_REB = 1
PEACE_TREATY_REB = 1
PEACE_TREATY_MONEY = 1
RELIGIOUS_HOLIDAY_MAX = 2
BUMPER_HARVEST_RESOURCES = ("FRUIT", "CATTLE", "FISH")
IMMIGRANTS_SUR = 2
TRADE_WINDS_MONEY = 2
