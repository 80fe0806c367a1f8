"""``legal_commands``, built constructively: one generator per command type yields exactly the commands its
handler accepts, using the same rule predicates (``checks``, ``state``, ``steps``), never by trying a handler
and catching ``IllegalCommand``. A property test compares every generator with that trial over random
positions (``tests/domain/archipelago/oracle.py``).

Every generator has the shape ``(st, seat, kind) -> list[dict]`` and lists its commands in a fixed order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations

from domain.archipelago import data as D
from domain.archipelago.actions import birth_step, build_cost_cubes, standing_citizens
from domain.archipelago.checks import (
    harvest_targets,
    hire_tiles,
    market_price,
    reachable_by_convoy,
    token_options,
)
from domain.archipelago.crises import stand_targets, supply_sources, temple_options
from domain.archipelago.decide import PROMPT_COMMANDS, prompt
from domain.archipelago.engine import icon_choices, placement_ok, turn0_placements
from domain.archipelago.scoring import declarable
from domain.archipelago.state import (
    ArchState,
    Unit,
    anchor_ready,
    available,
    building_controller,
    can_add_citizen,
    card_owner,
    card_price,
    face_of,
    housed,
    linked,
    lying_count,
    owns,
    permitted,
    rotate_edges,
    tile_controller,
)
from domain.archipelago.steps import explore_movers, explore_positions, hire_price
from domain.archipelago.trades import money_of, others_public_cubes, side_total

Command = dict
Generator = Callable[[ArchState, int, str], list[Command]]


# ---------------------------------------------------------------------------------------------------- helpers
def _pos(p: tuple[int, int]) -> dict[str, int]:
    return {"q": p[0], "r": p[1]}


def _units(st: ArchState, seat: int, kind: str | None = None) -> list[str]:
    return sorted(u for u, x in st.units.items() if x["owner"] == seat and (kind is None or x["kind"] == kind))


def _with_sets(st: ArchState, seat: int, action: str) -> list[tuple[list[str], int]]:
    """Every accepted ``with`` list of a wheel action and the number of shared-card fees it costs."""
    usable: list[tuple[str, bool]] = []
    for c, card in D.CARDS.items():
        if card.use == f"WITH:{action}" and c not in st.card_used:
            owner = card_owner(st, c)
            if owner == seat or (owner is not None and card.shareable):
                usable.append((c, owner != seat))
    money = st.players[seat]["money"]
    out: list[tuple[list[str], int]] = []
    for k in range(len(usable) + 1):
        for combo in combinations(usable, k):
            fees = sum(1 for _, shared in combo if shared)
            if fees <= money:
                out.append(([c for c, _ in combo], fees))
    return out


def _wheel_free(st: ArchState, seat: int) -> bool:
    assert st.turn is not None
    return not st.turn["action"] and st.players[seat]["ad_avail"] >= 1


def _explore_picks(st: ArchState, seat: int) -> Iterator[tuple[str, list[str]]]:
    """(pick, with) pairs that ``actions.explore_open`` accepts."""
    cart = owns(st, seat, "C12") and "C12" not in st.card_used
    for pick in ("TOP", "SECOND"):
        for cards in ([], ["C12"]) if owns(st, seat, "C12") else ([],):
            if cards and (pick == "SECOND" or not cart):
                continue
            need = 2 if pick == "SECOND" and not cards else 1
            if len(st.stack) >= need:
                yield pick, cards


def _payable(st: ArchState, seat: int, cubes: dict[str, int], money: int) -> list[dict[str, int]]:
    """Every ``tokens`` split that pays ``cubes`` and ``money`` (``checks.check_payment`` accepts it)."""
    if st.players[seat]["money"] < money:
        return []
    return token_options(st, seat, cubes)


# ---------------------------------------------------------------------------------------------------- setup
def _keep_objectives(st: ArchState, seat: int, kind: str) -> list[Command]:
    want = 2 if st.n == 2 else 1
    dealt = st.dealt_objectives[seat]
    return [{"type": "keep_objectives", "cards": sorted(c)} for c in combinations(dealt, want) if len(set(c)) == want]


def _place_start_tile(st: ArchState, seat: int, kind: str) -> list[Command]:
    return [
        {"type": "place_start_tile", "tile": tid, "pos": _pos(p), "face": f, "rot": r}
        for tid, p, f, r in turn0_placements(st, seat)
    ]


def _icon(which: str) -> Generator:
    ctype = f"choose_{which}_icon"

    def generate(st: ArchState, seat: int, kind: str) -> list[Command]:
        if st.phase == "TURN0":
            assert st.t0 is not None
            holder, open_ = st.t0, st.t0["sub"] == "icons"
        else:
            assert st.step is not None
            holder, open_ = st.step, st.step.get("phase") == "icons"
        tid = holder.get("tile")
        if not open_ or tid is None or tid not in st.tiles:
            return []
        pending, cands = icon_choices(st, holder, tid)
        if pending != which:
            return []
        return [{"type": ctype, "icon": i} for i in cands]

    return generate


def _discard_card(st: ArchState, seat: int, kind: str) -> list[Command]:
    return [{"type": "discard_card", "card": c} for c in st.players[seat]["track"]]


# ---------------------------------------------------------------------------------------------------- crises
def _supply(st: ArchState, seat: int, kind: str) -> list[Command]:
    c = st.crisis
    assert c is not None
    if c["pending"] or c["temple"] is not None or lying_count(st) < 1:
        return []
    return [{"type": "supply", "source": s} for s in supply_sources(st, seat)]


def _stand(st: ArchState, seat: int, kind: str) -> list[Command]:
    if kind == "dom_supply":
        return [{"type": "stand", "citizen": u} for u, _ in stand_targets(st, seat)]
    assert st.step is not None
    if st.step["left"] < 1:
        return []
    return [{"type": "stand", "citizen": u} for u, x in sorted(st.units.items()) if x["kind"] == "C" and x["lying"]]


def _activate_temple(st: ArchState, seat: int, kind: str) -> list[Command]:
    return [{"type": "activate_temple", "temple": f"{tid}:TEMPLE"} for tid in temple_options(st, seat)]


def _temple_done(st: ArchState, seat: int, kind: str) -> list[Command]:
    assert st.crisis is not None
    return [{"type": "temple_done"}] if st.crisis["temple"] is not None else []


def _supply_done(st: ArchState, seat: int, kind: str) -> list[Command]:
    c = st.crisis
    assert c is not None
    if c["part"] == "DOM" and (c["pending"] or c["temple"] is not None):
        return []
    return [{"type": "supply_done"}]


def _export_supply(st: ArchState, seat: int, kind: str) -> list[Command]:
    assert st.crisis is not None
    p = st.players[seat]
    out = []
    for k, u in enumerate(st.crisis["units"]):
        if u["met"]:
            continue
        for r in D.RESOURCES if u["resource"] == "ANY" else (u["resource"],):
            ok = {"MARKET": st.exp[r] > 0, "CUBE": p["cubes"][r] > 0, "TOKEN": p["tokens"] > 0}
            out += [
                {"type": "export_supply", "unit": k, "source": src, "resource": r}
                for src in ("MARKET", "CUBE", "TOKEN")
                if ok[src]
            ]
    return out


# ---------------------------------------------------------------------------------------------------- auction
def _bid(st: ArchState, seat: int, kind: str) -> list[Command]:
    if seat in st.bids:
        return []
    return [{"type": "bid", "amount": a} for a in range(st.players[seat]["money"] + 1)]


def _order_pick(st: ArchState, seat: int, kind: str) -> list[Command]:
    return [{"type": "order_pick", "seat": s} for s in range(st.n) if s not in st.picked]


# ---------------------------------------------------------------------------------------------------- wheel
def _harvest(st: ArchState, seat: int, kind: str) -> list[Command]:
    if not _wheel_free(st, seat):
        return []
    withs = _with_sets(st, seat, "HARVEST")
    out = []
    for r in D.RESOURCES:
        if not harvest_targets(st, seat, r):
            continue
        for w, _ in withs:
            bonus = [c for c in w if c in D.HARVEST_BONUS_CARDS]
            if len(bonus) > 1 or (bonus and r not in D.HARVEST_BONUS_CARDS[bonus[0]]):
                continue
            out.append({"type": "harvest", "resource": r, "with": w})
    return out


def _recruit(st: ArchState, seat: int, kind: str) -> list[Command]:
    p = st.players[seat]
    price = D.recruit_price(st.sur)
    if not _wheel_free(st, seat) or price is None or p["sup_c"] < 1 or not hire_tiles(st, seat):
        return []
    out = []
    for w, fees in _with_sets(st, seat, "RECRUIT"):
        cost = max(0, price - D.OVERSEER_DISCOUNT) if "C09" in w else price
        if p["money"] >= cost + fees:
            out.append({"type": "recruit", "with": w})
    return out


def _reproduce(st: ArchState, seat: int, kind: str) -> list[Command]:
    if not _wheel_free(st, seat) or st.players[seat]["reproduced"]:
        return []
    return [{"type": "reproduce"}] if birth_step(st, seat, "wheel")["eligible"] else []


def _tax(st: ArchState, seat: int, kind: str) -> list[Command]:
    if not _wheel_free(st, seat) or st.tax_used >= D.TAX_SLOTS[st.n]:
        return []
    return [{"type": "tax", "with": w} for w, _ in _with_sets(st, seat, "TAX")]


def _trade(st: ArchState, seat: int, kind: str) -> list[Command]:
    if not _wheel_free(st, seat):
        return []
    return [
        {"type": "trade", "market": m, "op": o, "resource": r}
        for m in ("DOM", "EXP")
        for o in ("BUY", "SELL")
        for r in D.RESOURCES
        if market_price(st, seat, m, o, r) is not None
    ]


def _explore(st: ArchState, seat: int, kind: str) -> list[Command]:
    if not _wheel_free(st, seat):
        return []
    slots = []
    if not st.players[seat]["personal_explore_used"]:
        slots.append("PERSONAL")
    if st.shared_explores < D.EXPLORE_SHARED_SLOTS[st.n]:
        slots.append("SHARED")
    picks = list(_explore_picks(st, seat))
    return [{"type": "explore", "slot": s, "pick": p, "with": w} for s in slots for p, w in picks]


def _migrate(st: ArchState, seat: int, kind: str) -> list[Command]:
    return [{"type": "migrate"}] if _wheel_free(st, seat) else []


BUILDINGS = ("SHIP", "TOWN", "TEMPLE", "MARKET", "PORT")


def _can_build_here(st: ArchState, seat: int, u: Unit, btype: str) -> bool:
    """The builder and tile conditions of ``actions.cmd_build`` (the payment aside)."""
    t = st.tiles[u["tile"]]
    if btype == "SHIP":
        return u["kind"] == "C" and t["sea"] and st.players[seat]["sup_s"] >= 1
    if housed(u) or (u["kind"] == "S" and btype != "PORT"):
        return False
    if not t["land"] or (btype == "PORT" and not t["sea"]):
        return False
    return btype not in st.buildings.get(u["tile"], {}) and st.pool[D.BUILDING_POOL_OF[btype]] >= 1


def _build(st: ArchState, seat: int, kind: str) -> list[Command]:
    if not _wheel_free(st, seat):
        return []
    out = []
    withs = _with_sets(st, seat, "BUILD")
    for uid in _units(st, seat):
        u = st.units[uid]
        if not available(u) or not permitted(st, seat, "BUILD_ON", u["tile"]):
            continue
        for btype in BUILDINGS:
            if not _can_build_here(st, seat, u, btype):
                continue
            for w, fees in withs:
                if "C14" in w and btype == "SHIP":
                    continue
                for waive in sorted(D.BUILD_COSTS[btype][0]) if "C14" in w else [None]:
                    cubes, money = build_cost_cubes(st, seat, btype, waive)
                    for tok in _payable(st, seat, cubes, money + fees):
                        out.append(
                            {
                                "type": "build",
                                "building": btype,
                                "tile": u["tile"],
                                "builder": uid,
                                "tokens": tok,
                                "with": w,
                                "waive": waive,
                            }
                        )
    return out


# ---------------------------------------------------------------------------------------------------- cards
CardGenerator = Callable[[ArchState, int, int], list[dict]]


def _card_c01(st: ArchState, seat: int, fee: int) -> list[dict]:
    return [{}] if st.deck else []


def _card_market(market: str, ops: tuple[str, ...], bonus: int = 0) -> CardGenerator:
    def generate(st: ArchState, seat: int, fee: int) -> list[dict]:
        out = []
        for o in ops:
            for r in D.RESOURCES:
                if market_price(st, seat, market, o, r, extra_money=fee, bonus=bonus) is not None:
                    out.append({"op": o, "resource": r} if len(ops) > 1 else {"resource": r})
        return out

    return generate


def _card_rebellion(st: ArchState, seat: int, fee: int) -> list[dict]:
    return [{}] if st.reb >= 1 else []


def _card_navigator(st: ArchState, seat: int, fee: int) -> list[dict]:
    return [
        {"ship": s, "to": to}
        for s in _units(st, seat, "S")
        if available(st.units[s])
        for to in linked(st, st.units[s]["tile"], "S")
    ]


def _card_midwife(st: ArchState, seat: int, fee: int) -> list[dict]:
    return [{}] if birth_step(st, seat, "midwife")["eligible"] else []


def _card_diplomat(st: ArchState, seat: int, fee: int) -> list[dict]:
    return [{}] if lying_count(st) >= 1 else []


def _card_conquistador(st: ArchState, seat: int, fee: int) -> list[dict]:
    return [{"pick": p, "with": w} for p, w in _explore_picks(st, seat)]


def _card_banker(st: ArchState, seat: int, fee: int) -> list[dict]:
    return [{}] if standing_citizens(st, seat) >= 2 else []


def _card_pirate(st: ArchState, seat: int, fee: int) -> list[dict]:
    out = []
    for s in _units(st, seat, "S"):
        ship = st.units[s]
        if not available(ship):
            continue
        for v in range(st.n):
            if v != seat and any(
                u["owner"] == v and u["kind"] == "S" and u["tile"] == ship["tile"] for u in st.units.values()
            ):
                out.append({"ship": s, "victim": v})
    return out


def _card_surplus(st: ArchState, seat: int, fee: int) -> list[dict]:
    return [{}] if st.sur >= 1 else []


def _card_festival(st: ArchState, seat: int, fee: int) -> list[dict]:
    if st.reb < 1:
        return []
    return [{"tokens": tok} for tok in _payable(st, seat, D.FESTIVAL_COST, fee)]


def _card_charity(st: ArchState, seat: int, fee: int) -> list[dict]:
    rs = D.RESOURCES
    combos = [[r] for r in rs] + [[a, b] for i, a in enumerate(rs) for b in rs[i:]]
    p = st.players[seat]
    return [
        {"cubes": cb}
        for cb in combos
        if all(p["cubes"][r] >= cb.count(r) and st.dom[r] + cb.count(r) <= D.DOM_CAP for r in set(cb))
    ]


def _card_plain(st: ArchState, seat: int, fee: int) -> list[dict]:
    return [{}]


CARD_GENERATORS: dict[str, CardGenerator] = {
    "C01": _card_c01,
    "C02": _card_c01,
    "C03": _card_market("DOM", ("BUY", "SELL")),
    "C04": _card_market("EXP", ("BUY", "SELL")),
    "C06": _card_rebellion,
    "C08": _card_navigator,
    "C10": _card_midwife,
    "C11": _card_diplomat,
    "C13": _card_conquistador,
    "C15": _card_banker,
    "C16": _card_market("EXP", ("SELL",), D.SMUGGLER_BONUS),
    "C18": _card_pirate,
    "P06": _card_surplus,
    "P07": _card_surplus,
    "P13": _card_festival,
    "P14": _card_charity,
}


def card_fee(st: ArchState, seat: int, card_id: str) -> int | None:
    """The fee for using ``card_id`` now, or ``None`` when it cannot be used (``actions.card_user``)."""
    card = D.CARDS[card_id]
    owner = card_owner(st, card_id)
    if owner is None or card.use not in ("AD", "FREE") or card_id in st.card_used:
        return None
    fee = 0
    if owner != seat:
        if not card.shareable:
            return None
        fee = D.SHARED_CARD_FEE
    p = st.players[seat]
    if p["money"] < fee or (card.use == "AD" and p["ad_avail"] < 1):
        return None
    return fee


def _use_card(st: ArchState, seat: int, kind: str) -> list[Command]:
    out = []
    for c in D.CARDS:
        fee = card_fee(st, seat, c)
        if fee is None:
            continue
        for fields in CARD_GENERATORS.get(c, _card_plain)(st, seat, fee):
            out.append({"type": "use_card", "card": c, **fields})
    return out


def _build_wonder(st: ArchState, seat: int, kind: str) -> list[Command]:
    p = st.players[seat]
    if p["ad_avail"] < 1:
        return []
    citizens = [u for u in _units(st, seat, "C") if available(st.units[u])]
    out = []
    for c in p["track"]:
        if D.CARDS[c].use != "WONDER":
            continue
        cubes, money = D.CARDS[c].wonder_cost
        for tok in _payable(st, seat, cubes, money):
            out += [{"type": "build_wonder", "card": c, "citizen": u, "tokens": tok} for u in citizens]
    return out


def _use_building(st: ArchState, seat: int, kind: str) -> list[Command]:
    assert st.turn is not None
    if st.turn["building"]:
        return []
    p = st.players[seat]
    out = []
    for tid, bs in sorted(st.buildings.items()):
        for b in bs:
            if b not in ("MARKET", "PORT") or p["market_used" if b == "MARKET" else "port_used"]:
                continue
            fee = D.MARKET_USE_FEE if b == "MARKET" else D.PORT_USE_FEE
            if building_controller(st, tid, b) == seat and anchor_ready(st, tid, b) and p["money"] >= fee:
                out.append({"type": "use_building", "building": f"{tid}:{b}"})
    return out


def _offer_open(st: ArchState, seat: int, kind: str) -> list[Command]:
    assert st.turn is not None
    if st.turn["offers"] >= D.OFFER_LIMIT:
        return []
    return [{"type": "offer_open", "to": s} for s in range(st.n) if s != seat]


def _end_turn(st: ArchState, seat: int, kind: str) -> list[Command]:
    assert st.turn is not None
    return [{"type": "end_turn"}] if st.turn["acted"] else []


# ---------------------------------------------------------------------------------------------------- trades
def _offer_add(st: ArchState, seat: int, kind: str) -> list[Command]:
    off = st.offer
    assert off is not None
    out: list[Command] = []
    p = st.players[seat]
    basic: list[dict] = [{"kind": "MONEY_1"}, {"kind": "MONEY_5"}, {"kind": "TOKEN"}]
    basic += [{"kind": "CUBE", "resource": r} for r in D.RESOURCES]
    give, get = off["give"], off["get"]
    if len(give) < D.OFFER_ITEMS_MAX:
        items = basic + [{"kind": "CARD", "card": c} for c in p["track"]]
        for item in items:
            new = give + [item]
            k = item["kind"]
            if money_of(new) > p["money"]:
                continue
            if k == "CUBE" and side_total(new, "CUBE", "resource", item["resource"]) > p["cubes"][item["resource"]]:
                continue
            if k == "TOKEN" and side_total(new, "TOKEN") > p["tokens"]:
                continue
            if k == "CARD" and side_total(new, "CARD", "card", item["card"]) > 1:
                continue
            out.append({"type": "offer_add", "side": "GIVE", "item": item})
    if len(get) < D.OFFER_ITEMS_MAX:
        to = off["to"]
        held_tokens = 24 - sum(st.stacks) - st.tokens_spent - p["tokens"]
        items = basic + [{"kind": "CARD", "card": c} for c in st.players[to]["track"]]
        for tid in sorted(st.tiles):
            if tile_controller(st, tid) != to:
                continue
            items += [{"kind": "GRANT", "grant": g, "tile": tid} for g in ("HARVEST_ON", "BUILD_ON")]
            items += [{"kind": "GRANT", "grant": "ENTER", "building": f"{tid}:{b}"} for b in st.buildings.get(tid, {})]
        for item in items:
            new = get + [item]
            k = item["kind"]
            if k == "CUBE" and side_total(new, "CUBE", "resource", item["resource"]) > others_public_cubes(
                st, seat, item["resource"]
            ):
                continue
            if k == "TOKEN" and side_total(new, "TOKEN") > held_tokens:
                continue
            if k == "CARD" and side_total(new, "CARD", "card", item["card"]) > 1:
                continue
            if k == "GRANT" and item in get:
                continue
            out.append({"type": "offer_add", "side": "GET", "item": item})
    return out


def _offer_send(st: ArchState, seat: int, kind: str) -> list[Command]:
    assert st.offer is not None
    return [{"type": "offer_send"}] if st.offer["give"] or st.offer["get"] else []


def _offer_accept(st: ArchState, seat: int, kind: str) -> list[Command]:
    from domain.archipelago.trades import acceptance_problem

    return [] if acceptance_problem(st, seat) else [{"type": "offer_accept"}]


# ---------------------------------------------------------------------------------------------------- phase 6
def _occupied(st: ArchState) -> list[int]:
    return [i for i, m in enumerate(st.market) if m is not None]


def _evo_buy(st: ArchState, seat: int, kind: str) -> list[Command]:
    occ = _occupied(st)
    money = st.players[seat]["money"]
    return [
        {"type": "evo_buy", "slot": s, "rotate": r}
        for s in occ
        if card_price(st, s) <= money
        for r in ([o for o in occ if o != s] or [None])
    ]


def _evo_rotate(st: ArchState, seat: int, kind: str) -> list[Command]:
    occ = _occupied(st)
    if len(occ) == 1:
        return [{"type": "evo_rotate", "slots": occ}]
    return [{"type": "evo_rotate", "slots": list(c)} for c in combinations(occ, 2)]


# ---------------------------------------------------------------------------------------------------- steps
def _step(st: ArchState) -> dict:
    assert st.step is not None
    return st.step


def _harvest_assign(st: ArchState, seat: int, kind: str) -> list[Command]:
    targets = harvest_targets(st, seat, _step(st)["resource"])
    return [{"type": "harvest_assign", "unit": u, "icon": i} for u, i in targets]


def _harvest_done(st: ArchState, seat: int, kind: str) -> list[Command]:
    return [{"type": "harvest_done"}] if _step(st)["assigned"] else []


def _hire(st: ArchState, seat: int, kind: str) -> list[Command]:
    price = hire_price(st, seat)
    p = st.players[seat]
    if price is None or p["sup_c"] < 1 or p["money"] < price:
        return []
    return [{"type": "hire", "tile": tid} for tid in hire_tiles(st, seat)]


def _recruit_done(st: ArchState, seat: int, kind: str) -> list[Command]:
    return [{"type": "recruit_done"}] if _step(st)["hires"] >= 1 else []


def _birth(st: ArchState, seat: int, kind: str) -> list[Command]:
    step = _step(st)
    if st.players[seat]["sup_c"] < 1:
        return []
    return [
        {"type": "birth", "tile": tid}
        for tid in step["eligible"]
        if tid not in step["done"] and can_add_citizen(st, seat, tid)
    ]


def _reproduce_done(st: ArchState, seat: int, kind: str) -> list[Command]:
    return [{"type": "reproduce_done"}] if _step(st)["done"] else []


def _cartographer_pick(st: ArchState, seat: int, kind: str) -> list[Command]:
    step = _step(st)
    if step["phase"] != "cartographer":
        return []
    return [{"type": "cartographer_pick", "index": i} for i in range(step.get("look") or 0)]


def _place_tile(st: ArchState, seat: int, kind: str) -> list[Command]:
    step = _step(st)
    tid = step.get("tile")
    if step.get("phase") != "place" or tid is None:
        return []
    out = []
    for pos in explore_positions(st):
        for face in ("A", "B"):
            for rot in range(6):
                edges = rotate_edges(face_of(tid, face).edges, rot)
                if not placement_ok(st, pos, edges):
                    continue
                for m in explore_movers(st, seat, pos, edges):
                    out.append({"type": "place_tile", "pos": _pos(pos), "face": face, "rot": rot, "mover": m})
    return out


def _discard_tile(st: ArchState, seat: int, kind: str) -> list[Command]:
    return [{"type": "discard_tile"}] if _step(st)["phase"] == "place" else []


def _movers(st: ArchState, seat: int, kind: str | None = None) -> list[str]:
    """The seat's units that may still move in this migration (``steps._mover`` accepts them)."""
    entered = _step(st)["entered"]
    return [u for u in _units(st, seat, kind) if available(st.units[u]) and u not in entered]


