"""The event store contract shared by every backend (memory, SQLite, PostgreSQL).

Streams are numbered from version 1; ``expected_version`` is the version the writer last saw (0 for
an empty stream). Every stored event carries:

- ``position``: a global, strictly increasing number; ``read_all(after_position)`` returns events in
  position order and a reader that polls never skips a position that later becomes visible;
- ``generation``: the stream's truncation generation when the event was appended (0 until the first
  truncation; every ``truncate`` increments it), so a version number reused after an undo is never
  confused with the one it replaced;
- ``hash``: ``SHA-256(previous_hash_hex + canonical_json({"data", "generation", "meta", "recorded_at",
  "version"}))`` as hex: every stored field of the event but its position. The previous hash of
  version 1 is the stream's genesis hash, ``SHA-256(GENESIS_HASH + canonical_json({"created_at",
  "game_type", "metadata", "stream"}))`` over the stream as created (``StreamInfo.creation``, the
  metadata given to ``create_stream``, which never changes), so the chain also proves the seats and
  options a game was created with. Canonical JSON has sorted keys, no spaces and UTF-8 text.
  ``verify`` recomputes the chain.

A store opened with a ``signer`` (a callable from message bytes to a signature string; the store
never sees the key) signs its stream heads inside the writing transaction: every create, append and
truncate stores ``signer(head_message(stream, generation, version, head_hash))`` with the stream, and
``verify`` returns it so the caller can check it against the public key. A forger who edits events
and recomputes the hashes cannot produce that signature.

Truncated events are moved to an archive with who, when and why; nothing is deleted.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

GENESIS_HASH = "0" * 64


class EventStoreError(Exception):
    pass


class WrongExpectedVersion(EventStoreError):
    def __init__(self, stream: str, expected: int, actual: int) -> None:
        super().__init__(f"stream {stream!r} is at version {actual}, not the expected {expected}")
        self.stream = stream
        self.expected = expected
        self.actual = actual


class StreamNotFound(EventStoreError):
    def __init__(self, stream: str) -> None:
        super().__init__(f"no stream {stream!r}")
        self.stream = stream


class StreamExists(EventStoreError):
    def __init__(self, stream: str) -> None:
        super().__init__(f"stream {stream!r} exists already")
        self.stream = stream


class DuplicateIdempotencyKey(EventStoreError):
    """Another append with the same idempotency key on the same stream committed first."""


class StoreUnavailable(EventStoreError):
    """The backing database cannot be reached."""


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def chain_hash(
    previous_hash: str, version: int, generation: int, recorded_at: str, data: dict[str, Any], meta: dict[str, Any]
) -> str:
    payload = canonical_json(
        {"version": version, "generation": generation, "recorded_at": recorded_at, "data": data, "meta": meta}
    )
    return hashlib.sha256((previous_hash + payload).encode("utf-8")).hexdigest()


def genesis_hash(stream: str, game_type: str, created_at: str, metadata: dict[str, Any]) -> str:
    """Where a stream's chain starts: a hash of the stream as created (its metadata never changes)."""
    payload = canonical_json({"stream": stream, "game_type": game_type, "created_at": created_at, "metadata": metadata})
    return hashlib.sha256((GENESIS_HASH + payload).encode("utf-8")).hexdigest()


HEAD_MESSAGE_FORMAT = "tradewinds-chain-head/1"


def head_message(stream: str, generation: int, version: int, head_hash: str) -> bytes:
    """The bytes a server signs for a stream head (also what an export's signature covers)."""
    return canonical_json(
        {
            "format": HEAD_MESSAGE_FORMAT,
            "stream": stream,
            "generation": generation,
            "version": version,
            "head_hash": head_hash,
        }
    ).encode("utf-8")


Signer = Callable[[bytes], str]


@dataclass(frozen=True)
class StoredEvent:
    stream: str
    version: int
    position: int
    generation: int
    data: dict[str, Any]  # the event itself, with its "type"
    meta: dict[str, Any]  # who appended it (actor, seat, command id), never game data
    hash: str
    recorded_at: str  # ISO 8601 UTC

    @property
    def type(self) -> str:
        return str(self.data["type"])


