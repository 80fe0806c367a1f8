"""Pure tournament logic: table sizes, round robin and swiss pairings, seat rotation, standings.

No I/O, no clock, no database: plain functions and dataclasses over JSON-friendly data. Player ids are
strings (the site's external ids, or ``"bot:<level>:<n>"`` for bot participants). A finished game
(a *result*) is ``{"players": [ids by seat], "ranks": [...], "scores": [...]}`` (``scores`` optional;
rank 1 is best, equal ranks are ties; both dense ``[1, 1, 2]`` and competition ``[1, 1, 3]`` ranks work),
with ``"no_winner": true`` for a game nobody won (a collective loss or an aborted game: all ranks equal).

Table sizes (:func:`table_sizes`)
    Fewest byes first: the smallest number ``b`` of players sitting out such that ``n - b`` splits into
    tables of ``min_size..max_size`` seats (so ``b < min_size`` always). Then the fewest tables
    (``ceil((n - b) / max_size)``), i.e. the largest tables, with sizes as equal as possible (they differ
    by at most one), largest first: 9 players at 3..5 -> ``[5, 4]``; 7 at 3..3 -> ``[3, 3]`` and 1 bye.

Byes
    Round robin and swiss give byes to the players with the fewest byes so far; swiss breaks ties by
    giving the bye to the lowest-ranked player, round robin to the player with the fewest pairs left to
    meet (then a seeded order). In :func:`standings` a bye earns the average points of one table of the
    most common table size among the results (``(k - 1) / 2`` for size ``k``; the larger size when two
    are equally common; 2 when there are no results), or of ``bye_table_size`` when given.

Round robin (:func:`round_robin`)
    2-seat tables: the circle method, ``n - 1`` rounds for even ``n`` and ``n`` rounds for odd ``n`` (each
    player sits out exactly once); everyone meets everyone exactly once; in each game the player with
    fewer first seats so far (net of second seats) sits first, so first seats balance within 1 (even
    ``n``) or 2 (odd ``n``). Larger tables: rounds are
    generated greedily, each round's partition minimising first the number of pairs at the same table
    that already met and then the sum of their earlier meetings (seeded random restarts + swap local
    search), until every pair has met or a cap of ``2 * ceil((n - 1) / (max_size - 1)) + 2`` rounds
    (twice the lower bound, plus two) is reached; ``max_rounds`` overrides the cap.

Swiss (:func:`pair_swiss_round`, :func:`swiss_rounds`)
    Monrad-style: players in standings order, tables filled from the top down with the best-ranked
    players who have not met anyone already at the table (a bounded depth-first search); if no pairing
    without repeats is found, a swap local search minimises repeated pairs first and then the
    displacement of players from their natural (standings) table. Default number of rounds:
    ``ceil(log2(n))`` for 2-seat tables and ``ceil(log_k(n)) + 1`` for tables of ``k > 2`` seats.

Seats (:func:`assign_seats`)
    A table's players are seated so as to minimise the sum over players of the squared deviation of
    their mean normalised seat (``seat / (size - 1)``, in ``[0, 1]``, including this game) from the
    middle ``0.5``; so a player who sat early gets a late seat now. Exact (rational arithmetic); among
    equally good orders the one closest (lexicographically) to the given order wins.

Standings (:func:`standings`)
    At a table of ``k`` players rank ``r`` earns ``k - r`` points; tied players share the average of the
    points of the places they occupy (so a game nobody won gives every seat the average). Tie-breaks, in
    order: points, then the sum of game scores, then the number of first places (shared firsts count; a game
    nobody won has no first place), then the Buchholz-style sum over every game played of
    the opponents' final points. Players equal on all of these share a rank (``1, 2, 2, 4``) and are listed in
    the order the participants were given, never by id: a site's ids are hidden from other callers, and their
    order must not show through (a tournament whose every table was aborted ranks everybody first).
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import Any, TypeVar

PlayerId = str
_T = TypeVar("_T")
Pair = tuple[str, str]

# Cost of putting together a pair that already met: a repeat outweighs any displacement/tie-break cost.
_REPEAT = 10**9
_DFS_BUDGET = 50_000
_RESTARTS = 8


@dataclass(frozen=True)
class Round:
    """One round: tables of player ids (by seat order as generated) and the players sitting out."""

    tables: list[list[str]]
    byes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"tables": [list(t) for t in self.tables], "byes": list(self.byes)}


@dataclass(frozen=True)
class StandingRow:
    player: str
    rank: int
    points: float
    score_sum: float
    wins: int
    opponents_points: float
    games: int
    byes: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "rank": self.rank,
            "points": self.points,
            "score_sum": self.score_sum,
            "wins": self.wins,
            "opponents_points": self.opponents_points,
            "games": self.games,
            "byes": self.byes,
        }


# ---------------------------------------------------------------------------------------------------
# Table sizes


def table_sizes(n_players: int, min_size: int, max_size: int) -> tuple[list[int], int]:
    """Split ``n_players`` into tables of ``min_size..max_size`` seats: ``(sizes, byes)``.

    Fewest byes, then fewest tables, then sizes as equal as possible (largest first).
    """
    if n_players < 0:
        raise ValueError("n_players must be >= 0")
    if min_size < 1 or max_size < min_size:
        raise ValueError("need 1 <= min_size <= max_size")
    for byes in range(n_players + 1):
        seated = n_players - byes
        tables = -(-seated // max_size)
        if tables * min_size <= seated:
            if tables == 0:
                return [], byes
            base, extra = divmod(seated, tables)
            return [base + 1] * extra + [base] * (tables - extra), byes
    raise AssertionError("unreachable: zero players always split")  # pragma: no cover


# ---------------------------------------------------------------------------------------------------
# Meetings and local search


def _pair(a: str, b: str) -> Pair:
    return (a, b) if a < b else (b, a)


def meetings(tables: Iterable[Sequence[str]]) -> dict[Pair, int]:
    """How many times each pair (sorted id tuple) sat at the same table, over ``tables`` (e.g. results' players)."""
    met: Counter[Pair] = Counter()
    for table in tables:
        for a, b in combinations(table, 2):
            if a != b:
                met[_pair(a, b)] += 1
    return dict(met)


def _pair_cost(met: Mapping[Pair, int], a: str, b: str) -> int:
    m = met.get(_pair(a, b), 0)
    return _REPEAT + m if m else 0


def _tables_cost(met: Mapping[Pair, int], tables: Sequence[Sequence[str]]) -> int:
    return sum(_pair_cost(met, a, b) for t in tables for a, b in combinations(t, 2))


def _repeats(met: Mapping[Pair, int], tables: Sequence[Sequence[str]]) -> int:
    return sum(1 for t in tables for a, b in combinations(t, 2) if met.get(_pair(a, b), 0))


def _local_search(
    tables: list[list[str]],
    met: Mapping[Pair, int],
    home: Mapping[str, int] | None = None,
) -> None:
    """Swap players between tables (first improvement) until no swap lowers the cost; in place.

    Cost: pair costs (repeats) plus, when ``home`` is given, ``|table index - home table|`` per player.

    Each player's cost at each table (the sum of its pair costs with the table's players) is kept and updated as
    players swap, so a swap is weighed in constant time: a pass over all swaps costs the square of the players,
    not that times a table's size (a round robin of 256 players at tables of 3 or 4 took minutes before).
    """
    players = [p for t in tables for p in t]
    index = {p: i for i, p in enumerate(players)}
    cost = _cost_matrix(players, index, met)
    seats = [[index[p] for p in t] for t in tables]
    _improve(seats, cost, [home[p] for p in players] if home is not None else None)
    for t, seated in zip(tables, seats, strict=True):
        t[:] = [players[p] for p in seated]


def _cost_matrix(players: Sequence[str], index: Mapping[str, int], met: Mapping[Pair, int]) -> list[list[int]]:
    """The pair costs of ``players`` by their ``index``."""
    n = len(players)
    cost = [[0] * n for _ in range(n)]
    for (x, y), m in met.items():
        if m and x in index and y in index:
            cost[index[x]][index[y]] = cost[index[y]][index[x]] = _REPEAT + m
    return cost


def _improve(seats: list[list[int]], cost: Sequence[Sequence[int]], homes: Sequence[int] | None) -> None:
    """``_local_search`` on player indices, with their pair costs (``_cost_matrix``); in place."""
    n = len(cost)
    # at[p][t]: what player p costs at table t: its pair costs with the table's players (itself left out: its own
    # cost is 0) and its displacement from its home table. A swap changes only the pair costs.
    at = [[sum(row[q] for q in seated) for seated in seats] for row in cost]
    if homes is not None:
        for p, home in enumerate(homes):
            for t in range(len(seats)):
                at[p][t] += abs(t - home)
    improved = True
    while improved:
        improved = False
        for a in range(len(seats)):
            for b in range(a + 1, len(seats)):
                ta, tb = seats[a], seats[b]
                for i in range(len(ta)):
                    for j in range(len(tb)):
                        p, q = ta[i], tb[j]
                        if at[p][b] - cost[p][q] + at[q][a] - cost[q][p] < at[p][a] + at[q][b]:
                            ta[i], tb[j] = q, p
                            for x in range(n):
                                row = cost[x]
                                at[x][a] += row[q] - row[p]
                                at[x][b] += row[p] - row[q]
                            improved = True


def _chunk(order: Sequence[_T], sizes: Sequence[int]) -> list[list[_T]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def _best_partition(
    players: Sequence[str], sizes: Sequence[int], met: Mapping[Pair, int], rng: random.Random
) -> list[list[str]]:
    """Partition minimising repeated pairs: the given order and seeded shuffles, each improved by swaps."""
    index = {p: i for i, p in enumerate(players)}
    pair_cost = _cost_matrix(players, index, met)  # once for every restart
    best: list[list[int]] | None = None
    best_cost = 0
    for attempt in range(_RESTARTS):
        order = list(players)
        if attempt:
            rng.shuffle(order)
        seats = _chunk([index[p] for p in order], sizes)
        _improve(seats, pair_cost, None)
        cost = sum(pair_cost[a][b] for t in seats for a, b in combinations(t, 2))
        if best is None or cost < best_cost:
            best, best_cost = seats, cost
        if cost == 0:
            break
    assert best is not None
    return [[players[p] for p in t] for t in best]


# ---------------------------------------------------------------------------------------------------
# Round robin


def round_robin_cap(n_players: int, max_size: int) -> int:
    """Default cap on round-robin rounds for tables of more than 2 seats: twice the lower bound, plus two."""
    if n_players < 2:
        return 0
    return 2 * -(-(n_players - 1) // (max_size - 1)) + 2


def _circle(players: list[str]) -> list[Round]:
    ring: list[str | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    rounds = []
    lead: Counter[str] = Counter()
    for _ in range(n - 1):
        tables, byes = [], []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or b is None:
                byes.append(a if b is None else b)
                continue
            # the player who sat first less often (net of second seats) sits first: seat 0 rotates too
            if (lead[b], (i + 1) % 2) < (lead[a], 1):
                a, b = b, a
            lead[a] += 1
            lead[b] -= 1
            tables.append([a, b])
        rounds.append(Round(tables=tables, byes=[p for p in byes if p is not None]))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def round_robin(
    players: Sequence[str],
    min_size: int = 2,
    max_size: int = 2,
    *,
    seed: int | None = None,
    max_rounds: int | None = None,
) -> list[Round]:
    """A schedule in which every pair of players meets at least once (see the module docstring).

    ``seed=None`` keeps the given player order for the circle method (and seeds the search with 0);
    an integer shuffles the order deterministically first.
    """
    if min_size < 2 or max_size < min_size:
        raise ValueError("need 2 <= min_size <= max_size")
    if len(set(players)) != len(players):
        raise ValueError("duplicate player ids")
    order = list(players)
    rng = random.Random(0 if seed is None else seed)
    if seed is not None:
        rng.shuffle(order)
    n = len(order)
    if n < min_size:
        return []
    if max_size == 2:
        circle = _circle(order)
        return circle if max_rounds is None else circle[:max_rounds]

    cap = round_robin_cap(n, max_size) if max_rounds is None else max_rounds
    met: Counter[Pair] = Counter()
    bye_counts: Counter[str] = Counter()
    unmet = dict.fromkeys(order, n - 1)  # the players each has not met yet
    position = {p: i for i, p in enumerate(order)}
    all_pairs = n * (n - 1) // 2
    rounds: list[Round] = []
    while len(met) < all_pairs and len(rounds) < cap:
        sizes, n_byes = table_sizes(n, min_size, max_size)
        by_need = sorted(order, key=lambda p: (bye_counts[p], unmet[p], position[p]))
        byes = by_need[:n_byes]
        benched = set(byes)
        active = [p for p in order if p not in benched]
        tables = _best_partition(active, sizes, met, rng)
        for p in byes:
            bye_counts[p] += 1
        for pair, times in meetings(tables).items():
            if pair not in met:
                unmet[pair[0]] -= 1
                unmet[pair[1]] -= 1
            met[pair] += times
        rounds.append(Round(tables=tables, byes=byes))
    return rounds


# ---------------------------------------------------------------------------------------------------
# Swiss


def swiss_rounds(n_players: int, table_size: int = 2) -> int:
    """Default number of swiss rounds: ``ceil(log2 n)`` for 2 seats, ``ceil(log_k n) + 1`` for ``k > 2``."""
    if n_players < 2:
        return 0
    if table_size < 2:
        raise ValueError("table_size must be >= 2")
    rounds, reach = 0, 1
    while reach < n_players:  # integer ceil(log_k n), free of float rounding
        reach *= table_size
        rounds += 1
    return rounds if table_size == 2 else rounds + 1


class _BudgetExceeded(Exception):
    pass


def _swiss_dfs(order: list[str], sizes: Sequence[int], met: Mapping[Pair, int]) -> list[list[str]] | None:
    """Top-down first pairing without any repeated pair, or None (none exists or the budget ran out)."""
    nodes = 0

    def fill(remaining: list[str], ti: int) -> list[list[str]] | None:
        if ti == len(sizes):
            return []
        top, rest = remaining[0], remaining[1:]

        def extend(members: list[str], start: int) -> list[list[str]] | None:
            nonlocal nodes
            if len(members) == sizes[ti]:
                chosen = set(members)
                sub = fill([p for p in rest if p not in chosen], ti + 1)
                return None if sub is None else [members, *sub]
            for idx in range(start, len(rest)):
                nodes += 1
                if nodes > _DFS_BUDGET:
                    raise _BudgetExceeded
                cand = rest[idx]
                if any(_pair(cand, m) in met for m in members):
                    continue
                found = extend([*members, cand], idx + 1)
                if found is not None:
                    return found
            return None

        return extend([top], 0)

    try:
        return fill(order, 0)
    except _BudgetExceeded:
        return None


def pair_swiss_round(
    players: Sequence[str],
    standings_order: Sequence[str],
    history: Iterable[Sequence[str]],
    sizes: Sequence[int],
    rng: random.Random,
    *,
    bye_counts: Mapping[str, int] | None = None,
) -> Round:
    """Pair one swiss round: ``Round.tables`` in ``sizes`` order (top tables first) and ``Round.byes``.

    ``players`` play this round; ``standings_order`` lists ids best first (players missing from it rank
    below, in ``players`` order); ``history`` is earlier tables (e.g. each result's ``"players"``);
    ``sizes`` usually comes from :func:`table_sizes`; ``len(players) - sum(sizes)`` players get a bye;
    ``bye_counts`` is each player's byes so far. ``rng`` only drives the fallback's random restarts.
    Each table lists its players in standings order; seat them with :func:`assign_seats`.
    """
    if len(set(players)) != len(players):
        raise ValueError("duplicate player ids")
    if any(s < 1 for s in sizes) or sum(sizes) > len(players):
        raise ValueError("table sizes do not fit the players")
    counts = bye_counts or {}
    index = {p: i for i, p in enumerate(standings_order)}
    order = sorted(players, key=lambda p: (index.get(p, len(index)), players.index(p)))
    n_byes = len(order) - sum(sizes)
    position = {p: i for i, p in enumerate(order)}
    byes = sorted(order, key=lambda p: (counts.get(p, 0), -position[p]))[:n_byes]
    bye_set = set(byes)
    active = [p for p in order if p not in bye_set]
    byes.sort(key=position.__getitem__)
    met = meetings(history)

    tables = _swiss_dfs(active, sizes, met)
    if tables is None:
        natural = _chunk(active, sizes)
        home = {p: t for t, table in enumerate(natural) for p in table}
        best: list[list[str]] | None = None
        best_key: tuple[int, int] = (0, 0)
        for attempt in range(_RESTARTS):
            start = list(active)
            if attempt:
                rng.shuffle(start)
            candidate = _chunk(start, sizes)
            _local_search(candidate, met, home)
            key = (
                _tables_cost(met, candidate),
                sum(abs(t - home[p]) for t, table in enumerate(candidate) for p in table),
            )
            if best is None or key < best_key:
                best, best_key = candidate, key
        assert best is not None
        tables = [sorted(t, key=position.__getitem__) for t in best]
    return Round(tables=tables, byes=byes)


def repeated_pairs(history: Iterable[Sequence[str]], tables: Sequence[Sequence[str]]) -> int:
    """How many pairs seated together in ``tables`` had already met in ``history``."""
    return _repeats(meetings(history), tables)


# ---------------------------------------------------------------------------------------------------
# Seats


def seats_from_games(games: Iterable[Mapping[str, Any]]) -> dict[str, list[tuple[int, int]]]:
    """Each player's earlier seats as ``(seat index, table size)`` from results' ``"players"`` by seat."""
    history: dict[str, list[tuple[int, int]]] = {}
    for game in games:
        seated = list(game["players"])
        for seat, p in enumerate(seated):
            history.setdefault(p, []).append((seat, len(seated)))
    return history


def _norm_seat(seat: int, size: int) -> Fraction:
    return Fraction(seat, size - 1) if size > 1 else Fraction(1, 2)


def assign_seats(table_players: Sequence[str], seat_history: Mapping[str, Sequence[Sequence[int]]]) -> list[str]:
    """Order a table's players by seat so that seat positions rotate fairly (see the module docstring).

    ``seat_history`` maps a player to earlier ``(seat index, table size)`` pairs (:func:`seats_from_games`).
    """
    players = list(table_players)
    k = len(players)
    if len(set(players)) != k:
        raise ValueError("duplicate player ids")
    if k < 2:
        return players
    past = []
    for p in players:
        seats = [_norm_seat(int(s), int(size)) for s, size in seat_history.get(p, ())]
        past.append((sum(seats, Fraction(0)), len(seats)))
    half = Fraction(1, 2)

    def cost(i: int, seat: int) -> Fraction:
        total, count = past[i]
        return ((total + _norm_seat(seat, k)) / (count + 1) - half) ** 2

    if k > 12:  # exact search is 2^k; big tables: late seats to those who sat earliest on average
        mean = [(t / c if c else half) for t, c in past]
        ranked = sorted(range(k), key=lambda i: (-mean[i], i))
        return [players[i] for i in ranked]

    full = (1 << k) - 1
    best: dict[int, Fraction] = {full: Fraction(0)}
    for mask in sorted(range(full), key=lambda m: -m.bit_count()):
        seat = mask.bit_count()
        best[mask] = min(cost(i, seat) + best[mask | (1 << i)] for i in range(k) if not mask & (1 << i))
    order, mask = [], 0
    for seat in range(k):
        for i in range(k):
            if not mask & (1 << i) and cost(i, seat) + best[mask | (1 << i)] == best[mask]:
                order.append(players[i])
                mask |= 1 << i
                break
    return order


# ---------------------------------------------------------------------------------------------------
# Standings


def placement_points(ranks: Sequence[float]) -> list[Fraction]:
    """Points per seat: rank ``r`` of ``k`` earns ``k - r``; ties share the average of their places' points."""
    k = len(ranks)
    by_rank = sorted(range(k), key=lambda i: ranks[i])
    points: list[Fraction] = [Fraction(0)] * k
    place = 1
    start = 0
    while start < k:
        end = start
        while end + 1 < k and ranks[by_rank[end + 1]] == ranks[by_rank[start]]:
            end += 1
        group = by_rank[start : end + 1]
        places = range(place, place + len(group))
        share = Fraction(sum(k - p for p in places), len(group))
        for i in group:
            points[i] = share
        place += len(group)
        start = end + 1
    return points


def bye_points(table_size: int) -> Fraction:
    """Points of a bye: the average points of a table of ``table_size`` players, ``(k - 1) / 2``."""
    return Fraction(table_size - 1, 2)


def _num(x: Fraction) -> float:
    return int(x) if x.denominator == 1 else float(x)


def standings(
    players: Sequence[str],
    results: Iterable[Mapping[str, Any]],
    byes: Mapping[str, int] | Iterable[str] = (),
    *,
    bye_table_size: int | None = None,
) -> list[StandingRow]:
    """Standings rows best first for ``players`` (see the module docstring for points and tie-breaks).

    ``byes`` is a mapping of bye counts or an iterable with one id per bye received. Players of
    ``results`` that are not in ``players`` count as opponents but get no row.
    """
    games = [dict(r) for r in results]
    bye_count: Counter[str] = Counter(byes) if not isinstance(byes, Mapping) else Counter(dict(byes))
    points: defaultdict[str, Fraction] = defaultdict(Fraction)
    score_sum: dict[str, Fraction] = {}
    wins: Counter[str] = Counter()
    played: Counter[str] = Counter()
    opponents: dict[str, list[str]] = {}
    for game in games:
        seated = list(game["players"])
        ranks = list(game["ranks"])
        scores = list(game.get("scores") or [0] * len(seated))
        if len(ranks) != len(seated) or len(scores) != len(seated) or len(set(seated)) != len(seated):
            raise ValueError(f"malformed result: {game!r}")
        best = None if game.get("no_winner") or not ranks else min(ranks)
        for p, pts, rank, score in zip(seated, placement_points(ranks), ranks, scores):
            points[p] += pts
            score_sum[p] = score_sum.get(p, Fraction(0)) + Fraction(score)
            wins[p] += rank == best
            played[p] += 1
            opponents.setdefault(p, []).extend(q for q in seated if q != p)
    if bye_table_size is None:
        sizes = Counter(len(g["players"]) for g in games)
        bye_table_size = max(sizes, key=lambda s: (sizes[s], s)) if sizes else 2
    per_bye = bye_points(bye_table_size)
    for p, count in bye_count.items():
        points[p] += per_bye * count

    def total(p: str) -> Fraction:
        return Fraction(points.get(p, 0))

    keyed = []
    for place, p in enumerate(dict.fromkeys(players)):
        opp = sum((total(q) for q in opponents.get(p, ())), Fraction(0))
        keyed.append(((-total(p), -score_sum.get(p, Fraction(0)), -wins[p], -opp), place, p, opp))
    keyed.sort(key=lambda item: item[:2])
    rows: list[StandingRow] = []
    for i, (key, _place, p, opp) in enumerate(keyed):
        rank = rows[-1].rank if rows and keyed[i - 1][0] == key else i + 1
        rows.append(
            StandingRow(
                player=p,
                rank=rank,
                points=_num(-key[0]),
                score_sum=_num(-key[1]),
                wins=wins[p],
                opponents_points=_num(opp),
                games=played[p],
                byes=bye_count[p],
            )
        )
    return rows
