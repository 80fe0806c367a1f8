"""Folding events into state. ``apply`` mutates a shallow clone copy-on-write; it never validates."""

from __future__ import annotations

from typing import Any

from .board import get_board
from .data import (
    COLOUR_INDEX,
    COMMODITY_INDEX,
    FAIR_WINDS_AP,
    PHASE_COLOURS,
    PROGRESS_DISPLAY_SPACES,
    SHAPE_INDEX,
    START_GOLD_BY_STACK,
    VILLAGE_SHAPES,
)
from .state import (
    ACT,
    NEUTRAL_SLOT,
    NEUTRAL_TILE,
    POST,
    TOKENS,
    VILLAGE_SLOT,
    VILLAGE_TILE,
    Player,
    State,
)

SPACE_INDEX = {name: i for i, name in enumerate(PROGRESS_DISPLAY_SPACES)}


def node_of(state: State, loc: dict[str, Any]) -> int:
    board = state.board
    if "frame" in loc:
        frame: int = loc["frame"]
        return board.nsq + frame
    r: int = loc["r"]
    c: int = loc["c"]
    return r * board.ncols + c


def evolve(state: State, event: dict[str, Any]) -> State:
    new = state.clone()
    apply(new, event)
    return new


def _pay(s: State, p: Player, event: dict[str, Any]) -> None:
    gold = event.get("gold", 0)
    if gold:
        p.gold -= gold
        s.gold_paid += gold


def apply(s: State, ev: dict[str, Any]) -> None:  # noqa: C901 - one dispatch table
    handler = _HANDLERS.get(ev["type"])
    if handler is not None:
        handler(s, ev)


# -- setup --------------------------------------------------------------------------------------------
def _game_started(s: State, ev: dict[str, Any]) -> None:
    s.seats = ev["seats"]
    s.started = True
    s.players = [Player() for _ in range(s.seats)]


def _islands_assembled(s: State, ev: dict[str, Any]) -> None:
    b = get_board(s.seats, tuple(ev["sel"]), tuple(ev["rots"]))
    s.board = b
    s.cover = [0] * b.nsq
    s.island_empty = list(b.island_size)
    s.chest_on = [i in b.chest_islands for i in range(len(b.islands))]


def _stack_order(s: State, ev: dict[str, Any]) -> None:
    s.order = list(ev["order"])
    s.players = list(s.players)
    for pos, seat in enumerate(ev["order"]):
        p = s.players[seat] = s.players[seat].clone()
        p.gold = START_GOLD_BY_STACK[pos]


def _pirates_placed(s: State, ev: dict[str, Any]) -> None:
    s.pirates = list(ev["slots"])
    s.pirate_out = ev["out"]


def _pirate_revealed(s: State, ev: dict[str, Any]) -> None:
    s.pirates = list(s.pirates)
    s.pirates[ev["slot"] - 1] = ev["value"]
    s.pirates_revealed = max(s.pirates_revealed, ev["slot"])


def _progress_shuffled(s: State, ev: dict[str, Any]) -> None:
    s.progress_pile = list(ev["pile"])


def _progress_revealed(s: State, ev: dict[str, Any]) -> None:
    display = list(s.progress_display)
    pile = list(s.progress_pile)
    for space, token in ev["tokens"].items():
        display[SPACE_INDEX[space]] = token
        if token in pile:
            pile.remove(token)
    s.progress_display = display
    s.progress_pile = pile


def _production_shuffled(s: State, ev: dict[str, Any]) -> None:
    s.prod_stacks = {mark: list(ids) for mark, ids in ev["stacks"].items()}


def _production_revealed(s: State, ev: dict[str, Any]) -> None:
    stacks = dict(s.prod_stacks)
    display = list(s.prod_display)
    for token in ev["tokens"]:
        mark = token.split("-")[2]
        stack = stacks[mark] = list(stacks[mark])
        if token in stack:
            stack.remove(token)
        display.append(token)
    s.prod_stacks = stacks
    s.prod_display = display


