"""Turn-level look-ahead: a bot sees through the follow-up decisions of its own turn."""

from __future__ import annotations

import math
import random

import pytest

from domain.bots import GreedyBot, MCTSBot, make_bot
from domain.bots.base import command_key
from domain.bots.lookahead import NO_LOOKAHEAD, LookAhead, evaluate_through, play_out
from domain.bots.mcts import Node
from tests.domain.bots.opener_game import OpenerGame


def start(depth: int, seats: int = 2):
    rules = OpenerGame(depth)
    return rules, rules.fold(rules.setup(0, seats, {"rounds": 3}))


def after(rules, state, *types, seat=0):
    for kind in types:
        for event in rules.decide(state, {"type": kind}, seat, random.Random(0)):
            state = rules.evolve(state, event)
    return state


@pytest.mark.parametrize("depth", [1, 2, 4])
def test_play_out_reaches_the_seats_follow_up_decisions(depth):
    rules, state = start(depth)
    opened = after(rules, state, "open")
    played, count = play_out(rules, opened, 0, random.Random(0))
    # open, deeper x (depth - 1), then collect: the turn is played to its end, and no further.
    assert count == depth
    assert played.points == (3, 0) and played.opened == 0
    assert rules.to_act(played) == {1}
    assert evaluate_through(rules, opened, 0, random.Random(0)) == 3.0
    assert rules.evaluate(opened, 0) == 0.0


def test_play_out_stops_when_control_leaves_the_seat():
    rules, state = start(2)
    played, count = play_out(rules, state, 1, random.Random(0))
    assert played is state and count == 0  # seat 1 does not hold control
    done = after(rules, state, "take")
    assert play_out(rules, done, 0, random.Random(0)) == (done, 0)


def test_play_out_respects_its_horizon_and_budget():
    rules, state = start(4)
    opened = after(rules, state, "open")
    played, count = play_out(rules, opened, 0, random.Random(0), LookAhead(horizon=2))
    assert count == 2 and played.opened == 3 and played.points == (0, 0)
    played, count = play_out(rules, opened, 0, random.Random(0), LookAhead(horizon=9, budget=2, total=2))
    assert count == 2 and played.points == (0, 0)


def test_play_out_scores_only_decisions_with_a_choice():
    rules, state = start(4)
    opened = after(rules, state, "open")
    scored = []
    evaluate = rules.evaluate
    rules.evaluate = lambda st, seat: scored.append(st.opened) or evaluate(st, seat)
    played, count = play_out(rules, opened, 0, random.Random(0))
    # three forced `deeper` commands played unscored, then `drop` and `collect` compared
    assert count == 4 and played.points == (3, 0)
    assert scored == [0, 0]


class IgnoredDrops(OpenerGame):
    """Dropping a project scores nothing, so its position is valued as the one before it: the game says so
    (``Rules.evaluation_change`` 0.0), and records the commands it decides."""

    def __init__(self, depth: int, drops: int, collect_cost: float = 0.0) -> None:
        super().__init__(depth, drops)
        self.collect_cost = collect_cost
        self.decided: list[dict] = []

    def evaluation_change(self, state, command):
        return 0.0 if command["type"] == "drop" else None

    def command_cost(self, command):
        return self.collect_cost if command["type"] == "collect" else 0.0

    def decide(self, state, command, seat, rng):
        self.decided.append(command)
        return super().decide(state, command, seat, rng)


DROPS = [{"type": "drop", "pile": i} for i in range(3)]
COLLECT = {"type": "collect"}


