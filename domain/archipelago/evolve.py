"""Archipelago fold, part 1: setup, rounds, money and cubes, turn actions (see ``fold`` for the registry).

Importing this module registers every event handler, those of ``evolve_map``, ``evolve_crises`` and
``evolve_market`` included.
"""

from __future__ import annotations

from typing import TypedDict

from domain.archipelago import data as D
from domain.archipelago.fold import TOUCHES, apply, evolve, on
from domain.archipelago.state import ArchState, Player, deep_copy, face_of, rotate_edges, step_of, t0_of, turn_of


# ---------------------------------------------------------------------------------------------------- setup
class _RoundFlags(TypedDict):
    reproduced: bool
    market_used: bool
    port_used: bool
    personal_explore_used: bool
    taxed: int
    passed: bool


# What a player has used this round: set at the start and reset at every new round.
_ROUND_FLAGS: _RoundFlags = {
    "reproduced": False,
    "market_used": False,
    "port_used": False,
    "personal_explore_used": False,
    "taxed": 0,
    "passed": False,
}


def _new_player(n: int) -> Player:
    mult = D.TWO_PLAYER_SUPPLY_FACTOR if n == 2 else 1
    return {
        "money": D.START_MONEY,
        "cubes": {r: 0 for r in D.RESOURCES},
        "tokens": 0,
        "ad_total": D.START_AD,
        "ad_avail": D.START_AD,
        "track": [],
        "wonders": [],
        "sup_c": D.CITIZENS_PER_PLAYER * mult,
        "sup_s": D.SHIPS_PER_PLAYER * mult,
        **_ROUND_FLAGS,
        "contrib": 0,
    }


def place_tile(st: ArchState, tid: str, pos: tuple[int, int], face: str, rot: int) -> None:
    f = face_of(tid, face)
    st.tiles[tid] = {
        "pos": pos,
        "face": face,
        "rot": rot,
        "edges": rotate_edges(f.edges, rot),
        "land": f.has_land,
        "sea": "S" in f.edges,
        "icons": list(f.icons),
        "occ": [None] * len(f.icons),
        "huts": f.huts,
    }
    st.posmap[pos] = tid


@on("GameStarted", "bank", "dom", "posmap", "tiles")
def _game_started(st: ArchState, ev: dict) -> None:
    n = ev["seats"]
    opts = ev["options"]
    st.started = True
    st.n = n
    st.options = dict(opts)
    st.length = opts["length"]
    st.start = opts["start"].upper()
    st.phase = "SETUP"
    st.order = list(ev["order"])
    st.bank = dict(D.CUBE_TOTALS)
    st.dom = {r: 0 for r in D.RESOURCES}
    st.exp = {r: 0 for r in D.RESOURCES}
    for r in D.RESOURCES:
        k = min(D.DOMESTIC_START_CUBES, st.bank[r])
        st.bank[r] -= k
        st.dom[r] += k
    st.stacks = list(D.EXPLORER_STACKS)
    st.pool = dict(D.BUILDING_POOL)
    st.players = [_new_player(n) for _ in range(n)]
    st.objectives = [[] for _ in range(n)]
    st.dealt_objectives = [[] for _ in range(n)]
    st.kept = [False] * n
    st.hands = [[] for _ in range(n)]
    st.next_unit = [0] * n
    st.market = [None] * D.EVO_MARKET_SLOTS
    place_tile(st, st.start, (0, 0), "A", 0)
    st.buildings = {}
    st.obj_args = {oid: o.arg[0] * n + o.arg[1] for oid, o in D.OBJECTIVES.items()}


@on("EvolutionDeckShuffled")
def _deck(st: ArchState, ev: dict) -> None:
    st.deck = list(ev["deck"])


@on("EvolutionMarketDealt", "deck", "market", "resolved_red")
def _market_dealt(st: ArchState, ev: dict) -> None:
    for i, c in enumerate(ev["cards"]):
        st.market[i] = [c, 0]
    st.deck = st.deck[len(ev["cards"]) :]
    if st.deck:
        st.resolved_red.add(st.deck[0])


@on("TrendsRevealed")
def _trends(st: ArchState, ev: dict) -> None:
    st.trends = list(ev["trends"])


@on("ObjectivesDealt", "dealt_objectives", "objectives", "options")
def _obj_dealt(st: ArchState, ev: dict) -> None:
    if st.options.get("more_fun"):
        st.dealt_objectives[ev["seat"]] = list(ev["cards"])
    else:
        st.objectives[ev["seat"]] = list(ev["cards"])


