"""The ``mcts`` bot: single-observer information-set Monte Carlo tree search (SO-ISMCTS).

One tree is grown for the deciding seat (the observer). Its nodes are histories of commands, keyed by
``(acting seat, canonical JSON of the command)``; states are never stored in the tree. Every
iteration:

1. **determinize**: sample the hidden information with ``rules.determinize(state, seat, rng)``, a world
   consistent with everything the observer knows (the real state is never planned on);
2. **select**: walk down the tree in that world. At each node the seat to move is the observer at the
   root and ``min(rules.to_act(world))`` below it (simultaneous steps are serialised in seat order).
   Only commands legal in this world are candidates; each candidate child's *availability* count is
   bumped and the child maximising UCB1 ``mean + c * sqrt(ln(availability) / visits)`` is taken, using
   the mean reward *of the seat that moves*.
   When a command in the tree leaves its seat alone in control (the seat's step goes on, as after
   Murano's ship move or during Puerto Rico's mayor phase), the seat plays its follow-up decisions
   greedily (``follow_through``, ``domain.bots.lookahead``): a tree edge is a whole step, valued by the
   best follow-ups the seat would choose and not by the average of random ones (which undervalued every
   action opened by a command worth nothing itself). The follow-ups are recorded as a chain of nodes, so
   the tree's histories stay the commands played and the observer's step is counted. Opponents play their
   steps through the same way (``follow_others``): with their follow-ups left to the tree, each expanded
   once at random, an opponent's action opened by a command worth nothing looked worth nothing, and the
   observer planned against opponents that pass (Murano: ``pass`` drew 2.6x the visits of ``move_ship``
   at an opponent's node);
3. **expand** one untried legal command (chosen by ``rng``);
4. **roll out** with uniformly random legal commands (a random acting seat at simultaneous steps) until
   the game is over or ``rollout_depth`` plies were played; at that cut-off the seat holding control
   plays out its own open turn greedily (``domain.bots.lookahead``, a small budget) before scoring;
5. **backpropagate** per-seat rewards in [0, 1] along the path. When the game is over they come from
   ``rules.result``: rank-based (a tie shares the positions it occupies) with a small score-normalised
   part (``score_weight``, see ``base.rank_rewards``). At the rollout cap they come from
   ``rules.evaluate``: a logistic of each seat's advantage (its value minus the mean of the others'),
   measured from that seat's advantage in the iteration's determinized root (``centred``: a position as
   good as the start scores 0.5 for everybody, so a leader's small gains are not flattened by its lead,
   and the sampled hidden information cancels out), on a scale that adapts to the changes seen in this
   search. A threat to every seat alike, which the advantages cannot show (``rules.peril``: Archipelago's
   independence, which everybody loses), scales those rewards down by its chance (a game that ended with no
   winner scores 0 for every seat). The observer pays for its first step: the ``rules.command_cost`` of its
   commands there (a cost the position does not show, such as a trade offer a person must answer) comes off
   its advantage, or off its reward in a finished game, as if it held that much less.

Random outcomes of ``decide`` (draws, dice) are re-sampled every iteration from ``rng`` (open-loop
search), so chance is averaged rather than branched on. The move played is the most visited legal root
command (ties: higher mean reward, then the order of ``legal_commands``), unless another root command is as
good (mean within ``tie``, at least a quarter of the visits) and its step takes at least one command fewer of the
seat's on average: of two lines equally good the shorter, so a trade offer opened and cancelled again (a tie with
doing nothing once the step is played through) is not played, and a waiting human sees no idle moves.

The plan (``plan_weight``): a decision that goes on the seat's own step (``choose(..., continuing=True)``: the
seat's previous command was the last one played, and the seat alone acts) was valued, when the search chose that
previous command, by the greedy follow-through's pick here. With a ``plan_weight`` (the bot's, or where that is
``None`` the game's ``Rules.plan_weight``; 0 or ``None`` has no plan), that pick (the plan, ``last_plan``: the
follow-through's first command, the most frequent over ``PLAN_WORLDS`` sampled worlds) counts ``plan_weight`` times
the search's iterations in extra visits, so a search of the decision overturns it only by a clear margin, and the
shorter-of-equals rule does not apply to it; ``math.inf`` plays it with no search. Without
it, a decision whose candidates are about equally good to the evaluation (Murano's paved spaces for a street) is
decided by the search's noise, not by the line the previous command was chosen for. The plan is computed from the
position, so a server that builds a bot for every move plays it as a bot kept for the whole game does.

Budget: at most ``iterations`` iterations, and fewer when the caller's ``should_stop()`` turns true
(checked before every iteration after the first). With the same seed/``rng`` and an iteration budget
(no clock), the same state (and ``continuing``) always gives the same move.

Tree reuse: after a move the bot keeps the subtree under the command it played, when a decision of the
seat follows in it (not after a command that handed control over in every sampled world). When its next
decision follows straight from that move (control never left the seat: the move replayed on the previous
state leaves the seat alone to act with the same view), the search grows that subtree further instead of
a new tree (``last_reused`` reports its visits). The protocol does not tell a bot what other seats did
since its last move, so after anybody else acted the tree starts afresh. ``reuse=False`` turns it off.
A subtree whose first commands are a greedy follow-through (``follow_through``: the seat kept control after
the command, so the search played its next decisions greedily instead of searching them) is not kept: its
children are the greedy picks, not a search's, and they hold nearly all its visits. Grown further, such a
subtree would make the next decision the greedy pick, which with a budget of candidates and the first of
equals is often the first legal command (Amerigo's ``end_action`` before any tile, frame space 0 for a ship),
instead of what a search of that decision finds. So with ``follow_through`` on (every level) a tree is not
reused: reuse, and ``last_reused``, matter only with ``follow_through=None``. What such a subtree held that a
fresh search lacks, the follow-through's pick, is the plan above.

Fast path (optional, never required): an iteration may mutate a private copy of its determinization
(tree descent and rollout) instead of calling the pure ``decide``/``evolve``, which copy the state at
every step. A rules object declares it in ``rules.capabilities`` (``domain.game.Capabilities``):

- ``play_in_place``: ``rules.play(state, command, seat, rng) -> events`` decides *and* applies in place, or
- ``apply_in_place``: ``rules.apply_in_place(state, event)`` folds one event in place, returning the new
  state or ``None``.

The private copy comes from ``rules.copy_state(state)`` (the protocol's default is a pickle round trip).
Either path gives exactly the same search as ``decide``/``evolve``; a test checks it for every game.
"""

