"""decide: validate one command for the pending decision (§6.5) and return the events it causes.

Events are applied to a private working copy as they are produced, so follow-up logic (end trigger, end of turn,
final scoring) reads the state the events lead to.

Section (§) and ruling (D, Q) numbers are those of docs/rules/murano.md.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from domain.decider import Recorder, illegal, int_field, invalid, open_command, str_field
from domain.game import Event, rank_by
from domain.murano import data
from domain.murano import queries as q
from domain.murano.evolve import apply, apply_owned
from domain.murano.scoring import assign_options, card_value, free_gondoliers
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
    NOT_STARTED,
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

_invalid = invalid
_illegal = illegal
_int = int_field
_str = str_field


def _space(state: MuranoState, cmd: dict[str, Any]) -> int:
    name = _str(cmd, "space")
    index = q.geo(state).space_index.get(name)
    if index is None:
        raise _invalid(f"unknown space {name!r}; spaces look like 'SAN_DONATO:r1c3'")
    return index


def _island(state: MuranoState, cmd: dict[str, Any]) -> int:
    name = _str(cmd, "island")
    index = q.geo(state).island_index.get(name)
    if index is None:
        raise _invalid(f"unknown or unbuildable island {name!r}; expected one of {list(q.geo(state).islands)}")
    return index


class _Turn(Recorder[MuranoState]):
    """The recorder of one decision (``state``: the working state), with Murano's shared steps."""

    __slots__ = ("seat", "rng")

    def __init__(
        self, state: MuranoState, seat: int, rng: random.Random, fold: Callable[[MuranoState, Event], None] = apply
    ) -> None:
        super().__init__(state, fold)
        self.seat = seat
        self.rng = rng

    # ---- shared steps ------------------------------------------------------------------------------------------
    def check_trigger(self) -> None:
        w = self.state
        if w.end_triggered:
            return
        empty = q.empty_supplies(w)
        if len(empty) >= 2:
            self.emit({"type": "EndTriggered", "seat": self.seat, "empty": empty})

    def after_buy(self) -> None:
        self.check_trigger()
        if self.state.end_triggered:
            self.emit({"type": "FreePlacementOffered", "seat": self.seat, "kind": self.state.hand[self.seat][-1][0]})
        else:
            self.end_turn()

    def end_turn(self) -> None:
        w = self.state
        self.emit({"type": "TurnEnded", "seat": w.active})
        if w.end_triggered:
            if w.final_queue:
                self.emit({"type": "TurnStarted", "seat": w.final_queue[0], "final": True})
            else:
                self.score_from(w.trigger_seat)
        elif w.turns >= data.MAX_TURNS:
            self.game_over(aborted=True)
        else:
            self.emit({"type": "TurnStarted", "seat": (w.active + 1) % w.n, "final": False})

    def score_from(self, scorer: int) -> None:
        w = self.state
        while True:
            self.emit({"type": "ScoringStarted", "seat": scorer})
            if assign_options(w, scorer):
                return
            self.finish_scoring(scorer)
            scorer = (scorer + 1) % w.n
            if scorer == w.trigger_seat:
                self.game_over(aborted=False)
                return

    def finish_scoring(self, scorer: int) -> None:
        """§15 step 3 (Q51 revised): 1 VP per gondolier without a card, seated or in the personal supply."""
        unused = sum(free_gondoliers(self.state, scorer))
        personal = self.state.personal[scorer]
        self.emit(
            {
                "type": "ScoringFinished",
                "seat": scorer,
                "unassigned": sorted(self.state.chars[scorer]),
                "unused_gondoliers": unused,
                "personal_gondoliers": personal,
                "vp": unused + personal,
            }
        )

    def game_over(self, aborted: bool) -> None:
        w = self.state
        ranks = [1] * w.n if aborted else rank_by([(w.vp[s], w.gold[s]) for s in range(w.n)])
        self.emit(
            {
                "type": "GameOver",
                "aborted": aborted,
                "vp": list(w.vp),
                "gold": list(w.gold),
                "ranks": ranks,
                "hands": [[{"kind": k, "face": f} for k, f in w.hand[s]] for s in range(w.n)],
                "characters": [sorted(w.chars[s]) for s in range(w.n)],
            }
        )

    def draw_special_cards(self, during: str) -> None:
        w = self.state
        count = min(data.SPECIAL_CARDS_DRAWN, len(w.special_deck))
        if count == 0:  # cannot happen with the published counts (§12); keep the flow going anyway
            if during == "build":
                self.after_placement()
            else:
                self.end_turn()
            return
        self.emit(
            {
                "type": "SpecialCardsDrawn",
                "seat": self.seat,
                "count": count,
                "cards": w.special_deck[:count],
                "during": during,
            }
        )

    def after_special(self) -> None:
        w = self.state
        if w.special_return == BUILD_STEP and w.build_k < data.MAX_BUILD_TILES:
            return  # the build continues with the next BUILD_STEP
        self.end_turn()

    def after_placement(self) -> None:
        if self.state.build_k >= data.MAX_BUILD_TILES:
            self.end_turn()

    def placed(self, space: int, kind: str, face: Any, free: bool) -> None:
        owner = self.seat if kind in (GLASS_FACTORY, SHOP) else None
        self.emit(
            {
                "type": "TilePlaced",
                "seat": self.seat,
                "space": q.geo(self.state).space_ids[space],
                "kind": kind,
                "face": face,
                "owner": owner,
                "vp": data.BUILD_VP.get(kind, 0),
                "free": free,
            }
        )