@pytest.mark.parametrize(
    ("collect_cost", "chosen"),
    [(0.0, COLLECT), (10.0, DROPS[0]), (3.0, DROPS[0])],  # at 3.0 collect ties with the drops: the first wins
)
def test_play_out_scores_a_command_with_a_stated_change_from_the_position_before_it(collect_cost, chosen):
    """Three ways to drop and one to collect: the drops are valued once, by the position before them, and none
    is played unless it is chosen; the play-out reaches what scoring every candidate reaches."""
    rules = IgnoredDrops(1, 3, collect_cost)
    state = rules.fold(rules.setup(0, 2, {"rounds": 3}))
    opened = after(rules, state, "open")
    plain = IgnoredDrops(1, 3, collect_cost)
    plain.evaluation_change = lambda state, command: None
    plain_steps: list[dict] = []
    expected, expected_count = play_out(plain, opened, 0, random.Random(0), on_step=plain_steps.append)
    assert plain.decided == [*DROPS, COLLECT]
    rules.decided.clear()
    scored = []
    evaluate = rules.evaluate
    rules.evaluate = lambda st, seat: scored.append(st) or evaluate(st, seat)
    steps: list[dict] = []
    played, count = play_out(rules, opened, 0, random.Random(0), on_step=steps.append)
    assert (played, count) == (expected, expected_count) and steps == plain_steps == [chosen]
    assert played.points == ((3, 0) if chosen == COLLECT else (0, 0))
    assert scored[0] is opened and len(scored) == 2  # the position before the drops, and collect's
    assert rules.decided == ([COLLECT] if chosen == COLLECT else [COLLECT, chosen])


def test_play_out_stated_changes_wait_for_a_stop_like_any_candidate():
    """The budget and the clock stop the candidates the same way whether they are played or stated: a play-out
    out of budget after the first drop plays that drop."""
    rules = IgnoredDrops(1, 3, 0.0)
    state = rules.fold(rules.setup(0, 2, {"rounds": 3}))
    opened = after(rules, state, "open")
    rules.decided.clear()
    played, count = play_out(rules, opened, 0, random.Random(0), LookAhead(horizon=4, budget=1, total=1))
    assert count == 1 and played.points == (0, 0) and rules.decided == [DROPS[0]]
    checks = iter([False, True])
    played, count = play_out(rules, opened, 0, random.Random(0), should_stop=lambda: next(checks))
    assert count == 1 and played.points == (0, 0)  # the clock stopped it before collect was tried


def test_play_out_leaves_the_state_alone():
    rules, state = start(2)
    opened = after(rules, state, "open")
    snapshot = opened
    play_out(rules, opened, 0, random.Random(0))
    assert opened == snapshot and opened.opened == 1


@pytest.mark.parametrize("depth", [1, 3])
def test_greedy_opens_the_action_that_pays_later(depth):
    rules, state = start(depth)
    assert GreedyBot(1).choose(rules, state, 0) == {"type": "open"}
    # Without the look-ahead the opener looks worthless and the bot takes the single point.
    assert GreedyBot(1, look=NO_LOOKAHEAD).choose(rules, state, 0) == {"type": "take"}


def test_greedy_sees_no_further_than_its_horizon():
    rules, state = start(5)
    assert GreedyBot(1, look=LookAhead(horizon=3)).choose(rules, state, 0) == {"type": "take"}
    assert GreedyBot(1, look=LookAhead(horizon=5)).choose(rules, state, 0) == {"type": "open"}


def test_mcts_plays_out_the_seats_turn_at_the_rollout_cut_off():
    rules, state = start(3)
    # Two iterations, no rollout: each root child is scored once, at the cut-off.
    assert MCTSBot(1, iterations=2, rollout_depth=0).choose(rules, state, 0) == {"type": "open"}
    blind = MCTSBot(1, iterations=2, rollout_depth=0, look=NO_LOOKAHEAD, follow_through=None)
    assert blind.choose(rules, state, 0) == {"type": "take"}


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_levels_win_the_opener_game_against_a_one_ply_greedy(level):
    rules, state = start(2)
    wins = 0
    for seed in range(4):
        bots = [make_bot(level, seed), GreedyBot(seed, look=NO_LOOKAHEAD)]
        st = state
        while not rules.is_over(st):
            seat = min(rules.to_act(st))
            for event in rules.decide(st, bots[seat].choose(rules, st, seat), seat, random.Random(seed)):
                st = rules.evolve(st, event)
        wins += st.points[0] > st.points[1]
    assert wins == 4


def test_look_ahead_settings_are_checked():
    with pytest.raises(ValueError):
        LookAhead(horizon=-1)
    assert LookAhead(6, 400, 800).share(100).budget == 7
    assert LookAhead(6, 400, 800).share(2).budget == 399
    assert LookAhead(6, 100, 800).share(2).budget == 100


