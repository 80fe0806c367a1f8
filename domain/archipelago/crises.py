"""Commands of a crisis (§6.2, §6.3): domestic supply, stand-ups, temples, export supply.

Section (§) and ruling (D, Q) numbers are those of docs/rules/archipelago.md.
"""

from __future__ import annotations

from domain.archipelago import data as D
from domain.archipelago.checks import illegal, req_int, req_str
from domain.archipelago.flow import Ctx
from domain.archipelago.state import (
    ArchState,
    anchor_ready,
    building_controller,
    crisis_of,
    lying_count,
    neighbors,
    owns,
)


def supply_sources(st: ArchState, seat: int) -> list[str]:
    r = crisis_of(st)["resource"]
    if st.dom[r] > 0:
        return ["MARKET"]
    p = st.players[seat]
    return [s for s, ok in (("CUBE", p["cubes"][r] > 0), ("TOKEN", p["tokens"] > 0)) if ok]


def cmd_supply(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    src = req_str(cmd, "source", ("MARKET", "CUBE", "TOKEN"))
    c = crisis_of(st)
    if c["pending"] or c["temple"] is not None:
        illegal("finish the pending stand-ups or close the temple first")
    lying = lying_count(st)
    if lying < 1:
        illegal("nobody is lying")
    if src not in supply_sources(st, seat):
        illegal("while the domestic row holds a cube it is the only source; otherwise use your cube or a token")
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
    c = crisis_of(st)
    if not c["pending"] and c["temple"] is None:
        return []
    lying = [u for u, x in st.units.items() if x["kind"] == "C" and x["lying"]]
    if c["pending"]:
        return [(u, "supply") for u in lying]
    adj = {t for _, t in neighbors(st, c["temple"])}
    out = []
    for u in lying:
        tile = st.units[u]["tile"]
        if tile == c["temple"]:
            out.append((u, "temple"))
        elif c["priest_left"] > 0 and tile in adj:
            out.append((u, "priest"))
    return out


def cmd_crisis_stand(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    uid = req_str(cmd, "citizen")
    modes = dict(stand_targets(st, seat))
    if uid not in modes:
        illegal("you cannot stand that citizen up now")
    ctx.emit({"type": "CitizenStood", "seat": seat, "unit": uid, "mode": modes[uid]})


def temple_options(st: ArchState, seat: int) -> list[str]:
    c = crisis_of(st)
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


def cmd_activate_temple(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    t = req_str(cmd, "temple")
    tid = t.split(":")[0]
    if tid not in temple_options(st, seat):
        illegal("you cannot activate that temple now")
    ctx.emit(
        {
            "type": "TempleActivated",
            "seat": seat,
            "tile": tid,
            "priest": D.PRIEST_STANDS if owns(st, seat, "C19") else 0,
        }
    )


def cmd_temple_done(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    if crisis_of(st)["temple"] is None:
        illegal("no temple is open")
    ctx.emit({"type": "TempleClosed", "seat": seat})


def cmd_supply_done(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    c = crisis_of(st)
    if c["part"] == "DOM" and (c["pending"] or c["temple"] is not None):
        illegal("finish the pending stand-ups or close the temple first")
    ctx.emit({"type": "SupplyTurnEnded", "seat": seat})


def cmd_export_supply(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    k = req_int(cmd, "unit")
    src = req_str(cmd, "source", ("MARKET", "CUBE", "TOKEN"))
    r = req_str(cmd, "resource", D.RESOURCES)
    units = crisis_of(st)["units"]
    if not 0 <= k < len(units) or units[k]["met"]:
        illegal("that requirement unit is not open")
    if units[k]["resource"] not in ("ANY", r):
        illegal(f"that unit needs {units[k]['resource']}")
    p = st.players[seat]
    ok = {"MARKET": st.exp[r] > 0, "CUBE": p["cubes"][r] > 0, "TOKEN": p["tokens"] > 0}[src]
    if not ok:
        illegal(f"no {r} available from {src}")
    ctx.emit({"type": "CubeSupplied", "seat": seat, "resource": r, "source": src, "unit": k})
