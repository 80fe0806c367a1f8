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
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

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
from workers.game_model import (
    DEFAULT_BOT_LEVEL,
    PRIVATE_SEAT_FIELDS,
    SEAT_IDS,
    SEAT_TOKENS,
    GameError,
    LoadedGame,
    MoveOutcome,
    hash_token,
    id_commitment,
    new_token,
)
from workers.service_clocks import ClockDuties
from workers.service_endings import Endings
from workers.service_reads import Reads
from workers.service_work import FollowUps
from workers.signing import ServerKey
from workers.sweeper import dispatch_now

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 100  # store a snapshot when a fold went this many events past the last one
APPEND_ATTEMPTS = 8  # re-decide against fresh state when another writer won the race
DEFAULT_EXPIRY_SECONDS = 30 * 24 * 3600.0  # TRADEWINDS_GAME_EXPIRY_SECONDS; 0 turns expiry off
# per_version keeps this many answers per game the state cache holds: a seat's view (15-35 KB), its encoded game
# read and its encoded legal commands
ANSWERS_PER_GAME = 8
T = TypeVar("T")


class GameService(Reads, ClockDuties, Endings, FollowUps):
    """Games: creating them, loading them by projection, deciding and appending moves and platform facts.

    The concerns around a move live in mixins of their own: its clock (``workers.service_clocks``), endings
    outside the rules (``workers.service_endings``), the work a change causes (``workers.service_work``) and what
    the API reads besides loaded games (``workers.service_reads``).
    """

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
        # answers computed from a loaded game, by (game, generation, version, what, seat): see ``per_version``
        self._answers: OrderedDict[tuple[str, int, int, str, int | None], Any] = OrderedDict()

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
                record["name"] = seat.get("name") or f"Seat {index + 1}"  # as tables and labels number seats
                token = new_token()
                token_hashes[str(index)] = hash_token(token)
                tokens.append({"seat": index, "token": token})
            else:
                record["level"] = seat.get("level") or DEFAULT_BOT_LEVEL
                default = f"{record['level']} bot"
                same = sum(1 for r in seat_records if r["kind"] != "human" and r["name"].startswith(default))
                record["name"] = seat.get("name") or (f"{default} {same + 1}" if same else default)  # easy bot 2
            ids = {k: seat[k] for k in PRIVATE_SEAT_FIELDS if seat.get(k) is not None}
            if ids:  # kept apart too: the creation record is public (export) and signed; only a commitment is in it
                salt = secrets.token_hex(16)
                seat_ids[str(index)] = {**ids, "salt": salt}
                record["id_commitment"] = id_commitment(salt, ids)
            seat_records.append(record)
        try:
            events = rules.setup(seed, len(seats), options)
        except ValueError as exc:  # a check that only set-up makes is still the caller's options
            raise GameError("invalid_options", f"invalid options for {game_type}: {exc}") from None
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
            return _a_game(self.store.stream_info(game_id))
        except StreamNotFound:
            raise GameError("unknown_game", f"no game with id {game_id!r}") from None

    def info_and_seat_tokens(self, game_id: str) -> tuple[StreamInfo, dict[str, Any] | None]:
        """The stream row and the game's seat-token hashes, read together (for ``seat_for_token`` and ``load``)."""
        from eventstore.base import StreamNotFound

        try:
            info, tokens = self.store.stream_info_and_document(game_id, SEAT_TOKENS)
        except StreamNotFound:
            raise GameError("unknown_game", f"no game with id {game_id!r}") from None
        return _a_game(info), tokens

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

    def per_version(self, game: LoadedGame, what: str, seat: int | None, compute: Callable[[], T]) -> T:
        """``compute()`` for ``game`` as loaded, remembered by the game, its generation and version, ``what`` and
        ``seat``: what a seat sees or may play cannot change until the stream does (an undo starts a new
        generation). The answer is shared by every request that asks the same: read it, never change it."""
        key = (game.info.stream, game.generation, game.version, what, seat)
        with self._cache_lock:
            if key in self._answers:
                self._answers.move_to_end(key)
                found: T = self._answers[key]
                return found
        answer = compute()
        with self._cache_lock:
            self._answers[key] = answer
            while len(self._answers) > ANSWERS_PER_GAME * self._cache_size:
                self._answers.popitem(last=False)
        return answer

    def forget(self, game_id: str | None = None) -> None:
        """Drop in-memory states and answers (all of them without an id)."""
        with self._cache_lock:
            if game_id is None:
                self._cache.clear()
                self._answers.clear()
            else:
                self._cache.pop(game_id, None)
                for key in [key for key in self._answers if key[0] == game_id]:
                    del self._answers[key]

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
        for seat, stored in _token_hashes(info, doc).items():
            if hmac.compare_digest(stored, digest):
                return seat
        raise GameError("unauthorized", "the bearer token is not a seat token of this game")

    def holds_seat(self, game_id: str, seat: int, credential: str) -> bool:
        """Whether ``credential`` (a seat token's hash) is still ``seat``'s token, not one reissued since."""
        info, doc = self.info_and_seat_tokens(game_id)
        current = _token_hashes(info, doc).get(seat)
        return current is not None and hmac.compare_digest(current, credential)

    def reissue_tokens(self, game_id: str) -> list[dict[str, Any]]:
        """New tokens for every human seat (shown once); the old ones stop working at once (their stream tickets
        and the streams they opened too: ``holds_seat``)."""
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
        request_hash = ""  # what a retry with the same idempotency key must repeat
        if idempotency_key is not None:
            request_hash = hashlib.sha256(canonical_json({"seat": seat, "commands": commands}).encode()).hexdigest()
        # A used idempotency key is not looked up first (a read per move): a retry is found when its decision
        # fails on the game it already changed, or when the store refuses the key with the append.
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
                    request_hash=request_hash or None,
                    outbox=work,
                    status=status,
                    head=game.head,
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
            return MoveOutcome(self._committed(game, stored, work, state_after), stored, False)
        raise GameError("busy", "the game is changing too fast to store this move; try again")

    def _decide_checked(
        self, game: LoadedGame, seat: int, commands: list[dict[str, Any]], if_match: list[str] | None, actor: str
    ) -> tuple[list[dict[str, Any]], Any]:
        """The preconditions (If-Match, game over, a seat handed to a bot), then the rules' decision."""
        if if_match is not None and "*" not in if_match and game.etag not in if_match:
            named = f"not {', '.join(if_match)}" if if_match else "and If-Match named only weak tags, which never match"
            raise GameError(
                "stale_version",
                f"the game is at version {game.etag}, {named}; reload it and decide again",
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
                # the state the decision reached (a copy), rather than its events folded again
                new, state = rules.decide_and_apply(state, command, seat, rng_for(seed, game.version + len(events)))
            except IllegalCommand as exc:
                where = f"command {index}: " if len(commands) > 1 else ""
                raise GameError(exc.code, where + exc.message, index=index) from None
            if index < len(commands) - 1:
                drawn = sorted({e["type"] for e in new if rules.reveals(e)})
                if drawn:
                    # all or nothing: a later command's refusal would tell the seat what this one drew, and take
                    # the draw back (a free look at hidden information)
                    raise GameError(
                        "invalid_command",
                        f"command {index} draws or reveals what could not be seen before ({', '.join(drawn)}): it "
                        "must be the last command of a batch; send what follows once you have seen its outcome",
                        index=index,
                    )
            events.extend(new)
        return events, state

    # ------------------------------------------------------------------- clocks

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
        left = game.facts.out != planned_facts.out  # a seat resigned to lose or forfeited on time
        if planned.facts.status == facts.ACTIVE and left and len(planned_facts.in_play) <= 1:
            # at most one seat is left in play: the game ends here (docs/facts.md), bots do not play it out
            cause = "resignation" if any(e["type"] == facts.RESIGNED for e in events) else "forfeit"
            result = facts.result_by_resignation(planned_facts, cause)
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
            stored = self.store.append(
                stream, events, game.version, meta=meta, outbox=work, status=status, head=game.head
            )
        except WrongExpectedVersion as exc:
            latest = self.load(stream)
            raise GameError(
                "stale_version",
                f"the game changed meanwhile (it is at version {exc.actual}, not {exc.expected}); nothing was stored",
                etag=latest.etag,
            ) from None
        return self._committed(game, stored, work)

    def _committed(
        self, game: LoadedGame, stored: list[StoredEvent], work: list[dict[str, Any]], state: Any = None
    ) -> LoadedGame:
        """After a commit: the game with the stored events folded in, its end recorded, its work dispatched.
        Nothing here may fail the commit: the outbox holds the work it causes. ``state``: the rules' state the
        stored events lead to, when the decision that made them reached it already (not folded again)."""
        after = self._fold_new(game, stored, state)
        if after.over:
            try:
                self.record_finish(after)
            except Exception:  # the finish_game job in the outbox records it later
                log.warning("could not record the end of %s yet", game.info.stream, exc_info=True)
        dispatch_now(self.dispatcher, work)
        return after

    def _fold_new(self, game: LoadedGame, stored: list[StoredEvent], state: Any = None) -> LoadedGame:
        if state is None:
            state = facts.rules_fold(game.rules, [e.data for e in stored], game.state)
        known = facts.fold(game.facts, stored)
        version = stored[-1].version if stored else game.version
        status = known.status if known.status != facts.ACTIVE else game.info.status
        if game.rules.is_over(state) and known.result is not None:
            status = facts.FINISHED_STATUS
        head_hash = stored[-1].hash if stored and game.info.head_hash else game.info.head_hash
        info = replace(game.info, version=version, status=status, head_hash=head_hash)  # what an append changes
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
            # undone since: the move is gone only if an undo went back before its last event
            if self.kept_through(game_id, record.generation, record.to_version) < record.to_version:
                raise GameError("idempotency_expired", "the move made with this Idempotency-Key was undone")
        # the answer the move got: the game as that move left it, whatever was played since
        game = self.load(game_id, at_version=record.to_version)
        events = self.store.read(game_id, record.from_version, record.to_version)
        return MoveOutcome(game, events, True)


def _token_hashes(info: StreamInfo, doc: dict[str, Any] | None) -> dict[int, str]:
    """The hash of each human seat's token: from the game's token document, or for a game created before the hashes
    moved out of the (public, signed) metadata, from its metadata."""
    if doc is not None:
        return {int(seat): stored for seat, stored in doc["seats"].items() if isinstance(stored, str)}
    return {int(seat["seat"]): seat["token_hash"] for seat in info.metadata["seats"] if seat.get("token_hash")}


def _a_game(info: StreamInfo) -> StreamInfo:
    """The stream row of a game; ``unknown_game`` for a stream with no event yet: its set-up was never stored (a
    creation that failed after writing the row), so it is no game."""
    if info.version == 0:
        raise GameError("unknown_game", f"no game with id {info.stream!r}")
    return info
