"""Per-game-type player ratings with openskill's Plackett-Luce model (multi-player, placement-based, ties).

Pure functions over JSON-friendly data; call them once per game type with that type's finished games
(``{"players": [ids by seat], "ranks": [...]}``, rank 1 best, equal ranks tie; any ``scores`` are ignored,
the placement alone counts) in chronological order. Ratings are folded *from scratch*: a retracted game
is removed by simply not passing it, which gives exactly the ratings of never having played it.

Model (:data:`MODEL_PARAMETERS`, openskill 6.2 defaults written out so an upgrade cannot shift them):
``mu = 25`` (prior mean), ``sigma = 25/3`` (prior deviation), ``beta = 25/6`` (performance noise),
``kappa = 1e-4`` (variance floor), ``tau = 25/300`` (added to sigma before every game so ratings keep
moving), ``margin = 0``, ``limit_sigma = False``, ``balance = False``. Every player is a team of one. The
model has no randomness (openskill's random rating ids are never used), so the same games in the same
order give bit-identical ratings.

Ties: openskill 6.2's own tie handling in Plackett-Luce is flawed (openskill.py issues #155 and #201: with
ranks ``[1, 1, 2, 3]`` the tied winners end with the same mu as the runner-up and a *lower* ordinal,
because the intended averaging of tied mu changes is a no-op). So a game with ties is rated as the
average of the strict orders consistent with it: each tie group of ``g`` players is rotated through its
``g`` internal orders in lockstep over ``lcm`` (of the group sizes) strict rank vectors, every player
visits each place of its group equally often, and each player's new mu and sigma are the means over
those ratings. Tied equals therefore move identically and a tie never ranks below a worse placement;
a game without ties is rated exactly as openskill rates it.

Leaderboards sort by the conservative score ``ordinal = mu - 3 * sigma`` (openskill's ``ordinal()``),
highest first, then by player id ascending.
"""

from __future__ import annotations

import math
import threading
import time
import uuid
import weakref
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from eventstore.base import DocumentStore

MODEL_PARAMETERS: dict[str, Any] = {
    "mu": 25.0,
    "sigma": 25.0 / 3.0,
    "beta": 25.0 / 6.0,
    "kappa": 0.0001,
    "tau": 25.0 / 300.0,
    "margin": 0.0,
    "limit_sigma": False,
    "balance": False,
}
ORDINAL_Z = 3.0


def make_model() -> PlackettLuce:
    """The Plackett-Luce model with the documented parameters."""
    return PlackettLuce(**MODEL_PARAMETERS)


@dataclass(frozen=True)
class Rating:
    """A player's rating: mean ``mu``, uncertainty ``sigma`` and the number of rated games."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """Conservative skill estimate ``mu - 3 * sigma`` (openskill's ordinal)."""
        return self.mu - ORDINAL_Z * self.sigma

    def to_dict(self) -> dict[str, Any]:
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal, "games": self.games}


@dataclass(frozen=True)
class LeaderboardRow:
    player: str
    mu: float
    sigma: float
    ordinal: float
    games: int

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal, "games": self.games}


def initial_rating() -> Rating:
    """The rating of a player with no games."""
    return Rating(mu=MODEL_PARAMETERS["mu"], sigma=MODEL_PARAMETERS["sigma"], games=0)


def _check(game: Mapping[str, Any]) -> tuple[list[str], list[float]]:
    players = [str(p) for p in game["players"]]
    ranks = list(game["ranks"])
    if len(players) != len(ranks):
        raise ValueError(f"players and ranks differ in length: {game!r}")
    if len(set(players)) != len(players):
        raise ValueError(f"a player appears twice in one game: {game!r}")
    for rank in ranks:
        if isinstance(rank, bool) or not isinstance(rank, int | float):
            raise ValueError(f"ranks must be numbers: {game!r}")
    return players, [float(r) for r in ranks]


def rate_games(
    games: Iterable[Mapping[str, Any]],
    initial: Mapping[str, Rating] | None = None,
) -> dict[str, Rating]:
    """Fold chronological finished games into ratings (every player who appears gets one).

    ``initial`` continues from earlier ratings (folding ``a + b`` equals folding ``b`` from the result of
    ``a``). Games with fewer than two players change nothing.
    """
    model = make_model()
    ratings: dict[str, Rating] = dict(initial or {})
    for game in games:
        players, ranks = _check(game)
        if len(players) < 2:
            continue
        current = [ratings.get(p) or initial_rating() for p in players]
        orders = strict_orders(ranks)
        mus: list[list[float]] = [[] for _ in players]
        sigmas: list[list[float]] = [[] for _ in players]
        for order in orders:
            teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in current]
            for i, (after,) in enumerate(model.rate(teams, ranks=order)):
                mus[i].append(after.mu)
                sigmas[i].append(after.sigma)
        for i, (p, before) in enumerate(zip(players, current)):
            # fsum is exactly rounded, so tied equals (same values, other order) get identical ratings
            mu, sigma = math.fsum(mus[i]) / len(orders), math.fsum(sigmas[i]) / len(orders)
            ratings[p] = Rating(mu=mu, sigma=sigma, games=before.games + 1)
    return ratings


