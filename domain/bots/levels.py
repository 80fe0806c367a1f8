"""Bot levels and the policy names accepted everywhere (API, workers, ``tradewinds simulate``)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.bots.base import Bot
from domain.bots.greedy import GreedyBot
from domain.bots.mcts import MCTSBot
from domain.bots.planned import PlanBot
from domain.bots.random_bot import RandomBot


@dataclass(frozen=True)
class Level:
    """One difficulty level: which bot, its iteration budget and the wall-clock budget workers enforce.

    ``time_budget_ms`` is not read by domain code (it has no clock): a worker turns it into a
    ``should_stop`` callable. ``None`` means the bot needs no time budget.
    """

    name: str
    bot: str
    iterations: int | None
    time_budget_ms: int | None
    rollout_depth: int
    description: str


LEVELS: dict[str, Level] = {
    "random": Level("random", "random", None, None, 0, "uniformly random legal commands"),
    "easy": Level("easy", "greedy", None, 150, 0, "greedy: one decision, played out through the seat's own turn"),
    "medium": Level("medium", "mcts", 300, 900, 0, "ISMCTS over played-out turns, small budget"),
    "hard": Level("hard", "mcts", 2000, 4700, 0, "ISMCTS over played-out turns, larger budget"),
}

# Plain bot names; "mcts" alone uses MCTSBot's defaults, "mcts:N" sets N iterations and "mcts:N:D" also
# the rollout depth cap D.
BOT_NAMES: tuple[str, ...] = ("random", "greedy", "mcts")

DEFAULT_MCTS_ITERATIONS = 400
# Bounds of mcts:<iterations>[:<rollout depth>]: far above any level (hard searches 2,000), below a search that
# would not end in a day.
MAX_MCTS_ITERATIONS = 1_000_000
MAX_ROLLOUT_DEPTH = 10_000


def policy_names() -> list[str]:
    """Every accepted name: the bot names and the levels (plus ``mcts:<iterations>[:<rollout depth>]``)."""
    return list(dict.fromkeys([*BOT_NAMES, *LEVELS]))


def make_bot(level: str, seed: int | None = None) -> Bot:
    """Build a bot from a level (``random``, ``easy``, ``medium``, ``hard``), a bot name (``random``,
    ``greedy``, ``mcts``), ``mcts:<iterations>[:<rollout depth>]`` or ``plan:<plan>`` (a strategy bot of
    ``domain.bots.planned``, for measurements; not a level). ``seed`` seeds the bot's own generator (used when
    ``choose`` is called without an explicit ``rng``). Bots built from a level carry its ``budget_ms`` for the
    caller to enforce with ``should_stop``. Raises ``ValueError`` for an unknown name."""
    name = level.strip().lower()
    if name in LEVELS:
        spec = LEVELS[name]
        bot: Bot
        if spec.bot == "random":
            bot = RandomBot(seed)
        elif spec.bot == "greedy":
            bot = GreedyBot(seed)
        else:
            bot = MCTSBot(seed, iterations=spec.iterations, rollout_depth=spec.rollout_depth)
        bot.budget_ms = spec.time_budget_ms
        return bot
    if name == "greedy":
        return GreedyBot(seed)
    if name.startswith("plan:"):
        return PlanBot(name[len("plan:") :], seed)
    if name == "mcts":
        return MCTSBot(seed, iterations=DEFAULT_MCTS_ITERATIONS)
    if name.startswith("mcts:"):
        parts = name.split(":")[1:]
        try:
            numbers = [int(p) for p in parts]
        except ValueError:
            numbers = []
        if (
            len(numbers) not in (1, 2)
            or not 1 <= numbers[0] <= MAX_MCTS_ITERATIONS
            or (len(numbers) == 2 and not 0 <= numbers[1] <= MAX_ROLLOUT_DEPTH)
        ):
            raise ValueError(
                f"bad bot name {level!r}: use mcts:<iterations>[:<rollout depth>], iterations 1 to "
                f"{MAX_MCTS_ITERATIONS:,}, rollout depth 0 to {MAX_ROLLOUT_DEPTH:,}"
            )
        if len(numbers) == 2:
            return MCTSBot(seed, iterations=numbers[0], rollout_depth=numbers[1])
        return MCTSBot(seed, iterations=numbers[0])
    raise ValueError(
        f"unknown bot or level {level!r}; known: {', '.join(policy_names())}, mcts:<iterations>[:<rollout depth>]"
        " or plan:<plan>"
    )
