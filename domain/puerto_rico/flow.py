"""The cursor: after each event, move to the next point that needs a decision or an automatic event,
skipping steps that offer nothing (rules file §11, "auto-resolve when").

Section (§) and ruling (D, Q) numbers are those of docs/rules/puerto_rico.md.
"""

from __future__ import annotations

from . import queries as q
from .state import BUILDER, CAPTAIN, MAYOR, PICK, ROUND_END, SETTLER, TRADER, PRState


def end_role(s: PRState) -> None:
    s.picks += 1
    s.role = ""
    s.turns_done = 0
    if s.picks >= s.picks_per_round:
        s.phase = ROUND_END
        s.step = "round_end"
        s.current = s.governor
    else:
        s.phase = PICK
        s.step = "pick"
        s.current = (s.picker + 1) % s.n


def _next_player(s: PRState) -> bool:
    """Move to the next player of a one-pass phase; True when every player has had a turn."""
    s.turns_done += 1
    s.current = (s.current + 1) % s.n
    return s.turns_done >= s.n


# ---------------------------------------------------------------- cursor settling per phase


def _settle_settler(s: PRState) -> None:
    while True:
        step = s.step
        if step == "hacienda":
            if q.hacienda_ok(s, s.current):
                return
            s.step = step = "take"
        if step == "take":
            if q.take_options(s, s.current):
                return
            s.took = -1
            s.step = step = "hospice"
        if step == "hospice":
            if q.hospice_ok(s, s.current):
                return
            s.step = step = "done"
        if step == "done":
            s.took = -1
            if not _next_player(s):
                s.step = "hacienda"
                continue
            s.current = s.picker
            s.step = step = "discard"
        if step == "discard":
            if any(s.face_up):
                return
            s.step = step = "refill"
        if step == "refill":
            need = s.n + 1 - sum(s.face_up)
            if need > 0 and (s.stack or any(s.discard)):
                return
            end_role(s)
        return


def _settle_mayor(s: PRState) -> None:
    while True:
        step = s.step
        if step == "privilege":
            if s.colonist_supply > 0:
                return
            s.step = step = "distribute"
        if step == "distribute":
            if s.colonist_ship > 0:
                return
            s.step = step = "arrange"
            s.current = s.picker
            s.turns_done = 0
        if step == "arrange":
            if s.players[s.current].colonists() > 0:
                return
            s.step = step = "next"
        if step == "place":
            if s.players[s.current].san_juan > 0:
                return
            s.step = step = "next"
        if step == "next":
            if not _next_player(s):
                s.step = "arrange"
                continue
            s.current = s.picker
            s.step = "refill_ship"
        return


def _settle_builder(s: PRState) -> None:
    while True:
        step = s.step
        if step == "build":
            if q.build_options(s, s.current):
                return
            s.step = step = "next"
        if step == "university":
            if q.university_ok(s, s.current):
                return
            s.step = step = "next"
        if step == "next":
            s.built = -1
            if _next_player(s):
                end_role(s)
                return
            s.step = "build"


def _settle_trader(s: PRState) -> None:
    while True:
        if len(s.trading_house) >= 4:
            s.step = "empty_house"
            s.current = s.picker
            return
        if s.step == "sell":
            if q.sell_options(s, s.current):
                return
        if _next_player(s):
            end_role(s)
            return
        s.step = "sell"


def start_storage(s: PRState) -> None:
    s.step = "store"
    s.current = s.picker
    s.turns_done = 0
    s.protected = []


def _settle_captain(s: PRState) -> None:
    if s.step == "load":
        while not q.has_load_option(s, s.current):
            s.no_load += 1
            if s.no_load >= s.n:
                start_storage(s)
                break
            s.current = (s.current + 1) % s.n
        else:
            return
    while True:
        step = s.step
        if step == "store":
            p = s.players[s.current]
            k = q.storage_capacity(p)
            held = sum(1 for g in p.goods if g > 0)
            if held > k:
                s.step = "warehouse" if len(s.protected) < k else "windrose"
                return
            s.step = step = "store_next"
        if step in ("warehouse", "windrose"):
            return
        if step == "store_next":
            s.protected = []
            if _next_player(s):
                s.current = s.picker
                s.step = "unload"
                return
            s.step = "store"
            continue
        return


_SETTLERS = {
    SETTLER: _settle_settler,
    MAYOR: _settle_mayor,
    BUILDER: _settle_builder,
    TRADER: _settle_trader,
    CAPTAIN: _settle_captain,
}


def settle(s: PRState) -> None:
    fn = _SETTLERS.get(s.phase)
    if fn is not None:
        fn(s)