# ---- handlers -----------------------------------------------------------------------------------------------------
def _ship_and_target(cmd: dict[str, Any]) -> tuple[int, int]:
    ship = _int(cmd, "ship")
    to = _int(cmd, "to")
    if not 0 <= ship < data.SHIPS:
        raise _invalid(f"ship must be 0..{data.SHIPS - 1}")
    if not 0 <= to < data.RING_SIZE:
        raise _invalid(f"'to' must be a ring index 0..{data.RING_SIZE - 1}")
    return ship, to


def _pass(t: _Turn, cmd: dict[str, Any]) -> None:
    ship, to = _ship_and_target(cmd)
    w = t.state
    if not q.move_is_legal(w, t.seat, ship, to, for_pass=True):
        raise _illegal(f"ship {ship} cannot move to {to}: a ship may only stop on the empty spaces directly ahead")
    t.emit({"type": "Passed", "seat": t.seat, "ship": ship, "from": w.ships[ship], "to": to, "gold": data.PASS_GOLD})
    t.end_turn()


def _move(t: _Turn, cmd: dict[str, Any]) -> None:
    ship, to = _ship_and_target(cmd)
    w = t.state
    if not q.move_is_legal(w, t.seat, ship, to, for_pass=False):
        raise _illegal(
            f"ship {ship} cannot move to {to}: it must stop on an empty space directly ahead, the move must be "
            "affordable and the turn must still be completable with an available action"
        )
    cost = q.move_cost(w.moves + 1, q.has(w, t.seat, data.SHIPYARD))
    t.emit({"type": "ShipMoved", "seat": t.seat, "ship": ship, "from": w.ships[ship], "to": to, "cost": cost})


