"""Commands of a trade between two seats (§11): drafting, sending and answering an offer.

Section (§) and ruling (D, Q) numbers are those of docs/rules/archipelago.md.
"""

from __future__ import annotations

from domain.archipelago import data as D
from domain.archipelago.checks import illegal, invalid, req_int, req_str
from domain.archipelago.flow import Ctx
from domain.archipelago.state import (
    ArchState,
    card_owner,
    offer_of,
    tile_controller,
    turn_of,
)


def cmd_offer_open(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    to = req_int(cmd, "to")
    if not 0 <= to < st.n or to == seat:
        illegal("offer to another seat")
    if turn_of(st)["offers"] >= D.OFFER_LIMIT:
        illegal(f"at most {D.OFFER_LIMIT} offers per turn")
    ctx.emit({"type": "OfferOpened", "seat": seat, "to": to})


ITEM_KINDS = ("MONEY_1", "MONEY_5", "CUBE", "TOKEN", "CARD", "GRANT")


def parse_item(cmd: dict) -> dict:
    it = cmd.get("item")
    if not isinstance(it, dict):
        invalid("item must be an object with a 'kind'")
    kind = req_str(it, "kind", ITEM_KINDS)
    if kind == "CUBE":
        return {"kind": kind, "resource": req_str(it, "resource", D.RESOURCES)}
    if kind == "CARD":
        card = req_str(it, "card")
        if card not in D.CARDS:
            invalid(f"unknown card {card!r}")
        return {"kind": kind, "card": card}
    if kind == "GRANT":
        g = req_str(it, "grant", ("HARVEST_ON", "BUILD_ON", "ENTER"))
        if g == "ENTER":
            b = req_str(it, "building")
            if ":" not in b:
                invalid("building ids look like '<tile>:<TYPE>'")
            return {"kind": kind, "grant": g, "building": b}
        return {"kind": kind, "grant": g, "tile": req_str(it, "tile")}
    return {"kind": kind}


def side_total(items: list[dict], kind: str, key: str | None = None, value: object = None) -> int:
    return sum(1 for i in items if i["kind"] == kind and (key is None or i.get(key) == value))


def money_of(items: list[dict]) -> int:
    return sum(1 if i["kind"] == "MONEY_1" else 5 for i in items if i["kind"] in ("MONEY_1", "MONEY_5"))


def others_public_cubes(st: ArchState, seat: int, r: str) -> int:
    return D.CUBE_TOTALS[r] - st.bank[r] - st.dom[r] - st.exp[r] - st.players[seat]["cubes"][r]


def cmd_offer_add(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    side = req_str(cmd, "side", ("GIVE", "GET"))
    item = parse_item(cmd)
    off = offer_of(st)
    items = off["give"] if side == "GIVE" else off["get"]
    if len(items) >= D.OFFER_ITEMS_MAX:
        illegal(f"at most {D.OFFER_ITEMS_MAX} items per side")
    k = item["kind"]
    new = items + [item]
    if side == "GIVE":
        p = st.players[seat]
        if k == "GRANT":
            illegal("grants can only be asked for (GET side)")
        if money_of(new) > p["money"]:
            illegal("you do not hold that much money")
        if k == "CUBE" and side_total(new, "CUBE", "resource", item["resource"]) > p["cubes"][item["resource"]]:
            illegal("you do not hold that many cubes")
        if k == "TOKEN" and side_total(new, "TOKEN") > p["tokens"]:
            illegal("you do not hold that many tokens")
        if k == "CARD" and (item["card"] not in p["track"] or side_total(new, "CARD", "card", item["card"]) > 1):
            illegal("you can give each of your own cards once")
    else:
        to = off["to"]
        if k == "CUBE" and side_total(new, "CUBE", "resource", item["resource"]) > others_public_cubes(
            st, seat, item["resource"]
        ):
            illegal("other players do not hold that many cubes")
        if k == "TOKEN":
            held = 24 - sum(st.stacks) - st.tokens_spent - st.players[seat]["tokens"]
            if side_total(new, "TOKEN") > held:
                illegal("other players do not hold that many tokens")
        if k == "CARD" and (card_owner(st, item["card"]) != to or side_total(new, "CARD", "card", item["card"]) > 1):
            illegal("ask each of the recipient's cards once")
        if k == "GRANT":
            target = item.get("tile") or item.get("building", "").split(":")[0]
            if target not in st.tiles or tile_controller(st, target) != to:
                illegal("a grant must concern a tile the recipient controls")
            if item in off["get"]:
                illegal("that grant is already asked for")
    ctx.emit({"type": "OfferItemAdded", "seat": seat, "side": side, "item": item})


def cmd_offer_send(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    if not offer_of(st)["give"] and not offer_of(st)["get"]:
        illegal("add at least one item")
    ctx.emit(
        {
            "type": "OfferSent",
            "seat": seat,
            "to": offer_of(st)["to"],
            "give": offer_of(st)["give"],
            "get": offer_of(st)["get"],
        }
    )


def cmd_offer_cancel(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    ctx.emit({"type": "OfferClosed", "seat": seat, "accepted": False, "cancelled": True})


def acceptance_problem(st: ArchState, seat: int) -> str | None:
    """Why ``seat`` cannot accept the offer sent to it now, or ``None`` when it can."""
    off = offer_of(st)
    assert off is not None and st.turn is not None
    p = st.players[seat]
    get = off["get"]
    if money_of(get) > p["money"]:
        return "you do not hold that much money"
    for r in D.RESOURCES:
        if side_total(get, "CUBE", "resource", r) > p["cubes"][r]:
            return f"you do not hold enough {r}"
    if side_total(get, "TOKEN") > p["tokens"]:
        return "you do not hold enough tokens"
    for i in get:
        if i["kind"] == "CARD" and i["card"] not in p["track"]:
            return "you no longer hold that card"
        if i["kind"] == "GRANT":
            target = i.get("tile") or i["building"].split(":")[0]
            if tile_controller(st, target) != seat:
                return "you no longer control that tile"
    active = turn_of(st)["seat"]
    ga, gb = side_total(off["give"], "CARD"), side_total(get, "CARD")
    if len(st.players[active]["track"]) - ga + gb > D.EVO_TRACK_SIZE or len(p["track"]) - gb + ga > D.EVO_TRACK_SIZE:
        return "nobody may own more than 5 evolution cards after a trade"
    return None


def cmd_offer_accept(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    problem = acceptance_problem(st, seat)
    if problem is not None:
        illegal(problem)
    off = offer_of(st)
    ctx.emit({"type": "OfferAccepted", "seat": turn_of(st)["seat"], "to": seat, "give": off["give"], "get": off["get"]})


def cmd_offer_decline(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    ctx.emit({"type": "OfferClosed", "seat": turn_of(st)["seat"], "to": seat, "accepted": False, "cancelled": False})