@on("ObjectivesLaidOut")
def _obj_laid(st: ArchState, ev: dict) -> None:
    st.table_objectives = list(ev["cards"])


@on("ObjectiveChoiceStarted")
def _obj_choice(st: ArchState, ev: dict) -> None:
    st.phase = "OBJECTIVES"


@on("ObjectivesKept", "kept", "objectives")
def _obj_kept(st: ArchState, ev: dict) -> None:
    st.objectives[ev["seat"]] = list(ev["cards"])
    st.kept[ev["seat"]] = True


@on("ExplorationStackShuffled")
def _stack(st: ArchState, ev: dict) -> None:
    st.stack = [[t["tile"], t["up"]] for t in ev["stack"]]
    st.hands = [[] for _ in range(st.n)]
    st.set_aside = []


@on("ExplorationStackReshuffled")
def _restack(st: ArchState, ev: dict) -> None:
    _stack(st, ev)


@on("Turn0Started")
def _t0(st: ArchState, ev: dict) -> None:
    st.phase = "TURN0"
    st.t0 = {
        "idx": 0,
        "sub": "place",
        "tile": None,
        "hands_set": 0,
        "relaxed": False,
        "market_icon": None,
        "dealt": 0,  # hands dealt so far (``Turn0HandDealt``); a state of before without it has them all
    }


@on("Turn0HandDealt", "hands", "stack", "t0")
def _hand(st: ArchState, ev: dict) -> None:
    k = len(ev["tiles"])
    st.hands[ev["seat"]] += [list(x) for x in st.stack[:k]]
    st.stack = st.stack[k:]
    if st.t0 is not None:  # how many hands were dealt: until every seat has one, the stack's top is the next hand's
        st.t0["dealt"] = st.t0.get("dealt", st.n) + 1


@on("Turn0HandSetAside", "hands", "set_aside", "t0")
def _set_aside(st: ArchState, ev: dict) -> None:
    st.set_aside += st.hands[ev["seat"]]
    st.hands[ev["seat"]] = []
    t0_of(st)["hands_set"] += 1
    if t0_of(st)["hands_set"] >= D.TURN0_HAND_LIMIT:
        t0_of(st)["relaxed"] = True


@on("SetAsidePileRecycled", "set_aside", "stack")
def _recycle(st: ArchState, ev: dict) -> None:
    st.stack = st.stack + st.set_aside
    st.set_aside = []


def _new_unit(st: ArchState, seat: int, kind: str, uid: str, tid: str) -> None:
    p = st.players[seat]
    if kind == "C":
        p["sup_c"] -= 1
    else:
        p["sup_s"] -= 1
    st.next_unit[seat] += 1
    st.units[uid] = {
        "owner": seat,
        "kind": kind,
        "tile": tid,
        "place": "LAND" if kind == "C" else "SEA",
        "lying": False,
        "engaged": False,
        "temp": False,
    }


@on("StartTilePlaced", "hands", "posmap", "t0", "tiles")
def _start_tile(st: ArchState, ev: dict) -> None:
    seat, tid = ev["seat"], ev["tile"]
    st.hands[seat] = [h for h in st.hands[seat] if h[0] != tid]
    place_tile(st, tid, (ev["pos"]["q"], ev["pos"]["r"]), ev["face"], ev["rot"])
    t0_of(st).update(sub="icons", tile=tid, hands_set=0, relaxed=False, market_icon=None, own_done=False)


@on("CitizenAdded", "next_unit", "players", "units")
def _cit_added(st: ArchState, ev: dict) -> None:
    _new_unit(st, ev["seat"], "C", ev["unit"], ev["tile"])


@on("ShipAdded", "next_unit", "players", "units")
def _ship_added(st: ArchState, ev: dict) -> None:
    _new_unit(st, ev["seat"], "S", ev["unit"], ev["tile"])


@on("ExplorerTokenTaken", "players", "stacks")
def _token(st: ArchState, ev: dict) -> None:
    st.stacks[ev["stack"]] -= 1
    st.players[ev["seat"]]["tokens"] += 1
    if st.stacks[ev["stack"]] == 0:
        for p in st.players:
            if p["ad_total"] < D.MAX_AD:
                p["ad_total"] += 1
                p["ad_avail"] += 1


@on("SurplusChanged")
def _sur(st: ArchState, ev: dict) -> None:
    st.sur = max(0, min(D.SURPLUS_MAX, st.sur + ev["delta"]))


@on("RebellionChanged")
def _reb(st: ArchState, ev: dict) -> None:
    st.reb = max(0, st.reb + ev["delta"])


