"""Commands outside the Phase-5 turn: objectives, turn 0, auction, crises, Phase 6, trades, declaring the end."""

from __future__ import annotations

from domain.archipelago import data as D
from domain.archipelago.checks import illegal, invalid, opt_list, req_int, req_pos, req_str
from domain.archipelago.engine import (
    add_citizen,
    add_ship,
    change_sur,
    end_game,
    placement_ok,
    take_token,
    turn0_positions,
)
from domain.archipelago.scoring import declarable
from domain.archipelago.state import (
    ArchState,
    anchor_ready,
    building_controller,
    card_owner,
    face_of,
    lying_count,
    neighbors,
    owns,
    rotate_edges,
    tile_controller,
)


# ---------------------------------------------------------------------------------------------------- setup
def cmd_keep_objectives(st, seat, cmd, ctx):
    cards = opt_list(cmd, "cards")
    want = 2 if st.n == 2 else 1
    if len(cards) != want or len(set(map(str, cards))) != want:
        illegal(f"keep exactly {want} distinct objective(s)")
    if any(c not in st.dealt_objectives[seat] for c in cards):
        illegal("you may only keep objectives dealt to you")
    if ctx:
        ctx.emit({"type": "ObjectivesKept", "seat": seat, "cards": sorted(cards)})


def cmd_place_start_tile(st, seat, cmd, ctx):
    tid = req_str(cmd, "tile")
    pos = req_pos(cmd)
    face = req_str(cmd, "face", ("A", "B"))
    rot = req_int(cmd, "rot")
    if st.t0["sub"] != "place":
        illegal("no tile placement is open")
    if not 0 <= rot <= 5:
        invalid("rot must be 0..5")
    if tid not in [x[0] for x in st.hands[seat]] or pos not in turn0_positions(st):
        illegal("place a tile from your hand on a free position next to the start tile")
    if not placement_ok(st, pos, rotate_edges(face_of(tid, face).edges, rot), st.t0["relaxed"]):
        illegal("the edges do not match the neighbouring tiles")
    if ctx:
        ctx.emit(
            {
                "type": "StartTilePlaced",
                "seat": seat,
                "tile": tid,
                "pos": {"q": pos[0], "r": pos[1]},
                "face": face,
                "rot": rot,
            }
        )
        if st.start == "OCEAN":
            add_ship(ctx, seat, tid, "start")
            add_citizen(ctx, seat, tid, "start")
            add_citizen(ctx, seat, tid, "start")
        else:
            add_citizen(ctx, seat, st.start, "start")
            add_citizen(ctx, seat, tid, "start")
        take_token(ctx, seat)
        change_sur(ctx, ctx.st.tiles[tid]["huts"], "huts")


# ---------------------------------------------------------------------------------------------------- auction
def cmd_bid(st, seat, cmd, ctx):
    amount = req_int(cmd, "amount")
    if seat in st.bids:
        illegal("you already bid")
    if not 0 <= amount <= st.players[seat]["money"]:
        illegal("bid between 0 and your money")
    if ctx:
        ctx.emit({"type": "BidCommitted", "seat": seat, "amount": amount, "attempt": st.bid_attempt})


def cmd_order_pick(st, seat, cmd, ctx):
    s = req_int(cmd, "seat")
    if not 0 <= s < st.n or s in st.picked:
        illegal("pick a seat not yet placed in the order")
    if ctx:
        ctx.emit({"type": "OrderPicked", "seat": seat, "picked": s})


# ---------------------------------------------------------------------------------------------------- crises
def supply_sources(st: ArchState, seat: int) -> list[str]:
    r = st.crisis["resource"]
    if st.dom[r] > 0:
        return ["MARKET"]
    p = st.players[seat]
    return [s for s, ok in (("CUBE", p["cubes"][r] > 0), ("TOKEN", p["tokens"] > 0)) if ok]


def cmd_supply(st, seat, cmd, ctx):
    src = req_str(cmd, "source", ("MARKET", "CUBE", "TOKEN"))
    c = st.crisis
    if c["pending"] or c["temple"] is not None:
        illegal("finish the pending stand-ups or close the temple first")
    lying = lying_count(st)
    if lying < 1:
        illegal("nobody is lying")
    if src not in supply_sources(st, seat):
        illegal("while the domestic row holds a cube it is the only source; otherwise use your cube or a token")
    if ctx:
        ctx.emit(
            {
                "type": "CubeSupplied",
                "seat": seat,
                "resource": c["resource"],
                "source": src,
                "stand_ups": min(c["per_cube"], lying),
            }
        )


def stand_targets(st: ArchState, seat: int) -> list[tuple[str, str]]:
    c = st.crisis
    lying = [u for u, x in st.units.items() if x["kind"] == "C" and x["lying"]]
    if c["pending"]:
        return [(u, "supply") for u in lying]
    if c["temple"] is None:
        return []
    adj = {t for _, t in neighbors(st, c["temple"])}
    out = []
    for u in lying:
        tile = st.units[u]["tile"]
        if tile == c["temple"]:
            out.append((u, "temple"))
        elif c["priest_left"] > 0 and tile in adj:
            out.append((u, "priest"))
    return out


