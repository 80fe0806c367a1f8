"""The work a change causes, in one place: bot turns, clock checks, webhooks, the end of a game, expiry.

A move writes this work into the outbox in the same transaction as its events (``work_for``); changes
made outside an append schedule it here (``after_change``). The sweeper and the dispatcher run it.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from eventstore.base import EventStore
from workers import clocks
from workers.game_model import LoadedGame
from workers.sweeper import dispatch_now, work_item

log = logging.getLogger(__name__)


class FollowUps:
    """A part of ``workers.games.GameService``: the outbox work a game needs, and scheduling it."""

    if TYPE_CHECKING:
        store: EventStore
        dispatcher: Any
        expiry_seconds: float

        def load(self, game_id: str) -> LoadedGame: ...

        def last_clock(self, game: LoadedGame) -> dict[str, Any] | None: ...

        def record_finish(self, game: LoadedGame) -> None: ...

    def work_for(self, game: LoadedGame, clock: dict[str, Any] | None) -> list[dict[str, Any]]:
        """The outbox entries a game in this state needs: its bot turn, its clock check, webhooks, its end."""
        stream = game.info.stream
        work = []
        if game.info.metadata.get("created_by"):
            work.append(work_item(f"webhooks:{stream}", "sync_webhooks", [stream]))
        if game.over:
            work.append(work_item(f"finish:{stream}", "finish_game", [stream]))
            return work
        if game.bot_seats_to_act():
            work.append(work_item(f"bot:{stream}", "play_bot_turn", [stream, game.version, game.generation]))
        # the seats the clock runs for that are still played by people: a seat handed to a bot has no time to lose
        running = [s for s in clock["running"] if game.seats[s]["kind"] == "human"] if clock else []
        flag = clocks.next_flag_fall({**clock, "running": running}) if clock and running else None
        if clock and flag is not None:
            delay = max(0.05, clock["since"] + flag - time.time() + 0.05)
            work.append(work_item(f"clock:{stream}", "check_clock", [stream, game.version, game.generation], delay))
        return work

    def expiry_work(self, stream: str, delay: float | None = None) -> list[dict[str, Any]]:
        """The game's expiry check, written once at creation: when it comes due it ends a game that had no
        event for ``expiry_seconds``, or puts itself off until that much time after the last event (so a
        move writes no expiry work of its own)."""
        if self.expiry_seconds <= 0:
            return []
        return [work_item(f"expiry:{stream}", "expire_game", [stream], self.expiry_seconds if delay is None else delay)]

    def schedule(self, work: list[dict[str, Any]]) -> None:
        """Store work in the outbox, then hand what is due now to the dispatcher (failures only logged)."""
        if work:
            self.store.put_outbox(work)
            dispatch_now(self.dispatcher, work)

    def schedule_deliveries(self, sub_ids: list[str]) -> None:
        """Send these subscriptions' queues now, but for one backing off after a failed send: its retry, already in
        the outbox for later, stays where it is (new events would otherwise bring it forward every time)."""
        from workers.webhooks import backing_off

        ready = [sub_id for sub_id in sub_ids if not backing_off(self.store, sub_id)]
        self.schedule([work_item(f"deliver:{sub_id}", "deliver_webhooks", [sub_id]) for sub_id in ready])

    def after_change(self, game: LoadedGame) -> None:
        """A change made outside an append (a timeout, an undo, a tournament's new table) schedules its work."""
        if game.over:
            self.record_finish(game)
        self.schedule(self.work_for(game, self.last_clock(game)))

    def schedule_bot_turn(self, game: LoadedGame) -> None:
        stream = game.info.stream
        self.schedule([work_item(f"bot:{stream}", "play_bot_turn", [stream, game.version, game.generation])])

    def pending_bot_turns(self, limit: int = 1000) -> list[Any]:
        """Games waiting for a bot: an indexed query over the outbox, not a scan of the games."""
        return self.store.list_outbox(job="play_bot_turn", limit=limit)

    def backfill_outbox(self, page: int = 500) -> int:
        """Write the outbox work of every active game that has none (once, after upgrading to the outbox:
        ``tradewinds migrate``); returns how many games got work."""
        pending = {e.key for e in self.store.list_outbox(limit=10**7)}
        written, offset = 0, 0
        while streams := self.store.list_streams(status="active", limit=page, offset=offset):
            offset += len(streams)
            for info in streams:
                has_work = any(f"{kind}:{info.stream}" in pending for kind in ("bot", "clock"))
                if has_work and f"expiry:{info.stream}" in pending:
                    continue
                try:
                    game = self.load(info.stream)
                    work = [] if has_work else self.work_for(game, self.last_clock(game))
                    work = [w for w in work + self.expiry_work(info.stream) if w["key"] not in pending]
                except Exception:
                    log.exception("could not load game %s", info.stream)
                    continue
                if work:
                    self.store.put_outbox(work)
                    written += 1
        return written

    def resume_pending_bots(self, limit: int = 1000) -> int:
        """Dispatch the pending bot turns that have no live job (at start-up; the sweeper does it later too)."""
        from workers.sweeper import as_entry

        queued = 0
        for entry in self.pending_bot_turns(limit):
            try:
                if self.dispatcher.is_live(entry):
                    continue
                self.dispatcher.dispatch(as_entry(entry))
                queued += 1
            except Exception as exc:
                log.warning("could not dispatch the bot turn %s: %s", entry.key, exc)
                break
        return queued
