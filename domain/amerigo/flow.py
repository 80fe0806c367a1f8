"""Setup and the automatic chain (docs/rules/amerigo.md §7, §9, §13, §14): everything that happens without a
decision (the final scoring event comes from ``scoring.py``)."""

from __future__ import annotations

import random
from typing import Any

from domain.decider import Recorder

from .board import draw_layout
from .data import (
    BOUNTY_GOLD,
    COLOURS,
    MARKS,
    PHASE_COLOURS,
    PIRATE_ALLY_STRENGTH,
    PIRATE_MARKERS,
    PRODUCTION_IDS,
    PRODUCTION_REVEAL,
    PROGRESS_DISPLAY_SPACES,
    PROGRESS_REFILL,
    PROGRESS_TOKENS,
    ROUNDS,
    SETUP_BATCH,
    TIME_VALUE_BY_ROUND,
)
from .evolve import apply
from .scoring import final_scoring
from .state import State
from .tower import TowerModel


class Ctx(Recorder[State]):
    """The recorder of one decision or of the set-up (``domain.decider.Recorder``): ``state`` is a working
    state that no one else reads (a ``clone``: ``apply`` is copy-on-write, so a shallow copy is private)."""

    __slots__ = ()

    def __init__(self, state: State) -> None:
        super().__init__(state, apply)


def setup_events(seats: int, rng: random.Random, tower: TowerModel) -> list[dict[str, Any]]:
    ctx = Ctx(State())
    ctx.emit({"type": "GameStarted", "seats": seats})
    sel, rots = draw_layout(rng, seats)
    ctx.emit({"type": "IslandsAssembled", "sel": sel, "rots": rots})
    order = list(range(seats))
    rng.shuffle(order)
    ctx.emit({"type": "StackOrderDrawn", "order": order})
    markers = list(PIRATE_MARKERS)
    rng.shuffle(markers)
    ctx.emit({"type": "PiratesPlaced", "slots": markers[:5], "out": markers[5]})
    ctx.emit({"type": "PirateRevealed", "slot": 1, "value": markers[0]})
    pile = list(PROGRESS_TOKENS)
    rng.shuffle(pile)
    ctx.emit({"type": "ProgressPileShuffled", "pile": pile})
    ctx.emit({"type": "ProgressTokensRevealed", "tokens": dict(zip(PROGRESS_DISPLAY_SPACES, pile[:8]))})
    stacks = {}
    for mark in MARKS:
        if mark in PRODUCTION_REVEAL[seats]:
            ids = list(PRODUCTION_IDS[mark])
            rng.shuffle(ids)
            stacks[mark] = ids
    ctx.emit({"type": "ProductionStacksShuffled", "stacks": stacks})
    ctx.emit({"type": "ProductionRevealed", "tokens": _production_draw(stacks, seats)})
    out, after = tower.drop(rng, [], list(SETUP_BATCH))
    ctx.emit(
        {
            "type": "TowerDropped",
            "colour": "setup",
            "batch": len(SETUP_BATCH),
            "out": [COLOURS[c] for c in out],
            "tower": [COLOURS[c] for c in after],
        }
    )
    ctx.emit({"type": "RoundStarted", "round": 1, "time_value": TIME_VALUE_BY_ROUND[1]})
    run_chain(ctx, rng, tower)
    return ctx.events


def _production_draw(stacks: dict[str, list[str]], seats: int) -> list[str]:
    out: list[str] = []
    for mark in MARKS:
        k = PRODUCTION_REVEAL[seats].get(mark, 0)
        out.extend(stacks.get(mark, [])[:k])
    return out


def run_chain(ctx: Ctx, rng: random.Random, tower: TowerModel) -> None:
    """Run on until a player must decide or the game is over."""
    while True:
        s = ctx.state
        if s.over or s.turn_seat >= 0:
            return
        if s.phase_active:
            ctx.emit({"type": "PhaseEnded", "round": s.round, "colour": COLOURS[PHASE_COLOURS[s.phase]]})
            continue
        if s.phase == len(PHASE_COLOURS) - 1:
            if s.pirates_round < s.round:
                ctx.emit(pirate_attack(s))
            elif s.round == ROUNDS:
                ctx.emit(final_scoring(s))
            else:
                _between_rounds(ctx, s.round + 1)
            continue
        _run_phase(ctx, rng, tower, PHASE_COLOURS[s.phase + 1])


def _run_phase(ctx: Ctx, rng: random.Random, tower: TowerModel, colour: int) -> None:
    s = ctx.state
    name = COLOURS[colour]
    n = s.storage[colour]
    if n == 0:
        ctx.emit({"type": "PhaseSkipped", "round": s.round, "colour": name, "reason": "storage_empty"})
        return
    out, after = tower.drop(rng, s.tower, [colour] * n)
    ctx.emit(
        {
            "type": "TowerDropped",
            "colour": name,
            "batch": n,
            "out": [COLOURS[c] for c in out],
            "tower": [COLOURS[c] for c in after],
        }
    )
    if not out:
        ctx.emit({"type": "PhaseSkipped", "round": s.round, "colour": name, "reason": "nothing_fell"})
        return
    area = ctx.state.area
    ctx.emit(
        {"type": "PhaseStarted", "round": s.round, "colour": name, "ap": max(area), "order": list(ctx.state.order)}
    )


def _between_rounds(ctx: Ctx, rnd: int) -> None:
    s = ctx.state
    ctx.emit({"type": "RoundStarted", "round": rnd, "time_value": TIME_VALUE_BY_ROUND[rnd]})
    ctx.emit({"type": "PirateRevealed", "slot": rnd, "value": s.pirates[rnd - 1]})
    s = ctx.state
    ctx.emit(
        {
            "type": "ProgressDisplayRefreshed",
            "round": rnd,
            "removed": [t for t in s.progress_display[:4] if t is not None],
            "moved": [t for t in s.progress_display[4:] if t is not None],
        }
    )
    drawn = ctx.state.progress_pile[:PROGRESS_REFILL]
    if drawn:
        ctx.emit({"type": "ProgressTokensRevealed", "tokens": dict(zip(PROGRESS_DISPLAY_SPACES[4:], drawn))})
    ctx.emit({"type": "ProductionDisplayCleared", "round": rnd, "removed": list(ctx.state.prod_display)})
    ctx.emit({"type": "ProductionRevealed", "tokens": _production_draw(ctx.state.prod_stacks, s.seats)})


def pirate_attack(s: State) -> dict[str, Any]:
    strength = sum(s.pirates[: s.pirates_revealed])
    allies = [seat for seat in range(s.seats) if s.players[seat].has("P11")]
    outcomes = []
    for seat in s.order:
        p = s.players[seat]
        st = strength + PIRATE_ALLY_STRENGTH * sum(1 for a in allies if a != seat)
        if p.cannon >= st:
            gold = BOUNTY_GOLD if p.has("P13") else 0
            outcomes.append(
                {
                    "seat": seat,
                    "strength": st,
                    "fended": True,
                    "cannon_after": p.cannon - st,
                    "vp_lost": 0,
                    "gold": gold,
                }
            )
        else:
            loss = (st + 1) // 2 if p.has("P12") else st
            outcomes.append(
                {
                    "seat": seat,
                    "strength": st,
                    "fended": False,
                    "cannon_after": 0,
                    "vp_lost": min(loss, p.vp),
                    "gold": 0,
                }
            )
    return {"type": "PiratesAttacked", "round": s.round, "strength": strength, "outcomes": outcomes}
