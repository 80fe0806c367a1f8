"""Helpers of the legal-command generators (``legal``, ``legal_turn``): field values and rule predicates."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from domain.archipelago import data as D
from domain.archipelago.checks import (
    token_options,
)
from domain.archipelago.state import (
    ArchState,
    owns,
)

Command = dict
Generator = Callable[[ArchState, int, str], list[Command]]


# ---------------------------------------------------------------------------------------------------- helpers
def pos_json(p: tuple[int, int]) -> dict[str, int]:
    return {"q": p[0], "r": p[1]}


def units_of(st: ArchState, seat: int, kind: str | None = None) -> list[str]:
    out = [u for u, x in st.units.items() if x["owner"] == seat and (kind is None or x["kind"] == kind)]
    out.sort()
    return out


# action -> the cards used with it (``WITH:<action>``) and whether each is shareable, in the order of ``D.CARDS``
_WITH_CARDS: dict[str, list[tuple[str, bool]]] = {}
for _card_id, _card in D.CARDS.items():
    if _card.use and _card.use.startswith("WITH:"):
        _WITH_CARDS.setdefault(_card.use[len("WITH:") :], []).append((_card_id, _card.shareable))


def with_sets(st: ArchState, seat: int, action: str) -> list[tuple[list[str], int]]:
    """Every accepted ``with`` list of a wheel action and the number of shared-card fees it costs."""
    owners = {c: s for s, p in enumerate(st.players) for c in p["track"]}  # card_owner (a card is in one track)
    usable: list[tuple[str, bool]] = []
    for c, shareable in _WITH_CARDS.get(action, ()):
        if c not in st.card_used:
            owner = owners.get(c)
            if owner == seat or (owner is not None and shareable):
                usable.append((c, owner != seat))
    money = st.players[seat]["money"]
    if not usable:  # no card to add: the action alone
        return [([], 0)] if money >= 0 else []
    out: list[tuple[list[str], int]] = []
    for k in range(len(usable) + 1):
        for combo in combinations(usable, k):
            fees = sum(1 for _, shared in combo if shared)
            if fees <= money:
                out.append(([c for c, _ in combo], fees))
    return out


def wheel_free(st: ArchState, seat: int) -> bool:
    turn = st.turn  # not through turn_of: a call fewer for each wheel action's generator
    assert turn is not None, "no turn is open"
    return not turn["action"] and st.players[seat]["ad_avail"] >= 1


def explore_picks(st: ArchState, seat: int) -> list[tuple[str, list[str]]]:
    """(pick, with) pairs that ``actions.explore_open`` accepts."""
    owned = owns(st, seat, "C12")
    cart = owned and "C12" not in st.card_used
    out: list[tuple[str, list[str]]] = []
    for pick in ("TOP", "SECOND"):
        for cards in ([], ["C12"]) if owned else ([],):
            if cards and (pick == "SECOND" or not cart):
                continue
            need = 2 if pick == "SECOND" and not cards else 1
            if len(st.stack) >= need:
                out.append((pick, cards))
    return out


def payable(st: ArchState, seat: int, cubes: dict[str, int], money: int) -> list[dict[str, int]]:
    """Every ``tokens`` split that pays ``cubes`` and ``money`` (``checks.check_payment`` accepts it)."""
    if st.players[seat]["money"] < money:
        return []
    return token_options(st, seat, cubes)
