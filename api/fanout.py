"""One wake-up per process for every live follower: a hub reads new events once and hands them out.

Followers (SSE streams, long-polls) never query the store while they wait. The hub waits on the store's
own wake-up (one PostgreSQL ``LISTEN`` connection per process, or the in-process notifier of SQLite and
memory), reads what was appended with one ``read_all``, folds each followed game once, and gives every
follower of that game the same ``Delivery``. A follower that falls behind, or a game that was truncated
(undo appends nothing, so the hub checks the generation of followed games every ``SWEEP_SECONDS``), gets
``RESYNC`` and re-reads from the store by version itself, as it does when it starts.

The hub runs on a ``threading.Thread``: a real thread under gunicorn's ``gthread`` worker, a greenlet
under the ``gevent`` worker (whose monkey-patching turns threads, events and locks cooperative).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from api.observability import followers_changed
from eventstore.base import StoredEvent
from workers.game_model import GameError, LoadedGame
from workers.games import GameService

EXTENSION = "tradewinds_hub"  # the app extension a process's hub is kept under (api.live)
log = logging.getLogger(__name__)

WAIT_SECONDS = 1.0  # one wake-up wait; the hub re-reads at least this often
# While events flow, re-read at least this often: on PostgreSQL an event is readable only once every
# older write transaction has ended, which can be after its NOTIFY arrived (eventstore.postgres).
BUSY_WAIT_SECONDS = 0.1
BUSY_FOR_SECONDS = 5.0
SWEEP_SECONDS = 2.0  # how often the generations of followed games are checked (undo appends nothing)
BATCH = 1000  # events per read_all
LOADERS = 4  # games of one batch folded at once (store connections the hub may take)
MAX_PENDING = 64  # deliveries queued for one follower before it is told to re-read instead
RESYNC = "resync"


@dataclass(frozen=True)
class Delivery:
    game: LoadedGame  # the game folded after these events (its version may be later still)
    events: tuple[StoredEvent, ...]  # this game's new events, in version order
    # frames already rendered, shared by followers who see the same (seat, format): spectators of a
    # game redact and encode each event once, not once each
    rendered: dict[Any, str] = field(default_factory=dict, compare=False, repr=False)


class Subscription:
    """What one follower waits on: deliveries for its game (or ``RESYNC``), in order."""

    def __init__(self, hub: Hub, game_id: str) -> None:
        self.hub = hub
        self.game_id = game_id
        self._pending: deque[Any] = deque()
        self._ready = threading.Event()
        self._lock = threading.Lock()

    def put(self, item: Any) -> None:
        with self._lock:
            if len(self._pending) >= MAX_PENDING:
                self._pending.clear()  # too far behind: it re-reads from the store instead
                item = RESYNC
            self._pending.append(item)
        self._ready.set()

    def get(self, timeout: float) -> list[Any]:
        """Everything delivered so far (empty when ``timeout`` passes first)."""
        self._ready.wait(timeout)
        self._ready.clear()
        with self._lock:
            items = list(self._pending)
            self._pending.clear()
        return items

    def close(self) -> None:
        self.hub.unsubscribe(self)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class RenderCache:
    """A bounded map of rendered frames (least recently stored dropped first)."""

    def __init__(self, size: int = 20000) -> None:
        self._size = size
        self._items: OrderedDict[Any, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Any) -> str | None:
        with self._lock:
            return self._items.get(key)

    def put(self, key: Any, text: str) -> str:
        with self._lock:
            self._items[key] = text
            if len(self._items) > self._size:
                self._items.popitem(last=False)
        return text


class Hub:
    """The per-process fan-out; started on the first subscription, idle (no queries) without followers."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._subs: dict[str, set[Subscription]] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._has_subscribers = threading.Event()
        self._closed = False
        self._generations: dict[str, int] = {}
        self.rendered = RenderCache()  # followers' catch-up frames, shared
        self._loader: ThreadPoolExecutor | None = None
        self.wakeups = 0  # counters for tests and the benchmark
        self.reads = 0

    # -- followers --------------------------------------------------------------------------------
    def subscribe(self, game_id: str) -> Subscription:
        sub = Subscription(self, game_id)
        with self._lock:
            self._subs.setdefault(game_id, set()).add(sub)
            self._has_subscribers.set()
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="tradewinds-fanout", daemon=True)
                self._thread.start()
            followers_changed(sum(len(s) for s in self._subs.values()))
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._subs.get(sub.game_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[sub.game_id]
                    self._generations.pop(sub.game_id, None)
            if not self._subs:
                self._has_subscribers.clear()
            followers_changed(sum(len(s) for s in self._subs.values()))

    def follower_count(self) -> int:
        with self._lock:
            return sum(len(s) for s in self._subs.values())

    def close(self) -> None:
        self._closed = True
        self._has_subscribers.set()

    # -- the loop ---------------------------------------------------------------------------------
    def _followed(self) -> dict[str, list[Subscription]]:
        with self._lock:
            return {game_id: list(subs) for game_id, subs in self._subs.items()}

    def _run(self) -> None:
        position: int | None = None
        last_sweep = time.monotonic()
        last_event = 0.0
        while not self._closed:
            try:
                if not self._has_subscribers.wait(timeout=WAIT_SECONDS):
                    position = None  # nobody follows: forget the cursor, start from the head again
                    continue
                if position is None:
                    position = self.service.head_position()
                    # anything appended between a follower's own catch-up and now: it re-reads
                    self._broadcast(RESYNC)
                    continue
                busy = time.monotonic() - last_event < BUSY_FOR_SECONDS
                self.service.wait_for_append(position, BUSY_WAIT_SECONDS if busy else WAIT_SECONDS)
                self.wakeups += 1
                while True:
                    batch = self.service.changes_after(position, BATCH)
                    self.reads += 1
                    if not batch:
                        break
                    position = batch[-1].position
                    last_event = time.monotonic()
                    self._deliver(batch)
                    if len(batch) < BATCH:
                        break
                if time.monotonic() - last_sweep >= SWEEP_SECONDS:
                    last_sweep = time.monotonic()
                    self._sweep()
            except Exception:  # the store is down or failing: followers re-read once it is back
                if self._closed:  # closed meanwhile (the process is exiting): nothing to retry
                    return
                log.warning("live fan-out failed; retrying", exc_info=True)
                position = None
                time.sleep(WAIT_SECONDS)

    def _deliver(self, batch: list[StoredEvent]) -> None:
        followed = self._followed()
        by_game: dict[str, list[StoredEvent]] = {}
        for event in batch:
            if event.stream in followed:
                by_game.setdefault(event.stream, []).append(event)
        games = self._load_all(list(by_game))
        for game_id, events in by_game.items():
            game = games[game_id]
            item: Any = RESYNC
            if game is not None:
                self._generations[game_id] = game.generation
                item = Delivery(game, tuple(events))
            for sub in followed[game_id]:
                sub.put(item)

    def _load(self, game_id: str) -> LoadedGame | None:
        try:
            return self.service.load(game_id)
        except Exception:
            log.warning("live fan-out could not load %s", game_id, exc_info=True)
            return None

    def _load_all(self, game_ids: list[str]) -> dict[str, LoadedGame | None]:
        """Fold the games of one batch, a few at once (each load waits on the store)."""
        if len(game_ids) <= 1:
            return {game_id: self._load(game_id) for game_id in game_ids}
        if self._loader is None:
            self._loader = ThreadPoolExecutor(LOADERS, thread_name_prefix="tradewinds-fanout-load")
        return dict(zip(game_ids, self._loader.map(self._load, game_ids), strict=True))

    def _sweep(self) -> None:
        for game_id, subs in self._followed().items():
            try:
                generation = self.service.info(game_id).generation
            except GameError:  # the game is gone
                continue
            if self._generations.setdefault(game_id, generation) != generation:
                self._generations[game_id] = generation
                for sub in subs:
                    sub.put(RESYNC)

    def _broadcast(self, item: Any) -> None:
        for subs in self._followed().values():
            for sub in subs:
                sub.put(item)
