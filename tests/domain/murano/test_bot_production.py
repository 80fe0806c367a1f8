"""The bots take Murano's production (§10) where it pays by their evaluation: a whole turn of it (ship move,
act, produce, sell) with the Lighthouse and the Glassblowers' School, and beads made and sold at the decisions."""

from __future__ import annotations

from domain import registry
from domain.bots.levels import make_bot
from tests.domain.murano.helpers import beads, before_move, legal, play, ready, special, vp
from tests.domain.murano.test_specials import PRODUCTION, factories

RULES = registry.get("murano")


def turn(state, level: str) -> list[dict]:
    """The commands ``level`` chooses for seat 0 until its turn ends."""
    chosen = []
    while 0 in RULES.to_act(state):
        command = make_bot(level, 1).choose(RULES, state, 0)
        assert command in legal(state)
        chosen.append(command)
        state, _ = play(state, command)
    return chosen


def test_easy_plays_a_production_turn_when_its_cards_make_beads_cheap():
    state = before_move(PRODUCTION, *factories(3), special(0, "SB15"), special(0, "SB10"), vp(0, 10))
    chosen = turn(state, "easy")
    assert [c["type"] for c in chosen] == ["move_ship", "act", "produce", "sell_beads"]
    assert chosen[0]["to"] == PRODUCTION and chosen[2]["factories"] == 3


def test_every_level_above_random_produces_with_the_lighthouse_and_sells_what_it_holds():
    for level in ("easy", "medium"):
        state = ready(PRODUCTION, *factories(3), special(0, "SB15"), vp(0, 10))
        state, _ = play(state, {"type": "act"})
        assert make_bot(level, 1).choose(RULES, state, 0) == {"type": "produce", "factories": 3}
    state = ready(PRODUCTION, *beads(0, "red", 3), vp(0, 10))
    state, _ = play(state, {"type": "act"}, {"type": "produce", "factories": 0})
    assert make_bot("easy", 1).choose(RULES, state, 0) == {"type": "sell_beads", "beads": {"red": 3}}
