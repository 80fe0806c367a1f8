"""Archipelago end conditions (§13.2), metrics (§13.1), scoring (§12.3) and the greedy heuristic.

Section (§) and ruling (D, Q) numbers are those of docs/rules/archipelago.md.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
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


def _peace(st: ArchState, x: int) -> bool:
    pop = population(st)
    return st.reb <= pop // D.PEACE_REB_DIVISOR and pop >= ceil_pct(x, cit_total(st))


# §13.2: an objective's end condition -> whether it holds, given the objective's argument
_CONDITIONS: dict[str, Callable[[ArchState, int], bool]] = {
    "BANK_EMPTY": lambda st, x: sum(1 for r in D.RESOURCES if st.bank[r] == 0) >= x,
    "TILES": lambda st, x: len(st.tiles) >= min(x, 25),
    "STACKS": lambda st, x: st.stacks.count(0) >= x,
    "FLEET": lambda st, x: sum(1 for u in st.units.values() if u["kind"] == "S") >= x,
    "POP": lambda st, x: population(st) >= ceil_pct(x, cit_total(st)),
    "DECK": lambda st, x: len(st.deck) <= x,
    "BUILDINGS": lambda st, x: buildings_on_map(st) >= x,
    "ROUNDS": lambda st, x: st.rounds_completed >= x,
    "EXPORT": lambda st, x: sum(st.exp.values()) >= x,
    "WONDERS": lambda st, x: sum(len(p["wonders"]) for p in st.players) >= x,
    "PEACE": _peace,
}


# objective -> the test of its end condition (None: it has none)
_HOLDS = {oid: _CONDITIONS.get(o.condition) for oid, o in D.OBJECTIVES.items()}  # type: ignore[arg-type]
# objective -> that test, for the objectives that may be declared (every one with a condition, but the Separatist)
_DECLARABLE_WHEN = {oid: holds for oid, holds in _HOLDS.items() if holds and D.OBJECTIVES[oid].special != "SEPARATIST"}


def condition_true(st: ArchState, oid: str) -> bool:
    holds = _HOLDS[oid]
    return holds is not None and holds(st, st.obj_args[oid])


def declarable_among(st: ArchState, cards: list[str]) -> list[str]:
    """Those of ``cards`` (objectives) that may be declared now: not the Separatist, and their condition holds."""
    out = []  # a plain loop: called for every legal-command list the bots ask for
    for o in cards:
        holds = _DECLARABLE_WHEN.get(o)
        if holds is not None and holds(st, st.obj_args[o]):
            out.append(o)
    return out


def declarable(st: ArchState, seat: int) -> list[str]:
    """Objectives ``seat`` may declare now (its own, or any face-up one with NO_SECRETS)."""
    if st.options.get("no_secrets"):
        return declarable_among(st, st.table_objectives)
    return declarable_among(st, st.objectives[seat]) if st.objectives else []


_NO_STATS = {"CITIZENS": 0, "SHIPS": 0, "TOWN": 0, "TEMPLE": 0, "MARKET": 0, "PORT": 0, "BUILDINGS": 0}


def seat_stats(st: ArchState) -> list[dict]:
    """Per-seat counts behind the metrics, computed in one pass: citizens, ships, buildings of each type and in all."""
    stats: list[dict[str, Any]] = [_NO_STATS.copy() for _ in range(st.n)]
    units = st.units
    for u in units.values():
        stats[u["owner"]]["CITIZENS" if u["kind"] == "C" else "SHIPS"] += 1
    for b in st.buildings.values():
        town = b.get("TOWN")
        town_owner = units[town]["owner"] if town else None
        for btype, occ in b.items():
            owner = units[occ]["owner"] if occ else town_owner
            if owner is not None:
                counts = stats[owner]
                counts[btype] += 1
                counts["BUILDINGS"] += 1
    return stats


def _regions(st: ArchState, stats: list[dict]) -> tuple[int, ...]:
    """REGIONS: the tiles where each seat has a unit."""
    tiles: list[set[str]] = [set() for _ in range(st.n)]
    for u in st.units.values():
        tiles[u["owner"]].add(u["tile"])
    return tuple(map(len, tiles))


# The metrics below are plain loops: over a handful of seats, cheaper than ``map`` with an ``itemgetter`` or lambda.
def _from_stats(key: str) -> Callable[[ArchState, list[dict]], tuple[int, ...]]:
    def values(st: ArchState, stats: list[dict]) -> tuple[int, ...]:
        out = []
        for s in stats:
            out.append(s[key])
        return tuple(out)

    return values


def _from_players(key: str) -> Callable[[ArchState, list[dict]], tuple[int, ...]]:
    def values(st: ArchState, stats: list[dict]) -> tuple[int, ...]:
        out = []
        for p in st.players:
            out.append(p[key])  # type: ignore[literal-required]  # a key of Player (the table below)
        return tuple(out)

    return values


def _cubes_of(resource: str) -> Callable[[ArchState, list[dict]], tuple[int, ...]]:
    def values(st: ArchState, stats: list[dict]) -> tuple[int, ...]:
        out = []
        for p in st.players:
            out.append(p["cubes"][resource])
        return tuple(out)

    return values


def _of_players(of: Callable[[Player], int]) -> Callable[[ArchState, list[dict]], tuple[int, ...]]:
    return lambda st, stats: tuple(map(of, st.players))


# §13.1: metric code -> its value for every seat (a tuple, as ``_rank_points`` takes it), from the position and its
# ``seat_stats``
_METRICS: dict[str, Callable[[ArchState, list[dict]], tuple[int, ...]]] = {
    "PORTS": _from_stats("PORT"),
    "MARKETS": _from_stats("MARKET"),
    "TOWNS": _from_stats("TOWN"),
    "TEMPLES": _from_stats("TEMPLE"),
    "CITIZENS": _from_stats("CITIZENS"),
    "SHIPS": _from_stats("SHIPS"),
    "BUILDINGS": _from_stats("BUILDINGS"),
    "MONEY": _from_players("money"),
    "EXPLORER": _from_players("tokens"),
    "CUBES": _of_players(lambda p: sum(p["cubes"].values())),
    "CARDS": _of_players(lambda p: len(p["track"]) + len(p["wonders"])),
    "CONTRIB": _from_players("contrib"),
    "REGIONS": _regions,
    **{f"RES:{r}": _cubes_of(r) for r in D.RESOURCES},
}


def metric(st: ArchState, seat: int, code: str, stats: list[dict] | None = None) -> int:
    return metric_values(st, code, seat_stats(st) if stats is None else stats)[seat]


def metric_values(st: ArchState, code: str, stats: list[dict]) -> list[int]:
    """§13.1: the value of metric ``code`` for every seat (``KeyError`` for an unknown code)."""
    return list(_METRICS[code](st, stats))


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


# objective or trend -> the metric of its criterion (``_METRICS``)
_OBJECTIVE_METRIC = {oid: _METRICS[o.criterion] for oid, o in D.OBJECTIVES.items()}
_TREND_METRIC = {t: _METRICS[trend[1]] for t, trend in D.TRENDS.items()}
_CARD_VP = {c: card.vp for c, card in D.CARDS.items()}


def score_totals(st: ArchState, stats: list[dict]) -> list[int]:
    """The ``total`` of every row of ``score_breakdown(st, pacifist=False)``, without the breakdown (the bots
    call it for every position they score, so ``criteria`` and ``_card_points`` are written out here, as plain
    loops: cheaper than comprehensions and ``map`` over a handful of items; the criteria's rank points are summed
    once for each combination of metric values, ``_summed_rank_points``)."""
    rows = []  # per criterion: the metric's value for every seat
    for held in (st.table_objectives,) if st.options.get("no_secrets") else st.objectives:
        for oid in held:
            rows.append(_OBJECTIVE_METRIC[oid](st, stats))
    for t in st.trends:
        rows.append(_TREND_METRIC[t](st, stats))
    totals = []
    for p in st.players:
        total = 0
        for c in p["track"]:
            total += _TRACK_VP[c]
        for w in p["wonders"]:
            total += _CARD_VP[w["card"]]
        totals.append(total)
    if rows:
        for seat, points in enumerate(_summed_rank_points(tuple(rows), D.RANK_VP[st.n])):
            totals[seat] += points
    return totals


@lru_cache(maxsize=4096)
def _summed_rank_points(rows: tuple[tuple[int, ...], ...], vp_table: tuple[int, ...]) -> tuple[int, ...]:
    """Every seat's rank points summed over the criteria whose metric values are ``rows`` (a search meets the same
    values again and again)."""
    return tuple(map(sum, zip(*(_rank_points(values, vp_table) for values in rows), strict=True)))


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
