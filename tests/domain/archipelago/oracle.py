"""The trial-based legal-command generator the rules used before, kept as the oracle for the constructive one:
every candidate command of a prompt, filtered by deciding it (on a copy: ``decide`` leaves the state as it was)
and catching ``IllegalCommand``."""

from __future__ import annotations

import random
from itertools import combinations

from domain.archipelago import data as D
from domain.archipelago.checks import harvest_targets, hire_tiles, reachable_by_convoy, token_options
from domain.archipelago.crises import stand_targets, supply_sources, temple_options
from domain.archipelago.decide import PROMPT_COMMANDS, decide, prompt
from domain.archipelago.flow import icon_choices, turn0_placements
from domain.archipelago.scoring import declarable
from domain.archipelago.state import ArchState, card_owner, linked, owns
from domain.archipelago.steps import explore_movers, explore_positions
from domain.game import IllegalCommand


def _usable_with(st: ArchState, seat: int, action: str) -> list[str]:
    out = []
    for c, card in D.CARDS.items():
        if card.use == f"WITH:{action}" and c not in st.card_used:
            owner = card_owner(st, c)
            if owner == seat or (owner is not None and card.shareable):
                out.append(c)
    return out


def _with_sets(st, seat, action):
    cards = _usable_with(st, seat, action)
    out = [[]]
    for k in range(1, len(cards) + 1):
        out += [list(c) for c in combinations(cards, k)]
    return out


def _pos(p):
    return {"q": p[0], "r": p[1]}


def _units(st, seat, kind=None):
    return sorted(u for u, x in st.units.items() if x["owner"] == seat and (kind is None or x["kind"] == kind))