def _move_ship(st: ArchState, seat: int, kind: str) -> list[Command]:
    step = _step(st)
    allowance = 2 if owns(st, seat, "P15") else 1
    citizens = _movers(st, seat, "C")
    out = []
    for s in _movers(st, seat, "S"):
        if step["sea"].get(s, 0) >= allowance:
            continue
        tile = st.units[s]["tile"]
        aboard = [u for u in citizens if st.units[u]["tile"] == tile]
        for to in linked(st, tile, "S"):
            land = st.tiles[to]["land"]
            for k in range(len(aboard) + 1):
                if k and not (land and can_add_citizen(st, seat, to, k)):
                    continue
                for pas in combinations(aboard, k):
                    out.append({"type": "move_ship", "ship": s, "to": to, "passengers": list(pas)})
    return out


def _convoy(st: ArchState, seat: int, kind: str) -> list[Command]:
    step = _step(st)
    out = []
    for u in _movers(st, seat, "C"):
        if step["convoy"].get(u, 0) >= 1 + step["ship_moves"]:
            continue
        for to in sorted(reachable_by_convoy(st, seat, st.units[u]["tile"])):
            if can_add_citizen(st, seat, to):
                out.append({"type": "convoy", "citizen": u, "to": to})
    return out


def _walk(st: ArchState, seat: int, kind: str) -> list[Command]:
    step = _step(st)
    allowance = 2 if owns(st, seat, "P11") else 1
    eng = owns(st, seat, "C17")
    out = []
    for u in _movers(st, seat, "C"):
        if step["walk"].get(u, 0) >= allowance:
            continue
        for to in linked(st, st.units[u]["tile"], "P", eng):
            if st.tiles[to]["land"] and can_add_citizen(st, seat, to):
                out.append({"type": "walk", "citizen": u, "to": to})
    return out


