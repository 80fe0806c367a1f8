"""Commands of the opening: keeping objectives (MORE_FUN, §16) and placing turn-0 tiles (§4).

Section (§) and ruling (D, Q) numbers are those of docs/rules/archipelago.md.
"""

from __future__ import annotations

from domain.archipelago.checks import illegal, invalid, opt_list, req_int, req_pos, req_str
from domain.archipelago.flow import (
    Ctx,
    add_citizen,
    add_ship,
    change_sur,
    placement_ok,
    take_token,
    turn0_positions,
)
from domain.archipelago.state import (
    ArchState,
    face_of,
    rotate_edges,
    t0_of,
)


def cmd_keep_objectives(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    cards = opt_list(cmd, "cards")
    want = 2 if st.n == 2 else 1
    if len(cards) != want or len(set(map(str, cards))) != want:
        illegal(f"keep exactly {want} distinct objective(s)")
    if any(c not in st.dealt_objectives[seat] for c in cards):
        illegal("you may only keep objectives dealt to you")
    ctx.emit({"type": "ObjectivesKept", "seat": seat, "cards": sorted(cards)})


def cmd_place_start_tile(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    tid = req_str(cmd, "tile")
    pos = req_pos(cmd)
    face = req_str(cmd, "face", ("A", "B"))
    rot = req_int(cmd, "rot")
    if t0_of(st)["sub"] != "place":
        illegal("no tile placement is open")
    if not 0 <= rot <= 5:
        invalid("rot must be 0..5")
    if tid not in [x[0] for x in st.hands[seat]] or pos not in turn0_positions(st):
        illegal("place a tile from your hand on a free position next to the start tile")
    if not placement_ok(st, pos, rotate_edges(face_of(tid, face).edges, rot), t0_of(st)["relaxed"]):
        illegal("the edges do not match the neighbouring tiles")
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
    change_sur(ctx, ctx.state.tiles[tid]["huts"], "huts")
