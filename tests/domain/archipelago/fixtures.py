"""Scenario builders: a real game advanced to a known point, then arranged for one rule."""

from __future__ import annotations

from domain.archipelago import RULES
from domain.archipelago.evolve import place_tile
from domain.archipelago.state import ArchState, clone
from domain.game import IllegalCommand
from domain.rng import rng_for
from tests.domain.scenario import Scenario


def first_legal_until(st: ArchState, until, limit: int = 3000) -> ArchState:
    for i in range(limit):
        if until(st):
            return st
        seat = sorted(RULES.to_act(st))[0]
        legal = [c for c in RULES.legal_commands(st, seat) if c["type"] != "declare_end"]
        st = RULES.fold(RULES.decide(st, legal[0], seat, rng_for(5, i)), st)
    raise AssertionError("state not reached")


_CACHE: dict = {}


def action_state(seats: int = 3, options: dict | None = None) -> ArchState:
    """A game at the first Phase-5 turn of round 1, with an empty map except the start tile."""
    key = (seats, tuple(sorted((options or {}).items())))
    if key not in _CACHE:
        st = RULES.fold(RULES.setup(42, seats, {"length": "medium", **(options or {})}))
        st = first_legal_until(st, lambda s: s.phase == "ACTIONS" and s.turn is not None)
        _CACHE[key] = st
    st = clone(_CACHE[key])
    return st


def blank_map(st: ArchState) -> ArchState:
    """Remove every exploration tile and unit from the map (they go back to the stack / supplies)."""
    for tid in [t for t in st.tiles if t != st.start]:
        pos = st.tiles[tid]["pos"]
        del st.tiles[tid]
        del st.posmap[pos]
        st.stack.append([tid, "A"])
    for u in list(st.units.values()):
        p = st.players[u["owner"]]
        p["sup_c" if u["kind"] == "C" else "sup_s"] += 1
    st.units = {}
    st.buildings = {}
    st.reb = 0
    st.sur = 0
    return st


def put_tile(st: ArchState, tid: str, q: int, r: int, face: str = "A", rot: int = 0) -> None:
    st.stack = [x for x in st.stack if x[0] != tid]
    for h in st.hands:
        h[:] = [x for x in h if x[0] != tid]
    place_tile(st, tid, (q, r), face, rot)


def put_unit(st: ArchState, seat: int, kind: str, tid: str, uid: str | None = None, **kw) -> str:
    p = st.players[seat]
    p["sup_c" if kind == "C" else "sup_s"] -= 1
    uid = uid or f"{'c' if kind == 'C' else 's'}{seat}-{st.next_unit[seat]}"
    st.next_unit[seat] += 1
    st.units[uid] = {
        "owner": seat,
        "kind": kind,
        "tile": tid,
        "place": "LAND" if kind == "C" else "SEA",
        "lying": False,
        "engaged": False,
        "temp": False,
        **kw,
    }
    return uid


def put_building(st: ArchState, tid: str, btype: str, occupant: str | None = None) -> None:
    from domain.archipelago import data as D

    st.pool[D.BUILDING_POOL_OF[btype]] -= 1
    st.buildings.setdefault(tid, {})[btype] = occupant
    if occupant:
        st.units[occupant]["place"] = f"B:{btype}"


def give_card(st: ArchState, seat: int, card: str) -> None:
    for i, m in enumerate(st.market):
        if m and m[0] == card:
            st.market[i] = None
    if card in st.deck:
        st.deck.remove(card)
    if card in st.evo_discard:
        st.evo_discard.remove(card)
    for p in st.players:
        if card in p["track"]:
            p["track"].remove(card)
    st.players[seat]["track"].append(card)


def stock(st: ArchState, seat: int, **cubes: int) -> None:
    """Cubes from the bank to ``seat`` (``stock(st, 0, FISH=2)``)."""
    for r, k in cubes.items():
        st.bank[r] -= k
        st.players[seat]["cubes"][r] += k


def turn_of(st: ArchState, seat: int) -> ArchState:
    """Make it ``seat``'s fresh Phase-5 turn."""
    st.phase = "ACTIONS"
    st.crisis = None
    st.step = None
    st.offer = None
    st.active = st.order.index(seat)
    st.turn = {"seat": seat, "action": False, "acted": False, "building": False, "offers": 0, "grants": []}
    return st


def do(st: ArchState, cmd: dict, seat: int | None = None) -> tuple[ArchState, list[dict]]:
    if seat is None:
        seat = sorted(RULES.to_act(st))[0]
    events = RULES.decide(st, cmd, seat, rng_for(11, 3))
    return RULES.fold(events, st), events


GAME = Scenario(RULES, rng=lambda: rng_for(11, 3), on_turn=lambda st: sorted(RULES.to_act(st))[0])


def refused(state: ArchState, command: dict, code: str = "illegal_command", seat: int | None = None) -> IllegalCommand:
    """``GAME.refused``, and the refusal says why (a message the seat is shown)."""
    err = GAME.refused(state, command, code, seat)
    assert isinstance(err.message, str) and err.message.strip(), f"{command} refused without a reason"
    return err


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def of(events: list[dict], t: str) -> list[dict]:
    return [e for e in events if e["type"] == t]


def island(seats: int = 3, options: dict | None = None) -> ArchState:
    """A fixed map round the ocean start, Phase 5, seat 0 to act.

    E07 (face A, rot 3: edges PPPSSP) at (1,0) and E03 (face A, rot 1: PSSSSP) at (1,-1): both touch the start
    across sea links and touch each other across a plain link. Seat 0 has ship s0-90 on the start and citizens
    c0-91, c0-92 on E07; seat 1 has ship s1-90 and citizen c1-91 on E03.
    """
    st = blank_map(action_state(seats, options))
    put_tile(st, "E07", 1, 0, "A", 3)
    put_tile(st, "E03", 1, -1, "A", 1)
    put_unit(st, 0, "S", st.start, "s0-90")
    put_unit(st, 0, "C", "E07", "c0-91")
    put_unit(st, 0, "C", "E07", "c0-92")
    put_unit(st, 1, "S", "E03", "s1-90")
    put_unit(st, 1, "C", "E03", "c1-91")
    for p in st.players:
        p["money"] = 10
        for r, k in p["cubes"].items():
            st.bank[r] += k
            p["cubes"][r] = 0
        st.tokens_spent += p["tokens"]
        p["tokens"] = 0
        st.evo_discard += p["track"]
        p["track"] = []
    st.card_used = set()
    st.tax_used = 0
    st.shared_explores = 0
    return turn_of(st, 0)
