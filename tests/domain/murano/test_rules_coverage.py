"""Rules of docs/rules/murano.md that no other test pinned down: the real set-up's ship placement (§2.5), the
Basilica once per production action (§17 Q15), the 7-gondolier hiring limit (§5, §7, §11, Q11), and a few rules of
§8, §10, §12 and §14 found untested while reading."""

from __future__ import annotations

import pytest

from domain.murano import RULES, data
from tests.domain.murano.helpers import (
    before_move,
    bought,
    given,
    legal,
    play,
    ready,
    refused,
    seated,
    setup_event,
    special,
    started,
    street,
    tile,
    types,
    vp,
)

DOC_ANCHORS = [0, 3, 6, 7, 9, 12, 13, 17]  # §2.5, the designed ring
PRODUCTION = 6
GONDOLIERS = 9
BUY_GLASS_FACTORY = 1
BUILD = 7


def factories(count: int) -> list[dict]:
    """``count`` glass factories built by seat 0 on SACCA_MATTIA."""
    out = []
    for sp in ("SACCA_MATTIA:r0c1", "SACCA_MATTIA:r0c2", "SACCA_MATTIA:r0c4", "SACCA_MATTIA:r0c5")[:count]:
        out += tile(0, sp, "glass_factory")
    return out


def hired(count: int) -> list[dict]:
    return [{"type": "GondolierHired", "seat": 0, "price": 0}] * count


# ---- 1. §2.5: the real set-up places the ships ---------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_real_setup_puts_red_on_its_recorded_anchor_and_black_ships_in_ascending_order(n):
    """§2.5 (and §4 step 2, Q45): "the RNG picks the red ship's anchor uniformly from ANCHORS (... recorded in the
    setup event); black ships 1-7 go on the remaining anchors in increasing index order"."""
    assert list(data.ANCHORS) == DOC_ANCHORS
    red_anchors = set()
    for seed in range(16):
        events = RULES.setup(seed, n, RULES.validate_options({}, n))
        red = events[0]["red_ship_anchor"]
        assert red in DOC_ANCHORS
        state = RULES.fold(events)
        assert len(state.ships) == 8
        assert state.ships[0] == red  # ship 0 is the red ship
        assert state.ships[1:] == [a for a in DOC_ANCHORS if a != red]
        red_anchors.add(red)
    assert len(red_anchors) >= 3  # the check ran with the red ship on several different anchors


# ---- 2. Q15: Basilica once per action ------------------------------------------------------------------------------
@pytest.mark.parametrize("k", [2, 3])
def test_basilica_bonus_counts_once_per_production_action_not_per_bead(k):
    """§17 Q15 and §12 SB02 (§10 step 1): the Basilica gives +1 VP once per PRODUCTION action with k >= 1, not one
    VP per bead or per factory used."""
    state = ready(PRODUCTION, *factories(3), vp(0, 10), special(0, "SB02"))  # VP 15, three factories built
    state, _ = play(state, {"type": "act"})
    state, events = play(state, {"type": "produce", "factories": k})
    assert types(events) == ["FactoriesUsed"] + ["BeadDrawn"] * k + ["BonusScored"]
    bonuses = [e for e in events if e["type"] == "BonusScored"]
    assert bonuses == [{"type": "BonusScored", "seat": 0, "vp": 1, "card": "SB02"}]
    assert state.vp[0] == 15 - 2 * k + 1
    assert sum(state.beads[0]) == k


# ---- 3. The 7-gondolier limit ---------------------------------------------------------------------------------------
def test_hiring_up_to_the_seventh_owned_gondolier_counting_seated_ones():
    """§5 ("Gondoliers owned" = personal + seated; maximum 7), §7 GONDOLIERS HIRE (owned < 7) and §17 Q11: seated
    gondoliers count toward the limit. The reachable boundary: 4 personal + 2 seated = 6 owned with one gondolier
    in the general supply may hire the 7th."""
    seats = (seated(0, "NAVAGERO", "white"), seated(0, "SAN_DONATO", "white"))
    state = ready(GONDOLIERS, *seats, *hired(1))
    assert (state.personal[0], state.general[0]) == (4, 1)
    state, _ = play(state, {"type": "act"})
    assert {"type": "hire_gondolier"} in legal(state)
    state, events = play(state, {"type": "hire_gondolier"})
    assert events[0] == {"type": "GondolierHired", "seat": 0, "price": 3}
    assert (state.personal[0], state.general[0]) == (5, 0)


def test_an_eighth_owned_gondolier_is_refused_even_with_one_in_the_general_supply(monkeypatch):
    """§5: "Maximum owned: 7 ... the engine still checks it on hire"; §7 HIRE needs owned < 7; §11 "owned <= 7";
    Q11: personal supply + seated count, not the general supply.

    With the published components (1 marker + owned + general supply = 8) a player owning 7 never has a gondolier
    in the general supply, so this state cannot arise from the real set-up. It is built by starting with one spare
    gondolier in the general supply (``START_GENERAL_GONDOLIERS`` 3 instead of 2): 5 personal + 2 seated = 7 owned,
    1 still in the general supply. The hire must be refused by the limit alone (gold 5 >= 3, supply not empty)."""
    monkeypatch.setattr(data, "START_GENERAL_GONDOLIERS", 3)
    seats = (seated(0, "NAVAGERO", "white"), seated(0, "SAN_DONATO", "white"))
    state = before_move(GONDOLIERS, *seats, *hired(2))
    assert (state.personal[0], state.general[0], state.gold[0]) == (5, 1, 5)  # 7 owned, 1 in the general supply
    state, _ = play(state, {"type": "move_ship", "ship": 0, "to": GONDOLIERS}, {"type": "act"})
    assert legal(state) == [{"type": "fire_gondolier"}]
    refused(state, {"type": "hire_gondolier"})