def test_greedy_out_of_time_scores_the_remaining_commands_without_play_out():
    rules, state = start(1)
    # "open" comes second in legal_commands: once should_stop is true it is scored as it stands.
    assert GreedyBot(1).choose(rules, state, 0, should_stop=lambda: True) == {"type": "take"}
    assert GreedyBot(1).choose(rules, state, 0, should_stop=lambda: False) == {"type": "open"}


def test_mcts_keeps_its_tree_between_its_own_consecutive_decisions():
    """Without a follow-through the tree searches the seat's next decisions itself, and keeps them."""
    rules, state = start(3)
    bot = MCTSBot(1, iterations=40, rollout_depth=0, follow_through=None)
    assert bot.choose(rules, state, 0, random.Random(1)) == {"type": "open"}
    assert bot.last_reused == 0
    opened = after(rules, state, "open")
    assert bot.choose(rules, opened, 0, random.Random(2)) == {"type": "deeper"}  # the only command
    assert bot.last_reused > 0
    deeper = after(rules, opened, "deeper")
    assert bot.choose(rules, deeper, 0, random.Random(3)) == {"type": "deeper"}
    deep = after(rules, deeper, "deeper")
    assert bot.choose(rules, deep, 0, random.Random(3)) == {"type": "collect"}
    assert bot.last_reused > 0  # the subtree under open, deeper, deeper was grown further
    assert bot.last_root is not None and bot.last_root.visits >= 40 + bot.last_reused


def test_a_greedy_follow_through_is_not_kept_for_the_next_decision():
    """After ``open`` the follow-through tries 16 candidates: twenty drops worth 2 are listed before ``collect``
    (3), so its pick is the first drop, and ``open`` (2) beats ``take`` (1). Searched, the next decision is
    ``collect``. Under ``open`` the tree holds only the greedy pick, with nearly all the visits: grown further, it
    would make the bot drop. It is not kept. With a plan (``plan_weight``) the greedy pick is the plan of the next
    decision (it goes on the seat's step: ``continuing``), which the search overturns."""
    rules = OpenerGame(1, drops=20, drop_points=2)
    state = rules.fold(rules.setup(0, 2, {"rounds": 3}))
    opened = after(rules, state, "open")
    bot = MCTSBot(1, iterations=60, rollout_depth=0)
    assert bot.choose(rules, state, 0, random.Random(1)) == {"type": "open"}
    assert bot.choose(rules, opened, 0, random.Random(2)) == {"type": "collect"}
    assert bot.last_reused == 0 and bot.last_plan is None
    planning = MCTSBot(1, iterations=100, rollout_depth=0, plan_weight=0.1)
    assert planning.choose(rules, state, 0, random.Random(1)) == {"type": "open"}
    assert planning.choose(rules, opened, 0, random.Random(2), continuing=True) == {"type": "collect"}
    assert planning.last_reused == 0 and planning.last_plan == {"type": "drop", "pile": 0}
    level = make_bot("medium", 1)
    assert level.choose(rules, state, 0, random.Random(1)) == {"type": "open"}
    assert level.choose(rules, opened, 0, random.Random(2)) == {"type": "collect"}
    assert isinstance(level, MCTSBot) and level.last_reused == 0

    # the subtree the follow-through made, kept all the same: its greedy pick outweighs the search
    keeping = MCTSBot(1, iterations=60, rollout_depth=0)
    keeping.choose(rules, state, 0, random.Random(1))
    root = keeping.last_root
    assert root is not None
    under = root.children[(0, command_key({"type": "open"}))]
    assert under.followed and list(under.children) == [(0, command_key({"type": "drop", "pile": 0}))]
    under.followed = False
    keeping._keep(rules, state, 0, {"type": "open"}, root)
    assert keeping.choose(rules, opened, 0, random.Random(2)) == {"type": "drop", "pile": 0}
    assert keeping.last_reused > 0


