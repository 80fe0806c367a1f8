"""``use_card`` (§10.2, §10.4): the checks common to every card, then one handler per card.

A card handler ``(st, seat, cmd, fee) -> CardPlan`` checks the card's own fields and conditions (raising
``IllegalCommand``) and returns what the use opens (``step``) and what follows the ``CardUsed`` event
(``then``, run with the emitting context once ``CardUsed`` is applied).

Section (§) and ruling (D, Q) numbers are those of docs/rules/archipelago.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.archipelago import data as D
from domain.archipelago.actions import MIGRATE_STEP, birth_step, explore_events, explore_open, standing_citizens
from domain.archipelago.checks import (
    check_payment,
    illegal,
    invalid,
    market_ok,
    opt_list,
    payment_event,
    req_int,
    req_resource,
    req_str,
    req_tile,
    req_tokens,
    req_unit,
)
from domain.archipelago.flow import Ctx, change_reb, change_sur
from domain.archipelago.state import (
    ArchState,
    available,
    card_owner,
    controlled_buildings,
    linked,
    lying_count,
)

FollowUp = Callable[[Ctx, int], None]


@dataclass(frozen=True)
class CardPlan:
    step: dict[str, Any] | None = None
    then: FollowUp | None = None


CardHandler = Callable[[ArchState, int, dict, int], CardPlan]


def _emit(event: dict[str, Any]) -> FollowUp:
    def follow(ctx: Ctx, seat: int) -> None:
        ctx.emit(event)

    return follow


def card_user(st: ArchState, seat: int, card_id: str) -> tuple[int, int]:
    """(owner, fee) for using ``card_id`` now; raise if it cannot be used."""
    if card_id not in D.CARDS:
        illegal(f"unknown card {card_id!r}")
    card = D.CARDS[card_id]
    owner = card_owner(st, card_id)
    if owner is None:
        illegal(f"{card.name} is not in anyone's track")
    if card.use not in ("AD", "FREE"):
        illegal(f"{card.name} is not used with use_card")
    if card_id in st.card_used:
        illegal(f"{card.name} was already used this round")
    fee = 0
    if owner != seat:
        if not card.shareable:
            illegal(f"{card.name} is not shareable")
        fee = D.SHARED_CARD_FEE
    if st.players[seat]["money"] < fee:
        illegal("you cannot pay the card fee")
    if card.use == "AD" and st.players[seat]["ad_avail"] < 1:
        illegal("you have no action disc left")
    return owner, fee


# ---------------------------------------------------------------------------------------------------- handlers
def _research(card: str) -> CardHandler:
    """RESEARCHER / HEAD HUNTER: reveal the top cards of the deck."""

    def use(st: ArchState, seat: int, cmd: dict, fee: int) -> CardPlan:
        if not st.deck:
            illegal("the deck is empty")

        def reveal(ctx: Ctx, seat: int) -> None:
            ctx.emit(
                {"type": "CardsRevealed", "seat": seat, "card": card, "cards": ctx.state.deck[: D.RESEARCH_REVEAL]}
            )

        return CardPlan(then=reveal)

    return use


def _market_card(market: str, sell_only: bool, bonus: int = 0) -> CardHandler:
    """MERCHANT (domestic), SHIPOWNER (export), SMUGGLER (export sale with a bonus): one market transaction."""

    def use(st: ArchState, seat: int, cmd: dict, fee: int) -> CardPlan:
        op = "SELL" if sell_only else req_str(cmd, "op", ("BUY", "SELL"))
        r = req_resource(cmd)
        price = market_ok(st, seat, market, op, r, extra_money=fee, bonus=bonus)
        return CardPlan(
            then=_emit(
                {"type": "MarketTraded", "seat": seat, "market": market, "op": op, "resource": r, "price": price}
            )
        )

    return use


def _missionary(st: ArchState, seat: int, cmd: dict, fee: int) -> CardPlan:
    if st.reb < 1:
        illegal("rebellion is already 0")

    def calm(ctx: Ctx, seat: int) -> None:
        change_reb(ctx, -(2 if controlled_buildings(ctx.state, seat, "TEMPLE") else 1), "missionary")

    return CardPlan(then=calm)


def _navigator(st: ArchState, seat: int, cmd: dict, fee: int) -> CardPlan:
    ship = req_unit(st, cmd, "ship", seat, "S")
    to = req_tile(st, cmd, "to")
    if not available(st.units[ship]):
        illegal("the ship is not available")
    if to not in linked(st, st.units[ship]["tile"], "S"):
        illegal("the ship can only sail across a sea link")
    return CardPlan(then=_emit({"type": "UnitMoved", "seat": seat, "unit": ship, "to": to, "via": "navigator"}))


def _midwife(st: ArchState, seat: int, cmd: dict, fee: int) -> CardPlan:
    step = birth_step(st, seat, "midwife")
    if not step["eligible"]:
        illegal("no birth is possible")
    return CardPlan(step=step)


def _diplomat(st: ArchState, seat: int, cmd: dict, fee: int) -> CardPlan:
    if lying_count(st) < 1:
        illegal("no citizen is lying")
    return CardPlan(step={"kind": "diplomat", "left": D.DIPLOMAT_STANDS})


def _conquistador(st: ArchState, seat: int, cmd: dict, fee: int) -> CardPlan:
    pick, cards = explore_open(st, seat, cmd)

    def explore(ctx: Ctx, seat: int) -> None:
        explore_events(ctx, seat, pick, cards)
        if cards:
            ctx.emit(
                {
                    "type": "CardUsed",
                    "seat": seat,
                    "card": "C12",
                    "name": "CARTOGRAPHER",
                    "owner": seat,
                    "fee": 0,
                    "ad": False,
                    "step": None,
                }
            )

    return CardPlan(step={"kind": "explore", "phase": "draw", "with": cards, "tile": None}, then=explore)


def _banker(st: ArchState, seat: int, cmd: dict, fee: int) -> CardPlan:
    standing = standing_citizens(st, seat)
    if standing < 2:
        illegal("BANKER needs at least 2 standing citizens")
    delta = min(D.BANKER_MAX, standing // 2)
    return CardPlan(then=_emit({"type": "MoneyChanged", "seat": seat, "delta": delta, "reason": "banker"}))


def _pirate(st: ArchState, seat: int, cmd: dict, fee: int) -> CardPlan:
    ship = req_unit(st, cmd, "ship", seat, "S")
    victim = req_int(cmd, "victim")
    if not 0 <= victim < st.n or victim == seat:
        illegal("victim must be another seat")
    if not available(st.units[ship]):
        illegal("the ship is not available")
    tid = st.units[ship]["tile"]
    if not any(u["owner"] == victim and u["kind"] == "S" and u["tile"] == tid for u in st.units.values()):
        illegal("the victim has no ship on your ship's tile")

    def raid(ctx: Ctx, seat: int) -> None:
        ctx.emit({"type": "UnitEngaged", "unit": ship})
        loot = min(D.PIRATE_LOOT, ctx.state.players[victim]["money"])
        if loot:
            ctx.emit({"type": "MoneyChanged", "seat": seat, "delta": loot, "counterpart": victim, "reason": "pirate"})
        change_reb(ctx, 1, "pirate")

    return CardPlan(then=raid)


def _expansionism(st: ArchState, seat: int, cmd: dict, fee: int) -> CardPlan:
    return CardPlan(step=dict(MIGRATE_STEP))


def _education(st: ArchState, seat: int, cmd: dict, fee: int) -> CardPlan:
    if st.sur < 1:
        illegal("there are no surplus workers")

    def educate(ctx: Ctx, seat: int) -> None:
        change_sur(ctx, -D.EDUCATION_SUR, "education")

    return CardPlan(then=educate)


def _emigration(st: ArchState, seat: int, cmd: dict, fee: int) -> CardPlan:
    if st.sur < 1:
        illegal("there are no surplus workers")

    def emigrate(ctx: Ctx, seat: int) -> None:
        change_sur(ctx, -D.EMIGRATION_SUR, "emigration")
        ctx.emit({"type": "MoneyChanged", "seat": seat, "delta": D.EMIGRATION_MONEY, "reason": "emigration"})

    return CardPlan(then=emigrate)


def _festival(st: ArchState, seat: int, cmd: dict, fee: int) -> CardPlan:
    if st.reb < 1:
        illegal("rebellion is already 0")
    tokens = req_tokens(cmd)
    check_payment(st, seat, D.FESTIVAL_COST, tokens, fee)

    def celebrate(ctx: Ctx, seat: int) -> None:
        ctx.emit(payment_event(seat, D.FESTIVAL_COST, tokens, 0, "festival"))
        change_reb(ctx, -D.FESTIVAL_REB, "festival")

    return CardPlan(then=celebrate)


def _charity(st: ArchState, seat: int, cmd: dict, fee: int) -> CardPlan:
    cubes = opt_list(cmd, "cubes")
    if not 1 <= len(cubes) <= 2 or any(c not in D.RESOURCES for c in cubes):
        invalid("cubes must list 1 or 2 resources")
    p = st.players[seat]
    for r in set(cubes):
        k = cubes.count(r)
        if p["cubes"][r] < k:
            illegal(f"you do not hold {k} {r}")
        if st.dom[r] + k > D.DOM_CAP:
            illegal(f"the domestic {r} row has no room")

    def give(ctx: Ctx, seat: int) -> None:
        ctx.emit({"type": "CubesToMarket", "seat": seat, "resources": list(cubes), "reason": "charity"})
        if len(cubes) == 2:
            change_reb(ctx, -1, "charity")

    return CardPlan(then=give)


def _no_condition(st: ArchState, seat: int, cmd: dict, fee: int) -> CardPlan:
    return CardPlan()


CARD_USES: dict[str, CardHandler] = {
    "C01": _research("C01"),
    "C02": _research("C02"),
    "C03": _market_card("DOM", sell_only=False),
    "C04": _market_card("EXP", sell_only=False),
    "C06": _missionary,
    "C08": _navigator,
    "C10": _midwife,
    "C11": _diplomat,
    "C13": _conquistador,
    "C15": _banker,
    "C16": _market_card("EXP", sell_only=True, bonus=D.SMUGGLER_BONUS),
    "C18": _pirate,
    "P01": _expansionism,
    "P06": _education,
    "P07": _emigration,
    "P13": _festival,
    "P14": _charity,
}


def cmd_use_card(st: ArchState, seat: int, cmd: dict, ctx: Ctx) -> None:
    cid = req_str(cmd, "card")
    owner, fee = card_user(st, seat, cid)
    plan = CARD_USES.get(cid, _no_condition)(st, seat, cmd, fee)
    card = D.CARDS[cid]
    ctx.emit(
        {
            "type": "CardUsed",
            "seat": seat,
            "card": cid,
            "name": card.name,
            "owner": owner,
            "fee": fee,
            "ad": card.use == "AD",
            "step": plan.step,
        }
    )
    if plan.then is not None:
        plan.then(ctx, seat)
