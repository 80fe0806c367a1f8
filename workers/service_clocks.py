"""The game service's clock duties: the clock a move carries, flag-falls and their timeout policy.

The clock's arithmetic is ``workers.clocks``; this is what the service does with it (docs/facts.md).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from eventstore.base import EventStore
from workers import clocks, facts
from workers.game_model import GameError, LoadedGame


class ClockDuties:
    """A part of ``workers.games.GameService``: reading and advancing a game's clock, and timing out seats."""

    if TYPE_CHECKING:
        store: EventStore

        def load(self, game_id: str) -> LoadedGame: ...

        def append_facts(
            self, game: LoadedGame, events: list[dict[str, Any]], actor: str, seat: int | None
        ) -> LoadedGame: ...

        def after_change(self, game: LoadedGame) -> None: ...

    def last_clock(self, game: LoadedGame) -> dict[str, Any] | None:
        if not game.info.metadata.get("clock") or game.version == 0:
            return None
        return self.store.read(game.info.stream, game.version, game.version)[0].meta.get("clock")

    def _clock_after_move(self, game: LoadedGame, seat: int, state_after: Any) -> dict[str, Any]:
        config = game.info.metadata["clock"]
        clock = self.last_clock(game)
        now = time.time()
        if clock is None:
            clock = clocks.initial(config, game.seats, game.rules.to_act(game.state), now)
        if game.seats[seat]["kind"] == "human" and seat in clocks.flagged(clock, now):
            self.time_out(game.info.stream, [seat])
            raise GameError(
                "out_of_time", f"seat {seat} ran out of time; the game's {config['on_timeout']} policy applies"
            )
        to_act = set() if game.rules.is_over(state_after) else game.rules.to_act(state_after)
        return clocks.advance(config, clock, seat, game.seats, to_act, now)

    def check_clock(self, game_id: str, version: int, generation: int) -> list[int]:
        """Apply the timeout policy to seats whose time ran out while the game stayed at ``version``."""
        game = self.load(game_id)
        if game.version != version or game.generation != generation or game.over:
            return []
        clock = self.last_clock(game)
        if clock is None:
            return []
        out = [s for s in clocks.flagged(clock, time.time()) if game.seats[s]["kind"] == "human"]
        if out:
            self.time_out(game_id, out)
        elif game.bot_seats_to_act():  # a retried check after a crash: the timed-out seat's bot plays
            self.after_change(game)
        return out

    def time_out(self, game_id: str, seats: list[int]) -> None:
        """Seats out of time get the game's policy: a ``platform.SeatTimedOut`` each, in the chain."""
        game = self.load(game_id)
        policy = game.info.metadata["clock"]["on_timeout"]
        level = clocks.TIMEOUT_BOT_LEVEL[policy]
        events = [
            {"type": facts.SEAT_TIMED_OUT, "seat": s, "policy": policy, "level": level}
            for s in seats
            if game.seats[s]["kind"] == "human"
        ]
        if not events:
            return
        try:
            self.append_facts(game, events, actor="platform", seat=None)
        except GameError as exc:
            if exc.code != "stale_version":
                raise
            # a move or another timeout got there first: the clock check of the new version decides again
