"""Signed webhooks for integrators: subscriptions, an ordered delivery queue, back-off, disabling dead receivers.

Deliveries follow the Standard Webhooks convention: headers ``webhook-id`` (the receiver's
de-duplication key), ``webhook-timestamp`` (Unix seconds) and ``webhook-signature: v1,<base64
HMAC-SHA256 of "id.timestamp.body">`` keyed with the subscription's secret (``whsec_<base64>``).

Ordering: the events of one game are derived from its stream in version order by ``sync_game``
(one process at a time per game, under a lock), appended to each subscription's queue (under keys that never go
back within a game, whatever the clocks of the machines that sync it: ``GameKeys``), and
``deliver`` sends a subscription's queue strictly in order, stopping at the first failure and trying
again later with exponential back-off. A receiver that is down for a while therefore gets every event
once it is back, in order per game. One that fails every attempt for ``DISABLE_AFTER_SECONDS`` is disabled: its
queue is kept as it stands but neither sent nor added to, until its integrator resumes it (``resume``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import secrets
import time
import uuid
from datetime import datetime
from time import monotonic  # a pass's own duration (tests set ``time.time``)
from typing import Any

from eventstore import utc_now_iso
from eventstore.base import DocumentStore, EventStore, StreamNotFound
from workers import clocks, facts, metrics, webhook_targets
from workers.game_model import public_seats, with_seat_ids
from workers.games import GameService

log = logging.getLogger(__name__)

KINDS = (
    "game.started",
    "game.turn",
    "game.finished",
    "game.truncated",
    "tournament.round_started",
    "tournament.finished",
)
SUBSCRIPTIONS = "webhooks"
INDEXES = "webhook_indexes"  # which index builds are done (the per-key index, each queue's marks and index)
STATE = "webhook_state"  # each subscription's delivery state (``delivery_state``)
DISABLED = "webhook_disabled"  # a disabled subscription's reason and time (``disabled``)
DISABLE_AFTER_SECONDS = 5 * 24 * 3600  # failing every attempt this long disables a subscription
MAX_PER_KEY = 20  # subscriptions an API key may hold
CURSORS = "webhook_game_cursors"
BACKOFF_BASE = 1.0  # seconds; attempt n waits BACKOFF_BASE * 2**(n-1), capped
BACKOFF_CAP = 600.0
LOG_SECONDS = 7 * 24 * 3600  # a delivered event stays this long in the delivery log, then goes
PRUNE_PAGE = 20  # log entries a pass's retention check reads at a time, from the log's front
TIMEOUT = 5.0  # seconds a send may take in all, from connecting to the end of the receiver's answer
SENDS_PER_JOB = 20  # a longer queue continues in the next job, so no job holds its lock for long
# A job sends no more after this many seconds of sending (the rest goes in the next job, at the back of the queue):
# on the job runner without Redis, another key's sends wait for one slow send, not for a whole slow queue.
SECONDS_PER_JOB = 1.0
Doc = dict[str, Any]  # a stored document: a subscription or a queued delivery
WEBHOOK_SEAT_FIELDS = ("seat", "kind", "name", "level", "external_id")


def queue_name(sub_id: str) -> str:
    """A subscription's delivery log: every queued event with its attempts, keyed in emission order."""
    return f"webhook_queue:{sub_id}"


def pending_name(sub_id: str) -> str:
    """The log's keys still to send (an empty document each): a pass reads these, not the whole log."""
    return f"webhook_pending:{sub_id}"


def by_key_name(key_id: str) -> str:
    """An API key's subscription ids (an empty document each): its list without reading every subscription."""
    return f"webhooks_of:{key_id}"


def messages_name(sub_id: str) -> str:
    """Message id -> log key, so that a redelivery finds its event without reading the log."""
    return f"webhook_messages:{sub_id}"


def queue_indexed(sub_id: str) -> str:
    """The key, among ``INDEXES``, that says the subscription's queue has its pending marks and message index."""
    return f"queue:{sub_id}"


