"""Archipelago fold, part 4: the evolution market (Phase 6, research, discards) and trades."""

from __future__ import annotations

from domain.archipelago.fold import on
from domain.archipelago.state import ArchState, offer_of, p6_of, step_of, turn_of


# ---------------------------------------------------------------------------------------------------- evolution
@on("EvolutionBought", "market", "p6", "players")
def _bought(st: ArchState, ev: dict) -> None:
    slot = ev["slot"]
    st.players[ev["seat"]]["money"] -= ev["price"]
    st.players[ev["seat"]]["track"].append(st.market[slot][0])
    st.market[slot] = None
    if st.p6 is not None:
        p6_of(st)["stage"] = "after"


@on("EvolutionRotated", "market", "p6")
def _rotated(st: ArchState, ev: dict) -> None:
    for s in ev["slots"]:
        st.market[s][1] += 1
    if st.p6 is not None:
        p6_of(st)["stage"] = "after"


@on("EvolutionStepSkipped", "p6")
def _skipped(st: ArchState, ev: dict) -> None:
    p6_of(st)["stage"] = "after"


@on("CardSkulled", "evo_discard", "market")
def _skulled(st: ArchState, ev: dict) -> None:
    st.evo_discard.append(st.market[ev["slot"]][0])
    st.market[ev["slot"]] = None


@on("SlotRefilled", "deck", "market")
def _refilled(st: ArchState, ev: dict) -> None:
    st.market[ev["slot"]] = [st.deck.pop(0), 0]
    st.red_check_pending = True


@on("SkullsRemoved", "p6")
def _skulls_removed(st: ArchState, ev: dict) -> None:
    p6_of(st)["stage"] = "refill"


@on("EvolutionStepDone", "p6")
def _step_done(st: ArchState, ev: dict) -> None:
    st.active += 1
    p6_of(st)["stage"] = "step"


@on("DiscardRequired")
def _discard_req(st: ArchState, ev: dict) -> None:
    st.discard_pending = ev["seat"]


@on("CardDiscarded", "evo_discard", "players")
def _card_discarded(st: ArchState, ev: dict) -> None:
    st.players[ev["seat"]]["track"].remove(ev["card"])
    st.evo_discard.append(ev["card"])
    st.discard_pending = None


@on("CardsRevealed", "deck")
def _revealed(st: ArchState, ev: dict) -> None:
    k = len(ev["cards"])
    st.deck = st.deck[k:]
    st.step = {"kind": "research", "card": ev["card"], "revealed": list(ev["cards"])}


@on("ResearchPicked", "evo_discard", "players", "step")
def _research(st: ArchState, ev: dict) -> None:
    p = st.players[ev["seat"]]
    if ev["pick"] is not None:
        p["money"] -= ev["price"]
        p["track"].append(ev["pick"])
    st.evo_discard += [c for c in step_of(st)["revealed"] if c != ev["pick"]]
    st.step = None
    st.red_check_pending = True


# ---------------------------------------------------------------------------------------------------- trading
@on("OfferOpened", "turn")
def _offer_open(st: ArchState, ev: dict) -> None:
    st.offer = {"to": ev["to"], "give": [], "get": [], "sent": False}
    turn_of(st)["offers"] += 1


@on("OfferItemAdded", "offer")
def _offer_add(st: ArchState, ev: dict) -> None:
    offer_of(st)["give" if ev["side"] == "GIVE" else "get"].append(dict(ev["item"]))


@on("OfferSent", "offer")
def _offer_sent(st: ArchState, ev: dict) -> None:
    offer_of(st)["sent"] = True


@on("OfferClosed")
def _offer_closed(st: ArchState, ev: dict) -> None:
    st.offer = None


@on("OfferAccepted", "players", "turn")
def _offer_accepted(st: ArchState, ev: dict) -> None:
    a, b = ev["seat"], ev["to"]
    for src, dst, items in ((a, b, ev["give"]), (b, a, ev["get"])):
        ps, pd = st.players[src], st.players[dst]
        for it in items:
            k = it["kind"]
            if k in ("MONEY_1", "MONEY_5"):
                amt = 1 if k == "MONEY_1" else 5
                ps["money"] -= amt
                pd["money"] += amt
            elif k == "CUBE":
                ps["cubes"][it["resource"]] -= 1
                pd["cubes"][it["resource"]] += 1
            elif k == "TOKEN":
                ps["tokens"] -= 1
                pd["tokens"] += 1
            elif k == "CARD":
                ps["track"].remove(it["card"])
                pd["track"].append(it["card"])
            elif k == "GRANT":
                turn_of(st)["grants"].append(
                    {"grant": it["grant"], "target": it.get("tile") or it.get("building"), "grantor": b}
                )
    st.offer = None
