"""Folding events into the state. ``apply`` mutates a private copy; ``evolve`` = copy + apply. Never validates."""

from __future__ import annotations

from typing import Any

from domain.murano import data
from domain.murano.board import geometry
from domain.murano.queries import BEAD_INDEX, COLOUR_INDEX, N_COLOURS
from domain.murano.state import (
    ASSIGN,
    BUILD_STEP,
    BUY_MODE,
    CONTINUE,
    FREE_PLACE,
    GLASS_FACTORY,
    GONDOLIERS,
    HIRE_PICK,
    INCOME,
    OVER,
    PALACE,
    PICK_TILE,
    PRODUCE,
    SEAT,
    SELL,
    SHOP,
    SPECIAL_BUILDING,
    SPECIAL_CARD,
    STREET,
    STREET_SPACE,
    TURN,
    MuranoState,
)

_ACTION_PHASE = {
    "buy_shop": BUY_MODE,
    "buy_palace": BUY_MODE,
    "place_gondolier": SEAT,
    "build": BUILD_STEP,
    "income": INCOME,
    "production": PRODUCE,
    "gondoliers": GONDOLIERS,
}


def _face(kind: str, face: Any) -> Any:
    return face if kind in (SHOP, PALACE) else None


def _remove_one(items: tuple[Any, ...], item: Any) -> tuple[Any, ...]:
    if item not in items:  # tolerate hand-written logs; decide never produces this
        return items
    i = items.index(item)
    return items[:i] + items[i + 1 :]


def _add_beads(beads: tuple[int, int, int], colour: str, n: int) -> tuple[int, int, int]:
    b = list(beads)
    b[BEAD_INDEX[colour]] += n
    return (b[0], b[1], b[2])


def _set_up(s: MuranoState, e: dict[str, Any]) -> None:
    n = e["seats"]
    s.n = n
    s.colours = tuple(e["colours"])
    s.start_seat = e["start_seat"]
    s.ships = list(e["ships"])
    s.gold = [data.START_GOLD] * n
    s.vp = [data.START_VP] * n
    s.personal = [data.START_PERSONAL_GONDOLIERS] * n
    s.general = [data.START_GENERAL_GONDOLIERS] * n
    s.beads = [(0, 0, 0)] * n
    s.hand = [()] * n
    s.chars = [()] * n
    s.specials = [()] * n
    s.effective = [()] * n
    s.assigned = [()] * n
    s.bag = (data.BEADS_PER_COLOUR,) * 3
    g = geometry(n)
    s.board = [None] * len(g.space_ids)
    s.gondolas = [-1] * (len(g.islands) * N_COLOURS)
    s.streets = list(e["streets"])
    s.shops = list(e["shops"])
    s.palaces = list(e["palaces"])
    s.factories = e["glass_factories"]
    s.special_tiles = e["special_tiles"]
    s.char_deck = list(e["characters"])
    s.char_known = [0] * len(s.char_deck)
    s.special_deck = list(e["special_cards"])
    s.special_known = [0] * len(s.special_deck)
    s.removed_palace = e["removed_palace"]
    s.removed_chars = tuple(e["removed_characters"])
    s.removed_public = tuple(sorted(e["removed"].items()))  # (what, JSON data) pairs, shown as data by view


def _clear_pending(s: MuranoState) -> None:
    s.drawn = ()
    s.buy_kind = None
    s.buy_price = 0
    s.build_k = 0
    s.build_spaces = ()
    s.street_face = None
    s.free_tile = None
    s.special_return = None


# Lists each event mutates; ``apply`` copies them first so that shallow state copies stay independent.
_WRITES = {
    "ShipMoved": ("ships", "gold"),
    "Passed": ("ships", "gold"),
    "GoldTaken": ("gold",),
    "TileBought": ("gold", "hand", "shops", "palaces"),
    "StreetDrawn": ("streets",),
    "TilePlaced": ("board", "hand", "vp"),
    "SpecialCardsDrawn": ("special_deck", "special_known"),
    "SpecialCardTaken": ("specials", "special_deck", "special_known", "vp"),
    "CharactersDrawn": ("char_deck", "char_known"),
    "CharacterKept": ("gold", "chars", "char_deck", "char_known"),
    "CharactersDeclined": ("char_deck", "char_known"),
    "GondolierSeated": ("gold", "personal", "gondolas"),
    "GondolierFired": ("gold", "personal", "general"),
    "GondolierHired": ("gold", "personal", "general"),
    "IncomeCollected": ("gold",),
    "FactoriesUsed": ("vp",),
    "BeadDrawn": ("beads",),
    "BonusScored": ("vp",),
    "BeadsSold": ("beads", "gold"),
    "TurnStarted": ("effective",),
    "CardAssigned": ("chars", "vp", "assigned"),
    "ScoringFinished": ("vp",),
}


