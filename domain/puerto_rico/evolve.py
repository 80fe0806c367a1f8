"""The fold: ``apply(state, event)`` mutates a private state; the cursor then settles on the next point
that needs a decision or an automatic event (flow.py). ``evolve`` (in rules.py) is copy + apply."""

from __future__ import annotations

from typing import Any

from . import queries as q
from .data import (
    BUILDING_INDEX,
    CAPS,
    CITY_SPACES,
    GOOD_INDEX,
    QUARRY,
    SETUP,
    SIZES,
    TARGET_INDEX,
    TILE_INDEX,
    role_cards,
    role_kind,
)
from .flow import end_role, settle, start_storage
from .state import BUILDER, CAPTAIN, CRAFTSMAN, MAYOR, OVER, PICK, SETTLER, TRADER, Player, PRState
from .state import SETUP as SETUP_PHASE

Event = dict[str, Any]


# ---------------------------------------------------------------- event handlers


def _game_started(s: PRState, e: Event) -> None:
    n = e["seats"]
    variant = e["variant"]
    t = SETUP[n]
    s.started = True
    s.n = n
    s.variant = variant
    s.max_rounds = e["max_rounds"]
    s.hide_vp_chips = e["hide_vp_chips"]
    s.first_governor = s.governor = e["first_governor"]
    s.round = 1
    s.players = [Player(doubloons=t.doubloons) for _ in range(n)]
    plantations = list(t.plantations)
    for offset, kind in enumerate(t.starting):
        s.players[(s.governor + offset) % n].tiles[kind] += 1
        plantations[kind] -= 1
    s.role_names = role_cards(t.prospectors)
    s.role_money = [0] * len(s.role_names)
    s.role_taken = [False] * len(s.role_names)
    s.picks = 0
    s.picks_per_round = t.picks_per_round
    s.min_refill = t.min_refill
    s.phase = SETUP_PHASE
    s.step = ""
    s.current = s.governor
    s.wharf_used = [False] * n
    s.colonist_supply = t.colonists
    s.colonist_ship = t.ship_colonists
    s.vp_supply = t.vp
    s.goods_supply = list(t.goods)
    s.building_supply = list(t.building_copies)
    s.quarries = t.quarries
    s.face_up = [0] * 5
    s.discard = plantations  # the tiles not yet shuffled; the shuffle event moves them to the stack
    s.stack = []
    s.ship_caps = t.ships
    s.ship_kinds = [-1] * len(t.ships)
    s.ship_loads = [0] * len(t.ships)


def _stack_shuffled(s: PRState, e: Event) -> None:
    # "plantations" lists the new face-down stack from the top; the discard pile (all of it) becomes the stack.
    s.stack = [TILE_INDEX[k] for k in reversed(e["plantations"])]
    s.discard = [0] * 5
    settle(s)


def _plantations_dealt(s: PRState, e: Event) -> None:
    for name in e["plantations"]:
        s.stack.pop()
        s.face_up[TILE_INDEX[name]] += 1
    if s.phase == SETUP_PHASE:
        s.phase = PICK
        s.step = "pick"
        s.current = s.governor
    else:
        settle(s)


def _role_selected(s: PRState, e: Event) -> None:
    seat = e["seat"]
    idx = s.role_names.index(e["role"])
    p = s.players[seat]
    s.role_taken[idx] = True
    p.doubloons += s.role_money[idx]
    s.role_money[idx] = 0
    kind = role_kind(e["role"])
    s.picker = seat
    s.current = seat
    s.role = kind
    s.turns_done = 0
    if kind == "prospector":
        p.doubloons += 1
        end_role(s)
        return
    if kind == "settler":
        s.phase, s.step, s.took = SETTLER, "hacienda", -1
    elif kind == "mayor":
        s.phase, s.step = MAYOR, "privilege"
    elif kind == "builder":
        s.phase, s.step, s.built = BUILDER, "build", -1
    elif kind == "craftsman":
        s.phase, s.step = CRAFTSMAN, "produce"
        return
    elif kind == "trader":
        s.phase, s.step = TRADER, "sell"
    else:
        s.phase, s.step, s.no_load, s.captain_loaded = CAPTAIN, "load", 0, False
    settle(s)