def _tower_dropped(s: State, ev: dict[str, Any]) -> None:
    out = [COLOUR_INDEX[c] for c in ev["out"]]
    s.tower = [COLOUR_INDEX[c] for c in ev["tower"]]
    storage = list(s.storage)
    if ev["colour"] == "setup":
        storage = [0] * 7
        for c in out:
            storage[c] += 1
    else:
        storage[COLOUR_INDEX[ev["colour"]]] = 0
        area = [0] * 7
        for c in out:
            area[c] += 1
        s.area = area
    s.storage = storage


def _round_started(s: State, ev: dict[str, Any]) -> None:
    s.round = ev["round"]
    s.phase = -1
    s.phase_active = False


def _phase_skipped(s: State, ev: dict[str, Any]) -> None:
    s.phase = PHASE_COLOURS.index(COLOUR_INDEX[ev["colour"]])
    s.phase_active = False


def _phase_started(s: State, ev: dict[str, Any]) -> None:
    s.phase = PHASE_COLOURS.index(COLOUR_INDEX[ev["colour"]])
    s.phase_active = True
    s.ap = ev["ap"]
    s.phase_order = list(ev["order"])
    s.turn_idx = 0
    s._reset_turn()
    s.turn_seat = s.phase_order[0]


def _phase_ended(s: State, ev: dict[str, Any]) -> None:
    s.storage = [a + b for a, b in zip(s.storage, s.area)]
    s.area = [0] * 7
    s.ap = 0
    s.phase_active = False
    s.turn_seat = -1


def _turn_ended(s: State, ev: dict[str, Any]) -> None:
    s._reset_turn()
    s.turn_idx += 1
    if s.turn_idx < len(s.phase_order):
        s.turn_seat = s.phase_order[s.turn_idx]


# -- turn options -------------------------------------------------------------------------------------
def _action_chosen(s: State, ev: dict[str, Any]) -> None:
    s.stage = ACT
    s.colour = COLOUR_INDEX[ev["colour"]]
    s.mode = ev.get("mode")
    s.x = COLOUR_INDEX[ev["executed"]]
    s.ap_free = ev["ap_free"]


def _gold_taken(s: State, ev: dict[str, Any]) -> None:
    s.mut_player(ev["seat"]).gain_gold(ev["gold"])


def _chronicle_used(s: State, ev: dict[str, Any]) -> None:
    p = s.mut_player(ev["seat"])
    p.tokens = {**p.tokens, "P21": True}
    p.vp += ev["vp"]


def _chest_cashed(s: State, ev: dict[str, Any]) -> None:
    p = s.mut_player(ev["seat"])
    p.chests -= 1
    p.gain_gold(ev["gold"])


def _gold_token_used(s: State, ev: dict[str, Any]) -> None:
    p = s.mut_player(ev["seat"])
    p.tokens = {**p.tokens, ev["token"]: True}
    p.gain_gold(ev["gold"])


def _overflow(s: State, ev: dict[str, Any]) -> None:
    s.mut_player(ev["seat"]).gain_gold(ev["gold"])


# -- MOVE ---------------------------------------------------------------------------------------------
def _ship_placed(s: State, ev: dict[str, Any]) -> None:
    p = s.mut_player(ev["seat"])
    p.ships = list(p.ships)
    p.ships[ev["ship"]] = s.board.nsq + ev["frame"]


def _fair_winds(s: State, ev: dict[str, Any]) -> None:
    p = s.mut_player(ev["seat"])
    p.tokens = {**p.tokens, "P10": True}
    s.ap_free += FAIR_WINDS_AP


def _ship_moved(s: State, ev: dict[str, Any]) -> None:
    p = s.mut_player(ev["seat"])
    ship = ev["ship"]
    p.ships = list(p.ships)
    p.ships[ship] = node_of(s, ev["to"])
    sailed = list(s.sailed)
    sailed[ship] += ev["distance"]
    s.sailed = tuple(sailed)
    s.ap_used = max(sailed)
    s.moved_any = True
    _pay(s, p, ev)