def _act(t: _Turn, cmd: dict[str, Any]) -> None:
    w = t.state
    seat = t.seat
    if not q.can_act(w, seat):
        raise _illegal("the action where the last moved ship stands is not available (supply or gold)")
    action = q.current_action(w)
    t.emit({"type": "ActionStarted", "seat": seat, "action": action, "space": w.ships[w.last_ship]})
    if action == "take_2_gold":
        gold = data.TAKE_GOLD_CUSTOMS if q.has(w, seat, data.CUSTOMS_HOUSE) else data.TAKE_GOLD
        t.emit({"type": "GoldTaken", "seat": seat, "gold": gold})
        t.end_turn()
    elif action == "buy_glass_factory":
        t.emit(
            {
                "type": "TileBought",
                "seat": seat,
                "kind": GLASS_FACTORY,
                "mode": "top",
                "price": data.FACTORY_PRICE,
                "face": None,
            }
        )
        t.after_buy()
    elif action == "buy_special_building":
        t.emit(
            {
                "type": "TileBought",
                "seat": seat,
                "kind": SPECIAL_BUILDING,
                "mode": "top",
                "price": data.SPECIAL_TILE_PRICE,
                "face": None,
            }
        )
        t.after_buy()
    elif action == "hire_character":
        count = min(data.CHARACTERS_DRAWN, len(w.char_deck))
        t.emit(
            {
                "type": "CharactersDrawn",
                "seat": seat,
                "count": count,
                "cards": w.char_deck[:count],
                "price": q.hire_cost(w, seat),
            }
        )


def _buy_mode(t: _Turn, cmd: dict[str, Any]) -> None:
    mode = _str(cmd, "mode")
    w = t.state
    stack = w.shops if w.buy_kind == SHOP else w.palaces
    if mode == "top":
        t.emit(
            {
                "type": "TileBought",
                "seat": t.seat,
                "kind": w.buy_kind,
                "mode": "top",
                "price": data.TOP_PRICE,
                "face": stack[0],
            }
        )
        t.after_buy()
    elif mode == "choose":
        price = q.choose_price(w, t.seat)
        if w.gold[t.seat] < price:
            raise _illegal(f"choosing from the stack costs {price} gold")
        t.emit({"type": "StackViewed", "seat": t.seat, "kind": w.buy_kind, "price": price, "faces": list(stack)})
    else:
        raise _invalid("mode must be 'top' or 'choose'")


def _pick_tile(t: _Turn, cmd: dict[str, Any]) -> None:
    w = t.state
    face = cmd.get("face")
    stack: list[Any] = w.shops if w.buy_kind == SHOP else w.palaces
    if isinstance(face, bool) or not isinstance(face, (str, int)) or face not in stack:
        raise _illegal(f"face must be one of the faces in the stack: {sorted(set(stack))}")
    t.emit(
        {"type": "TileBought", "seat": t.seat, "kind": w.buy_kind, "mode": "choose", "price": w.buy_price, "face": face}
    )
    order = list(w.shops if w.buy_kind == SHOP else w.palaces)
    t.rng.shuffle(order)
    t.emit({"type": "StackShuffled", "kind": w.buy_kind, "order": order})
    t.after_buy()


def _keep_tile(t: _Turn, cmd: dict[str, Any]) -> None:
    t.emit({"type": "FreePlacementDeclined", "seat": t.seat})
    t.end_turn()


def _place_tile(t: _Turn, cmd: dict[str, Any]) -> None:
    w = t.state
    space = _space(w, cmd)
    if space not in q.building_targets(w, group=False):
        raise _illegal("a building needs an unoccupied brown space next to a street tile")
    assert w.free_tile is not None  # FREE_PLACE always holds the tile
    kind, face = w.free_tile
    t.placed(space, kind, face, free=True)
    if kind == SPECIAL_BUILDING:
        t.draw_special_cards("free")
    else:
        t.end_turn()


def _draw_street(t: _Turn, cmd: dict[str, Any]) -> None:
    w = t.state
    if not q.can_draw_street(w):
        raise _illegal("no street can be built: the stack is empty or no legal paved space is left")
    t.emit({"type": "StreetDrawn", "seat": t.seat, "face": w.streets[0]})
    t.check_trigger()


def _place_street(t: _Turn, cmd: dict[str, Any]) -> None:
    w = t.state
    space = _space(w, cmd)
    if space not in q.street_targets(w):
        raise _illegal("a street needs an unoccupied paved space (touching this action's tiles after the first)")
    t.placed(space, STREET, w.street_face, free=False)
    t.after_placement()


