"""Job functions run by RQ workers or the in-process runner. Each is idempotent.

``play_bot_turn(game_id, expected_version)`` reloads the game, returns quietly if the version moved
(the job is stale: a duplicate, a retry, or the game was undone), asks the seat's bot for a move and
appends it with the expected version, so two copies of one job can never both play.
"""

from __future__ import annotations

import logging
import time
from contextlib import nullcontext
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
    from workers import metrics

    with metrics.bot_turn() as turn:
        turn["outcome"] = _play_bot_turn(game_id, expected_version, expected_generation)
    return turn["outcome"]


def _play_bot_turn(game_id: str, expected_version: int, expected_generation: int | None) -> str:
    from workers.game_model import GameError

    service = get_runtime().service
    game = service.load(game_id)
    if game.version != expected_version or expected_generation not in (None, game.generation):
        return "stale"
    bots = game.bot_seats_to_act()
    if not bots:
        return "no bot to act"
    from workers import bot_tables

    if bot_tables.pause_if_idle(service.store, game_id, game.version, game.generation):
        return "paused"  # nobody watches: the next look at the game resumes it
    seat = bots[0]
    level = game.seats[seat]["level"]
    seed = game.info.metadata["seed"]
    rng = rng_for(seed, game.version, f"bot{seat}")
    # the seat's own command stored the last event (no other seat's move, no platform event such as an undo vote or a
    # timeout after it): this decision goes on the seat's step (``Bot.choose``)
    continuing = game.facts.last_mover == seat
    command = choose_move(game.rules, game.state, seat, level, rng, continuing=continuing)
    try:
        service.submit(game_id, seat, [command], if_match=[game.etag], actor="bot", loaded=game)
    except GameError as exc:
        if exc.code == "stale_version":
            return "stale"
        raise
    return "played"


def choose_move(rules: Any, state: Any, seat: int, level: str, rng: Any, continuing: bool = False) -> dict[str, Any]:
    """Ask the level's bot, within its time budget; a bot that fails falls back to a random move.
    ``continuing``: the seat's own command was the last one played (``Bot.choose``)."""
    bot = make_bot(level, rng.getrandbits(63))
    budget_ms = getattr(bot, "budget_ms", None)
    deadline = None if budget_ms is None else time.monotonic() + budget_ms / 1000.0

    def should_stop() -> bool:
        return deadline is not None and time.monotonic() >= deadline

    try:
        command = bot.choose(rules, state, seat, rng, should_stop=should_stop, continuing=continuing)
        if command in rules.legal_commands(state, seat):
            return command
        log.error("bot %s chose an illegal move %r; playing a random move instead", level, command)
    except Exception:
        log.exception("bot %s failed; playing a random move instead", level)
    return make_bot("random", 0).choose(rules, state, seat, rng)


JOBS = frozenset(
    {
        "play_bot_turn",
        "check_clock",
        "expire_game",
        "finish_game",
        "resume_game",
        "advance_tournament",
        "sync_webhooks",
        "deliver_webhooks",
        "redeliver_webhook",
    }
)


def run_entry(key: str, token: str, job: str, args: list[Any]) -> str:
    """Run one outbox entry's job, then complete the entry (unless the job asked to be run again later)."""
    from eventstore.base import StoreUnavailable
    from workers import metrics
    from workers.sweeper import RetryLater, work_item

    if job not in JOBS:
        raise ValueError(f"unknown job {job!r}")
    runtime = get_runtime()
    with runtime.dispatcher.heartbeat(token):
        try:
            outcome = globals()[job](*args)
        except RetryLater as later:
            runtime.service.schedule([work_item(key, job, args, delay=later.delay)])
            return "retry later"
        except StoreUnavailable:
            metrics.store_error("job")
            raise
    runtime.store.complete_outbox(key, token)
    return str(outcome)


def sync_webhooks(game_id: str) -> int:
    """Turn a game's new events into webhook events (one job at a time per game), then deliver them."""
    from workers import webhooks

    runtime = get_runtime()
    with runtime.dispatcher.try_lock(f"webhook-sync:{game_id}"):
        touched = webhooks.sync_game(runtime.service, game_id)
    runtime.service.schedule_deliveries(touched)
    return len(touched)


def deliver_webhooks(sub_id: str) -> int:
    """Send a subscription's queue in order (one job at a time per subscription, never waiting for another).

    A failed send retries later with exponential back-off; a long queue continues in the next job.
    """
    from workers import webhooks
    from workers.sweeper import RetryLater

    runtime = get_runtime()
    with runtime.dispatcher.try_lock(f"webhook-deliver:{sub_id}"):
        sent, retry_in = webhooks.deliver(
            runtime.store, sub_id, max_sends=webhooks.SENDS_PER_JOB, max_seconds=webhooks.SECONDS_PER_JOB
        )
    if retry_in is not None:
        raise RetryLater(retry_in)
    return sent


def redeliver_webhook(sub_id: str, message_id: str) -> bool:
    """Send one delivery again (asked for through the API), in turn with the subscription's other sends."""
    from workers import webhooks

    runtime = get_runtime()
    with runtime.dispatcher.try_lock(f"webhook-deliver:{sub_id}"):
        entry = webhooks.redeliver(runtime.store, sub_id, message_id)
    if entry is not None and entry["status"] == "delivered":
        runtime.service.schedule_deliveries([sub_id])  # a queue held up behind it goes on now
    return entry is not None


def check_clock(game_id: str, version: int, generation: int) -> list[int]:
    """Scheduled at a clock's earliest flag-fall: seats out of time get the game's timeout policy."""
    seats: list[int] = get_runtime().service.check_clock(game_id, version, generation)
    return seats


def expire_game(game_id: str) -> str:
    """A game's expiry check: an idle game ends as abandoned, an active one is checked again later."""
    from workers.sweeper import RetryLater

    outcome = get_runtime().service.expire(game_id)
    if isinstance(outcome, float):
        raise RetryLater(outcome)
    return str(outcome)


def resume_game(game_id: str) -> str:
    """The work a change made outside an append causes, written again from the game as it is now (its bot turn,
    clock, webhooks, end), and a rated result the undo took back retracted: an undo writes this before it
    truncates, so what its truncation causes is not lost to a store that failed between the truncation and the
    writes after it. Harmless when it was written: the same entries again, and a bot turn for a version already
    played is stale."""
    from workers.history import History

    runtime = get_runtime()
    game = runtime.service.load(game_id)
    tournament_id = game.info.metadata.get("tournament_id")
    # a retraction rewrites the tournament's record: in turn with its advance (``RetryLater`` while that runs)
    with runtime.dispatcher.try_lock(f"tournament:{tournament_id}") if tournament_id else nullcontext():
        History(runtime.service).retract_taken_back(runtime.service.load(game_id))
    runtime.service.after_change(game)
    return "resumed"


def finish_game(game_id: str) -> str:
    """A game ended: its status, rated result and tournament follow (also after a crash right after the move)."""
    runtime = get_runtime()
    game = runtime.service.load(game_id)
    if not game.over:
        return "not over"
    runtime.service.record_finish(game)
    tournament_id = game.info.metadata.get("tournament_id")
    if tournament_id:
        return advance_tournament(tournament_id)
    return "finished"


def advance_tournament(tournament_id: str) -> str:
    """A tournament game finished: record it, and start the next round or close the tournament."""
    from workers.tournaments import Tournaments

    runtime = get_runtime()
    with runtime.dispatcher.try_lock(f"tournament:{tournament_id}"):
        return Tournaments(runtime.service).advance(tournament_id)
