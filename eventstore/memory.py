"""An in-process event store for tests and throw-away servers. Thread-safe (one lock); nothing persists."""

from __future__ import annotations

import bisect
import threading
from dataclasses import dataclass, field, replace
from typing import Any

from eventstore._common import (
    chain_batch,
    check_dict,
    check_events,
    check_expected_version,
    check_head,
    check_name,
    check_paging,
    check_truncation_args,
    check_truncation_target,
    json_copy,
    json_loads,
    same_head,
    sign_head,
    utc_now_iso,
    wait_until,
)
from eventstore.base import (
    GENESIS_HASH,
    ArchivedEvent,
    Audience,
    AuditReport,
    DuplicateIdempotencyKey,
    IdempotencyRecord,
    Signer,
    StoredEvent,
    StreamExists,
    StreamInfo,
    StreamNotFound,
    Truncation,
    TruncationCheck,
    WrongExpectedVersion,
    canonical_json,
    genesis_hash,
    listed_to,
)
from eventstore.outbox import OutboxEntry, check_outbox, next_lease
from eventstore.verify import verify_events


@dataclass
class _Stream:
    info: StreamInfo
    last_hash: str = GENESIS_HASH
    genesis: str = GENESIS_HASH
    head_signature: str = ""
    events: list[StoredEvent] = field(default_factory=list)
    idempotency: dict[str, IdempotencyRecord] = field(default_factory=dict)
    truncations: list[Truncation] = field(default_factory=list)
    archived: list[ArchivedEvent] = field(default_factory=list)


