"""The assembled island area (§5): tiles, validation, islands, anchors, frame and sailing distances.

A ``Board`` is immutable and derived only from ``(seats, sel, rots)``; states hold a reference to it.
Boards are memoised, compare by their key and pickle as their key. Sailing distances are computed lazily
per source and cached inside the board (a pure cache).

Section (§) and ruling (D, Q) numbers are those of docs/rules/amerigo.md.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

from domain.game import keep

from .data import (
    BIG_ISLAND_MIN_LAND,
    COMMODITY_INDEX,
    MAX_CHESTS,
    TILE_GRID_BY_PLAYERS,
    TILE_IDS,
    TILE_SIZE,
    TILES,
    WATER_CHARS,
)

# How many sets of sources a board keeps the distances of (``Board.distances_from``): a search's working set is a
# few dozen.
SOURCE_SETS_KEPT = 256


@lru_cache(maxsize=128)
def rotated(tile: str, quarter_turns: int) -> tuple[str, ...]:
    return rotate_tile(TILES[tile], quarter_turns)


def rotate_tile(rows: tuple[str, ...], quarter_turns: int) -> tuple[str, ...]:
    """Rotate a tile clockwise: one quarter turn maps local (r, c) to (c, 5 - r)."""
    grid = [list(r) for r in rows]
    n = TILE_SIZE
    for _ in range(quarter_turns % 4):
        new = [[""] * n for _ in range(n)]
        for r in range(n):
            for c in range(n):
                new[c][n - 1 - r] = grid[r][c]
        grid = new
    return tuple("".join(r) for r in grid)


def _assemble(seats: int, sel: tuple[str, ...], rots: tuple[int, ...]) -> list[str]:
    w, h = TILE_GRID_BY_PLAYERS[seats]
    rows = [[""] * (w * TILE_SIZE) for _ in range(h * TILE_SIZE)]
    for i, (tile, rot) in enumerate(zip(sel, rots)):
        tx, ty = i % w, i // w
        grid = rotated(tile, rot)
        for r in range(TILE_SIZE):
            for c in range(TILE_SIZE):
                rows[ty * TILE_SIZE + r][tx * TILE_SIZE + c] = grid[r][c]
    return ["".join(r) for r in rows]


def layout_is_valid(seats: int, sel: tuple[str, ...], rots: tuple[int, ...]) -> bool:
    """§5.3 step 3: no enclosed water, no diagonal-only land contact."""
    grid = _assemble(seats, sel, rots)
    nr, nc = len(grid), len(grid[0])
    land = [[ch not in WATER_CHARS for ch in row] for row in grid]
    for r in range(nr - 1):
        for c in range(nc - 1):
            a, b, d, e = land[r][c], land[r][c + 1], land[r + 1][c], land[r + 1][c + 1]
            if a and e and not b and not d:
                return False
            if b and d and not a and not e:
                return False
    seen = [[False] * nc for _ in range(nr)]
    queue: deque[tuple[int, int]] = deque()
    for r in range(nr):
        for c in range(nc):
            if (r in (0, nr - 1) or c in (0, nc - 1)) and not land[r][c]:
                seen[r][c] = True
                queue.append((r, c))
    while queue:
        r, c = queue.popleft()
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < nr and 0 <= cc < nc and not land[rr][cc] and not seen[rr][cc]:
                seen[rr][cc] = True
                queue.append((rr, cc))
    return all(seen[r][c] or land[r][c] for r in range(nr) for c in range(nc))


def draw_layout(rng: random.Random, seats: int) -> tuple[list[str], list[int]]:
    """§4.1 step 1: draw selection and rotations until the layout is valid."""
    w, h = TILE_GRID_BY_PLAYERS[seats]
    while True:
        sel = rng.sample(sorted(TILE_IDS), w * h)
        rots = [rng.randrange(4) for _ in sel]
        if layout_is_valid(seats, tuple(sel), tuple(rots)):
            return sel, rots


class Board:
    """Static geometry of one assembled island area."""

    def __init__(self, seats: int, sel: tuple[str, ...], rots: tuple[int, ...]) -> None:
        self.key = (seats, tuple(sel), tuple(rots))
        self.seats = seats
        w, h = TILE_GRID_BY_PLAYERS[seats]
        self.w, self.h = w, h
        self.nrows, self.ncols = h * TILE_SIZE, w * TILE_SIZE
        nr, nc = self.nrows, self.ncols
        self.nsq = nr * nc
        grid = _assemble(seats, tuple(sel), tuple(rots))
        self.grid = "".join(grid)
        g = self.grid
        self.land = tuple(ch not in WATER_CHARS for ch in g)
        self.is_tp = tuple(ch == "T" for ch in g)
        self.is_anchor = tuple(ch == "A" for ch in g)
        self.commodity = tuple(COMMODITY_INDEX.get(ch, -1) for ch in g)
        # anchor <-> trading-post links (same tile, orthogonally adjacent)
        anchor_tp: dict[int, int] = {}
        for sq in range(self.nsq):
            if not self.is_anchor[sq]:
                continue
            r, c = divmod(sq, nc)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if (
                    0 <= rr < nr
                    and 0 <= cc < nc
                    and rr // TILE_SIZE == r // TILE_SIZE
                    and cc // TILE_SIZE == c // TILE_SIZE
                ):
                    if self.is_tp[rr * nc + cc]:
                        anchor_tp[sq] = rr * nc + cc
        self.anchor_tp = anchor_tp
        self.tp_anchor = {t: a for a, t in anchor_tp.items()}
        # orthogonal neighbours
        nbrs: list[tuple[int, ...]] = []
        for sq in range(self.nsq):
            r, c = divmod(sq, nc)
            out = []
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < nr and 0 <= cc < nc:
                    out.append(rr * nc + cc)
            nbrs.append(tuple(out))
        self.land_adj = tuple(
            tuple(x for x in nbrs[sq] if self.land[x]) if self.land[sq] else () for sq in range(self.nsq)
        )
        # islands
        island_of = [-1] * self.nsq
        islands: list[tuple[int, ...]] = []
        for sq in range(self.nsq):
            if self.land[sq] and island_of[sq] < 0:
                iid = len(islands)
                island_of[sq] = iid
                comp = [sq]
                stack = [sq]
                while stack:
                    x = stack.pop()
                    for y in self.land_adj[x]:
                        if island_of[y] < 0:
                            island_of[y] = iid
                            comp.append(y)
                            stack.append(y)
                islands.append(tuple(sorted(comp)))
        self.island_of = tuple(island_of)
        self.islands = tuple(islands)
        self.island_size = tuple(len(i) for i in islands)
        self.island_big = tuple(s >= BIG_ISLAND_MIN_LAND for s in self.island_size)
        big = [i for i in range(len(islands)) if self.island_big[i]]
        big.sort(key=lambda i: (-self.island_size[i], i))
        self.chest_islands = tuple(sorted(big[:MAX_CHESTS]))
        self.island_tps = tuple(tuple(sq for sq in isl if self.is_tp[sq]) for isl in islands)
        # frame: F[i] ids go clockwise from the north-west
        self.nframe = 2 * w + 2 * h
        frame_edges: list[tuple[int, ...]] = []
        for i in range(w):
            frame_edges.append(tuple(0 * nc + c for c in range(6 * i, 6 * i + 6)))
        for j in range(h):
            frame_edges.append(tuple(r * nc + (nc - 1) for r in range(6 * j, 6 * j + 6)))
        for k in range(w):
            tx = w - 1 - k
            frame_edges.append(tuple((nr - 1) * nc + c for c in range(6 * tx, 6 * tx + 6)))
        for k in range(h):
            ty = h - 1 - k
            frame_edges.append(tuple(r * nc + 0 for r in range(6 * ty, 6 * ty + 6)))
        self.frame_edges = tuple(frame_edges)
        # sailing graph: nodes 0..nsq-1 are board squares (water only used), nsq+i is frame space i
        adj: list[list[int]] = [[] for _ in range(self.nsq + self.nframe)]
        for sq in range(self.nsq):
            if not self.land[sq]:
                adj[sq].extend(x for x in nbrs[sq] if not self.land[x])
        nf = self.nframe
        for i in range(nf):
            node = self.nsq + i
            adj[node].append(self.nsq + (i + 1) % nf)
            adj[node].append(self.nsq + (i - 1) % nf)
            for sq in frame_edges[i]:
                if not self.land[sq]:
                    adj[node].append(sq)
                    adj[sq].append(node)
        self.adj = tuple(tuple(dict.fromkeys(a)) for a in adj)
        self._dist: dict[int, tuple[list[int], list[list[int]], list[bool]]] = {}
        self._from: dict[frozenset[int], list[int]] = {}
        self.node_rc = tuple(divmod(n, nc) if n < self.nsq else None for n in range(self.nsq + self.nframe))

    # -- sailing --------------------------------------------------------------------------------------
    def distances(self, source: int) -> list[int]:
        """Sailing distance from ``source`` to every node (-1 = unreachable or land)."""
        self.rings(source, self.nsq + self.nframe)
        return self._dist[source][0]

    def distances_from(self, sources: Iterable[int]) -> list[int]:
        """Sailing distance from the nearest of ``sources`` to every node (-1 = unreachable or land): one
        breadth-first search from all of them at once (sailing is symmetric: the distance to the nearest source
        is the distance from it). Kept by the set of sources: a search asks for the same few sets (the open
        anchors, which change only when a post is founded) thousands of times. The list is shared: read it, never
        change it."""
        key = frozenset(sources)
        found = self._from.get(key)
        if found is not None:
            return found
        dist = [-1] * (self.nsq + self.nframe)
        ring = list(key)
        for x in ring:
            dist[x] = 0
        adj = self.adj
        d = 0
        while ring:
            d += 1
            nxt = []
            for x in ring:
                for y in adj[x]:
                    if dist[y] < 0:
                        dist[y] = d
                        nxt.append(y)
            ring = nxt
        return keep(self._from, key, dist, SOURCE_SETS_KEPT)

    def distance(self, source: int, target: int, limit: int) -> int:
        """Sailing distance if it is at most ``limit``, else -1."""
        self.rings(source, limit)
        d = self._dist[source][0][target]
        return d if 0 <= d <= limit else -1

    def rings(self, source: int, depth: int) -> list[list[int]]:
        """Nodes by sailing distance: ``rings[d]`` lists the nodes at distance d, explored to at least ``depth``
        (fewer rings only when nothing lies further). Breadth-first search, extended lazily and cached."""
        entry = self._dist.get(source)
        if entry is None:
            dist = [-1] * (self.nsq + self.nframe)
            dist[source] = 0
            entry = (dist, [[source]], [False])
            self._dist[source] = entry
        dist, rings, complete = entry
        if complete[0] or len(rings) > depth:
            return rings
        adj = self.adj
        d = len(rings)
        while d <= depth:
            nxt = []
            for x in rings[-1]:
                for y in adj[x]:
                    if dist[y] < 0:
                        dist[y] = d
                        nxt.append(y)
            if not nxt:
                complete[0] = True
                break
            rings.append(nxt)
            d += 1
        return rings

    def frame_node(self, i: int) -> int:
        return self.nsq + i

    def node_json(self, node: int) -> dict[str, int]:
        rc = self.node_rc[node]
        if rc is None:
            return {"frame": node - self.nsq}
        return {"r": rc[0], "c": rc[1]}

    def square_json(self, sq: int) -> dict[str, int]:
        r, c = divmod(sq, self.ncols)
        return {"r": r, "c": c}

    # -- identity -------------------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __reduce__(self) -> tuple[Callable[..., Board], tuple[Any, ...]]:
        return (get_board, self.key)

    def __repr__(self) -> str:
        return f"Board{self.key!r}"


@lru_cache(maxsize=256)
def get_board(seats: int, sel: tuple[str, ...], rots: tuple[int, ...]) -> Board:
    return Board(seats, tuple(sel), tuple(rots))
