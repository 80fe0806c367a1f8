"""Amerigo constants and component data.

Everything the rules file (docs/rules/amerigo.md) tags DESIGNED [D] lives in this module: island tile
layouts, tile size, frame geometry constants, the progress and special track values, the cube-tower
parameters, the production-token split and the tile counts per shape. Real values can replace them here
without touching rule code.
"""

from __future__ import annotations

# ---------------------------------------------------------------------------------------------------
# Colours / actions  [S]
# ---------------------------------------------------------------------------------------------------
BLUE, BLACK, RED, BROWN, GREEN, YELLOW, WHITE = range(7)
COLOURS = ("blue", "black", "red", "brown", "green", "yellow", "white")
COLOUR_INDEX = {name: i for i, name in enumerate(COLOURS)}
ACTION_OF_COLOUR = ("MOVE", "CANNON", "PLAN", "PROGRESS", "BUILD", "PRODUCE", "SPECIAL")
PHASE_COLOURS = (BLUE, BLACK, RED, BROWN, GREEN, YELLOW, WHITE)
CUBES_PER_COLOUR = 7
SETUP_BATCH = tuple(c for c in PHASE_COLOURS for _ in range(CUBES_PER_COLOUR))

# ---------------------------------------------------------------------------------------------------
# General constants  [S] / [I]
# ---------------------------------------------------------------------------------------------------
PLAYER_COUNTS = (2, 3, 4)
ROUNDS = 5
TIME_VALUE_BY_ROUND = {1: 5, 2: 4, 3: 3, 4: 2, 5: 1}
PIRATE_MARKERS = (0, 0, 1, 2, 3, 4)
PIRATE_SLOTS = 5
GOLD_MAX = 12
CANNON_MAX = 12
TRACK_OVERFLOW_GOLD = 2
DISCOVERY_VP = 3
COMPLETION_VP = 3
CHEST_GOLD = 3
MAX_CHESTS = 5
BIG_ISLAND_MIN_LAND = 20
TRADING_POSTS = 12
SHIPS = 2
START_GOLD_BY_STACK = (0, 1, 2, 3)
TILE_GRID_BY_PLAYERS = {2: (3, 3), 3: (4, 3), 4: (4, 4)}  # (columns W, rows H)
P20_GOLD_DIVISOR = 2
GOLD_TAKE_DIVISOR = 3


def tp_score(k: int) -> int:
    """Trading-post scoring factor for k posts of one player on a completed island."""
    return k * (k + 1) // 2


# ---------------------------------------------------------------------------------------------------
# Tracks  [D] values
# ---------------------------------------------------------------------------------------------------
PROGRESS_TRACK_LAST = 18
PROGRESS_VP = {3: 1, 6: 3, 9: 5, 12: 8, 15: 11, 18: 15}
SPECIAL_TRACK_LAST = 20
SPECIAL_VP = {5: 1, 8: 3, 11: 5, 14: 8, 17: 11, 20: 15}
SPECIAL_COLOUR_CYCLE = (BLUE, BLACK, RED, BROWN, GREEN, YELLOW)


def special_colour(space: int) -> int | None:
    """Colour of a special-track space (None for the start space)."""
    if space <= 0:
        return None
    return SPECIAL_COLOUR_CYCLE[(space - 1) % 6]


def track_vp(table: dict[int, int], position: int) -> int:
    """VP of the highest numbered space reached on a track."""
    best = 0
    for space, vp in table.items():
        if space <= position and vp > best:
            best = vp
    return best


# ``track_vp`` of every space of each track (a disc never goes past the last), for the bots' evaluation
PROGRESS_VP_AT = tuple(track_vp(PROGRESS_VP, n) for n in range(PROGRESS_TRACK_LAST + 1))
SPECIAL_VP_AT = tuple(track_vp(SPECIAL_VP, n) for n in range(SPECIAL_TRACK_LAST + 1))


# ---------------------------------------------------------------------------------------------------
# Cube tower  [D]
# ---------------------------------------------------------------------------------------------------
TOWER_P_STICK = 0.25
TOWER_Q_RELEASE = 0.35
TOWER_CAPACITY = 20

