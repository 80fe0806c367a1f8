"""The Murano Rules object: setup (§4) and the protocol glue.

Section (§) and ruling (D, Q) numbers are those of docs/rules/murano.md.
"""

from __future__ import annotations

import random
from typing import Any

from domain.contract import command_schemas
from domain.game import Capabilities, GameResult, InvalidOptions, Option, Rules
from domain.murano import catalogue, data, labels, schema
from domain.murano.decide import decide, decide_and_apply, play
from domain.murano.evaluate import PLAN_WEIGHT, evaluate, evaluate_all
from domain.murano.evolve import apply, evolve
from domain.murano.legal import legal_commands
from domain.murano.scoring import result
from domain.murano.state import OVER, MuranoState
from domain.murano.view import determinize, redact, reveal_all, reveals, view
from domain.rng import rng_for


def _expand(counts: dict[Any, int]) -> list[Any]:
    out = []
    for face, count in counts.items():
        out.extend([face] * count)
    return out


def seat_colours(seats: int, text: str) -> list[str]:
    """Player colours in seat order (§4 step 3, §17 Q50): the option, or white, brown, orange, grey."""
    if not text:
        return list(data.PLAYER_COLOURS[:seats])
    colours = [c.strip() for c in text.split(",")]
    if len(colours) != seats or len(set(colours)) != seats or not set(colours) <= set(data.PLAYER_COLOURS):
        raise InvalidOptions(
            f"option 'colours' must name {seats} different colours from {', '.join(data.PLAYER_COLOURS)}"
        )
    return colours


def setup_events(seed: int, seats: int, colours: list[str] | None = None) -> list[dict[str, Any]]:
    """The opening events; random steps in the order of §4: start player, red-ship anchor, removed palace (2-3p),
    street/shop/palace shuffles, character shuffle and removal, special-deck shuffle."""
    rng = rng_for(seed, 0, "setup")
    small = seats < 4
    start = rng.randrange(seats)
    red_anchor = rng.choice(data.ANCHORS)
    palaces = _expand(data.PALACE_COUNTS)
    removed_palace = None
    if small:
        removed_palace = palaces.pop(rng.randrange(len(palaces)))
    street_counts = dict(data.STREET_COUNTS)
    shop_counts = dict(data.SHOP_COUNTS)
    removed: dict[str, Any] = {}
    if small:
        for face, n in data.SMALL_GAME_REMOVED_STREETS.items():
            street_counts[face] -= n
        for face, n in data.SMALL_GAME_REMOVED_SHOPS.items():
            shop_counts[face] -= n
        removed = {
            "streets": dict(data.SMALL_GAME_REMOVED_STREETS),
            "shops": dict(data.SMALL_GAME_REMOVED_SHOPS),
            "glass_factories": data.SMALL_GAME_REMOVED_FACTORIES,
            "special_buildings": data.SMALL_GAME_REMOVED_SPECIAL_TILES,
            "palaces": data.SMALL_GAME_REMOVED_PALACES,
            "characters": sorted(c for c, spec in data.CHARACTERS.items() if spec[2] > seats),
        }
    streets = _expand(street_counts)
    shops = _expand(shop_counts)
    rng.shuffle(streets)
    rng.shuffle(shops)
    rng.shuffle(palaces)
    characters = sorted(c for c, spec in data.CHARACTERS.items() if spec[2] <= seats)
    rng.shuffle(characters)
    removed_characters = characters[: data.REMOVED_CHARACTERS]
    characters = characters[data.REMOVED_CHARACTERS :]
    specials = sorted(data.SPECIAL_CARDS)
    rng.shuffle(specials)
    ships = [0] * data.SHIPS
    ships[data.RED_SHIP] = red_anchor
    black = [a for a in data.ANCHORS if a != red_anchor]
    for i, anchor in enumerate(black, start=1):
        ships[i] = anchor
    return [
        {
            "type": "GameSetUp",
            "seats": seats,
            "colours": colours or list(data.PLAYER_COLOURS[:seats]),
            "start_seat": start,
            "red_ship_anchor": red_anchor,
            "ships": ships,
            "removed": removed,
            "glass_factories": data.GLASS_FACTORY_COUNT - (data.SMALL_GAME_REMOVED_FACTORIES if small else 0),
            "special_tiles": data.SPECIAL_TILE_COUNT - (data.SMALL_GAME_REMOVED_SPECIAL_TILES if small else 0),
            "streets": streets,
            "shops": shops,
            "palaces": palaces,
            "characters": characters,
            "special_cards": specials,
            "removed_palace": removed_palace,
            "removed_characters": removed_characters,
        },
        {"type": "TurnStarted", "seat": start, "final": False},
    ]