@dataclass(frozen=True)
class Audience:
    """Whom a listing of streams is for: an integrator's key (``key_id``), or an anonymous caller (``None``).

    The visibility rules (docs/limits.md): a stream's metadata names its creator (``created_by``, a key id or
    null) and may say ``public``. A stream is public when ``public`` says so; without it, streams created
    without a key are public and those created with a key are not. An anonymous caller is listed the public
    streams created without a key; a key is listed its own streams and every public one."""

    key_id: str | None = None


def is_public(metadata: dict[str, Any]) -> bool:
    public = metadata.get("public")
    return metadata.get("created_by") is None if public is None else bool(public)


def listed_to(info: StreamInfo, audience: Audience) -> bool:
    """Whether ``list_streams(audience=...)`` lists the stream: never one with no event yet (a game whose set-up
    was never stored, its creation failed after the stream row was written, is no game), else by its creator and
    ``public``."""
    if info.version == 0:
        return False
    metadata = info.metadata
    creator = metadata.get("created_by")
    if audience.key_id is None:
        return creator is None and is_public(metadata)
    return creator == audience.key_id or is_public(metadata)


@dataclass(frozen=True)
class StreamInfo:
    stream: str
    game_type: str
    created_at: str
    status: str
    version: int
    generation: int
    metadata: dict[str, Any] = field(default_factory=dict)
    creation: dict[str, Any] = field(default_factory=dict)  # the metadata as created: never changes
    head_hash: str = ""  # the hash chain's head as read ("" where a store does not say)


@dataclass(frozen=True)
class Truncation:
    stream: str
    from_version: int  # the stream's version before the truncation
    to_version: int  # the version it was truncated back to
    generation: int  # the stream's generation after the truncation
    actor: str
    reason: str
    truncated_at: str


TruncationCheck = Callable[[StreamInfo, list[StoredEvent]], None]


@dataclass(frozen=True)
class ArchivedEvent:
    event: StoredEvent
    truncation_generation: int  # the generation the truncation that removed it created


@dataclass(frozen=True)
class IdempotencyRecord:
    key: str
    request_hash: str
    generation: int
    from_version: int
    to_version: int


@dataclass(frozen=True)
class AuditReport:
    stream: str
    ok: bool
    checked: int
    broken_version: int | None
    detail: str
    # the head the chain ends on, with the signature the store holds for it ("" when unsigned)
    generation: int = 0
    version: int = 0
    head_hash: str = ""
    head_signature: str = ""


class DocumentStore(Protocol):
    """Key-value documents for non-event data (API keys, webhook subscriptions, tournaments, tickets): the part
    of the store the API may hand to the workers' document helpers (``GameService.documents``)."""

    # ``put_document`` inserts or replaces; ``list_documents`` is ordered by key.
    def put_document(self, collection: str, key: str, doc: dict[str, Any]) -> None: ...
    def get_document(self, collection: str, key: str) -> dict[str, Any] | None: ...
    # In key order; ``after``: only the keys after it (a page that starts where the last one ended).
    def list_documents(
        self, collection: str, limit: int = 100, offset: int = 0, after: str | None = None
    ) -> list[tuple[str, dict[str, Any]]]: ...
    def delete_document(self, collection: str, key: str) -> None: ...
    # Delete and return in one step: of two racing callers exactly one gets the document (one-time tokens).
    def take_document(self, collection: str, key: str) -> dict[str, Any] | None: ...


