"""``legal_commands``, built constructively: one generator per command type yields exactly the commands its
handler accepts, using the same rule predicates (``checks``, ``state``, ``steps``), never by trying a handler
and catching ``IllegalCommand``. A property test compares every generator with that trial over random
positions (``tests/domain/archipelago/oracle.py``).

Every generator has the shape ``(st, seat, kind) -> list[dict]`` and lists its commands in a fixed order.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from operator import itemgetter

from domain.archipelago import data as D
from domain.archipelago.checks import (
    engineer,
    harvest_targets,
    hire_tiles,
    reachable_by_convoy,
    tradable,
)
from domain.archipelago.crises import stand_targets, supply_sources, temple_options
from domain.archipelago.decide import PROMPT_COMMANDS, prompt
from domain.archipelago.flow import icon_choices, turn0_placements
from domain.archipelago.legal_base import Command, Generator, pos_json, units_of
from domain.archipelago.legal_turn import TURN_GENERATORS, has_turn_action
from domain.archipelago.scoring import declarable
from domain.archipelago.state import (
    ArchState,
    available,
    can_add_citizen,
    card_price,
    crisis_of,
    face_of,
    housed,
    linked,
    lying_count,
    neighbor,
    owns,
    permitted,
    rotate_edges,
    step_of,
    t0_of,
)
from domain.archipelago.steps import crossing_kind, explore_positions, hire_price


# ---------------------------------------------------------------------------------------------------- setup
def _keep_objectives(st: ArchState, seat: int, kind: str) -> list[Command]:
    want = 2 if st.n == 2 else 1
    dealt = st.dealt_objectives[seat]
    return [{"type": "keep_objectives", "cards": sorted(c)} for c in combinations(dealt, want) if len(set(c)) == want]


def _place_start_tile(st: ArchState, seat: int, kind: str) -> list[Command]:
    return [
        {"type": "place_start_tile", "tile": tid, "pos": pos_json(p), "face": f, "rot": r}
        for tid, p, f, r in turn0_placements(st, seat)
    ]


def _icon(which: str) -> Generator:
    ctype = f"choose_{which}_icon"

    def generate(st: ArchState, seat: int, kind: str) -> list[Command]:
        if st.phase == "TURN0":
            assert st.t0 is not None
            holder, open_ = st.t0, t0_of(st)["sub"] == "icons"
        else:
            assert st.step is not None
            holder, open_ = st.step, step_of(st).get("phase") == "icons"
        tid = holder.get("tile")
        if not open_ or tid is None or tid not in st.tiles:
            return []
        pending, cands = icon_choices(st, holder, tid)
        if pending != which:
            return []
        return [{"type": ctype, "icon": i} for i in cands]

    return generate


def _discard_card(st: ArchState, seat: int, kind: str) -> list[Command]:
    return [{"type": "discard_card", "card": c} for c in st.players[seat]["track"]]


# ---------------------------------------------------------------------------------------------------- crises
def _supply(st: ArchState, seat: int, kind: str) -> list[Command]:
    c = crisis_of(st)
    assert c is not None
    if c["pending"] or c["temple"] is not None or lying_count(st) < 1:
        return []
    return [{"type": "supply", "source": s} for s in supply_sources(st, seat)]


def _stand(st: ArchState, seat: int, kind: str) -> list[Command]:
    if kind == "dom_supply":
        return [{"type": "stand", "citizen": u} for u, _ in stand_targets(st, seat)]
    assert st.step is not None
    if step_of(st)["left"] < 1:
        return []
    return [{"type": "stand", "citizen": u} for u, x in sorted(st.units.items()) if x["kind"] == "C" and x["lying"]]


def _activate_temple(st: ArchState, seat: int, kind: str) -> list[Command]:
    return [{"type": "activate_temple", "temple": f"{tid}:TEMPLE"} for tid in temple_options(st, seat)]


def _temple_done(st: ArchState, seat: int, kind: str) -> list[Command]:
    assert st.crisis is not None
    return [{"type": "temple_done"}] if crisis_of(st)["temple"] is not None else []


def _supply_done(st: ArchState, seat: int, kind: str) -> list[Command]:
    c = crisis_of(st)
    assert c is not None
    if c["part"] == "DOM" and (c["pending"] or c["temple"] is not None):
        return []
    return [{"type": "supply_done"}]


def _export_supply(st: ArchState, seat: int, kind: str) -> list[Command]:
    assert st.crisis is not None
    p = st.players[seat]
    out = []
    for k, u in enumerate(crisis_of(st)["units"]):
        if u["met"]:
            continue
        for r in D.RESOURCES if u["resource"] == "ANY" else (u["resource"],):
            ok = {"MARKET": st.exp[r] > 0, "CUBE": p["cubes"][r] > 0, "TOKEN": p["tokens"] > 0}
            out += [
                {"type": "export_supply", "unit": k, "source": src, "resource": r}
                for src in ("MARKET", "CUBE", "TOKEN")
                if ok[src]
            ]
    return out


# ---------------------------------------------------------------------------------------------------- auction
def _bid(st: ArchState, seat: int, kind: str) -> list[Command]:
    if seat in st.bids:
        return []
    return [{"type": "bid", "amount": a} for a in range(st.players[seat]["money"] + 1)]


def _order_pick(st: ArchState, seat: int, kind: str) -> list[Command]:
    return [{"type": "order_pick", "seat": s} for s in range(st.n) if s not in st.picked]


# ---------------------------------------------------------------------------------------------------- phase 6
def _occupied(st: ArchState) -> list[int]:
    return [i for i, m in enumerate(st.market) if m is not None]


def _evo_buy(st: ArchState, seat: int, kind: str) -> list[Command]:
    occ = _occupied(st)
    money = st.players[seat]["money"]
    out = []
    for s in occ:
        if card_price(st, s) > money:
            continue
        rotations: list[int | None] = [o for o in occ if o != s] or [None]
        out += [{"type": "evo_buy", "slot": s, "rotate": r} for r in rotations]
    return out


def _evo_rotate(st: ArchState, seat: int, kind: str) -> list[Command]:
    occ = _occupied(st)
    if len(occ) == 1:
        return [{"type": "evo_rotate", "slots": occ}]
    return [{"type": "evo_rotate", "slots": list(c)} for c in combinations(occ, 2)]


# ---------------------------------------------------------------------------------------------------- steps
def _step(st: ArchState) -> dict:
    assert st.step is not None
    return st.step


def _harvest_assign(st: ArchState, seat: int, kind: str) -> list[Command]:
    targets = harvest_targets(st, seat, _step(st)["resource"])
    return [{"type": "harvest_assign", "unit": u, "icon": i} for u, i in targets]


def _harvest_done(st: ArchState, seat: int, kind: str) -> list[Command]:
    return [{"type": "harvest_done"}] if _step(st)["assigned"] else []


def _hire(st: ArchState, seat: int, kind: str) -> list[Command]:
    price = hire_price(st, seat)
    p = st.players[seat]
    if price is None or p["sup_c"] < 1 or p["money"] < price:
        return []
    return [{"type": "hire", "tile": tid} for tid in hire_tiles(st, seat)]


def _recruit_done(st: ArchState, seat: int, kind: str) -> list[Command]:
    return [{"type": "recruit_done"}] if _step(st)["hires"] >= 1 else []


def _birth(st: ArchState, seat: int, kind: str) -> list[Command]:
    step = _step(st)
    if st.players[seat]["sup_c"] < 1:
        return []
    return [
        {"type": "birth", "tile": tid}
        for tid in step["eligible"]
        if tid not in step["done"] and can_add_citizen(st, seat, tid)
    ]


def _reproduce_done(st: ArchState, seat: int, kind: str) -> list[Command]:
    return [{"type": "reproduce_done"}] if _step(st)["done"] else []


def _cartographer_pick(st: ArchState, seat: int, kind: str) -> list[Command]:
    step = _step(st)
    if step["phase"] != "cartographer":
        return []
    return [{"type": "cartographer_pick", "index": i} for i in range(step.get("look") or 0)]


def _place_tile(st: ArchState, seat: int, kind: str) -> list[Command]:
    """Each open position's placed neighbours are read once, and each face's rotations come from ``_rotations``:
    the same commands in the same order as ``placement_ok`` and ``explore_movers`` tried for every rotation (the
    movers by ``crossing_kind``, as there)."""
    step = _step(st)
    tid = step.get("tile")
    if step.get("phase") != "place" or tid is None:
        return []
    faces = [(face, _rotations(face_of(tid, face).edges)) for face in ("A", "B")]
    eng = engineer(st, seat)
    units_on = _units_by_tile(st, seat)
    nobody: tuple[list[str], list[str]] = ([], [])
    out = []
    for pos in explore_positions(st):
        q, r = pos
        # (direction, the neighbour's facing edge, the seat's citizens and ships there that may move)
        around = []
        for i in range(6):
            other = st.posmap.get(neighbor(pos, i))
            if other is not None:
                around.append((i, st.tiles[other]["edges"][(i + 3) % 6], *units_on.get(other, nobody)))
        # a rotation fits when its edges towards the neighbours (at least two: a tuple) are the neighbours' edges
        towards = itemgetter(*[i for i, _f, _c, _s in around])
        facing_edges = tuple(facing for _i, facing, _c, _s in around)
        for face, rotations in faces:
            for rot, edges in enumerate(rotations):
                if towards(edges) != facing_edges:
                    continue
                for _i, facing, citizens, ships in around:
                    crossing = crossing_kind(facing, eng)
                    if crossing is None:
                        continue
                    movers = citizens if crossing == "C" else ships
                    out += [
                        {"type": "place_tile", "pos": {"q": q, "r": r}, "face": face, "rot": rot, "mover": m}
                        for m in movers
                    ]
    return out


@lru_cache(maxsize=512)
def _rotations(edges: str) -> tuple[str, ...]:
    """``rotate_edges(edges, rot)`` for rot 0 to 5."""
    return tuple(rotate_edges(edges, rot) for rot in range(6))


def _units_by_tile(st: ArchState, seat: int) -> dict[str, tuple[list[str], list[str]]]:
    """Per tile: the seat's available citizens and ships there, in the order of ``st.units``."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    for uid, u in st.units.items():
        if u["owner"] == seat and available(u):
            citizens, ships = out.setdefault(u["tile"], ([], []))
            if u["kind"] == "C":
                citizens.append(uid)
            elif u["kind"] == "S":
                ships.append(uid)
    return out


