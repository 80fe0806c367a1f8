"""Job functions run by RQ workers or the in-process runner. Each is idempotent.

``play_bot_turn(game_id, expected_version)`` reloads the game, returns quietly if the version moved
(the job is stale: a duplicate, a retry, or the game was undone), asks the seat's bot for a move and
appends it with the expected version, so two copies of one job can never both play.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from domain.bots import make_bot
from domain.rng import rng_for

log = logging.getLogger(__name__)

# Extra time a bot may take beyond its level's budget before its move is cut short.
BUDGET_MARGIN_MS = 250

_runtime: Any = None


def set_runtime(runtime: Any) -> None:
    """Install the runtime (store + service) used by jobs in this process."""
    global _runtime
    _runtime = runtime


def get_runtime() -> Any:
    global _runtime
    if _runtime is None:
        from workers.runtime import Runtime

        _runtime = Runtime.from_environment(dispatcher="rq")
    return _runtime


def play_bot_turn(game_id: str, expected_version: int, expected_generation: int | None = None) -> str:
    from workers.games import GameError

    service = get_runtime().service
    game = service.load(game_id)
    if game.version != expected_version or expected_generation not in (None, game.generation):
        return "stale"
    bots = game.bot_seats_to_act()
    if not bots:
        return "no bot to act"
    seat = bots[0]
    level = game.seats[seat]["level"]
    seed = game.info.metadata["seed"]
    command = choose_move(game.rules, game.state, seat, level, rng_for(seed, game.version, f"bot{seat}"))
    try:
        service.submit(game_id, seat, [command], if_match=[game.etag], actor="bot")
    except GameError as exc:
        if exc.code == "stale_version":
            return "stale"
        raise
    return "played"


def choose_move(rules: Any, state: Any, seat: int, level: str, rng: Any) -> dict:
    """Ask the level's bot, within its time budget; a bot that fails falls back to a random move."""
    bot = make_bot(level, rng.getrandbits(63))
    budget_ms = getattr(bot, "budget_ms", None)
    deadline = None if budget_ms is None else time.monotonic() + budget_ms / 1000.0

    def should_stop() -> bool:
        return deadline is not None and time.monotonic() >= deadline

    try:
        command = bot.choose(rules, state, seat, rng, should_stop=should_stop)
        if command in rules.legal_commands(state, seat):
            return command
        log.error("bot %s chose an illegal move %r; playing a random move instead", level, command)
    except Exception:
        log.exception("bot %s failed; playing a random move instead", level)
    return make_bot("random", 0).choose(rules, state, seat, rng)


def sync_webhooks(game_id: str) -> int:
    """Turn a game's new events into webhook events (one process at a time per game), then deliver."""
    from workers import webhooks

    runtime = get_runtime()
    with runtime.dispatcher.lock(f"webhook-sync:{game_id}"):
        touched = webhooks.sync_game(runtime.service, game_id)
    for sub_id in touched:
        runtime.dispatcher.enqueue("deliver_webhooks", sub_id)
    return len(touched)


def deliver_webhooks(sub_id: str) -> int:
    """Send a subscription's queue in order; on failure, try again later with exponential back-off."""
    from workers import webhooks

    runtime = get_runtime()
    with runtime.dispatcher.lock(f"webhook-deliver:{sub_id}"):
        sent, retry_in = webhooks.deliver(runtime.store, sub_id)
    if retry_in is not None:
        runtime.dispatcher.enqueue_in(retry_in, "deliver_webhooks", sub_id)
    return sent


def check_clock(game_id: str, version: int, generation: int) -> list[int]:
    """Scheduled at a clock's earliest flag-fall: seats out of time get the game's timeout policy."""
    return get_runtime().service.check_clock(game_id, version, generation)


def advance_tournament(tournament_id: str) -> str:
    """A tournament game finished: record it, and start the next round or close the tournament."""
    from workers.tournaments import Tournaments

    runtime = get_runtime()
    with runtime.dispatcher.lock(f"tournament:{tournament_id}", timeout=300):
        return Tournaments(runtime.service).advance(tournament_id)
