"""The game service's endings: resignation, abort, expiry, and keeping a finished game's rated result.

Each ending is a platform fact in the game's chain (docs/facts.md).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from eventstore.base import EventStore, StreamInfo
from workers import facts, ratings
from workers.game_model import GameError, LoadedGame, rating_player_id, resign_policy, with_seat_ids


class Endings:
    """A part of ``workers.games.GameService``: how games end outside the rules and what a finished game leaves behind."""

    if TYPE_CHECKING:
        store: EventStore
        expiry_seconds: float

        def load(self, game_id: str) -> LoadedGame: ...

        def seat_ids(self, info: StreamInfo) -> dict[str, dict[str, Any]]: ...

        def append_facts(
            self, game: LoadedGame, events: list[dict[str, Any]], actor: str, seat: int | None
        ) -> LoadedGame: ...

    def resign(self, game_id: str, seat: int) -> LoadedGame:
        """A seat resigns; the game's ``on_resign`` policy (chosen at creation) applies (docs/facts.md)."""
        game = self.load(game_id)
        if game.over:
            raise GameError("game_over", "the game is over; there is nothing to resign from")
        record = game.seats[seat]
        if record.get("resigned") or record.get("timed_out") or record["kind"] != "human":
            raise GameError("forbidden", f"seat {seat} is played by a bot already")
        policy = resign_policy(game.info.metadata)
        level = facts.RESIGN_LOSE_LEVEL if policy["policy"] == "lose" else policy["level"]
        event = {"type": facts.RESIGNED, "seat": seat, "on_resign": policy["policy"], "level": level}
        return self.append_facts(game, [event], actor="human", seat=seat)

    def abort(self, game_id: str, by: str) -> LoadedGame:
        """The game's creator ends it before it is over: status ``aborted``, no result, not rated."""
        game = self.load(game_id)
        if game.over:
            raise GameError("game_over", f"the game is {game.status} already; only a running game can be aborted")
        seat = int(by.split(":", 1)[1]) if by.startswith("seat:") else None
        actor = "human" if seat is not None else "integrator"
        return self.append_facts(game, [{"type": facts.ABORTED, "by": by}], actor=actor, seat=seat)

    def expire(self, game_id: str) -> str | float:
        """A game whose last event is ``expiry_seconds`` old ends as ``abandoned``; otherwise the seconds
        until it would be (the job runs again then)."""
        game = self.load(game_id)
        if game.over:
            return "over"
        if self.expiry_seconds <= 0:
            return "expiry is off"
        idle = time.time() - facts.facts_epoch(game.facts.last_event_at)
        if idle < self.expiry_seconds:
            return self.expiry_seconds - idle
        event = {"type": facts.ABANDONED, "idle_seconds": round(idle, 3), "last_event_at": game.facts.last_event_at}
        try:
            self.append_facts(game, [event], actor="platform", seat=None)
        except GameError as exc:
            if exc.code == "stale_version":  # an event got there first: the game is not idle
                return self.expiry_seconds
            raise
        return "abandoned"

    def record_finish(self, game: LoadedGame) -> None:
        """Keep a finished game's rated result (idempotent). Its status and result are events of its chain,
        stored with the move that ended it; a game stored before they were gets its ``platform.GameFinished``
        here. Aborted and abandoned games are not rated."""
        if not game.over:
            return
        if game.facts.status == facts.ACTIVE:  # over by the rules, without the fact in the chain yet
            try:
                game = self.append_facts(game, [facts.finished_event(game.computed_result())], "platform", None)
            except GameError as exc:
                if exc.code != "stale_version":
                    raise
                game = self.load(game.info.stream)
            return  # append_facts recorded it
        result = game.result_dict()
        if game.facts.status == facts.FINISHED_STATUS and result is not None:
            self._record_rated(game, result)

    def _record_rated(self, game: LoadedGame, result: dict[str, Any]) -> None:
        """Keep a finished rated game's placements for the leaderboards (removed again if it is undone)."""
        if not game.info.metadata.get("rated"):
            return
        existing = self.store.get_document(f"rated:{game.info.game_type}", game.info.stream)
        if existing is not None and existing.get("generation") == game.generation:
            return  # recorded already (a stamp whose write failed: kept ratings serve ratings.KEPT_SECONDS at most)
        # the seats as created: a seat that resigned or ran out of time plays on as a bot, yet it is still the
        # entrant (or guest) who sat down, rated as such
        seats = with_seat_ids(game.info.metadata["seats"], self.seat_ids(game.info))
        players = [rating_player_id(game.info.metadata, seat) for seat in seats]
        players = [p if players.count(p) == 1 else f"{p}#{i}" for i, p in enumerate(players)]
        self.store.put_document(
            f"rated:{game.info.game_type}",
            game.info.stream,
            {
                "players": players,
                "ranks": result["ranks"],
                "finished_at": time.time(),
                "generation": game.generation,
            },
        )
        ratings.rated_changed(self.store, game.info.game_type)
