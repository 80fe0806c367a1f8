"""The small helpers of ``domain.game`` the games share."""

from __future__ import annotations

from domain.game import keep, rank_by, relative_to_best_other


def test_keep_stores_and_returns_and_empties_when_full():
    kept: dict[str, int] = {}
    assert keep(kept, "a", 1, 2) == 1
    assert keep(kept, "b", 2, 2) == 2
    assert kept == {"a": 1, "b": 2}
    assert keep(kept, "c", 3, 2) == 3  # full: emptied first, so at most ``limit`` are held
    assert kept == {"c": 3}


def test_relative_to_best_other_and_rank_by():
    assert relative_to_best_other([5.0, 3.0, 4.0]) == [1.0, -2.0, -1.0]
    assert relative_to_best_other([2.0]) == [2.0]
    assert rank_by([(10, 1), (12, 0), (10, 1), (10, 3)]) == [3, 1, 3, 2]
