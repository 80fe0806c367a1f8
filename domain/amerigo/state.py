"""Amerigo state: plain classes built for cheap copy-on-write cloning.

``clone()`` copies only the top level (the containers are shared); every mutation in ``evolve`` first
replaces the container it touches by a copy, so the input state is never changed.

Section (§) and ruling (D, Q) numbers are those of docs/rules/amerigo.md.
"""

from __future__ import annotations

from typing import Any, Self, cast

from .board import Board
from .data import (
    COMMODITIES,
    CUBES_PER_COLOUR,
    GOLD_MAX,
    NEUTRAL_COUNTS,
    SHAPES,
    SPECIAL_TRACK_LAST,
    TRADING_POSTS,
    VILLAGE_COUNTS,
    VILLAGE_SHAPES,
)

# cover codes for land squares
EMPTY = 0
POST = 1  # POST + seat  (1..4)
NEUTRAL_TILE = 10
VILLAGE_TILE = 20  # VILLAGE_TILE + seat

# turn stages
CHOOSE, ACT, TOKENS = "choose", "act", "tokens"

# planned-tile index: 0..7 neutral shapes, 8..13 village shapes
NEUTRAL_SLOT = {s: i for i, s in enumerate(SHAPES)}
VILLAGE_SLOT = {s: len(SHAPES) + i for i, s in enumerate(VILLAGE_SHAPES)}
PLANNED_SLOTS = len(SHAPES) + len(VILLAGE_SHAPES)


class _Record:
    """Base with field-wise equality, cheap shallow clone and a readable repr."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]

    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__ = self.__dict__.copy()  # type: ignore[misc]  # the records themselves have a __dict__
        return new

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.__dict__!r})"


class Player(_Record):
    def __init__(self) -> None:
        self.vp = 0
        self.gold = 0
        self.cannon = 0
        self.progress = 0
        self.special = 0
        self.posts_left = TRADING_POSTS
        self.chests = 0
        self.planned = [0] * PLANNED_SLOTS
        self.village_left = [VILLAGE_COUNTS[s] for s in VILLAGE_SHAPES]
        self.commodities = [0] * len(COMMODITIES)
        self.production: list[str] = []
        self.tokens: dict[str, bool] = {}  # id -> used (flipped)
        self.ships = [-1, -1]  # sailing-graph node, -1 = off board

    def has(self, token: str) -> bool:
        return token in self.tokens

    def has_unused(self, token: str) -> bool:
        return self.tokens.get(token) is False

    def gain_gold(self, amount: int) -> int:
        """Gold with the cap rule (§6.2); returns the VP gained from the excess."""
        total = self.gold + amount
        if total > GOLD_MAX:
            self.gold = GOLD_MAX
            self.vp += total - GOLD_MAX
            return total - GOLD_MAX
        self.gold = total
        return 0


class State(_Record):
    def __init__(self) -> None:
        self.seats = 0
        self.started = False
        self.over = False
        # Set by IslandsAssembled, the second set-up event; nothing reads the board before it.
        self.board: Board = cast(Board, None)
        self.players: list[Player] = []
        self.round = 0
        self.phase = -1  # index into PHASE_COLOURS of the last started or skipped phase
        self.phase_active = False
        self.pirates_round = 0  # last round whose pirates have attacked
        self.tower: list[int] = []
        self.storage = [CUBES_PER_COLOUR] * 7
        self.area = [0] * 7
        self.ap = 0
        self.order: list[int] = []  # special-track order, first player first
        self.phase_order: list[int] = []
        self.turn_idx = 0
        self.pirates = [0] * 5
        self.pirate_out = 0
        self.pirates_revealed = 0
        self.progress_pile: list[str] = []
        self.progress_display: list[str | None] = [None] * 8
        self.progress_removed: list[str] = []
        self.prod_stacks: dict[str, list[str]] = {}
        self.prod_display: list[str] = []
        self.prod_removed: list[str] = []
        self.neutral_supply = [NEUTRAL_COUNTS[s] for s in SHAPES]
        self.cover: list[int] = []
        self.island_empty: list[int] = []
        self.chest_on: list[bool] = []
        self.placed: list[tuple[str, str, int, tuple[int, ...]]] = []  # (kind, shape, seat or -1, squares)
        self.final: list[dict[str, Any]] | None = None
        self._reset_turn()

    def _reset_turn(self) -> None:
        self.turn_seat = -1
        self.stage = CHOOSE
        self.colour = -1  # chosen colour
        self.mode = None  # "advance" / "convert" for white
        self.x = -1  # executed colour
        self.ap_free = 0
        self.ap_used = 0
        self.gold_paid = 0
        self.neutral_taken = 0
        self.sailed: tuple[int, ...] = (0, 0)  # per ship
        self.founded: tuple[bool, ...] = (False, False)  # per ship
        self.moved_any = False
        self.tokens_due = 0

    # -- helpers used by decide / legal / view --------------------------------------------------------
    def mut_player(self, seat: int) -> Player:
        players = list(self.players)
        p = players[seat].clone()
        players[seat] = p
        self.players = players
        return p

    def move_on_special_track(self, seat: int, position: int) -> None:
        """Put ``seat``'s disc on ``position`` (top of that stack) and update the order."""
        p = self.mut_player(seat)
        p.special = min(position, SPECIAL_TRACK_LAST)
        order = [s for s in self.order if s != seat]
        idx = len(order)
        for i, other in enumerate(order):
            if self.players[other].special <= p.special:
                idx = i
                break
        order.insert(idx, seat)
        self.order = order