# ---------------------------------------------------------------------------------------------------
# Progress tokens  [S] (colour pairs [I])
# ---------------------------------------------------------------------------------------------------
PROGRESS_TOKENS = tuple(f"P{i:02d}" for i in range(1, 25))
PERM, ONCE, END = "perm", "once", "end"
TOKEN_KIND = {
    **{f"P{i:02d}": PERM for i in range(1, 10)},
    "P10": ONCE,
    "P11": PERM,
    "P12": PERM,
    "P13": PERM,
    "P14": PERM,
    "P15": PERM,
    "P16": ONCE,
    "P17": ONCE,
    "P18": ONCE,
    "P19": PERM,
    "P20": PERM,
    "P21": ONCE,
    "P22": END,
    "P23": END,
    "P24": END,
}
TOKEN_NAME = {
    "P01": "Extra blue",
    "P02": "Extra black",
    "P03": "Extra red",
    "P04": "Extra brown",
    "P05": "Extra green",
    "P06": "Extra yellow",
    "P07": "Blue/red",
    "P08": "Brown/green",
    "P09": "Black/yellow",
    "P10": "Fair winds",
    "P11": "Pirate ally",
    "P12": "Damage control",
    "P13": "Bounty",
    "P14": "Surveyor",
    "P15": "Red/green swap",
    "P16": "Fast passage",
    "P17": "Purse",
    "P18": "Treasury",
    "P19": "Trade income",
    "P20": "Thrift",
    "P21": "Chronicle",
    "P22": "Trade network",
    "P23": "Fame",
    "P24": "Fortune",
}
# bonus AP when executing a colour: token -> {colour: bonus}
TOKEN_AP_BONUS = {
    "P01": {BLUE: 2},
    "P02": {BLACK: 2},
    "P03": {RED: 2},
    "P04": {BROWN: 2},
    "P05": {GREEN: 2},
    "P06": {YELLOW: 2},
    "P07": {BLUE: 1, RED: 1},
    "P08": {BROWN: 1, GREEN: 1},
    "P09": {BLACK: 1, YELLOW: 1},
}
FAIR_WINDS_AP = 8
PIRATE_ALLY_STRENGTH = 2
BOUNTY_GOLD = 2
GOLD_TOKENS = {"P17": 3, "P18": 5}
FAME_VP = 7
PROGRESS_DISPLAY_SPACES = ("R1", "R2", "R3", "R4", "L1", "L2", "L3", "L4")  # setup fill order [D]
PROGRESS_REFILL = 4

# ---------------------------------------------------------------------------------------------------
# Commodities and production tokens  [S counts; D split]
# ---------------------------------------------------------------------------------------------------
COMMODITIES = ("C", "E", "S", "K", "F")
COMMODITY_NAMES = ("cotton", "tea", "sugar", "coconut", "coffee")
COMMODITY_INDEX = {c: i for i, c in enumerate(COMMODITIES)}
MARKS = ("II", "III", "IV")
PRODUCTION_SPLIT = {  # mark -> {cost: tokens per commodity}  [D]
    "II": {2: 2, 3: 2, 4: 2},
    "III": {2: 1, 3: 1},
    "IV": {3: 1, 4: 1},
}
PRODUCTION_REVEAL = {2: {"II": 6}, 3: {"II": 6, "III": 2}, 4: {"II": 6, "III": 2, "IV": 2}}


def _production_ids() -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for mark in MARKS:
        ids = []
        for t in COMMODITIES:
            for cost, count in PRODUCTION_SPLIT[mark].items():
                for n in range(1, count + 1):
                    ids.append(f"PR-{t}-{mark}-{cost}-{n}")
        out[mark] = tuple(sorted(ids))
    return out


PRODUCTION_IDS = _production_ids()
PRODUCTION_TYPE = {i: COMMODITY_INDEX[i.split("-")[1]] for ids in PRODUCTION_IDS.values() for i in ids}
PRODUCTION_COST = {i: int(i.split("-")[3]) for ids in PRODUCTION_IDS.values() for i in ids}