def candidates(st: ArchState, seat: int, kind: str, ctype: str) -> list[dict]:
    t = {"type": ctype}
    if ctype == "keep_objectives":
        want = 2 if st.n == 2 else 1
        return [{**t, "cards": sorted(c)} for c in combinations(st.dealt_objectives[seat], want)]
    if ctype == "place_start_tile":
        return [{**t, "tile": tid, "pos": _pos(p), "face": f, "rot": r} for tid, p, f, r in turn0_placements(st, seat)]
    if ctype in ("choose_market_icon", "choose_own_icon"):
        holder = st.t0 if st.phase == "TURN0" else st.step
        tid = holder.get("tile")
        if tid is None or tid not in st.tiles:
            return []
        _, cands = icon_choices(st, holder, tid)
        return [{**t, "icon": i} for i in cands]
    if ctype == "discard_card":
        return [{**t, "card": c} for c in st.players[seat]["track"]]
    if ctype == "supply":
        return [{**t, "source": s} for s in supply_sources(st, seat)]
    if ctype == "stand":
        if kind == "dom_supply":
            return [{**t, "citizen": u} for u, _ in stand_targets(st, seat)]
        return [{**t, "citizen": u} for u, x in sorted(st.units.items()) if x["kind"] == "C" and x["lying"]]
    if ctype == "activate_temple":
        return [{**t, "temple": f"{tid}:TEMPLE"} for tid in temple_options(st, seat)]
    if ctype == "export_supply":
        out = []
        for k, u in enumerate(st.crisis["units"]):
            if u["met"]:
                continue
            for r in D.RESOURCES if u["resource"] == "ANY" else (u["resource"],):
                for src in ("MARKET", "CUBE", "TOKEN"):
                    out.append({**t, "unit": k, "source": src, "resource": r})
        return out
    if ctype == "bid":
        return [{**t, "amount": a} for a in range(st.players[seat]["money"] + 1)]
    if ctype == "order_pick":
        return [{**t, "seat": s} for s in range(st.n)]
    if ctype == "harvest":
        return [{**t, "resource": r, "with": w} for r in D.RESOURCES for w in _with_sets(st, seat, "HARVEST")]
    if ctype in ("recruit", "tax"):
        return [{**t, "with": w} for w in _with_sets(st, seat, ctype.upper())]
    if ctype == "trade":
        return [
            {**t, "market": m, "op": o, "resource": r}
            for m in ("DOM", "EXP")
            for o in ("BUY", "SELL")
            for r in D.RESOURCES
        ]
    if ctype == "explore":
        ws = [[], ["C12"]] if owns(st, seat, "C12") else [[]]
        return [
            {**t, "slot": s, "pick": p, "with": w}
            for s in ("PERSONAL", "SHARED")
            for p in ("TOP", "SECOND")
            for w in ws
            if not (w and p == "SECOND")
        ]
    if ctype == "build":
        return _build_candidates(st, seat)
    if ctype == "use_card":
        return _card_candidates(st, seat)
    if ctype == "build_wonder":
        out = []
        for c in st.players[seat]["track"]:
            if D.CARDS[c].use != "WONDER":
                continue
            for tok in token_options(st, seat, D.CARDS[c].wonder_cost[0]):
                for u in _units(st, seat, "C"):
                    out.append({**t, "card": c, "citizen": u, "tokens": tok})
        return out
    if ctype == "use_building":
        return [
            {**t, "building": f"{tid}:{b}"}
            for tid, bs in sorted(st.buildings.items())
            for b in bs
            if b in ("MARKET", "PORT")
        ]
    if ctype == "offer_open":
        return [{**t, "to": s} for s in range(st.n) if s != seat]
    if ctype == "offer_add":
        return _offer_items(st, seat)
    if ctype == "evo_buy":
        occ = [i for i, m in enumerate(st.market) if m is not None]
        return [{**t, "slot": s, "rotate": r} for s in occ for r in ([o for o in occ if o != s] or [None])]
    if ctype == "evo_rotate":
        occ = [i for i, m in enumerate(st.market) if m is not None]
        if len(occ) == 1:
            return [{**t, "slots": occ}]
        return [{**t, "slots": list(c)} for c in combinations(occ, 2)]
    if ctype == "harvest_assign":
        return [{**t, "unit": u, "icon": i} for u, i in harvest_targets(st, seat, st.step["resource"])]
    if ctype == "hire":
        return [{**t, "tile": tid} for tid in hire_tiles(st, seat)]
    if ctype == "birth":
        return [{**t, "tile": tid} for tid in st.step["eligible"]]
    if ctype == "cartographer_pick":
        return [{**t, "index": i} for i in range(st.step.get("look") or 0)]
    if ctype == "place_tile":
        return _placements(st, seat)
    if ctype == "move_ship":
        return _ship_moves(st, seat)
    if ctype == "convoy":
        return [
            {**t, "citizen": u, "to": to}
            for u in _units(st, seat, "C")
            for to in sorted(reachable_by_convoy(st, seat, st.units[u]["tile"]))
        ]
    if ctype == "walk":
        eng = owns(st, seat, "C17")
        return [
            {**t, "citizen": u, "to": to}
            for u in _units(st, seat, "C")
            for to in linked(st, st.units[u]["tile"], "P", eng)
        ]
    if ctype == "enter_building":
        out = []
        for u in _units(st, seat):
            tile = st.units[u]["tile"]
            near = {tile} | set(linked(st, tile, "S" if st.units[u]["kind"] == "S" else "P", owns(st, seat, "C17")))
            for tid in sorted(near):
                for b in st.buildings.get(tid, {}):
                    out.append({**t, "unit": u, "building": f"{tid}:{b}"})
        return out
    if ctype == "leave_building":
        return [{**t, "unit": u} for u in _units(st, seat) if st.units[u]["place"].startswith("B:")]
    if ctype == "ability_trade":
        return [{**t, "op": o, "resource": r} for o in ("BUY", "SELL") for r in D.RESOURCES]
    if ctype == "research_pick":
        return [{**t, "card": None}] + [{**t, "card": c} for c in st.step["revealed"]]
    return [t]


def _build_candidates(st, seat):
    out = []
    withs = _with_sets(st, seat, "BUILD")
    for u in _units(st, seat):
        x = st.units[u]
        if x["engaged"] or x["lying"]:
            continue
        for btype in ("SHIP", "TOWN", "TEMPLE", "MARKET", "PORT"):
            for w in withs:
                cubes = dict(D.BUILD_COSTS[btype][0])
                waives = [None] if not w else sorted(cubes)
                for wv in waives:
                    c2 = dict(cubes)
                    if wv:
                        c2[wv] -= 1
                        c2 = {k: v for k, v in c2.items() if v}
                    for tok in token_options(st, seat, c2):
                        out.append(
                            {
                                "type": "build",
                                "building": btype,
                                "tile": x["tile"],
                                "builder": u,
                                "tokens": tok,
                                "with": w,
                                "waive": wv,
                            }
                        )
    return out


