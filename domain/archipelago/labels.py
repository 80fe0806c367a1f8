"""English labels for Archipelago's legal commands, with coin previews where the price is public and fixed.

Labels use only the command's own fields and public tables (card names, building costs, market prices). Seats are
numbered from 1, as the table shows them."""

from __future__ import annotations

from typing import Any

from domain.archipelago import data as D
from domain.archipelago.state import ArchState
from domain.contract import default_label, plural


def _card(cid: Any) -> str:
    card = D.CARDS.get(cid)
    return card.name.title() if card else str(cid)


def _res(r: Any) -> str:
    return str(r).lower()


def _with(c: dict[str, Any]) -> str:
    cards = c.get("with") or []
    return f" with {', '.join(_card(x) for x in cards)}" if cards else ""


def _unit(uid: Any) -> str:
    """A unit by kind and id ("citizen c0-1", "ship s1-0"): ids start with their kind's letter."""
    kind = {"c": "citizen", "s": "ship"}.get(str(uid)[:1])
    return f"{kind} {uid}" if kind else str(uid)


def _icon_tile(st: ArchState) -> str | None:
    """The tile whose icons are being chosen: the turn-0 tile, else the explored tile of the open step."""
    holder = st.t0 if st.phase == "TURN0" else st.step
    return holder.get("tile") if isinstance(holder, dict) else None


def _icon(st: ArchState, tile: str | None, icon: int) -> str:
    """The resource of an icon of a placed tile ("stone")."""
    icons = st.tiles[tile]["icons"] if tile in st.tiles else []
    return _res(icons[icon]) if isinstance(icon, int) and 0 <= icon < len(icons) else "resource"


def _where(pos: dict[str, int]) -> str:
    return f"({pos['q']}, {pos['r']})"


SIMPLE = {
    "temple_done": "Stop using temples",
    "supply_done": "Stop supplying",
    "reproduce": "Reproduce",
    "migrate": "Migrate",
    "end_turn": "End your turn",
    "pass": "Pass for the rest of the round",
    "offer_send": "Send the offer",
    "offer_cancel": "Withdraw the offer",
    "offer_accept": "Accept the offer",
    "offer_decline": "Decline the offer",
    "harvest_done": "Finish harvesting",
    "recruit_done": "Finish recruiting",
    "reproduce_done": "Finish reproducing",
    "discard_tile": "Discard the drawn tile",
    "migrate_done": "Finish migrating",
    "ability_done": "Finish trading",
    "card_done": "Finish the card",
}


