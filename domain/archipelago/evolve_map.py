"""Archipelago fold, part 2: units on the map and exploration."""

from __future__ import annotations

from domain.archipelago import data as D
from domain.archipelago.evolve import place_tile
from domain.archipelago.fold import on
from domain.archipelago.state import ArchState, Unit, step_of


# ---------------------------------------------------------------------------------------------------- units
def _vacate(st: ArchState, u: Unit) -> None:
    place = u["place"]
    if place.startswith("B:"):
        st.buildings[u["tile"]][place[2:]] = None
    elif place.startswith("I:"):
        st.tiles[u["tile"]]["occ"][int(place[2:])] = None
    u["temp"] = False


@on("UnitMoved", "buildings", "step", "tiles", "units")
def _unit_moved(st: ArchState, ev: dict) -> None:
    u = st.units[ev["unit"]]
    _vacate(st, u)
    u["tile"] = ev["to"]
    u["place"] = "LAND" if u["kind"] == "C" else "SEA"
    if st.step and step_of(st).get("kind") == "migrate":
        mv = step_of(st)["moved"]
        if ev["unit"] not in mv:
            mv.append(ev["unit"])
        for key in ("walk", "convoy", "sea"):
            if ev.get("via") == key:
                step_of(st)[key][ev["unit"]] = step_of(st)[key].get(ev["unit"], 0) + 1
        if ev.get("via") == "sea":
            step_of(st)["ship_moves"] += 1


@on("UnitAssigned", "buildings", "step", "tiles", "units")
def _assigned(st: ArchState, ev: dict) -> None:
    u = st.units[ev["unit"]]
    _vacate(st, u)
    u["place"] = f"I:{ev['icon']}"
    u["engaged"] = True
    st.tiles[u["tile"]]["occ"][ev["icon"]] = ev["unit"]
    step_of(st)["assigned"].append(ev["unit"])


@on("UnitHoused", "buildings", "step", "tiles", "units")
def _housed(st: ArchState, ev: dict) -> None:
    u = st.units[ev["unit"]]
    _vacate(st, u)
    u["tile"] = ev["tile"]
    u["place"] = f"B:{ev['building']}"
    st.buildings[ev["tile"]][ev["building"]] = ev["unit"]
    if st.step and step_of(st).get("kind") == "migrate":
        step_of(st)["entered"].append(ev["unit"])


@on("UnitLeftBuilding", "buildings", "step", "tiles", "units")
def _left(st: ArchState, ev: dict) -> None:
    u = st.units[ev["unit"]]
    _vacate(st, u)
    u["place"] = "LAND" if u["kind"] == "C" else "SEA"
    if st.step and step_of(st).get("kind") == "migrate":
        step_of(st)["left_b"].append(ev["unit"])


@on("UnitEngaged", "units")
def _engaged(st: ArchState, ev: dict) -> None:
    st.units[ev["unit"]]["engaged"] = True


@on("CitizenStood", "crisis", "step", "units")
def _stood(st: ArchState, ev: dict) -> None:
    st.units[ev["unit"]]["lying"] = False
    c = st.crisis
    if ev.get("mode") == "supply" and c:
        c["pending"] -= 1
    elif ev.get("mode") == "priest" and c:
        c["priest_left"] -= 1
    elif ev.get("mode") == "diplomat":
        step_of(st)["left"] -= 1


@on("BuildingBuilt", "buildings", "pool", "tiles", "units")
def _built(st: ArchState, ev: dict) -> None:
    tid, b = ev["tile"], ev["building"]
    st.pool[D.BUILDING_POOL_OF[b]] -= 1
    st.buildings.setdefault(tid, {})[b] = None
    u = st.units[ev["builder"]]
    _vacate(st, u)
    u["place"] = f"B:{b}"
    u["engaged"] = True
    u["temp"] = ev["temp"]
    st.buildings[tid][b] = ev["builder"]


@on("CitizenSacrificed", "buildings", "players", "tiles", "units")
def _sacrificed(st: ArchState, ev: dict) -> None:
    u = st.units.pop(ev["unit"])
    _vacate(st, u)
    p = st.players[ev["seat"]]
    p["track"].remove(ev["card"])
    p["wonders"].append({"card": ev["card"], "citizen": ev["unit"]})


# ---------------------------------------------------------------------------------------------------- exploration
@on("TileDrawn", "stack", "step")
def _tile_drawn(st: ArchState, ev: dict) -> None:
    idx = ev["index"]
    entry = st.stack.pop(idx)
    step_of(st).update(phase="place", tile=entry[0], look=None)


@on("CartographerLooked", "cart_seen", "stack", "step")
def _cart(st: ArchState, ev: dict) -> None:
    step_of(st).update(phase="cartographer", look=ev["count"])
    st.cart_seen[ev["seat"]] = [list(x) for x in st.stack[: ev["count"]]]


@on("TilePlaced", "buildings", "posmap", "step", "tiles", "units")
def _tile_placed(st: ArchState, ev: dict) -> None:
    place_tile(st, ev["tile"], (ev["pos"]["q"], ev["pos"]["r"]), ev["face"], ev["rot"])
    u = st.units[ev["mover"]]
    _vacate(st, u)
    u["tile"] = ev["tile"]
    u["place"] = "LAND" if u["kind"] == "C" else "SEA"
    step_of(st).update(phase="icons", market_icon=None, own_done=False)


@on("TileDiscarded", "tile_discard")
def _tile_discarded(st: ArchState, ev: dict) -> None:
    st.tile_discard.append(ev["tile"])
    st.step = None
