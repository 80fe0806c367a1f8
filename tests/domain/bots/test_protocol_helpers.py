"""The bots' protocol-only helpers (domain/bots/base.py), each against its documented contract."""

from __future__ import annotations

import copy
import json
import pickle
import random
import threading

import pytest

from domain.bots.base import (
    LazySnapshot,
    NoLegalCommand,
    command_key,
    copy_rng,
    deferred_rng,
    in_place_stepper,
    legal_or_raise,
    private_copy,
    rank_rewards,
    rng_at,
    seat_count,
    state_rewards,
)
from domain.game import Capabilities, GameResult
from tests.domain.bots.support import secret_position
from tests.support.secret_game import SecretGame

RULES = SecretGame()


def test_command_key_is_compact_json_with_sorted_keys():
    assert command_key({"type": "bank", "amount": 2}) == '{"amount":2,"type":"bank"}'
    assert command_key({"b": [1, {"d": 1, "c": 2}], "a": None}) == '{"a":null,"b":[1,{"c":2,"d":1}]}'


@pytest.mark.parametrize(
    "command",
    [
        {"type": "move_ship", "ship": 1, "to": {"r": 3, "c": 4}},
        {"type": "name", "text": "Café \u2603", "flag": True, "share": 0.5},
        {"type": "huge", "n": 2**70},  # beyond 64 bits: the standard encoder
        {"type": "keyed", "by": {1: "one", 2: "two"}},  # keys that are not strings: the standard encoder
    ],
    ids=["nested", "text", "big integer", "integer keys"],
)
def test_command_key_is_what_json_dumps_writes(command):
    expected = json.dumps(command, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert command_key(command) == expected


def test_legal_or_raise_names_the_seat_without_a_command():
    state = secret_position([5, 6, 7], turn=1)
    assert legal_or_raise(RULES, state, 1) == RULES.legal_commands(state, 1)
    with pytest.raises(NoLegalCommand, match="seat 2 has no legal command in this state"):
        legal_or_raise(RULES, state, 2)


def test_copy_rng_continues_the_same_sequence_independently():
    rng = random.Random(4)
    rng.random()
    twin = copy_rng(rng)
    assert [twin.random() for _ in range(5)] == [rng.random() for _ in range(5)]
    twin.random()
    assert twin.getstate() != rng.getstate()


DRAWS = {
    "random": lambda r: [r.random() for _ in range(3)],
    "getrandbits": lambda r: [r.getrandbits(70), r.getrandbits(5)],
    "randrange": lambda r: [r.randrange(1000) for _ in range(3)],
    "randint": lambda r: [r.randint(1, 6) for _ in range(3)],
    "choice": lambda r: [r.choice("abcdefgh") for _ in range(3)],
    "choices": lambda r: r.choices(range(50), k=5),
    "shuffle": lambda r: (lambda xs: (r.shuffle(xs), xs)[1])(list(range(20))),
    "sample": lambda r: r.sample(range(100), 5),
    "uniform": lambda r: [r.uniform(2.0, 3.0) for _ in range(2)],
    "gauss": lambda r: [r.gauss(), r.gauss(1.0, 2.0), r.gauss()],
    "randbytes": lambda r: r.randbytes(9),
    "getstate": lambda r: r.getstate(),
}


@pytest.mark.parametrize("first", DRAWS)
def test_a_deferred_generator_draws_what_the_snapshot_would(first):
    """Whatever method draws first, ``deferred_rng(snapshot)`` gives the numbers of ``rng_at(snapshot)``, and
    the same afterwards (the generator is then a plain one, continuing the sequence)."""
    source = random.Random(11)
    source.gauss()  # a snapshot with a gauss_next kept
    snapshot = source.getstate()
    eager, lazy = rng_at(snapshot), deferred_rng(snapshot)
    assert DRAWS[first](lazy) == DRAWS[first](eager)
    assert type(lazy) is random.Random
    for draw in DRAWS.values():
        assert draw(lazy) == draw(eager)


def test_a_deferred_generator_is_set_only_when_used_and_copies_like_a_plain_one():
    snapshot = random.Random(3).getstate()
    untouched = deferred_rng(snapshot)
    assert type(untouched) is not random.Random  # nothing drawn: the snapshot is not set yet
    reseeded = deferred_rng(snapshot)
    reseeded.seed(5)
    assert reseeded.random() == random.Random(5).random()
    replaced = deferred_rng(snapshot)
    replaced.setstate(random.Random(6).getstate())
    assert replaced.random() == random.Random(6).random()
    assert copy.deepcopy(deferred_rng(snapshot)).random() == rng_at(snapshot).random()
    assert pickle.loads(pickle.dumps(deferred_rng(snapshot))).random() == rng_at(snapshot).random()
    assert copy_rng(deferred_rng(snapshot)).random() == rng_at(snapshot).random()


class _CountedRandom(random.Random):
    reads = 0

    def getstate(self):
        self.reads += 1
        return super().getstate()


def test_a_lazy_snapshot_is_read_once_and_only_when_a_deferred_generator_draws():
    source = _CountedRandom(8)
    source.gauss()
    snapshot = LazySnapshot(source)
    unused = [deferred_rng(snapshot) for _ in range(3)]
    assert source.reads == 0 and all(type(r) is not random.Random for r in unused)
    eager = rng_at(source.getstate())
    first, second = deferred_rng(snapshot), deferred_rng(snapshot)
    assert [first.random(), first.gauss()] == [second.random(), second.gauss()] == [eager.random(), eager.gauss()]
    assert source.reads == 2  # the eager copy's read, and the snapshot's one read


def test_rank_rewards_of_a_single_seat_squash_its_value_around_a_half():
    assert rank_rewards([0.0], [1]) == [0.5]
    assert rank_rewards([3.0], [1]) == [pytest.approx(0.5 + 0.5 * 3 / 4)]
    assert rank_rewards([-1.0], [1]) == [pytest.approx(0.25)]


def test_rank_rewards_blend_rank_and_score_with_the_default_weight():
    # two seats, 10 and 5: by rank 1 and 0, by score 1 and 0
    assert rank_rewards([10.0, 5.0], [1, 2]) == [pytest.approx(1.0), pytest.approx(0.0)]
    # four seats, equal values: score part is a half for everybody; a two-way tie for first shares 1st and 2nd
    r = rank_rewards([4.0, 4.0, 4.0, 4.0], [1, 1, 3, 4])
    assert r == [pytest.approx(0.9 * (4 - 1.5) / 3 + 0.05)] * 2 + [
        pytest.approx(0.9 * 1 / 3 + 0.05),
        pytest.approx(0.05),
    ]


class Fixed(SecretGame):
    """Scores and result fixed by the test."""

    def __init__(self, over, values):
        self.over, self.values = over, values

    def is_over(self, state):
        return self.over

    def result(self, state):
        return GameResult(scores=[10, 30, 20], ranks=[3, 1, 2])

    def evaluate(self, state, seat):
        return self.values[seat]


def test_state_rewards_use_the_result_when_over_and_the_evaluation_before():
    state = secret_position([1, 2, 3])
    over = state_rewards(Fixed(True, None), state, 3, score_weight=0)
    assert over == [0.0, 1.0, 0.5]
    before = state_rewards(Fixed(False, [7.0, 1.0, 1.0]), state, 3, score_weight=0)
    assert before == [1.0, 0.25, 0.25]  # ranks from the evaluation: 1, 2, 2


def test_state_rewards_of_a_game_nobody_won_are_a_loss_for_every_seat():
    """A collective loss (or a game cut short) is no tie for first place: 0 for every seat, whatever the scores."""

    class NobodyWon(Fixed):
        def result(self, state):
            return GameResult(scores=[10, 30, 20], ranks=[1, 1, 1], no_winner=True)

    assert state_rewards(NobodyWon(True, None), secret_position([1, 2, 3]), 3) == [0.0, 0.0, 0.0]


def test_seat_count_is_the_rules_own_count_else_the_spectator_views_seats():
    state = secret_position([1, 2, 3])

    class Counted(SecretGame):
        def seat_count(self, state):
            return 7

    class SeatList(SecretGame):
        def view(self, state, seat):
            return {"seats": [0, 1, 2, 3]}

    class SeatNumber(SecretGame):
        def view(self, state, seat):
            return {"seats": 5}

    assert seat_count(Counted(), state) == 7
    assert seat_count(SeatList(), state) == 4
    assert seat_count(SeatNumber(), state) == 5


def test_private_copy_uses_copy_state_then_pickle_then_deepcopy():
    class Copier(SecretGame):
        def copy_state(self, state):
            return ("copied", state)

    assert private_copy(Copier(), 5) == ("copied", 5)
    state = {"board": [1, 2]}
    copied = private_copy(RULES, state)
    assert copied == state and copied["board"] is not state["board"]
    unpicklable = {"lock": threading.Lock, "board": [1], "fn": lambda: 1}
    copied = private_copy(RULES, unpicklable)
    assert copied["board"] == [1] and copied["board"] is not unpicklable["board"]


def test_in_place_stepper_applies_events_in_place_or_takes_the_returned_state():
    class InPlace(SecretGame):
        capabilities = Capabilities(apply_in_place=True)

        def decide(self, state, command, seat, rng):
            return [{"add": 1}, {"add": 2}]

        def apply_in_place(self, state, event):
            state.append(event["add"])

    class Returns(InPlace):
        def apply_in_place(self, state, event):
            return [*state, event["add"] * 10]

    stepper = in_place_stepper(InPlace())
    assert stepper is not None
    state = [0]
    assert stepper.step(state, {}, 0, random.Random(1)) is state and state == [0, 1, 2]
    assert in_place_stepper(Returns()).step([0], {}, 0, random.Random(1)) == [0, 10, 20]
    assert in_place_stepper(SecretGame()) is None  # nothing declared: no fast path, however the class looks


def test_bot_names_parse_at_their_boundaries():
    from domain.bots import MCTSBot, make_bot
    from domain.bots.levels import DEFAULT_MCTS_ITERATIONS

    assert make_bot("  Hard ").iterations == 2000  # names are trimmed and case-folded
    assert make_bot("mcts").iterations == DEFAULT_MCTS_ITERATIONS == 400
    one = make_bot("mcts:1")
    assert isinstance(one, MCTSBot) and one.iterations == 1
    capped = make_bot("mcts:5:0")
    assert capped.iterations == 5 and capped.rollout_depth == 0
    assert make_bot("mcts:5:3").rollout_depth == 3
    for bad in ("mcts:0", "mcts:5:-1", "mcts:1:2:3", "mcts:", "mcts:2:x"):
        with pytest.raises(ValueError, match=r"bad bot name .*: use mcts:<iterations>\[:<rollout depth>\]"):
            make_bot(bad)
    with pytest.raises(ValueError, match=r"unknown bot or level 'nope'; known: random, greedy, mcts, easy, medium"):
        make_bot("nope")


def test_lookahead_share_is_a_whole_number_of_candidates_within_the_total():
    """Each of ``roots`` play-outs gets (total - roots) // roots candidates, at least one, at most ``budget``."""
    from domain.bots.lookahead import LookAhead

    look = LookAhead(6, 400, 400)
    assert look.share(1) == LookAhead(6, 399, 400)
    small = LookAhead(6, 50, 400)
    assert small.share(2) is small  # 398 // 2 is over the per-play-out budget: unchanged
    assert look.share(3) == LookAhead(6, 132, 400)
    for roots in range(1, 200):
        budget = look.share(roots).budget
        assert isinstance(budget, int) and 1 <= budget <= 400
        assert roots + roots * budget <= 400 or budget == 1


def test_plan_bots_name_their_plan_and_follow_the_given_rng():
    from domain.bots.planned import PlanBot

    with pytest.raises(ValueError, match="unknown plan 'nonsense'; known: pr-building, pr-shipping"):
        PlanBot("nonsense")
    assert repr(PlanBot("pr-building", 3)) == "PlanBot(plan='pr-building', seed=3)"

    class Flat(SecretGame):
        def evaluate(self, state, seat):
            return 0.0

    state = secret_position([5, 5])
    picks = set()
    for s in range(20):  # every move ties: the given rng, not the bot's own seed, breaks the tie
        first = PlanBot("pr-shipping", 1).choose(Flat(), state, 0, random.Random(s))
        assert PlanBot("pr-shipping", 2).choose(Flat(), state, 0, random.Random(s)) == first
        picks.add(command_key(first))
    assert len(picks) > 1


def test_rank_rewards_use_a_small_score_spread_too():
    assert rank_rewards([0.6, 0.2], [1, 2]) == [pytest.approx(1.0), pytest.approx(0.0)]


def test_greedy_needs_at_least_one_sample():
    from domain.bots import GreedyBot

    assert GreedyBot(samples=1) is not None
    with pytest.raises(ValueError, match="samples must be at least 1"):
        GreedyBot(samples=0)
