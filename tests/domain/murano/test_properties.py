"""Property tests over random legal games: termination, replay, conservation, legality, hidden information.

TRADEWINDS_PROPERTY_GAMES sets the number of random games per player count (default keeps this folder fast)."""

from __future__ import annotations

import json
import os
import pickle
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.game import IllegalCommand
from domain.murano import RULES, data
from domain.murano.state import PALACE, SHOP, STREET
from domain.rng import rng_for
from tests.domain.protocol_checks import play_random_game

GAMES = int(os.environ.get("TRADEWINDS_PROPERTY_GAMES", "8"))
SEEDS = [(n, seed) for n in (2, 3, 4) for seed in range(GAMES)]


def totals(n: int) -> dict:
    small = n < 4
    return {
        STREET: 35 if small else 42,
        SHOP: 9 if small else 12,
        PALACE: 12,  # including the palace removed with 2-3 players
        "glass_factory": 11 if small else 12,
        "special_building": 9 if small else 12,
    }


def check_conservation(state) -> None:
    n = state.n
    count: Counter = Counter()
    count[STREET] = len(state.streets) + (1 if state.street_face else 0)
    count[SHOP] = len(state.shops)
    count[PALACE] = len(state.palaces) + (1 if state.removed_palace is not None else 0)
    count["glass_factory"] = state.factories
    count["special_building"] = state.special_tiles
    for hand in state.hand:
        for kind, _ in hand:
            count[kind] += 1
    for cell in state.board:
        if cell is not None:
            count[cell[0]] += 1
    assert dict(count) == totals(n)
    # shop colours and palace crests are conserved too
    faces = Counter(state.shops) + Counter(f for h in state.hand for k, f in h if k == SHOP)
    faces += Counter(c[1] for c in state.board if c is not None and c[0] == SHOP)
    expected = Counter(data.SHOP_COUNTS)
    if n < 4:
        expected -= Counter(data.SMALL_GAME_REMOVED_SHOPS)
    assert faces == expected
    crests = Counter(state.palaces) + Counter(f for h in state.hand for k, f in h if k == PALACE)
    crests += Counter(c[1] for c in state.board if c is not None and c[0] == PALACE)
    if state.removed_palace is not None:
        crests[state.removed_palace] += 1
    assert crests == Counter(data.PALACE_COUNTS)
    # beads
    for ci in range(3):
        assert state.bag[ci] + sum(b[ci] for b in state.beads) == data.BEADS_PER_COLOUR
        assert state.bag[ci] >= 0 and all(b[ci] >= 0 for b in state.beads)
    # gondoliers: marker + personal + general + seated = 8 per colour; owned <= 7
    for s in range(n):
        on_board = sum(1 for o in state.gondolas if o == s)
        assert 1 + state.personal[s] + state.general[s] + on_board == 8
        assert state.personal[s] >= 0 and state.general[s] >= 0
        assert state.personal[s] + on_board <= data.MAX_OWNED_GONDOLIERS
        assert state.gold[s] >= 0 and state.vp[s] >= 0
    # character cards: every card of this player count exactly once
    cards = list(state.char_deck) + list(state.removed_chars)
    cards += [c for h in state.chars for c in h] + [a[0] for h in state.assigned for a in h]
    if state.phase == "HIRE_PICK":
        cards += list(state.drawn)
    assert sorted(cards) == sorted(c for c, spec in data.CHARACTERS.items() if spec[2] <= n)
    specials = list(state.special_deck) + [c for h in state.specials for c in h]
    if state.phase == "SPECIAL_CARD":
        specials += list(state.drawn)
    assert sorted(specials) == sorted(data.SPECIAL_CARDS)
    assert len(state.char_known) == len(state.char_deck) and len(state.special_known) == len(state.special_deck)
    # ships: 8 ships, at most one per space except the red ship sharing with a black one
    occ = Counter(state.ships)
    assert len(state.ships) == 8 and max(occ.values()) <= 2
    for pos, k in occ.items():
        if k == 2:
            assert state.ships[data.RED_SHIP] == pos


GOLD_IN = {
    "Passed": "gold",
    "GoldTaken": "gold",
    "IncomeCollected": "gold",
    "BeadsSold": "gold",
    "GondolierFired": "gold",
}
GOLD_OUT = {
    "ShipMoved": "cost",
    "TileBought": "price",
    "CharacterKept": "price",
    "GondolierSeated": "price",
    "GondolierHired": "price",
}


def check_gold_ledger(before: list[int], after: list[int], events: list[dict]) -> None:
    expected = list(before)
    for e in events:
        if e["type"] in GOLD_IN:
            expected[e["seat"]] += e[GOLD_IN[e["type"]]]
        elif e["type"] in GOLD_OUT:
            expected[e["seat"]] -= e[GOLD_OUT[e["type"]]]
    assert expected == after