def _card_candidates(st, seat):
    out = []
    t = "use_card"
    for c, card in D.CARDS.items():
        if card.use not in ("AD", "FREE") or card_owner(st, c) is None:
            continue
        if c in ("C03", "C04"):
            out += [{"type": t, "card": c, "op": o, "resource": r} for o in ("BUY", "SELL") for r in D.RESOURCES]
        elif c == "C16":
            out += [{"type": t, "card": c, "resource": r} for r in D.RESOURCES]
        elif c == "C08":
            out += [
                {"type": t, "card": c, "ship": s, "to": to}
                for s in _units(st, seat, "S")
                for to in linked(st, st.units[s]["tile"], "S")
            ]
        elif c == "C13":
            ws = [[], ["C12"]] if owns(st, seat, "C12") else [[]]
            out += [
                {"type": t, "card": c, "pick": p, "with": w}
                for p in ("TOP", "SECOND")
                for w in ws
                if not (w and p == "SECOND")
            ]
        elif c == "C18":
            out += [
                {"type": t, "card": c, "ship": s, "victim": v}
                for s in _units(st, seat, "S")
                for v in range(st.n)
                if v != seat
            ]
        elif c == "P13":
            out += [{"type": t, "card": c, "tokens": tok} for tok in token_options(st, seat, D.FESTIVAL_COST)]
        elif c == "P14":
            rs = D.RESOURCES
            combos = [[r] for r in rs] + [[a, b] for i, a in enumerate(rs) for b in rs[i:]]
            out += [{"type": t, "card": c, "cubes": cb} for cb in combos]
        else:
            out.append({"type": t, "card": c})
    return out


def _placements(st, seat):
    from domain.archipelago.flow import placement_ok
    from domain.archipelago.state import face_of, rotate_edges

    out = []
    tid = st.step.get("tile")
    if st.step.get("phase") != "place" or tid is None:
        return []
    for pos in explore_positions(st):
        for face in ("A", "B"):
            for rot in range(6):
                edges = rotate_edges(face_of(tid, face).edges, rot)
                if not placement_ok(st, pos, edges):
                    continue
                for m in explore_movers(st, seat, pos, edges):
                    out.append({"type": "place_tile", "pos": _pos(pos), "face": face, "rot": rot, "mover": m})
    return out


def _ship_moves(st, seat):
    out = []
    for s in _units(st, seat, "S"):
        tile = st.units[s]["tile"]
        cits = [
            u
            for u in _units(st, seat, "C")
            if st.units[u]["tile"] == tile and not st.units[u]["lying"] and not st.units[u]["engaged"]
        ]
        for to in linked(st, tile, "S"):
            for k in range(len(cits) + 1):
                for pas in combinations(cits, k):
                    out.append({"type": "move_ship", "ship": s, "to": to, "passengers": list(pas)})
    return out


def _offer_items(st, seat):
    items = [{"kind": "MONEY_1"}, {"kind": "MONEY_5"}, {"kind": "TOKEN"}]
    items += [{"kind": "CUBE", "resource": r} for r in D.RESOURCES]
    out = [{"type": "offer_add", "side": "GIVE", "item": i} for i in items]
    out += [
        {"type": "offer_add", "side": "GIVE", "item": {"kind": "CARD", "card": c}} for c in st.players[seat]["track"]
    ]
    out += [{"type": "offer_add", "side": "GET", "item": i} for i in items]
    to = st.offer["to"]
    out += [{"type": "offer_add", "side": "GET", "item": {"kind": "CARD", "card": c}} for c in st.players[to]["track"]]
    for tid in sorted(st.tiles):
        for g in ("HARVEST_ON", "BUILD_ON"):
            out.append({"type": "offer_add", "side": "GET", "item": {"kind": "GRANT", "grant": g, "tile": tid}})
        for b in st.buildings.get(tid, {}):
            out.append(
                {
                    "type": "offer_add",
                    "side": "GET",
                    "item": {"kind": "GRANT", "grant": "ENTER", "building": f"{tid}:{b}"},
                }
            )
    return out


def trial_legal_commands(st: ArchState, seat: int) -> list[dict]:
    kind, seats = prompt(st)
    if kind is None or seat not in seats:
        return []
    out = []
    for ctype in PROMPT_COMMANDS[kind]:
        for cmd in candidates(st, seat, kind, ctype):
            try:
                decide(st, cmd, seat, random.Random(0))
            except IllegalCommand:
                continue
            out.append(cmd)
    if st.phase not in ("OBJECTIVES", "TURN0"):
        out += [{"type": "declare_end", "objective": o} for o in declarable(st, seat)]
    return out