def _enter_building(st: ArchState, seat: int, kind: str) -> list[Command]:
    moved = _step(st)["moved"]
    eng = owns(st, seat, "C17")
    out = []
    for u in _movers(st, seat):
        if u in moved:
            continue
        x = st.units[u]
        tile = x["tile"]
        near = {tile} | set(linked(st, tile, "S" if x["kind"] == "S" else "P", eng))
        for tid in sorted(near):
            for b, occupant in st.buildings.get(tid, {}).items():
                if occupant is not None or (x["kind"] == "S" and b != "PORT"):
                    continue
                if tid != tile and x["kind"] == "C" and not can_add_citizen(st, seat, tid):
                    continue
                if permitted(st, seat, "ENTER", tid, f"{tid}:{b}"):
                    out.append({"type": "enter_building", "unit": u, "building": f"{tid}:{b}"})
    return out


def _leave_building(st: ArchState, seat: int, kind: str) -> list[Command]:
    left = _step(st)["left_b"]
    return [{"type": "leave_building", "unit": u} for u in _movers(st, seat) if housed(st.units[u]) and u not in left]


def _ability_trade(st: ArchState, seat: int, kind: str) -> list[Command]:
    step = _step(st)
    if step["left"] < 1:
        return []
    return [
        {"type": "ability_trade", "op": o, "resource": r}
        for o in ("BUY", "SELL")
        for r in D.RESOURCES
        if market_price(st, seat, step["market"], o, r) is not None
    ]


