"""The game service: creating games, loading them by projection, deciding and appending moves.

Both the HTTP API and the background jobs go through this module, so a move is validated and stored
the same way whoever makes it.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import threading
import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any

from domain import registry
from domain.game import IllegalCommand, Rules
from domain.rng import new_seed, rng_for
from eventstore.base import (
    DuplicateIdempotencyKey,
    EventStore,
    StoredEvent,
    StreamInfo,
    WrongExpectedVersion,
    canonical_json,
)
from workers import clocks, facts, metrics, snapshots
from workers.facts import Facts, facts_now
from workers.signing import ServerKey
from workers.sweeper import dispatch_now, work_item

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 100  # store a snapshot when a fold went this many events past the last one
APPEND_ATTEMPTS = 8  # re-decide against fresh state when another writer won the race
TOKEN_PREFIX = "tws_"
DEFAULT_BOT_LEVEL = "medium"
WAIT_SLICE = 1.0
DEFAULT_EXPIRY_SECONDS = 30 * 24 * 3600.0  # TRADEWINDS_GAME_EXPIRY_SECONDS; 0 turns expiry off
SEAT_TOKENS = "seat_tokens"  # document collection: per game, the hashes of its seat tokens
SEAT_IDS = "seat_ids"  # document collection: per game, its seats' external and player ids (kept out of the chain)
PRIVATE_SEAT_FIELDS = ("external_id", "player_id")


class GameError(Exception):
    """A refusal with a stable ``code``; the API maps codes to HTTP statuses."""

    def __init__(self, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = extra


@dataclass(frozen=True)
class LoadedGame:
    info: StreamInfo
    rules: Rules
    state: Any  # the rules' state (platform events skipped)
    version: int
    generation: int
    facts: Facts  # the platform facts (workers.facts)

    @property
    def etag(self) -> str:
        return make_etag(self.generation, self.version)

    @property
    def rules_over(self) -> bool:
        return self.rules.is_over(self.state)

    @property
    def over(self) -> bool:
        """Ended: by the rules, or finished, aborted or abandoned by a platform event."""
        return self.facts.status != facts.ACTIVE or self.rules.is_over(self.state)

    @property
    def status(self) -> str:
        if self.facts.status != facts.ACTIVE:
            return self.facts.status
        return facts.FINISHED_STATUS if self.rules.is_over(self.state) else facts.ACTIVE

    @property
    def seats(self) -> list[dict[str, Any]]:
        return list(self.facts.seats)

    def result_dict(self) -> dict[str, Any] | None:
        """The final result as recorded by ``platform.GameFinished`` (seats that forfeited or resigned to lose
        ranked last); computed from the rules for a game stored before results were events; None for a game
        that did not finish (aborted, abandoned) or is not over."""
        if self.facts.result is not None:
            return self.facts.result
        if self.facts.status != facts.ACTIVE or not self.rules.is_over(self.state):
            return None
        return self.computed_result()

    def computed_result(self) -> dict[str, Any]:
        """The rules' result of a finished position, with the platform facts applied."""
        return facts.ranked_result(self.rules.result(self.state).as_dict(), self.facts)

    def bot_seats_to_act(self) -> list[int]:
        if self.over:
            return []
        acting = self.rules.to_act(self.state)
        return sorted(s for s in acting if self.seats[s]["kind"] == "bot")


@dataclass(frozen=True)
class MoveOutcome:
    game: LoadedGame
    events: list[StoredEvent]
    replayed: bool  # True when an Idempotency-Key matched an earlier, identical request


PUBLIC_SEAT_FIELDS = ("seat", "kind", "name", "level", "external_id", "timed_out", "forfeited", "resigned")


def id_commitment(salt: str, ids: dict[str, Any]) -> str:
    """What a game's creation record holds for a seat's private ids: ``SHA-256(salt + canonical_json(ids))``
    as hex. The salt stays with the ids (collection ``seat_ids``), so the chain proves which ids a seat was
    created with to whoever is given them, and tells nobody else anything."""
    return hashlib.sha256((salt + canonical_json(ids)).encode("utf-8")).hexdigest()


