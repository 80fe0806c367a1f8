"""Final scoring (docs/rules/amerigo.md §15): the ``GameEnded`` event's rows and the result."""

from __future__ import annotations

from typing import Any

from domain.game import GameResult, rank_by

from .data import (
    CHEST_GOLD,
    FAME_VP,
    GOLD_MAX,
    GOLD_TOKENS,
    PRODUCTION_TYPE,
    PROGRESS_VP,
    SPECIAL_VP,
    TRADING_POSTS,
    track_vp,
)
from .state import Player, State


def goods_vp(p: Player) -> int:
    """Goods in store at the end (§15): each counted once, plus once per production tile of its kind."""
    goods = p.commodities
    total = sum(goods)
    for t in p.production:
        total += goods[PRODUCTION_TYPE[t]]
    return total


def final_scoring(s: State) -> dict[str, Any]:
    rows = []
    for seat in s.order:
        p = s.players[seat]
        chest_gold = CHEST_GOLD * p.chests
        token_gold = sum(g for t, g in GOLD_TOKENS.items() if p.has_unused(t))
        total_gold = p.gold + chest_gold + token_gold
        cap_vp = max(0, total_gold - GOLD_MAX)
        gold_after = min(total_gold, GOLD_MAX)
        goods = goods_vp(p)
        progress_vp = track_vp(PROGRESS_VP, p.progress)
        token_vp = 0
        if p.has("P22"):
            token_vp += TRADING_POSTS - p.posts_left
        if p.has("P23"):
            token_vp += FAME_VP
        if p.has("P24"):
            token_vp += gold_after
        special_vp = track_vp(SPECIAL_VP, p.special)
        total = p.vp + cap_vp + gold_after + goods + progress_vp + token_vp + special_vp
        rows.append(
            {
                "seat": seat,
                "chest_gold": chest_gold,
                "token_gold": token_gold,
                "cap_vp": cap_vp,
                "gold_after": gold_after,
                "gold_vp": gold_after,
                "goods_vp": goods,
                "progress_vp": progress_vp,
                "token_vp": token_vp,
                "special_vp": special_vp,
                "vp_before": p.vp,
                "total": total,
            }
        )
    return {"type": "GameEnded", "final": rows}


def result(state: State) -> GameResult:
    n = state.seats
    order_pos = {seat: i for i, seat in enumerate(state.order)}
    scores = [state.players[s].vp for s in range(n)]
    keys = [(scores[s], -order_pos[s]) for s in range(n)]
    ranks = rank_by(keys)  # keys are unique: no shared places (Q39)
    return GameResult(
        scores=[float(x) for x in scores],
        ranks=ranks,
        tiebreaks=[n - order_pos[s] for s in range(n)],
        details={"final": state.final, "special_track_order": list(state.order)},
    )