def hidden_from(state, seat):
    """Card ids and stack facts that ``seat`` must not see (the game is not over)."""
    cards = set(state.removed_chars)
    for p in range(state.n):
        if p != seat and p not in state.scored:
            cards.update(state.chars[p])
    return cards


def check_leaks(state, rng: random.Random) -> None:
    if RULES.is_over(state):
        return
    for seat in [*range(state.n), None]:
        mine = RULES.view(state, seat)
        text = json.dumps(mine)
        for card in hidden_from(state, seat):
            assert f'"{card}"' not in text, f"{card} leaks to seat {seat}"
        # the view depends only on what the seat knows: resampling the hidden parts changes nothing
        other = RULES.determinize(state, seat if seat is not None else 0, rng)
        assert RULES.view(other, seat) == mine
        if seat is not None and seat == state.active:
            assert RULES.legal_commands(other, seat) == RULES.legal_commands(state, seat)


PRIVATE = {
    "StackViewed": ("faces",),
    "CharactersDrawn": ("cards",),
    "CharacterKept": ("card", "returned"),
    "CharactersDeclined": ("returned",),
    "SpecialCardsDrawn": ("cards",),
    "SpecialCardTaken": ("returned",),
}


def check_redaction(events: list[dict], n: int) -> None:
    for e in events:
        for seat in [*range(n), None]:
            r = RULES.redact(e, seat)
            json.dumps(r)
            assert r["type"] == e["type"]
            if e["type"] == "GameSetUp":
                for key in (
                    "streets",
                    "shops",
                    "palaces",
                    "characters",
                    "special_cards",
                    "removed_palace",
                    "removed_characters",
                ):
                    assert r[key] is None
            elif e["type"] == "StackShuffled":
                assert r["order"] is None
            elif e["type"] == "TileBought" and e["kind"] in (SHOP, PALACE) and seat != e["seat"]:
                assert r["face"] is None
            elif e["type"] in PRIVATE and seat != e["seat"]:
                assert all(r[k] is None for k in PRIVATE[e["type"]])
            elif e["type"] in PRIVATE:
                assert r == e
        if e["type"] in (
            "GameSetUp",
            "StackShuffled",
            "StreetDrawn",
            "BeadDrawn",
            "CharactersDrawn",
            "SpecialCardsDrawn",
            "StackViewed",
            "CardAssigned",
            "GameOver",
        ):
            assert RULES.reveals(e)
        if e["type"] in ("ShipMoved", "Passed", "TurnEnded", "TurnStarted", "GondolierSeated"):
            assert not RULES.reveals(e)


def run_game(n: int, seed: int, deep: bool):
    rng = random.Random(seed * 7 + n)
    last = {"gold": None, "step": 0}

    def on_step(state, events):
        check_conservation(state)
        check_redaction(events, state.n)
        if last["gold"] is not None:
            check_gold_ledger(last["gold"], state.gold, events)
        last["gold"] = list(state.gold)
        last["step"] += 1
        if deep and last["step"] % 3 == 0:
            check_leaks(state, rng)

    state, events = play_random_game(RULES, n, seed, check_purity=(seed < 2), on_step=on_step)
    return state, events


@pytest.mark.parametrize("n,seed", SEEDS)
def test_random_games_finish_conserve_and_do_not_leak(n, seed):
    state, events = run_game(n, seed, deep=True)
    assert RULES.is_over(state)
    assert events[-1]["type"] == "GameOver"
    result = RULES.result(state)
    if not state.aborted:
        assert result.ranks == events[-1]["ranks"]
        assert result.scores == state.vp
        # every player was scored, in order from the trigger seat
        scored = [e["seat"] for e in events if e["type"] == "ScoringFinished"]
        assert scored == [(state.trigger_seat + i) % n for i in range(n)]
    assert pickle.loads(pickle.dumps(state)) == state
    json.dumps(RULES.reveal_all(state))


def test_most_random_games_reach_final_scoring():
    finished = 0
    for n in (2, 3, 4):
        for seed in range(100, 104):
            state, _ = play_random_game(RULES, n, seed)
            finished += not state.aborted
    assert finished >= 10


def _mid_game_states(count: int):
    """States sampled along random games, with the seat to act."""
    out = []
    for n in (2, 3, 4):
        chooser = random.Random(n)
        events = RULES.setup(n, n, {})
        state = RULES.fold(events)
        step = 0
        while not RULES.is_over(state) and len(out) < count * n // 2:
            seat = state.active
            legal = RULES.legal_commands(state, seat)
            if step % 7 == 0:
                out.append(state)
            new = RULES.decide(state, chooser.choice(legal), seat, rng_for(n, len(events)))
            events += new
            state = RULES.fold(new, state)
            step += 1
    return out


MID_STATES = _mid_game_states(60)


