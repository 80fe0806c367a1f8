"""Puerto Rico state: small flat lists of ints, copied by hand (no deepcopy) for speed.

Section (§) and ruling (D, Q) numbers are those of docs/rules/puerto_rico.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .data import CAPS, N_BUILDINGS

_new = object.__new__

# Phases (state.phase) and steps (state.step). Steps listed in AUTO_STEPS are resolved by the engine itself.
SETUP = "setup"
PICK = "pick"
SETTLER = "settler"
MAYOR = "mayor"
BUILDER = "builder"
CRAFTSMAN = "craftsman"
TRADER = "trader"
CAPTAIN = "captain"
ROUND_END = "round_end"
OVER = "over"

AUTO_STEPS = frozenset(
    {
        "discard",
        "refill",  # settler last duties
        "distribute",
        "arrange",
        "refill_ship",  # mayor
        "produce",  # craftsman
        "empty_house",  # trader last duty
        "unload",  # captain last duty
        "round_end",
        "game_end",
    }
)


@dataclass(slots=True)
class Player:
    doubloons: int = 0
    vp: int = 0  # VP chips taken from the supply
    vp_owed: int = 0  # VP awarded after the supply ran dry (D12)
    san_juan: int = 0
    goods: list[int] = field(default_factory=lambda: [0] * 5)
    tiles: list[int] = field(default_factory=lambda: [0] * 6)  # island tiles by kind (5 plantations + quarry)
    manned: list[int] = field(default_factory=lambda: [0] * 6)  # occupied tiles by kind
    buildings: list[int] = field(default_factory=lambda: [-1] * N_BUILDINGS)  # -1 not owned, else colonists
    spaces: int = 0  # city spaces used (a large building counts 2)

    def copy(self) -> Player:
        new = _new(Player)
        new.doubloons = self.doubloons
        new.vp = self.vp
        new.vp_owed = self.vp_owed
        new.san_juan = self.san_juan
        new.goods = self.goods[:]
        new.tiles = self.tiles[:]
        new.manned = self.manned[:]
        new.buildings = self.buildings[:]
        new.spaces = self.spaces
        return new

    def island_size(self) -> int:
        return sum(self.tiles)

    def colonists(self) -> int:
        """Colonists owned: on tiles, on buildings and in San Juan."""
        return sum(self.manned) + self.san_juan + sum(c for c in self.buildings if c > 0)

    def circles(self) -> int:
        return sum(self.tiles) + sum(CAPS[b] for b, c in enumerate(self.buildings) if c >= 0)

    def owns(self, building: int) -> bool:
        return self.buildings[building] >= 0


@dataclass(slots=True)
class PRState:
    started: bool = False
    n: int = 0
    variant: str = "standard"
    max_rounds: int = 100
    hide_vp_chips: bool = False
    first_governor: int = 0
    governor: int = 0
    round: int = 1
    players: list[Player] = field(default_factory=list)
    role_names: tuple[str, ...] = ()
    role_money: list[int] = field(default_factory=list)
    role_taken: list[bool] = field(default_factory=list)
    picks: int = 0
    picks_per_round: int = 0
    min_refill: int = 0
    # cursor
    phase: str = SETUP
    step: str = ""
    current: int = 0
    picker: int = 0
    role: str = ""
    turns_done: int = 0
    took: int = -1  # settler: tile kind taken in the main take (for the hospice)
    built: int = -1  # builder: building just built (for the university)
    no_load: int = 0  # captain: consecutive turns without a load
    captain_loaded: bool = False  # captain privilege already paid this phase
    wharf_used: list[bool] = field(default_factory=list)
    protected: list[int] = field(default_factory=list)  # storage: kinds protected by warehouses so far
    received: list[int] = field(default_factory=list)  # craftsman: kinds the picker received
    # shared supplies
    colonist_supply: int = 0
    colonist_ship: int = 0
    vp_supply: int = 0
    goods_supply: list[int] = field(default_factory=list)
    building_supply: list[int] = field(default_factory=list)
    quarries: int = 0
    face_up: list[int] = field(default_factory=lambda: [0] * 5)
    discard: list[int] = field(default_factory=lambda: [0] * 5)
    stack: list[int] = field(default_factory=list)  # face-down plantation stack, top = last; order hidden
    ship_caps: tuple[int, ...] = ()
    ship_kinds: list[int] = field(default_factory=list)  # -1 = empty
    ship_loads: list[int] = field(default_factory=list)
    trading_house: list[int] = field(default_factory=list)
    triggers: list[str] = field(default_factory=list)
    aborted: bool = False

    def copy(self, only_seat: int | None = None) -> PRState:
        """An independent copy. With ``only_seat``, the other players' boards are shared with ``self``:
        the caller promises to mutate no player but that one (copy-on-write; -1 shares every board).

        Written attribute by attribute (no __init__ call, no deepcopy): this is the hot path of ``evolve``."""
        new = _new(PRState)
        if only_seat is None:
            new.players = [p.copy() for p in self.players]
        else:
            new.players = players = self.players[:]
            if only_seat >= 0:
                players[only_seat] = players[only_seat].copy()
        new.started = self.started
        new.n = self.n
        new.variant = self.variant
        new.max_rounds = self.max_rounds
        new.hide_vp_chips = self.hide_vp_chips
        new.first_governor = self.first_governor
        new.governor = self.governor
        new.round = self.round
        new.role_names = self.role_names
        new.role_money = self.role_money[:]
        new.role_taken = self.role_taken[:]
        new.picks = self.picks
        new.picks_per_round = self.picks_per_round
        new.min_refill = self.min_refill
        new.phase = self.phase
        new.step = self.step
        new.current = self.current
        new.picker = self.picker
        new.role = self.role
        new.turns_done = self.turns_done
        new.took = self.took
        new.built = self.built
        new.no_load = self.no_load
        new.captain_loaded = self.captain_loaded
        new.wharf_used = self.wharf_used[:]
        new.protected = self.protected[:]
        new.received = self.received[:]
        new.colonist_supply = self.colonist_supply
        new.colonist_ship = self.colonist_ship
        new.vp_supply = self.vp_supply
        new.goods_supply = self.goods_supply[:]
        new.building_supply = self.building_supply[:]
        new.quarries = self.quarries
        new.face_up = self.face_up[:]
        new.discard = self.discard[:]
        new.stack = self.stack[:]
        new.ship_caps = self.ship_caps
        new.ship_kinds = self.ship_kinds[:]
        new.ship_loads = self.ship_loads[:]
        new.trading_house = self.trading_house[:]
        new.triggers = self.triggers[:]
        new.aborted = self.aborted
        return new

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def empty_building_circles(self) -> int:
        total = 0
        for p in self.players:
            for b, c in enumerate(p.buildings):
                if c >= 0:
                    total += CAPS[b] - c
        return total