def _on_ship_moved(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.ships[e["ship"]] = e["to"]
    s.gold[seat] -= e["cost"]
    s.moves += 1
    s.last_ship = e["ship"]
    s.phase = CONTINUE


def _on_passed(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.ships[e["ship"]] = e["to"]
    s.gold[seat] += e["gold"]


def _on_action_started(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.phase = _ACTION_PHASE.get(e["action"], s.phase)
    if e["action"] in ("buy_shop", "buy_palace"):
        s.buy_kind = SHOP if e["action"] == "buy_shop" else PALACE


def _on_gold_taken(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.gold[seat] += e["gold"]


def _on_tile_bought(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    tile_kind = e["kind"]
    s.gold[seat] -= e["price"]
    face = _face(tile_kind, e["face"])
    if tile_kind == GLASS_FACTORY:
        s.factories -= 1
    elif tile_kind == SPECIAL_BUILDING:
        s.special_tiles -= 1
    else:
        stack = s.shops if tile_kind == SHOP else s.palaces
        if e["mode"] == "choose":
            s.phase = BUY_MODE  # the pick is made: the stack is no longer the buyer's to look through
        if e["mode"] == "top":
            if stack:
                stack.pop(0)
        elif face in stack:
            stack.remove(face)
    s.hand[seat] = s.hand[seat] + ((tile_kind, face),)


def _on_stack_viewed(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.phase = PICK_TILE
    s.buy_price = e["price"]


def _on_stack_shuffled(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    if e["kind"] == SHOP:
        s.shops = list(e["order"])
    else:
        s.palaces = list(e["order"])


def _on_end_triggered(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.end_triggered = True
    s.trigger_seat = seat
    s.empty_supplies = tuple(e["empty"])
    s.final_queue = tuple((seat + i) % s.n for i in range(1, s.n))


def _on_free_placement_offered(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.phase = FREE_PLACE
    s.free_tile = s.hand[seat][-1]


def _on_free_placement_declined(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.free_tile = None


def _on_street_drawn(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    if s.streets:
        s.streets.pop(0)
    s.street_face = e["face"]
    s.phase = STREET_SPACE


def _on_tile_placed(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    g = geometry(s.n)
    space = g.space_index[e["space"]]
    tile_kind = e["kind"]
    face = e["face"]
    s.board[space] = (tile_kind, face, e["owner"])
    if tile_kind != STREET:
        s.hand[seat] = _remove_one(s.hand[seat], (tile_kind, _face(tile_kind, face)))
    s.vp[seat] += e["vp"]
    if e["free"]:
        s.free_tile = None
    else:
        s.build_k += 1
        s.build_spaces = s.build_spaces + (space,)
        s.street_face = None
        s.phase = BUILD_STEP


def _on_build_stopped(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    pass


def _on_special_cards_drawn(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    count = e["count"]
    s.drawn = tuple(e["cards"])
    del s.special_deck[:count]
    del s.special_known[:count]
    s.special_return = BUILD_STEP if e["during"] == "build" else None
    s.phase = SPECIAL_CARD


def _on_special_card_taken(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.specials[seat] = s.specials[seat] + (e["card"],)
    s.special_deck.extend(e["returned"])
    s.special_known.extend([1 << seat] * len(e["returned"]))
    s.vp[seat] += e["vp"]
    s.drawn = ()
    if s.special_return is not None:
        s.phase = s.special_return


def _on_characters_drawn(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    count = e["count"]
    s.drawn = tuple(e["cards"])
    del s.char_deck[:count]
    del s.char_known[:count]
    s.buy_price = e["price"]
    s.phase = HIRE_PICK


def _on_character_kept(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.gold[seat] -= e["price"]
    s.chars[seat] = s.chars[seat] + (e["card"],)
    s.char_deck.extend(e["returned"])
    s.char_known.extend([1 << seat] * len(e["returned"]))
    s.drawn = ()


def _on_characters_declined(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.char_deck.extend(e["returned"])
    s.char_known.extend([1 << seat] * len(e["returned"]))
    s.drawn = ()


def _on_gondolier_seated(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    g = geometry(s.n)
    s.gold[seat] -= e["price"]
    s.personal[seat] -= 1
    s.gondolas[g.island_index[e["island"]] * N_COLOURS + COLOUR_INDEX[e["colour"]]] = seat


def _on_gondolier_fired(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.personal[seat] -= 1
    s.general[seat] += 1
    s.gold[seat] += e["gold"]


def _on_gondolier_hired(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.personal[seat] += 1
    s.general[seat] -= 1
    s.gold[seat] -= e["price"]


def _on_income_collected(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.gold[seat] += e["gold"]


def _on_factories_used(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.vp[seat] -= e["vp_lost"]
    s.phase = SELL


def _on_bead_drawn(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.bag = _add_beads(s.bag, e["colour"], -1)
    s.beads[seat] = _add_beads(s.beads[seat], e["colour"], 1)


def _on_bonus_scored(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.vp[seat] += e["vp"]


def _on_beads_sold(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    for colour, n in e["beads"].items():
        s.bag = _add_beads(s.bag, colour, n)
        s.beads[seat] = _add_beads(s.beads[seat], colour, -n)
    s.gold[seat] += e["gold"]


def _on_sale_skipped(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    pass


def _on_turn_ended(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.turns += 1
    _clear_pending(s)


def _on_turn_started(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.active = seat
    s.phase = TURN
    s.moves = 0
    s.last_ship = -1
    s.effective[seat] = s.specials[seat]
    if e["final"]:
        s.final_queue = s.final_queue[1:]
    _clear_pending(s)


def _on_scoring_started(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.active = seat
    s.phase = ASSIGN
    s.used = (0,) * len(geometry(s.n).islands)


def _on_card_assigned(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    ii = geometry(s.n).island_index[e["island"]]
    s.chars[seat] = _remove_one(s.chars[seat], e["card"])
    used = list(s.used)
    used[ii] += 1
    s.used = tuple(used)
    s.vp[seat] += e["vp"]
    s.assigned[seat] = s.assigned[seat] + ((e["card"], e["island"], e["vp"]),)


def _on_scoring_finished(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.vp[seat] += e["vp"]
    s.scored = s.scored + (seat,)


def _on_game_over(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    s.phase = OVER
    s.active = -1
    s.aborted = e["aborted"]


def _on_game_set_up(s: MuranoState, e: dict[str, Any], seat: int) -> None:
    _set_up(s, e)


_HANDLERS = {
    "ShipMoved": _on_ship_moved,
    "Passed": _on_passed,
    "ActionStarted": _on_action_started,
    "GoldTaken": _on_gold_taken,
    "TileBought": _on_tile_bought,
    "StackViewed": _on_stack_viewed,
    "StackShuffled": _on_stack_shuffled,
    "EndTriggered": _on_end_triggered,
    "FreePlacementOffered": _on_free_placement_offered,
    "FreePlacementDeclined": _on_free_placement_declined,
    "StreetDrawn": _on_street_drawn,
    "TilePlaced": _on_tile_placed,
    "BuildStopped": _on_build_stopped,
    "SpecialCardsDrawn": _on_special_cards_drawn,
    "SpecialCardTaken": _on_special_card_taken,
    "CharactersDrawn": _on_characters_drawn,
    "CharacterKept": _on_character_kept,
    "CharactersDeclined": _on_characters_declined,
    "GondolierSeated": _on_gondolier_seated,
    "GondolierFired": _on_gondolier_fired,
    "GondolierHired": _on_gondolier_hired,
    "IncomeCollected": _on_income_collected,
    "FactoriesUsed": _on_factories_used,
    "BeadDrawn": _on_bead_drawn,
    "BonusScored": _on_bonus_scored,
    "BeadsSold": _on_beads_sold,
    "SaleSkipped": _on_sale_skipped,
    "TurnEnded": _on_turn_ended,
    "TurnStarted": _on_turn_started,
    "ScoringStarted": _on_scoring_started,
    "CardAssigned": _on_card_assigned,
    "ScoringFinished": _on_scoring_finished,
    "GameOver": _on_game_over,
    "GameSetUp": _on_game_set_up,
}


def apply(s: MuranoState, e: dict[str, Any]) -> None:
    """Apply one event to ``s`` in place. ``s`` may share its lists with other states (``copy`` is shallow):
    every list the event mutates is copied first (``_WRITES``). Unknown event types are ignored."""
    entry = _TABLE.get(e["type"])
    if entry is None:
        return
    writes, handler, keeps_needs = entry
    d = s.__dict__
    for name in writes:
        d[name] = d[name][:]
    if not keeps_needs:
        d["needs"] = None  # the cached action needs (queries.turn_needs) hold only while ships move
    handler(s, e, e.get("seat", -1))


def apply_owned(s: MuranoState, e: dict[str, Any]) -> None:
    """``apply`` for a state that shares no list with any other state (``MuranoState.deep_copy``, then only
    ``apply_owned``): the same fold without copying the lists the event mutates."""
    entry = _TABLE.get(e["type"])
    if entry is None:
        return
    _writes, handler, keeps_needs = entry
    if not keeps_needs:
        s.needs = None
    handler(s, e, e.get("seat", -1))


_TABLE = {kind: (_WRITES.get(kind, ()), handler, kind == "ShipMoved") for kind, handler in _HANDLERS.items()}


def evolve(state: MuranoState, event: dict[str, Any]) -> MuranoState:
    new = state.copy()
    apply(new, event)
    return new
