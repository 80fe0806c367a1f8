"""Archipelago fold, part 3: crises (domestic and export demand, beige events)."""

from __future__ import annotations

from domain.archipelago import data as D
from domain.archipelago.fold import on


# ---------------------------------------------------------------------------------------------------- crises
@on("CrisisStarted", "deck")
def _crisis(st, ev):
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
def _dom_demand(st, ev):
    c = st.crisis
    c.update(part="DOM", idx=0, resource=ev["resource"], per_cube=ev["per_cube"], divisor=ev["divisor"])
    for u in st.units.values():
        if u["kind"] == "C":
            u["lying"] = True


@on("CubeSupplied", "bank", "crisis", "dom", "exp", "players")
def _supplied(st, ev):
    r, src = ev["resource"], ev["source"]
    p = st.players[ev["seat"]]
    if src == "MARKET":
        row = st.dom if st.crisis["part"] == "DOM" else st.exp
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
    if st.crisis["part"] == "DOM":
        st.crisis["pending"] = ev["stand_ups"]
    else:
        st.crisis["units"][ev["unit"]]["met"] = True


@on("TempleActivated", "crisis")
def _temple(st, ev):
    st.crisis["temple"] = ev["tile"]
    st.crisis["temples_used"].append(ev["tile"])
    st.crisis["priest_left"] = ev["priest"]


@on("TempleClosed", "crisis")
def _temple_closed(st, ev):
    st.crisis["temple"] = None
    st.crisis["priest_left"] = 0


@on("SupplyTurnEnded", "crisis")
def _supply_turn_end(st, ev):
    st.crisis["idx"] += 1


@on("DemandResolved", "crisis")
def _demand_resolved(st, ev):
    st.reb = max(0, st.reb + ev["rebellion"])
    st.crisis["done"].append(st.crisis["part"])
    st.crisis["part"] = None


@on("ExportDemandStarted", "crisis")
def _exp_demand(st, ev):
    st.crisis.update(part="EXP", idx=0, units=[{"resource": r, "met": False} for r in ev["units"]])


@on("CrisisEnded", "crisis", "resolved_red")
def _crisis_end(st, ev):
    if st.crisis["color"] == "RED":
        st.resolved_red.add(st.crisis["card"])
    if st.crisis["trigger"] == "PHASE4":
        st.p4_done = True
    st.crisis = None


@on("RedCheckDone")
def _red_check_done(st, ev):
    st.red_check_pending = False


@on("BeigeEventApplied", "bank", "dom", "players")
def _beige(st, ev):
    st.reb = max(0, st.reb - ev.get("rebellion_down", 0))
    st.sur = min(D.SURPLUS_MAX, st.sur + ev.get("surplus_up", 0))
    for s in ev.get("paid", []):
        st.players[s]["money"] += ev["amount"]
    for r in ev.get("cubes", []):
        st.bank[r] -= 1
        st.dom[r] += 1
