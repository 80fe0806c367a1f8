"""The bots' heuristic for Archipelago: score lead, economy and the colony's safety.

Section (§) and ruling (D, Q) numbers are those of docs/rules/archipelago.md.
"""

from __future__ import annotations

from operator import itemgetter

from domain.archipelago import data as D
from domain.archipelago.scoring import declarable_among, result, score_totals, seat_stats
from domain.archipelago.state import ArchState, lying_count, objectives_in_play, population


def projected_rebellion(st: ArchState) -> int:
    """Rebellion after the open crisis resolves and the next Phase 3 (a rough forecast for the heuristic)."""
    reb = st.reb
    c = st.crisis
    if c is not None:
        part = c.get("part")
        if part == "DOM":
            reb += -(-lying_count(st) // c["divisor"])
        elif part == "EXP":
            reb += sum(1 for u in c["units"] if not u["met"])
    glut = stocked = 0  # domestic rows glutted, and rows with a cube
    glut_at, dom = D.GLUT_THRESHOLD, st.dom
    for r in D.RESOURCES:
        k = dom[r]
        if k > 0:
            stocked += 1
            if k >= glut_at:
                glut += 1
    if glut:
        reb += min(glut, D.P3_GLUT_MAX_REB)
    elif stocked >= D.P3_CONTENT_ROWS:
        reb -= 1
    for threshold, up in D.P3_SURPLUS_STEPS:
        if st.sur >= threshold:
            reb += up
            break
    return max(0, reb)


# ``peril``: the chance of independence the bots weigh in, from the colony's projected margin (``colony_margin``):
# none at PERIL_SAFE_MARGIN or more, then PERIL_STEP more for each point less, at most PERIL_MAX (below 1, so that
# positions in great danger still differ by what the seats hold). Checked against play with
# ``python benchmarks/archipelago_peril.py 80`` (3 players, ``easy`` in every seat, seeds 5000-5079: 12 of 80
# games ended in independence). The share of positions (margin at the start of a Phase 5) in games that were
# lost to independence: margin 12 or more 0.13, 7 to 11 0.13-0.27, 6 0.18 (whatever the margin, about one game
# in six falls later), 5 0.45, 4 0.60, 3 0.75, 2 or less 0.8-1.0 (3-11 positions each). Above that base rate of
# about 0.17: 0.34, 0.52, 0.70 and about 1 at margins 5, 4, 3 and 2, which a quarter a point fits.
PERIL_SAFE_MARGIN = 6
PERIL_STEP = 0.25
PERIL_MAX = 0.95


def colony_margin(st: ArchState) -> int:
    """Population less the projected rebellion: below 0, the colony falls at the next rises."""
    return population(st) - projected_rebellion(st)


def peril_at(margin: int) -> float:
    """The chance of independence ``peril`` gives a colony with this projected margin."""
    return min(PERIL_MAX, max(0.0, (PERIL_SAFE_MARGIN - margin) * PERIL_STEP))


def peril(st: ArchState) -> tuple[float, tuple[int, ...]]:
    """The chance (``peril_at`` the ``colony_margin``) that the game ends in independence, which every seat loses
    but the holder of the Separatist, who wins it (§12.1)."""
    if st.phase == "OVER":
        return 0.0, ()
    chance = peril_at(colony_margin(st))
    if not chance:
        return 0.0, ()
    # the holders the independence check names winner (``flow.check_loss``)
    return chance, tuple(s for s, oid in objectives_in_play(st) if s is not None and oid in _SEPARATIST)


OPEN_OFFER_COST = 0.25  # what evaluate takes off while the seat's own trade offer is open (unanswered)
# What a bot charges itself for each trade-offer command that asks something of another player (``command_cost``):
# opening an offer and adding an item to it. Each makes a person at the table stop and answer, and an offer only
# pays once accepted, so a bot opens one only when the trade is worth clearly more than the asking (an offer
# opened and cancelled again, or items added and taken back with a cancel, cost their price: no idle offers).
# In evaluate's units (3 a point of score lead, 0.3 a coin). Tuned: with 0.5 an item, medium (3 players, 12 games
# against easy) still filled offers it then cancelled in one game of 12 (55 items); with 1.0 an item, in the
# first 6 of those deals it made one offer (one item, sent) and no idle ones.
OFFER_COMMAND_COST = {"offer_open": 1.0, "offer_add": 1.0}


# What some commands add to ``evaluate`` for the seat that plays them, known without playing them
# (``Rules.evaluation_change``: the bots' look-ahead scores them from the position before them). Opening a trade
# offer (legal only while none is open, on the seat's turn) changes nothing ``heuristic`` reads and starts the
# OPEN_OFFER_COST. An item added to the open offer and the offer sent change nothing it reads
# (``_with_offer_cost`` reads only whether an offer is open), nor does a unit assigned to a harvest icon (the unit's
# place and engagement, the icon's occupant and the step change; the cubes come with ``harvest_done``; a housed
# unit cannot harvest, so no building loses its occupant). The other seats' values do not change either. Not with
# AUTO_END (§12.2): after any event the game ends once an objective's condition is true, and in a determinized
# position (the other seats' objectives drawn again) one may be true already, so any command may end the game.
EVALUATION_CHANGE = {"offer_open": -OPEN_OFFER_COST, "offer_add": 0.0, "offer_send": 0.0, "harvest_assign": 0.0}


def evaluation_change(st: ArchState, command: dict) -> float | None:
    """``EVALUATION_CHANGE`` of the command's type, or ``None`` (always with AUTO_END)."""
    if st.options.get("auto_end"):
        return None
    return EVALUATION_CHANGE.get(command.get("type", ""))


def command_cost(command: dict) -> float:
    """What a bot charges itself for ``command`` beyond its effect on the position (``OFFER_COMMAND_COST``)."""
    return OFFER_COMMAND_COST.get(command.get("type", ""), 0.0)


def evaluate(st: ArchState, seat: int) -> float:
    """``heuristic``, less a small cost for a trade offer the seat has open: an offer only pays once answered,
    so a bot opens one when a search finds it worth it, never on a tie. Bots play out the seat's own open step
    before scoring (``domain.bots.lookahead``)."""
    return _with_offer_cost(st, seat, heuristic(st, seat))


def evaluate_all(st: ArchState) -> list[float]:
    """``evaluate`` for every seat, with what the seats share (counts, scores, the colony's margin) computed once."""
    shared = _Shared(st) if st.phase != "OVER" else None
    return [_with_offer_cost(st, seat, heuristic(st, seat, shared)) for seat in range(st.n)]


def _with_offer_cost(st: ArchState, seat: int, value: float) -> float:
    if st.offer is not None and st.turn is not None and st.turn.get("seat") == seat:
        value -= OPEN_OFFER_COST
    return value


_SEPARATIST = frozenset(oid for oid, o in D.OBJECTIVES.items() if o.special == "SEPARATIST")
_CITIZENS = itemgetter("CITIZENS")


class _Shared:
    """What ``heuristic`` needs of a position for every seat alike."""

    __slots__ = ("stats", "totals", "margin")

    def __init__(self, st: ArchState) -> None:
        self.stats = stats = seat_stats(st)
        self.totals = score_totals(st, stats)
        pop = sum(map(_CITIZENS, stats))  # population(st), from the counts at hand
        self.margin = pop - projected_rebellion(st)


def heuristic(st: ArchState, seat: int, shared: _Shared | None = None) -> float:
    """Greedy heuristic: score lead, economy and the colony's safety (independence loses for all)."""
    if st.phase == "OVER":
        end = st.end or {}
        if end.get("cause") == "INDEPENDENCE":
            return 1000.0 if end.get("winner") == seat else -1000.0
        res = result(st)
        return 500.0 if res.ranks[seat] == 1 else -100.0 * (res.ranks[seat] - 1)
    if shared is None:
        shared = _Shared(st)
    p = st.players[seat]
    totals = shared.totals
    mine = totals[seat]
    best_other = 0  # the best of the others' totals (a score is never negative: 0 is also that of a lone seat)
    for s, total in enumerate(totals):  # a loop: cheaper than max() of a slice
        if s != seat and total > best_other:
            best_other = total
    margin = shared.margin
    held = st.objectives[seat] if st.objectives else []
    safety = 0.6 * min(margin, 12) - (0.0 if margin > 6 else (7 - margin) ** 2 * 1.2)
    if not _SEPARATIST.isdisjoint(held):
        safety = -0.3 * safety
    stats = shared.stats[seat]
    units = stats["CITIZENS"] + stats["SHIPS"]
    mine_b = stats["BUILDINGS"]
    money = p["money"] - st.bids.get(seat, 0)  # a placed bid is money already committed
    val = (
        3.0 * (mine - best_other)
        + 0.3 * money
        + 0.45 * sum(p["cubes"].values())
        + 0.5 * p["tokens"]
        + 1.3 * units
        + 1.5 * mine_b
        + 1.0 * len(p["track"])
        + 0.8 * p["ad_total"]
        + safety
    )
    if mine >= best_other:
        for _ in declarable_among(st, held):
            val += 3.0
    return val