def test_the_follow_through_pick_decides_a_next_decision_the_search_finds_flat():
    """Drops score 3 like ``collect``: the next decision has 21 equally good commands. The follow-through valued
    ``open`` by the first drop, and with ``plan_weight`` that plan is played; searched with no plan (the default)
    the choice among the equals is the search's noise, another drop."""
    rules = OpenerGame(1, drops=20, drop_points=3)
    state = rules.fold(rules.setup(0, 2, {"rounds": 3}))
    opened = after(rules, state, "open")
    for seed in range(3):
        bot = MCTSBot(seed, iterations=100, rollout_depth=0, plan_weight=0.1)
        assert bot.choose(rules, state, 0, random.Random(1)) == {"type": "open"}
        assert bot.choose(rules, opened, 0, random.Random(2), continuing=True) == {"type": "drop", "pile": 0}
        assert bot.last_plan == {"type": "drop", "pile": 0}
        planless = MCTSBot(seed, iterations=100, rollout_depth=0)
        assert planless.choose(rules, state, 0, random.Random(1)) == {"type": "open"}
        assert planless.choose(rules, opened, 0, random.Random(2), continuing=True) != {"type": "drop", "pile": 0}
        assert planless.last_plan is None


def test_the_plan_comes_from_the_position_not_from_the_bot_that_moved_before():
    """A server builds a bot for every move: a new bot told that the decision goes on the seat's step finds the
    same plan and makes the same move as the bot that chose the step's first command."""
    rules = OpenerGame(1, drops=20, drop_points=3)
    state = rules.fold(rules.setup(0, 2, {"rounds": 3}))
    opened = after(rules, state, "open")
    kept = MCTSBot(4, iterations=100, rollout_depth=0, plan_weight=0.1)
    kept.choose(rules, state, 0, random.Random(1))
    new = MCTSBot(4, iterations=100, rollout_depth=0, plan_weight=0.1)
    assert new.choose(rules, opened, 0, random.Random(2), continuing=True) == kept.choose(
        rules, opened, 0, random.Random(2), continuing=True
    )
    assert new.last_plan == kept.last_plan == {"type": "drop", "pile": 0}


def test_an_endless_plan_weight_plays_the_plan_without_a_search():
    rules = OpenerGame(1, drops=20, drop_points=2)
    opened = after(rules, rules.fold(rules.setup(0, 2, {"rounds": 3})), "open")
    bot = MCTSBot(1, iterations=100, rollout_depth=0, plan_weight=math.inf)
    assert bot.choose(rules, opened, 0, random.Random(2), continuing=True) == {"type": "drop", "pile": 0}
    assert bot.last_plan == {"type": "drop", "pile": 0} and bot.last_iterations == 0
    # not going on its step: searched, and the search finds collect (3) above a drop (2)
    assert bot.choose(rules, opened, 0, random.Random(2)) == {"type": "collect"}
    assert bot.last_plan is None and bot.last_iterations == 100


def test_a_negative_plan_weight_is_refused():
    with pytest.raises(ValueError, match="plan_weight"):
        MCTSBot(1, plan_weight=-0.1)
    assert MCTSBot(1, plan_weight=0).plan_weight == 0


def test_no_plan_where_the_decision_does_not_go_on_the_seats_step():
    """The plan is the seat's own step going on: not after another seat moved (the caller says so), and not where
    the seat does not hold control alone."""
    rules, state = start(1)
    bot = MCTSBot(1, iterations=30, rollout_depth=0, plan_weight=0.1)
    assert bot.choose(rules, state, 0, random.Random(1)) == {"type": "open"}
    elsewhere = after(rules, after(rules, after(rules, state, "open"), "collect"), "take", seat=1)
    bot.choose(rules, elsewhere, 0, random.Random(2))
    assert bot.last_plan is None and bot.last_reused == 0
    assert bot._plan(rules, state, 1, ["x"], random.Random(3), None) == -1  # seat 1 is not to act


def test_mcts_starts_afresh_once_another_seat_has_acted():
    rules, state = start(1)
    bot = MCTSBot(1, iterations=30, rollout_depth=0)
    bot.choose(rules, state, 0, random.Random(1))
    elsewhere = after(rules, after(rules, state, "take"), "take", seat=1)  # both seats moved since
    bot.choose(rules, elsewhere, 0, random.Random(2))
    assert bot.last_reused == 0
    unrelated = MCTSBot(1, iterations=30, rollout_depth=0, reuse=False)
    unrelated.choose(rules, state, 0, random.Random(1))
    unrelated.choose(rules, after(rules, state, "open"), 0, random.Random(2))
    assert unrelated.last_reused == 0


