"""Final scoring (§13, §15): island statistics, character-card values, legal assignments, the optimal
auto-assignment helper, results and the greedy-bot evaluation.

Section (§) and ruling (D, Q) numbers are those of docs/rules/murano.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from domain.game import GameResult, rank_by
from domain.murano import data
from domain.murano.formulas import compile_formula
from domain.murano.queries import geo, seated_at
from domain.murano.state import GLASS_FACTORY, PALACE, SHOP, SPECIAL_BUILDING, STREET, MuranoState

FORMULAS = {card: compile_formula(spec[3]) for card, spec in data.CHARACTERS.items()}


def card_island(card: str) -> str:
    return data.CHARACTERS[card][1]


def allowed(card: str, island: str) -> bool:
    where = card_island(card)
    return where == "ANY" or where == island


def island_env(state: MuranoState, island: int, seat: int) -> dict[str, Any]:
    """The count symbols of §13.2 for one island from the point of view of ``seat``."""
    g = geo(state)
    n = state.n
    gf_of = [0] * n
    sh_of = [0] * n
    sh = {"red": 0, "grey": 0, "blue": 0}
    cu = {"red": 0, "grey": 0, "blue": 0}
    pa = cr = sb = st = st_none = free_s = free_b = 0
    for s in g.island_spaces[island]:
        cell = state.board[s]
        if cell is None:
            if g.paved[s]:
                free_s += 1
            else:
                free_b += 1
            continue
        kind, face, owner = cell
        if kind == STREET:
            st += 1
            customers = data.STREET_FACES[face]
            if not customers:
                st_none += 1
            for colour, count in customers.items():
                cu[colour] += count
        elif kind == GLASS_FACTORY:
            gf_of[owner] += 1
        elif kind == SHOP:
            sh_of[owner] += 1
            sh[face] += 1
        elif kind == PALACE:
            pa += 1
            cr += face
        elif kind == SPECIAL_BUILDING:
            sb += 1
    gf = sum(gf_of)
    total_sh = sum(sh_of)
    env: dict[str, Any] = {
        "GF": gf,
        "GF_own": gf_of[seat],
        "GF_opp": gf - gf_of[seat],
        "GF_of": gf_of,
        "SH": total_sh,
        "SH_own": sh_of[seat],
        "SH_opp": total_sh - sh_of[seat],
        "SH_of": sh_of,
        "PA": pa,
        "CR": cr,
        "SB": sb,
        "BLD": gf + total_sh + pa + sb,
        "OWN": gf_of[seat] + sh_of[seat],
        "OPP": gf - gf_of[seat] + total_sh - sh_of[seat],
        "ST": st,
        "ST_NONE": st_none,
        "CU": sum(cu.values()),
        "FREE_S": free_s,
        "FREE_B": free_b,
        "TYPES": sum(1 for x in (gf, total_sh, pa, sb) if x),
        "OPPONENTS": [q for q in range(n) if q != seat],
    }
    for colour in ("red", "grey", "blue"):
        env[f"SH[{colour}]"] = sh[colour]
        env[f"CU[{colour}]"] = cu[colour]
    return env


def card_value(state: MuranoState, card: str, seat: int, island: int) -> int:
    return FORMULAS[card](island_env(state, island, seat), None)


def free_gondoliers(state: MuranoState, seat: int) -> list[int]:
    """Per island: the scorer's seated gondoliers not yet used for a card."""
    used = state.used if state.used else (0,) * len(geo(state).islands)
    return [seated_at(state, seat, ii) - used[ii] for ii in range(len(geo(state).islands))]


def assign_options(state: MuranoState, seat: int) -> list[tuple[str, int]]:
    g = geo(state)
    free = free_gondoliers(state, seat)
    out = []
    for card in sorted(state.chars[seat]):
        for ii, name in enumerate(g.islands):
            if free[ii] >= 1 and allowed(card, name):
                out.append((card, ii))
    return out


Assignment = tuple[tuple[str, str | None], ...]


def best_assignment(
    cards: Iterable[str],
    free: dict[str, int],
    allowed_fn: Callable[[str, str], bool],
    value: Callable[[str, str], int],
    strict: bool = True,
) -> tuple[int, Assignment] | None:
    """§15 helper: maximise card VP + unused-gondolier VP over the assignments the decisions can produce."""
    isl = sorted(free)
    n = len(isl)
    cards = list(cards)

    @cache
    def go(i: int, caps: tuple[int, ...], must_empty: int) -> tuple[int, Assignment] | None:
        if i == len(cards):
            if any(caps[j] for j in range(n) if must_empty >> j & 1):
                return None
            return (sum(caps), ())
        c = cards[i]
        mask = must_empty
        if strict:
            for j in range(n):
                if allowed_fn(c, isl[j]):
                    mask |= 1 << j
        best: tuple[int, Assignment] | None = None
        r = go(i + 1, caps, mask)
        if r is not None:
            best = (r[0], ((c, None),) + r[1])
        for j in range(n):
            if caps[j] and allowed_fn(c, isl[j]):
                r = go(i + 1, caps[:j] + (caps[j] - 1,) + caps[j + 1 :], must_empty)
                if r is not None and (best is None or r[0] + value(c, isl[j]) > best[0]):
                    best = (r[0] + value(c, isl[j]), ((c, isl[j]),) + r[1])
        return best

    return go(0, tuple(free[i] for i in isl), 0)


def result(state: MuranoState) -> GameResult:
    scores: list[float] = list(state.vp)  # integers; JSON keeps them so
    keys = [(state.vp[s], state.gold[s]) for s in range(state.n)]
    ranks = [1] * state.n if state.aborted else rank_by(keys)
    return GameResult(
        scores=scores,
        ranks=ranks,
        tiebreaks=[state.gold[s] for s in range(state.n)],
        details={"aborted": state.aborted, "tiebreak": "gold"},
        no_winner=state.aborted,
    )
