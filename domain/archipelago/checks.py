"""Validation helpers shared by the command handlers: field parsing and rule predicates.

Section (§) and ruling (D, Q) numbers are those of docs/rules/archipelago.md.
"""

from __future__ import annotations

from typing import NoReturn

from domain.archipelago import data as D
from domain.archipelago.state import (
    ArchState,
    available,
    can_add_citizen,
    housed,
    linked,
    owns,
    permitted,
    tile_limit,
)
from domain.decider import int_field, str_field
from domain.game import IllegalCommand


def invalid(msg: str) -> NoReturn:
    raise IllegalCommand("invalid_command", msg)


def illegal(msg: str) -> NoReturn:
    raise IllegalCommand("illegal_command", msg)


req_int = int_field


def req_str(cmd: dict, key: str, choices: tuple | list | None = None) -> str:
    v = str_field(cmd, key)
    if choices is not None and v not in choices:
        invalid(f"field {key!r} must be one of {list(choices)}")
    return v


def opt_list(cmd: dict, key: str) -> list:
    v = cmd.get(key, [])
    if v is None:
        return []
    if not isinstance(v, list):
        invalid(f"field {key!r} must be a list")
    return v


def req_pos(cmd: dict, key: str = "pos") -> tuple[int, int]:
    v = cmd.get(key)
    if not isinstance(v, dict):
        invalid(f"field {key!r} must be an object {{q, r}}")
    return (req_int(v, "q"), req_int(v, "r"))


def req_unit(st: ArchState, cmd: dict, key: str, seat: int | None = None, kind: str | None = None) -> str:
    uid = req_str(cmd, key)
    u = st.units.get(uid)
    if u is None:
        illegal(f"no unit {uid!r} on the map")
    if seat is not None and u["owner"] != seat:
        illegal(f"unit {uid} is not yours")
    if kind is not None and u["kind"] != kind:
        illegal(f"unit {uid} must be a {'citizen' if kind == 'C' else 'ship'}")
    return uid


def req_tile(st: ArchState, cmd: dict, key: str = "tile") -> str:
    tid = req_str(cmd, key)
    if tid not in st.tiles:
        illegal(f"no placed tile {tid!r}")
    return tid


def req_resource(cmd: dict, key: str = "resource") -> str:
    return req_str(cmd, key, D.RESOURCES)


def req_tokens(cmd: dict, key: str = "tokens") -> dict[str, int]:
    v = cmd.get(key, {})
    if v is None:
        return {}
    if not isinstance(v, dict):
        invalid(f"field {key!r} must be an object resource -> number of explorer tokens")
    out = {}
    for r, k in v.items():
        if r not in D.RESOURCES:
            invalid(f"{key}: unknown resource {r!r}")
        if not isinstance(k, int) or isinstance(k, bool) or k < 0:
            invalid(f"{key}: counts must be non-negative integers")
        if k:
            out[r] = k
    return out


def check_payment(st: ArchState, seat: int, cubes: dict[str, int], tokens: dict[str, int], money: int) -> None:
    p = st.players[seat]
    for r, k in tokens.items():
        if k > cubes.get(r, 0):
            illegal(f"tokens replace at most {cubes.get(r, 0)} {r}")
    if sum(tokens.values()) > p["tokens"]:
        illegal("not enough explorer tokens")
    for r, k in cubes.items():
        if p["cubes"][r] < k - tokens.get(r, 0):
            illegal(f"not enough {r}")
    if p["money"] < money:
        illegal(f"costs {money} florins")


def payment_event(seat: int, cubes: dict[str, int], tokens: dict[str, int], money: int, reason: str) -> dict:
    paid = {r: k - tokens.get(r, 0) for r, k in cubes.items() if k - tokens.get(r, 0) > 0}
    return {
        "type": "CubesPaid",
        "seat": seat,
        "cubes": paid,
        "tokens": sum(tokens.values()),
        "money": money,
        "reason": reason,
    }