def with_seat_ids(seats: list[dict[str, Any]], ids: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """``seats`` (as in the metadata or the facts) with each one's private ids from ``ids`` (by seat number)."""
    return [{**seat, **ids.get(str(seat["seat"]), {})} for seat in seats]


def public_seats(metadata: dict[str, Any], fields: tuple[str, ...] = PUBLIC_SEAT_FIELDS) -> list[dict[str, Any]]:
    """A game's seats without their secrets (token hashes), with the fields asked for."""
    return [{k: seat.get(k) for k in fields} for seat in metadata["seats"]]


def rating_player_id(metadata: dict[str, Any], seat: dict[str, Any]) -> str:
    """Who a seat is on the leaderboards: the integrator's player (key-scoped external id) or a bot level."""
    site = metadata.get("created_by") or "anonymous"
    if seat.get("player_id") is not None:  # a tournament entrant (bot entrants are distinct competitors)
        return f"{site}/{seat['player_id']}"
    if seat.get("external_id") is not None:
        return f"{site}/{seat['external_id']}"
    return f"bot:{seat.get('level')}" if seat["kind"] == "bot" else f"guest:{seat.get('name')}"


def make_etag(generation: int, version: int) -> str:
    return f"{generation}.{version}"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(24)


class GameService:
    def __init__(
        self, store: EventStore, dispatcher: Any = None, cache_size: int = 256, key: ServerKey | None = None
    ) -> None:
        """``key`` signs the store's heads (the store must be opened with ``signer=key.sign``) and
        authenticates snapshots; without one a key of this process only is made."""
        self.store = store
        self.key = key or ServerKey.generate()
        self.dispatcher = dispatcher
        self.expiry_seconds = float(os.environ.get("TRADEWINDS_GAME_EXPIRY_SECONDS", DEFAULT_EXPIRY_SECONDS))
        self._cache: OrderedDict[str, tuple[int, int, Any, Facts]] = OrderedDict()
        self._cache_size = cache_size
        self._cache_lock = threading.Lock()

    # ----------------------------------------------------------------- creation
    def create_game(
        self,
        game_type: str,
        seats: list[dict[str, Any]],
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        extra_metadata: dict[str, Any] | None = None,
        undo: bool = True,
        created_by: str | None = None,
        clock: dict[str, Any] | None = None,
        start_bots: bool = True,
        on_resign: str = "lose",
        resign_level: str | None = None,
    ) -> tuple[LoadedGame, list[dict[str, Any]]]:
        """Create a game; returns it and one ``{"seat", "token"}`` per human seat (shown once)."""
        try:
            rules = registry.get(game_type)
        except registry.UnknownGameType:
            raise GameError(
                "unknown_game_type", f"unknown game type {game_type!r}; known: {', '.join(registry.names())}"
            ) from None
        if not rules.min_players <= len(seats) <= rules.max_players:
            raise GameError(
                "invalid_seats",
                f"{game_type} takes {rules.min_players} to {rules.max_players} seats, not {len(seats)}",
            )
        try:
            options = rules.validate_options(options, len(seats))
        except ValueError as exc:
            raise GameError("invalid_options", f"invalid options for {game_type}: {exc}") from None
        seed = new_seed() if seed is None else seed
        tokens: list[dict[str, Any]] = []
        token_hashes: dict[str, str] = {}  # kept apart: the stream's metadata is public and in the signed chain
        seat_records: list[dict[str, Any]] = []
        seat_ids: dict[str, dict[str, Any]] = {}
        for index, seat in enumerate(seats):
            record: dict[str, Any] = {"seat": index, "kind": seat["kind"], "name": seat.get("name")}
            if seat["kind"] == "human" and seat.get("level") is not None:
                raise GameError("invalid_seats", f"seat {index} is a human seat: only bot seats have a level")
            if seat["kind"] == "human":
                record["name"] = seat.get("name") or f"Seat {index}"
                token = new_token()
                token_hashes[str(index)] = hash_token(token)
                tokens.append({"seat": index, "token": token})
            else:
                record["level"] = seat.get("level") or DEFAULT_BOT_LEVEL
                record["name"] = seat.get("name") or f"{record['level']} bot"
            ids = {k: seat[k] for k in PRIVATE_SEAT_FIELDS if seat.get(k) is not None}
            if ids:  # kept apart too: the creation record is public (export) and signed; only a commitment is in it
                salt = secrets.token_hex(16)
                seat_ids[str(index)] = {**ids, "salt": salt}
                record["id_commitment"] = id_commitment(salt, ids)
            seat_records.append(record)
        events = rules.setup(seed, len(seats), options)
        game_id = uuid.uuid4().hex
        metadata = {
            "seed": seed,
            "options": options,
            "seats": seat_records,
            "setup_version": len(events),
            "undo": undo,
            "created_by": created_by,
            "clock": clock,
            "on_resign": {"policy": on_resign, "level": resign_level or DEFAULT_BOT_LEVEL},
            **(extra_metadata or {}),
        }
        meta: dict[str, Any] = {"actor": "setup", "seat": None, "move": "setup"}
        if clock:
            meta["clock"] = clocks.initial(
                clock, seat_records, rules.to_act(facts.rules_fold(rules, events)), time.time()
            )
        self.store.put_document(SEAT_TOKENS, game_id, {"seats": token_hashes})
        if seat_ids:
            self.store.put_document(SEAT_IDS, game_id, {"seats": seat_ids})
        self.store.create_stream(game_id, game_type, metadata)
        info = StreamInfo(game_id, game_type, "", "active", len(events), 0, metadata)
        opening = LoadedGame(info, rules, facts.rules_fold(rules, events), len(events), 0, facts.initial(seat_records))
        work = self.work_for(opening, meta.get("clock")) if start_bots else []
        work += self.expiry_work(game_id)
        self.store.append(game_id, events, 0, meta=meta, outbox=work)
        game = self.load(game_id)
        dispatch_now(self.dispatcher, work)
        return game, tokens

    # ------------------------------------------------------------------ loading
    def info(self, game_id: str) -> StreamInfo:
        from eventstore.base import StreamNotFound

        try:
            return self.store.stream_info(game_id)
        except StreamNotFound:
            raise GameError("unknown_game", f"no game with id {game_id!r}") from None

    def info_and_seat_tokens(self, game_id: str) -> tuple[StreamInfo, dict[str, Any] | None]:
        """The stream row and the game's seat-token hashes, read together (for ``seat_for_token`` and ``load``)."""
        from eventstore.base import StreamNotFound

        try:
            return self.store.stream_info_and_document(game_id, SEAT_TOKENS)
        except StreamNotFound:
            raise GameError("unknown_game", f"no game with id {game_id!r}") from None

    def seat_ids(self, info: StreamInfo) -> dict[str, dict[str, Any]]:
        """The private ids of a game's seats by seat number (``external_id``, ``player_id``), from their own
        record; for a game created before they left the creation metadata, from the metadata."""
        doc = self.store.get_document(SEAT_IDS, info.stream)
        if doc is not None:
            return {n: {k: v for k, v in ids.items() if k in PRIVATE_SEAT_FIELDS} for n, ids in doc["seats"].items()}
        return {
            str(seat["seat"]): {k: seat[k] for k in PRIVATE_SEAT_FIELDS if seat.get(k) is not None}
            for seat in info.metadata["seats"]
            if any(seat.get(k) is not None for k in PRIVATE_SEAT_FIELDS)
        }

    def rules_for(self, info: StreamInfo) -> Rules:
        return registry.get(info.game_type)

    def _snapshot_key(self, info: StreamInfo, rules: Rules) -> str:
        return f"{info.game_type}:{rules.state_version}:facts/1"  # the state with the platform facts

    def load(
        self, game_id: str, at_version: int | None = None, use_snapshots: bool = True, info: StreamInfo | None = None
    ) -> LoadedGame:
        """Fold the stream (up to ``at_version``) starting from the newest usable snapshot: the rules' state
        from the rules' events, the platform facts from the platform events. ``info``: the stream row as this
        request already read it (else it is read here)."""
        info = info if info is not None else self.info(game_id)
        rules = self.rules_for(info)
        target = info.version if at_version is None else at_version
        if not 0 <= target <= info.version:
            raise GameError("unknown_version", f"version must be between 0 and {info.version}, not {target}")
        state: Any = None
        known: Facts | None = None
        base, snap_base = 0, None
        if use_snapshots:
            with self._cache_lock:
                cached = self._cache.get(game_id)
            if cached and cached[0] == info.generation and cached[1] <= target:
                base, state, known = cached[1], cached[2], cached[3]
            key = self._snapshot_key(info, rules)
            if target - base >= SNAPSHOT_EVERY:
                snap = self.store.load_snapshot(game_id, info.generation, target, key)
                if snap and snap[0] > base:
                    snap_base = snap
        events: list[StoredEvent] | None = None
        if snap_base is not None:
            # read from the snapshot's own version: its event's hash must be the one the snapshot names
            events = self.store.read(game_id, snap_base[0], target)
            if len(events) != target - snap_base[0] + 1:
                return self.load(game_id, at_version, use_snapshots)  # raced with a truncation
            try:
                snap_state, snap_facts = snapshots.load(
                    self.key, rules, snap_base[1], game_id, info.generation, snap_base[0], events[0].hash
                )
                state, known = snap_state, Facts.from_json(snap_facts)
                base, events = snap_base[0], events[1:]
            except Exception as exc:  # a snapshot is a cache: one that is not ours for this chain is ignored
                log.warning("ignored the snapshot of %s at version %s: %s", game_id, snap_base[0], exc)
                events = None
                state, known, base = None, None, 0
        if state is None or known is None:
            state, known, base = rules.initial_state(), facts.initial(info.metadata["seats"]), 0
        if target > base:
            if events is None:
                events = self.store.read(game_id, base + 1, target)
            if len(events) != target - base:
                return self.load(game_id, at_version, use_snapshots)  # raced with a truncation
            state = facts.rules_fold(rules, [e.data for e in events], state)
            known = facts.fold(known, events)
            if use_snapshots and target - base >= SNAPSHOT_EVERY:
                try:
                    blob = snapshots.dump(
                        self.key, rules, game_id, info.generation, target, events[-1].hash, (state, known.to_json())
                    )
                    self.store.save_snapshot(game_id, info.generation, target, self._snapshot_key(info, rules), blob)
                except Exception:  # a snapshot is a cache: failing to write one changes no answer
                    log.warning("could not save snapshot of %s at %s", game_id, target, exc_info=True)
        if use_snapshots and at_version is None:
            self._remember(game_id, info.generation, target, state, known)
        return LoadedGame(info, rules, state, target, info.generation, known)

    def _remember(self, game_id: str, generation: int, version: int, state: Any, known: Facts) -> None:
        with self._cache_lock:
            current = self._cache.get(game_id)
            if current and current[0] == generation and current[1] > version:
                return
            self._cache[game_id] = (generation, version, state, known)
            self._cache.move_to_end(game_id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def forget(self, game_id: str | None = None) -> None:
        """Drop in-memory states (all of them without an id)."""
        with self._cache_lock:
            if game_id is None:
                self._cache.clear()
            else:
                self._cache.pop(game_id, None)

    # -------------------------------------------------------------------- seats
    def seat_for_token(
        self, info: StreamInfo, token: str | None, seat_tokens: dict[str, Any] | None = None
    ) -> int | None:
        """The seat a bearer token belongs to; ``None`` without a token; GameError if it is wrong.
        ``seat_tokens``: the game's token document as already read with ``info`` (else it is read here)."""
        if token is None:
            return None
        digest = hash_token(token)
        doc = seat_tokens if seat_tokens is not None else self.store.get_document(SEAT_TOKENS, info.stream)
        if doc is not None:
            for seat, stored in doc["seats"].items():
                if hmac.compare_digest(stored, digest):
                    return int(seat)
        else:  # a game created before the hashes moved out of the (public, signed) metadata
            for seat in info.metadata["seats"]:
                stored = seat.get("token_hash")
                if stored and hmac.compare_digest(stored, digest):
                    return int(seat["seat"])
        raise GameError("unauthorized", "the bearer token is not a seat token of this game")

    def reissue_tokens(self, game_id: str) -> list[dict[str, Any]]:
        """New tokens for every human seat (shown once); the old ones stop working at once."""
        info = self.info(game_id)
        tokens = [{"seat": s["seat"], "token": new_token()} for s in info.metadata["seats"] if s["kind"] == "human"]
        self.store.put_document(
            SEAT_TOKENS, game_id, {"seats": {str(t["seat"]): hash_token(t["token"]) for t in tokens}}
        )
        return tokens

    # -------------------------------------------------------------------- moves
    def submit(
        self,
        game_id: str,
        seat: int,
        commands: list[dict[str, Any]],
        if_match: list[str] | None = None,
        idempotency_key: str | None = None,
        actor: str = "human",
        loaded: LoadedGame | None = None,
        info: StreamInfo | None = None,
    ) -> MoveOutcome:
        """Decide the commands in order, all or nothing, and append their events in one transaction.

        ``if_match`` lists the versions (etags) the caller accepts, ``["*"]`` any; strong comparison (RFC 9110).
        """
        request_hash = hashlib.sha256(canonical_json({"seat": seat, "commands": commands}).encode()).hexdigest()
        if idempotency_key is not None:
            replay = self._replay(game_id, idempotency_key, request_hash)
            if replay is not None:
                return replay
        for _attempt in range(APPEND_ATTEMPTS):
            if _attempt == 0 and loaded is not None:  # a caller's fresh load
                game = loaded
            else:  # the first attempt folds onto the stream row the caller read (``info``)
                game = self.load(game_id, info=info if _attempt == 0 else None)
            try:
                events, state_after = self._decide_checked(game, seat, commands, if_match, actor)
            except GameError:
                # A concurrent request with the same key may have stored this very move since we looked: its
                # key is committed with its events, so the game we loaded shows both or neither.
                if idempotency_key is not None:
                    replay = self._replay(game_id, idempotency_key, request_hash)
                    if replay is not None:
                        return replay
                raise
            meta: dict[str, Any] = {"actor": actor, "seat": seat, "move": uuid.uuid4().hex}
            if game.info.metadata.get("clock"):
                meta["clock"] = self._clock_after_move(game, seat, state_after)
            planned = LoadedGame(
                game.info, game.rules, state_after, game.version + len(events), game.generation, game.facts
            )
            status = None
            if planned.over:  # the result is a fact of the chain, stored with the move that ends the game
                events = [*events, facts.finished_event(planned.computed_result())]
                status = facts.FINISHED_STATUS
            work = self.work_for(planned, meta.get("clock"))
            try:
                stored = self.store.append(
                    game_id,
                    events,
                    game.version,
                    meta=meta,
                    idempotency_key=idempotency_key,
                    request_hash=request_hash if idempotency_key else None,
                    outbox=work,
                    status=status,
                )
            except DuplicateIdempotencyKey:
                assert idempotency_key is not None, "only a keyed append can be a duplicate"
                replay = self._replay(game_id, idempotency_key, request_hash)
                if replay is not None:
                    return replay
                continue
            except WrongExpectedVersion:
                if idempotency_key is not None:
                    replay = self._replay(game_id, idempotency_key, request_hash)
                    if replay is not None:
                        return replay
                if if_match is not None and "*" not in if_match:
                    latest = self.load(game_id)
                    raise GameError(
                        "stale_version",
                        f"another move was stored first; the game is now at version {latest.etag}",
                        etag=latest.etag,
                    ) from None
                continue
            # committed: from here on nothing may fail the move (the outbox holds the work it causes)
            metrics.move_stored(game.info.game_type, actor, len(commands))
            return MoveOutcome(self._committed(game, stored, work), stored, False)
        raise GameError("busy", "the game is changing too fast to store this move; try again")

    def _decide_checked(
        self, game: LoadedGame, seat: int, commands: list[dict[str, Any]], if_match: list[str] | None, actor: str
    ) -> tuple[list[dict[str, Any]], Any]:
        """The preconditions (If-Match, game over, a seat handed to a bot), then the rules' decision."""
        if if_match is not None and "*" not in if_match and game.etag not in if_match:
            raise GameError(
                "stale_version",
                f"the game is at version {game.etag}, not {', '.join(if_match)}; reload it and decide again",
                etag=game.etag,
            )
        if game.over:
            raise GameError("game_over", "the game is over; no more moves are accepted")
        if actor == "human" and game.seats[seat]["kind"] != "human":
            raise GameError("forbidden", f"seat {seat} is played by a bot now (it ran out of time or resigned)")
        return self._decide_all(game, seat, commands)

    def _decide_all(
        self, game: LoadedGame, seat: int, commands: list[dict[str, Any]]
    ) -> tuple[list[dict[str, Any]], Any]:
        rules, state = game.rules, game.state
        seed = game.info.metadata["seed"]
        events: list[dict[str, Any]] = []
        for index, command in enumerate(commands):
            if rules.is_over(state):
                raise GameError("game_over", f"command {index} comes after the end of the game", index=index)
            try:
                new = rules.decide(state, command, seat, rng_for(seed, game.version + len(events)))
            except IllegalCommand as exc:
                where = f"command {index}: " if len(commands) > 1 else ""
                raise GameError(exc.code, where + exc.message, index=index) from None
            for event in new:
                state = rules.evolve(state, event)
            events.extend(new)
        return events, state

    # ------------------------------------------------------------------- clocks
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

    # ------------------------------------------------------------------ platform facts
    def append_facts(
        self,
        game: LoadedGame,
        events: list[dict[str, Any]],
        actor: str,
        seat: int | None,
        extra_work: list[dict[str, Any]] | None = None,
    ) -> LoadedGame:
        """Append platform events to the game as loaded (expected version checked: a change stored meanwhile
        fails this with ``stale_version`` and stores nothing), with the status they lead to and the work the
        game then needs, in one transaction."""
        stream = game.info.stream
        planned_facts = facts.fold(
            game.facts,
            [
                StoredEvent(stream, game.version + i + 1, 0, game.generation, e, {}, "", facts_now())
                for i, e in enumerate(events)
            ],
        )
        planned = LoadedGame(
            game.info, game.rules, game.state, game.version + len(events), game.generation, planned_facts
        )
        status = None
        resigned = any(e["type"] == facts.RESIGNED for e in events) and game.facts.out != planned_facts.out
        if planned.facts.status == facts.ACTIVE and resigned and len(planned_facts.in_play) <= 1:
            # a resignation left at most one seat in play: the game ends here (docs/facts.md)
            result = facts.result_by_resignation(planned_facts)
            events = [*events, facts.finished_event(result)]
            return self.append_facts(game, events, actor, seat, extra_work)
        if planned.facts.status != game.facts.status:
            status = planned.facts.status
        clock = self.last_clock(game)
        meta: dict[str, Any] = {"actor": actor, "seat": seat, "move": uuid.uuid4().hex}
        if clock is not None:
            meta["clock"] = clock  # the clock runs on: a platform event neither charges nor credits time
        work = self.work_for(planned, clock) + list(extra_work or [])
        try:
            stored = self.store.append(stream, events, game.version, meta=meta, outbox=work, status=status)
        except WrongExpectedVersion as exc:
            latest = self.load(stream)
            raise GameError(
                "stale_version",
                f"the game changed meanwhile (it is at version {exc.actual}, not {exc.expected}); nothing was stored",
                etag=latest.etag,
            ) from None
        return self._committed(game, stored, work)

    def _committed(self, game: LoadedGame, stored: list[StoredEvent], work: list[dict[str, Any]]) -> LoadedGame:
        """After a commit: the game with the stored events folded in, its end recorded, its work dispatched.
        Nothing here may fail the commit: the outbox holds the work it causes."""
        after = self._fold_new(game, stored)
        if after.over:
            try:
                self.record_finish(after)
            except Exception:  # the finish_game job in the outbox records it later
                log.warning("could not record the end of %s yet", game.info.stream, exc_info=True)
        dispatch_now(self.dispatcher, work)
        return after

    def resign(self, game_id: str, seat: int) -> LoadedGame:
        """A seat resigns; the game's ``on_resign`` policy (chosen at creation) applies (docs/facts.md)."""
        game = self.load(game_id)
        if game.over:
            raise GameError("game_over", "the game is over; there is nothing to resign from")
        record = game.seats[seat]
        if record.get("resigned") or record.get("timed_out") or record["kind"] != "human":
            raise GameError("forbidden", f"seat {seat} is played by a bot already")
        policy = game.info.metadata.get("on_resign") or {"policy": "lose", "level": DEFAULT_BOT_LEVEL}
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

    def _fold_new(self, game: LoadedGame, stored: list[StoredEvent]) -> LoadedGame:
        state = facts.rules_fold(game.rules, [e.data for e in stored], game.state)
        known = facts.fold(game.facts, stored)
        version = stored[-1].version if stored else game.version
        status = known.status if known.status != facts.ACTIVE else game.info.status
        if game.rules.is_over(state) and known.result is not None:
            status = facts.FINISHED_STATUS
        info = replace(game.info, version=version, status=status)  # what an append changes of the stream
        self._remember(game.info.stream, game.generation, version, state, known)
        return LoadedGame(info, game.rules, state, version, game.generation, known)

    def _replay(self, game_id: str, key: str, request_hash: str) -> MoveOutcome | None:
        record = self.store.get_idempotency(game_id, key)
        if record is None:
            return None
        if record.request_hash != request_hash:
            raise GameError(
                "idempotency_conflict",
                "this Idempotency-Key was used for a different request; use a new key for a new move",
            )
        if record.generation != self.info(game_id).generation:
            raise GameError("idempotency_expired", "the move made with this Idempotency-Key was undone")
        # the answer the move got: the game as that move left it, whatever was played since
        game = self.load(game_id, at_version=record.to_version)
        events = self.store.read(game_id, record.from_version, record.to_version)
        return MoveOutcome(game, events, True)

    def wait_for_change(self, game_id: str, version: int, generation: int, timeout: float) -> bool:
        """Block until the stream moves past ``version`` or is truncated, or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        while True:
            head = self.store.head_position()
            info = self.store.stream_info(game_id)
            if info.version != version or info.generation != generation:
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            # appends wake the wait; truncations do not, so re-check at least every WAIT_SLICE seconds
            self.store.wait_for_append(head, min(remaining, WAIT_SLICE))

    # ------------------------------------------------------------- after a change
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
        flag = clocks.next_flag_fall(clock) if clock else None
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
        self.schedule([work_item(f"deliver:{sub_id}", "deliver_webhooks", [sub_id]) for sub_id in sub_ids])

    def after_change(self, game: LoadedGame) -> None:
        """A change made outside an append (a timeout, an undo, a tournament's new table) schedules its work."""
        if game.over:
            self.record_finish(game)
        self.schedule(self.work_for(game, self.last_clock(game)))

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
            return
        seats = with_seat_ids(game.seats, self.seat_ids(game.info))
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
