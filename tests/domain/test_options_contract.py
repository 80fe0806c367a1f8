"""Options a game's ``validate_options`` accepts, its ``setup`` accepts too: a game that refused an option only
once it was set up would fail the creation of a game (or a tournament's tables) after the caller was told the
options were fine. Every registered game, with option values drawn from each option's declared type (and text
values that name a game's own words, such as Murano's colours)."""

from __future__ import annotations

import itertools
import random

import pytest

from domain import registry
from domain.game import InvalidOptions

TEXTS = ["", ",", "x", " ", "white", "white,brown", "white,white", "grey,white,brown", "WHITE,brown", "white,,brown"]


def candidates(option) -> list:
    d = option.as_dict()
    kind = d["type"]
    if d.get("choices"):
        return list(d["choices"]) + ["not a choice"]
    if kind == "bool":
        return [False, True]
    if kind == "int":
        low = d.get("minimum", -3)
        high = d.get("maximum", low + 10)
        return sorted({low - 1, low, low + 1, (low + high) // 2, high, high + 1})
    return TEXTS + [",".join(c) for c in itertools.permutations(["white", "brown", "orange", "grey"], 2)]


@pytest.mark.parametrize("game_type", registry.names())
def test_setup_accepts_what_validate_options_accepts(game_type):
    rules = registry.get(game_type)
    rng = random.Random(5)
    schema = list(rules.options_schema)
    for seats in range(rules.min_players, rules.max_players + 1):
        tried = [{}] + [{o.name: v} for o in schema for v in candidates(o)]
        tried += [{o.name: rng.choice(candidates(o)) for o in schema} for _ in range(60 if schema else 0)]
        for options in tried:
            try:
                valid = rules.validate_options(options, seats)
            except InvalidOptions:
                continue
            rules.setup(3, seats, valid)  # must not raise: validate_options said yes
            rules.setup(3, seats, options)


def test_murano_colours_are_checked_with_the_options():
    rules = registry.get("murano")
    for text in ["white,brown", "grey,grey,grey", "white,brown,orange,grey", "WHITE,brown,orange", "white,,brown"]:
        with pytest.raises(InvalidOptions, match="colours"):
            rules.validate_options({"colours": text}, 3)
    assert rules.validate_options({"colours": "grey,white,brown"}, 3)["colours"] == "grey,white,brown"