class MuranoRules(Rules):
    name = "murano"
    title = "Murano"
    min_players = 2
    max_players = 4
    options_schema = (
        Option(
            "colours",
            "str",
            "",
            "player colours in seat order, comma-separated (e.g. 'grey,white'); empty: white, brown, orange, grey",
        ),
    )
    state_version = "2"  # 2: removed_public holds data, not repr strings
    capabilities = Capabilities(play_in_place=True, decide_and_apply=True)
    plan_weight = PLAN_WEIGHT  # the bots keep to the step they chose (domain/murano/evaluate.py)

    def validate_options(self, options: dict[str, Any] | None, seats: int) -> dict[str, Any]:
        out = super().validate_options(options, seats)
        self.check_seats(seats)
        seat_colours(seats, out["colours"])  # a wrong list is refused here, with the other options, not at set-up
        return out

    def setup(self, seed: int, seats: int, options: dict[str, Any]) -> list[dict[str, Any]]:
        options = self.validate_options(options, seats)
        return setup_events(seed, seats, seat_colours(seats, options["colours"]))

    def initial_state(self) -> MuranoState:
        return MuranoState()

    def evolve(self, state: MuranoState, event: dict[str, Any]) -> MuranoState:
        return evolve(state, event)

    def fold(self, events: list[dict[str, Any]], state: MuranoState | None = None) -> MuranoState:
        s = (self.initial_state() if state is None else state).copy()
        for event in events:
            apply(s, event)
        return s

    def decide(self, state: MuranoState, command: Any, seat: Any, rng: random.Random) -> list[dict[str, Any]]:
        return decide(state, command, seat, rng)

    def decide_and_apply(
        self, state: MuranoState, command: Any, seat: Any, rng: random.Random
    ) -> tuple[list[dict[str, Any]], MuranoState]:
        return decide_and_apply(state, command, seat, rng)

    def play(self, state: MuranoState, command: dict[str, Any], seat: int, rng: random.Random) -> list[dict[str, Any]]:
        return play(state, command, seat, rng)

    def copy_state(self, state: MuranoState) -> MuranoState:
        return state.deep_copy()

    def seat_count(self, state: MuranoState) -> int:
        return state.n

    def to_act(self, state: MuranoState) -> set[int]:
        if state.phase == OVER or state.active < 0:
            return set()
        return {state.active}

    def legal_commands(self, state: MuranoState, seat: int) -> list[dict[str, Any]]:
        if state.phase == OVER:
            return []
        return legal_commands(state, seat)

    def view(self, state: MuranoState, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def redact(self, event: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return redact(event, seat)

    def reveal_all(self, state: MuranoState) -> dict[str, Any]:
        return reveal_all(state)

    def is_over(self, state: MuranoState) -> bool:
        return state.phase == OVER

    def result(self, state: MuranoState) -> GameResult:
        return result(state)

    def determinize(self, state: MuranoState, seat: int, rng: random.Random) -> MuranoState:
        return determinize(state, seat, rng)

    def evaluate(self, state: MuranoState, seat: int) -> float:
        return evaluate(state, seat)

    def evaluate_all(self, state: MuranoState) -> list[float]:
        return evaluate_all(state)

    def reveals(self, event: dict[str, Any]) -> bool:
        return reveals(event)

    # ---- what clients are told
    def catalogue(self) -> dict[str, Any]:
        return catalogue.catalogue()

    def command_schemas(self) -> dict[str, dict[str, Any]]:
        return command_schemas(schema.COMMANDS)

    def view_schema(self) -> dict[str, Any]:
        return schema.VIEW

    def label(self, state: MuranoState, seat: int, command: dict[str, Any]) -> dict[str, Any]:
        return labels.label(state, seat, command)


RULES = MuranoRules()