def test_mcts_keeps_no_tree_after_a_move_that_hands_control_over():
    """``take`` ends the seat's turn: the next decision cannot follow straight from it, so nothing under it is
    kept (nor replayed to find that out), whatever the tree holds there."""
    rules, state = start(1)
    bot = MCTSBot(1, iterations=30, rollout_depth=0, follow_through=None)
    bot.choose(rules, state, 0, random.Random(1))
    root = bot.last_root
    assert root is not None
    under = root.children[(0, command_key({"type": "take"}))]
    assert under.children and all(seat == 1 for seat, _ in under.children)  # the other seat's replies
    bot._keep(rules, state, 0, {"type": "take"}, root)
    assert bot._kept is None
    bot._keep(rules, state, 0, {"type": "open"}, root)  # the seat goes on: kept
    assert bot._kept is not None


def test_play_out_stops_when_the_clock_runs_out():
    rules, state = start(4)
    opened = after(rules, state, "open")
    calls = []

    def should_stop():
        calls.append(1)
        return len(calls) >= 2  # time is up before the third candidate

    played, count = play_out(rules, opened, 0, random.Random(0), should_stop=should_stop)
    assert count == 2 and played.opened == 3  # two commands played, then the budget check stopped it
    assert play_out(rules, opened, 0, random.Random(0), should_stop=lambda: False)[1] == 4


def test_play_out_reports_each_command_it_plays_in_order():
    rules, state = start(3)
    seen = []
    played, count = play_out(rules, after(rules, state, "open"), 0, random.Random(0), on_step=seen.append)
    assert count == 3 and seen == [{"type": "deeper"}, {"type": "deeper"}, {"type": "collect"}]


def test_mcts_values_an_action_by_its_best_follow_ups_not_their_average():
    """``open`` leads to one follow-up worth 3 and nine worth 0: averaged over them it looks worse than
    ``take`` (1 point), although the seat chooses its own follow-ups. With ``follow_through`` a tree edge is
    the seat's whole step, played out greedily, so ``open`` is valued at its 3 points."""
    rules = OpenerGame(1, drops=9)
    state = rules.fold(rules.setup(0, 2, {"rounds": 3}))
    for seed in range(3):
        assert MCTSBot(seed, iterations=60, rollout_depth=0).choose(rules, state, 0) == {"type": "open"}
        averaged = MCTSBot(seed, iterations=60, rollout_depth=0, follow_through=None, follow_others=None)
        assert averaged.choose(rules, state, 0) == {"type": "take"}


def test_a_kept_subtree_counts_the_commands_of_its_steps():
    """Each root child counts the seat's commands in its step (at least its own), also a child kept from the
    previous move's tree: else the shorter-of-equals choice would take the kept one for the shortest."""
    rules, state = start(1)
    bot = MCTSBot(1, iterations=40, rollout_depth=0, follow_through=None)
    bot.choose(rules, state, 0, random.Random(1))
    bot.choose(rules, after(rules, state, "open"), 0, random.Random(2))
    assert bot.last_reused > 0
    root = bot.last_root
    assert root is not None and root.children
    for child in root.children.values():
        assert child.steps >= child.visits > 0


class CostlyOpener(OpenerGame):
    """``open`` and ``deeper`` cost their seat ``cost`` points beyond what they do (``Rules.command_cost``)."""

    def __init__(self, depth: int, cost: float) -> None:
        super().__init__(depth)
        self.cost = cost

    def command_cost(self, command):
        return self.cost if command["type"] in ("open", "deeper") else 0.0


class CostlyTake(OpenerGame):
    """``take`` costs ``cost`` points beyond what it does; a seat may also ``open`` (worth nothing at once)."""

    def __init__(self, cost: float) -> None:
        super().__init__(1)
        self.cost = cost

    def command_cost(self, command):
        return self.cost if command["type"] == "take" else 0.0


