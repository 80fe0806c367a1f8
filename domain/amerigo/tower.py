"""The cube tower (§8): a pluggable stochastic model. Results are always recorded in events.

Section (§) and ruling (D, Q) numbers are those of docs/rules/amerigo.md.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .data import TOWER_CAPACITY, TOWER_P_STICK, TOWER_Q_RELEASE


class TowerModel:
    """``drop(rng, tower, batch) -> (out, tower_after)``; ``tower`` is oldest first."""

    def drop(self, rng: random.Random, tower: Sequence[int], batch: Sequence[int]) -> tuple[list[int], list[int]]:
        raise NotImplementedError


class StochasticTower(TowerModel):
    """Stuck cubes are released with probability q; dropped cubes stick with probability p (capacity cap)."""

    def __init__(
        self, p_stick: float = TOWER_P_STICK, q_release: float = TOWER_Q_RELEASE, capacity: int = TOWER_CAPACITY
    ) -> None:
        self.p = p_stick
        self.q = q_release
        self.capacity = capacity

    def drop(self, rng: random.Random, tower: Sequence[int], batch: Sequence[int]) -> tuple[list[int], list[int]]:
        out: list[int] = []
        kept: list[int] = []
        q, p, cap = self.q, self.p, self.capacity
        for cube in tower:
            if rng.random() < q:
                out.append(cube)
            else:
                kept.append(cube)
        for cube in batch:
            u = rng.random()
            if u < p and len(kept) < cap:
                kept.append(cube)
            else:
                out.append(cube)
        return out, kept


class ScriptedTower(TowerModel):
    """Test helper: returns the scripted results in order, then behaves like ``fallback``."""

    def __init__(self, results: list[tuple[list[int], list[int]]], fallback: TowerModel | None = None) -> None:
        self.results = list(results)
        self.fallback = fallback or StochasticTower()

    def drop(self, rng: random.Random, tower: Sequence[int], batch: Sequence[int]) -> tuple[list[int], list[int]]:
        if self.results:
            out, after = self.results.pop(0)
            return list(out), list(after)
        return self.fallback.drop(rng, tower, batch)


DEFAULT_TOWER = StochasticTower()
