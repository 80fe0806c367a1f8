"""Special-building cards (§12) not covered next to the action they modify (see test_actions, test_moves,
test_build): Basilica, Glassblowers' School, Lighthouse, Colour Exchange blue/red; and their timing."""

from __future__ import annotations

from domain.murano import data
from tests.domain.murano.helpers import beads, decide, legal, play, ready, special, tile, types, vp

PRODUCTION = 6


def factories(count: int) -> list[dict]:
    out = []
    for sp in ("SACCA_MATTIA:r0c1", "SACCA_MATTIA:r0c2", "SACCA_MATTIA:r0c4")[:count]:
        out += tile(0, sp, "glass_factory")
    return out


def produce(*before, k: int = 1):
    state = ready(PRODUCTION, *before)
    state, _ = play(state, {"type": "act"})
    return play(state, {"type": "produce", "factories": k})


def test_every_card_exists_once_with_a_name():
    assert len(data.SPECIAL_CARDS) == 15 and len(set(data.SPECIAL_CARDS.values())) == 15


def test_basilica_gives_one_vp_when_at_least_one_bead_is_produced():
    state, events = produce(*factories(1), special(0, "SB02"))
    assert types(events) == ["FactoriesUsed", "BeadDrawn", "BonusScored"]
    assert events[-1] == {"type": "BonusScored", "seat": 0, "vp": 1, "card": "SB02"}
    assert state.vp[0] == 5 - 2 + 1
    state, events = produce(*factories(1), special(0, "SB02"), k=0)
    assert types(events) == ["FactoriesUsed"]


def test_glassblowers_school_draws_one_extra_bead_without_vp_loss():
    state, events = produce(*factories(1), special(0, "SB10"))
    assert types(events) == ["FactoriesUsed", "BeadDrawn", "BeadDrawn"]
    assert events[2]["extra"] is True and state.vp[0] == 3 and sum(state.beads[0]) == 2
    # only if the bag still has a bead
    drained = [*beads(1, "red", 10), *beads(1, "green", 10), *beads(1, "blue", 9)]
    state, events = produce(*factories(1), special(0, "SB10"), *drained)
    assert types(events) == ["FactoriesUsed", "BeadDrawn"] and sum(state.bag) == 0


def test_lighthouse_halves_the_vp_cost():
    state = ready(PRODUCTION, *factories(3), vp(0, -2), special(0, "SB15"))  # VP 3
    state, _ = play(state, {"type": "act"})
    assert legal(state)[-1] == {"type": "produce", "factories": 3}
    state, events = play(state, {"type": "produce", "factories": 3})
    assert events[0]["vp_lost"] == 3 and state.vp[0] == 0


def test_colour_exchange_blue_red():
    state = ready(PRODUCTION, *beads(0, "blue", 2), *beads(0, "red", 1), special(0, "SB06"))
    state, _ = play(state, {"type": "act"}, {"type": "produce", "factories": 0})
    sales = [c["beads"] for c in legal(state) if c["type"] == "sell_beads"]
    assert {"blue": 2, "red": 1} in sales and {"blue": 1, "red": 1} in sales
    assert decide(state, {"type": "sell_beads", "beads": {"red": 1, "blue": 2}})[0]["gold"] == 20


def test_cards_work_only_from_the_owners_next_turn():
    # taken during the current turn (after TurnStarted): not in effect yet
    state = ready(PRODUCTION, *factories(1), after=(special(0, "SB02"),))
    state, _ = play(state, {"type": "act"})
    state, events = play(state, {"type": "produce", "factories": 1})
    assert types(events) == ["FactoriesUsed", "BeadDrawn"]