def test_every_listed_command_is_accepted_and_unlisted_moves_are_refused():
    for i, state in enumerate(MID_STATES):
        seat = state.active
        legal = RULES.legal_commands(state, seat)
        assert legal
        for command in legal:
            RULES.decide(state, command, seat, rng_for(i, 5))
        others = [s for s in range(state.n) if s != seat]
        assert RULES.legal_commands(state, others[0]) == []
        with pytest.raises(IllegalCommand) as err:
            RULES.decide(state, legal[0], others[0], rng_for(i, 5))
        assert err.value.code == "not_your_turn"
        listed = {json.dumps(c, sort_keys=True) for c in legal}
        # every ship move / pass / placement not listed is refused
        candidates = []
        for ship in range(8):
            for to in range(18):
                candidates.append({"type": "move_ship", "ship": ship, "to": to})
                candidates.append({"type": "pass", "ship": ship, "to": to})
        for name in RULES.view(state, seat)["islands"]:
            for r in range(5):
                for c in range(7):
                    sp = f"{name}:r{r}c{c}"
                    candidates.append({"type": "place_street", "space": sp})
                    candidates.append({"type": "place_tile", "space": sp})
                    for kind, face in set(state.hand[seat]):
                        candidates.append({"type": "build_building", "kind": kind, "face": face, "space": sp})
        candidates += [{"type": "produce", "factories": k} for k in range(-1, 6)]
        candidates += [
            {"type": t}
            for t in (
                "act",
                "stop_building",
                "draw_street",
                "keep_tile",
                "skip_sale",
                "fire_gondolier",
                "hire_gondolier",
                "decline_characters",
            )
        ]
        candidates += [{"type": "sell_beads", "beads": {c: k}} for c in data.BEAD_COLOURS for k in range(0, 5)]
        candidates += [
            {"type": "sell_beads", "beads": {"red": 1, "green": 1, "blue": 1}},
            {"type": "sell_beads", "beads": {"red": 1, "green": 1}},
        ]
        for command in candidates:
            if json.dumps(command, sort_keys=True) in listed:
                continue
            if command["type"] == "build_building" and command["kind"] not in ("shop", "palace"):
                probe = dict(command, face=None)
                if json.dumps(probe, sort_keys=True) in listed:
                    continue
            with pytest.raises(IllegalCommand):
                RULES.decide(state, command, seat, rng_for(i, 5))


def test_determinize_is_consistent_and_keeps_own_knowledge():
    rng = random.Random(3)
    for state in MID_STATES:
        for seat in range(state.n):
            other = RULES.determinize(state, seat, rng)
            check_conservation(other)
            assert other.chars[seat] == state.chars[seat]
            assert other.hand[seat] == state.hand[seat]
            assert RULES.view(other, seat) == RULES.view(state, seat)
            assert state == RULES.fold([], state)  # determinize did not touch its input


JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 40)
    | st.text(max_size=12)
    | st.sampled_from(
        [
            "red",
            "green",
            "blue",
            "grey",
            "top",
            "choose",
            "shop",
            "palace",
            "glass_factory",
            "special_building",
            "NAVAGERO",
            "SAN_DONATO:r1c1",
            "C01",
            "SB01",
            "white",
        ]
    ),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=8,
)
COMMAND_TYPES = [
    "pass",
    "move_ship",
    "act",
    "choose_buy_mode",
    "pick_tile",
    "keep_tile",
    "place_tile",
    "draw_street",
    "place_street",
    "build_building",
    "stop_building",
    "take_special_card",
    "keep_character",
    "decline_characters",
    "seat_gondolier",
    "fire_gondolier",
    "hire_gondolier",
    "collect_income",
    "produce",
    "sell_beads",
    "skip_sale",
    "assign_character",
    "stop_assigning",
    "bogus",
]
FIELDS = ["ship", "to", "mode", "face", "space", "kind", "card", "island", "colour", "shops", "factories", "beads"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    index=st.integers(0, len(MID_STATES) - 1),
    ctype=st.sampled_from(COMMAND_TYPES) | JSONISH,
    fields=st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=5), JSONISH, max_size=4),
    seat=st.integers(-1, 4) | JSONISH,
)
def test_decide_refuses_garbage_only_with_illegal_command(index, ctype, fields, seat):
    state = MID_STATES[index]
    command = {"type": ctype, **fields}
    try:
        events = RULES.decide(state, command, seat, rng_for(index, 9))
    except IllegalCommand as err:
        assert err.code in ("not_your_turn", "invalid_command", "illegal_command", "game_over")
        return
    assert events and isinstance(events, list)
    json.dumps(events)


@settings(max_examples=50, deadline=None)
@given(index=st.integers(0, len(MID_STATES) - 1), junk=JSONISH)
def test_decide_refuses_non_dict_commands(index, junk):
    state = MID_STATES[index]
    if isinstance(junk, dict):
        return
    with pytest.raises(IllegalCommand):
        RULES.decide(state, junk, state.active, rng_for(index, 9))


def test_evaluate_is_a_number_for_every_seat():
    for state in MID_STATES[:20]:
        for seat in range(state.n):
            assert isinstance(RULES.evaluate(state, seat), float)