def new_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def sign(secret: str, msg_id: str, timestamp: int, body: str) -> str:
    key = base64.b64decode(secret.removeprefix("whsec_"))
    digest = hmac.new(key, f"{msg_id}.{timestamp}.{body}".encode(), hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


# ------------------------------------------------------------------------------ subscriptions
# A subscription's document is written when it is created and deleted when it is deleted, never in between: what
# delivery changes (failures, back-off) is its delivery state, a document of its own, so that a delivery job that
# was running when the subscription was deleted cannot write it back.
def create_subscription(
    store: DocumentStore, key_id: str, url: str, kinds: list[str], secret: str | None = None
) -> Doc:
    sub: Doc = {
        "id": "wh_" + uuid.uuid4().hex[:20],
        "key_id": key_id,
        "url": url,
        "secret": secret or new_secret(),
        "events": list(dict.fromkeys(kinds)),
        "created_at": utc_now_iso(),
        "active": True,
    }
    # the key's index first: an index entry whose subscription is missing is skipped, never the other way round
    store.put_document(by_key_name(key_id), sub["id"], {})
    store.put_document(INDEXES, queue_indexed(sub["id"]), {"built_at": sub["created_at"]})
    store.put_document(SUBSCRIPTIONS, sub["id"], sub)
    return sub


def delivery_state(store: DocumentStore, sub: Doc) -> Doc:
    """Consecutive failed sends, since when they fail (``failing_since``, Unix seconds) and when the next attempt
    is due (after a failure); a subscription stored before the state had a document of its own kept the failures
    and the next attempt in its own."""
    state = store.get_document(STATE, sub["id"])
    if state is None:
        state = {"failures": sub.get("failures", 0), "next_attempt_at": sub.get("next_attempt_at")}
    return state


# A subscription is disabled by a document of its own, apart from the delivery state that a running pass writes
# back: an integrator's pause is not undone by a pass that was running when it came.
def disabled(store: DocumentStore, sub_id: str) -> Doc | None:
    """Why and since when the subscription is disabled (``reason``: ``paused`` by its integrator, or ``failing``
    for ``DISABLE_AFTER_SECONDS``), or None while it is active."""
    return store.get_document(DISABLED, sub_id)


def pause(store: DocumentStore, sub_id: str, reason: str = "paused") -> None:
    """Disable a subscription: nothing more is queued for it and its queue waits, kept, until ``resume``. Its first
    reason stays, but ``revoked`` (its key was revoked: nobody can resume it) replaces any other."""
    off = disabled(store, sub_id)
    if off is None or (reason == "revoked" and off["reason"] != reason):
        store.put_document(DISABLED, sub_id, {"reason": reason, "at": utc_now_iso()})


def silence_revoked_keys(store: DocumentStore) -> None:
    """Once per store: disable the subscriptions of keys revoked before a revocation did so itself
    (``apikeys.revoke``)."""
    if store.get_document(INDEXES, "revoked_keys_silenced") is not None:
        return
    from workers import apikeys

    for key in apikeys.list_keys(store):
        if key.revoked:
            silence_key(store, key.key_id)
    store.put_document(INDEXES, "revoked_keys_silenced", {"built_at": utc_now_iso()})


def silence_key(store: DocumentStore, key_id: str) -> None:
    """A revoked key's subscriptions are disabled (reason ``revoked``): nothing more is queued or sent for them."""
    for sub in subscriptions_for(store, key_id):
        pause(store, sub["id"], reason="revoked")


def resume(store: DocumentStore, sub: Doc) -> bool:
    """Enable a disabled subscription again with a clean slate: no failures counted, no back-off (its caller
    schedules a delivery job, which sends the queue kept while it was disabled). An active one is left as it is
    (its failures keep counting towards disabling it); returns whether it was disabled."""
    if disabled(store, sub["id"]) is None:
        return False
    store.put_document(STATE, sub["id"], {"failures": 0, "next_attempt_at": None})
    store.delete_document(DISABLED, sub["id"])
    return True


def indexed(store: DocumentStore, sub_id: str) -> None:
    """A log stored before queues kept pending marks and a message index gets them once (idempotent: two
    processes doing it at once write the same; a mark for an entry delivered meanwhile is cleared by the next
    pass)."""
    if store.get_document(INDEXES, queue_indexed(sub_id)) is not None:
        return
    for key, entry in all_documents(store, queue_name(sub_id)):
        store.put_document(messages_name(sub_id), entry["id"], {"key": key})
        if entry["status"] != "delivered":
            store.put_document(pending_name(sub_id), key, {})
    store.put_document(INDEXES, queue_indexed(sub_id), {"built_at": utc_now_iso()})


def subscriptions_for(store: DocumentStore, key_id: str) -> list[Doc]:
    """The key's subscriptions in id order, read through the key's index."""
    keys_indexed(store)
    subs = (get_subscription(store, sub_id) for sub_id, _ in all_documents(store, by_key_name(key_id)))
    return [sub for sub in subs if sub is not None and sub["key_id"] == key_id]


def all_documents(store: DocumentStore, collection: str, page: int = 500) -> list[tuple[str, Doc]]:
    found: list[tuple[str, Doc]] = []
    while batch := store.list_documents(collection, limit=page, offset=len(found)):
        found.extend(batch)
    return found


def keys_indexed(store: DocumentStore) -> None:
    """Subscriptions stored before the per-key index get their index entries once, from scans of all: a scan
    pages by offset, so one that a deletion shifted may skip a subscription; the scans repeat until one finds
    every subscription indexed already."""
    if store.get_document(INDEXES, "webhooks_by_key") is not None:
        return
    added = True
    while added:
        added = False
        for sub_id, sub in all_documents(store, SUBSCRIPTIONS):
            if store.get_document(by_key_name(sub["key_id"]), sub_id) is None:
                store.put_document(by_key_name(sub["key_id"]), sub_id, {})
                added = True
    store.put_document(INDEXES, "webhooks_by_key", {"built_at": utc_now_iso()})


def get_subscription(store: DocumentStore, sub_id: str) -> Doc | None:
    return store.get_document(SUBSCRIPTIONS, sub_id)


# subscription id or game id -> the group of its webhook jobs (a subscription's key, a game's creator never change)
_OWNERS: dict[str, str | None] = {}
_OWNERS_KEPT = 10_000


def delivery_group(store: EventStore, job: str, args: tuple[Any, ...]) -> str | None:
    """The group a webhook job waits in (``workers.dispatch``: a group of the in-process runner's fair queue, or the
    RQ queue it hashes to): a subscription's sends by its API key, and a game's sync (which turns its events into
    sends) by the key that created the game, so that one key's slow receivers take their turns with the other keys'
    work and do not delay it all; any other job ``None``."""
    if job not in ("deliver_webhooks", "redeliver_webhook", "sync_webhooks") or not args:
        return None
    name = str(args[0])
    if name in _OWNERS:
        return _OWNERS[name]
    if job == "sync_webhooks":
        try:
            creator = store.stream_info(name).metadata.get("created_by")
        except StreamNotFound:
            return None
        owner = None if creator is None else f"key:{creator}"
    else:
        sub = get_subscription(store, name)
        if sub is None:
            return None
        owner = f"key:{sub['key_id']}"
    if len(_OWNERS) >= _OWNERS_KEPT:
        _OWNERS.clear()
    _OWNERS[name] = owner
    return owner


def delete_subscription(store: DocumentStore, sub: Doc) -> None:
    """Remove the subscription; its delivery log, marks, index and state go with its next delivery job
    (``drop_queue``), which the caller schedules."""
    store.delete_document(SUBSCRIPTIONS, sub["id"])
    store.delete_document(by_key_name(sub["key_id"]), sub["id"])


def drop_queue(store: DocumentStore, sub_id: str, limit: int = 500) -> bool:
    """Delete about ``limit`` documents of a deleted subscription's queue (marks, index, log, state); True when
    none is left."""
    dropped = 0
    for collection in (pending_name(sub_id), messages_name(sub_id), queue_name(sub_id)):
        while page := store.list_documents(collection, limit=100):
            if dropped >= limit:
                return False
            for key, _ in page:
                store.delete_document(collection, key)
            dropped += len(page)
    store.delete_document(STATE, sub_id)
    store.delete_document(DISABLED, sub_id)
    store.delete_document(INDEXES, queue_indexed(sub_id))
    return True


def deliveries(store: DocumentStore, sub_id: str, limit: int = 100, offset: int = 0) -> list[Doc]:
    return [doc for _, doc in store.list_documents(queue_name(sub_id), limit=limit, offset=offset)]


# ------------------------------------------------------------------------------------- emitting
def enqueue_event(
    store: EventStore, sub: Doc, kind: str, data: Doc, game_id: str | None = None, at_ns: int | None = None
) -> Doc:
    """Add one event to a subscription's ordered queue (keys sort in emission order: by ``at_ns``, nanoseconds,
    the clock's by default)."""
    key = f"{time.time_ns() if at_ns is None else at_ns:020d}-{uuid.uuid4().hex[:8]}"
    entry: Doc = {
        "key": key,
        "id": "msg_" + uuid.uuid4().hex,
        "type": kind,
        "game_id": game_id,
        "timestamp": utc_now_iso(),
        "data": data,
        "status": "pending",
        "attempts": [],
    }
    queue_entry(store, sub["id"], entry)
    return entry


def queue_entry(store: DocumentStore, sub_id: str, entry: Doc) -> None:
    """Store a new entry in the log, its message index and its pending mark.

    The log entry first and its pending mark last: a pass never meets a mark whose entry is still to come. A
    process that stops in between leaves an entry that is never sent; its game's cursor has not moved either
    (``sync_game`` moves it after emitting), so the event is queued again under a new key."""
    store.put_document(queue_name(sub_id), entry["key"], entry)
    store.put_document(messages_name(sub_id), entry["id"], {"key": entry["key"]})
    store.put_document(pending_name(sub_id), entry["key"], {})


def emit(
    store: EventStore,
    key_id: str | None,
    kind: str,
    data: Doc,
    game_id: str | None = None,
    at_ns: int | None = None,
) -> list[str]:
    """Queue an event for every active subscription of this integrator that wants it; returns their ids."""
    if key_id is None:
        return []
    targets = [
        s
        for s in subscriptions_for(store, key_id)
        if s["active"] and kind in s["events"] and disabled(store, s["id"]) is None
    ]
    for sub in targets:
        enqueue_event(store, sub, kind, data, game_id, at_ns)
    return [s["id"] for s in targets]


class GameKeys:
    """The queue-key times of one game's events, in nanoseconds: the clock's, but always after the last one its
    previous sync used (kept in the game's cursor as ``key_ns``), so that a sync on a machine whose clock is
    behind still queues the game's events after the ones before."""

    def __init__(self, cursor: Doc) -> None:
        self.last = int(cursor.get("key_ns", 0))

    def next(self) -> int:
        self.last = max(time.time_ns(), self.last + 1)
        return self.last


def sync_game(service: GameService, game_id: str) -> list[str]:
    """Derive the webhook events of a game's new events, in version order; returns subscriptions touched."""
    store = service.store
    info = service.info(game_id)
    key_id = info.metadata.get("created_by")
    if key_id is None or not subscriptions_for(store, key_id):
        return []
    cursor = store.get_document(CURSORS, game_id) or {"generation": 0, "version": 0}
    keys = GameKeys(cursor)
    touched: set[str] = set()
    if cursor["generation"] != info.generation:
        # the game was undone since the last sync, maybe more than once: the events from the lowest version it went
        # back to are the new generation's, each sent as it was not before
        back_to = service.kept_through(game_id, cursor["generation"], min(cursor["version"], info.version))
        touched.update(
            emit(
                store,
                key_id,
                "game.truncated",
                {"game_id": game_id, "generation": info.generation, "version": back_to},
                game_id,
                keys.next(),
            )
        )
        cursor = {"generation": info.generation, "version": back_to, "key_ns": keys.last}
    if cursor["version"] >= info.version:
        store.put_document(CURSORS, game_id, {**cursor, "key_ns": keys.last})
        return sorted(touched)
    rules = service.rules_for(info)
    state = service.load(game_id, at_version=cursor["version"]).state if cursor["version"] else rules.initial_state()
    events = store.read(game_id, cursor["version"] + 1, info.version)
    seats = public_seats({"seats": with_seat_ids(info.metadata["seats"], service.seat_ids(info))}, WEBHOOK_SEAT_FIELDS)
    setup_version = info.metadata.get("setup_version", 1)
    for index, event in enumerate(events):
        state = facts.rules_evolve(rules, state, event.data)
        last_of_move = index + 1 == len(events) or events[index + 1].meta.get("move") != event.meta.get("move")
        if not last_of_move:
            continue
        base = {
            "game_id": game_id,
            "game_type": info.game_type,
            "version": event.version,
            "etag": f"{info.generation}.{event.version}",
            "head_hash": event.hash,
        }
        if event.version == setup_version:
            touched.update(
                emit(
                    store,
                    key_id,
                    "game.started",
                    {**base, "seats": seats, "tournament_id": info.metadata.get("tournament_id")},
                    game_id,
                    keys.next(),
                )
            )
        ending = facts.ENDINGS.get(event.type)
        if ending is not None or (rules.is_over(state) and not facts.is_platform(event.data)):
            # the end as the chain records it (platform.GameFinished, Aborted, GameAbandoned); a game stored
            # before results were events ends with its last move
            if ending is None:
                result = service.load(game_id, at_version=event.version).result_dict()
            else:
                result = event.data.get("result")
            touched.update(
                emit(
                    store,
                    key_id,
                    "game.finished",
                    {
                        **base,
                        "status": ending or facts.FINISHED_STATUS,
                        "seats": seats,
                        "result": result,
                        "tournament_id": info.metadata.get("tournament_id"),
                    },
                    game_id,
                    keys.next(),
                )
            )
        elif facts.is_platform(event.data):
            continue  # a timeout, a resignation or an undo vote: no turn changed hands
        else:
            to_act = sorted(rules.to_act(state))
            touched.update(
                emit(
                    store,
                    key_id,
                    "game.turn",
                    {
                        **base,
                        "to_act": [seats[s] for s in to_act],
                        "deadline": turn_deadline(info.metadata.get("clock"), event.meta.get("clock")),
                    },
                    game_id,
                    keys.next(),
                )
            )
    store.put_document(CURSORS, game_id, {"generation": info.generation, "version": info.version, "key_ns": keys.last})
    return sorted(touched)


def turn_deadline(config: Doc | None, clock: Doc | None) -> str | None:
    if not config or not clock:
        return None
    flag = clocks.next_flag_fall(clock)
    return clocks.iso(clock["since"] + flag) if flag is not None else None


# ------------------------------------------------------------------------------------ delivering
def send(sub: Doc, entry: Doc, timeout: float = TIMEOUT) -> webhook_targets.SendResult:
    """One signed POST; its outcome is a short category
    (``workers.webhook_targets.CATEGORIES``): the target is resolved and checked again, redirects are not
    followed, and no socket message is kept."""
    body = json.dumps(
        {"type": entry["type"], "timestamp": entry["timestamp"], "data": entry["data"]},
        separators=(",", ":"),
        sort_keys=True,
    )
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "Tradewinds-Webhooks/1",
        "webhook-id": entry["id"],
        "webhook-timestamp": str(timestamp),
        "webhook-signature": sign(sub["secret"], entry["id"], timestamp, body),
    }
    return webhook_targets.post(sub["url"], body.encode(), headers, timeout)


