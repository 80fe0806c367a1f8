"""Commands of the turn-order auction (§5.2): sealed bids and the winner's order picks.

Section (§) and ruling (D, Q) numbers are those of docs/rules/archipelago.md.
"""

from __future__ import annotations

from domain.archipelago.checks import illegal, req_int
from domain.archipelago.flow import Ctx
from domain.archipelago.state import ArchState


def cmd_bid(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    amount = req_int(cmd, "amount")
    if seat in st.bids:
        illegal("you already bid")
    if not 0 <= amount <= st.players[seat]["money"]:
        illegal("bid between 0 and your money")
    ctx.emit({"type": "BidCommitted", "seat": seat, "amount": amount, "attempt": st.bid_attempt})


def cmd_order_pick(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    s = req_int(cmd, "seat")
    if not 0 <= s < st.n or s in st.picked:
        illegal("pick a seat not yet placed in the order")
    ctx.emit({"type": "OrderPicked", "seat": seat, "picked": s})