def _passed(s: PRState, e: Event) -> None:
    d = e["decision"]
    if d == "hacienda":
        s.step = "take"
    elif d == "take":
        s.took = -1
        s.step = "hospice"
    elif d in ("hospice", "build", "university"):
        s.step = "next" if d != "hospice" else "done"
    elif d == "mayor_privilege":
        s.step = "distribute"
    elif d == "craftsman_privilege":
        end_role(s)
        return
    elif d == "sell":
        s.step = "next"
    elif d == "load":
        s.no_load += 1
        if s.no_load >= s.n:
            start_storage(s)
        else:
            s.current = (s.current + 1) % s.n
    settle(s)


def _hacienda_drawn(s: PRState, e: Event) -> None:
    s.stack.pop()
    s.players[e["seat"]].tiles[TILE_INDEX[e["plantation"]]] += 1
    s.step = "take"
    settle(s)


def _plantation_taken(s: PRState, e: Event) -> None:
    k = TILE_INDEX[e["plantation"]]
    s.face_up[k] -= 1
    s.players[e["seat"]].tiles[k] += 1
    s.took = k
    s.step = "hospice"
    settle(s)


def _quarry_taken(s: PRState, e: Event) -> None:
    s.quarries -= 1
    s.players[e["seat"]].tiles[QUARRY] += 1
    s.took = QUARRY
    s.step = "hospice"
    settle(s)


def _take_colonist_from(s: PRState, source: str) -> None:
    if source == "supply":
        s.colonist_supply -= 1
    else:
        s.colonist_ship -= 1


def _hospice_colonist(s: PRState, e: Event) -> None:
    _take_colonist_from(s, e["source"])
    s.players[e["seat"]].manned[TILE_INDEX[e["tile"]]] += 1
    s.step = "done"
    settle(s)


def _plantations_discarded(s: PRState, e: Event) -> None:
    for name in e["plantations"]:
        k = TILE_INDEX[name]
        s.face_up[k] -= 1
        s.discard[k] += 1
    s.step = "refill"
    settle(s)


def _mayor_colonist(s: PRState, e: Event) -> None:
    s.colonist_supply -= 1
    s.players[e["seat"]].san_juan += 1
    s.step = "distribute"
    settle(s)


def _colonists_distributed(s: PRState, e: Event) -> None:
    for seat, count in enumerate(e["colonists"]):
        s.players[seat].san_juan += count
        s.colonist_ship -= count
    s.step = "arrange"
    s.current = s.picker
    s.turns_done = 0
    settle(s)


def _colonists_arranged(s: PRState, e: Event) -> None:
    """C >= E: every circle filled, the rest in San Juan."""
    p = s.players[e["seat"]]
    total = p.colonists()
    p.manned = p.tiles[:]
    circles = sum(p.tiles)
    for b, c in enumerate(p.buildings):
        if c >= 0:
            p.buildings[b] = CAPS[b]
            circles += CAPS[b]
    p.san_juan = total - circles
    s.step = "next"
    settle(s)


def _colonists_gathered(s: PRState, e: Event) -> None:
    p = s.players[e["seat"]]
    p.san_juan = p.colonists()
    p.manned = [0] * 6
    p.buildings = [0 if c >= 0 else -1 for c in p.buildings]
    s.step = "place"
    settle(s)


def _colonist_placed(s: PRState, e: Event) -> None:
    p = s.players[e["seat"]]
    t = TARGET_INDEX[e["target"]]
    p.san_juan -= 1
    if t < 6:
        p.manned[t] += 1
    else:
        p.buildings[t - 6] += 1
    settle(s)