def _build_building(t: _Turn, cmd: dict[str, Any]) -> None:
    w = t.state
    kind = _str(cmd, "kind")
    if kind not in (GLASS_FACTORY, SHOP, PALACE, SPECIAL_BUILDING):
        raise _invalid("kind must be glass_factory, shop, palace or special_building")
    face = cmd.get("face")
    if kind not in (SHOP, PALACE) and face is not None:
        raise _invalid(f"a {kind} tile has no face; leave 'face' out or null")
    if (kind, face) not in w.hand[t.seat] or isinstance(face, bool):
        raise _illegal(f"you hold no {kind} tile with face {face!r}")
    space = _space(w, cmd)
    if space not in q.building_targets(w, group=True):
        raise _illegal(
            "a building needs an unoccupied brown space next to a street tile (and touching this "
            "action's tiles after the first)"
        )
    t.placed(space, kind, face, free=False)
    if kind == SPECIAL_BUILDING:
        t.draw_special_cards("build")
    else:
        t.after_placement()


def _stop_building(t: _Turn, cmd: dict[str, Any]) -> None:
    if t.state.build_k < 1:
        raise _illegal("a build action must place at least one tile")
    t.emit({"type": "BuildStopped", "seat": t.seat})
    t.end_turn()


def _take_special(t: _Turn, cmd: dict[str, Any]) -> None:
    w = t.state
    card = _str(cmd, "card")
    if card not in w.drawn:
        raise _illegal(f"card must be one of the drawn cards {list(w.drawn)}")
    returned = [c for c in w.drawn if c != card]
    vp = data.GUILD_HALL_VP if card == data.GUILD_HALL else 0
    t.emit(
        {
            "type": "SpecialCardTaken",
            "seat": t.seat,
            "card": card,
            "returned": returned,
            "returned_count": len(returned),
            "vp": vp,
        }
    )
    t.after_special()


def _keep_character(t: _Turn, cmd: dict[str, Any]) -> None:
    w = t.state
    card = _str(cmd, "card")
    if card not in w.drawn:
        raise _illegal("card must be one of the drawn character cards")
    returned = [c for c in w.drawn if c != card]
    t.emit(
        {
            "type": "CharacterKept",
            "seat": t.seat,
            "card": card,
            "price": w.buy_price,
            "returned": returned,
            "returned_count": len(returned),
        }
    )
    t.end_turn()


def _decline_characters(t: _Turn, cmd: dict[str, Any]) -> None:
    returned = list(t.state.drawn)
    t.emit({"type": "CharactersDeclined", "seat": t.seat, "returned": returned, "returned_count": len(returned)})
    t.end_turn()


def _seat_gondolier(t: _Turn, cmd: dict[str, Any]) -> None:
    w = t.state
    island = _island(w, cmd)
    colour = _str(cmd, "colour")
    if colour not in q.COLOUR_INDEX:
        raise _invalid(f"colour must be one of {list(data.PLAYER_COLOURS)}")
    ci = q.COLOUR_INDEX[colour]
    if w.gondolas[island * q.N_COLOURS + ci] >= 0:
        raise _illegal("that gondola seat is taken")
    price = q.seat_price(w, t.seat, ci)
    if price > w.gold[t.seat]:
        raise _illegal(f"that seat costs {price} gold")
    t.emit(
        {
            "type": "GondolierSeated",
            "seat": t.seat,
            "island": q.geo(w).islands[island],
            "colour": colour,
            "price": price,
        }
    )
    t.end_turn()


def _fire(t: _Turn, cmd: dict[str, Any]) -> None:
    if not q.can_fire(t.state, t.seat):
        raise _illegal("you have no gondolier in your personal supply")
    t.emit({"type": "GondolierFired", "seat": t.seat, "gold": data.GONDOLIER_FIRE_GOLD})
    t.end_turn()


