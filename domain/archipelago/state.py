"""Archipelago state and read-only helpers (geometry, control, counts).

Section (§) and ruling (D, Q) numbers are those of docs/rules/archipelago.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, TypedDict

from domain.archipelago import data as D

# The structured parts of the state. They are plain dicts at run time (so snapshots and pickles keep their
# shape), typed here for readers and the type checker.


class Player(TypedDict):
    money: int
    cubes: dict[str, int]
    tokens: int  # explorer tokens held
    ad_total: int  # action discs owned
    ad_avail: int  # action discs still free this round
    track: list[str]  # evolution cards owned (card ids)
    wonders: list[dict[str, Any]]  # built wonders: {"card", ...}
    sup_c: int  # citizens in supply
    sup_s: int  # ships in supply
    reproduced: bool
    market_used: bool
    port_used: bool
    personal_explore_used: bool
    taxed: int
    passed: bool
    contrib: int


class Unit(TypedDict):
    owner: int
    kind: str  # "C" citizen or "S" ship
    tile: str
    place: str  # "LAND", "SEA", "I:<icon index>" or "B:<building type>"
    lying: bool
    engaged: bool
    temp: bool


class PlacedTile(TypedDict):
    pos: tuple[int, int]
    face: str
    rot: int
    edges: str  # the six placed edges, direction order
    land: bool
    sea: bool
    icons: list[str]
    occ: list[str | None]  # per icon: the unit on it
    huts: int


class Grant(TypedDict):
    grant: str
    target: str
    grantor: int


class Turn(TypedDict):
    seat: int
    action: bool  # a wheel action was taken
    acted: bool  # an action, card use or building ability was taken
    building: bool  # a market or port ability was used
    offers: int
    grants: list[Grant]


class Offer(TypedDict):
    to: int
    give: list[dict[str, Any]]
    get: list[dict[str, Any]]
    sent: bool


Step = dict[str, Any]  # an open step of a turn: its fields depend on ``kind`` (harvest, recruit, explore, ...)
Crisis = dict[str, Any]  # the running crisis: card, back, part (DOM/EXP) and that part's progress


@dataclass
class ArchState:
    started: bool = False
    n: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    length: str = "short"
    start: str = "OCEAN"
    phase: str = "NONE"  # OBJECTIVES, TURN0, BID, ORDER, ACTIONS, EVOLUTION, OVER
    round: int = 0
    rounds_completed: int = 0
    order: list[int] = field(default_factory=list)
    reb: int = 0
    sur: int = 0
    bank: dict[str, int] = field(default_factory=dict)
    dom: dict[str, int] = field(default_factory=dict)
    exp: dict[str, int] = field(default_factory=dict)
    stacks: list[int] = field(default_factory=list)  # explorer-token stacks
    tokens_spent: int = 0
    deck: list[str] = field(default_factory=list)
    market: list[list[Any] | None] = field(default_factory=list)  # per slot: [card, orientation] or None
    evo_discard: list[str] = field(default_factory=list)
    resolved_red: set[str] = field(default_factory=set)
    trends: list[str] = field(default_factory=list)
    objectives: list[list[str]] = field(default_factory=list)  # per seat: kept objective ids
    dealt_objectives: list[list[str]] = field(default_factory=list)  # per seat (MORE_FUN choice)
    kept: list[bool] = field(default_factory=list)  # per seat: chose already (MORE_FUN)
    table_objectives: list[str] = field(default_factory=list)  # NO_SECRETS
    obj_args: dict[str, int] = field(default_factory=dict)
    players: list[Player] = field(default_factory=list)
    card_used: set[str] = field(default_factory=set)
    tiles: dict[str, PlacedTile] = field(default_factory=dict)  # tid -> placed tile dict
    posmap: dict[tuple[int, int], str] = field(default_factory=dict)  # (q, r) -> tid
    buildings: dict[str, dict[str, str | None]] = field(default_factory=dict)  # tid -> {type: occupant uid or None}
    pool: dict[str, int] = field(default_factory=dict)
    units: dict[str, Unit] = field(default_factory=dict)  # uid -> unit dict
    next_unit: list[int] = field(default_factory=list)
    stack: list[list[str]] = field(default_factory=list)  # [[tid, up face], ...] top first
    hands: list[list[list[str]]] = field(default_factory=list)  # per seat: [[tid, up], ...]
    set_aside: list[list[str]] = field(default_factory=list)
    tile_discard: list[str] = field(default_factory=list)
    t0: dict[str, Any] | None = None
    bids: dict[int, int] = field(default_factory=dict)  # seat -> amount (pending)
    bidders: list[int] = field(default_factory=list)
    bid_attempt: int = 0
    picker: int | None = None
    picked: list[int] = field(default_factory=list)
    crisis: Crisis | None = None
    active: int = 0  # index into order (phases 5 and 6)
    turn: Turn | None = None
    step: Step | None = None
    offer: Offer | None = None
    discard_pending: int | None = None
    red_check_pending: bool = False
    p4_done: bool = False  # this round's Phase-4 crisis has ended (Phase 5 may start)
    p6: dict[str, Any] | None = None
    end: dict[str, Any] | None = None
    cart_seen: dict[int, list[list[str]]] = field(
        default_factory=dict
    )  # seat -> tiles seen privately with CARTOGRAPHER
    shared_explores: int = 0
    tax_used: int = 0


_CONTAINERS = (dict, list, set)


def deep_copy(x: Any) -> Any:
    """A copy of nested dicts, lists and sets (their leaves are immutable)."""
    t = type(x)
    if t is dict:
        return {k: deep_copy(v) if v.__class__ in _CONTAINERS else v for k, v in x.items()}
    if t is list:
        return [deep_copy(v) if v.__class__ in _CONTAINERS else v for v in x]
    if t is set:
        return set(x)
    return x


_FLAT_LISTS = (
    "order",
    "stacks",
    "deck",
    "evo_discard",
    "trends",
    "table_objectives",
    "next_unit",
    "stack",
    "set_aside",
    "tile_discard",
    "bidders",
    "picked",
    "kept",
)  # items never mutated in place
_FLAT_DICTS = ("bank", "dom", "exp", "pool", "bids", "posmap", "cart_seen")
_SHARED = ("options", "obj_args")  # never mutated after GameStarted


# ---------------------------------------------------------------------------------------------------- open parts
# The parts of the state that exist only at some moments; a handler or fold that runs at such a moment (the
# prompt or the event guarantees it) reads them through these.
def turn_of(st: ArchState) -> Turn:
    assert st.turn is not None, "no turn is open"
    return st.turn


def step_of(st: ArchState) -> Step:
    assert st.step is not None, "no step is open"
    return st.step


def crisis_of(st: ArchState) -> Crisis:
    assert st.crisis is not None, "no crisis is running"
    return st.crisis


def offer_of(st: ArchState) -> Offer:
    assert st.offer is not None, "no offer is open"
    return st.offer


def t0_of(st: ArchState) -> dict[str, Any]:
    assert st.t0 is not None, "turn 0 is not running"
    return st.t0


def p6_of(st: ArchState) -> dict[str, Any]:
    assert st.p6 is not None, "Phase 6 is not running"
    return st.p6


def _same(v: Any) -> Any:
    return v


# The copiers of the big fields are plain loops over ``dict.copy``: cheaper than comprehensions that unpack
# (``{**x, ...}``), and the bots copy states often (the keys keep their order either way).
def _units_copy(v: dict[str, Unit]) -> dict[str, Unit]:
    out = {}
    for u, x in v.items():
        out[u] = x.copy()
    return out


def _tiles_copy(v: dict[str, PlacedTile]) -> dict[str, PlacedTile]:
    out = {}
    for t, x in v.items():
        y = out[t] = x.copy()
        y["occ"] = list(x["occ"])
    return out


def _players_copy(v: list[Player]) -> list[Player]:
    out = []
    for p in v:
        q = p.copy()
        q["cubes"] = p["cubes"].copy()
        q["track"] = p["track"].copy()
        q["wonders"] = p["wonders"].copy()
        out.append(q)
    return out


def _market_copy(v: list[list[Any] | None]) -> list[list[Any] | None]:
    return [m if m is None else list(m) for m in v]


def _nested_lists_copy(v: list[list[Any]]) -> list[list[Any]]:
    return [list(h) for h in v]


def _buildings_copy(v: dict[str, dict[str, str | None]]) -> dict[str, dict[str, str | None]]:
    return {t: dict(b) for t, b in v.items()}


def _crisis_copy(v: Crisis) -> Crisis:
    """The crisis (``evolve_crises``): its lists ``temples_used`` and ``done`` and its ``units`` (requirement dicts
    whose ``met`` changes) are mutated in place; every other value is a str, an int or None."""
    c = v.copy()
    for name in ("temples_used", "done"):
        if name in c:
            c[name] = list(c[name])
    if "units" in c:
        c["units"] = [dict(u) for u in c["units"]]
    return c


def _turn_copy(v: Turn) -> Turn:
    """The open turn: its list ``grants`` gets grants appended (each grant is never changed); the rest are atoms."""
    t = v.copy()
    t["grants"] = list(v["grants"])
    return t


def _offer_copy(v: Offer) -> Offer:
    """The open offer: its lists ``give`` and ``get`` get items appended (each item is never changed); the rest are
    atoms."""
    o = v.copy()
    o["give"] = list(v["give"])
    o["get"] = list(v["get"])
    return o


def _copier(name: str) -> Callable[[Any], Any]:
    """How field ``name`` is copied so that ``apply`` may mutate the copy (immutable parts are shared)."""
    if name in _SHARED:
        return _same
    if name in _FLAT_LISTS:
        return list
    if name in _FLAT_DICTS:
        return dict
    special: dict[str, Callable[[Any], Any]] = {
        "units": _units_copy,
        "tiles": _tiles_copy,
        "players": _players_copy,
        "market": _market_copy,
        "hands": _nested_lists_copy,
        "objectives": _nested_lists_copy,
        "dealt_objectives": _nested_lists_copy,
        "buildings": _buildings_copy,
        "crisis": _crisis_copy,
        "turn": _turn_copy,
        "offer": _offer_copy,
        "card_used": set,
        "resolved_red": set,
    }
    return special.get(name, deep_copy)


COPIERS: dict[str, Callable[[Any], Any]] = {f.name: _copier(f.name) for f in fields(ArchState)}
# The fields ``clone`` copies: those that may hold a container, but the ``_SHARED`` ones (the others hold an int, a
# bool, a str or None, declared so in ``ArchState``).
_ATOM_TYPES = ("int", "bool", "str", "int | None")
_CLONED = tuple(
    (f.name, COPIERS[f.name]) for f in fields(ArchState) if f.type not in _ATOM_TYPES and f.name not in _SHARED
)


def clone(state: ArchState) -> ArchState:
    """A private copy: every container that ``apply`` may mutate is copied, the rest shared."""
    new = ArchState.__new__(ArchState)
    nd = new.__dict__
    nd.update(state.__dict__)
    for k, copier in _CLONED:
        v = nd[k]
        if v is not None:
            nd[k] = copier(v)
    return new


def copy_on_write(state: ArchState, touched: tuple[str, ...]) -> ArchState:
    """A copy that shares every field with ``state`` except ``touched``, which are copied (see ``clone``)."""
    new = ArchState.__new__(ArchState)
    nd = new.__dict__
    nd.update(state.__dict__)
    for k in touched:
        v = nd[k]
        if v is not None and v.__class__ not in _ATOMS:
            nd[k] = COPIERS[k](v)
    return new


_ATOMS = frozenset({int, str, bool})


# ---------------------------------------------------------------------------------------------------- geometry
def neighbor(pos: tuple[int, int], i: int) -> tuple[int, int]:
    dq, dr = D.DIRECTIONS[i]
    return (pos[0] + dq, pos[1] + dr)


def rotate_edges(edges: str, rot: int) -> str:
    """placed_edge(i) = edges[(i - rot) mod 6]."""
    return "".join(edges[(i - rot) % 6] for i in range(6))


def face_of(tid: str, face: str) -> D.Face:
    if tid in D.START_FACES:
        return D.START_FACES[tid]
    if "+" in tid:  # a tile made up by ``determinize``: "<tile><face>+<tile><face>" gives its faces A and B
        src = tid.split("+")[0 if face == "A" else 1]
        return D.EXPLORATION_TILES[src[:-1]][src[-1]]
    return D.EXPLORATION_TILES[tid][face]


def face_source(tid: str, face: str) -> tuple[str, str]:
    """The printed (tile, face) behind ``face`` of ``tid`` (itself, unless ``determinize`` made the tile up)."""
    if "+" in tid:
        src = tid.split("+")[0 if face == "A" else 1]
        return src[:-1], src[-1]
    return tid, face


def composed_tile(a: tuple[str, str], b: tuple[str, str]) -> str:
    """A made-up tile id whose face A is printed face ``a`` and face B printed face ``b`` (for ``determinize``)."""
    if a[1] == "A" and b == (a[0], "B"):
        return a[0]
    return f"{a[0]}{a[1]}+{b[0]}{b[1]}"


def both_faces(tid: str) -> dict[str, dict]:
    """Both faces of an exploration tile as shown to whoever may look at it (§3.10 v1.2: 「你可以自由看正反兩面」)."""
    out = {}
    for face in ("A", "B"):
        f = face_of(tid, face)
        out[face] = {"edges": f.edges, "icons": list(f.icons), "huts": f.huts}
    return out


def neighbors(st: ArchState, tid: str) -> list[tuple[int, str]]:
    pos = st.tiles[tid]["pos"]
    out = []
    for i in range(6):
        other = st.posmap.get(neighbor(pos, i))
        if other is not None:
            out.append((i, other))
    return out


def link(st: ArchState, tid: str, i: int, other: str) -> str:
    a = st.tiles[tid]["edges"][i]
    b = st.tiles[other]["edges"][(i + 3) % 6]
    return a if a == b else "M"


def linked(st: ArchState, tid: str, kind: str, engineer: bool = False) -> list[str]:
    """Neighbour tiles reachable across a link of ``kind`` (S or P; P includes M with ENGINEER)."""
    out = []
    for i, other in neighbors(st, tid):
        t = link(st, tid, i, other)
        if t == kind or (kind == "P" and engineer and t == "M"):
            out.append(other)
    return out


# ---------------------------------------------------------------------------------------------------- players
def owns(st: ArchState, seat: int, card: str) -> bool:
    return card in st.players[seat]["track"]


def card_owner(st: ArchState, card: str) -> int | None:
    for s, p in enumerate(st.players):
        if card in p["track"]:
            return s
    return None


def tile_limit(st: ArchState, seat: int) -> int:
    return D.CHARTER_CITIZENS_PER_TILE if owns(st, seat, "P16") else D.MAX_CITIZENS_PER_TILE


def citizens_on(st: ArchState, seat: int, tid: str) -> list[str]:
    return [u for u, x in st.units.items() if x["kind"] == "C" and x["owner"] == seat and x["tile"] == tid]


def can_add_citizen(st: ArchState, seat: int, tid: str, extra: int = 1) -> bool:
    return len(citizens_on(st, seat, tid)) + extra <= tile_limit(st, seat)


def population(st: ArchState) -> int:
    count = 0  # a plain loop: cheaper than sum() over a generator (called for every independence check)
    for x in st.units.values():
        if x["kind"] == "C":
            count += 1
    return count


def lying_count(st: ArchState) -> int:
    count = 0
    for x in st.units.values():
        if x["lying"] and x["kind"] == "C":
            count += 1
    return count


def available(unit: Unit) -> bool:
    return not unit["engaged"] and not unit["lying"]


def housed(unit: Unit) -> bool:
    return unit["place"].startswith("B:")


def cit_total(st: ArchState) -> int:
    return st.n * D.CITIZENS_PER_PLAYER * (D.TWO_PLAYER_SUPPLY_FACTOR if st.n == 2 else 1)


def ceil_pct(p: int, total: int) -> int:
    return -(-p * total // 100)


# ---------------------------------------------------------------------------------------------------- control
def tile_controller(st: ArchState, tid: str) -> int | None:
    occ = st.buildings.get(tid, {}).get("TOWN")
    return st.units[occ]["owner"] if occ else None


def building_controller(st: ArchState, tid: str, btype: str) -> int | None:
    b = st.buildings.get(tid, {})
    if btype not in b:
        return None
    occ = b[btype]
    if occ:
        return st.units[occ]["owner"]
    return tile_controller(st, tid)


def anchor(st: ArchState, tid: str, btype: str) -> str | None:
    b = st.buildings.get(tid, {})
    if btype not in b:
        return None
    return b[btype] or b.get("TOWN")


def anchor_ready(st: ArchState, tid: str, btype: str) -> bool:
    a = anchor(st, tid, btype)
    if a is None:
        return False
    u = st.units[a]
    return u["kind"] == "S" or not u["lying"]


def controlled_buildings(st: ArchState, seat: int, btype: str) -> list[str]:
    return [tid for tid, b in st.buildings.items() if btype in b and building_controller(st, tid, btype) == seat]


def needs_grant(st: ArchState, seat: int, tid: str) -> bool:
    c = tile_controller(st, tid)
    return c is not None and c != seat


def has_grant(st: ArchState, seat: int, kind: str, target: str) -> bool:
    turn = st.turn
    if not turn or turn["seat"] != seat:
        return False
    for g in turn["grants"]:
        if g["grant"] == kind and g["target"] == target:
            tid = target.split(":")[0]
            if tile_controller(st, tid) == g["grantor"]:
                return True
    return False


def permitted(st: ArchState, seat: int, kind: str, tid: str, target: str | None = None) -> bool:
    if not needs_grant(st, seat, tid):
        return True
    return has_grant(st, seat, kind, target or tid)


def buildings_on_map(st: ArchState) -> int:
    return sum(map(len, st.buildings.values()))


def market_price(market: str, resource: str, count: int, op: str) -> int:
    table = D.DOMESTIC_PRICES if market == "DOM" else D.EXPORT_PRICES
    return table[resource][count - 1] if op == "BUY" else table[resource][count]


def offered_card(st: ArchState, slot: int) -> list[Any]:
    """[card, orientation] of an occupied slot of the evolution market."""
    offered = st.market[slot]
    assert offered is not None, "the slot is empty"
    return offered


def card_price(st: ArchState, slot: int) -> int:
    card, orient = offered_card(st, slot)
    return D.CARDS[card].prices[orient]


def objectives_in_play(st: ArchState) -> list[tuple[int | None, str]]:
    if st.options.get("no_secrets"):
        return [(None, o) for o in st.table_objectives]
    return [(s, o) for s in range(st.n) for o in st.objectives[s]]
