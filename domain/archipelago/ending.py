"""Declaring the end of the game (§12.2)."""

from __future__ import annotations

from domain.archipelago.checks import illegal, req_str
from domain.archipelago.engine import (
    end_game,
)
from domain.archipelago.scoring import declarable


def cmd_declare_end(st, seat, cmd, ctx):
    oid = req_str(cmd, "objective")
    if oid not in declarable(st, seat):
        illegal("that objective is not yours or its end condition does not hold")
    if ctx:
        end_game(ctx, "DECLARED", seat, oid)