class EventStore(DocumentStore, Protocol):
    """What every backend implements; ``tests/eventstore`` runs one contract suite against all.

    Errors: ``StreamNotFound`` from every per-stream call on an unknown stream (``get_idempotency`` and
    ``load_snapshot`` return None instead); ``StreamExists`` from ``create_stream``; ``ValueError`` for
    bad arguments (empty or non-JSON event batch, event without a string "type", impossible truncation
    such as ``to_version >= version``); ``StoreUnavailable`` when the database cannot be reached.

    - ``update_stream`` merges ``metadata`` into the stored dict (top-level keys replaced) and sets
      ``status`` when given; it never changes ``version``.
    - ``append`` stores the whole batch or nothing. ``meta`` is stored on every event of the batch.
      ``WrongExpectedVersion(actual=...)`` when the stream is not at ``expected_version``;
      ``DuplicateIdempotencyKey`` when ``idempotency_key`` was already used on this stream, checked
      before the version, so a retry (or a racing duplicate) is always recognised as such; the key is
      stored in the same transaction as the events. ``status`` (when given) becomes the stream's status
      in that transaction too: the status is a cache of the facts in the chain, never written apart
      from them.
    - ``read(from_version, to_version)`` is inclusive at both ends; ``read_all`` returns at most
      ``limit`` events with ``position > after_position``. Positions are strictly increasing, not
      necessarily dense (PostgreSQL positions are sparse).
    - ``truncate`` moves versions above ``to_version`` to the archive, records a ``Truncation`` and
      increments the generation; idempotency records are kept (they carry their generation). Inside the
      same locked transaction it raises ``WrongExpectedVersion`` when the stream is not at
      ``expected_version`` and then calls ``check(info, events_after)`` with the events it is about to
      archive, read under that lock: whatever ``check`` raises aborts the truncation (nothing archived),
      so a policy evaluated there cannot be overtaken by a concurrent append. ``status`` (when given)
      becomes the stream's status in the same transaction.
    """

    def migrate(self) -> None: ...
    def ping(self) -> None: ...
    def close(self) -> None: ...

    def create_stream(self, stream: str, game_type: str, metadata: dict[str, Any]) -> StreamInfo: ...
    def stream_info(self, stream: str) -> StreamInfo: ...
    def stream_info_and_document(self, stream: str, collection: str) -> tuple[StreamInfo, dict[str, Any] | None]:
        """The stream's info and the document ``(collection, stream)`` (None when there is none), read together:
        one round trip on a networked store."""
        ...

    def list_streams(
        self,
        game_type: str | None = None,
        status: str | None = None,
        limit: int = 100,
        offset: int = 0,
        newest_first: bool = False,
        before: str | None = None,
        audience: Audience | None = None,
    ) -> list[StreamInfo]:
        """Streams in creation order, or newest first; ``before``: only those that come after the stream of that
        id in this order (the cursor of the next page). An unknown ``before`` lists nothing. ``audience``: only
        the streams listed to that caller (``listed_to``); all of them without one."""
        ...

    def update_stream(
        self, stream: str, status: str | None = None, metadata: dict[str, Any] | None = None
    ) -> StreamInfo: ...

    def append(
        self,
        stream: str,
        events: list[dict[str, Any]],
        expected_version: int,
        meta: dict[str, Any] | None = None,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
        outbox: list[dict[str, Any]] | None = None,  # work written in the same transaction (eventstore.outbox)
        status: str | None = None,  # the stream's status, set in the same transaction
        # the stream as the caller read it at expected_version: a store may hash and sign on it before it
        # writes (PostgreSQL: one round trip); a store whose head is another refuses like a stale version
        head: StreamInfo | None = None,
    ) -> list[StoredEvent]: ...
    def read(self, stream: str, from_version: int = 1, to_version: int | None = None) -> list[StoredEvent]: ...
    def read_all(self, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]: ...
    def get_idempotency(self, stream: str, key: str) -> IdempotencyRecord | None: ...

    def truncate(
        self,
        stream: str,
        to_version: int,
        actor: str,
        reason: str,
        *,
        expected_version: int,
        check: TruncationCheck | None = None,
        status: str | None = None,
    ) -> Truncation: ...
    def truncations(self, stream: str) -> list[Truncation]: ...
    def archived(self, stream: str) -> list[ArchivedEvent]: ...
    def verify(self, stream: str) -> AuditReport: ...

    def save_snapshot(self, stream: str, generation: int, version: int, key: str, blob: bytes) -> None: ...
    def load_snapshot(self, stream: str, generation: int, max_version: int, key: str) -> tuple[int, bytes] | None: ...
    def delete_snapshots(self, stream: str | None = None) -> None: ...

    # The outbox (``eventstore.outbox``): work a change causes, claimed by sweepers until it is completed.
    def put_outbox(self, entries: list[dict[str, Any]]) -> None: ...
    def claim_outbox(self, now: float, lease: float, limit: int = 100) -> list[Any]: ...
    def complete_outbox(self, key: str, token: str) -> bool: ...
    def list_outbox(self, job: str | None = None, limit: int = 100) -> list[Any]: ...

    # Live followers: True as soon as an event with a position above ``after_position`` exists,
    # False when ``timeout`` seconds pass first. A wake-up only: callers re-read with ``read_all``.
    def head_position(self) -> int:
        """The highest position stored now (0 when empty); pass it to ``wait_for_append``."""
        ...

    def wait_for_append(self, after_position: int, timeout: float) -> bool: ...