def _research_pick(st: ArchState, seat: int, kind: str) -> list[Command]:
    step = _step(st)
    wanted = "PROGRESS" if step["card"] == "C01" else "CHARACTER"
    money = st.players[seat]["money"]
    return [{"type": "research_pick", "card": None}] + [
        {"type": "research_pick", "card": c}
        for c in step["revealed"]
        if D.CARDS[c].kind == wanted and D.CARDS[c].prices[2] <= money
    ]


def _always(ctype: str) -> Generator:
    def generate(st: ArchState, seat: int, kind: str) -> list[Command]:
        return [{"type": ctype}]

    return generate


GENERATORS: dict[str, Generator] = {
    "keep_objectives": _keep_objectives,
    "place_start_tile": _place_start_tile,
    "choose_market_icon": _icon("market"),
    "choose_own_icon": _icon("own"),
    "discard_card": _discard_card,
    "supply": _supply,
    "stand": _stand,
    "activate_temple": _activate_temple,
    "temple_done": _temple_done,
    "supply_done": _supply_done,
    "export_supply": _export_supply,
    "bid": _bid,
    "order_pick": _order_pick,
    "harvest": _harvest,
    "recruit": _recruit,
    "reproduce": _reproduce,
    "tax": _tax,
    "trade": _trade,
    "explore": _explore,
    "migrate": _migrate,
    "build": _build,
    "use_card": _use_card,
    "build_wonder": _build_wonder,
    "use_building": _use_building,
    "offer_open": _offer_open,
    "end_turn": _end_turn,
    "pass": _always("pass"),
    "offer_add": _offer_add,
    "offer_send": _offer_send,
    "offer_cancel": _always("offer_cancel"),
    "offer_accept": _offer_accept,
    "offer_decline": _always("offer_decline"),
    "evo_buy": _evo_buy,
    "evo_rotate": _evo_rotate,
    "harvest_assign": _harvest_assign,
    "harvest_done": _harvest_done,
    "hire": _hire,
    "recruit_done": _recruit_done,
    "birth": _birth,
    "reproduce_done": _reproduce_done,
    "cartographer_pick": _cartographer_pick,
    "place_tile": _place_tile,
    "discard_tile": _discard_tile,
    "move_ship": _move_ship,
    "convoy": _convoy,
    "walk": _walk,
    "enter_building": _enter_building,
    "leave_building": _leave_building,
    "migrate_done": _always("migrate_done"),
    "ability_trade": _ability_trade,
    "ability_done": _always("ability_done"),
    "research_pick": _research_pick,
    "card_done": _always("card_done"),
}


def legal_commands(st: ArchState, seat: int) -> list[Command]:
    kind, seats = prompt(st)
    if kind is None or seat not in seats:
        return []
    out = []
    for ctype in PROMPT_COMMANDS[kind]:
        out += GENERATORS[ctype](st, seat, kind)
    if st.phase not in ("OBJECTIVES", "TURN0"):
        out += [{"type": "declare_end", "objective": o} for o in declarable(st, seat)]
    return out


def has_turn_action(st: ArchState, seat: int) -> bool:
    """Whether a wheel action, card use or building ability is legal at the start of ``seat``'s turn."""
    if st.players[seat]["ad_avail"] >= 1:
        return True  # MIGRATE is always possible
    return bool(_use_card(st, seat, "turn") or _use_building(st, seat, "turn"))