def _discard_tile(st: ArchState, seat: int, kind: str) -> list[Command]:
    return [{"type": "discard_tile"}] if _step(st)["phase"] == "place" else []


def _movers(st: ArchState, seat: int, kind: str | None = None) -> list[str]:
    """The seat's units that may still move in this migration (``steps._mover`` accepts them)."""
    entered = _step(st)["entered"]
    return [u for u in units_of(st, seat, kind) if available(st.units[u]) and u not in entered]


def _move_ship(st: ArchState, seat: int, kind: str) -> list[Command]:
    step = _step(st)
    allowance = 2 if owns(st, seat, "P15") else 1
    citizens = _movers(st, seat, "C")
    out = []
    for s in _movers(st, seat, "S"):
        if step["sea"].get(s, 0) >= allowance:
            continue
        tile = st.units[s]["tile"]
        aboard = [u for u in citizens if st.units[u]["tile"] == tile]
        for to in linked(st, tile, "S"):
            land = st.tiles[to]["land"]
            for k in range(len(aboard) + 1):
                if k and not (land and can_add_citizen(st, seat, to, k)):
                    continue
                for pas in combinations(aboard, k):
                    out.append({"type": "move_ship", "ship": s, "to": to, "passengers": list(pas)})
    return out


def _convoy(st: ArchState, seat: int, kind: str) -> list[Command]:
    step = _step(st)
    out = []
    for u in _movers(st, seat, "C"):
        if step["convoy"].get(u, 0) >= 1 + step["ship_moves"]:
            continue
        for to in sorted(reachable_by_convoy(st, seat, st.units[u]["tile"])):
            if can_add_citizen(st, seat, to):
                out.append({"type": "convoy", "citizen": u, "to": to})
    return out