def token_options(st: ArchState, seat: int, cubes: dict[str, int]) -> list[dict[str, int]]:
    """Every feasible ``tokens`` split for paying ``cubes``."""
    p = st.players[seat]
    opts: list[dict[str, int]] = [{}]
    for r, k in cubes.items():
        nxt = []
        for o in opts:
            for t in range(k + 1):
                if p["cubes"][r] >= k - t and sum(o.values()) + t <= p["tokens"]:
                    nxt.append({**o, r: t} if t else dict(o))
        opts = nxt
    return opts


def parse_with(st: ArchState, seat: int, cmd: dict, action: str) -> tuple[list[str], list[dict]]:
    """The WITH cards of a wheel action: (card ids, fees to other owners)."""
    cards = opt_list(cmd, "with")
    fees = []
    seen = set()
    for c in cards:
        if not isinstance(c, str) or c not in D.CARDS:
            invalid(f"with: unknown card {c!r}")
        if c in seen:
            illegal(f"with: card {c} named twice")
        seen.add(c)
        card = D.CARDS[c]
        if card.use != f"WITH:{action}":
            illegal(f"{card.name} cannot be used with {action}")
        if c in st.card_used:
            illegal(f"{card.name} was already used this round")
        if not owns(st, seat, c):
            owner = next((s for s, p in enumerate(st.players) if c in p["track"]), None)
            if owner is None or not card.shareable:
                illegal(f"you cannot use {card.name}")
            fees.append({"card": c, "owner": owner})
    if len(fees) > st.players[seat]["money"]:
        illegal("cannot pay the shared-card fees")
    return cards, fees


def harvest_targets(st: ArchState, seat: int, resource: str, exclude: list | tuple = ()) -> list[tuple[str, int]]:
    """(unit, icon) pairs legal for a harvest assignment."""
    out = []
    kind = "S" if resource == "FISH" else "C"
    for uid, u in st.units.items():
        if u["owner"] != seat or u["kind"] != kind or not available(u) or housed(u) or uid in exclude:
            continue
        if u["place"].startswith("I:"):
            continue
        t = st.tiles[u["tile"]]
        if not permitted(st, seat, "HARVEST_ON", u["tile"]):
            continue
        for i, r in enumerate(t["icons"]):
            if r == resource and t["occ"][i] is None:
                out.append((uid, i))
    return out


def harvestable(st: ArchState, seat: int) -> set[str]:
    """The resources ``harvest_targets`` finds a (unit, icon) pair for, from one pass over the units."""
    out: set[str] = set()
    for u in st.units.values():
        if u["owner"] != seat or not available(u) or housed(u) or u["place"].startswith("I:"):
            continue
        t = st.tiles[u["tile"]]
        if not permitted(st, seat, "HARVEST_ON", u["tile"]):
            continue
        fish = u["kind"] == "S"
        for r, occ in zip(t["icons"], t["occ"], strict=True):
            if occ is None and (r == "FISH") == fish:
                out.add(r)
    return out


def hire_tiles(st: ArchState, seat: int) -> list[str]:
    """Land tiles where §8.2 (v1.2) lets ``seat`` hire: any citizen of the actor (standing or lying) or a ship of
    the actor is on the tile, and ``can_add_citizen`` (the seat's units are counted in one pass)."""
    present: set[str] = set()
    citizens: dict[str, int] = {}
    for u in st.units.values():
        if u["owner"] == seat:
            tid = u["tile"]
            present.add(tid)
            if u["kind"] == "C":
                citizens[tid] = citizens.get(tid, 0) + 1
    room = tile_limit(st, seat) - 1  # can_add_citizen: at most this many citizens there already
    return [tid for tid, t in st.tiles.items() if t["land"] and tid in present and citizens.get(tid, 0) <= room]