def cmd_crisis_stand(st, seat, cmd, ctx):
    uid = req_str(cmd, "citizen")
    modes = dict(stand_targets(st, seat))
    if uid not in modes:
        illegal("you cannot stand that citizen up now")
    if ctx:
        ctx.emit({"type": "CitizenStood", "seat": seat, "unit": uid, "mode": modes[uid]})


def temple_options(st: ArchState, seat: int) -> list[str]:
    c = st.crisis
    if c["pending"] or c["temple"] is not None:
        return []
    return [
        t
        for t, b in sorted(st.buildings.items())
        if "TEMPLE" in b
        and t not in c["temples_used"]
        and building_controller(st, t, "TEMPLE") == seat
        and anchor_ready(st, t, "TEMPLE")
    ]


def cmd_activate_temple(st, seat, cmd, ctx):
    t = req_str(cmd, "temple")
    tid = t.split(":")[0]
    if tid not in temple_options(st, seat):
        illegal("you cannot activate that temple now")
    if ctx:
        ctx.emit(
            {
                "type": "TempleActivated",
                "seat": seat,
                "tile": tid,
                "priest": D.PRIEST_STANDS if owns(st, seat, "C19") else 0,
            }
        )


def cmd_temple_done(st, seat, cmd, ctx):
    if st.crisis["temple"] is None:
        illegal("no temple is open")
    if ctx:
        ctx.emit({"type": "TempleClosed", "seat": seat})


def cmd_supply_done(st, seat, cmd, ctx):
    c = st.crisis
    if c["part"] == "DOM" and (c["pending"] or c["temple"] is not None):
        illegal("finish the pending stand-ups or close the temple first")
    if ctx:
        ctx.emit({"type": "SupplyTurnEnded", "seat": seat})


def cmd_export_supply(st, seat, cmd, ctx):
    k = req_int(cmd, "unit")
    src = req_str(cmd, "source", ("MARKET", "CUBE", "TOKEN"))
    r = req_str(cmd, "resource", D.RESOURCES)
    units = st.crisis["units"]
    if not 0 <= k < len(units) or units[k]["met"]:
        illegal("that requirement unit is not open")
    if units[k]["resource"] not in ("ANY", r):
        illegal(f"that unit needs {units[k]['resource']}")
    p = st.players[seat]
    ok = {"MARKET": st.exp[r] > 0, "CUBE": p["cubes"][r] > 0, "TOKEN": p["tokens"] > 0}[src]
    if not ok:
        illegal(f"no {r} available from {src}")
    if ctx:
        ctx.emit({"type": "CubeSupplied", "seat": seat, "resource": r, "source": src, "unit": k})


# ---------------------------------------------------------------------------------------------------- phase 6
def occupied_slots(st):
    return [i for i, m in enumerate(st.market) if m is not None]


def cmd_evo_buy(st, seat, cmd, ctx):
    slot = req_int(cmd, "slot")
    rot = cmd.get("rotate")
    if rot is not None and (not isinstance(rot, int) or isinstance(rot, bool)):
        invalid("rotate must be a slot number or null")
    occ = occupied_slots(st)
    if slot not in occ:
        illegal("that slot is empty")
    from domain.archipelago.state import card_price

    price = card_price(st, slot)
    if st.players[seat]["money"] < price:
        illegal(f"the card costs {price} florins")
    others = [s for s in occ if s != slot]
    if (rot is None and others) or (rot is not None and rot not in others):
        illegal(f"rotate must be another occupied slot: {others}" if others else "rotate must be null")
    if ctx:
        ctx.emit({"type": "EvolutionBought", "seat": seat, "slot": slot, "card": st.market[slot][0], "price": price})
        if rot is not None:
            ctx.emit({"type": "EvolutionRotated", "seat": seat, "slots": [rot]})
        if len(ctx.st.players[seat]["track"]) > D.EVO_TRACK_SIZE:
            ctx.emit({"type": "DiscardRequired", "seat": seat})


def cmd_evo_rotate(st, seat, cmd, ctx):
    slots = opt_list(cmd, "slots")
    if any(not isinstance(s, int) or isinstance(s, bool) for s in slots):
        invalid("slots must be slot numbers")
    occ = occupied_slots(st)
    want = 2 if len(occ) >= 2 else 1
    if len(slots) != want or len(set(slots)) != want or any(s not in occ for s in slots):
        illegal(f"rotate {want} different occupied slot(s)")
    if ctx:
        ctx.emit({"type": "EvolutionRotated", "seat": seat, "slots": list(slots)})


def cmd_discard_card(st, seat, cmd, ctx):
    c = req_str(cmd, "card")
    if c not in st.players[seat]["track"]:
        illegal("discard one of your own cards")
    if ctx:
        ctx.emit({"type": "CardDiscarded", "seat": seat, "card": c})


