"""What each seat may see (§5.1, §16.3): view, redact, reveal_all, reveals and determinize.

Section (§) and ruling (D, Q) numbers are those of docs/rules/murano.md.
"""

from __future__ import annotations

import copy
import random
from typing import Any, cast

from domain.murano import data
from domain.murano import queries as q
from domain.murano.state import (
    BUILDING_KINDS,
    HIRE_PICK,
    OVER,
    PALACE,
    PICK_TILE,
    SHOP,
    SPECIAL_CARD,
    MuranoState,
)

HIDDEN_FACE_KINDS = (SHOP, PALACE)


def _tile(kind: str, face: Any) -> dict[str, Any]:
    return {"kind": kind, "face": face}


def _public_tile(kind: str, face: Any) -> dict[str, Any]:
    return {"kind": kind, "face": None if kind in HIDDEN_FACE_KINDS else face}


def view(state: MuranoState, seat: int | None) -> dict[str, Any]:
    g = q.geo(state)
    n = state.n
    if state.phase == OVER:
        seat_sees = set(range(n))  # everything is public once the game is over
    else:
        seat_sees = {seat} if seat is not None else set()
    players = []
    for s in range(n):
        counts = {k: 0 for k in BUILDING_KINDS}
        for kind, _ in state.hand[s]:
            counts[kind] += 1
        player: dict[str, Any] = {
            "seat": s,
            "colour": state.colours[s],
            "gold": state.gold[s],
            "vp": state.vp[s],
            "personal_gondoliers": state.personal[s],
            "general_supply_gondoliers": state.general[s],
            "seated_gondoliers": q.seated(state, s),
            "beads": dict(zip(data.BEAD_COLOURS, state.beads[s])),
            "hand_counts": counts,
            "hand": [(_tile if s in seat_sees else _public_tile)(k, f) for k, f in state.hand[s]],
            "character_count": len(state.chars[s]),
            "characters": sorted(state.chars[s]) if s in seat_sees or s in state.scored else None,
            "special_cards": list(state.specials[s]),
            "special_cards_in_effect": list(state.effective[s]),
            "assigned_characters": [{"card": c, "island": i, "vp": v} for c, i, v in state.assigned[s]],
        }
        players.append(player)
    board = [
        {"space": g.space_ids[i], "kind": cell[0], "face": cell[1], "owner": cell[2]}
        for i, cell in enumerate(state.board)
        if cell is not None
    ]
    gondolas = [
        {"island": g.islands[i // q.N_COLOURS], "colour": data.PLAYER_COLOURS[i % q.N_COLOURS], "seat": occupant}
        for i, occupant in enumerate(state.gondolas)
        if occupant >= 0
    ]
    pending: dict[str, Any] = {"decision": state.phase, "seat": state.active if state.active >= 0 else None}
    if state.moves:
        pending["moves_made"] = state.moves
        pending["last_moved_ship"] = state.last_ship
    if state.buy_kind:
        pending["buy_kind"] = state.buy_kind
    if state.build_k or state.build_spaces:
        pending["build_placements"] = state.build_k
        pending["build_spaces"] = [g.space_ids[s] for s in state.build_spaces]
    if state.street_face:
        pending["street_face"] = state.street_face
    if state.free_tile:
        kind, face = state.free_tile
        pending["free_tile"] = (_tile if state.active in seat_sees else _public_tile)(kind, face)
    if state.drawn:
        pending["drawn_count"] = len(state.drawn)
        pending["drawn"] = list(state.drawn) if state.active in seat_sees else None
        if state.phase == HIRE_PICK:
            pending["price"] = state.buy_price
    if state.phase == PICK_TILE:
        stack = state.shops if state.buy_kind == SHOP else state.palaces
        pending["price"] = state.buy_price
        pending["stack"] = list(stack) if state.active in seat_sees else None
    out: dict[str, Any] = {
        "game": "murano",
        "seats": n,
        "viewer": seat,
        "start_seat": state.start_seat,
        "turns_played": state.turns,
        "pending": pending,
        "ring": list(q.ACTIONS),
        "ships": list(state.ships),
        "red_ship": data.RED_SHIP,
        "players": players,
        "board": board,
        "islands": list(g.islands),
        "gondolas": gondolas,
        "supplies": {
            "streets": len(state.streets),
            "shops": len(state.shops),
            "palaces": len(state.palaces),
            "glass_factories": state.factories,
            "special_buildings": state.special_tiles,
            "character_deck": len(state.char_deck),
            "special_deck": len(state.special_deck),
        },
        "bag": dict(zip(data.BEAD_COLOURS, state.bag)),
        "removed": copy.deepcopy(dict(state.removed_public)),
        "end_triggered": state.end_triggered,
        "trigger_seat": state.trigger_seat if state.end_triggered else None,
        "empty_supplies": list(state.empty_supplies),
        "final_turns_left": list(state.final_queue),
        "aborted": state.aborted,
    }
    if seat is not None and state.phase != OVER:
        bit = 1 << seat
        out["known_character_deck"] = [
            {"position": i, "card": c} for i, (c, m) in enumerate(zip(state.char_deck, state.char_known)) if m & bit
        ]
        out["known_special_deck"] = [
            {"position": i, "card": c}
            for i, (c, m) in enumerate(zip(state.special_deck, state.special_known))
            if m & bit
        ]
    return out


def reveal_all(state: MuranoState) -> dict[str, Any]:
    out = view(state, None)
    for s, player in enumerate(out["players"]):
        player["hand"] = [_tile(k, f) for k, f in state.hand[s]]
        player["characters"] = sorted(state.chars[s])
    out["stacks"] = {
        "streets": list(state.streets),
        "shops": list(state.shops),
        "palaces": list(state.palaces),
        "character_deck": list(state.char_deck),
        "special_deck": list(state.special_deck),
    }
    out["removed_palace"] = state.removed_palace
    out["removed_characters"] = list(state.removed_chars)
    out["pending"]["drawn"] = list(state.drawn) if state.drawn else None
    if "stack" in out["pending"]:
        out["pending"]["stack"] = list(state.shops if state.buy_kind == SHOP else state.palaces)
    if state.free_tile:
        out["pending"]["free_tile"] = _tile(*state.free_tile)
    return out


# ---- events ------------------------------------------------------------------------------------------------------
_SETUP_PRIVATE = ("streets", "shops", "palaces", "characters", "special_cards", "removed_palace", "removed_characters")
_PRIVATE_TO_ACTOR = {
    "StackViewed": ("faces",),
    "CharactersDrawn": ("cards",),
    "CharacterKept": ("card", "returned"),
    "CharactersDeclined": ("returned",),
    "SpecialCardsDrawn": ("cards",),
    "SpecialCardTaken": ("returned",),
}
REVEALING = frozenset(
    {
        "GameSetUp",
        "StackViewed",
        "StackShuffled",
        "StreetDrawn",
        "CharactersDrawn",
        "SpecialCardsDrawn",
        "BeadDrawn",
        "CardAssigned",
        "ScoringFinished",
        "GameOver",
    }
)


def redact(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    kind: str = event.get("type", "")
    if kind == "GameSetUp":
        return {**event, **{k: None for k in _SETUP_PRIVATE}}
    if kind == "StackShuffled":
        return {**event, "order": None}
    if kind == "TileBought":
        if event["kind"] in HIDDEN_FACE_KINDS and event["seat"] != seat:
            return {**event, "face": None}
        return event
    hidden = _PRIVATE_TO_ACTOR.get(kind)
    if hidden and event["seat"] != seat:
        return {**event, **{k: None for k in hidden}}
    return event


def reveals(event: dict[str, Any]) -> bool:
    """Random outcomes and hidden faces shown: draws, shuffles, beads, a shop/palace bought (its face, to the
    buyer) or built (its face, to all), cards assigned or revealed at scoring."""
    kind = event.get("type")
    if kind in ("TileBought", "TilePlaced"):
        return event.get("kind") in HIDDEN_FACE_KINDS
    return kind in REVEALING


# ---- determinize -------------------------------------------------------------------------------------------------
def determinize(state: MuranoState, seat: int, rng: random.Random) -> MuranoState:
    """A state consistent with what ``seat`` knows: every hidden order and every face hidden from ``seat`` is
    resampled from the pool of items ``seat`` cannot tell apart."""
    s = state.deep_copy()
    s.needs = None
    n = s.n
    others = [p for p in range(n) if p != seat]
    bit = 1 << seat
    # characters: opponents' hands, unknown deck positions, the removed cards, an opponent's drawn cards
    hidden_hands = [p for p in others if p not in s.scored]  # scored players' leftover cards are public
    pool: list[str] = []
    for p in hidden_hands:
        pool.extend(s.chars[p])
    unknown_pos = [i for i, m in enumerate(s.char_known) if not m & bit]
    pool.extend(s.char_deck[i] for i in unknown_pos)
    pool.extend(s.removed_chars)
    opp_drawing = s.phase == HIRE_PICK and s.active != seat
    if opp_drawing:
        pool.extend(s.drawn)
    rng.shuffle(pool)
    it = iter(pool)
    for p in hidden_hands:
        s.chars[p] = tuple(next(it) for _ in s.chars[p])
    for i in unknown_pos:
        s.char_deck[i] = next(it)
    s.removed_chars = tuple(next(it) for _ in s.removed_chars)
    if opp_drawing:
        s.drawn = tuple(next(it) for _ in s.drawn)
    # special deck: composition public, order hidden except positions this seat put there
    unknown_pos = [i for i, m in enumerate(s.special_known) if not m & bit]
    spool = [s.special_deck[i] for i in unknown_pos]
    opp_special = s.phase == SPECIAL_CARD and s.active != seat
    if opp_special:
        spool.extend(s.drawn)
    rng.shuffle(spool)
    it = iter(spool)
    for i in unknown_pos:
        s.special_deck[i] = next(it)
    if opp_special:
        s.drawn = tuple(next(it) for _ in s.drawn)
    # shops and palaces: stack order and faces in opponents' hands (and the removed palace)
    for kind in (SHOP, PALACE):
        stack_known = s.phase == PICK_TILE and s.active == seat and s.buy_kind == kind
        stack: list[Any] = s.shops if kind == SHOP else s.palaces
        tpool: list[Any] = [] if stack_known else list(stack)
        for p in others:
            tpool.extend(f for k, f in s.hand[p] if k == kind)
        if kind == PALACE and s.removed_palace is not None:
            tpool.append(s.removed_palace)
        rng.shuffle(tpool)
        it = iter(tpool)
        if not stack_known:
            stack[:] = [next(it) for _ in stack]
        for p in others:
            s.hand[p] = tuple((k, next(it)) if k == kind else (k, f) for k, f in s.hand[p])
        if kind == PALACE and s.removed_palace is not None:
            s.removed_palace = cast(int, next(it))
    if s.free_tile is not None and s.active != seat:
        s.free_tile = s.hand[s.active][-1]
    rng.shuffle(s.streets)
    return s