@on("MarketIconChosen", "bank", "dom", "step", "t0")
def _market_icon(st: ArchState, ev: dict) -> None:
    if ev["added"]:
        st.bank[ev["resource"]] -= 1
        st.dom[ev["resource"]] += 1
    holder = t0_of(st) if st.phase == "TURN0" else step_of(st)
    holder["market_icon"] = ev["icon"]


@on("OwnIconChosen", "bank", "players", "step", "t0")
def _own_icon(st: ArchState, ev: dict) -> None:
    if ev["gained"]:
        st.bank[ev["resource"]] -= 1
        st.players[ev["seat"]]["cubes"][ev["resource"]] += 1
    holder = t0_of(st) if st.phase == "TURN0" else step_of(st)
    holder["own_done"] = True


@on("Turn0PlayerDone", "t0")
def _t0_done(st: ArchState, ev: dict) -> None:
    t0_of(st).update(
        idx=t0_of(st)["idx"] + 1, sub="place", tile=None, hands_set=0, relaxed=False, market_icon=None, own_done=False
    )


# ---------------------------------------------------------------------------------------------------- round
@on("RoundStarted", "buildings", "players", "tiles", "units")
def _round(st: ArchState, ev: dict) -> None:
    st.phase = "RESET"
    st.round = ev["round"]
    st.t0 = None
    st.card_used = set()
    for p in st.players:
        p["ad_avail"] = p["ad_total"]
        p.update(_ROUND_FLAGS)
    st.shared_explores = 0
    st.tax_used = 0
    for u in st.units.values():
        if u["place"].startswith("I:"):
            st.tiles[u["tile"]]["occ"][int(u["place"][2:])] = None
            u["place"] = "LAND" if u["kind"] == "C" else "SEA"
        if u["temp"]:
            btype = u["place"][2:]
            st.buildings[u["tile"]][btype] = None
            u["place"] = "LAND" if u["kind"] == "C" else "SEA"  # a ship that built a port goes back to sea
            u["temp"] = False
        u["engaged"] = False
        u["lying"] = False


@on("BiddingStarted")
def _bidding(st: ArchState, ev: dict) -> None:
    st.phase = "BID"
    st.bidders = list(ev["seats"])
    st.bid_attempt = ev["attempt"]
    st.bids = {}


@on("BidCommitted", "bids")
def _bid(st: ArchState, ev: dict) -> None:
    st.bids[ev["seat"]] = ev["amount"]


@on("BidsRevealed", "players")
def _bids_revealed(st: ArchState, ev: dict) -> None:
    for b in ev["bids"]:
        st.players[b["seat"]]["money"] -= b["amount"]
    st.bids = {}
    st.bidders = []


@on("AuctionWon")
def _auction_won(st: ArchState, ev: dict) -> None:
    st.phase = "ORDER"
    st.picker = ev["seat"]
    st.picked = []


@on("OrderPicked", "picked")
def _order_pick(st: ArchState, ev: dict) -> None:
    st.picked.append(ev["picked"])


@on("TurnOrderSet")
def _order_set(st: ArchState, ev: dict) -> None:
    st.order = list(ev["order"])
    st.picker = None
    st.picked = []
    st.phase = "INFLUENCE"


@on("PhaseStarted")
def _phase(st: ArchState, ev: dict) -> None:
    st.phase = ev["phase"]
    if ev["phase"] == "BALANCE":
        st.p4_done = False
    elif ev["phase"] == "ACTIONS":
        st.active = -1
        st.turn = None
    elif ev["phase"] == "EVOLUTION":
        st.active = 0
        st.turn = None
        st.p6 = {"stage": "step"}


@on("GameEnded")
def _ended(st: ArchState, ev: dict) -> None:
    st.phase = "OVER"
    st.end = {k: v for k, v in ev.items() if k != "type"}
    st.crisis = None
    st.offer = None
    st.discard_pending = None  # an open step keeps what it did (RESEARCHER's revealed cards stay in it)


@on("RoundEnded")
def _round_end(st: ArchState, ev: dict) -> None:
    st.rounds_completed += 1
    st.p6 = None
    st.turn = None


# ---------------------------------------------------------------------------------------------------- money / cubes
@on("MoneyChanged", "players")
def _money(st: ArchState, ev: dict) -> None:
    st.players[ev["seat"]]["money"] += ev["delta"]
    if ev.get("counterpart") is not None:
        st.players[ev["counterpart"]]["money"] -= ev["delta"]


@on("CubesGained", "bank", "players")
def _cubes_gained(st: ArchState, ev: dict) -> None:
    r = ev["resource"]
    st.bank[r] -= ev["count"]
    st.players[ev["seat"]]["cubes"][r] += ev["count"]