# ---- 4. Other rules of §6-§14 ---------------------------------------------------------------------------------------
def test_only_built_glass_factories_produce_not_those_in_hand():
    """§10 step 1: kmax = min(your factories on board, floor(vp / 2), beads in bag): "your built glass factories
    (anywhere on the board)"; a factory tile still in hand cannot produce."""
    state = ready(PRODUCTION, bought(0, "glass_factory"), bought(0, "glass_factory"), vp(0, 10))
    state, _ = play(state, {"type": "act"})
    assert legal(state) == [{"type": "produce", "factories": 0}]
    refused(state, {"type": "produce", "factories": 1})
    state = ready(PRODUCTION, *factories(1), bought(0, "glass_factory"), vp(0, 10))
    state, _ = play(state, {"type": "act"})
    assert legal(state) == [{"type": "produce", "factories": 0}, {"type": "produce", "factories": 1}]
    refused(state, {"type": "produce", "factories": 2})


def test_one_sale_per_production_action():
    """§10 step 2: "Sell (decision SELL, at most once)": after one sale the action and the turn end, even with
    beads of another colour left to sell."""
    red = [{"type": "BeadDrawn", "seat": 0, "colour": "red", "extra": False}] * 2
    blue = [{"type": "BeadDrawn", "seat": 0, "colour": "blue", "extra": False}] * 2
    state = ready(PRODUCTION, *red, *blue)
    state, _ = play(state, {"type": "act"}, {"type": "produce", "factories": 0})
    state, events = play(state, {"type": "sell_beads", "beads": {"red": 2}})
    assert types(events) == ["BeadsSold", "TurnEnded", "TurnStarted"]
    assert state.active == 1 and state.phase == "TURN" and state.beads[0] == (0, 0, 2)
    refused(state, {"type": "sell_beads", "beads": {"blue": 2}}, "not_your_turn", seat=0)
    assert not any(c["type"] == "sell_beads" for c in legal(state, 1))


def test_the_end_trigger_never_fires_again():
    """§14 Trigger: "The first time the check finds two or more empty supplies, set end_triggered = True and
    trigger_seat = the active player. It never fires again." Seat 3 triggered (shops and palaces empty); in its final
    turn seat 0 buys the last glass factory (a third empty supply): no second EndTriggered, the trigger seat and the
    final round stay as they were."""
    trigger = {"type": "EndTriggered", "seat": 3, "empty": ["shops", "palaces"]}
    ships = [0] + [BUY_GLASS_FACTORY + d for d in range(1, 8)]  # the red ship right behind the empty space 1
    setup = setup_event(ships=ships, glass_factories=1, shops=[], palaces=[])
    state = given(setup, trigger, started(0, final=True))
    assert state.final_queue == (1, 2)
    state, events = play(state, {"type": "move_ship", "ship": 0, "to": BUY_GLASS_FACTORY}, {"type": "act"})
    assert types(events)[-2:] == ["TileBought", "FreePlacementOffered"] and state.factories == 0
    state, more = play(state, {"type": "keep_tile"})
    assert "EndTriggered" not in types(events + more)
    assert more[-1] == {"type": "TurnStarted", "seat": 1, "final": True}
    assert state.end_triggered and state.trigger_seat == 3 and state.final_queue == (2,)


def test_identical_hand_tiles_give_one_build_option_per_space():
    """§8 BUILDING(kind, face, space): "identical hand tiles give one option" (and §6.5 BUILD_STEP)."""
    state = ready(
        BUILD,
        bought(0, "glass_factory"),
        bought(0, "glass_factory"),
        bought(0, "shop", "red"),
        bought(0, "shop", "red"),
        *street("NAVAGERO:r1c1"),
    )
    state, _ = play(state, {"type": "act"})
    options = [(c["kind"], c["face"], c["space"]) for c in legal(state) if c["type"] == "build_building"]
    assert len(options) == len(set(options))
    spaces = {"NAVAGERO:r1c0", "NAVAGERO:r2c1"}
    assert sorted(options) == sorted(
        [("glass_factory", None, sp) for sp in spaces] + [("shop", "red", sp) for sp in spaces]
    )


def test_special_card_effects_add_up_in_one_production():
    """§12: "Effects of different cards add up": Lighthouse (1 VP per factory), Glassblowers' School (1 extra bead,
    no VP loss) and Basilica (+1 VP once) all apply to the same PRODUCTION action."""
    cards = [special(0, c) for c in ("SB02", "SB10", "SB15")]
    state = ready(PRODUCTION, *factories(2), *cards)  # VP 5
    state, _ = play(state, {"type": "act"})
    state, events = play(state, {"type": "produce", "factories": 2})
    assert types(events) == ["FactoriesUsed", "BeadDrawn", "BeadDrawn", "BeadDrawn", "BonusScored"]
    assert events[0]["vp_lost"] == 2
    assert [e["extra"] for e in events if e["type"] == "BeadDrawn"] == [False, False, True]
    assert state.vp[0] == 5 - 2 + 1 and sum(state.beads[0]) == 3 and sum(state.bag) == 27
