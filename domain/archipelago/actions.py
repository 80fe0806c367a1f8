"""Phase-5 turn commands (§7, §8, §9, §10): wheel actions, card uses, building abilities, end of turn.

Every handler has the signature ``(st, seat, cmd, ctx)``: it checks the whole of ``cmd`` against ``st`` (raising
``IllegalCommand``) before it emits its first event through ``ctx``, which applies it to ``st`` (``decide`` passes a
copy).

Section (§) and ruling (D, Q) numbers are those of docs/rules/archipelago.md.
"""

from __future__ import annotations

from typing import Any

from domain.archipelago import data as D
from domain.archipelago.checks import (
    birth_eligible,
    birth_possible,
    check_payment,
    harvest_targets,
    hire_tiles,
    illegal,
    invalid,
    market_ok,
    opt_list,
    parse_with,
    payment_event,
    req_resource,
    req_str,
    req_tile,
    req_tokens,
    req_unit,
)
from domain.archipelago.flow import Ctx, change_reb, change_sur, take_token
from domain.archipelago.state import (
    ArchState,
    available,
    both_faces,
    controlled_buildings,
    housed,
    owns,
    permitted,
    tile_controller,
    turn_of,
)


def _wheel(st: ArchState, seat: int) -> None:
    if turn_of(st)["action"]:
        illegal("you already took a wheel action this turn")
    if st.players[seat]["ad_avail"] < 1:
        illegal("you have no action disc left")


def _started(
    ctx: Ctx,
    seat: int,
    action: str,
    withs: list[str] | tuple[()] = (),
    fees: list[dict] | tuple[()] = (),
    step: dict | None = None,
    **extra: Any,
) -> None:
    ev = {"type": "ActionStarted", "seat": seat, "action": action, "with": list(withs), "fees": list(fees)}
    ev.update(extra)
    if step is not None:
        ev["step"] = step
    ctx.emit(ev)