def _post_founded(s: State, ev: dict[str, Any]) -> None:
    seat = ev["seat"]
    p = s.mut_player(seat)
    sq = node_of(s, ev["square"])
    s.cover = list(s.cover)
    s.cover[sq] = POST + seat
    p.posts_left -= 1
    p.vp += ev["discovery_vp"]
    if ev.get("gold"):
        p.gain_gold(ev["gold"])
    island = s.board.island_of[sq]
    s.island_empty = list(s.island_empty)
    s.island_empty[island] -= 1
    founded = list(s.founded)
    founded[ev["ship"]] = True
    s.founded = tuple(founded)


def _island_completed(s: State, ev: dict[str, Any]) -> None:
    p = s.mut_player(ev["seat"])
    p.vp += ev["vp"]
    if ev["chest"]:
        p.chests += 1
        s.chest_on = list(s.chest_on)
        s.chest_on[ev["island"]] = False
    for row in ev["scores"]:
        s.mut_player(row["seat"]).vp += row["vp"]


# -- tracks -------------------------------------------------------------------------------------------
def _cannons_loaded(s: State, ev: dict[str, Any]) -> None:
    p = s.mut_player(ev["seat"])
    p.cannon += ev["n"]
    s.ap_used += ev["n"]
    _pay(s, p, ev)


def _progress_advanced(s: State, ev: dict[str, Any]) -> None:
    p = s.mut_player(ev["seat"])
    p.progress += ev["n"]
    s.ap_used += ev["n"]
    _pay(s, p, ev)
    s.tokens_due = ev["tokens_due"]
    if s.tokens_due:
        s.stage = TOKENS


def _progress_token_taken(s: State, ev: dict[str, Any]) -> None:
    p = s.mut_player(ev["seat"])
    token = ev["token"]
    p.tokens = {**p.tokens, token: False}
    display = list(s.progress_display)
    display[SPACE_INDEX[ev["space"]]] = None
    s.progress_display = display
    s.tokens_due -= 1


def _special_advanced(s: State, ev: dict[str, Any]) -> None:
    seat = ev["seat"]
    if ev["n"]:
        s.move_on_special_track(seat, ev["position"])  # a disc that does not move keeps its stack place
    else:
        s.mut_player(seat)
    s.ap_used += ev["n"]
    _pay(s, s.players[seat], ev)


def _fast_passage(s: State, ev: dict[str, Any]) -> None:
    seat = ev["seat"]
    p = s.mut_player(seat)
    p.tokens = {**p.tokens, "P16": True}
    p.special = ev["position"]
    s.order = [seat] + [x for x in s.order if x != seat]


# -- PLAN / BUILD / PRODUCE ---------------------------------------------------------------------------
def _tile_taken(s: State, ev: dict[str, Any]) -> None:
    seat = ev["seat"]
    p = s.mut_player(seat)
    shape = ev["shape"]
    p.planned = list(p.planned)
    if ev["kind"] == "village":
        p.planned[VILLAGE_SLOT[shape]] += 1
        p.village_left = list(p.village_left)
        p.village_left[VILLAGE_SHAPES.index(shape)] -= 1
    else:
        p.planned[NEUTRAL_SLOT[shape]] += 1
        s.neutral_supply = list(s.neutral_supply)
        s.neutral_supply[SHAPE_INDEX[shape]] -= 1
        s.neutral_taken += 1
    s.ap_used += ev["cost"]
    _pay(s, p, ev)


