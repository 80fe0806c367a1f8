"""What each seat sees (§3.10), and the full state once the game is over.

Section (§) and ruling (D, Q) numbers are those of docs/rules/archipelago.md.
"""

from __future__ import annotations

from typing import Any

from domain.archipelago import data as D
from domain.archipelago.state import ArchState, both_faces, face_of, population, tile_controller


def _back(card: str) -> dict:
    b = D.CARDS[card].back
    return {
        "back": b.id,
        "color": b.color,
        "domestic": list(b.domestic) if b.domestic else None,
        "export": [list(x) for x in b.export],
        "event": b.event,
    }


def _dealing(st: ArchState) -> bool:
    """Whether turn 0's hands are being dealt (a past version between ``Turn0Started`` and the last seat's
    ``Turn0HandDealt``): the stack's top tile is then the next seat's, whose hand only its holder sees (§3.10)."""
    return st.phase == "TURN0" and st.t0 is not None and st.t0.get("dealt", st.n) < st.n


def _face(tid: str, face: str) -> dict:
    f = face_of(tid, face)
    return {"edges": f.edges, "icons": list(f.icons), "huts": f.huts}


def _crisis_view(st: ArchState, everything: bool) -> dict | None:
    """The open crisis, named by its back: the front of the deck's top card is hidden (§3.10 v1.2)."""
    if st.crisis is None:
        return None
    out = dict(st.crisis)
    if not everything:
        out.pop("card", None)
    return out


def _public_player(st: ArchState, s: int) -> dict:
    p = st.players[s]
    return {
        "seat": s,
        "ad_total": p["ad_total"],
        "ad_available": p["ad_avail"],
        "track": list(p["track"]),
        "wonders": [dict(w) for w in p["wonders"]],
        "supply_citizens": p["sup_c"],
        "supply_ships": p["sup_s"],
        "reproduced": p["reproduced"],
        "market_used": p["market_used"],
        "port_used": p["port_used"],
        "personal_explore_used": p["personal_explore_used"],
        "taxed": p["taxed"],
        "passed": p["passed"],
        "contrib": p["contrib"],
        "cards_owned": len(p["track"]),
    }


def _private(st: ArchState, s: int) -> dict:
    p = st.players[s]
    return {"money": p["money"], "cubes": dict(p["cubes"]), "explorer_tokens": p["tokens"]}


def _step_view(st: ArchState, seat: int | None) -> dict | None:
    if st.step is None:
        return None
    out = {k: (sorted(v) if isinstance(v, set) else v) for k, v in st.step.items()}
    tid = st.step.get("tile")
    if tid and tid not in st.tiles:  # drawn, not yet placed: both faces are public (§3.10, Q39)
        out["tile_faces"] = both_faces(tid)
    return out


def view(st: ArchState, seat: int | None, everything: bool = False) -> dict[str, Any]:
    from domain.archipelago.decide import prompt

    if not st.started:
        return {"started": False}
    open_holdings = everything or st.options.get("no_secrets")
    kind, seats = prompt(st)
    players = []
    for s in range(st.n):
        pv = _public_player(st, s)
        if open_holdings or s == seat:
            pv.update(_private(st, s))
        if everything or s == seat:
            pv["objectives"] = list(st.objectives[s])
            if s == seat:  # objectives returned under MORE_FUN are never revealed
                pv["dealt_objectives"] = list(st.dealt_objectives[s])
            pv["hand"] = [{"tile": t, "faces": both_faces(t)} for t, _ in st.hands[s]]
            pv["cartographer_seen"] = [x[0] for x in st.cart_seen.get(s, [])]
            pv["cartographer_tiles"] = [
                {"tile": t, "up": u, "faces": both_faces(t)} for t, u in st.cart_seen.get(s, [])
            ]
        else:
            pv["objectives_count"] = len(st.objectives[s])
            pv["hand_count"] = len(st.hands[s])
        if st.phase == "BID":
            pv["bid_committed"] = s in st.bids
            if everything or s == seat:
                pv["bid"] = st.bids.get(s)
        players.append(pv)
    tiles = []
    for tid, t in sorted(st.tiles.items()):
        tiles.append(
            {
                "tile": tid,
                "q": t["pos"][0],
                "r": t["pos"][1],
                "face": t["face"],
                "rot": t["rot"],
                "edges": t["edges"],
                "has_land": t["land"],
                "has_sea": t["sea"],
                "icons": list(t["icons"]),
                "occupants": list(t["occ"]),
                "huts": t["huts"],
                "controller": tile_controller(st, tid),
                "buildings": dict(st.buildings.get(tid, {})),
            }
        )
    units = [
        {
            "unit": u,
            "owner": x["owner"],
            "kind": "citizen" if x["kind"] == "C" else "ship",
            "tile": x["tile"],
            "place": x["place"],
            "lying": x["lying"],
            "engaged": x["engaged"],
            "temp_housed": x["temp"],
        }
        for u, x in sorted(st.units.items())
    ]
    out: dict[str, Any] = {
        "started": True,
        "seats": st.n,
        "options": dict(st.options),
        "phase": st.phase,
        "round": st.round,
        "rounds_completed": st.rounds_completed,
        "order": list(st.order),
        "prompt": kind,
        "to_act": sorted(seats),
        "rebellion": st.reb,
        "population": population(st),
        "surplus": st.sur,
        "bank": dict(st.bank),
        "domestic_market": dict(st.dom),
        "export_market": dict(st.exp),
        "explorer_stacks": list(st.stacks),
        "building_pool": dict(st.pool),
        "deck_size": len(st.deck),
        "deck_top_back": _back(st.deck[0]) if st.deck else None,
        "market": [
            None
            if m is None
            else {
                "slot": i,
                "card": m[0],
                "name": D.CARDS[m[0]].name,
                "orientation": m[1],
                # orientation 3 is the skull: mid-step, before the card is removed
                "price": D.CARDS[m[0]].prices[m[1]] if m[1] < 3 else None,
            }
            for i, m in enumerate(st.market)
        ],
        "evolution_discard": list(st.evo_discard),
        "trends": list(st.trends),
        "table_objectives": list(st.table_objectives),
        "tiles": tiles,
        "units": units,
        "exploration_stack_size": len(st.stack),
        "exploration_top_face": _face(st.stack[0][0], st.stack[0][1])
        if st.stack and (everything or not _dealing(st))
        else None,
        "tile_discard": list(st.tile_discard),
        "set_aside_count": len(st.set_aside),
        "tax_slots_used": st.tax_used,
        "shared_explores_used": st.shared_explores,
        "cards_used_this_round": sorted(st.card_used),
        "players": players,
        "crisis": _crisis_view(st, everything),
        "turn": dict(st.turn) if st.turn else None,
        "step": _step_view(st, seat),
        "offer": st.offer,
        "discard_pending": st.discard_pending,
        "auction": {
            "bidders": list(st.bidders),
            "attempt": st.bid_attempt,
            "picker": st.picker,
            "picked": list(st.picked),
        },
        "end": dict(st.end) if st.end else None,
    }
    if everything:
        out["deck"] = list(st.deck)
        out["exploration_stack"] = [list(x) for x in st.stack]
        out["set_aside"] = [list(x) for x in st.set_aside]
    return out


def reveal_all(st: ArchState) -> dict[str, Any]:
    return view(st, None, everything=True)