# ---------------------------------------------------------------------------------------------------
# Tile shapes  [S shapes/costs; D counts]
# ---------------------------------------------------------------------------------------------------
SHAPES = ("S1", "S2", "S3I", "S3L", "S4I", "S4O", "S5U", "S6R")
SHAPE_INDEX = {s: i for i, s in enumerate(SHAPES)}
SHAPE_CELLS = {
    "S1": ((0, 0),),
    "S2": ((0, 0), (0, 1)),
    "S3I": ((0, 0), (0, 1), (0, 2)),
    "S3L": ((0, 0), (1, 0), (1, 1)),
    "S4I": ((0, 0), (0, 1), (0, 2), (0, 3)),
    "S4O": ((0, 0), (0, 1), (1, 0), (1, 1)),
    "S5U": ((0, 0), (0, 2), (1, 0), (1, 1), (1, 2)),
    "S6R": ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)),
}
SHAPE_SIZE = {s: len(c) for s, c in SHAPE_CELLS.items()}
# How a player names each shape (catalogue, move labels, messages); the codes stay in commands and events.
SHAPE_NAMES = {
    "S1": "1-square",
    "S2": "2-square",
    "S3I": "straight 3-square",
    "S3L": "bent 3-square",
    "S4I": "straight 4-square",
    "S4O": "square 4-square",
    "S5U": "U-shaped 5-square",
    "S6R": "6-square",
}
NEUTRAL_COUNTS = {"S1": 6, "S2": 6, "S3I": 5, "S3L": 5, "S4I": 4, "S4O": 4, "S5U": 4, "S6R": 3}  # [D]
VILLAGE_COUNTS = {"S1": 4, "S2": 4, "S3I": 2, "S3L": 2, "S4I": 2, "S4O": 2}  # [D]
VILLAGE_SHAPES = tuple(VILLAGE_COUNTS)
NEUTRAL, VILLAGE = "neutral", "village"
VILLAGE_COST = 1
VILLAGE_VP = (1, 2)  # small, big
NEUTRAL_VP_PER_SQUARE = (2, 3)  # small, big

# ---------------------------------------------------------------------------------------------------
# Island tiles  [D] — §5.2 of the rules file, rotation 0, north up
# ---------------------------------------------------------------------------------------------------
TILE_SIZE = 6

_TILE_TEXT = """
T01 conn=-        T02 conn=W        T03 conn=-        T04 conn=N
......            ......            ......            ..##..
.TS...            ..A...            .#T.C.            .AT...
.A#C..            ##T#..            ..A.T.            .K#S#.
......            #KS#F.            .A..A.            .#F#TA
..E#T.            ..T...            .TE...            ..#T..
....A.            ..A...            ......            ...A..

T05 conn=W,E      T06 conn=W,S      T07 conn=N,E      T08 conn=N,E,S
......            ......            ..##..            ..##..
..A...            ...AA.            .##TA.            .A#TA.
##T#E#            ##.TT.            AT#..#            .TEF.#
#C###S            #K#S#.            .#E.C#            ..#S##
..#T..            AT#F..            ....T.            ..#TA.
...A..            ..##..            ....A.            ..##..

T09 conn=-        T10 conn=W,E      T11 conn=S        T12 conn=N,S
......            ......            ...A..            ..##..
.K#TA.            ...AA.            .##T#.            ..AT..
......            ##ETT#            .#F#TA            .#S##.
.A....            #S##C#            .C#K#.            .#..TA
.T##F.            .T....            .T###.            .EF...
......            .A....            .A##..            ..##..

T13 conn=N,E      T14 conn=W        T15 conn=E,S      T16 conn=-
..##..            ......            ......            .A....
..#K..            .A..#.            .AT.A.            .T.KT.
.T###E            #T..TA            ..#CT#            ....A.
.A..##            #K#...            ..#F##            .#C...
....T.            ....T.            .T##..            .T....
....A.            ....A.            .A##..            .A....
"""


def _parse_tiles(text: str) -> dict[str, tuple[str, ...]]:
    lines = [ln for ln in text.strip("\n").split("\n")]
    tiles: dict[str, tuple[str, ...]] = {}
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        names = [tok for tok in lines[i].split() if not tok.startswith("conn=")]
        rows = [lines[i + 1 + r].split() for r in range(TILE_SIZE)]
        for k, name in enumerate(names):
            tiles[name] = tuple(rows[r][k] for r in range(TILE_SIZE))
        i += 1 + TILE_SIZE
    return tiles


TILES: dict[str, tuple[str, ...]] = _parse_tiles(_TILE_TEXT)
TILE_IDS = tuple(sorted(TILES))
WATER_CHARS = ".A"