def _ship_refilled(s: PRState, e: Event) -> None:
    k = e["colonists"]
    s.colonist_supply -= k
    s.colonist_ship += k
    if e["ends_game"] and "colonists" not in s.triggers:
        s.triggers.append("colonists")
    end_role(s)


def _building_bought(s: PRState, e: Event) -> None:
    p = s.players[e["seat"]]
    b = BUILDING_INDEX[e["building"]]
    p.doubloons -= e["price"]
    p.buildings[b] = 0
    p.spaces += SIZES[b]
    s.building_supply[b] -= 1
    if p.spaces >= CITY_SPACES and "city" not in s.triggers:
        s.triggers.append("city")
    s.built = b
    s.step = "university"
    settle(s)


def _university_colonist(s: PRState, e: Event) -> None:
    _take_colonist_from(s, e["source"])
    s.players[e["seat"]].buildings[BUILDING_INDEX[e["building"]]] += 1
    s.step = "next"
    settle(s)


def _goods_produced(s: PRState, e: Event) -> None:
    for row in e["production"]:
        p = s.players[row["seat"]]
        for name, amount in row["goods"].items():
            g = GOOD_INDEX[name]
            p.goods[g] += amount
            s.goods_supply[g] -= amount
        p.doubloons += row["factory_doubloons"]
        if row["seat"] == s.picker:
            s.received = [GOOD_INDEX[name] for name, amount in row["goods"].items() if amount > 0]
    s.step = "privilege"
    if not q.craftsman_privilege_options(s):
        end_role(s)


def _extra_good(s: PRState, e: Event) -> None:
    g = GOOD_INDEX[e["good"]]
    s.players[e["seat"]].goods[g] += 1
    s.goods_supply[g] -= 1
    end_role(s)


def _good_sold(s: PRState, e: Event) -> None:
    g = GOOD_INDEX[e["good"]]
    p = s.players[e["seat"]]
    p.goods[g] -= 1
    p.doubloons += e["price"]
    s.trading_house.append(g)
    s.step = "next"
    settle(s)


def _house_emptied(s: PRState, e: Event) -> None:
    for g in s.trading_house:
        s.goods_supply[g] += 1
    s.trading_house = []
    end_role(s)


def _award_vp(s: PRState, p: Player, vp: int) -> None:
    take = vp if vp < s.vp_supply else s.vp_supply
    p.vp += take
    p.vp_owed += vp - take
    s.vp_supply -= take
    if s.vp_supply <= 0 and "victory_points" not in s.triggers:
        s.triggers.append("victory_points")


def _after_load(s: PRState, seat: int) -> None:
    if seat == s.picker:
        s.captain_loaded = True
    s.no_load = 0
    s.current = (seat + 1) % s.n
    settle(s)


def _goods_shipped(s: PRState, e: Event) -> None:
    seat = e["seat"]
    p = s.players[seat]
    g = GOOD_INDEX[e["good"]]
    i = e["ship"]
    amount = e["amount"]
    p.goods[g] -= amount
    s.ship_kinds[i] = g
    s.ship_loads[i] += amount
    _award_vp(s, p, e["vp"])
    _after_load(s, seat)


def _wharf_shipped(s: PRState, e: Event) -> None:
    seat = e["seat"]
    p = s.players[seat]
    g = GOOD_INDEX[e["good"]]
    amount = e["amount"]
    p.goods[g] -= amount
    s.goods_supply[g] += amount
    s.wharf_used[seat] = True
    _award_vp(s, p, e["vp"])
    _after_load(s, seat)


def _warehouse_kind(s: PRState, e: Event) -> None:
    s.protected.append(GOOD_INDEX[e["good"]])
    p = s.players[e["seat"]]
    s.step = "warehouse" if len(s.protected) < q.storage_capacity(p) else "windrose"


