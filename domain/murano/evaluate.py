"""The heuristic the bots play Murano with (``evaluate``)."""

from __future__ import annotations

from domain.murano import data
from domain.murano.state import SHOP, MuranoState


def evaluate(state: MuranoState, seat: int) -> float:
    """Greedy heuristic: VP + gold/3 + rough values of tiles in hand, beads, gondoliers and cards, relative to the
    best opponent."""

    def worth(s: int) -> float:
        w = state.vp[s] + state.gold[s] / 3.0
        for kind, _face in state.hand[s]:
            w += data.BUILD_VP[kind] * 0.6 + (0.5 if kind == SHOP else 0)
        w += sum(state.beads[s]) * 1.5
        w += sum(1 for o in state.gondolas if o == s) * 1.5
        w += len(state.chars[s]) * 3.0 + len(state.specials[s]) * 1.0
        return w

    mine = worth(seat)
    others = [worth(s) for s in range(state.n) if s != seat]
    return mine - (max(others) if others else 0.0)
