"""Archipelago fold, part 3: crises (domestic and export demand, beige events).

Section (§) and ruling (D, Q) numbers are those of docs/rules/archipelago.md.
"""

from __future__ import annotations

from domain.archipelago import data as D
from domain.archipelago.fold import on
from domain.archipelago.state import ArchState, crisis_of


# ---------------------------------------------------------------------------------------------------- crises
@on("CrisisStarted", "deck")
def _crisis(st: ArchState, ev: dict) -> None:
    # a crisis is always the deck's top card; events name only its back (§3.10 v1.2), older logs the card
    card = ev.get("card") or st.deck[0]
    st.crisis = {
        "card": card,
        "back": D.CARDS[card].back.id,
        "color": ev["color"],
        "part": None,
        "idx": 0,
        "pending": 0,
        "temple": None,
        "temples_used": [],
        "priest_left": 0,
        "units": [],
        "trigger": ev["trigger"],
        "done": [],
    }


@on("DomesticDemandStarted", "crisis", "units")
def _dom_demand(st: ArchState, ev: dict) -> None:
    c = crisis_of(st)
    c.update(part="DOM", idx=0, resource=ev["resource"], per_cube=ev["per_cube"], divisor=ev["divisor"])
    for u in st.units.values():
        if u["kind"] == "C":
            u["lying"] = True


@on("CubeSupplied", "bank", "crisis", "dom", "exp", "players")
def _supplied(st: ArchState, ev: dict) -> None:
    r, src = ev["resource"], ev["source"]
    p = st.players[ev["seat"]]
    if src == "MARKET":
        row = st.dom if crisis_of(st)["part"] == "DOM" else st.exp
        row[r] -= 1
        st.bank[r] += 1
    elif src == "CUBE":
        p["cubes"][r] -= 1
        st.bank[r] += 1
        p["contrib"] += 1
    else:
        p["tokens"] -= 1
        st.tokens_spent += 1
        p["contrib"] += 1
    if crisis_of(st)["part"] == "DOM":
        crisis_of(st)["pending"] = ev["stand_ups"]
    else:
        crisis_of(st)["units"][ev["unit"]]["met"] = True


@on("TempleActivated", "crisis")
def _temple(st: ArchState, ev: dict) -> None:
    crisis_of(st)["temple"] = ev["tile"]
    crisis_of(st)["temples_used"].append(ev["tile"])
    crisis_of(st)["priest_left"] = ev["priest"]


@on("TempleClosed", "crisis")
def _temple_closed(st: ArchState, ev: dict) -> None:
    crisis_of(st)["temple"] = None
    crisis_of(st)["priest_left"] = 0


@on("SupplyTurnEnded", "crisis")
def _supply_turn_end(st: ArchState, ev: dict) -> None:
    crisis_of(st)["idx"] += 1


@on("DemandResolved", "crisis")
def _demand_resolved(st: ArchState, ev: dict) -> None:
    st.reb = max(0, st.reb + ev["rebellion"])
    crisis_of(st)["done"].append(crisis_of(st)["part"])
    crisis_of(st)["part"] = None


@on("ExportDemandStarted", "crisis")
def _exp_demand(st: ArchState, ev: dict) -> None:
    crisis_of(st).update(part="EXP", idx=0, units=[{"resource": r, "met": False} for r in ev["units"]])


@on("CrisisEnded", "crisis", "resolved_red")
def _crisis_end(st: ArchState, ev: dict) -> None:
    if crisis_of(st)["color"] == "RED":
        st.resolved_red.add(crisis_of(st)["card"])
    if crisis_of(st)["trigger"] == "PHASE4":
        st.p4_done = True
    st.crisis = None


@on("RedCheckDone")
def _red_check_done(st: ArchState, ev: dict) -> None:
    st.red_check_pending = False


@on("BeigeEventApplied", "bank", "dom", "players")
def _beige(st: ArchState, ev: dict) -> None:
    st.reb = max(0, st.reb - ev.get("rebellion_down", 0))
    st.sur = min(D.SURPLUS_MAX, st.sur + ev.get("surplus_up", 0))
    for s in ev.get("paid", []):
        st.players[s]["money"] += ev["amount"]
    for r in ev.get("cubes", []):
        st.bank[r] -= 1
        st.dom[r] += 1