def attempt_record(result: webhook_targets.SendResult, **extra: Any) -> dict[str, Any]:
    record: dict[str, Any] = {"at": utc_now_iso(), "outcome": result.outcome, **extra}
    if result.status is not None:
        record["status"] = result.status
    return record


def pending_keys(store: DocumentStore, sub_id: str, limit: int) -> list[str]:
    """The first ``limit`` keys of the subscription's events still to send, in order."""
    return [key for key, _ in store.list_documents(pending_name(sub_id), limit=limit)]


def deliver(
    store: EventStore, sub_id: str, batch: int = 100, max_sends: int | None = None, max_seconds: float | None = None
) -> tuple[int, float | None]:
    """Send a subscription's pending events in order; returns (sent, seconds until a retry or None).

    A pass reads the pending marks, never the delivered part of the log, so its cost does not grow with the
    log. Each page is read from the front: an entry stored behind the pass (its key is taken before it is
    stored, so another game's entry, keyed later, may be stored first) is sent next, before any of its game's
    later entries, which are stored after it. After ``max_sends`` sends, or once a send ends ``max_seconds`` or more
    after the pass began, it stops and returns a retry in 0 s (the rest goes in the next job). A subscription deleted or disabled meanwhile gets no further send: each send
    looks for it first. A failed send after ``DISABLE_AFTER_SECONDS`` of nothing but failures disables the
    subscription, and no retry is asked for; the first success after failures clears them in the stored state at
    once (a job may stop long before its page ends)."""
    sub = get_subscription(store, sub_id)
    if sub is None:  # unsubscribed: its queue goes, a page a job
        return 0, (None if drop_queue(store, sub_id) else 0.0)
    if not sub["active"] or disabled(store, sub_id) is not None:
        return 0, None
    indexed(store, sub_id)
    state = delivery_state(store, sub)
    sent = 0
    began = monotonic()
    while True:
        keys = pending_keys(store, sub_id, batch)
        if not keys:
            prune_log(store, sub_id)
            return sent, None
        for key in keys:
            entry = store.get_document(queue_name(sub_id), key)
            if entry is None or entry["status"] == "delivered":
                # delivered already (a redelivery, or a pass that stopped before clearing the mark): clear it
                store.delete_document(pending_name(sub_id), key)
                continue
            if max_sends is not None and sent >= max_sends:
                return sent, 0.0
            if max_seconds is not None and sent and monotonic() - began >= max_seconds:
                return sent, 0.0
            if sent and get_subscription(store, sub_id) is None:
                return sent, 0.0  # deleted during this pass: the next job drops the queue
            if sent and disabled(store, sub_id) is not None:
                return sent, None  # paused during this pass
            result = send(sub, entry)
            metrics.webhook_sent(result.ok)
            entry["attempts"].append(attempt_record(result))
            if not result.ok:
                now = time.time()
                state["failures"] += 1
                if state["failures"] == 1 or state.get("failing_since") is None:
                    state["failing_since"] = now
                delay = min(BACKOFF_CAP, BACKOFF_BASE * 2 ** (state["failures"] - 1))
                entry["status"] = "retrying"
                store.put_document(queue_name(sub_id), key, entry)
                if now - state["failing_since"] > DISABLE_AFTER_SECONDS:
                    state["next_attempt_at"] = None
                    store.put_document(STATE, sub_id, state)
                    pause(store, sub_id, "failing")
                    log.warning("webhook subscription %s disabled: %d failed sends", sub_id, state["failures"])
                    return sent, None
                state["next_attempt_at"] = now + delay
                store.put_document(STATE, sub_id, state)
                return sent, delay
            entry["status"] = "delivered"
            entry["delivered_at"] = utc_now_iso()
            store.put_document(queue_name(sub_id), key, entry)
            store.delete_document(pending_name(sub_id), key)
            if state["failures"] or state.get("next_attempt_at"):
                state.update(failures=0, failing_since=None, next_attempt_at=None)
                store.put_document(STATE, sub_id, state)
            sent += 1
        state["next_attempt_at"] = None
        store.put_document(STATE, sub_id, state)


