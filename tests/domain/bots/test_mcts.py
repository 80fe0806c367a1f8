import math
import random

import pytest

from domain.bots import MCTSBot, make_bot
from domain.bots.base import command_key, in_place_stepper
from domain.bots.lookahead import NO_LOOKAHEAD
from domain.game import Capabilities
from domain.rng import rng_for
from tests.domain.bots.sealed_bids import RULES as BIDS
from tests.domain.bots.support import HIGH, LOW, MID, TrackingSecretGame, play, secret_position, win_share
from tests.support.secret_game import RULES, SecretGame


def root_stats(bot):
    return {key: (child.visits, round(sum(child.totals), 9)) for key, child in bot.last_root.children.items()}


def test_same_seed_and_budget_give_the_same_move_and_tree():
    state = secret_position([LOW + 6, HIGH - 6, MID], banked=[2, 1, 0], turn=3, rounds=3)
    for seed in range(5):
        a, b = MCTSBot(iterations=150), MCTSBot(iterations=150)
        move_a = a.choose(RULES, state, 0, random.Random(seed))
        move_b = b.choose(RULES, state, 0, random.Random(seed))
        assert move_a == move_b
        assert root_stats(a) == root_stats(b)
        assert a.last_iterations == 150


def test_bot_seed_alone_is_enough_for_reproducibility():
    state = secret_position([LOW + 6, HIGH - 6], turn=0, rounds=4)
    assert make_bot("mcts:80", 5).choose(RULES, state, 0) == make_bot("mcts:80", 5).choose(RULES, state, 0)


def test_mcts_keeps_a_high_secret_and_redraws_a_low_one():
    for seed in range(3):
        keep = secret_position([HIGH - 1, MID], banked=[0, 0], turn=4, rounds=3)  # last round, seat 0 to act
        assert MCTSBot(iterations=200).choose(RULES, keep, 0, random.Random(seed)) != {"type": "draw"}
        low = secret_position([LOW + 1, MID], banked=[0, 0], turn=4, rounds=3)
        assert MCTSBot(iterations=200).choose(RULES, low, 0, random.Random(seed)) == {"type": "draw"}


def test_mcts_never_reads_hidden_information():
    rules = TrackingSecretGame()
    for seed in range(4):
        moves, trees = set(), []
        for other_secret in (LOW, MID, HIGH):
            state = secret_position([MID, other_secret], banked=[2, 3], turn=2, rounds=3)
            bot = MCTSBot(iterations=60)
            moves.add(command_key(bot.choose(rules, state, 0, random.Random(seed))))
            trees.append(root_stats(bot))
        assert len(moves) == 1
        assert trees[0] == trees[1] == trees[2]  # the whole search is blind to seat 1's secret
    assert rules.determinize_calls == 4 * 3 * 60  # one determinization per iteration


@pytest.mark.parametrize("weight", [0.5, math.inf])
def test_a_plan_is_made_on_sampled_worlds_only(weight):
    """The plan of a decision that goes on the seat's step is the follow-through's pick on determinized worlds:
    the tracking game refuses a decide or evaluate on the real state, and the plan and the move do not change with
    the other seat's secret."""
    rules = TrackingSecretGame()
    for seed in range(3):
        moves, plans = set(), set()
        for other_secret in (LOW, MID, HIGH):
            state = secret_position([MID, other_secret], banked=[2, 3], turn=2, rounds=3)
            bot = MCTSBot(iterations=30, plan_weight=weight)
            moves.add(command_key(bot.choose(rules, state, 0, random.Random(seed), continuing=True)))
            assert bot.last_plan is not None
            plans.add(command_key(bot.last_plan))
        assert len(moves) == 1 and len(plans) == 1


def test_should_stop_ends_the_search_but_a_legal_move_comes_back():
    state = secret_position([LOW + 6, HIGH - 6])
    calls = []

    def stop_after_25():
        calls.append(1)
        return len(calls) >= 25

    bot = MCTSBot(iterations=None)
    move = bot.choose(RULES, state, 0, random.Random(0), should_stop=stop_after_25)
    assert move in RULES.legal_commands(state, 0)
    assert bot.last_iterations == 25
    bot = MCTSBot(iterations=1000)
    assert bot.choose(RULES, state, 0, random.Random(0), should_stop=lambda: True) in RULES.legal_commands(state, 0)
    assert bot.last_iterations == 1


def test_single_legal_command_needs_no_search():
    class OnlyPass(SecretGame):
        def legal_commands(self, state, seat):
            return [{"type": "pass"}] if seat in self.to_act(state) else []

    bot = MCTSBot(iterations=50)
    assert bot.choose(OnlyPass(), secret_position([MID, MID]), 0) == {"type": "pass"}
    assert bot.last_iterations == 0