def birth_eligible(st: ArchState, seat: int) -> list[str]:
    """The tiles where ``seat`` has at least two standing citizens, sorted."""
    standing: dict[str, int] = {}
    for u in st.units.values():
        if u["owner"] == seat and u["kind"] == "C" and not u["lying"]:
            standing[u["tile"]] = standing.get(u["tile"], 0) + 1
    out = [tid for tid in st.tiles if standing.get(tid, 0) >= 2] if standing else []
    out.sort()
    return out


def birth_possible(st: ArchState, seat: int, tid: str) -> bool:
    return st.players[seat]["sup_c"] >= 1 and can_add_citizen(st, seat, tid)


def engineer(st: ArchState, seat: int) -> bool:
    return owns(st, seat, "C17")


def reachable_by_convoy(st: ArchState, seat: int, t0: str) -> set[str]:
    ships = {u["tile"] for u in st.units.values() if u["owner"] == seat and u["kind"] == "S"}
    if t0 not in ships:
        return set()
    seen = {t0}
    todo = [t0]
    while todo:
        t = todo.pop()
        for o in linked(st, t, "S"):
            if o in ships and o not in seen:
                seen.add(o)
                todo.append(o)
    seen.discard(t0)
    return {t for t in seen if st.tiles[t]["land"]}


def market_problem(st: ArchState, seat: int, market: str, op: str, resource: str, extra_money: int = 0) -> str | None:
    """Why one market transaction is refused, or ``None`` when it is allowed."""
    row = st.dom if market == "DOM" else st.exp
    table = D.DOMESTIC_PRICES if market == "DOM" else D.EXPORT_PRICES
    cap = D.DOM_CAP if market == "DOM" else D.EXP_CAP
    p = st.players[seat]
    if op == "BUY":
        if row[resource] < 1:
            return f"the {market} {resource} row is empty"
        price = table[resource][row[resource] - 1]
        if p["money"] < price + extra_money:
            return f"buying costs {price} florins"
        return None
    if row[resource] >= cap:
        return f"the {market} {resource} row is full"
    if p["cubes"][resource] < 1:
        return f"you hold no {resource} cube"
    if p["money"] < extra_money:
        return "cannot pay the fee"
    return None


def market_price(
    st: ArchState, seat: int, market: str, op: str, resource: str, extra_money: int = 0, bonus: int = 0
) -> int | None:
    """The price of one market transaction (a sale earns ``bonus`` more), or ``None`` when it is refused."""
    if market_problem(st, seat, market, op, resource, extra_money) is not None:
        return None
    row = st.dom if market == "DOM" else st.exp
    table = D.DOMESTIC_PRICES if market == "DOM" else D.EXPORT_PRICES
    if op == "BUY":
        return table[resource][row[resource] - 1]
    return table[resource][row[resource]] + bonus


def tradable(st: ArchState, seat: int, market: str, op: str, extra_money: int = 0) -> list[str]:
    """The resources, in ``D.RESOURCES`` order, whose transaction ``market_problem`` allows (one market and operation,
    every resource in one call: the legal commands list them all; the oracle test holds the two equal)."""
    if market == "DOM":
        row, prices, cap = st.dom, D.DOMESTIC_PRICES, D.DOM_CAP
    else:
        row, prices, cap = st.exp, D.EXPORT_PRICES, D.EXP_CAP
    p = st.players[seat]
    money = p["money"] - extra_money  # what is left once the extra money is paid
    out = []
    if op == "BUY":
        for r in D.RESOURCES:
            count = row[r]
            if count >= 1 and money >= prices[r][count - 1]:
                out.append(r)
    elif money >= 0:
        cubes = p["cubes"]
        for r in D.RESOURCES:
            if row[r] < cap and cubes[r] >= 1:
                out.append(r)
    return out


def market_ok(
    st: ArchState, seat: int, market: str, op: str, resource: str, extra_money: int = 0, bonus: int = 0
) -> int:
    """Validate one market transaction; return its price."""
    problem = market_problem(st, seat, market, op, resource, extra_money)
    if problem is not None:
        illegal(problem)
    price = market_price(st, seat, market, op, resource, extra_money, bonus)
    assert price is not None
    return price