def label(st: ArchState, seat: int, c: dict[str, Any]) -> dict[str, Any]:  # noqa: C901 - one case per command
    kind = c.get("type")
    if kind in SIMPLE:
        return {"label": SIMPLE[kind]}
    if kind == "keep_objectives":
        return {"label": f"Keep objectives {', '.join(c.get('cards') or []) or 'none'}"}
    if kind == "place_start_tile":
        return {"label": f"Place tile {c['tile']} face {c['face']} at {_where(c['pos'])}, rotation {c['rot']}"}
    if kind == "choose_market_icon":
        return {"label": f"Put a {_icon(st, _icon_tile(st), c['icon'])} cube on the market (icon {c['icon'] + 1})"}
    if kind == "choose_own_icon":
        return {"label": f"Take a {_icon(st, _icon_tile(st), c['icon'])} cube (icon {c['icon'] + 1})"}
    if kind == "discard_card":
        return {"label": f"Discard {_card(c['card'])}"}
    if kind == "supply":
        return {
            "label": {
                "MARKET": "Supply a cube from the market",
                "CUBE": "Supply one of your cubes",
                "TOKEN": "Supply an explorer token",
            }[c["source"]]
        }
    if kind == "stand":
        return {"label": f"Stand up citizen {c['citizen']}"}
    if kind == "activate_temple":
        return {"label": f"Use the temple on {c['temple']}"}
    if kind == "export_supply":
        return {"label": f"Supply {_res(c['resource'])} for requirement {c['unit'] + 1} ({c['source'].lower()})"}
    if kind == "bid":
        return {"label": f"Bid {plural(c['amount'], 'coin')}", "cost": c["amount"]}
    if kind == "order_pick":
        return {"label": f"Seat {c['seat'] + 1} plays next"}
    if kind == "harvest":
        return {"label": f"Harvest {_res(c['resource'])}{_with(c)}"}
    if kind in ("recruit", "tax"):
        return {"label": f"{kind.capitalize()}{_with(c)}"}
    if kind == "trade":
        market = "domestic" if c["market"] == "DOM" else "export"
        return {"label": f"{c['op'].capitalize()} {_res(c['resource'])} on the {market} market"}
    if kind == "explore":
        return {"label": f"Explore ({c['slot'].lower()} slot, {c['pick'].lower()} tile){_with(c)}"}
    if kind == "build":
        cubes, money = D.BUILD_COSTS[c["building"]]
        return {"label": f"Build a {c['building'].lower()} on {c['tile']} with {c['builder']}{_with(c)}", "cost": money}
    if kind == "use_card":
        return {"label": f"Use {_card(c['card'])}{_card_detail(c)}"}
    if kind == "build_wonder":
        card = D.CARDS[c["card"]]
        money = card.wonder_cost[1] if card.wonder_cost else 0
        return {"label": f"Build the wonder {_card(c['card'])} with {c['citizen']}", "cost": money, "points": card.vp}
    if kind == "use_building":
        tile, _, btype = c["building"].partition(":")
        return {"label": f"Use the {btype.lower()} on {tile} for {D.MARKET_USE_FEE} coin", "cost": D.MARKET_USE_FEE}
    if kind == "offer_open":
        return {"label": f"Open a trade offer to seat {c['to'] + 1}"}
    if kind == "offer_add":
        return {"label": f"{'Give' if c['side'] == 'GIVE' else 'Ask for'} {_item(c['item'])}"}
    if kind == "evo_buy":
        slot = st.market[c["slot"]] if 0 <= c["slot"] < len(st.market) else None
        if slot is not None and slot[1] < 3:
            price = D.CARDS[slot[0]].prices[slot[1]]
            return {"label": f"Buy {_card(slot[0])} for {plural(price, 'coin')}", "cost": price}
        return {"label": f"Buy the card in slot {c['slot']}"}
    if kind == "evo_rotate":
        return {"label": f"Rotate market slots {', '.join(map(str, c.get('slots') or [])) or 'none'}"}
    if kind == "harvest_assign":
        unit = st.units.get(c["unit"])
        tile = unit["tile"] if unit else None
        return {"label": f"Put {_unit(c['unit'])} on {tile}'s {_icon(st, tile, c['icon'])} icon (icon {c['icon'] + 1})"}
    if kind in ("hire", "birth"):
        return {"label": f"{'Hire a citizen' if kind == 'hire' else 'A new citizen'} on {c['tile']}"}
    if kind == "cartographer_pick":
        return {"label": f"Take seen tile {c['index'] + 1}"}
    if kind == "place_tile":
        mover = f", moving {c['mover']} onto it" if c.get("mover") else ""
        return {"label": f"Place the tile face {c['face']} at {_where(c['pos'])}, rotation {c['rot']}{mover}"}
    if kind == "move_ship":
        riders = c.get("passengers") or []
        return {"label": f"Sail {c['ship']} to {c['to']}" + (f" with {', '.join(riders)}" if riders else "")}
    if kind in ("convoy", "walk"):
        return {"label": f"{'Convoy' if kind == 'convoy' else 'Walk'} {c['citizen']} to {c['to']}"}
    if kind == "enter_building":
        return {"label": f"Move {_unit(c['unit'])} into the {c['building'].partition(':')[2].lower()}"}
    if kind == "leave_building":
        return {"label": f"Move {_unit(c['unit'])} out of its building"}
    if kind == "ability_trade":
        return {"label": f"{c['op'].capitalize()} {_res(c['resource'])}"}
    if kind == "research_pick":
        return {"label": f"Buy {_card(c['card'])}" if c["card"] else "Buy none of the revealed cards"}
    if kind == "declare_end":
        return {"label": f"Declare the end with objective {c['objective']}"}
    return {"label": default_label(c)}


def _card_detail(c: dict[str, Any]) -> str:
    card = c["card"]
    if card in ("C03", "C04"):
        market = "domestic" if card == "C03" else "export"
        return f": {c['op'].lower()} {_res(c['resource'])} on the {market} market"
    if card == "C16":
        return f": sell {_res(c['resource'])} on the export market"
    if card == "C08":
        return f": sail {c['ship']} to {c['to']}"
    if card == "C13":
        return f": explore ({c['pick'].lower()} tile){_with(c)}"
    if card == "C18":
        return f": loot seat {c['victim'] + 1} with {c['ship']}"
    if card == "P13" and c.get("tokens"):
        return f", paying {', '.join(f'{n} {_res(r)}' for r, n in c['tokens'].items())} with explorer tokens"
    if card == "P14":
        return f": give {', '.join(_res(r) for r in c['cubes'])} to the domestic market"
    return ""


_GRANTS = {"HARVEST_ON": "the right to harvest on", "BUILD_ON": "the right to build on", "ENTER": "the right to enter"}


def _item(item: dict[str, Any]) -> str:
    kind = item.get("kind")
    if kind == "MONEY_1":
        return "1 coin"
    if kind == "MONEY_5":
        return "5 coins"
    if kind == "CUBE":
        return f"a {_res(item.get('resource'))} cube"
    if kind == "TOKEN":
        return "an explorer token"
    if kind == "CARD":
        return f"the card {_card(item.get('card'))}"
    if kind == "GRANT":
        return f"{_GRANTS.get(str(item.get('grant')), 'a right on')} {item.get('tile') or item.get('building')}"
    return str(kind).lower()
