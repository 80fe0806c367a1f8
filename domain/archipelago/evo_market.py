"""Commands of Phase 6, the evolution market (§5.6): buying, rotating, discarding a card.

Section (§) and ruling (D, Q) numbers are those of docs/rules/archipelago.md.
"""

from __future__ import annotations

from domain.archipelago import data as D
from domain.archipelago.checks import illegal, invalid, opt_list, req_int, req_str
from domain.archipelago.flow import Ctx
from domain.archipelago.state import ArchState, offered_card


def occupied_slots(st: ArchState) -> list[int]:
    return [i for i, m in enumerate(st.market) if m is not None]


def cmd_evo_buy(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
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
    ctx.emit({"type": "EvolutionBought", "seat": seat, "slot": slot, "card": offered_card(st, slot)[0], "price": price})
    if rot is not None:
        ctx.emit({"type": "EvolutionRotated", "seat": seat, "slots": [rot]})
    if len(ctx.state.players[seat]["track"]) > D.EVO_TRACK_SIZE:
        ctx.emit({"type": "DiscardRequired", "seat": seat})


def cmd_evo_rotate(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    slots = opt_list(cmd, "slots")
    if any(not isinstance(s, int) or isinstance(s, bool) for s in slots):
        invalid("slots must be slot numbers")
    occ = occupied_slots(st)
    want = 2 if len(occ) >= 2 else 1
    if len(slots) != want or len(set(slots)) != want or any(s not in occ for s in slots):
        illegal(f"rotate {want} different occupied slot(s)")
    ctx.emit({"type": "EvolutionRotated", "seat": seat, "slots": list(slots)})


def cmd_discard_card(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    c = req_str(cmd, "card")
    if c not in st.players[seat]["track"]:
        illegal("discard one of your own cards")
    ctx.emit({"type": "CardDiscarded", "seat": seat, "card": c})