# ---------------------------------------------------------------------------------------------------- trading
def cmd_offer_open(st, seat, cmd, ctx):
    to = req_int(cmd, "to")
    if not 0 <= to < st.n or to == seat:
        illegal("offer to another seat")
    if st.turn["offers"] >= D.OFFER_LIMIT:
        illegal(f"at most {D.OFFER_LIMIT} offers per turn")
    if ctx:
        ctx.emit({"type": "OfferOpened", "seat": seat, "to": to})


ITEM_KINDS = ("MONEY_1", "MONEY_5", "CUBE", "TOKEN", "CARD", "GRANT")


def parse_item(cmd) -> dict:
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


def _side_total(items, kind, key=None, value=None):
    return sum(1 for i in items if i["kind"] == kind and (key is None or i.get(key) == value))


def money_of(items):
    return sum(1 if i["kind"] == "MONEY_1" else 5 for i in items if i["kind"] in ("MONEY_1", "MONEY_5"))


def others_public_cubes(st, seat, r):
    return D.CUBE_TOTALS[r] - st.bank[r] - st.dom[r] - st.exp[r] - st.players[seat]["cubes"][r]


def cmd_offer_add(st, seat, cmd, ctx):
    side = req_str(cmd, "side", ("GIVE", "GET"))
    item = parse_item(cmd)
    off = st.offer
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
        if k == "CUBE" and _side_total(new, "CUBE", "resource", item["resource"]) > p["cubes"][item["resource"]]:
            illegal("you do not hold that many cubes")
        if k == "TOKEN" and _side_total(new, "TOKEN") > p["tokens"]:
            illegal("you do not hold that many tokens")
        if k == "CARD" and (item["card"] not in p["track"] or _side_total(new, "CARD", "card", item["card"]) > 1):
            illegal("you can give each of your own cards once")
    else:
        to = off["to"]
        if k == "CUBE" and _side_total(new, "CUBE", "resource", item["resource"]) > others_public_cubes(
            st, seat, item["resource"]
        ):
            illegal("other players do not hold that many cubes")
        if k == "TOKEN":
            held = 24 - sum(st.stacks) - st.tokens_spent - st.players[seat]["tokens"]
            if _side_total(new, "TOKEN") > held:
                illegal("other players do not hold that many tokens")
        if k == "CARD" and (card_owner(st, item["card"]) != to or _side_total(new, "CARD", "card", item["card"]) > 1):
            illegal("ask each of the recipient's cards once")
        if k == "GRANT":
            target = item.get("tile") or item.get("building", "").split(":")[0]
            if target not in st.tiles or tile_controller(st, target) != to:
                illegal("a grant must concern a tile the recipient controls")
            if item in off["get"]:
                illegal("that grant is already asked for")
    if ctx:
        ctx.emit({"type": "OfferItemAdded", "seat": seat, "side": side, "item": item})


def cmd_offer_send(st, seat, cmd, ctx):
    if not st.offer["give"] and not st.offer["get"]:
        illegal("add at least one item")
    if ctx:
        ctx.emit(
            {"type": "OfferSent", "seat": seat, "to": st.offer["to"], "give": st.offer["give"], "get": st.offer["get"]}
        )


def cmd_offer_cancel(st, seat, cmd, ctx):
    if ctx:
        ctx.emit({"type": "OfferClosed", "seat": seat, "accepted": False, "cancelled": True})


def cmd_offer_accept(st, seat, cmd, ctx):
    off = st.offer
    p = st.players[seat]
    get = off["get"]
    if money_of(get) > p["money"]:
        illegal("you do not hold that much money")
    for r in D.RESOURCES:
        if _side_total(get, "CUBE", "resource", r) > p["cubes"][r]:
            illegal(f"you do not hold enough {r}")
    if _side_total(get, "TOKEN") > p["tokens"]:
        illegal("you do not hold enough tokens")
    for i in get:
        if i["kind"] == "CARD" and i["card"] not in p["track"]:
            illegal("you no longer hold that card")
        if i["kind"] == "GRANT":
            target = i.get("tile") or i["building"].split(":")[0]
            if tile_controller(st, target) != seat:
                illegal("you no longer control that tile")
    active = st.turn["seat"]
    ga, gb = _side_total(off["give"], "CARD"), _side_total(get, "CARD")
    if len(st.players[active]["track"]) - ga + gb > D.EVO_TRACK_SIZE or len(p["track"]) - gb + ga > D.EVO_TRACK_SIZE:
        illegal("nobody may own more than 5 evolution cards after a trade")
    if ctx:
        ctx.emit({"type": "OfferAccepted", "seat": active, "to": seat, "give": off["give"], "get": get})


def cmd_offer_decline(st, seat, cmd, ctx):
    if ctx:
        ctx.emit({"type": "OfferClosed", "seat": st.turn["seat"], "to": seat, "accepted": False, "cancelled": False})


# ---------------------------------------------------------------------------------------------------- end
def cmd_declare_end(st, seat, cmd, ctx):
    oid = req_str(cmd, "objective")
    if oid not in declarable(st, seat):
        illegal("that objective is not yours or its end condition does not hold")
    if ctx:
        end_game(ctx, "DECLARED", seat, oid)