def test_in_place_fast_path_is_used_and_changes_nothing():
    class FastSecret(SecretGame):
        capabilities = Capabilities(apply_in_place=True)
        in_place_calls = 0
        copies = 0

        def copy_state(self, state):
            FastSecret.copies += 1
            return state  # frozen dataclass: sharing is safe

        def apply_in_place(self, state, event):
            FastSecret.in_place_calls += 1
            return self.evolve(state, event)

    state = secret_position([LOW + 6, HIGH - 6, MID], rounds=4)
    fast = MCTSBot(iterations=100)
    plain = MCTSBot(iterations=100)
    assert fast.choose(FastSecret(), state, 0, random.Random(4)) == plain.choose(RULES, state, 0, random.Random(4))
    assert root_stats(fast) == root_stats(plain)
    assert FastSecret.in_place_calls > 0 and FastSecret.copies > 0


def test_rollout_depth_cap_uses_evaluate():
    evaluated = []

    class Counting(SecretGame):
        def evaluate(self, state, seat):
            evaluated.append(seat)
            return super().evaluate(state, seat)

    state = secret_position([LOW + 6, HIGH - 6], rounds=10)
    MCTSBot(iterations=20, rollout_depth=2).choose(Counting(), state, 0, random.Random(0))
    assert len(evaluated) >= 20 * 2  # every iteration scores both seats at the cap


@pytest.mark.parametrize("seats", [2, 3])
def test_simultaneous_steps(seats):
    """Every seat may act at once: the bot answers for whichever seat asks, and whole games finish."""
    state = BIDS.fold(BIDS.setup(1, seats, {"rounds": 2}))
    assert BIDS.to_act(state) == set(range(seats))
    for seat in range(seats):
        assert MCTSBot(iterations=60).choose(BIDS, state, seat, random.Random(seat)) in BIDS.legal_commands(state, seat)
    # a later seat deciding after an earlier one sealed its bid still cannot see it
    sealed = BIDS.evolve(state, {"type": "BidSealed", "seat": 0, "amount": 3})
    other = BIDS.evolve(state, {"type": "BidSealed", "seat": 0, "amount": 1})
    a, b = MCTSBot(iterations=80), MCTSBot(iterations=80)
    assert a.choose(BIDS, sealed, 1, random.Random(2)) == b.choose(BIDS, other, 1, random.Random(2))
    result = play(BIDS, ["mcts:40"] * seats, seed=3, options={"rounds": 3})
    assert len(result.scores) == seats


