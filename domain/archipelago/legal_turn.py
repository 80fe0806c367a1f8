"""Legal-command generators of a Phase-5 turn: wheel actions, card uses, wonders, building abilities, trades.

Each has the shape ``(st, seat, kind) -> list[dict]`` (see ``legal``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from domain.archipelago import data as D
from domain.archipelago.actions import birth_step, build_cost_cubes, standing_citizens
from domain.archipelago.checks import (
    harvestable,
    hire_tiles,
    tradable,
)
from domain.archipelago.legal_base import Command, Generator, explore_picks, payable, units_of, wheel_free, with_sets
from domain.archipelago.state import (
    ArchState,
    Unit,
    anchor_ready,
    available,
    building_controller,
    housed,
    linked,
    lying_count,
    offer_of,
    permitted,
    tile_controller,
    turn_of,
)
from domain.archipelago.trades import money_of, others_public_cubes


# ---------------------------------------------------------------------------------------------------- wheel
def _harvest(st: ArchState, seat: int, kind: str) -> list[Command]:
    if not wheel_free(st, seat):
        return []
    harvest = harvestable(st, seat)
    if not harvest:
        return []
    withs = with_sets(st, seat, "HARVEST")
    out = []
    for r in D.RESOURCES:
        if r not in harvest:
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
    if not wheel_free(st, seat) or price is None or p["sup_c"] < 1:
        return []
    out = []
    for w, fees in with_sets(st, seat, "RECRUIT"):
        cost = max(0, price - D.OVERSEER_DISCOUNT) if "C09" in w else price
        if p["money"] >= cost + fees:
            out.append({"type": "recruit", "with": w})
    return out if out and hire_tiles(st, seat) else []  # the tiles last: the seat often cannot pay


def _reproduce(st: ArchState, seat: int, kind: str) -> list[Command]:
    if not wheel_free(st, seat) or st.players[seat]["reproduced"]:
        return []
    return [{"type": "reproduce"}] if birth_step(st, seat, "wheel")["eligible"] else []


def _tax(st: ArchState, seat: int, kind: str) -> list[Command]:
    if not wheel_free(st, seat) or st.tax_used >= D.TAX_SLOTS[st.n]:
        return []
    return [{"type": "tax", "with": w} for w, _ in with_sets(st, seat, "TAX")]


def _trade(st: ArchState, seat: int, kind: str) -> list[Command]:
    if not wheel_free(st, seat):
        return []
    return [
        {"type": "trade", "market": m, "op": o, "resource": r}
        for m in ("DOM", "EXP")
        for o in ("BUY", "SELL")
        for r in tradable(st, seat, m, o)
    ]


def _explore(st: ArchState, seat: int, kind: str) -> list[Command]:
    if not wheel_free(st, seat):
        return []
    slots = []
    if not st.players[seat]["personal_explore_used"]:
        slots.append("PERSONAL")
    if st.shared_explores < D.EXPLORE_SHARED_SLOTS[st.n]:
        slots.append("SHARED")
    picks = explore_picks(st, seat)
    return [{"type": "explore", "slot": s, "pick": p, "with": w} for s in slots for p, w in picks]


def _migrate(st: ArchState, seat: int, kind: str) -> list[Command]:
    return [{"type": "migrate"}] if wheel_free(st, seat) else []


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
    if not wheel_free(st, seat):
        return []
    out = []
    withs = with_sets(st, seat, "BUILD")
    payments: dict[tuple[str, str | None, int], list[dict[str, int]]] = {}  # the same for every builder
    for uid in units_of(st, seat):
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
                    options = payments.get((btype, waive, fees))
                    if options is None:
                        cubes, money = build_cost_cubes(st, seat, btype, waive)
                        options = payments[btype, waive, fees] = payable(st, seat, cubes, money + fees)
                    for tok in options:
                        out.append(
                            {
                                "type": "build",
                                "building": btype,
                                "tile": u["tile"],
                                "builder": uid,
                                "tokens": dict(tok),
                                "with": w,
                                "waive": waive,
                            }
                        )
    return out


# ---------------------------------------------------------------------------------------------------- cards
CardGenerator = Callable[[ArchState, int, int], list[dict]]


def _card_c01(st: ArchState, seat: int, fee: int) -> list[dict]:
    return [{}] if st.deck else []


def _card_market(market: str, ops: tuple[str, ...]) -> CardGenerator:
    def generate(st: ArchState, seat: int, fee: int) -> list[dict]:
        out = []
        for o in ops:
            for r in tradable(st, seat, market, o, extra_money=fee):
                out.append({"op": o, "resource": r} if len(ops) > 1 else {"resource": r})
        return out

    return generate


def _card_rebellion(st: ArchState, seat: int, fee: int) -> list[dict]:
    return [{}] if st.reb >= 1 else []


def _card_navigator(st: ArchState, seat: int, fee: int) -> list[dict]:
    return [
        {"ship": s, "to": to}
        for s in units_of(st, seat, "S")
        if available(st.units[s])
        for to in linked(st, st.units[s]["tile"], "S")
    ]


def _card_midwife(st: ArchState, seat: int, fee: int) -> list[dict]:
    return [{}] if birth_step(st, seat, "midwife")["eligible"] else []


def _card_diplomat(st: ArchState, seat: int, fee: int) -> list[dict]:
    return [{}] if lying_count(st) >= 1 else []


def _card_conquistador(st: ArchState, seat: int, fee: int) -> list[dict]:
    return [{"pick": p, "with": w} for p, w in explore_picks(st, seat)]


def _card_banker(st: ArchState, seat: int, fee: int) -> list[dict]:
    return [{}] if standing_citizens(st, seat) >= 2 else []


def _card_pirate(st: ArchState, seat: int, fee: int) -> list[dict]:
    out = []
    for s in units_of(st, seat, "S"):
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
    return [{"tokens": tok} for tok in payable(st, seat, D.FESTIVAL_COST, fee)]


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
    "C16": _card_market("EXP", ("SELL",)),  # SMUGGLER: its bonus changes the price, not what is legal
    "C18": _card_pirate,
    "P06": _card_surplus,
    "P07": _card_surplus,
    "P13": _card_festival,
    "P14": _card_charity,
}


USABLE = tuple(c for c, card in D.CARDS.items() if card.use in ("AD", "FREE"))  # the cards use_card takes


def card_fee(st: ArchState, seat: int, card_id: str, owner: int | None) -> int | None:
    """The fee for using ``card_id`` (owned by ``owner``) now, or ``None`` when it cannot be used
    (``card_uses.card_user``)."""
    card = D.CARDS[card_id]
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
    owners = {c: s for s, p in enumerate(st.players) for c in p["track"]}  # card_owner (a card is in one track at most)
    out = []
    for c in USABLE:
        if c not in owners:
            continue
        fee = card_fee(st, seat, c, owners[c])
        if fee is None:
            continue
        for fields in CARD_GENERATORS.get(c, _card_plain)(st, seat, fee):
            out.append({"type": "use_card", "card": c, **fields})
    return out


def _build_wonder(st: ArchState, seat: int, kind: str) -> list[Command]:
    p = st.players[seat]
    if p["ad_avail"] < 1:
        return []
    citizens: list[str] | None = None  # the builders, once a wonder is owned
    out = []
    for c in p["track"]:
        if D.CARDS[c].use != "WONDER":
            continue
        if citizens is None:
            citizens = [u for u in units_of(st, seat, "C") if available(st.units[u])]
        cost = D.CARDS[c].wonder_cost
        assert cost is not None, "every wonder has a cost"
        cubes, money = cost
        for tok in payable(st, seat, cubes, money):
            out += [{"type": "build_wonder", "card": c, "citizen": u, "tokens": tok} for u in citizens]
    return out


def _use_building(st: ArchState, seat: int, kind: str) -> list[Command]:
    assert st.turn is not None
    if turn_of(st)["building"]:
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
    if turn_of(st)["offers"] >= D.OFFER_LIMIT:
        return []
    return [{"type": "offer_open", "to": s} for s in range(st.n) if s != seat]


def _end_turn(st: ArchState, seat: int, kind: str) -> list[Command]:
    assert st.turn is not None
    return [{"type": "end_turn"}] if turn_of(st)["acted"] else []


# ---------------------------------------------------------------------------------------------------- trades
def _counted(item: dict) -> tuple[str, ...]:
    """What ``trades.side_total`` counts an item as: its kind, and its resource or card."""
    return (item["kind"], item.get("resource") or item.get("card") or "")


def _offer_add(st: ArchState, seat: int, kind: str) -> list[Command]:
    """The items ``trades.cmd_offer_add`` accepts, each side's holdings counted once."""
    off = offer_of(st)
    out: list[Command] = []
    p = st.players[seat]
    basic: list[dict] = [{"kind": "MONEY_1"}, {"kind": "MONEY_5"}, {"kind": "TOKEN"}]
    basic += [{"kind": "CUBE", "resource": r} for r in D.RESOURCES]
    give, get = off["give"], off["get"]
    if len(give) < D.OFFER_ITEMS_MAX:
        given = Counter(map(_counted, give))
        money_left = p["money"] - money_of(give)
        for item in basic + [{"kind": "CARD", "card": c} for c in p["track"]]:
            k = item["kind"]
            if money_left < (1 if k == "MONEY_1" else 5 if k == "MONEY_5" else 0):
                continue
            if k == "CUBE" and given[_counted(item)] + 1 > p["cubes"][item["resource"]]:
                continue
            if k == "TOKEN" and given[_counted(item)] + 1 > p["tokens"]:
                continue
            if k == "CARD" and _counted(item) in given:
                continue
            out.append({"type": "offer_add", "side": "GIVE", "item": item})
    if len(get) < D.OFFER_ITEMS_MAX:
        to = off["to"]
        asked = Counter(map(_counted, get))
        held_tokens = 24 - sum(st.stacks) - st.tokens_spent - p["tokens"]
        items = basic + [{"kind": "CARD", "card": c} for c in st.players[to]["track"]]
        for tid in sorted(st.buildings):  # a tile without a building has no controller
            if tile_controller(st, tid) != to:
                continue
            items += [{"kind": "GRANT", "grant": g, "tile": tid} for g in ("HARVEST_ON", "BUILD_ON")]
            items += [{"kind": "GRANT", "grant": "ENTER", "building": f"{tid}:{b}"} for b in st.buildings[tid]]
        for item in items:
            k = item["kind"]
            if k == "CUBE" and asked[_counted(item)] + 1 > others_public_cubes(st, seat, item["resource"]):
                continue
            if k == "TOKEN" and asked[_counted(item)] + 1 > held_tokens:
                continue
            if k == "CARD" and _counted(item) in asked:
                continue
            if k == "GRANT" and item in get:
                continue
            out.append({"type": "offer_add", "side": "GET", "item": item})
    return out


def _offer_send(st: ArchState, seat: int, kind: str) -> list[Command]:
    assert st.offer is not None
    return [{"type": "offer_send"}] if offer_of(st)["give"] or offer_of(st)["get"] else []


def _offer_accept(st: ArchState, seat: int, kind: str) -> list[Command]:
    from domain.archipelago.trades import acceptance_problem

    return [] if acceptance_problem(st, seat) else [{"type": "offer_accept"}]


def has_turn_action(st: ArchState, seat: int) -> bool:
    """Whether a wheel action, card use or building ability is legal at the start of ``seat``'s turn."""
    if st.players[seat]["ad_avail"] >= 1:
        return True  # MIGRATE is always possible
    return bool(_use_card(st, seat, "turn") or _use_building(st, seat, "turn"))


TURN_GENERATORS: dict[str, Generator] = {
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
    "offer_add": _offer_add,
    "offer_send": _offer_send,
    "offer_accept": _offer_accept,
}