def _walk(st: ArchState, seat: int, kind: str) -> list[Command]:
    step = _step(st)
    allowance = 2 if owns(st, seat, "P11") else 1
    eng = owns(st, seat, "C17")
    out = []
    for u in _movers(st, seat, "C"):
        if step["walk"].get(u, 0) >= allowance:
            continue
        for to in linked(st, st.units[u]["tile"], "P", eng):
            if st.tiles[to]["land"] and can_add_citizen(st, seat, to):
                out.append({"type": "walk", "citizen": u, "to": to})
    return out


def _enter_building(st: ArchState, seat: int, kind: str) -> list[Command]:
    moved = _step(st)["moved"]
    eng = owns(st, seat, "C17")
    out = []
    for u in _movers(st, seat):
        if u in moved:
            continue
        x = st.units[u]
        tile = x["tile"]
        near = {tile} | set(linked(st, tile, "S" if x["kind"] == "S" else "P", eng))
        for tid in sorted(near):
            for b, occupant in st.buildings.get(tid, {}).items():
                if occupant is not None or (x["kind"] == "S" and b != "PORT"):
                    continue
                if tid != tile and x["kind"] == "C" and not can_add_citizen(st, seat, tid):
                    continue
                if permitted(st, seat, "ENTER", tid, f"{tid}:{b}"):
                    out.append({"type": "enter_building", "unit": u, "building": f"{tid}:{b}"})
    return out


