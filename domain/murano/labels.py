"""English labels for Murano's legal commands, with gold and VP previews (public state and the seat's own cards)."""

from __future__ import annotations

from typing import Any

from domain.contract import default_label, plural
from domain.murano import data
from domain.murano import queries as q
from domain.murano.state import MuranoState

_KIND = {"glass_factory": "glass factory", "shop": "shop", "palace": "palace", "special_building": "special building"}


def _space(space: str) -> str:
    """``Navagero:r1c0`` as a player reads it: "Navagero, row 2, column 1"."""
    island, _, cell = space.partition(":")
    row, _, column = cell.removeprefix("r").partition("c")
    if row.isdigit() and column.isdigit():
        return f"{data.ISLAND_NAMES.get(island, island)}, row {int(row) + 1}, column {int(column) + 1}"
    return f"{data.ISLAND_NAMES.get(island, island)} {cell}"


def _face(kind: str | None, face: Any) -> str:
    if kind == "shop" and face is not None:
        return f"{face} shop"
    if kind == "palace" and face is not None:
        return f"palace with {plural(face, 'crest')}"
    return _KIND.get(kind or "", str(kind))


def label(s: MuranoState, seat: int, c: dict[str, Any]) -> dict[str, Any]:
    kind = c.get("type")
    if kind == "pass":
        return {
            "label": f"Pass: move ship {c['ship']} to space {c['to']} ({q.ACTIONS[c['to']].replace('_', ' ')}) "
            f"and take {plural(data.PASS_GOLD, 'gold', 'gold')}",
            "gain": data.PASS_GOLD,
        }
    if kind == "move_ship":
        cost = q.move_cost(s.moves + 1, q.has(s, seat, data.SHIPYARD))
        return {
            "label": f"Move ship {c['ship']} to space {c['to']} ({q.ACTIONS[c['to']].replace('_', ' ')}) "
            f"for {cost} gold",
            "cost": cost,
        }
    if kind == "act":
        return {"label": f"Take the {q.ACTIONS[s.ships[s.last_ship]].replace('_', ' ')} action"}
    if kind == "choose_buy_mode":
        if c["mode"] == "top":
            return {"label": f"Buy the top tile unseen for {data.TOP_PRICE} gold", "cost": data.TOP_PRICE}
        price = q.choose_price(s, seat)
        return {"label": f"Look through the stack and choose a tile for {price} gold", "cost": price}
    if kind == "pick_tile":
        return {"label": f"Take the {_face(s.buy_kind, c['face'])}"}
    if kind == "keep_tile":
        return {"label": "Keep the tile in your hand"}
    if kind == "place_tile":
        return {"label": f"Place the tile on {_space(c['space'])}"}
    if kind == "draw_street":
        return {"label": "Draw a street tile"}
    if kind == "place_street":
        return {"label": f"Lay the street on {_space(c['space'])}"}
    if kind == "build_building":
        vp = data.BUILD_VP.get(c["kind"], 0)
        return {"label": f"Build a {_face(c['kind'], c['face'])} on {_space(c['space'])}", "points": vp}
    if kind == "stop_building":
        return {"label": "Stop building"}
    if kind == "take_special_card":
        return {"label": f"Keep {data.SPECIAL_CARDS[c['card']]}"}
    if kind == "keep_character":
        return {"label": f"Hire {data.CHARACTERS[c['card']][0]} for {s.buy_price} gold", "cost": s.buy_price}
    if kind == "decline_characters":
        return {"label": "Hire nobody"}
    if kind == "seat_gondolier":
        price = q.seat_price(s, seat, data.PLAYER_COLOURS.index(c["colour"]))
        return {
            "label": f"Seat a gondolier on the {c['colour']} gondola of {data.ISLAND_NAMES[c['island']]} "
            f"for {price} gold",
            "cost": price,
        }
    if kind == "fire_gondolier":
        return {"label": f"Fire a gondolier for {data.GONDOLIER_FIRE_GOLD} gold", "gain": data.GONDOLIER_FIRE_GOLD}
    if kind == "hire_gondolier":
        return {"label": f"Hire a gondolier for {data.GONDOLIER_HIRE_PRICE} gold", "cost": data.GONDOLIER_HIRE_PRICE}
    if kind == "collect_income":
        return {"label": f"Collect income on {data.ISLAND_NAMES[c['island']]} from {plural(len(c['shops']), 'shop')}"}
    if kind == "produce":
        loss = c["factories"] * q.production_loss(s, seat)
        if not c["factories"]:
            return {"label": "Use no factory"}
        return {"label": f"Use {plural(c['factories'], 'factory', 'factories')} for {loss} VP", "points": -loss}
    if kind == "sell_beads":
        count = sum(c["beads"].values())
        gold = q.sale_gold(s, seat, count)
        what = ", ".join(f"{n} {colour}" for colour, n in c["beads"].items())
        return {"label": f"Sell {what} {'bead' if count == 1 else 'beads'} for {gold} gold", "gain": gold}
    if kind == "skip_sale":
        return {"label": "Sell nothing"}
    if kind == "assign_character":
        return {"label": f"Assign {data.CHARACTERS[c['card']][0]} to {data.ISLAND_NAMES[c['island']]}"}
    if kind == "stop_assigning":
        return {"label": "Stop assigning characters"}
    return {"label": default_label(c)}
