"""Prompts, ``to_act`` and command dispatch for Archipelago."""

from __future__ import annotations

import random
from collections.abc import Callable

from domain.archipelago import actions as A
from domain.archipelago import auction as U
from domain.archipelago import crises as C
from domain.archipelago import ending as N
from domain.archipelago import evo_market as E
from domain.archipelago import opening as O
from domain.archipelago import steps as S
from domain.archipelago import trades as T
from domain.archipelago.card_uses import cmd_use_card
from domain.archipelago.checks import illegal
from domain.archipelago.flow import Ctx, GameOver, advance
from domain.archipelago.state import ArchState, copy_on_write, t0_of
from domain.decider import open_command

STEP_COMMANDS = {
    "harvest": ("harvest_assign", "harvest_done"),
    "recruit": ("hire", "recruit_done"),
    "birth": ("birth", "reproduce_done"),
    "explore": ("cartographer_pick", "place_tile", "discard_tile", "choose_market_icon", "choose_own_icon"),
    "migrate": ("move_ship", "convoy", "walk", "enter_building", "leave_building", "migrate_done"),
    "ability": ("ability_trade", "ability_done"),
    "research": ("research_pick",),
    "diplomat": ("stand", "card_done"),
}

PROMPT_COMMANDS = {
    "objectives": ("keep_objectives",),
    "turn0_place": ("place_start_tile",),
    "turn0_icon": ("choose_market_icon", "choose_own_icon"),
    "discard": ("discard_card",),
    "dom_supply": ("supply", "stand", "activate_temple", "temple_done", "supply_done"),
    "exp_supply": ("export_supply", "supply_done"),
    "bid": ("bid",),
    "order": ("order_pick",),
    "turn": (
        "harvest",
        "recruit",
        "reproduce",
        "tax",
        "trade",
        "explore",
        "migrate",
        "build",
        "use_card",
        "build_wonder",
        "use_building",
        "offer_open",
        "end_turn",
        "pass",
    ),
    "offer_draft": ("offer_add", "offer_send", "offer_cancel"),
    "offer_answer": ("offer_accept", "offer_decline"),
    "evolution": ("evo_buy", "evo_rotate"),
    **{f"step_{k}": v for k, v in STEP_COMMANDS.items()},
}
_STEP_PROMPTS = {k: f"step_{k}" for k in STEP_COMMANDS}  # step kind -> its prompt kind

CommandHandler = Callable[[ArchState, int, dict, Ctx], None]

HANDLERS: dict[str, CommandHandler] = {
    "keep_objectives": O.cmd_keep_objectives,
    "place_start_tile": O.cmd_place_start_tile,
    "choose_market_icon": S.cmd_choose_market_icon,
    "choose_own_icon": S.cmd_choose_own_icon,
    "discard_card": E.cmd_discard_card,
    "supply": C.cmd_supply,
    "activate_temple": C.cmd_activate_temple,
    "temple_done": C.cmd_temple_done,
    "supply_done": C.cmd_supply_done,
    "export_supply": C.cmd_export_supply,
    "bid": U.cmd_bid,
    "order_pick": U.cmd_order_pick,
    "harvest": A.cmd_harvest,
    "recruit": A.cmd_recruit,
    "reproduce": A.cmd_reproduce,
    "tax": A.cmd_tax,
    "trade": A.cmd_trade,
    "explore": A.cmd_explore,
    "migrate": A.cmd_migrate,
    "build": A.cmd_build,
    "use_card": cmd_use_card,
    "build_wonder": A.cmd_build_wonder,
    "use_building": A.cmd_use_building,
    "offer_open": T.cmd_offer_open,
    "end_turn": A.cmd_end_turn,
    "pass": A.cmd_pass,
    "offer_add": T.cmd_offer_add,
    "offer_send": T.cmd_offer_send,
    "offer_cancel": T.cmd_offer_cancel,
    "offer_accept": T.cmd_offer_accept,
    "offer_decline": T.cmd_offer_decline,
    "evo_buy": E.cmd_evo_buy,
    "evo_rotate": E.cmd_evo_rotate,
    "harvest_assign": S.cmd_harvest_assign,
    "harvest_done": S.cmd_harvest_done,
    "hire": S.cmd_hire,
    "recruit_done": S.cmd_recruit_done,
    "birth": S.cmd_birth,
    "reproduce_done": S.cmd_reproduce_done,
    "cartographer_pick": S.cmd_cartographer_pick,
    "place_tile": S.cmd_place_tile,
    "discard_tile": S.cmd_discard_tile,
    "move_ship": S.cmd_move_ship,
    "convoy": S.cmd_convoy,
    "walk": S.cmd_walk,
    "enter_building": S.cmd_enter_building,
    "leave_building": S.cmd_leave_building,
    "migrate_done": S.cmd_migrate_done,
    "ability_trade": S.cmd_ability_trade,
    "ability_done": S.cmd_ability_done,
    "research_pick": S.cmd_research_pick,
    "card_done": S.cmd_card_done,
    "declare_end": N.cmd_declare_end,
}


