import random

import pytest

from domain.bots import LEVELS, GreedyBot, MCTSBot, NoLegalCommand, RandomBot, make_bot, policy_names
from domain.bots.base import command_key, rank_rewards, seat_count
from domain.rng import rng_for
from tests.domain.bots.sealed_bids import RULES as BIDS
from tests.domain.bots.support import HIGH, LOW, MID, TrackingSecretGame, secret_position
from tests.support.secret_game import RULES


def test_random_bot_only_plays_legal_commands():
    bot = RandomBot(1)
    for seed in range(30):
        events = RULES.setup(seed, 3, {"rounds": 4})
        state = RULES.fold(events)
        while not RULES.is_over(state):
            seat = min(RULES.to_act(state))
            command = bot.choose(RULES, state, seat)
            assert command in RULES.legal_commands(state, seat)
            for event in RULES.decide(state, command, seat, rng_for(seed, len(events))):
                events.append(event)
                state = RULES.evolve(state, event)


def test_random_bot_covers_every_legal_command():
    state = secret_position([MID, MID])
    seen = {command_key(RandomBot().choose(RULES, state, 0, random.Random(i))) for i in range(200)}
    assert seen == {command_key(c) for c in RULES.legal_commands(state, 0)}


@pytest.mark.parametrize("bot", [RandomBot(0), GreedyBot(0), MCTSBot(0, iterations=10)])
def test_no_legal_command_is_an_error(bot):
    state = secret_position([MID, MID])
    with pytest.raises(NoLegalCommand):
        bot.choose(RULES, state, 1)  # not seat 1's turn


def test_greedy_banks_when_the_secret_is_high():
    state = secret_position([HIGH, LOW])
    for seed in range(10):
        assert GreedyBot().choose(RULES, state, 0, random.Random(seed)) == {"type": "bank", "amount": 3}


def test_greedy_draws_when_the_secret_is_low():
    # A new number averages MID against LOW + 3 for banking: averaged over samples, drawing maximises evaluate.
    state = secret_position([LOW, HIGH], banked=[2, 0], turn=2, rounds=3)
    assert GreedyBot(samples=40).choose(RULES, state, 0, random.Random(3)) == {"type": "draw"}


def test_greedy_scores_each_command_with_the_same_draw():
    """With one sample, draw is scored with the number the shared rng copy yields: the bot's choice is
    exactly the argmax we compute by hand."""
    state = secret_position([MID, HIGH])
    for seed in range(20):
        rng = random.Random(seed)
        probe = random.Random(seed)
        world = RULES.determinize(state, 0, probe)
        drawn = random.Random()
        drawn.setstate(probe.getstate())
        new_secret = RULES.decide(world, {"type": "draw"}, 0, drawn)[0]["number"]
        expected = {"type": "draw"} if new_secret > MID + 3 else {"type": "bank", "amount": 3}
        choice = GreedyBot().choose(RULES, state, 0, rng)
        if new_secret != MID + 3:
            assert choice == expected
        else:
            assert choice in ({"type": "draw"}, {"type": "bank", "amount": 3})


def test_greedy_breaks_ties_with_the_rng():
    class Flat(type(RULES)):
        def evaluate(self, state, seat):
            return 0.0

    state = secret_position([MID, MID])
    picks = {command_key(GreedyBot().choose(Flat(), state, 0, random.Random(s))) for s in range(60)}
    assert len(picks) == 5


@pytest.mark.parametrize("make", [lambda: GreedyBot(), lambda: GreedyBot(samples=5)])
def test_greedy_never_reads_hidden_information(make):
    rules = TrackingSecretGame()
    for seed in range(20):
        moves = set()
        for other_secret in (LOW, MID, HIGH):
            state = secret_position([MID, other_secret], banked=[1, 2], turn=2)
            moves.add(command_key(make().choose(rules, state, 0, random.Random(seed))))
        assert len(moves) == 1
    assert rules.determinize_calls > 0


def test_greedy_in_a_simultaneous_step():
    state = BIDS.fold(BIDS.setup(1, 3, {}))
    for seat in range(3):
        assert GreedyBot(seat).choose(BIDS, state, seat) in BIDS.legal_commands(state, seat)


def test_levels_and_names():
    assert set(LEVELS) == {"random", "easy", "medium", "hard"}
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("easy", 1), GreedyBot)
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    medium, hard = make_bot("medium", 1), make_bot("hard", 1)
    assert isinstance(medium, MCTSBot) and isinstance(hard, MCTSBot)
    assert medium.iterations == LEVELS["medium"].iterations < hard.iterations == LEVELS["hard"].iterations
    assert LEVELS["medium"].time_budget_ms < LEVELS["hard"].time_budget_ms
    assert (medium.budget_ms, hard.budget_ms) == (LEVELS["medium"].time_budget_ms, LEVELS["hard"].time_budget_ms)
    assert make_bot("easy").budget_ms == LEVELS["easy"].time_budget_ms < LEVELS["medium"].time_budget_ms
    assert make_bot("greedy").budget_ms is None and make_bot("mcts:5").budget_ms is None
    assert make_bot("mcts:37").iterations == 37
    assert {"random", "greedy", "mcts", "easy", "medium", "hard"} <= set(policy_names())
    for bad in ("nope", "mcts:0", "mcts:x"):
        with pytest.raises(ValueError):
            make_bot(bad)


def test_bot_seed_makes_choices_reproducible():
    state = secret_position([MID, MID])

    def choices(seed):
        bot = make_bot("random", seed)
        return [command_key(bot.choose(RULES, state, 0)) for _ in range(12)]

    assert choices(9) == choices(9)
    assert choices(9) != choices(10)


def test_rank_rewards_share_ties():
    assert rank_rewards([10, 5], [1, 2], score_weight=0) == [1.0, 0.0]
    assert rank_rewards([7, 7], [1, 1], score_weight=0) == [0.5, 0.5]
    three = rank_rewards([9, 9, 1], [1, 1, 3], score_weight=0)
    assert three == [0.75, 0.75, 0.0]
    blended = rank_rewards([10, 0, 5], [1, 3, 2], score_weight=0.5)
    assert blended == [1.0, 0.0, 0.5]


def test_seat_count_from_the_protocol():
    assert seat_count(RULES, secret_position([1, 2, 3])) == 3
    assert seat_count(BIDS, BIDS.fold(BIDS.setup(1, 4, {}))) == 4

    class NoView(type(RULES)):
        def view(self, state, seat):
            raise NotImplementedError

        def evaluate(self, state, seat):
            raise AssertionError("seats are never counted by probing evaluate")

        def seat_count(self, state):
            return len(state.secrets)

    assert seat_count(NoView(), secret_position([1, 2, 3, 4, 5])) == 5