def strict_orders(ranks: list[float]) -> list[list[float]]:
    """The strict rank vectors (0 = best) over which a game with ties is averaged (module docstring).

    Without ties this is the single order of ``ranks``; otherwise ``lcm`` of the tie-group sizes orders,
    each rotating every group by one more step.
    """
    groups: dict[float, list[int]] = {}
    for seat in sorted(range(len(ranks)), key=lambda i: (ranks[i], i)):
        groups.setdefault(ranks[seat], []).append(seat)
    count = math.lcm(*(len(g) for g in groups.values())) if groups else 1
    orders = []
    for step in range(count):
        order = [0.0] * len(ranks)
        place = 0
        for group in groups.values():
            for j, seat in enumerate(group):
                order[seat] = float(place + (j + step) % len(group))
            place += len(group)
        orders.append(order)
    return orders


def leaderboard(ratings: Mapping[str, Rating], limit: int | None = None) -> list[LeaderboardRow]:
    """Rows by ordinal descending, then player id ascending; at most ``limit`` rows (all when None)."""
    if limit is not None and limit < 0:
        raise ValueError("limit must be >= 0")
    ordered = sorted(ratings.items(), key=lambda item: (-item[1].ordinal, item[0]))
    if limit is not None:
        ordered = ordered[:limit]
    return [LeaderboardRow(player=p, mu=r.mu, sigma=r.sigma, ordinal=r.ordinal, games=r.games) for p, r in ordered]


RATED_PAGE = 1000
STAMPS = "rated_stamps"  # per game type: a new random stamp each time its rated games change (``rated_changed``)


def rated_games(store: DocumentStore, game_type: str) -> list[dict[str, Any]]:
    """Every finished rated game of ``game_type`` as recorded by the game service (``rated:<type>`` documents),
    oldest first."""
    return sorted((doc for _, doc in _rated_by_key(store, game_type)), key=lambda d: d["finished_at"])


def _rated_by_key(store: DocumentStore, game_type: str) -> list[tuple[str, dict[str, Any]]]:
    """(game id, document) of every rated game of ``game_type`` in key order, read page by page (each page after
    the last key read, so a game recorded meanwhile shifts none)."""
    found: list[tuple[str, dict[str, Any]]] = []
    after = None
    while page := store.list_documents(f"rated:{game_type}", limit=RATED_PAGE, after=after):
        found.extend(page)
        after = page[-1][0]
    return found


def rated_changed(store: DocumentStore, game_type: str) -> None:
    """Say, once a rated game of ``game_type`` was recorded or retracted, that its ratings changed: the ratings
    any process keeps (``current_ratings``) are brought up to date at their next read."""
    store.put_document(STAMPS, game_type, {"stamp": uuid.uuid4().hex})


@dataclass(frozen=True)
class _Kept:
    """A game type's ratings as this process last folded them."""

    stamp: str
    at: float  # when (``time.monotonic``)
    folded: dict[str, Any]  # game id -> its document's generation and finish, for every game folded
    last: float  # the latest ``finished_at`` folded
    ratings: dict[str, Rating]


# Per store and game type, what this process keeps.
_KEPT: weakref.WeakKeyDictionary[Any, dict[str, _Kept]] = weakref.WeakKeyDictionary()
_KEPT_LOCK = threading.Lock()
# How long kept ratings serve at most, whatever the stamp says: a stamp whose write failed after its game was
# recorded (a store that went away between the two writes) leaves a leaderboard behind for this long, not for good.
KEPT_SECONDS = 60.0
_GONE = object()


def current_ratings(store: DocumentStore, game_type: str) -> tuple[int, dict[str, Rating]]:
    """How many rated games ``game_type`` has, and the ratings they fold to. Kept by this process while the type's
    stamp stays, ``KEPT_SECONDS`` at most (a leaderboard read is then one document read); brought up to date from
    the kept ratings when games were only added, after every game kept (``_fold``). The stamp is read before the
    games, so a game recorded meanwhile is at worst read again at the next read. Without a stamp (games rated
    before stamps were written), every read folds them all."""
    found = store.get_document(STAMPS, game_type)
    stamp = found.get("stamp") if found else None
    now = time.monotonic()
    kept = _KEPT.get(store, {}).get(game_type) if stamp else None
    if kept is not None and kept.stamp == stamp and now - kept.at < KEPT_SECONDS:
        return len(kept.folded), kept.ratings
    folded, last, ratings = _fold(_rated_by_key(store, game_type), kept)
    if stamp:
        with _KEPT_LOCK:
            _KEPT.setdefault(store, {})[game_type] = _Kept(stamp, now, folded, last, ratings)
    return len(folded), ratings


def _fold(
    keyed: list[tuple[str, dict[str, Any]]], kept: _Kept | None
) -> tuple[dict[str, Any], float, dict[str, Rating]]:
    """(game id -> generation and finish, the latest ``finished_at``, the ratings) of the rated games ``keyed``:
    continued from ``kept`` when every game it folded is still there as it was and every other game finished after
    them all (folding ``a + b`` is folding ``b`` from ``a``'s ratings, and the order is the one a fold of all would
    take), else folded anew (a game retracted, or recorded again after an undo, or finished no later than one
    kept)."""
    folded = {key: (doc.get("generation"), doc["finished_at"]) for key, doc in keyed}
    if kept is not None and all(folded.get(key, _GONE) == was for key, was in kept.folded.items()):
        added = [doc for key, doc in keyed if key not in kept.folded]
        if all(doc["finished_at"] > kept.last for doc in added):
            added.sort(key=lambda d: d["finished_at"])
            return folded, added[-1]["finished_at"] if added else kept.last, rate_games(added, kept.ratings)
    docs = sorted((doc for _, doc in keyed), key=lambda d: d["finished_at"])
    return folded, docs[-1]["finished_at"] if docs else -math.inf, rate_games(docs)