@pytest.mark.parametrize("depth", [1, 2])
@pytest.mark.parametrize(("cost", "best"), [(0.4, "open"), (10.0, "take")])
def test_every_bot_charges_a_command_its_declared_cost(depth, cost, best):
    """A project gains 2 points more than ``take``: at 0.4 a command it is still the better move, at 10 a
    command it is not, and every bot (the play-out, greedy, the search, the levels) weighs the cost."""
    rules = CostlyOpener(depth, cost)
    state = rules.fold(rules.setup(0, 2, {"rounds": 3}))
    bots = [GreedyBot(0), MCTSBot(0, iterations=80, rollout_depth=0), make_bot("easy", 0), make_bot("medium", 0)]
    for bot in bots:
        assert bot.choose(rules, state, 0, random.Random(1)) == {"type": best}, bot
    # the play-out charges the follow-ups it chooses between: a costly one loses to a free one of equal worth
    taken, _ = play_out(CostlyTake(cost), state, 0, random.Random(0), LookAhead(1, 10, 10))
    assert taken.points == ((1, 0) if cost < 1 else (0, 0))


def _node(root, *moves):
    node = root
    for seat, kind in moves:
        node = node.children[(seat, command_key({"type": kind}))]
    return node


def test_mcts_plays_the_opponents_steps_through_as_well():
    """An opponent's ``open`` leads to one follow-up worth 3 and nine worth 0. Left to the tree (each follow-up
    expanded once at random) the opponent's project looks worth little and the observer plans against an
    opponent that takes its single point; with ``follow_others`` the opponent's step is played out greedily,
    a chain ending in ``collect``, and the opponent's ``open`` is valued above its ``take``."""
    rules = OpenerGame(1, drops=9)
    state = rules.fold(rules.setup(0, 2, {"rounds": 1}))
    root = MCTSBot(0, iterations=200, rollout_depth=0).search(rules, state, 0, random.Random(0))
    mine = _node(root, (0, "open"), (0, "collect"))
    opened = _node(mine, (1, "open"))
    assert list(opened.children) == [(1, command_key({"type": "collect"}))]
    assert opened.mean(1) > _node(mine, (1, "take")).mean(1)

    blind = MCTSBot(0, iterations=200, rollout_depth=0, follow_others=None)
    root = blind.search(rules, state, 0, random.Random(0))
    opened = _node(root, (0, "open"), (0, "collect"), (1, "open"))
    assert len(opened.children) > 1  # the drops, expanded one by one


def _child(visits: int, mean: float, step_length: float) -> Node:
    node = Node(2)
    node.visits = visits
    node.totals = [mean * visits, (1 - mean) * visits]
    node.steps = round(step_length * visits)
    return node


def test_of_two_equally_good_moves_the_one_a_whole_command_shorter_is_played():
    """The shorter-of-equals rule (``tie``): a move within ``tie`` of the most visited one, with at least a
    quarter of its visits, is played instead when its step takes at least one command fewer on average."""
    bot = MCTSBot(1)
    top, short = _child(400, 0.50, 3.0), _child(200, 0.49, 1.0)
    assert bot._shortest_of_equals([top, short], 0, 0) == 1
    assert bot._shortest_of_equals([top, _child(200, 0.47, 1.0)], 0, 0) == 0  # not as good: 0.03 below
    assert bot._shortest_of_equals([top, _child(90, 0.50, 1.0)], 0, 0) == 0  # under a quarter of the visits
    # the shortest of several, then the most visited
    assert bot._shortest_of_equals([top, _child(150, 0.5, 2.0), short, _child(250, 0.5, 1.0)], 0, 0) == 3


def test_a_step_shorter_by_less_than_a_command_on_average_is_no_shorter():
    """Step lengths are averages over the visits (a step's length can depend on what the search sampled). A
    move whose steps average 9.4 commands against the most visited move's 9.6 is not a shorter line: the most
    visited move stays (before, the averages were rounded, 9 against 10, and a hard search in Amerigo gave up
    its most visited tile for another in about one decision of ten for such a difference)."""
    bot = MCTSBot(1)
    assert bot._shortest_of_equals([_child(400, 0.50, 9.6), _child(300, 0.495, 9.4)], 0, 0) == 0
    assert bot._shortest_of_equals([_child(400, 0.50, 9.6), _child(300, 0.495, 8.6)], 0, 0) == 1
    assert bot._shortest_of_equals([_child(400, 0.50, 2.0), _child(300, 0.495, 1.5)], 0, 0) == 0