def test_mcts_beats_random_on_the_secret_game():
    """Statistical: 30 two-seat games (each deal played from both seats), fixed seeds, generous margin
    (0.70 measured; an equal policy wins 0.5)."""
    share = 0.0
    games = 30
    for game in range(games):
        me = game % 2
        policies = ["mcts:100", "random"] if me == 0 else ["random", "mcts:100"]
        share += win_share(play(RULES, policies, seed=1000 + game // 2), me)
    assert share / games > 0.6


def test_more_iterations_help():
    """mcts:100 against mcts:4 over 30 two-seat games: the larger budget wins most (0.70 measured)."""
    share = 0.0
    games = 30
    for game in range(games):
        me = game % 2
        policies = ["mcts:100", "mcts:4"] if me == 0 else ["mcts:4", "mcts:100"]
        share += win_share(play(RULES, policies, seed=2000 + game // 2), me)
    assert share / games > 0.55


def test_the_fast_path_is_read_from_the_declaration_never_found_by_name():
    class UndeclaredPlay(SecretGame):
        def play(self, state, command, seat, rng):
            raise AssertionError("an undeclared play must never be called")

        def apply_in_place(self, state, event):
            raise AssertionError("an undeclared apply_in_place must never be called")

    class DeclaredPlay(SecretGame):
        capabilities = Capabilities(play_in_place=True)

    assert in_place_stepper(UndeclaredPlay()) is None
    assert in_place_stepper(DeclaredPlay()) is not None
    assert in_place_stepper(RULES) is None
    state = secret_position([LOW + 6, HIGH - 6, MID], rounds=4)
    assert MCTSBot(iterations=30).choose(UndeclaredPlay(), state, 0, random.Random(4)) in RULES.legal_commands(state, 0)


def test_a_game_without_evaluation_is_never_evaluated():
    class NoHeuristic(SecretGame):
        capabilities = Capabilities(evaluation=False)

        def evaluate(self, state, seat):
            raise AssertionError("evaluate is not declared")

    state = secret_position([LOW + 6, HIGH - 6], rounds=10)
    assert MCTSBot(iterations=20, rollout_depth=2).choose(NoHeuristic(), state, 0, random.Random(0)) in (
        RULES.legal_commands(state, 0)
    )


def test_fast_path_on_a_real_game_gives_the_same_search():
    """If Puerto Rico is importable, its in-place ``play`` hook must not change what MCTS computes."""
    puerto_rico = pytest.importorskip("domain.puerto_rico")
    rules = puerto_rico.RULES
    assert in_place_stepper(rules) is not None

    class Plain:
        capabilities = Capabilities(evaluation=rules.capabilities.evaluation)

        def __init__(self, inner):
            self._inner = inner

        def __getattr__(self, name):
            if name in ("play", "apply_in_place", "copy_state"):
                raise AttributeError(name)
            return getattr(self._inner, name)

    chooser = random.Random(5)
    events = rules.setup(5, 3, {})
    state = rules.fold(events)
    for _ in range(60):
        seat = min(rules.to_act(state))
        for event in rules.decide(
            state, chooser.choice(rules.legal_commands(state, seat)), seat, rng_for(5, len(events))
        ):
            events.append(event)
            state = rules.evolve(state, event)
    seat = min(rules.to_act(state))
    fast, plain = MCTSBot(iterations=40, rollout_depth=8), MCTSBot(iterations=40, rollout_depth=8)
    assert fast.choose(rules, state, seat, random.Random(1)) == plain.choose(
        Plain(rules), state, seat, random.Random(1)
    )
    assert root_stats(fast) == root_stats(plain)


def test_cutoff_rewards_keep_a_signal_for_the_leader():
    """At the rollout cap the leader's reward still grows with its lead (no saturation at rank 1)."""
    # Without the turn play-out: it would redraw both secrets with the same generator first.
    bot = MCTSBot(iterations=1, look=NO_LOOKAHEAD)
    small = bot._rewards(RULES, secret_position([LOW + 10, LOW], rounds=3), 2)
    big = bot._rewards(RULES, secret_position([LOW + 1000, LOW], rounds=3), 2)
    assert 0.5 < small[0] < big[0] < 1.0
    assert small[1] < 0.5 and abs(sum(small) - 1.0) < 1e-9


def test_cutoff_rewards_are_measured_from_where_each_seat_stood():
    """With centred rewards (the default) a cut-off position exactly as good as the iteration's start scores
    0.5 for every seat, however far one seat leads: a small gain of the leader moves its reward as much as
    the same gain of a seat that trails."""
    bot = MCTSBot(iterations=1, look=NO_LOOKAHEAD)
    start = secret_position([LOW + 1000, LOW], rounds=3)
    origin = bot._advantages(RULES, start, 2)
    assert bot._rewards(RULES, start, 2, origin=origin) == [0.5, 0.5]
    gained = bot._rewards(RULES, secret_position([LOW + 1010, LOW], rounds=3), 2, origin=origin)
    assert gained[0] > 0.6 and gained[1] < 0.4


class PerilousBanks(SecretGame):
    """Secret numbers without redraws, in which a bank of 3 points or more by anybody puts every seat at risk of
    an ending all lose. The evaluation charges every seat alike for it (as Archipelago's does for independence);
    ``peril`` reports it with chance 0.9 (``declared=False``: it does not)."""

    def __init__(self, declared: bool = True, winners: tuple[int, ...] = ()) -> None:
        self.declared = declared
        self.winners = winners

    def legal_commands(self, state, seat):
        return [c for c in super().legal_commands(state, seat) if c["type"] != "draw"]

    def evaluate(self, state, seat):
        return super().evaluate(state, seat) - (100 if max(state.banked) >= 3 else 0)

    def peril(self, state):
        if self.declared and max(state.banked) >= 3:
            return 0.9, self.winners
        return 0.0, ()


def test_cutoff_rewards_weigh_in_a_peril_every_seat_shares():
    """A threat to every seat alike cancels out of the advantages; ``rules.peril`` scales the rewards by the
    chance that it does not strike, and gives that chance to the seats who would win it."""
    position = secret_position([LOW + 10, LOW], banked=[3, 0], rounds=3)
    safe = MCTSBot(iterations=1, look=NO_LOOKAHEAD)._rewards(PerilousBanks(declared=False), position, 2)
    assert safe[0] > 0.5 > safe[1]
    risky = MCTSBot(iterations=1, look=NO_LOOKAHEAD)._rewards(PerilousBanks(), position, 2)
    assert risky == [pytest.approx(0.1 * r) for r in safe]
    won = MCTSBot(iterations=1, look=NO_LOOKAHEAD)._rewards(PerilousBanks(winners=(1,)), position, 2)
    assert won == [pytest.approx(0.1 * safe[0]), pytest.approx(0.1 * safe[1] + 0.9)]


def test_mcts_keeps_away_from_a_peril_that_the_advantages_do_not_show():
    """Banking 3 is the best move by each seat's advantage, since the threat it opens lowers every seat's
    evaluation alike, and the move played when the rules do not declare the threat; declared, the bot keeps away."""
    state = secret_position([MID, MID], banked=[0, 0], turn=0, rounds=50)
    for seed in range(3):
        plain = MCTSBot(iterations=120, rollout_depth=0).choose(
            PerilousBanks(declared=False), state, 0, random.Random(seed)
        )
        assert plain == {"type": "bank", "amount": 3}
        wary = MCTSBot(iterations=120, rollout_depth=0).choose(PerilousBanks(), state, 0, random.Random(seed))
        assert wary != {"type": "bank", "amount": 3}