def _hire(t: _Turn, cmd: dict[str, Any]) -> None:
    if not q.can_hire_gondolier(t.state, t.seat):
        raise _illegal("hiring needs 3 gold, fewer than 7 gondoliers owned and one of yours in the general supply")
    t.emit({"type": "GondolierHired", "seat": t.seat, "price": data.GONDOLIER_HIRE_PRICE})
    t.end_turn()


def _income(t: _Turn, cmd: dict[str, Any]) -> None:
    w = t.state
    island = _island(w, cmd)
    shops = cmd.get("shops")
    if not isinstance(shops, list) or not all(isinstance(s, str) for s in shops):
        raise _invalid("shops must be a list of space ids")
    g = q.geo(w)
    spaces = []
    for name in shops:
        if name not in g.space_index:
            raise _invalid(f"unknown space {name!r}")
        spaces.append(g.space_index[name])
    colours = []
    for s in spaces:
        cell = w.board[s]
        if g.island_of[s] != island or cell is None or cell[0] != SHOP or cell[2] != t.seat:
            raise _illegal(f"{g.space_ids[s]} is not one of your shops on that island")
        colours.append(cell[1])
    if len(set(colours)) != len(colours) or len(set(spaces)) != len(spaces):
        raise _illegal("choose at most one shop of each colour")
    spaces.sort()
    t.emit(
        {
            "type": "IncomeCollected",
            "seat": t.seat,
            "island": g.islands[island],
            "shops": [g.space_ids[s] for s in spaces],
            "gold": q.income_amount(w, t.seat, tuple(spaces)),
        }
    )
    t.end_turn()


def _draw_bead(t: _Turn, extra: bool) -> None:
    w = t.state
    r = t.rng.randrange(sum(w.bag))
    colour = data.BEAD_COLOURS[-1]
    for index, count in enumerate(w.bag):
        if r < count:
            colour = data.BEAD_COLOURS[index]
            break
        r -= count
    t.emit({"type": "BeadDrawn", "seat": t.seat, "colour": colour, "extra": extra})


def _produce(t: _Turn, cmd: dict[str, Any]) -> None:
    w = t.state
    seat = t.seat
    k = _int(cmd, "factories")
    kmax = q.max_production(w, seat)
    if not 0 <= k <= kmax:
        raise _illegal(f"you may use 0..{kmax} glass factories (factories built, 2 VP each, beads in the bag)")
    t.emit({"type": "FactoriesUsed", "seat": seat, "factories": k, "vp_lost": k * q.production_loss(w, seat)})
    for _ in range(k):
        _draw_bead(t, False)
    if k >= 1 and q.has(w, seat, data.GLASSBLOWERS_SCHOOL) and any(w.bag):
        _draw_bead(t, True)
    if k >= 1 and q.has(w, seat, data.BASILICA):
        t.emit({"type": "BonusScored", "seat": seat, "vp": 1, "card": data.BASILICA})


def _sell(t: _Turn, cmd: dict[str, Any]) -> None:
    w = t.state
    beads = cmd.get("beads")
    if not isinstance(beads, dict) or not beads:
        raise _invalid("beads must be an object like {'red': 2}")
    for colour, n in beads.items():
        if colour not in q.BEAD_INDEX or not isinstance(n, int) or isinstance(n, bool):
            raise _invalid("beads maps bead colours (red, green, blue) to integer counts")
    if not q.sale_is_legal(w, t.seat, beads):
        raise _illegal("sell 1-3 beads you hold, of one colour (or the two colours of a colour-exchange card)")
    count = sum(beads.values())
    t.emit(
        {
            "type": "BeadsSold",
            "seat": t.seat,
            "beads": {c: beads[c] for c in sorted(beads)},
            "gold": q.sale_gold(w, t.seat, count),
        }
    )
    t.end_turn()


def _skip_sale(t: _Turn, cmd: dict[str, Any]) -> None:
    t.emit({"type": "SaleSkipped", "seat": t.seat})
    t.end_turn()