from __future__ import annotations

import math
import random

from domain.bots.base import (
    Bot,
    InPlaceStepper,
    StopCheck,
    apply_command,
    command_key,
    copy_rng,
    evaluations,
    in_place_stepper,
    legal_or_raise,
    private_copy,
    seat_count,
    state_rewards,
)
from domain.bots.lookahead import LookAhead, holds_control, play_out
from domain.game import Command, IllegalCommand, Rules, State

# At the rollout cut-off the seat holding control plays out its own open turn before the position is
# scored, cheaply: a few commands, few candidates (every iteration pays for it).
MCTS_LOOKAHEAD = LookAhead(horizon=6, budget=60, total=60)
# The observer, when it keeps control after its command in the tree, finishes its step greedily, cheaper
# still (every tree edge of the observer may pay for it): ``follow_through``.
FOLLOW_THROUGH = LookAhead(horizon=6, budget=16, total=16)
# The other seats finish their steps in the tree the same way (``follow_others``). A smaller budget saves little
# (8 candidates instead of 16: 10-15% of a medium move) and picks the best of the first candidates only, which
# misses a good follow-up listed late in a wide decision.
FOLLOW_OTHERS = FOLLOW_THROUGH
# Root moves whose mean rewards are this close count as equally good: the shorter step is played (``tie``).
TIE = 0.02
# A plan (``plan_weight``) is the follow-through's most frequent pick over this many sampled worlds.
PLAN_WORLDS = 8


class Node:
    """Statistics of one history in the observer's tree."""

    __slots__ = ("visits", "avail", "totals", "children", "steps", "followed")

    def __init__(self, seats: int) -> None:
        self.visits = 0
        self.avail = 0
        self.totals = [0.0] * seats
        self.children: dict[tuple[int, str], Node] = {}
        # In the observer's first step: its commands from this node's on to the step's end, summed over the
        # visits (a root child's is its whole step; a node kept for reuse has its share when it becomes one).
        self.steps = 0
        # The command whose step a greedy follow-through finished (``MCTSBot._follow``): its children are the
        # follow-through's picks, not commands the search chose (so are the children of the chain below it).
        self.followed = False

    def mean(self, seat: int) -> float:
        return self.totals[seat] / self.visits if self.visits else 0.0


