"""Commands inside an open Phase-5 step (§8.1–§8.8, §9, §10.4): same ``(st, seat, cmd, ctx)`` shape.

Section (§) and ruling (D, Q) numbers are those of docs/rules/archipelago.md.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.archipelago import data as D
from domain.archipelago.checks import (
    engineer,
    harvest_targets,
    hire_tiles,
    illegal,
    invalid,
    market_ok,
    opt_list,
    reachable_by_convoy,
    req_int,
    req_pos,
    req_resource,
    req_str,
    req_tile,
    req_unit,
)
from domain.archipelago.flow import (
    Ctx,
    add_citizen,
    change_sur,
    emit_icon,
    icon_choices,
    icon_progress,
    placement_ok,
    take_token,
)
from domain.archipelago.state import (
    ArchState,
    Unit,
    available,
    both_faces,
    can_add_citizen,
    citizens_on,
    face_of,
    housed,
    link,
    linked,
    neighbor,
    owns,
    permitted,
    rotate_edges,
    step_of,
    t0_of,
)


# ---------------------------------------------------------------------------------------------------- harvest
def cmd_harvest_assign(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    uid = req_unit(st, cmd, "unit", seat)
    icon = req_int(cmd, "icon")
    if (uid, icon) not in harvest_targets(st, seat, step_of(st)["resource"]):
        illegal("that unit cannot harvest that icon (own tile, matching free icon, available, not housed)")
    ctx.emit({"type": "UnitAssigned", "seat": seat, "unit": uid, "icon": icon})


def cmd_harvest_done(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    step = step_of(st)
    if not step["assigned"]:
        illegal("assign at least one unit first")
    r = step["resource"]
    k = len(step["assigned"])
    if "C05" in step["with"] and k >= 2:
        k += 1
    if any(c in D.HARVEST_BONUS_CARDS for c in step["with"]):
        k += 1
    k = min(k, st.bank[r])
    if k:
        ctx.emit({"type": "CubesGained", "seat": seat, "resource": r, "count": k, "reason": "harvest"})
    ctx.emit({"type": "StepClosed", "seat": seat})


# ---------------------------------------------------------------------------------------------------- recruit
def hire_price(st: ArchState, seat: int) -> int | None:
    price = D.recruit_price(st.sur)
    if price is None:
        return None
    if "C09" in step_of(st)["with"] and step_of(st)["hires"] == 0:
        price = max(0, price - D.OVERSEER_DISCOUNT)
    return price


def cmd_hire(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    tid = req_tile(st, cmd)
    price = hire_price(st, seat)
    if price is None:
        illegal("there are no surplus workers")
    if st.players[seat]["sup_c"] < 1:
        illegal("no citizen left in your supply")
    if tid not in hire_tiles(st, seat):
        illegal("you need a citizen (standing or lying) or a ship on that land tile, within the per-tile limit")
    if st.players[seat]["money"] < price:
        illegal(f"a hire costs {price} florins")
    if price:
        ctx.emit({"type": "MoneyChanged", "seat": seat, "delta": -price, "reason": "recruit"})
    change_sur(ctx, -1, "recruit")
    add_citizen(ctx, seat, tid, "recruit")
    ctx.emit({"type": "StepUpdated", "changes": {"hires": step_of(st)["hires"] + 1}})


def cmd_recruit_done(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    if step_of(st)["hires"] < 1:
        illegal("hire at least one citizen first")
    ctx.emit({"type": "StepClosed", "seat": seat})


# ---------------------------------------------------------------------------------------------------- births
def cmd_birth(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    tid = req_tile(st, cmd)
    step = step_of(st)
    if tid not in step["eligible"] or tid in step["done"]:
        illegal("no birth possible on that tile (2 standing citizens at the start, one birth per tile)")
    if st.players[seat]["sup_c"] < 1 or not can_add_citizen(st, seat, tid):
        illegal("no citizen in supply or the tile is full")
    add_citizen(ctx, seat, tid, "birth")
    ctx.emit({"type": "StepUpdated", "changes": {"done": step["done"] + [tid]}})


def cmd_reproduce_done(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    if not step_of(st)["done"]:
        illegal("make at least one birth first")
    ctx.emit({"type": "StepClosed", "seat": seat})


# ---------------------------------------------------------------------------------------------------- explore
def cmd_cartographer_pick(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    if step_of(st)["phase"] != "cartographer":
        illegal("no CARTOGRAPHER choice is open")
    idx = req_int(cmd, "index")
    if not 0 <= idx < step_of(st)["look"]:
        illegal("index out of range")
    tid = st.stack[idx][0]
    ctx.emit({"type": "TileDrawn", "seat": seat, "index": idx, "tile": tid, "faces": both_faces(tid)})


def crossing_kind(edge: str, engineer_owned: bool) -> str | None:
    """Rule 3 of §8.6: the kind of unit that may move onto a new tile across a matching ``edge`` ("C": citizens across
    a plain, or a mountain with the ENGINEER; "S": ships across sea), or None."""
    if edge == "P" or (edge == "M" and engineer_owned):
        return "C"
    return "S" if edge == "S" else None


def explore_movers(st: ArchState, seat: int, pos: tuple[int, int], edges: str) -> list[str]:
    """Units that could move onto a tile with ``edges`` placed at ``pos`` (rule 3 of §8.6)."""
    out = []
    eng = engineer(st, seat)
    for i in range(6):
        other = st.posmap.get(neighbor(pos, i))
        if other is None:
            continue
        e = edges[i]
        if e != st.tiles[other]["edges"][(i + 3) % 6]:
            continue
        kind = crossing_kind(e, eng)
        for uid, u in st.units.items():
            if u["owner"] == seat and u["tile"] == other and available(u) and u["kind"] == kind:
                out.append(uid)
    return out


def explore_positions(st: ArchState) -> list[tuple[int, int]]:
    """The open positions next to at least two placed tiles, sorted (each open position is counted once for every
    placed tile it touches)."""
    posmap = st.posmap
    touching: dict[tuple[int, int], int] = {}
    for q, r in posmap:
        for dq, dr in D.DIRECTIONS:
            p = (q + dq, r + dr)
            if p not in posmap:
                touching[p] = touching.get(p, 0) + 1
    return sorted(p for p, k in touching.items() if k >= 2)


def cmd_place_tile(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    step = step_of(st)
    if step["phase"] != "place":
        illegal("no drawn tile waits for placement")
    pos = req_pos(cmd)
    face = req_str(cmd, "face", ("A", "B"))
    rot = req_int(cmd, "rot")
    if not 0 <= rot <= 5:
        invalid("rot must be 0..5")
    mover = req_unit(st, cmd, "mover", seat)
    if pos in st.posmap:
        illegal("that position is taken")
    if sum(1 for i in range(6) if neighbor(pos, i) in st.posmap) < 2:
        illegal("a tile must touch at least two placed tiles")
    tid = step["tile"]
    edges = rotate_edges(face_of(tid, face).edges, rot)
    if not placement_ok(st, pos, edges):
        illegal("the edges do not match the neighbouring tiles")
    if mover not in explore_movers(st, seat, pos, edges):
        illegal("the mover must be an available unit next to it across a matching link")
    ctx.emit(
        {
            "type": "TilePlaced",
            "seat": seat,
            "tile": tid,
            "pos": {"q": pos[0], "r": pos[1]},
            "face": face,
            "rot": rot,
            "mover": mover,
        }
    )
    take_token(ctx, seat)
    change_sur(ctx, ctx.state.tiles[tid]["huts"], "huts")
    finish_icons(ctx, seat)


def finish_icons(ctx: Ctx, seat: int) -> None:
    if icon_progress(ctx, seat, step_of(ctx.state), step_of(ctx.state)["tile"]):
        ctx.emit({"type": "StepClosed", "seat": seat, "explore": True})


def cmd_discard_tile(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    if step_of(st)["phase"] != "place":
        illegal("no drawn tile waits for placement")
    ctx.emit({"type": "TileDiscarded", "seat": seat, "tile": step_of(st)["tile"]})


def _icon_cmd(which: str) -> Callable[[ArchState, int, dict, Ctx], None]:
    def handler(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
        if st.phase == "TURN0":
            holder, tid = t0_of(st), t0_of(st)["tile"]
            if t0_of(st)["sub"] != "icons":
                illegal("no icon choice is open")
        else:
            holder, tid = step_of(st), step_of(st).get("tile")
            if step_of(st).get("phase") != "icons":
                illegal("no icon choice is open")
        icon = req_int(cmd, "icon")
        pending, cands = icon_choices(st, holder, tid)
        if pending != which:
            illegal(f"the pending choice is {pending}")
        if icon not in cands:
            illegal(f"icon must be one of {cands}")
        emit_icon(ctx, seat, tid, which, icon)
        if ctx.state.phase != "TURN0":
            finish_icons(ctx, seat)

    return handler


cmd_choose_market_icon = _icon_cmd("market")
cmd_choose_own_icon = _icon_cmd("own")


# ---------------------------------------------------------------------------------------------------- migrate
def _mover(st: ArchState, seat: int, cmd: dict, key: str, kind: str | None = None) -> tuple[str, Unit]:
    uid = req_unit(st, cmd, key, seat, kind)
    u = st.units[uid]
    if not available(u):
        illegal(f"{uid} is not available (standing and unused)")
    if uid in step_of(st)["entered"]:
        illegal(f"{uid} entered a building in this migration")
    return uid, u


def cmd_move_ship(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    ship, u = _mover(st, seat, cmd, "ship", "S")
    to = req_tile(st, cmd, "to")
    passengers = opt_list(cmd, "passengers")
    step = step_of(st)
    allowance = 2 if owns(st, seat, "P15") else 1
    if step["sea"].get(ship, 0) >= allowance:
        illegal("the ship has no sea step left")
    if to not in linked(st, u["tile"], "S"):
        illegal("a ship sails only across a sea link")
    if len(set(map(str, passengers))) != len(passengers):
        illegal("passengers listed twice")
    for c in passengers:
        if not isinstance(c, str):
            invalid("passengers must be citizen ids")
        cid, cu = _mover(st, seat, {"c": c}, "c", "C")
        if cu["tile"] != u["tile"]:
            illegal(f"{cid} is not on the ship's tile")
    if passengers:
        if not st.tiles[to]["land"]:
            illegal("passengers need land at the destination")
        if not can_add_citizen(st, seat, to, len(passengers)):
            illegal("the per-tile citizen limit would be exceeded")
    ctx.emit({"type": "UnitMoved", "seat": seat, "unit": ship, "to": to, "via": "sea"})
    for c in passengers:
        ctx.emit({"type": "UnitMoved", "seat": seat, "unit": c, "to": to, "via": "carried"})


def cmd_convoy(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    cid, u = _mover(st, seat, cmd, "citizen", "C")
    to = req_tile(st, cmd, "to")
    if step_of(st)["convoy"].get(cid, 0) >= 1 + step_of(st)["ship_moves"]:
        illegal("no convoy left for this citizen (1 + ship moves made)")
    if to not in reachable_by_convoy(st, seat, u["tile"]):
        illegal("no bridge of your ships leads there")
    if not can_add_citizen(st, seat, to):
        illegal("the per-tile citizen limit would be exceeded")
    ctx.emit({"type": "UnitMoved", "seat": seat, "unit": cid, "to": to, "via": "convoy"})


def cmd_walk(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    cid, u = _mover(st, seat, cmd, "citizen", "C")
    to = req_tile(st, cmd, "to")
    allowance = 2 if owns(st, seat, "P11") else 1
    if step_of(st)["walk"].get(cid, 0) >= allowance:
        illegal("no walk left for this citizen")
    if to not in linked(st, u["tile"], "P", engineer(st, seat)) or not st.tiles[to]["land"]:
        illegal("citizens walk only across a plain link")
    if not can_add_citizen(st, seat, to):
        illegal("the per-tile citizen limit would be exceeded")
    ctx.emit({"type": "UnitMoved", "seat": seat, "unit": cid, "to": to, "via": "walk"})


def cmd_enter_building(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    uid, u = _mover(st, seat, cmd, "unit")
    bid = req_str(cmd, "building")
    if ":" not in bid:
        invalid("building ids look like '<tile>:<TYPE>'")
    tid, btype = bid.split(":", 1)
    if btype not in st.buildings.get(tid, {}):
        illegal(f"no building {bid}")
    if st.buildings[tid][btype] is not None:
        illegal("that building is occupied")
    if u["kind"] == "S" and btype != "PORT":
        illegal("a ship may only enter a port")
    if uid in step_of(st)["moved"]:
        illegal("a unit that moved in this migration cannot enter a building")
    if tid != u["tile"]:
        kind = "S" if u["kind"] == "S" else "P"
        if tid not in linked(st, u["tile"], kind, u["kind"] == "C" and engineer(st, seat)):
            illegal("the building must be on the unit's tile or one step away across a link it can use")
        if u["kind"] == "C" and not can_add_citizen(st, seat, tid):
            illegal("the per-tile citizen limit would be exceeded")
    if not permitted(st, seat, "ENTER", tid, bid):
        illegal("that tile is controlled by another player: you need their permission")
    ctx.emit({"type": "UnitHoused", "seat": seat, "unit": uid, "tile": tid, "building": btype})


def cmd_leave_building(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    uid, u = _mover(st, seat, cmd, "unit")
    if not housed(u):
        illegal("the unit is not in a building")
    if uid in step_of(st)["left_b"]:
        illegal("the unit already left a building in this migration")
    ctx.emit({"type": "UnitLeftBuilding", "seat": seat, "unit": uid})


def cmd_migrate_done(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    ctx.emit({"type": "StepClosed", "seat": seat})


# ---------------------------------------------------------------------------------------------------- ability
def cmd_ability_trade(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    op = req_str(cmd, "op", ("BUY", "SELL"))
    r = req_resource(cmd)
    if step_of(st)["left"] < 1:
        illegal("no transaction left")
    price = market_ok(st, seat, step_of(st)["market"], op, r)
    ctx.emit(
        {
            "type": "MarketTraded",
            "seat": seat,
            "market": step_of(st)["market"],
            "op": op,
            "resource": r,
            "price": price,
            "step": True,
        }
    )


def cmd_ability_done(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    ctx.emit({"type": "StepClosed", "seat": seat})


# ---------------------------------------------------------------------------------------------------- research
def cmd_research_pick(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    pick = cmd.get("card", "missing")
    if pick == "missing":
        invalid("research_pick needs a 'card' field (a revealed card id or null)")
    price = 0
    if pick is not None:
        if not isinstance(pick, str):
            invalid("card must be a card id or null")
        if pick not in step_of(st)["revealed"]:
            illegal("that card was not revealed")
        kind = "PROGRESS" if step_of(st)["card"] == "C01" else "CHARACTER"
        if D.CARDS[pick].kind != kind:
            illegal(f"you may only buy a {kind} card")
        price = D.CARDS[pick].prices[2]
        if st.players[seat]["money"] < price:
            illegal(f"the card costs {price} florins")
    ctx.emit({"type": "ResearchPicked", "seat": seat, "pick": pick, "price": price})
    if len(ctx.state.players[seat]["track"]) > D.EVO_TRACK_SIZE:
        ctx.emit({"type": "DiscardRequired", "seat": seat})


# ---------------------------------------------------------------------------------------------------- diplomat
def cmd_diplomat_stand(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    uid = req_unit(st, cmd, "citizen", None, "C")
    if step_of(st)["left"] < 1:
        illegal("DIPLOMAT stands up at most 2 citizens")
    if not st.units[uid]["lying"]:
        illegal("that citizen is not lying")
    ctx.emit({"type": "CitizenStood", "seat": seat, "unit": uid, "mode": "diplomat"})


def cmd_card_done(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    ctx.emit({"type": "StepClosed", "seat": seat})


_ = (link, citizens_on)
