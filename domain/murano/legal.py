"""legal_commands: the complete list of commands for the pending decision (§6.5).

Section (§) and ruling (D, Q) numbers are those of docs/rules/murano.md.
"""

from __future__ import annotations

from typing import Any

from domain.murano import data
from domain.murano import queries as q
from domain.murano.scoring import assign_options
from domain.murano.state import (
    ASSIGN,
    BUILD_STEP,
    BUY_MODE,
    CONTINUE,
    FREE_PLACE,
    GONDOLIERS,
    HIRE_PICK,
    INCOME,
    PICK_TILE,
    PRODUCE,
    SEAT,
    SELL,
    SHOP,
    SPECIAL_CARD,
    STREET_SPACE,
    TURN,
    MuranoState,
)


def legal_commands(state: MuranoState, seat: int) -> list[dict[str, Any]]:
    if seat != state.active:
        return []
    phase = state.phase
    g = q.geo(state)
    if phase == TURN:
        moves = q.all_moves(state.ships, q.occupancy(state.ships), q.has(state, seat, data.ARSENALE))
        out = [{"type": "pass", "ship": s, "to": t} for s, t in moves]
        out += [{"type": "move_ship", "ship": s, "to": t} for s, t in q.legal_moves(state, seat, moves=moves)]
        return out
    if phase == CONTINUE:
        out = [{"type": "move_ship", "ship": s, "to": t} for s, t in q.legal_moves(state, seat)]
        if q.can_act(state, seat):
            out.append({"type": "act"})
        return out
    if phase == BUY_MODE:
        out = []
        if state.gold[seat] >= data.TOP_PRICE:
            out.append({"type": "choose_buy_mode", "mode": "top"})
        if state.gold[seat] >= q.choose_price(state, seat):
            out.append({"type": "choose_buy_mode", "mode": "choose"})
        return out
    if phase == PICK_TILE:
        stack: list[Any] = state.shops if state.buy_kind == SHOP else state.palaces
        return [{"type": "pick_tile", "face": f} for f in sorted(set(stack))]
    if phase == FREE_PLACE:
        return [{"type": "keep_tile"}] + [
            {"type": "place_tile", "space": g.space_ids[s]} for s in q.building_targets(state, group=False)
        ]
    if phase == HIRE_PICK:
        return [{"type": "keep_character", "card": c} for c in state.drawn] + [{"type": "decline_characters"}]
    if phase == SEAT:
        return [
            {"type": "seat_gondolier", "island": g.islands[i], "colour": data.PLAYER_COLOURS[c]}
            for i, c, _ in q.seat_options(state, seat)
        ]
    if phase == BUILD_STEP:
        out = []
        if q.can_draw_street(state):
            out.append({"type": "draw_street"})
        faces = q.hand_faces(state, seat)
        if faces:
            targets = q.building_targets(state, group=True)
            for kind, face in faces:
                for s in targets:
                    out.append({"type": "build_building", "kind": kind, "face": face, "space": g.space_ids[s]})
        if state.build_k >= 1:
            out.append({"type": "stop_building"})
        return out
    if phase == STREET_SPACE:
        return [{"type": "place_street", "space": g.space_ids[s]} for s in q.street_targets(state)]
    if phase == SPECIAL_CARD:
        return [{"type": "take_special_card", "card": c} for c in state.drawn]
    if phase == INCOME:
        return [
            {"type": "collect_income", "island": g.islands[i], "shops": [g.space_ids[s] for s in shops]}
            for i, shops in q.income_options(state, seat)
        ]
    if phase == PRODUCE:
        return [{"type": "produce", "factories": k} for k in range(q.max_production(state, seat) + 1)]
    if phase == SELL:
        return [{"type": "skip_sale"}] + [{"type": "sell_beads", "beads": b} for b in q.sale_options(state, seat)]
    if phase == GONDOLIERS:
        out = []
        if q.can_fire(state, seat):
            out.append({"type": "fire_gondolier"})
        if q.can_hire_gondolier(state, seat):
            out.append({"type": "hire_gondolier"})
        return out
    if phase == ASSIGN:
        out = [{"type": "assign_character", "card": c, "island": g.islands[i]} for c, i in assign_options(state, seat)]
        if not data.FINAL_SCORING_STRICT:
            out.append({"type": "stop_assigning"})
        return out
    return []
