"""The Murano state: one flat object of lists and tuples so that a copy is a dozen shallow list copies.

Conventions: lists are copied by ``copy()``; everything nested inside them is immutable (tuples, strings, ints), so
``_apply`` replaces nested values instead of mutating them. Tiles are tuples ``(kind, face)``; a board cell is
``None`` or ``(kind, face, owner)`` (owner None for streets, palaces and special buildings).

Section (§) and ruling (D, Q) numbers are those of docs/rules/murano.md.
"""

from __future__ import annotations

from typing import Any

# Decision names (rules §6.5)
TURN = "TURN"
CONTINUE = "CONTINUE"
BUY_MODE = "BUY_MODE"
PICK_TILE = "PICK_TILE"
FREE_PLACE = "FREE_PLACE"
HIRE_PICK = "HIRE_PICK"
SEAT = "SEAT"
BUILD_STEP = "BUILD_STEP"
STREET_SPACE = "STREET_SPACE"
SPECIAL_CARD = "SPECIAL_CARD"
INCOME = "INCOME"
PRODUCE = "PRODUCE"
SELL = "SELL"
GONDOLIERS = "GONDOLIERS"
ASSIGN = "ASSIGN"
NOT_STARTED = "NOT_STARTED"
OVER = "OVER"

STREET = "street"
GLASS_FACTORY = "glass_factory"
SHOP = "shop"
PALACE = "palace"
SPECIAL_BUILDING = "special_building"
BUILDING_KINDS = (GLASS_FACTORY, SHOP, PALACE, SPECIAL_BUILDING)

# Lists that ``evolve.apply`` copies before mutating them (copy-on-write); everything nested inside them is immutable.
LIST_FIELDS = (
    "ships",
    "gold",
    "vp",
    "personal",
    "general",
    "beads",
    "hand",
    "chars",
    "specials",
    "effective",
    "board",
    "streets",
    "shops",
    "palaces",
    "char_deck",
    "char_known",
    "special_deck",
    "special_known",
    "gondolas",
    "assigned",
)


class MuranoState:
    def __init__(self) -> None:
        self.n = 0
        self.colours: tuple[str, ...] = ()
        self.start_seat = 0
        self.active = -1
        self.phase = NOT_STARTED
        self.turns = 0  # turns finished
        self.moves = 0  # ship moves made in this turn
        self.last_ship = -1
        self.ships: list[int] = []  # ship id -> ring index
        self.gold: list[int] = []
        self.vp: list[int] = []
        self.personal: list[int] = []  # gondoliers in the personal supply
        self.general: list[int] = []  # gondoliers of that colour in the general supply
        self.beads: list[tuple[int, int, int]] = []  # red, green, blue held
        self.hand: list[tuple[tuple[str, Any], ...]] = []  # tiles bought, not built
        self.chars: list[tuple[str, ...]] = []
        self.specials: list[tuple[str, ...]] = []  # special-building cards held (public)
        self.effective: list[tuple[str, ...]] = []  # those in effect (taken before the current turn started)
        self.bag: tuple[int, int, int] = (0, 0, 0)
        self.board: list[Any] = []
        self.streets: list[str] = []  # index 0 = top
        self.shops: list[str] = []
        self.palaces: list[int] = []
        self.factories = 0
        self.special_tiles = 0
        self.char_deck: list[str] = []
        self.char_known: list[int] = []  # bitmask of seats that know the card at that deck position
        self.special_deck: list[str] = []
        self.special_known: list[int] = []
        self.removed_palace: int | None = None
        self.removed_chars: tuple[str, ...] = ()
        self.removed_public: tuple[Any, ...] = ()
        self.gondolas: list[int] = []  # island * 4 + colour index -> seat or -1
        self.end_triggered = False
        self.trigger_seat = -1
        self.empty_supplies: tuple[str, ...] = ()
        self.final_queue: tuple[int, ...] = ()  # seats still to play their final turn, in order
        self.scoring_queue: tuple[int, ...] = ()  # seats still to score after the current scorer
        self.used: tuple[int, ...] = ()  # current scorer: gondoliers used per island
        self.assigned: list[tuple[tuple[str, str, int], ...]] = []  # per seat: (card, island, vp)
        self.scored: tuple[int, ...] = ()  # seats whose final scoring is finished (their cards are public)
        # pending-decision data
        self.drawn: tuple[Any, ...] = ()  # cards drawn for HIRE_PICK / SPECIAL_CARD
        self.buy_kind: str | None = None
        self.buy_price = 0
        self.build_k = 0  # placements made in this build action
        self.build_spaces: tuple[int, ...] = ()
        self.street_face: str | None = None
        self.free_tile: tuple[str, Any] | None = None  # (kind, face) of the tile placed for free
        self.special_return: str | None = None  # BUILD_STEP or None (end of turn) after SPECIAL_CARD
        self.aborted = False
        # Cache, not state: (seat, action needs per ring space) computed by queries.turn_needs; valid while only
        # ships move. Ignored by ==, pickling and replay.
        self.needs: tuple[Any, ...] | None = None

    def copy(self) -> MuranoState:
        """Shallow copy: the lists are shared and copied by ``apply`` before it mutates them."""
        new = _new(MuranoState)
        new.__dict__ = self.__dict__.copy()
        return new

    def deep_copy(self) -> MuranoState:
        """A copy whose lists may be mutated freely."""
        new = self.copy()
        d = new.__dict__
        for name in LIST_FIELDS:
            d[name] = d[name][:]
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MuranoState):
            return NotImplemented
        return self.__getstate__() == other.__getstate__()

    def __getstate__(self) -> dict[str, Any]:
        values = dict(self.__dict__)
        values.pop("needs", None)
        return values

    def __setstate__(self, values: dict[str, Any]) -> None:
        self.__dict__.update(values)
        self.needs = None

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"MuranoState(phase={self.phase}, active={self.active}, vp={self.vp}, gold={self.gold})"

    @property
    def over(self) -> bool:
        return self.phase == OVER


_new = object.__new__
