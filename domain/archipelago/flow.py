"""Archipelago automatic progression: phases, crises, turn-0 redeals, Phase 6 refills, end of game.

``advance(ctx)`` runs every step that needs no player decision, emitting events, until some seat must act.

Section (§) and ruling (D, Q) numbers are those of docs/rules/archipelago.md.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

from domain.archipelago import data as D
from domain.archipelago.evolve import TOUCHES, apply
from domain.archipelago.scoring import declarable, final_ranking
from domain.archipelago.state import (
    COPIERS,
    ArchState,
    both_faces,
    ceil_pct,
    cit_total,
    controlled_buildings,
    crisis_of,
    face_of,
    lying_count,
    neighbor,
    objectives_in_play,
    p6_of,
    population,
    rotate_edges,
    step_of,
    t0_of,
)
from domain.decider import Recorder


class GameOver(Exception):
    """Raised after the GameEnded event to unwind whatever was in progress."""


class Ctx(Recorder[ArchState]):
    """The skeleton's recorder (``domain.decider.Recorder``): emits events, each applied to ``state`` at once
    and recorded; with the game's shared steps (the independence check, AUTO_END).

    With ``shared=True``, ``state`` is a shallow copy whose containers still belong to another state: before an
    event is applied, the fields it touches (``fold.TOUCHES``) are copied once, so the other state never changes.
    Command handlers only read the state and emit; the fold handlers are the only code that changes it.
    """

    __slots__ = ("rng", "_copied")

    def __init__(self, st: ArchState, rng: random.Random | None, shared: bool = False) -> None:
        super().__init__(st, apply)
        self.rng = rng
        # With ``shared``: the fields copied so far (the others in ``COPIERS`` still belong to another state).
        self._copied: set[str] | None = set() if shared else None

    def emit(self, ev: dict) -> None:
        copied = self._copied
        if copied is not None:
            fields = self.state.__dict__
            for name in TOUCHES.get(ev["type"], ()):
                if name not in copied and name in COPIERS:
                    copied.add(name)
                    value = fields[name]
                    if value is not None:
                        fields[name] = COPIERS[name](value)
        apply(self.state, ev)
        self.events.append(ev)
        if self.state.options.get("auto_end") and self.state.phase not in _NO_AUTO_END:
            auto_end(self)  # §12.2: AUTO_END ends the game after any event that makes a condition true

    def checked(self, ev: dict) -> None:
        """Emit, then run the independence check (§3.7)."""
        self.emit(ev)
        check_loss(self)


def check_loss(ctx: Ctx) -> None:
    st = ctx.state
    if st.reb and st.phase != "OVER" and st.reb > population(st):
        winner = None
        for s, oid in objectives_in_play(st):
            if s is not None and D.OBJECTIVES[oid].special == "SEPARATIST":
                winner = s
        ctx.emit(
            {
                "type": "GameEnded",
                "cause": "INDEPENDENCE",
                "winner": winner,
                "round": st.round,
                "rebellion": st.reb,
                "population": population(st),
                "winners": [] if winner is None else [winner],
            }
        )
        raise GameOver()


def change_reb(ctx: Ctx, delta: int, reason: str) -> None:
    actual = max(-ctx.state.reb, delta)
    if actual:
        ctx.checked({"type": "RebellionChanged", "delta": actual, "reason": reason})


def change_sur(ctx: Ctx, delta: int, reason: str) -> None:
    st = ctx.state
    actual = max(0, min(D.SURPLUS_MAX, st.sur + delta)) - st.sur
    if actual:
        ctx.emit({"type": "SurplusChanged", "delta": actual, "reason": reason})


def take_token(ctx: Ctx, seat: int) -> None:
    for i, s in enumerate(ctx.state.stacks):
        if s > 0:
            ctx.emit({"type": "ExplorerTokenTaken", "seat": seat, "stack": i, "stack_emptied": s == 1})
            return


def new_unit_id(st: ArchState, seat: int, kind: str) -> str:
    return f"{'c' if kind == 'C' else 's'}{seat}-{st.next_unit[seat]}"


def add_citizen(ctx: Ctx, seat: int, tid: str, reason: str) -> None:
    ctx.checked(
        {"type": "CitizenAdded", "seat": seat, "unit": new_unit_id(ctx.state, seat, "C"), "tile": tid, "reason": reason}
    )


def add_ship(ctx: Ctx, seat: int, tid: str, reason: str) -> None:
    ctx.emit(
        {"type": "ShipAdded", "seat": seat, "unit": new_unit_id(ctx.state, seat, "S"), "tile": tid, "reason": reason}
    )


def end_game(ctx: Ctx, cause: str, declarer: int | None = None, objective: str | None = None) -> None:
    """A scored end (§12.3): the event names the winner(s); ``winner`` is the seat when exactly one seat won."""
    _, _, ranks = final_ranking(ctx.state, cause)
    winners = [s for s, r in enumerate(ranks) if r == 1]
    ctx.emit(
        {
            "type": "GameEnded",
            "cause": cause,
            "declarer": declarer,
            "objective": objective,
            "round": ctx.state.round,
            "winner": winners[0] if len(winners) == 1 else None,
            "winners": winners,
        }
    )
    raise GameOver()


# ---------------------------------------------------------------------------------------------------- placement
def placement_ok(st: ArchState, pos: tuple[int, int], edges: str, relaxed: bool = False) -> bool:
    """Rule 2 of §8.6: every placed neighbour's facing edge matches (relaxed: only the start tile's)."""
    for i in range(6):
        other = st.posmap.get(neighbor(pos, i))
        if other is None:
            continue
        if relaxed and other != st.start:
            continue
        if st.tiles[other]["edges"][(i + 3) % 6] != edges[i]:
            return False
    return True


def turn0_positions(st: ArchState) -> list[tuple[int, int]]:
    return [neighbor((0, 0), i) for i in range(6) if neighbor((0, 0), i) not in st.posmap]


def turn0_placements(st: ArchState, seat: int) -> list[tuple[str, tuple[int, int], str, int]]:
    out = []
    relaxed = t0_of(st)["relaxed"]
    for tid, _up in st.hands[seat]:
        for pos in turn0_positions(st):
            for face in ("A", "B"):
                edges0 = face_of(tid, face).edges
                for rot in range(6):
                    if placement_ok(st, pos, rotate_edges(edges0, rot), relaxed):
                        out.append((tid, pos, face, rot))
    return out


def deal_hand(ctx: Ctx, seat: int) -> None:
    st = ctx.state
    if not st.stack and st.set_aside:
        ctx.emit({"type": "SetAsidePileRecycled", "seat": seat})
    tiles = [x[0] for x in st.stack[: D.TURN0_HAND_SIZE]]
    ctx.emit({"type": "Turn0HandDealt", "seat": seat, "tiles": tiles, "faces": {t: both_faces(t) for t in tiles}})


def icon_choices(st: ArchState, holder: dict, tid: str) -> tuple[str, list[int]]:
    """The pending icon choice on a newly placed tile: ('market'|'own'|'done', candidate icon indices)."""
    icons = st.tiles[tid]["icons"]
    if holder.get("market_icon") is None:
        return ("market", list(range(len(icons)))) if icons else ("done", [])
    if len(icons) >= 2 and not holder.get("own_done"):
        return "own", [i for i in range(len(icons)) if i != holder["market_icon"]]
    return "done", []


def emit_icon(ctx: Ctx, seat: int, tid: str, which: str, icon: int) -> None:
    st = ctx.state
    r = st.tiles[tid]["icons"][icon]
    if which == "market":
        ok = st.bank[r] > 0 and st.dom[r] < D.DOM_CAP
        ctx.emit({"type": "MarketIconChosen", "seat": seat, "tile": tid, "icon": icon, "resource": r, "added": ok})
    else:
        ctx.emit(
            {"type": "OwnIconChosen", "seat": seat, "tile": tid, "icon": icon, "resource": r, "gained": st.bank[r] > 0}
        )


def icon_progress(ctx: Ctx, seat: int, holder: dict, tid: str) -> bool:
    """Make automatic icon choices; True when all choices are made."""
    while True:
        which, cands = icon_choices(ctx.state, holder, tid)
        if which == "done":
            return True
        if len({ctx.state.tiles[tid]["icons"][i] for i in cands}) > 1:
            return False
        emit_icon(ctx, seat, tid, which, cands[0])
        holder = t0_of(ctx.state) if ctx.state.phase == "TURN0" else step_of(ctx.state)


def shuffled_stack(rng: random.Random, tiles: list[str]) -> list[dict]:
    tiles = list(tiles)
    rng.shuffle(tiles)
    return [{"tile": t, "up": rng.choice("AB")} for t in tiles]


# ---------------------------------------------------------------------------------------------------- phases
def _objectives(ctx: Ctx) -> bool:
    st = ctx.state
    if all(st.kept):
        start_turn0(ctx)
        return True
    return False


def start_turn0(ctx: Ctx) -> None:
    st = ctx.state
    ctx.emit({"type": "Turn0Started"})
    for seat in st.order:
        deal_hand(ctx, seat)


def _turn0(ctx: Ctx) -> bool:
    st = ctx.state
    t0 = t0_of(st)
    if t0["idx"] >= st.n:
        assert ctx.rng is not None, "turn 0 ends inside a command, which has a generator"
        pool = [x[0] for x in st.stack] + [x[0] for h in st.hands for x in h] + [x[0] for x in st.set_aside]
        ctx.emit({"type": "ExplorationStackReshuffled", "stack": shuffled_stack(ctx.rng, sorted(pool))})
        ctx.emit({"type": "RoundStarted", "round": 1})
        return True
    seat = st.order[t0["idx"]]
    if t0["sub"] == "place":
        if turn0_placements(st, seat):
            return False
        if st.hands[seat]:
            ctx.emit({"type": "Turn0HandSetAside", "seat": seat, "tiles": [x[0] for x in st.hands[seat]]})
        deal_hand(ctx, seat)
        return True
    if icon_progress(ctx, seat, t0, t0["tile"]):
        ctx.emit({"type": "Turn0PlayerDone", "seat": seat})
        return True
    return False


def _reset(ctx: Ctx) -> bool:
    ctx.emit({"type": "BiddingStarted", "seats": list(range(ctx.state.n)), "attempt": 1})
    return True


def _bid(ctx: Ctx) -> bool:
    st = ctx.state
    if len(st.bids) < len(st.bidders):
        return False
    bids = [{"seat": s, "amount": st.bids[s]} for s in sorted(st.bids)]
    attempt = st.bid_attempt
    ctx.emit({"type": "BidsRevealed", "bids": bids, "attempt": attempt})
    top = max(b["amount"] for b in bids)
    tied = [b["seat"] for b in bids if b["amount"] == top]
    if len(tied) == 1:
        ctx.emit({"type": "AuctionWon", "seat": tied[0]})
    elif st.n > 2 and attempt == 1:
        ctx.emit({"type": "BiddingStarted", "seats": tied, "attempt": 2})
    else:
        ctx.emit({"type": "TurnOrderSet", "order": list(st.order), "kept": True})
    return True


def _order(ctx: Ctx) -> bool:
    st = ctx.state
    if len(st.picked) < st.n - 1:
        return False
    rest = [s for s in range(st.n) if s not in st.picked]
    ctx.emit({"type": "TurnOrderSet", "order": st.picked + rest, "kept": False})
    return True


def _influence(ctx: Ctx) -> bool:
    st = ctx.state
    glut = sum(1 for r in D.RESOURCES if st.dom[r] >= D.GLUT_THRESHOLD)
    if glut:
        change_reb(ctx, min(glut, D.P3_GLUT_MAX_REB), "glut")
    elif sum(1 for r in D.RESOURCES if st.dom[r] > 0) >= D.P3_CONTENT_ROWS:
        change_reb(ctx, -1, "content_colony")
    e = sum(st.exp.values())
    for threshold, up in D.P3_EXPORT_STEPS:
        if e >= threshold:
            change_sur(ctx, up, "export")
            break
    pop = population(st)
    for pct, up in D.P3_POP_STEPS:
        if pop >= ceil_pct(pct, cit_total(st)):
            change_reb(ctx, up, "population")
            break
    for threshold, up in D.P3_SURPLUS_STEPS:
        if st.sur >= threshold:
            change_reb(ctx, up, "surplus")
            break
    ctx.emit({"type": "PhaseStarted", "phase": "BALANCE"})
    return True


def beige_event(ctx: Ctx, card: str) -> None:
    st = ctx.state
    back = D.CARDS[card].back
    code = back.event
    ev: dict[str, Any] = {"type": "BeigeEventApplied", "back": back.id, "event": code}  # the front stays hidden (§3.10)
    if code == "FAIR_WEATHER":
        ev["rebellion_down"] = min(D.FAIR_WEATHER_REB, st.reb)
    elif code == "PEACE_TREATY":
        ev.update(rebellion_down=min(D.PEACE_TREATY_REB, st.reb), paid=list(range(st.n)), amount=D.PEACE_TREATY_MONEY)
    elif code == "RELIGIOUS_HOLIDAY":
        temples = sum(1 for b in st.buildings.values() if "TEMPLE" in b)
        ev["rebellion_down"] = min(D.RELIGIOUS_HOLIDAY_MAX, temples, st.reb)
    elif code == "BUMPER_HARVEST":
        ev["cubes"] = [r for r in D.BUMPER_HARVEST_RESOURCES if st.bank[r] > 0 and st.dom[r] < D.DOM_CAP]
    elif code == "IMMIGRANTS":
        ev["surplus_up"] = min(D.IMMIGRANTS_SUR, D.SURPLUS_MAX - st.sur)
    elif code == "TRADE_WINDS":
        ev.update(paid=[s for s in range(st.n) if controlled_buildings(st, s, "PORT")], amount=D.TRADE_WINDS_MONEY)
    ctx.emit(ev)


def _balance(ctx: Ctx) -> bool:
    """Phase 4. A crisis runs while the phase is still BALANCE; Phase 5 starts once it has ended."""
    st = ctx.state
    if st.round > 1 and st.deck and not st.p4_done:
        top = st.deck[0]
        back = D.CARDS[top].back
        if back.color == "BEIGE":
            beige_event(ctx, top)
        elif back.color == "YELLOW" or top not in st.resolved_red:
            ctx.emit({"type": "CrisisStarted", "back": back.id, "color": back.color, "trigger": "PHASE4"})
            return True
    ctx.emit({"type": "PhaseStarted", "phase": "ACTIONS"})
    return True


@cache
def _has_turn_action() -> Callable[[ArchState, int], bool]:
    """``legal_turn.has_turn_action``, imported once, on first use (``legal_turn`` imports this module)."""
    from domain.archipelago.legal_turn import has_turn_action

    return has_turn_action


def _actions(ctx: Ctx) -> bool:
    st = ctx.state
    if st.turn is not None:
        return False
    has_turn_action = _has_turn_action()
    for k in range(1, st.n + 1):
        idx = (st.active + k) % st.n
        seat = st.order[idx]
        if st.players[seat]["passed"]:
            continue
        ctx.emit({"type": "TurnStarted", "seat": seat, "index": idx})
        if not has_turn_action(st, seat):
            ctx.emit({"type": "TurnEnded", "seat": seat, "passed": True, "auto": True})
        return True
    ctx.emit({"type": "PhaseStarted", "phase": "EVOLUTION"})
    return True


def _evolution(ctx: Ctx) -> bool:
    st = ctx.state
    stage = p6_of(st)["stage"]
    if stage == "step":
        if st.active >= st.n:
            ctx.emit({"type": "RoundEnded", "round": st.round})
            if st.rounds_completed >= D.ROUND_CAP[st.length]:
                end_game(ctx, "ROUND_CAP")
            ctx.emit({"type": "RoundStarted", "round": st.round + 1})
            return True
        if all(m is None for m in st.market):
            ctx.emit({"type": "EvolutionStepSkipped", "seat": st.order[st.active]})
            return True
        return False
    if stage == "after":
        for slot, m in enumerate(st.market):
            if m is not None and m[1] >= 3:
                ctx.emit({"type": "CardSkulled", "slot": slot, "card": m[0]})
        ctx.emit({"type": "SkullsRemoved"})
        return True
    # refill, one slot at a time; the red check runs between refills (advance loop)
    for slot, m in enumerate(st.market):
        if m is None and st.deck:
            ctx.emit({"type": "SlotRefilled", "slot": slot, "card": st.deck[0]})
            return True
    ctx.emit({"type": "EvolutionStepDone", "seat": st.order[st.active]})
    return True


# ---------------------------------------------------------------------------------------------------- crises
def _crisis(ctx: Ctx) -> bool:
    st = ctx.state
    c = crisis_of(st)
    back = D.CARDS[c["card"]].back
    if c["part"] is None:
        if back.domestic and "DOM" not in c["done"]:
            r, per, k = back.domestic
            ctx.emit({"type": "DomesticDemandStarted", "resource": r, "per_cube": per, "divisor": k})
        elif back.export and "EXP" not in c["done"]:
            units = [r for r, q in back.export for _ in range(q)]
            ctx.emit({"type": "ExportDemandStarted", "units": units})
        else:
            ctx.emit({"type": "CrisisEnded", "back": back.id})
        return True
    if c["part"] == "DOM":
        lying = lying_count(st)
        if lying == 0 or c["idx"] >= st.n:
            rise = -(-lying // c["divisor"])
            ctx.checked({"type": "DemandResolved", "part": "DOM", "lying": lying, "rebellion": rise})
            return True
        return False
    missing = sum(1 for u in c["units"] if not u["met"])
    if missing == 0 or c["idx"] >= st.n:
        ctx.checked({"type": "DemandResolved", "part": "EXP", "missing": missing, "rebellion": missing})
        return True
    return False


def red_check(ctx: Ctx) -> None:
    st = ctx.state
    ctx.emit({"type": "RedCheckDone"})
    if st.deck:
        top = st.deck[0]
        back = D.CARDS[top].back
        if back.color == "RED" and top not in st.resolved_red:
            ctx.emit({"type": "CrisisStarted", "back": back.id, "color": "RED", "trigger": "RED"})


_PHASES = {
    "OBJECTIVES": _objectives,
    "TURN0": _turn0,
    "RESET": _reset,
    "BID": _bid,
    "ORDER": _order,
    "INFLUENCE": _influence,
    "BALANCE": _balance,
    "ACTIONS": _actions,
    "EVOLUTION": _evolution,
}


def advance(ctx: Ctx) -> None:
    st = ctx.state
    try:
        check_loss(ctx)
        while st.phase != "OVER":
            if st.discard_pending is not None:
                break
            if st.crisis is not None:
                if _crisis(ctx):
                    continue
                break
            if st.red_check_pending:
                red_check(ctx)
                continue
            if not _PHASES[st.phase](ctx):
                break
    except GameOver:
        pass


_NO_AUTO_END = frozenset({"OVER", "OBJECTIVES", "TURN0", "SETUP"})


def auto_end(ctx: Ctx) -> None:
    st = ctx.state
    for seat in st.order:
        ok = declarable(st, seat)
        if ok:
            end_game(ctx, "DECLARED", seat, ok[0])
