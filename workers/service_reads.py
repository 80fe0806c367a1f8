"""The game service's reads for the API: event pages, truncations, the listing, the live change feed.

The API reaches the store only through the service: these reads, the game loads, and ``documents`` (the
store's key-value documents, for the helpers that keep API keys, bot tables, tickets and rated games).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from eventstore.base import (
    Audience,
    DocumentStore,
    EventStore,
    StoredEvent,
    StreamInfo,
    StreamNotFound,
    Truncation,
    listed_to,
)
from workers.game_model import GameError

T = TypeVar("T")


class Reads:
    """A part of ``workers.games.GameService``: what the API reads besides loaded games."""

    if TYPE_CHECKING:
        store: EventStore

        def info(self, game_id: str) -> StreamInfo: ...

    @property
    def documents(self) -> DocumentStore:
        return self.store

    def read_events(self, game_id: str, first: int, last: int) -> list[StoredEvent]:
        """The stored events ``first`` to ``last`` (inclusive) of the game's current generation."""
        return self.store.read(game_id, first, last)

    def truncations(self, game_id: str) -> list[Truncation]:
        return self.store.truncations(game_id)

    def kept_through(
        self, game_id: str, generation: int, version: int, truncations: list[Truncation] | None = None
    ) -> int:
        """How far the history that stood at ``version`` in ``generation`` is still the game's: ``version``, or the
        lowest version an undo since went back to (a follower resumes there, a webhook sync starts there, a keyed
        move stands only if its last event is at most that). ``truncations``: the game's, if the caller read them."""
        undos = self.truncations(game_id) if truncations is None else truncations
        return min([version] + [t.to_version for t in undos if t.generation > generation])

    def in_one_history(self, game_id: str, read: Callable[[], tuple[T, int]]) -> T:
        """``read()``'s answer, of one history of the game: ``read`` returns its answer and the generation it
        decided what to reveal on; the stream's generation is read again after it, and while an undo changed it
        meanwhile, ``read`` runs again (``busy`` after three)."""
        for _ in range(3):
            answer, generation = read()
            if self.store.stream_info(game_id).generation == generation:
                return answer
        raise GameError("busy", "the game was undone again and again while it was read; retry")

    def status_of(self, game_id: str) -> str:
        """The game's status, or ``gone`` when there is no such game (any more)."""
        try:
            return self.store.stream_info(game_id).status
        except StreamNotFound:
            return "gone"

    def list_games(
        self,
        audience: Audience | None,
        game_type: str | None,
        status: str | None,
        limit: int,
        before: str | None,
    ) -> list[StreamInfo]:
        """Games newest first, as listed to ``audience`` (``docs/limits.md``), from after the ``before`` cursor."""
        return self.store.list_streams(
            audience=audience, game_type=game_type, status=status, limit=limit, newest_first=True, before=before
        )

    def listed(self, game_id: str, audience: Audience) -> bool:
        """Whether the game exists and is listed to ``audience`` (a listing cursor it may use)."""
        try:
            info = self.store.stream_info(game_id)
        except StreamNotFound:
            return False
        return listed_to(info, audience)

    # -- the live feed: every append of every game, by position ------------------------------------------
    def head_position(self) -> int:
        return self.store.head_position()

    def wait_for_append(self, after_position: int, timeout: float) -> bool:
        return self.store.wait_for_append(after_position, timeout)

    def changes_after(self, position: int, limit: int) -> list[StoredEvent]:
        return self.store.read_all(position, limit)