class MemoryStore:
    """Implements ``eventstore.base.EventStore`` in memory."""

    def __init__(self, signer: Signer | None = None) -> None:
        self._signer = signer
        self._lock = threading.RLock()
        self._appended = threading.Condition(self._lock)
        self._append_count = 0
        self._streams: dict[str, _Stream] = {}
        self._log: list[StoredEvent] = []  # every live event, in position order
        self._positions: list[int] = []  # parallel to _log, for bisect
        self._next_position = 1
        self._outbox: dict[str, OutboxEntry] = {}
        self._snapshots: dict[tuple[str, int, str], dict[int, bytes]] = {}
        self._documents: dict[str, dict[str, dict[str, Any]]] = {}
        self._texts: dict[int, tuple[str, str]] = {}  # position -> canonical JSON of data and meta

    def _copy_event(self, event: StoredEvent) -> StoredEvent:
        data_text, meta_text = self._texts[event.position]
        return replace(event, data=json_loads(data_text), meta=json_loads(meta_text))

    # -- lifecycle ---------------------------------------------------------------------------------
    def migrate(self) -> None:
        pass

    def ping(self) -> None:
        pass

    def close(self) -> None:
        with self._appended:
            self._append_count += 1
            self._appended.notify_all()

    # -- streams -----------------------------------------------------------------------------------
    def _get(self, stream: str) -> _Stream:
        try:
            return self._streams[stream]
        except KeyError:
            raise StreamNotFound(stream) from None

    def create_stream(self, stream: str, game_type: str, metadata: dict[str, Any]) -> StreamInfo:
        check_name(stream, "stream")
        check_name(game_type, "game_type")
        metadata = check_dict(metadata if metadata is not None else {}, "metadata")
        with self._lock:
            if stream in self._streams:
                raise StreamExists(stream)
            info = StreamInfo(
                stream, game_type, utc_now_iso(), "active", 0, 0, metadata, json_copy(metadata, "metadata")
            )
            genesis = genesis_hash(stream, game_type, info.created_at, metadata)
            self._streams[stream] = _Stream(info, genesis, genesis, sign_head(self._signer, stream, 0, 0, genesis))
            return _copy_info(info)

    def stream_info(self, stream: str) -> StreamInfo:
        with self._lock:
            return _copy_info(self._get(stream).info)

    def stream_info_and_document(self, stream: str, collection: str) -> tuple[StreamInfo, dict[str, Any] | None]:
        return self.stream_info(stream), self.get_document(collection, stream)

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
        check_paging(limit, offset)
        with self._lock:
            ordered = list(self._streams)
            if newest_first:
                ordered.reverse()
            if before is not None:
                ordered = ordered[ordered.index(before) + 1 :] if before in ordered else []
            found = [
                s.info
                for s in (self._streams[name] for name in ordered)
                if (game_type is None or s.info.game_type == game_type)
                and (status is None or s.info.status == status)
                and (audience is None or listed_to(s.info, audience))
            ]
            return [_copy_info(info) for info in found[offset : offset + limit]]

    def update_stream(
        self, stream: str, status: str | None = None, metadata: dict[str, Any] | None = None
    ) -> StreamInfo:
        if status is not None:
            check_name(status, "status")
        patch = check_dict(metadata, "metadata") if metadata is not None else {}
        with self._lock:
            entry = self._get(stream)
            merged = {**entry.info.metadata, **patch}
            entry.info = replace(entry.info, status=status or entry.info.status, metadata=merged)
            return _copy_info(entry.info)

    # -- events ------------------------------------------------------------------------------------
    def append(
        self,
        stream: str,
        events: list[dict[str, Any]],
        expected_version: int,
        meta: dict[str, Any] | None = None,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
        outbox: list[dict[str, Any]] | None = None,
        status: str | None = None,
        head: StreamInfo | None = None,
    ) -> list[StoredEvent]:
        encoded = check_events(events)
        check_head(head, stream, expected_version)
        if status is not None:
            check_name(status, "status")
        work = check_outbox(outbox)
        meta = check_dict(meta if meta is not None else {}, "meta")
        meta_text = canonical_json(meta)
        check_expected_version(expected_version)
        if idempotency_key is not None:
            check_name(idempotency_key, "idempotency_key")
        with self._appended:
            entry = self._get(stream)
            info = entry.info
            if idempotency_key is not None and idempotency_key in entry.idempotency:
                raise DuplicateIdempotencyKey(f"idempotency key {idempotency_key!r} was used on stream {stream!r}")
            if info.version != expected_version or not same_head(head, info.generation, entry.last_hash):
                raise WrongExpectedVersion(stream, expected_version, info.version)
            recorded_at = utc_now_iso()
            hashes = chain_batch(
                entry.last_hash, expected_version, info.generation, recorded_at, [t for _, t in encoded], meta_text
            )
            stored = []
            for offset, ((data, data_text), previous) in enumerate(zip(encoded, hashes, strict=True)):
                version = expected_version + offset + 1
                position = self._next_position + offset
                stored.append(
                    StoredEvent(stream, version, position, info.generation, data, meta, previous, recorded_at)
                )
                self._texts[position] = (data_text, meta_text)
            # nothing above can fail half-way through: commit the whole batch
            self._next_position += len(stored)
            entry.events.extend(stored)
            self._log.extend(stored)
            self._positions.extend(e.position for e in stored)
            head_signature = sign_head(self._signer, stream, info.generation, stored[-1].version, previous)
            entry.last_hash = previous
            entry.head_signature = head_signature
            entry.info = replace(info, version=stored[-1].version, status=status or info.status)
            if idempotency_key is not None:
                entry.idempotency[idempotency_key] = IdempotencyRecord(
                    idempotency_key, request_hash or "", info.generation, stored[0].version, stored[-1].version
                )
            for item in work:
                self._outbox[item.key] = item
            self._append_count += 1
            self._appended.notify_all()
            return [self._copy_event(e) for e in stored]

    # -- outbox (eventstore.outbox) ------------------------------------------------------------------
    def put_outbox(self, entries: list[dict[str, Any]]) -> None:
        work = check_outbox(entries)
        with self._lock:
            for item in work:
                self._outbox[item.key] = item

    def claim_outbox(self, now: float, lease: float, limit: int = 100) -> list[OutboxEntry]:
        check_paging(limit)
        next_lease(lease, 0)
        with self._lock:
            due = sorted((e for e in self._outbox.values() if e.due_at <= now), key=lambda e: (e.due_at, e.key))
            claimed = []
            for entry in due[:limit]:
                entry = replace(entry, due_at=now + next_lease(lease, entry.attempts), attempts=entry.attempts + 1)
                self._outbox[entry.key] = entry
                claimed.append(entry)
            return [replace(e, args=json_copy(e.args, "args")) for e in claimed]

    def complete_outbox(self, key: str, token: str) -> bool:
        with self._lock:
            entry = self._outbox.get(key)
            if entry is None or entry.token != token:
                return False
            del self._outbox[key]
            return True

    def list_outbox(self, job: str | None = None, limit: int = 100) -> list[OutboxEntry]:
        check_paging(limit)
        with self._lock:
            found = sorted(
                (e for e in self._outbox.values() if job is None or e.job == job), key=lambda e: (e.due_at, e.key)
            )
            return [replace(e, args=json_copy(e.args, "args")) for e in found[:limit]]

    def read(self, stream: str, from_version: int = 1, to_version: int | None = None) -> list[StoredEvent]:
        with self._lock:
            events = self._get(stream).events
            start = max(from_version, 1) - 1
            end = len(events) if to_version is None else max(start, min(to_version, len(events)))
            return [self._copy_event(e) for e in events[start:end]]

    def read_all(self, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        check_paging(limit)
        with self._lock:
            start = bisect.bisect_right(self._positions, after_position)
            return [self._copy_event(e) for e in self._log[start : start + limit]]

    def get_idempotency(self, stream: str, key: str) -> IdempotencyRecord | None:
        with self._lock:
            entry = self._streams.get(stream)
            return entry.idempotency.get(key) if entry else None

    def head_position(self) -> int:
        with self._lock:
            return self._positions[-1] if self._positions else 0

    def wait_for_append(self, after_position: int, timeout: float) -> bool:
        return wait_until(
            self._appended,
            lambda: self._append_count,
            lambda: self.head_position() > after_position,
            timeout,
            poll=timeout,
        )

    # -- truncation and audit ----------------------------------------------------------------------
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
    ) -> Truncation:
        check_truncation_args(actor, reason, expected_version)
        if status is not None:
            check_name(status, "status")
        with self._lock:
            entry = self._get(stream)
            info = entry.info
            check_truncation_target(stream, info, to_version, expected_version)
            removed = entry.events[to_version:]
            if check is not None:
                check(_copy_info(info), [self._copy_event(e) for e in removed])
            generation = info.generation + 1
            entry.events = entry.events[:to_version]
            entry.archived.extend(ArchivedEvent(e, generation) for e in removed)
            gone = {e.position for e in removed}
            self._log = [e for e in self._log if e.position not in gone]
            self._positions = [e.position for e in self._log]
            entry.last_hash = entry.events[-1].hash if entry.events else entry.genesis
            entry.head_signature = sign_head(self._signer, stream, generation, to_version, entry.last_hash)
            entry.info = replace(info, version=to_version, generation=generation, status=status or info.status)
            record = Truncation(stream, info.version, to_version, generation, actor, reason, utc_now_iso())
            entry.truncations.append(record)
            return record

    def truncations(self, stream: str) -> list[Truncation]:
        with self._lock:
            return list(self._get(stream).truncations)

    def archived(self, stream: str) -> list[ArchivedEvent]:
        with self._lock:
            return [
                ArchivedEvent(self._copy_event(a.event), a.truncation_generation) for a in self._get(stream).archived
            ]

    def verify(self, stream: str) -> AuditReport:
        with self._lock:
            entry = self._get(stream)
            info = entry.info
            genesis = genesis_hash(stream, info.game_type, info.created_at, info.creation)
            return verify_events(
                stream,
                list(entry.events),
                info.version,
                entry.last_hash,
                genesis,
                info.generation,
                entry.head_signature,
            )

    # -- snapshots ---------------------------------------------------------------------------------
    def save_snapshot(self, stream: str, generation: int, version: int, key: str, blob: bytes) -> None:
        with self._lock:
            self._get(stream)
            self._snapshots.setdefault((stream, generation, key), {})[version] = bytes(blob)

    def load_snapshot(self, stream: str, generation: int, max_version: int, key: str) -> tuple[int, bytes] | None:
        with self._lock:
            versions = self._snapshots.get((stream, generation, key), {})
            eligible = [v for v in versions if v <= max_version]
            if not eligible:
                return None
            best = max(eligible)
            return best, versions[best]

    def delete_snapshots(self, stream: str | None = None) -> None:
        with self._lock:
            if stream is None:
                self._snapshots.clear()
            else:
                for k in [k for k in self._snapshots if k[0] == stream]:
                    del self._snapshots[k]

    # -- documents ---------------------------------------------------------------------------------
    def put_document(self, collection: str, key: str, doc: dict[str, Any]) -> None:
        check_name(collection, "collection")
        check_name(key, "key")
        doc = check_dict(doc, "document")
        with self._lock:
            self._documents.setdefault(collection, {})[key] = doc

    def get_document(self, collection: str, key: str) -> dict[str, Any] | None:
        with self._lock:
            doc = self._documents.get(collection, {}).get(key)
            return json_copy(doc, "document") if doc is not None else None

    def list_documents(
        self, collection: str, limit: int = 100, offset: int = 0, after: str | None = None
    ) -> list[tuple[str, dict[str, Any]]]:
        check_paging(limit, offset)
        with self._lock:
            docs = self._documents.get(collection, {})
            keys = sorted(k for k in docs if after is None or k > after)[offset : offset + limit]
            return [(k, json_copy(docs[k], "document")) for k in keys]

    def delete_document(self, collection: str, key: str) -> None:
        with self._lock:
            self._documents.get(collection, {}).pop(key, None)

    def take_document(self, collection: str, key: str) -> dict[str, Any] | None:
        with self._lock:
            doc = self._documents.get(collection, {}).pop(key, None)
            return json_copy(doc, "document") if doc is not None else None


def _copy_info(info: StreamInfo) -> StreamInfo:
    return replace(info, metadata=json_copy(info.metadata, "metadata"), creation=json_copy(info.creation, "metadata"))