KNOWN = frozenset(HANDLERS) | {"stand"}


def prompt(st: ArchState) -> tuple[str | None, list[int]]:
    """The current prompt kind and the seats in it."""
    ph = st.phase
    if not st.started or ph == "OVER":
        return None, []
    if ph == "OBJECTIVES":
        return "objectives", [s for s in range(st.n) if not st.kept[s]]
    if ph == "TURN0":
        t0 = t0_of(st)
        if t0["idx"] >= len(st.order):  # between the events of the last placement: nobody is prompted
            return None, []
        seat = st.order[t0["idx"]]
        return ("turn0_place" if t0["sub"] == "place" else "turn0_icon"), [seat]
    if st.discard_pending is not None:
        return "discard", [st.discard_pending]
    if st.crisis is not None:
        if st.crisis["idx"] >= len(st.order):  # between the events that close a demand: nobody is prompted
            return None, []
        kind = "dom_supply" if st.crisis["part"] == "DOM" else "exp_supply"
        return kind, [st.order[st.crisis["idx"]]]
    if ph == "BID":
        return "bid", [s for s in st.bidders if s not in st.bids]
    if ph == "ORDER":
        assert st.picker is not None
        return "order", [st.picker]
    if ph == "ACTIONS" and st.turn is not None:
        seat = st.turn["seat"]
        if st.offer is not None:
            if st.offer["sent"]:
                return "offer_answer", [st.offer["to"]]
            return "offer_draft", [seat]
        if st.step is not None:
            return _STEP_PROMPTS[st.step["kind"]], [seat]
        return "turn", [seat]
    if ph == "EVOLUTION" and st.p6 and st.p6["stage"] == "step" and st.active < st.n:
        return "evolution", [st.order[st.active]]
    return None, []


def to_act(st: ArchState) -> set[int]:
    return set(prompt(st)[1])


def handler_for(st: ArchState, kind: str, ctype: str) -> CommandHandler:
    if ctype == "stand":
        return C.cmd_crisis_stand if kind == "dom_supply" else S.cmd_diplomat_stand
    return HANDLERS[ctype]


def opening(st: ArchState, cmd: object, seat: object) -> tuple[str, str]:
    """The skeleton's opening checks (``domain.decider.open_command``), then Archipelago's own: a type that the
    current prompt allows. Returns the prompt kind and the command type."""
    kind, seats = prompt(st)
    ctype = open_command(cmd, seat, started=st.started, over=st.phase == "OVER", acting=seats, known=KNOWN)
    assert kind is not None, "a seat is prompted only within a prompt"
    if ctype != "declare_end" and ctype not in PROMPT_COMMANDS[kind]:
        illegal(f"{ctype} is not possible now; expected one of {', '.join(PROMPT_COMMANDS[kind])} or declare_end")
    if ctype == "declare_end" and st.phase in ("OBJECTIVES", "TURN0"):
        illegal("the end cannot be declared during setup and turn 0")
    return kind, ctype


def run(st: ArchState, cmd: object, seat: object, rng: random.Random | None) -> list[dict]:
    """Validate and apply ``cmd`` on ``st`` itself, in one pass: every handler checks the whole command
    before its first event, so a refused command raises ``IllegalCommand`` before ``st`` changes."""
    kind, ctype = opening(st, cmd, seat)
    return _handle(st, kind, ctype, cmd, seat, rng)  # type: ignore[arg-type]  # opening checked the types


def _handle(
    st: ArchState, kind: str, ctype: str, cmd: dict, seat: int, rng: random.Random | None, shared: bool = False
) -> list[dict]:
    ctx = Ctx(st, rng, shared)
    try:
        handler_for(st, kind, ctype)(st, seat, cmd, ctx)
    except GameOver:
        return ctx.events
    advance(ctx)
    return ctx.events


def decide(st: ArchState, cmd: object, seat: object, rng: random.Random) -> list[dict]:
    """The events ``cmd`` causes; ``st`` is left as it was. The handler runs once, on a copy that shares every
    container with ``st`` until an event touches it (``flow.Ctx``)."""
    return decide_and_apply(st, cmd, seat, rng)[0]


def decide_and_apply(st: ArchState, cmd: object, seat: object, rng: random.Random) -> tuple[list[dict], ArchState]:
    """``decide`` and the state after its events, from one copy of ``st``.

    Equivalent to ``decide`` followed by folding its events (a property test checks this).
    """
    new = copy_on_write(st, ())
    kind, ctype = opening(new, cmd, seat)
    return _handle(new, kind, ctype, cmd, seat, rng, shared=True), new  # type: ignore[arg-type]
