"""The heuristic the bots play Murano with (``evaluate``, and ``evaluate_all`` for every seat at once)."""

from __future__ import annotations

from domain.game import relative_to_best_other
from domain.murano import data
from domain.murano.state import SHOP, MuranoState


def worth(state: MuranoState, s: int) -> float:
    """VP + gold/3 + rough values of tiles in hand, beads, gondoliers and cards."""
    w = state.vp[s] + state.gold[s] / 3.0
    for kind, _face in state.hand[s]:
        w += data.BUILD_VP[kind] * 0.6 + (0.5 if kind == SHOP else 0)
    w += sum(state.beads[s]) * 1.5
    w += sum(1 for o in state.gondolas if o == s) * 1.5
    w += len(state.chars[s]) * 3.0 + len(state.specials[s]) * 1.0
    return w


def evaluate(state: MuranoState, seat: int) -> float:
    """Greedy heuristic: the seat's ``worth`` relative to the best opponent's."""
    mine = worth(state, seat)
    others = [worth(state, s) for s in range(state.n) if s != seat]
    return mine - max(others)  # a game has 2-4 seats: there is always an opponent


def evaluate_all(state: MuranoState) -> list[float]:
    """``evaluate`` for every seat, each worth computed once."""
    return relative_to_best_other([worth(state, s) for s in range(state.n)])