@on("CubesPaid", "bank", "players")
def _cubes_paid(st: ArchState, ev: dict) -> None:
    p = st.players[ev["seat"]]
    for r, k in ev["cubes"].items():
        p["cubes"][r] -= k
        st.bank[r] += k
    p["tokens"] -= ev["tokens"]
    st.tokens_spent += ev["tokens"]
    p["money"] -= ev.get("money", 0)


@on("MarketTraded", "dom", "exp", "players", "step")
def _market_traded(st: ArchState, ev: dict) -> None:
    p = st.players[ev["seat"]]
    row = st.dom if ev["market"] == "DOM" else st.exp
    r = ev["resource"]
    if ev["op"] == "BUY":
        row[r] -= 1
        p["cubes"][r] += 1
        p["money"] -= ev["price"]
    else:
        row[r] += 1
        p["cubes"][r] -= 1
        p["money"] += ev["price"]
    if ev.get("step"):
        step_of(st)["left"] -= 1


@on("CubesToMarket", "bank", "dom", "players")
def _cubes_to_market(st: ArchState, ev: dict) -> None:
    for r in ev["resources"]:
        if ev["seat"] is None:
            st.bank[r] -= 1
        else:
            st.players[ev["seat"]]["cubes"][r] -= 1
        st.dom[r] += 1


# ---------------------------------------------------------------------------------------------------- actions
@on("TurnStarted")
def _turn_started(st: ArchState, ev: dict) -> None:
    st.active = ev["index"]
    st.turn = {"seat": ev["seat"], "action": False, "acted": False, "building": False, "offers": 0, "grants": []}


@on("TurnEnded", "players")
def _turn_ended(st: ArchState, ev: dict) -> None:
    if ev.get("passed"):
        st.players[ev["seat"]]["passed"] = True
    st.turn = None
    st.step = None


@on("ActionStarted", "card_used", "players", "turn")
def _action(st: ArchState, ev: dict) -> None:
    seat = ev["seat"]
    p = st.players[seat]
    a = ev["action"]
    if ev.get("ad", True):
        p["ad_avail"] -= 1
    turn_of(st)["action"] = turn_of(st)["action"] or ev.get("wheel", True)
    turn_of(st)["acted"] = True
    for c in ev.get("with", []):
        st.card_used.add(c)
    for f in ev.get("fees", []):
        p["money"] -= 1
        st.players[f["owner"]]["money"] += 1
    if a == "TAX":
        st.tax_used += 1
        p["taxed"] += 1
    elif a == "REPRODUCE" and ev.get("wheel", True):
        p["reproduced"] = True
    elif a == "EXPLORE":
        if ev.get("slot") == "PERSONAL":
            p["personal_explore_used"] = True
        elif ev.get("slot") == "SHARED":
            st.shared_explores += 1
    step = ev.get("step")
    st.step = deep_copy(step) if step else None


@on("CardUsed", "card_used", "players", "turn")
def _card_used(st: ArchState, ev: dict) -> None:
    seat = ev["seat"]
    st.card_used.add(ev["card"])
    if ev["ad"]:
        st.players[seat]["ad_avail"] -= 1
    if ev["fee"]:
        st.players[seat]["money"] -= ev["fee"]
        st.players[ev["owner"]]["money"] += ev["fee"]
    turn_of(st)["acted"] = True
    step = ev.get("step")
    if step:
        st.step = deep_copy(step)


@on("StepUpdated", "step")
def _step_updated(st: ArchState, ev: dict) -> None:
    step_of(st).update(deep_copy(ev["changes"]))


@on("StepClosed")
def _step_closed(st: ArchState, ev: dict) -> None:
    st.step = None


@on("BuildingAbilityUsed", "players", "turn", "units")
def _ability(st: ArchState, ev: dict) -> None:
    p = st.players[ev["seat"]]
    p["money"] -= ev["fee"]
    p["market_used" if ev["building"] == "MARKET" else "port_used"] = True
    st.units[ev["anchor"]]["engaged"] = True
    turn_of(st)["acted"] = True
    turn_of(st)["building"] = True
    st.step = {"kind": "ability", "market": "DOM" if ev["building"] == "MARKET" else "EXP", "left": ev["trades"]}


from domain.archipelago import evolve_crises, evolve_map, evolve_market  # noqa: E402  (they register their handlers)

__all__ = ["TOUCHES", "apply", "evolve", "evolve_crises", "evolve_map", "evolve_market", "on", "place_tile"]
