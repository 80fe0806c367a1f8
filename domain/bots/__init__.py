"""Bots that play any Tradewinds game through the ``Rules`` protocol only (``domain.game``).

Interface: ``Bot.choose(rules, state, seat, rng=None, should_stop=None, *, continuing=False) -> Command``.

- ``state`` is the complete state (workers hold the truth); a bot uses only what ``seat`` may know:
  look-ahead bots plan on ``rules.determinize(state, seat, rng)``, never on the real hidden parts.
- ``rng`` (a ``random.Random``) makes the choice reproducible. Workers should pass one derived from
  the game, e.g. ``domain.rng.rng_for(game_seed, version, f"bot:{seat}")``, so a retried job picks the
  same move; when ``None`` the bot's own generator (seeded by ``make_bot``) is used.
- ``should_stop`` is an optional zero-argument callable supplied by the caller to enforce a
  wall-clock budget (domain code never reads the clock). ``mcts`` consults it between iterations
  (after the first), ``greedy`` before each play-out (later commands are then scored without one), so
  with a time budget the move can depend on machine speed; without one it is fully deterministic.
- ``continuing`` says that the seat's own command was the last one played (nobody else acted since), so the
  decision goes on the seat's step: a search keeps to the plan it chose that step by, where the game asks for
  one (``Rules.plan_weight``, ``domain.bots.mcts``). Callers know it from the game's history (``tradewinds
  simulate`` from the last mover, a worker from the last stored event); the state alone does not say.
- ``choose`` raises ``NoLegalCommand`` when ``seat`` has nothing legal to do.

Bots (``make_bot(name, seed)`` accepts these names, the levels below and ``mcts:<iterations>[:<rollout depth>]``):

- ``random``: uniform over ``legal_commands``.
- ``greedy``: one decision on a determinization; each legal command is decided with a copy of the same
  generator, folded with ``evolve``, played out through the seat's own turn (``domain.bots.lookahead``:
  the seat's follow-up decisions while control stays with it, bounded) and scored by
  ``rules.evaluate(state, seat)``; ties by the shortest play-out, then ``rng``.
- ``mcts``: single-observer information-set MCTS (see ``domain.bots.mcts``): a determinization per
  iteration, UCB1 (c = 0.25) with availability counts, random rollouts capped at ``rollout_depth``
  plies (default 10; then the seat holding control plays out its own turn and a logistic of each seat's
  ``evaluate`` advantage scores the position), rank-based per-seat
  rewards at the end of the game. Simultaneous steps are serialised in seat order inside the tree.
  Uses the in-place fast path a game declares in ``rules.capabilities`` (``play`` / ``apply_in_place``).

Levels (``LEVELS``; the time budget is enforced by the worker through ``should_stop``, the iteration
budget by the bot; whichever runs out first ends the search). The levels' MCTS does no random
rollout: each new leaf is scored where the tree ends, after the seat holding control has played out its
own turn; with 10-ply random rollouts, ``mcts:100`` lost 4 games of 4 to ``easy`` in Murano (2 seats):

=========  ========  ==========  ===========  =============  ======================================
level      bot       iterations  time budget  rollout depth  meant for
=========  ========  ==========  ===========  =============  ======================================
random     random    --          --           --             filling seats, smoke tests
easy       greedy    1 decision  150 ms       own turn       beginners; under 0.2 s
medium     mcts      300         900 ms       0 plies        casual play; at most 1 s
hard       mcts      2000        4700 ms      0 plies        strongest offered; at most 5 s
=========  ========  ==========  ===========  =============  ======================================
"""

from domain.bots.base import Bot, NoLegalCommand, StopCheck, command_key
from domain.bots.greedy import GreedyBot
from domain.bots.levels import BOT_NAMES, LEVELS, Level, make_bot, policy_names
from domain.bots.mcts import MCTSBot
from domain.bots.random_bot import RandomBot

__all__ = [
    "BOT_NAMES",
    "LEVELS",
    "Bot",
    "GreedyBot",
    "Level",
    "MCTSBot",
    "NoLegalCommand",
    "RandomBot",
    "StopCheck",
    "command_key",
    "make_bot",
    "policy_names",
]