class MCTSBot(Bot):
    name = "mcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = 400,
        rollout_depth: int = 10,
        exploration: float = 0.25,
        score_weight: float = 0.1,
        look: LookAhead = MCTS_LOOKAHEAD,
        reuse: bool = True,
        centred: bool = True,
        follow_through: LookAhead | None = FOLLOW_THROUGH,
        follow_others: LookAhead | None = FOLLOW_OTHERS,
        tie: float | None = TIE,
        plan_weight: float | None = None,
    ) -> None:
        super().__init__(seed)
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1 (or None for a should_stop budget only)")
        if rollout_depth < 0:
            raise ValueError("rollout_depth must not be negative")
        if plan_weight is not None and plan_weight < 0:
            raise ValueError("plan_weight must not be negative (0: no plan; None: the game's)")
        self.iterations = iterations
        self.rollout_depth = rollout_depth
        self.exploration = exploration
        self.score_weight = score_weight
        self.look = look
        self.reuse = reuse
        self.centred = centred
        self.follow_through = follow_through
        self.follow_others = follow_others
        self.tie = tie
        self.plan_weight = plan_weight
        # Filled by every choose(): how much search was done, for benchmarks and debugging.
        self.last_iterations = 0
        self.last_reused = 0  # visits of the subtree kept from this bot's previous move (0: fresh tree)
        self.last_plan: Command | None = None  # the follow-through's pick for this decision, if it had one
        self.last_root: Node | None = None
        # After a move: (rules, state, seat, command, subtree under that command) for the next choose.
        self._kept: tuple[Rules, State, int, Command, Node | None] | None = None
        self._scale_total, self._scale_count = 0.0, 0

    def __repr__(self) -> str:
        return f"MCTSBot(seed={self.seed!r}, iterations={self.iterations!r}, rollout_depth={self.rollout_depth!r})"

    # -- public -------------------------------------------------------------------------------------

    def choose(
        self,
        rules: Rules,
        state: State,
        seat: int,
        rng: random.Random | None = None,
        should_stop: StopCheck | None = None,
        *,
        continuing: bool = False,
    ) -> Command:
        rng = self._rng(rng)
        legal = legal_or_raise(rules, state, seat)
        self.last_iterations = 0
        self.last_root = None
        self.last_plan = None
        kept = self._reusable_root(rules, state, seat, rng)
        self.last_reused = kept.visits if kept is not None else 0
        if len(legal) == 1:
            self._keep(rules, state, seat, legal[0], kept)
            return legal[0]
        keys = [command_key(command) for command in legal]
        plan = -1  # the index in ``legal`` of the plan, if this decision has one
        plan_weight = rules.plan_weight if self.plan_weight is None else self.plan_weight
        if continuing and plan_weight:
            plan = self._plan(rules, state, seat, keys, rng, should_stop)
            if plan >= 0:
                self.last_plan = legal[plan]
                if math.isinf(plan_weight):  # nothing could overturn it: no search
                    self._keep(rules, state, seat, legal[plan], kept)
                    return legal[plan]
        root = self.search(rules, state, seat, rng, should_stop, root=kept)
        children = [root.children.get((seat, key)) for key in keys]
        # the plan's extra visits: a share of the iterations done (under a clock, fewer than the budget)
        weight = plan_weight * self.last_iterations if plan >= 0 and plan_weight else 0.0
        best_index, best_rank = -1, (-1.0, -math.inf)
        for index, child in enumerate(children):
            if child is None:
                continue
            rank = (child.visits + (weight if index == plan else 0), child.mean(seat))
            if rank > best_rank:
                best_index, best_rank = index, rank
        if best_index >= 0 and best_index != plan and self.tie is not None:
            best_index = self._shortest_of_equals(children, best_index, seat)
        choice = rng.choice(legal) if best_index < 0 else legal[best_index]
        self._keep(rules, state, seat, choice, root)
        return choice

    def _plan(
        self,
        rules: Rules,
        state: State,
        seat: int,
        keys: list[str],
        rng: random.Random,
        should_stop: StopCheck | None,
    ) -> int:
        """The plan of a decision that goes on the seat's own step: the index in ``keys`` of the command a greedy
        follow-through (``follow_through``, as the search played the seat's previous command through) picks
        here, the most often over ``PLAN_WORLDS`` sampled worlds (ties: the first listed); -1 without one."""
        look = self.follow_through
        if look is None or not holds_control(rules, state, seat):
            return -1
        first = LookAhead(1, look.budget, look.total)  # the follow-through's pick at this decision only
        counts: dict[str, int] = {}
        for _ in range(PLAN_WORLDS):
            picked: list[Command] = []
            play_out(rules, rules.determinize(state, seat, rng), seat, rng, first, should_stop, picked.append)
            if picked:
                key = command_key(picked[0])
                counts[key] = counts.get(key, 0) + 1
        ranked = [(counts.get(key, 0), -index) for index, key in enumerate(keys)]
        best = max(ranked)
        return -best[1] if best[0] else -1

    def _shortest_of_equals(self, children: list[Node | None], best_index: int, seat: int) -> int:
        """Of the root moves as good as the most visited one (mean within ``tie``, at least a quarter of its
        visits), the one whose step takes the fewest commands of the seat (then the most visited), if that is at
        least one command fewer on average than the most visited move's: a step that opens something and closes
        it again, such as a trade offer opened and cancelled, ties with doing nothing once it is played through,
        and a waiting human should see no idle moves. A step's length is an average over its visits (what the
        search sampled can lengthen it), so a difference of less than a command is no shorter line."""
        top = children[best_index]
        assert top is not None and self.tie is not None
        floor = top.mean(seat) - self.tie

        def key(node: Node) -> tuple[float, int]:
            return node.steps / node.visits, -node.visits

        shorter = key(top)[0] - 1 + 1e-9  # a whole command fewer (the margin absorbs the division's rounding)
        best_key: tuple[float, int] | None = None
        for index, child in enumerate(children):
            if child is None or child.visits * 4 < top.visits or child.mean(seat) < floor:
                continue
            candidate = key(child)
            if candidate[0] <= shorter and (best_key is None or candidate < best_key):
                best_index, best_key = index, candidate
        return best_index

    # -- tree reuse -----------------------------------------------------------------------------------

    def _keep(self, rules: Rules, state: State, seat: int, command: Command, root: Node | None) -> None:
        """Keep the subtree under ``command`` for the next decision, unless no decision of the seat follows in it
        (the command handed control over in every world the search sampled: the subtree holds other seats' moves,
        which ``_reusable_root`` would refuse after replaying the command, or reuse to no effect, since no root
        move of the seat is among them). A subtree whose first commands a greedy follow-through played is not kept
        (its next decision was not searched, and its greedy pick would hold nearly all the visits)."""
        child = None if root is None else root.children.get((seat, command_key(command)))
        keep = (
            self.reuse
            and child is not None
            and not child.followed
            and any(mover == seat for mover, _ in child.children)
        )
        self._kept = (rules, state, seat, command, child) if keep else None

    def _reusable_root(self, rules: Rules, state: State, seat: int, rng: random.Random) -> Node | None:
        """The subtree under this bot's previous move, when this decision follows straight from it.

        The protocol hands a bot only the state, not what happened since its last move, so a subtree is
        reused only when control never left the seat: the previous move, replayed on the previous state,
        must leave ``seat`` alone to act with exactly the view it has now (a random outcome that came out
        differently, or any other seat's move in between, and the tree starts afresh)."""
        kept, self._kept = self._kept, None
        if kept is None:
            return None
        old_rules, old_state, old_seat, command, node = kept
        if old_rules is not rules or old_seat != seat or node is None or not node.children:
            return None
        try:
            expected = apply_command(rules, old_state, command, seat, copy_rng(rng))
        except IllegalCommand:
            return None
        if rules.is_over(expected) or rules.to_act(expected) != {seat}:
            return None
        if rules.view(expected, seat) != rules.view(state, seat):
            return None
        return node

    def search(
        self,
        rules: Rules,
        state: State,
        seat: int,
        rng: random.Random,
        should_stop: StopCheck | None = None,
        root: Node | None = None,
    ) -> Node:
        """Grow and return the observer's tree for ``seat`` (its root's children are the candidate moves).
        ``root``: a tree to grow further (kept from the previous move); the iteration budget is spent anew."""
        seats = max(seat_count(rules, state), seat + 1)
        if root is None or len(root.totals) != seats:
            root = Node(seats)
        limit = self.iterations if self.iterations is not None else (math.inf if should_stop else 400)
        fast = in_place_stepper(rules)
        self._scale_total, self._scale_count = 0.0, 0
        done = 0
        while done < limit:
            if done and should_stop is not None and should_stop():
                break
            self._iterate(rules, state, seat, root, seats, rng, fast, should_stop)
            done += 1
        self.last_iterations = done
        self.last_root = root
        return root

    # -- one iteration ------------------------------------------------------------------------------

    def _iterate(
        self,
        rules: Rules,
        state: State,
        seat: int,
        root: Node,
        seats: int,
        rng: random.Random,
        fast: InPlaceStepper | None,
        should_stop: StopCheck | None = None,
    ) -> None:
        world = rules.determinize(state, seat, rng)
        # Centred rewards: each seat's advantage is measured from where it stands in this same world.
        origin = self._advantages(rules, world, seats) if self.centred and not rules.is_over(world) else None
        if fast is not None:
            world = private_copy(rules, world)
        node = root
        path = [root]
        own = 0  # the observer's commands in its first step (nodes after the root), once that step ends
        first_step: list[Command] = []  # those commands, for their rules.command_cost
        c = self.exploration
        while True:
            if rules.is_over(world):
                break
            acting = rules.to_act(world)
            if not acting:
                break
            mover = seat if node is root and seat in acting else min(acting)
            if mover != seat and not own:
                own = len(path) - 1
            legal = rules.legal_commands(world, mover)
            if not legal:
                break
            children = node.children
            untried: list[tuple[tuple[int, str], Command]] = []
            best_child: Node | None = None
            best_command: Command | None = None
            best_value = -math.inf
            for command in legal:
                key = (mover, command_key(command))
                child = children.get(key)
                if child is None:
                    untried.append((key, command))
                    continue
                child.avail += 1
                if untried:
                    continue  # expanding anyway; availability still counts
                value = child.totals[mover] / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if value > best_value:
                    best_value, best_child, best_command = value, child, command
            if untried:
                key, command = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                child = Node(seats)
                child.avail = 1
                children[key] = child
                world = self._step(rules, world, command, mover, rng, fast)
                path.append(child)
                mine = first_step if mover == seat and not own else None
                world = self._follow(
                    rules, world, seat, mover, command, child, seats, path, rng, fast, should_stop, mine
                )
                break
            assert best_child is not None and best_command is not None
            world = self._step(rules, world, best_command, mover, rng, fast)
            path.append(best_child)
            node = best_child
            mine = first_step if mover == seat and not own else None
            world = self._follow(
                rules, world, seat, mover, best_command, node, seats, path, rng, fast, should_stop, mine
            )
            node = path[-1]
        world = self._rollout(rules, world, rng, fast)
        # the observer pays the rules.command_cost of its first step (its part played at the cut-off too)
        charge = (seat, sum(map(rules.command_cost, first_step)) if first_step else 0.0, not own)
        rewards = self._rewards(rules, world, seats, rng, should_stop, origin, charge)
        own = own or len(path) - 1
        for depth in range(1, own + 1):
            path[depth].steps += own - depth + 1  # this node's command and the rest of the step after it
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for s in range(seats):
                totals[s] += rewards[s]

    @staticmethod
    def _step(
        rules: Rules, world: State, command: Command, seat: int, rng: random.Random, fast: InPlaceStepper | None
    ) -> State:
        if fast is None:
            return apply_command(rules, world, command, seat, rng)
        return fast.step(world, command, seat, rng)

    def _follow(
        self,
        rules: Rules,
        world: State,
        seat: int,
        mover: int,
        command: Command,
        node: Node,
        seats: int,
        path: list[Node],
        rng: random.Random,
        fast: InPlaceStepper | None,
        should_stop: StopCheck | None,
        record: list[Command] | None = None,
    ) -> State:
        """After ``mover`` played ``command`` in the tree (``node``): the seat, when it still holds control,
        plays its follow-up decisions greedily (``play_out`` with ``follow_through`` when it is the observer
        ``seat``, ``follow_others`` otherwise; ``None`` leaves them to the tree), so a tree edge is a whole step
        of that seat. The follow-ups are recorded as a chain of nodes under ``node`` (appended to ``path``), which
        is marked ``followed`` (such a subtree is not kept for the next decision: see ``_keep``).
        ``record``: a list ``command`` and the follow-ups are appended to (the observer's first step)."""
        if record is not None:
            record.append(command)
        look = self.follow_through if mover == seat else self.follow_others
        if look is None or not holds_control(rules, world, mover):
            return world
        played: list[Command] = []
        world, count = play_out(rules, world, mover, rng, look, should_stop, on_step=played.append)
        if record is not None:
            record.extend(played)
        if played:
            node.followed = True
        for command in played:
            key = (mover, command_key(command))
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node(seats)
            child.avail += 1
            path.append(child)
            node = child
        if count and fast is not None:
            world = private_copy(rules, world)  # play_out's states are the pure path's; the fast path mutates
        return world

    def _rollout(self, rules: Rules, world: State, rng: random.Random, fast: InPlaceStepper | None) -> State:
        for _ in range(self.rollout_depth):
            if rules.is_over(world):
                break
            acting = rules.to_act(world)
            if not acting:
                break
            mover = min(acting) if len(acting) == 1 else rng.choice(sorted(acting))
            legal = rules.legal_commands(world, mover)
            if not legal:
                break
            command = legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]
            world = self._step(rules, world, command, mover, rng, fast)
        return world

    @staticmethod
    def _advantages(rules: Rules, world: State, seats: int) -> list[float]:
        """Each seat's heuristic value minus the mean of the others'."""
        values = evaluations(rules, world, seats)
        if seats == 1:
            return values
        total = sum(values)
        return [v - (total - v) / (seats - 1) for v in values]

    def _rewards(
        self,
        rules: Rules,
        world: State,
        seats: int,
        rng: random.Random | None = None,
        should_stop: StopCheck | None = None,
        origin: list[float] | None = None,
        charge: tuple[int, float, bool] | None = None,
    ) -> list[float]:
        """Per-seat rewards in [0, 1]: rank-based from ``result`` when over; otherwise a logistic of each
        seat's heuristic advantage (its ``evaluate`` minus the mean of the others'), on a scale that
        adapts to the magnitudes seen in this search, so small gains still register for the leader.
        Before scoring a cut-off position, the one seat holding control plays out its own open turn
        (``lookahead.play_out`` with ``self.look``), so a half-done action is scored by what it brings.
        ``charge``: (seat, cost, open): ``cost`` in ``evaluate``'s units (``rules.command_cost`` of the seat's
        commands; with those it plays out here when ``open``, its charged step not yet ended) is taken off that
        seat's advantage, or off its reward when the game is over (so a charged reward may fall below 0)."""
        charged, cost, still_open = charge if charge is not None else (-1, 0.0, False)
        if not rules.is_over(world) and self.look.horizon:
            acting = rules.to_act(world)
            if len(acting) == 1:
                mover = next(iter(acting))
                played: list[Command] = []
                world, _ = play_out(rules, world, mover, rng or random.Random(0), self.look, should_stop, played.append)
                if still_open and mover == charged:
                    cost += sum(map(rules.command_cost, played))
        # a cost is as if the seat held that much less: its evaluate falls by ``cost`` and, each seat's evaluate
        # being relative to the others', theirs rise by ``cost / (n - 1)`` on average (2 seats: exactly ``cost``)
        drop = cost * seats / (seats - 1) if seats > 1 else cost
        if rules.is_over(world):
            rewards = state_rewards(rules, world, seats, self.score_weight)
            rewards = rewards + [0.0] * (seats - len(rewards)) if len(rewards) < seats else rewards
            if drop:  # a finished game is scored by its ranks: the cost weighs as it would at an even position
                rewards[charged] -= 0.25 * drop / self._scale()
            return rewards
        advantages = self._advantages(rules, world, seats)
        if origin is not None:
            advantages = [a - o for a, o in zip(advantages, origin, strict=True)]
        if drop:
            advantages[charged] -= drop
        for a in advantages:
            self._scale_total += abs(a)
        self._scale_count += seats
        scale = self._scale()
        rewards = [1.0 / (1.0 + math.exp(max(-60.0, min(60.0, -a / scale)))) for a in advantages]
        # a threat to every seat alike (``rules.peril``) cancels out of the advantages: weigh it in here, as the
        # chance of an ending that every seat loses but its winners (if any) win
        chance, winners = rules.peril(world)
        if chance > 0.0:
            keep = 1.0 - min(chance, 1.0)
            rewards = [r * keep for r in rewards]
            for s in winners:
                if s < seats:
                    rewards[s] += 1.0 - keep
        return rewards

    def _scale(self) -> float:
        """The advantage that moves a reward from 0.5 to about 0.73: the mean size of those seen in this search."""
        return self._scale_total / self._scale_count if self._scale_count and self._scale_total else 1.0