def prune_log(store: DocumentStore, sub_id: str, now: float | None = None, most: int = 500) -> int:
    """Drop from the front of the delivery log, up to ``most`` at a time, the entries delivered more than
    ``LOG_SECONDS`` ago, and those queued that long ago that have no pending mark (left by a process that
    stopped between storing an entry and marking it, and queued again since under a new key); an entry still
    waiting to be sent is passed over; it stops at the first delivered entry to keep. Returns how many went.
    It runs at the end of each delivery pass: a subscription that gets no new events keeps its log until
    one comes."""
    cutoff = (time.time() if now is None else now) - LOG_SECONDS
    dropped = kept = 0
    while dropped < most:
        page = store.list_documents(queue_name(sub_id), limit=PRUNE_PAGE, offset=kept)
        for key, entry in page:
            if entry["status"] == "delivered":
                if datetime.fromisoformat(entry["delivered_at"]).timestamp() > cutoff:
                    return dropped
            elif (
                datetime.fromisoformat(entry["timestamp"]).timestamp() > cutoff
                or store.get_document(pending_name(sub_id), key) is not None
            ):
                kept += 1
                continue
            store.delete_document(messages_name(sub_id), entry["id"])
            store.delete_document(queue_name(sub_id), key)
            dropped += 1
        if len(page) < PRUNE_PAGE:
            return dropped
    return dropped