def _tile_placed(s: State, ev: dict[str, Any]) -> None:
    seat = ev["seat"]
    p = s.mut_player(seat)
    shape = ev["shape"]
    squares = tuple(node_of(s, sq) for sq in ev["squares"])
    p.planned = list(p.planned)
    village = ev["kind"] == "village"
    p.planned[(VILLAGE_SLOT if village else NEUTRAL_SLOT)[shape]] -= 1
    code = VILLAGE_TILE + seat if village else NEUTRAL_TILE
    s.cover = list(s.cover)
    for sq in squares:
        s.cover[sq] = code
    s.island_empty = list(s.island_empty)
    s.island_empty[ev["island"]] -= len(squares)
    s.placed = s.placed + [(ev["kind"], shape, seat if village else -1, squares)]
    p.vp += ev["vp"]
    if ev["commodities"]:
        p.commodities = list(p.commodities)
        for t in ev["commodities"]:
            p.commodities[COMMODITY_INDEX[t]] += 1
    s.ap_used += ev["cost"]
    _pay(s, p, ev)


def _production_bought(s: State, ev: dict[str, Any]) -> None:
    p = s.mut_player(ev["seat"])
    token = ev["token"]
    p.production = p.production + [token]
    s.prod_display = [t for t in s.prod_display if t != token]
    s.ap_used += ev["cost"]
    _pay(s, p, ev)


# -- end of round / game ------------------------------------------------------------------------------
def _pirates_attacked(s: State, ev: dict[str, Any]) -> None:
    s.pirates_round = ev["round"]
    for row in ev["outcomes"]:
        p = s.mut_player(row["seat"])
        p.cannon = row["cannon_after"]
        p.vp = max(0, p.vp - row["vp_lost"])
        if row["gold"]:
            p.gain_gold(row["gold"])


def _progress_refreshed(s: State, ev: dict[str, Any]) -> None:
    old = s.progress_display
    removed = [t for t in old[:4] if t is not None]
    s.progress_removed = s.progress_removed + removed
    s.progress_display = list(old[4:]) + [None] * 4


def _production_cleared(s: State, ev: dict[str, Any]) -> None:
    s.prod_removed = s.prod_removed + list(s.prod_display)
    s.prod_display = []


def _game_ended(s: State, ev: dict[str, Any]) -> None:
    s.final = [dict(row) for row in ev["final"]]
    s.players = list(s.players)
    for row in ev["final"]:
        p = s.players[row["seat"]] = s.players[row["seat"]].clone()
        p.gold = row["gold_after"]
        p.chests = 0
        p.vp = row["total"]
    s.over = True
    s.turn_seat = -1


_HANDLERS = {
    "GameStarted": _game_started,
    "IslandsAssembled": _islands_assembled,
    "StackOrderDrawn": _stack_order,
    "PiratesPlaced": _pirates_placed,
    "PirateRevealed": _pirate_revealed,
    "ProgressPileShuffled": _progress_shuffled,
    "ProgressTokensRevealed": _progress_revealed,
    "ProductionStacksShuffled": _production_shuffled,
    "ProductionRevealed": _production_revealed,
    "TowerDropped": _tower_dropped,
    "RoundStarted": _round_started,
    "PhaseSkipped": _phase_skipped,
    "PhaseStarted": _phase_started,
    "PhaseEnded": _phase_ended,
    "TurnEnded": _turn_ended,
    "ActionChosen": _action_chosen,
    "GoldTaken": _gold_taken,
    "ChronicleUsed": _chronicle_used,
    "ChestCashed": _chest_cashed,
    "GoldTokenUsed": _gold_token_used,
    "TrackOverflowed": _overflow,
    "ShipPlaced": _ship_placed,
    "FairWindsUsed": _fair_winds,
    "ShipMoved": _ship_moved,
    "TradingPostFounded": _post_founded,
    "IslandCompleted": _island_completed,
    "CannonsLoaded": _cannons_loaded,
    "ProgressAdvanced": _progress_advanced,
    "ProgressTokenTaken": _progress_token_taken,
    "SpecialAdvanced": _special_advanced,
    "FastPassageUsed": _fast_passage,
    "TileTaken": _tile_taken,
    "TilePlaced": _tile_placed,
    "ProductionBought": _production_bought,
    "PiratesAttacked": _pirates_attacked,
    "ProgressDisplayRefreshed": _progress_refreshed,
    "ProductionDisplayCleared": _production_cleared,
    "GameEnded": _game_ended,
}