def _assign(t: _Turn, cmd: dict[str, Any]) -> None:
    w = t.state
    card = _str(cmd, "card")
    island = _island(w, cmd)
    if (card, island) not in assign_options(w, t.seat):
        raise _illegal(
            "assign one of your cards to an island where you have an unused seated gondolier (and that the card allows)"
        )
    vp = card_value(w, card, t.seat, island)
    t.emit({"type": "CardAssigned", "seat": t.seat, "card": card, "island": q.geo(w).islands[island], "vp": vp})
    if not assign_options(w, t.seat):
        _stop_assigning_now(t)


def _stop_assigning_now(t: _Turn) -> None:
    t.finish_scoring(t.seat)
    nxt = (t.seat + 1) % t.state.n
    if nxt == t.state.trigger_seat:
        t.game_over(aborted=False)
    else:
        t.score_from(nxt)


def _stop_assigning(t: _Turn, cmd: dict[str, Any]) -> None:
    if data.FINAL_SCORING_STRICT:
        raise _illegal("strict final scoring: every card that can get a gondolier must be assigned")
    _stop_assigning_now(t)


HANDLERS = {
    "pass": ((TURN,), _pass),
    "move_ship": ((TURN, CONTINUE), _move),
    "act": ((CONTINUE,), _act),
    "choose_buy_mode": ((BUY_MODE,), _buy_mode),
    "pick_tile": ((PICK_TILE,), _pick_tile),
    "keep_tile": ((FREE_PLACE,), _keep_tile),
    "place_tile": ((FREE_PLACE,), _place_tile),
    "draw_street": ((BUILD_STEP,), _draw_street),
    "place_street": ((STREET_SPACE,), _place_street),
    "build_building": ((BUILD_STEP,), _build_building),
    "stop_building": ((BUILD_STEP,), _stop_building),
    "take_special_card": ((SPECIAL_CARD,), _take_special),
    "keep_character": ((HIRE_PICK,), _keep_character),
    "decline_characters": ((HIRE_PICK,), _decline_characters),
    "seat_gondolier": ((SEAT,), _seat_gondolier),
    "fire_gondolier": ((GONDOLIERS,), _fire),
    "hire_gondolier": ((GONDOLIERS,), _hire),
    "collect_income": ((INCOME,), _income),
    "produce": ((PRODUCE,), _produce),
    "sell_beads": ((SELL,), _sell),
    "skip_sale": ((SELL,), _skip_sale),
    "assign_character": ((ASSIGN,), _assign),
    "stop_assigning": ((ASSIGN,), _stop_assigning),
}


def _open(state: MuranoState, command: Any, seat: Any) -> Callable[[_Turn, dict[str, Any]], None]:
    """The opening checks (``domain.decider.open_command``), then the pending decision's check (§6.5)."""
    phase = state.phase
    ctype = open_command(
        command, seat, started=phase != NOT_STARTED, over=phase == OVER, acting=(state.active,), known=HANDLERS
    )
    phases, handler = HANDLERS[ctype]
    if phase not in phases:
        raise _illegal(f"{ctype!r} is not possible now: the pending decision is {phase}")
    return handler


def decide(state: MuranoState, command: Any, seat: Any, rng: random.Random) -> list[dict[str, Any]]:
    return decide_and_apply(state, command, seat, rng)[0]


def decide_and_apply(
    state: MuranoState, command: Any, seat: Any, rng: random.Random
) -> tuple[list[dict[str, Any]], MuranoState]:
    """``decide`` and the state its events lead to: the working copy they were applied to."""
    handler = _open(state, command, seat)
    turn = _Turn(state.copy(), seat, rng)
    handler(turn, command)
    return turn.events, turn.state


def play(state: MuranoState, command: Any, seat: Any, rng: random.Random) -> list[dict[str, Any]]:
    """The in-place fast path: ``decide`` applying its events straight to ``state``, which the caller owns
    outright (``MuranoState.deep_copy``: no list shared with another state), so no list is copied."""
    handler = _open(state, command, seat)
    turn = _Turn(state, seat, rng, apply_owned)
    handler(turn, command)
    return turn.events