def _barrel_kept(s: PRState, e: Event) -> None:
    p = s.players[e["seat"]]
    for name, amount in e["discarded"].items():
        g = GOOD_INDEX[name]
        p.goods[g] -= amount
        s.goods_supply[g] += amount
    s.step = "store_next"
    settle(s)


def _ships_unloaded(s: PRState, e: Event) -> None:
    for i in e["ships"]:
        s.goods_supply[s.ship_kinds[i]] += s.ship_loads[i]
        s.ship_kinds[i] = -1
        s.ship_loads[i] = 0
    s.wharf_used = [False] * s.n
    s.captain_loaded = False
    s.no_load = 0
    end_role(s)


def _round_ended(s: PRState, e: Event) -> None:
    for name in e["bonus_roles"]:
        s.role_money[s.role_names.index(name)] += 1
    if s.triggers or s.round >= s.max_rounds:
        s.step = "game_end"
        return
    s.round += 1
    s.governor = (s.governor + 1) % s.n
    s.role_taken = [False] * len(s.role_names)
    s.picks = 0
    s.phase = PICK
    s.step = "pick"
    s.current = s.governor


def _game_ended(s: PRState, e: Event) -> None:
    s.aborted = bool(e["aborted"])
    s.phase = OVER
    s.step = ""


HANDLERS = {
    "GameStarted": _game_started,
    "PlantationStackShuffled": _stack_shuffled,
    "PlantationsDealt": _plantations_dealt,
    "RoleSelected": _role_selected,
    "Passed": _passed,
    "HaciendaPlantationDrawn": _hacienda_drawn,
    "PlantationTaken": _plantation_taken,
    "QuarryTaken": _quarry_taken,
    "HospiceColonistPlaced": _hospice_colonist,
    "PlantationsDiscarded": _plantations_discarded,
    "MayorColonistTaken": _mayor_colonist,
    "ColonistsDistributed": _colonists_distributed,
    "ColonistsArranged": _colonists_arranged,
    "ColonistsGathered": _colonists_gathered,
    "ColonistPlaced": _colonist_placed,
    "ColonistShipRefilled": _ship_refilled,
    "BuildingBought": _building_bought,
    "UniversityColonistPlaced": _university_colonist,
    "GoodsProduced": _goods_produced,
    "ExtraGoodTaken": _extra_good,
    "GoodSold": _good_sold,
    "TradingHouseEmptied": _house_emptied,
    "GoodsShipped": _goods_shipped,
    "GoodsShippedByWharf": _wharf_shipped,
    "WarehouseKindChosen": _warehouse_kind,
    "BarrelKept": _barrel_kept,
    "ShipsUnloaded": _ships_unloaded,
    "RoundEnded": _round_ended,
    "GameEnded": _game_ended,
}


# Events whose handler changes the board of e["seat"] only (and shared state), never another player's board.
# Events whose handler changes no player board at all (only shared state and the cursor).
NO_PLAYER = frozenset(
    {
        "PlantationStackShuffled",
        "PlantationsDealt",
        "PlantationsDiscarded",
        "ColonistShipRefilled",
        "TradingHouseEmptied",
        "ShipsUnloaded",
        "RoundEnded",
        "GameEnded",
    }
)
SINGLE_SEAT = frozenset(
    {
        "RoleSelected",
        "Passed",
        "HaciendaPlantationDrawn",
        "PlantationTaken",
        "QuarryTaken",
        "HospiceColonistPlaced",
        "MayorColonistTaken",
        "ColonistsArranged",
        "ColonistsGathered",
        "ColonistPlaced",
        "BuildingBought",
        "UniversityColonistPlaced",
        "ExtraGoodTaken",
        "GoodSold",
        "GoodsShipped",
        "GoodsShippedByWharf",
        "WarehouseKindChosen",
        "BarrelKept",
    }
)


def apply(s: PRState, e: Event) -> None:
    """Apply one event to ``s`` in place (unknown event types are ignored)."""
    handler = HANDLERS.get(e.get("type", ""))
    if handler is not None:
        handler(s, e)
