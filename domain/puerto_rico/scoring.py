"""Final scoring (docs/rules/puerto_rico.md §8) and the tie-break."""

from __future__ import annotations

from domain.game import GameResult, rank_by

from .data import (
    BUILDINGS,
    CITY_HALL,
    CUSTOMS_HOUSE,
    FORTRESS,
    GUILD_HALL,
    RESIDENCE,
    VIOLET,
)
from .state import Player, PRState


def large_building_bonuses(p: Player) -> dict[str, int]:
    """Bonus VP of the player's OCCUPIED large buildings (D28)."""
    out: dict[str, int] = {}
    b = p.buildings
    if b[GUILD_HALL] > 0:
        out["guild_hall"] = sum(
            1 if BUILDINGS[i].kind == "small_production" else 2
            for i in range(len(b))
            if b[i] >= 0 and BUILDINGS[i].kind.endswith("production")
        )
    if b[RESIDENCE] > 0:
        island = sum(p.tiles)
        out["residence"] = 4 if island <= 9 else island - 5
    if b[FORTRESS] > 0:
        out["fortress"] = p.colonists() // 3
    if b[CUSTOMS_HOUSE] > 0:
        out["customs_house"] = (p.vp + p.vp_owed) // 4
    if b[CITY_HALL] > 0:
        out["city_hall"] = sum(1 for i in VIOLET if b[i] >= 0)
    return out


def building_vp(p: Player) -> int:
    return sum(BUILDINGS[i].vp for i, c in enumerate(p.buildings) if c >= 0)


def score_breakdown(p: Player) -> dict[str, int]:
    bonuses = large_building_bonuses(p)
    chips = p.vp + p.vp_owed
    total = chips + building_vp(p) + sum(bonuses.values())
    return {
        "chips": chips,
        "buildings": building_vp(p),
        **{f"bonus_{k}": v for k, v in bonuses.items()},
        "total": total,
    }


def score(p: Player) -> int:
    return p.vp + p.vp_owed + building_vp(p) + sum(large_building_bonuses(p).values())


def tiebreak(p: Player) -> int:
    """Doubloons plus goods barrels (§8)."""
    return p.doubloons + sum(p.goods)


def result(s: PRState) -> GameResult:
    scores = [score(p) for p in s.players]
    ties = [tiebreak(p) for p in s.players]
    ranks = rank_by([(sc, tb) for sc, tb in zip(scores, ties, strict=True)])
    details = {
        "breakdown": [score_breakdown(p) for p in s.players],
        "aborted": s.aborted,
        "triggers": list(s.triggers),
        "rounds": s.round,
    }
    return GameResult(scores=list(scores), ranks=ranks, tiebreaks=ties, details=details)