def _leave_building(st: ArchState, seat: int, kind: str) -> list[Command]:
    left = _step(st)["left_b"]
    return [{"type": "leave_building", "unit": u} for u in _movers(st, seat) if housed(st.units[u]) and u not in left]


def _ability_trade(st: ArchState, seat: int, kind: str) -> list[Command]:
    step = _step(st)
    if step["left"] < 1:
        return []
    return [
        {"type": "ability_trade", "op": o, "resource": r}
        for o in ("BUY", "SELL")
        for r in tradable(st, seat, step["market"], o)
    ]


def _research_pick(st: ArchState, seat: int, kind: str) -> list[Command]:
    step = _step(st)
    wanted = "PROGRESS" if step["card"] == "C01" else "CHARACTER"
    money = st.players[seat]["money"]
    return [{"type": "research_pick", "card": None}] + [
        {"type": "research_pick", "card": c}
        for c in step["revealed"]
        if D.CARDS[c].kind == wanted and D.CARDS[c].prices[2] <= money
    ]


def _always(ctype: str) -> Generator:
    def generate(st: ArchState, seat: int, kind: str) -> list[Command]:
        return [{"type": ctype}]

    return generate


GENERATORS: dict[str, Generator] = {
    **TURN_GENERATORS,
    "keep_objectives": _keep_objectives,
    "place_start_tile": _place_start_tile,
    "choose_market_icon": _icon("market"),
    "choose_own_icon": _icon("own"),
    "discard_card": _discard_card,
    "supply": _supply,
    "stand": _stand,
    "activate_temple": _activate_temple,
    "temple_done": _temple_done,
    "supply_done": _supply_done,
    "export_supply": _export_supply,
    "bid": _bid,
    "order_pick": _order_pick,
    "pass": _always("pass"),
    "offer_cancel": _always("offer_cancel"),
    "offer_decline": _always("offer_decline"),
    "evo_buy": _evo_buy,
    "evo_rotate": _evo_rotate,
    "harvest_assign": _harvest_assign,
    "harvest_done": _harvest_done,
    "hire": _hire,
    "recruit_done": _recruit_done,
    "birth": _birth,
    "reproduce_done": _reproduce_done,
    "cartographer_pick": _cartographer_pick,
    "place_tile": _place_tile,
    "discard_tile": _discard_tile,
    "move_ship": _move_ship,
    "convoy": _convoy,
    "walk": _walk,
    "enter_building": _enter_building,
    "leave_building": _leave_building,
    "migrate_done": _always("migrate_done"),
    "ability_trade": _ability_trade,
    "ability_done": _always("ability_done"),
    "research_pick": _research_pick,
    "card_done": _always("card_done"),
}


# prompt kind -> the generators of its command types, in ``PROMPT_COMMANDS`` order
_PROMPT_GENERATORS = {kind: tuple(GENERATORS[c] for c in ctypes) for kind, ctypes in PROMPT_COMMANDS.items()}


def legal_commands(st: ArchState, seat: int) -> list[Command]:
    kind, seats = prompt(st)
    if kind is None or seat not in seats:
        return []
    out = []
    for generate in _PROMPT_GENERATORS[kind]:
        out += generate(st, seat, kind)
    if st.phase not in ("OBJECTIVES", "TURN0"):
        out += [{"type": "declare_end", "objective": o} for o in declarable(st, seat)]
    return out


__all__ = ["GENERATORS", "has_turn_action", "legal_commands"]
