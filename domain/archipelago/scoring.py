"""Archipelago end conditions (§13.2), metrics (§13.1), scoring (§12.3) and the greedy heuristic.

Section (§) and ruling (D, Q) numbers are those of docs/rules/archipelago.md.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from operator import add, itemgetter
from typing import Any

from domain.archipelago import data as D
from domain.archipelago.state import (
    ArchState,
    Player,
    buildings_on_map,
    ceil_pct,
    cit_total,
    objectives_in_play,
    population,
)
from domain.game import GameResult, rank_by


def condition_true(st: ArchState, oid: str) -> bool:
    o = D.OBJECTIVES[oid]
    x = st.obj_args[oid]
    c = o.condition
    if c is None:
        return False
    if c == "BANK_EMPTY":
        return sum(1 for r in D.RESOURCES if st.bank[r] == 0) >= x
    if c == "TILES":
        return len(st.tiles) >= min(x, 25)
    if c == "STACKS":
        return sum(1 for s in st.stacks if s == 0) >= x
    if c == "FLEET":
        return sum(1 for u in st.units.values() if u["kind"] == "S") >= x
    if c == "POP":
        return population(st) >= ceil_pct(x, cit_total(st))
    if c == "DECK":
        return len(st.deck) <= x
    if c == "BUILDINGS":
        return buildings_on_map(st) >= x
    if c == "ROUNDS":
        return st.rounds_completed >= x
    if c == "EXPORT":
        return sum(st.exp.values()) >= x
    if c == "WONDERS":
        return sum(len(p["wonders"]) for p in st.players) >= x
    if c == "PEACE":
        pop = population(st)
        return st.reb <= pop // D.PEACE_REB_DIVISOR and pop >= ceil_pct(x, cit_total(st))
    return False


def declarable(st: ArchState, seat: int) -> list[str]:
    """Objectives ``seat`` may declare now (its own, or any face-up one with NO_SECRETS)."""
    if st.options.get("no_secrets"):
        cards = st.table_objectives
    else:
        cards = st.objectives[seat] if st.objectives else []
    return [o for o in cards if D.OBJECTIVES[o].special != "SEPARATIST" and condition_true(st, o)]


def seat_stats(st: ArchState) -> list[dict]:
    """Per-seat counts behind the metrics, computed in one pass."""
    stats: list[dict[str, Any]] = [
        {"CITIZENS": 0, "SHIPS": 0, "TOWN": 0, "TEMPLE": 0, "MARKET": 0, "PORT": 0} for _ in range(st.n)
    ]
    units = st.units
    for u in units.values():
        stats[u["owner"]]["CITIZENS" if u["kind"] == "C" else "SHIPS"] += 1
    for b in st.buildings.values():
        town = b.get("TOWN")
        town_owner = units[town]["owner"] if town else None
        for btype, occ in b.items():
            owner = units[occ]["owner"] if occ else town_owner
            if owner is not None:
                stats[owner][btype] += 1
    return stats


def _regions(st: ArchState, stats: list[dict]) -> list[int]:
    """REGIONS: the tiles where each seat has a unit."""
    tiles: list[set[str]] = [set() for _ in range(st.n)]
    for u in st.units.values():
        tiles[u["owner"]].add(u["tile"])
    return [len(t) for t in tiles]


def _from_stats(key: str) -> Callable[[ArchState, list[dict]], list[int]]:
    get = itemgetter(key)
    return lambda st, stats: list(map(get, stats))


def _from_players(of: Callable[[Player], int]) -> Callable[[ArchState, list[dict]], list[int]]:
    return lambda st, stats: list(map(of, st.players))


def _cubes_of(resource: str) -> Callable[[Player], int]:
    return lambda p: p["cubes"][resource]


# §13.1: metric code -> its value for every seat, from the position and its ``seat_stats``
_METRICS: dict[str, Callable[[ArchState, list[dict]], list[int]]] = {
    "PORTS": _from_stats("PORT"),
    "MARKETS": _from_stats("MARKET"),
    "TOWNS": _from_stats("TOWN"),
    "TEMPLES": _from_stats("TEMPLE"),
    "CITIZENS": _from_stats("CITIZENS"),
    "SHIPS": _from_stats("SHIPS"),
    "BUILDINGS": lambda st, stats: [s["TOWN"] + s["TEMPLE"] + s["MARKET"] + s["PORT"] for s in stats],
    "MONEY": _from_players(itemgetter("money")),
    "EXPLORER": _from_players(itemgetter("tokens")),
    "CUBES": _from_players(lambda p: sum(p["cubes"].values())),
    "CARDS": _from_players(lambda p: len(p["track"]) + len(p["wonders"])),
    "CONTRIB": _from_players(itemgetter("contrib")),
    "REGIONS": _regions,
    **{f"RES:{r}": _from_players(_cubes_of(r)) for r in D.RESOURCES},
}


def metric(st: ArchState, seat: int, code: str, stats: list[dict] | None = None) -> int:
    return metric_values(st, code, seat_stats(st) if stats is None else stats)[seat]


def metric_values(st: ArchState, code: str, stats: list[dict]) -> list[int]:
    """§13.1: the value of metric ``code`` for every seat (``KeyError`` for an unknown code)."""
    return _METRICS[code](st, stats)


def criteria(st: ArchState) -> list[tuple[str, str]]:
    """(source id, metric code) of every criterion scored at the end."""
    out = [(oid, D.OBJECTIVES[oid].criterion) for _, oid in objectives_in_play(st)]
    out += [(t, D.TRENDS[t][1]) for t in st.trends]
    return out


def criterion_points(values: list[int], vp_table: tuple[int, ...]) -> list[int]:
    """§12.3: rank points per seat for one criterion (competition ranks; a value of 0 scores nothing)."""
    return list(_rank_points(tuple(values), vp_table))


@lru_cache(maxsize=4096)
def _rank_points(values: tuple[int, ...], vp_table: tuple[int, ...]) -> tuple[int, ...]:
    ranked = sorted(values, reverse=True)  # ranked.index(v): how many seats have more, the competition rank less one
    places = len(vp_table)
    return tuple(vp_table[rank] if v > 0 and (rank := ranked.index(v)) < places else 0 for v in values)


def _criteria_points(st: ArchState, stats: list[dict]) -> list[tuple[str, list[int]]]:
    """(label, points per seat) of every criterion."""
    vp_table = D.RANK_VP[st.n]
    return [
        (f"{i}:{src}:{code}", criterion_points(metric_values(st, code, stats), vp_table))
        for i, (src, code) in enumerate(criteria(st))
    ]


_TRACK_VP = {c: 0 if card.use == "WONDER" else card.vp for c, card in D.CARDS.items()}


def _card_points(p: Player) -> tuple[int, int]:
    # §12.3 step 4 (v1.2): an owned wonder scores only once built (then it is in p["wonders"], not the track)
    cards = sum(map(_TRACK_VP.__getitem__, p["track"]))
    wonders = sum(D.CARDS[w["card"]].vp for w in p["wonders"])
    return cards, wonders


def score_breakdown(st: ArchState, pacifist: bool, stats: list[dict] | None = None) -> list[dict]:
    n = st.n
    rows: list[dict] = [{"criteria": {}, "cards": 0, "wonders": 0, "pacifist": 0, "total": 0} for _ in range(n)]
    for label, points in _criteria_points(st, seat_stats(st) if stats is None else stats):
        for s in range(n):
            rows[s]["criteria"][label] = points[s]
    for s, p in enumerate(st.players):
        rows[s]["cards"], rows[s]["wonders"] = _card_points(p)
    if pacifist and st.reb <= population(st) // D.PACIFIST_REB_DIVISOR:
        for holder, oid in objectives_in_play(st):
            if holder is not None and D.OBJECTIVES[oid].special == "PACIFIST":
                rows[holder]["pacifist"] += D.PACIFIST_BONUS
    for r in rows:
        r["total"] = sum(r["criteria"].values()) + r["cards"] + r["wonders"] + r["pacifist"]
    return rows


_CRITERION = {oid: o.criterion for oid, o in D.OBJECTIVES.items()}
_TREND_CRITERION = {t: trend[1] for t, trend in D.TRENDS.items()}
_CARD_VP = {c: card.vp for c, card in D.CARDS.items()}


def score_totals(st: ArchState, stats: list[dict]) -> list[int]:
    """The ``total`` of every row of ``score_breakdown(st, pacifist=False)``, without the breakdown (the bots
    call it for every position they score, so ``criteria`` and ``_card_points`` are written out here)."""
    vp_table = D.RANK_VP[st.n]
    track_vp, card_vp = _TRACK_VP.__getitem__, _CARD_VP
    totals = [sum(map(track_vp, p["track"])) + sum(card_vp[w["card"]] for w in p["wonders"]) for p in st.players]
    if st.options.get("no_secrets"):
        codes = [_CRITERION[o] for o in st.table_objectives]
    else:
        codes = [_CRITERION[o] for held in st.objectives for o in held]
    codes += [_TREND_CRITERION[t] for t in st.trends]
    for code in codes:
        totals = list(map(add, totals, _rank_points(tuple(_METRICS[code](st, stats)), vp_table)))
    return totals


def final_ranking(st: ArchState, cause: str | None) -> tuple[list[dict], list[list[int]], list[int]]:
    """§12.3 for a scored end (declared or round cap): breakdown rows, tie-breaks (money, tokens) and ranks."""
    rows = score_breakdown(st, pacifist=cause == "DECLARED")
    tb = [[st.players[s]["money"], st.players[s]["tokens"]] for s in range(st.n)]
    ranks = rank_by([(rows[s]["total"], tb[s][0], tb[s][1]) for s in range(st.n)])
    return rows, tb, ranks


def result(st: ArchState) -> GameResult:
    end = st.end or {}
    n = st.n
    details = {
        "cause": end.get("cause"),
        "round": st.round,
        "declarer": end.get("declarer"),
        "objective": end.get("objective"),
        "winner": end.get("winner"),
    }
    if end.get("cause") == "INDEPENDENCE":
        w = end.get("winner")
        scores = [1.0 if s == w else 0.0 for s in range(n)]
        # Everyone loses without a Separatist: all share rank 1 with 0 points and nobody won.
        ranks = [1 if (w is None or s == w) else 2 for s in range(n)]
        details["everyone_lost"] = w is None
        return GameResult(scores=scores, ranks=ranks, tiebreaks=[[0, 0]] * n, details=details, no_winner=w is None)
    rows, tb, ranks = final_ranking(st, end.get("cause"))
    scores = [float(r["total"]) for r in rows]
    details["breakdown"] = rows
    return GameResult(scores=scores, ranks=ranks, tiebreaks=tb, details=details)