def cmd_harvest(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    r = req_resource(cmd)
    withs, fees = parse_with(st, seat, cmd, "HARVEST")
    bonus = [c for c in withs if c in D.HARVEST_BONUS_CARDS]
    if len(bonus) > 1:
        illegal("at most one of IRRIGATION, FISHING NETS, MINING, SAWMILL")
    if bonus and r not in D.HARVEST_BONUS_CARDS[bonus[0]]:
        illegal(f"{D.CARDS[bonus[0]].name} does not apply to {r}")
    _wheel(st, seat)
    if not harvest_targets(st, seat, r):
        illegal(f"none of your units can harvest {r}")
    _started(
        ctx,
        seat,
        "HARVEST",
        withs,
        fees,
        resource=r,
        step={"kind": "harvest", "resource": r, "with": withs, "assigned": []},
    )


def cmd_recruit(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    withs, fees = parse_with(st, seat, cmd, "RECRUIT")
    _wheel(st, seat)
    p = st.players[seat]
    price = D.recruit_price(st.sur)
    if price is None or p["sup_c"] < 1 or not hire_tiles(st, seat):
        illegal("no hire is possible")
    if "C09" in withs:
        price = max(0, price - D.OVERSEER_DISCOUNT)
    if p["money"] < price + len(fees):
        illegal("you cannot pay for a hire")
    _started(ctx, seat, "RECRUIT", withs, fees, step={"kind": "recruit", "with": withs, "hires": 0})


def birth_step(st: ArchState, seat: int, source: str) -> dict[str, Any]:
    el = [t for t in birth_eligible(st, seat) if birth_possible(st, seat, t)]
    return {"kind": "birth", "source": source, "eligible": el, "done": []}


def cmd_reproduce(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    _wheel(st, seat)
    if st.players[seat]["reproduced"]:
        illegal("you already reproduced this round")
    step = birth_step(st, seat, "wheel")
    if not step["eligible"]:
        illegal("no birth is possible")
    _started(ctx, seat, "REPRODUCE", step=step)


def tax_income(st: ArchState, seat: int, collector: bool) -> int:
    standing = sum(1 for u in st.units.values() if u["owner"] == seat and u["kind"] == "C" and not u["lying"])
    ships = sum(1 for u in st.units.values() if u["owner"] == seat and u["kind"] == "S")
    towns = len(controlled_buildings(st, seat, "TOWN"))
    temples = len(controlled_buildings(st, seat, "TEMPLE"))
    return (
        D.TAX_PER_CITIZEN * standing
        + D.TAX_PER_SHIP * ships
        + D.TAX_PER_TOWN * towns
        + D.TAX_PER_TEMPLE * temples
        + (D.TAX_COLLECTOR_BONUS if collector else 0)
    )


def cmd_tax(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    withs, fees = parse_with(st, seat, cmd, "TAX")
    _wheel(st, seat)
    if st.tax_used >= D.TAX_SLOTS[st.n]:
        illegal("no tax slot is left this round")
    p = st.players[seat]
    income = tax_income(st, seat, "C07" in withs)
    cancel = (owns(st, seat, "P12") and p["taxed"] == 0) or (
        owns(st, seat, "C20") and controlled_buildings(st, seat, "TOWN")
    )
    _started(ctx, seat, "TAX", withs, fees)
    if income:
        ctx.emit({"type": "MoneyChanged", "seat": seat, "delta": income, "reason": "tax"})
    if not cancel:
        change_reb(ctx, 1, "tax")


def cmd_trade(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    market = req_str(cmd, "market", ("DOM", "EXP"))
    op = req_str(cmd, "op", ("BUY", "SELL"))
    r = req_resource(cmd)
    _wheel(st, seat)
    price = market_ok(st, seat, market, op, r)
    _started(ctx, seat, "TRADE")
    ctx.emit({"type": "MarketTraded", "seat": seat, "market": market, "op": op, "resource": r, "price": price})


def explore_open(st: ArchState, seat: int, cmd: dict, withs_key: str = "with") -> tuple[str, list[str]]:
    pick = req_str(cmd, "pick", ("TOP", "SECOND"))
    cards = opt_list(cmd, withs_key)
    for c in cards:
        if c != "C12":
            illegal("only CARTOGRAPHER may be used with an exploration")
    if len(cards) > 1:
        illegal("CARTOGRAPHER named twice")
    if cards and (not owns(st, seat, "C12") or "C12" in st.card_used):
        illegal("you cannot use CARTOGRAPHER now")
    need = 2 if pick == "SECOND" and not cards else 1
    if len(st.stack) < need:
        illegal("the exploration stack is too small")
    return pick, cards


def explore_events(ctx: Ctx, seat: int, pick: str, cards: list[str]) -> None:
    st = ctx.state
    if cards:
        k = min(D.CARTOGRAPHER_LOOK, len(st.stack))
        ctx.emit(
            {
                "type": "CartographerLooked",
                "seat": seat,
                "count": k,
                "tiles": [{"tile": t, "up": u, "faces": both_faces(t)} for t, u in st.stack[:k]],
            }
        )
    else:
        idx = 0 if pick == "TOP" else 1
        tid = st.stack[idx][0]
        ctx.emit({"type": "TileDrawn", "seat": seat, "index": idx, "tile": tid, "faces": both_faces(tid)})


def cmd_explore(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    slot = req_str(cmd, "slot", ("PERSONAL", "SHARED"))
    pick, cards = explore_open(st, seat, cmd)
    _wheel(st, seat)
    if slot == "PERSONAL" and st.players[seat]["personal_explore_used"]:
        illegal("your personal explore slot is used")
    if slot == "SHARED" and st.shared_explores >= D.EXPLORE_SHARED_SLOTS[st.n]:
        illegal("no shared explore slot is left")
    _started(
        ctx,
        seat,
        "EXPLORE",
        cards,
        [],
        slot=slot,
        step={"kind": "explore", "phase": "draw", "with": cards, "tile": None},
    )
    explore_events(ctx, seat, pick, cards)


MIGRATE_STEP = {
    "kind": "migrate",
    "moved": [],
    "walk": {},
    "convoy": {},
    "sea": {},
    "ship_moves": 0,
    "entered": [],
    "left_b": [],
}


def cmd_migrate(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    _wheel(st, seat)
    _started(ctx, seat, "MIGRATE", step=MIGRATE_STEP)


def build_cost_cubes(st: ArchState, seat: int, btype: str, waive: str | None) -> tuple[dict[str, int], int]:
    """The cubes and florins a building costs, ``waive`` (ARCHITECT) taking one cube off."""
    cubes, money = D.BUILD_COSTS[btype]
    cubes = dict(cubes)
    if waive is not None:
        cubes[waive] -= 1
        if not cubes[waive]:
            del cubes[waive]
    if btype == "SHIP" and owns(st, seat, "P10"):
        money = 0
    return cubes, money


def build_cost(btype: str, withs: list[str], waive: str | None, seat: int, st: ArchState) -> tuple[dict[str, int], int]:
    cubes = D.BUILD_COSTS[btype][0]
    if "C14" in withs:
        if btype == "SHIP":
            illegal("ARCHITECT does not apply to ships")
        if waive not in cubes:
            illegal(f"waive must name a cube of the cost: {sorted(cubes)}")
    elif waive is not None:
        illegal("waive needs ARCHITECT")
    return build_cost_cubes(st, seat, btype, waive)


def standing_citizens(st: ArchState, seat: int) -> int:
    return sum(1 for u in st.units.values() if u["owner"] == seat and u["kind"] == "C" and not u["lying"])


def cmd_build(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    btype = req_str(cmd, "building", ("SHIP", "TOWN", "TEMPLE", "MARKET", "PORT"))
    tid = req_tile(st, cmd)
    builder = req_unit(st, cmd, "builder", seat)
    tokens = req_tokens(cmd)
    withs, fees = parse_with(st, seat, cmd, "BUILD")
    waive = cmd.get("waive")
    if waive is not None and waive not in D.RESOURCES:
        invalid("waive must be a resource or null")
    _wheel(st, seat)
    u = st.units[builder]
    t = st.tiles[tid]
    if u["tile"] != tid:
        illegal("the builder must be on that tile")
    if not available(u):
        illegal("the builder is not available")
    if btype == "SHIP":
        if u["kind"] != "C":
            illegal("a ship is built by a citizen")
        if not t["sea"]:
            illegal("a ship needs a tile with sea")
        if st.players[seat]["sup_s"] < 1:
            illegal("no ship left in your supply")
    else:
        if housed(u):
            illegal("a housed unit cannot build (it must move into the new building)")
        if u["kind"] == "S" and btype != "PORT":
            illegal("only a port may be built by a ship")
        if not t["land"] or (btype == "PORT" and not t["sea"]):
            illegal(f"a {btype} cannot be built on this tile")
        if btype in st.buildings.get(tid, {}):
            illegal(f"this tile already has a {btype}")
        if st.pool[D.BUILDING_POOL_OF[btype]] < 1:
            illegal("no building token left")
    if not permitted(st, seat, "BUILD_ON", tid):
        illegal("this tile is controlled by another player: you need their permission")
    cubes, money = build_cost(btype, withs, waive, seat, st)
    check_payment(st, seat, cubes, tokens, money + len(fees))
    _started(ctx, seat, "BUILD", withs, fees, building=btype)
    ctx.emit(payment_event(seat, cubes, tokens, money, "build"))
    if btype == "SHIP":
        from domain.archipelago.flow import add_ship

        add_ship(ctx, seat, tid, "build")
    else:
        temp = tile_controller(st, tid) == seat and btype != "TOWN"
        ctx.emit(
            {
                "type": "BuildingBuilt",
                "seat": seat,
                "tile": tid,
                "building": btype,
                "builder": builder,
                "temp": temp,
            }
        )


def cmd_use_building(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    bid = req_str(cmd, "building")
    if ":" not in bid:
        invalid("building ids look like '<tile>:<TYPE>'")
    tid, btype = bid.split(":", 1)
    if btype not in ("MARKET", "PORT") or btype not in st.buildings.get(tid, {}):
        illegal(f"no usable market or port {bid}")
    if turn_of(st)["building"]:
        illegal("you already used a market or port this turn")
    p = st.players[seat]
    if p["market_used" if btype == "MARKET" else "port_used"]:
        illegal(f"you already used a {btype} ability this round")
    from domain.archipelago.state import anchor, anchor_ready, building_controller

    if building_controller(st, tid, btype) != seat:
        illegal("you do not control that building")
    if not anchor_ready(st, tid, btype):
        illegal("the building's anchor must be standing")
    fee = D.MARKET_USE_FEE if btype == "MARKET" else D.PORT_USE_FEE
    if p["money"] < fee:
        illegal(f"the fee is {fee} florin")
    extra = "P08" if btype == "MARKET" else "P09"
    trades = 3 if owns(st, seat, extra) else 2
    ctx.emit(
        {
            "type": "BuildingAbilityUsed",
            "seat": seat,
            "tile": tid,
            "building": btype,
            "anchor": anchor(st, tid, btype),
            "fee": fee,
            "trades": trades,
        }
    )


def cmd_end_turn(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    if not turn_of(st)["acted"]:
        illegal("end_turn needs an action, card use or building ability this turn; send pass instead")
    ctx.emit({"type": "TurnEnded", "seat": seat, "passed": False})


def cmd_pass(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    ctx.emit({"type": "TurnEnded", "seat": seat, "passed": True})


# ---------------------------------------------------------------------------------------------------- wonders
def cmd_build_wonder(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    cid = req_str(cmd, "card")
    if cid not in D.CARDS or D.CARDS[cid].use != "WONDER":
        illegal("card must be a wonder")
    if not owns(st, seat, cid):
        illegal("you do not own that wonder")
    if st.players[seat]["ad_avail"] < 1:
        illegal("you have no action disc left")
    citizen = req_unit(st, cmd, "citizen", seat, "C")
    if not available(st.units[citizen]):
        illegal("the sacrificed citizen must be available")
    tokens = req_tokens(cmd)
    cost = D.CARDS[cid].wonder_cost
    assert cost is not None, "every wonder has a cost"
    cubes, money = cost
    check_payment(st, seat, cubes, tokens, money)
    ctx.emit(
        {
            "type": "CardUsed",
            "seat": seat,
            "card": cid,
            "name": D.CARDS[cid].name,
            "owner": seat,
            "fee": 0,
            "ad": True,
            "step": None,
        }
    )
    ctx.emit(payment_event(seat, cubes, tokens, money, "wonder"))
    ctx.checked({"type": "CitizenSacrificed", "seat": seat, "unit": citizen, "card": cid})
    eff = D.CARDS[cid].wonder_effect
    if eff == "CATHEDRAL":
        change_reb(ctx, -D.CATHEDRAL_REB, "cathedral")
    elif eff == "LIGHTHOUSE":
        take_token(ctx, seat)
    elif eff == "ROYAL_PALACE":
        change_sur(ctx, -D.ROYAL_PALACE_SUR, "royal_palace")
    elif eff == "GRAND_BAZAAR":
        ctx.emit({"type": "MoneyChanged", "seat": seat, "delta": D.GRAND_BAZAAR_MONEY, "reason": "grand_bazaar"})
