"""Declaring the end of the game (§12.2).

Section (§) and ruling (D, Q) numbers are those of docs/rules/archipelago.md.
"""

from __future__ import annotations

from domain.archipelago.checks import illegal, req_str
from domain.archipelago.flow import (
    Ctx,
    end_game,
)
from domain.archipelago.scoring import declarable
from domain.archipelago.state import ArchState


def cmd_declare_end(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    oid = req_str(cmd, "objective")
    if oid not in declarable(st, seat):
        illegal("that objective is not yours or its end condition does not hold")
    end_game(ctx, "DECLARED", seat, oid)