def backing_off(store: DocumentStore, sub_id: str, now: float | None = None) -> bool:
    """The subscription waits out a back-off after a failed send (its retry is in the outbox)."""
    sub = get_subscription(store, sub_id)
    if sub is None:
        return False
    return (delivery_state(store, sub).get("next_attempt_at") or 0) > (time.time() if now is None else now)


def find_delivery(store: DocumentStore, sub_id: str, message_id: str) -> Doc | None:
    indexed(store, sub_id)
    found = store.get_document(messages_name(sub_id), message_id)
    return None if found is None else store.get_document(queue_name(sub_id), found["key"])


def redeliver(store: DocumentStore, sub_id: str, message_id: str) -> Doc | None:
    """Send one event again now, whatever its status (recorded in its attempts); None, with nothing sent, when
    there is no such delivery or the subscription is disabled (paused since the redelivery was asked for)."""
    sub = get_subscription(store, sub_id)
    entry = find_delivery(store, sub_id, message_id)
    if sub is None or entry is None or disabled(store, sub_id) is not None:
        return None
    result = send(sub, entry)
    metrics.webhook_sent(result.ok)
    entry["attempts"].append(attempt_record(result, redelivery=True))
    if result.ok and entry["status"] != "delivered":
        entry["status"] = "delivered"
        entry["delivered_at"] = utc_now_iso()
    store.put_document(queue_name(sub_id), entry["key"], entry)
    if result.ok:
        store.delete_document(pending_name(sub_id), entry["key"])
        state = delivery_state(store, sub)
        if state.get("next_attempt_at"):  # the receiver is back: the queue goes on now
            store.put_document(STATE, sub_id, {**state, "failures": 0, "failing_since": None, "next_attempt_at": None})
    return entry


def describe(store: DocumentStore, sub: Doc, with_secret: bool = False) -> dict[str, Any]:
    out = {k: sub[k] for k in ("id", "url", "events", "created_at")}
    off = disabled(store, sub["id"])
    out["active"] = sub["active"] and off is None
    out["disabled_reason"] = None if off is None else off["reason"]
    out["disabled_at"] = None if off is None else off["at"]
    out["failures"] = delivery_state(store, sub)["failures"]
    if with_secret:
        out["secret"] = sub["secret"]
    return out
