"""Signed webhooks for integrators: subscriptions, an ordered delivery queue, retries with back-off.

Deliveries follow the Standard Webhooks convention: headers ``webhook-id`` (the receiver's
de-duplication key), ``webhook-timestamp`` (Unix seconds) and ``webhook-signature: v1,<base64
HMAC-SHA256 of "id.timestamp.body">`` keyed with the subscription's secret (``whsec_<base64>``).

Ordering: the events of one game are derived from its stream in version order by ``sync_game``
(one process at a time per game, under a lock), appended to each subscription's queue, and
``deliver`` sends a subscription's queue strictly in order, stopping at the first failure and trying
again later with exponential back-off. A receiver that is down for a while therefore gets every event
once it is back, in order per game.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import secrets
import time
import urllib.error
import urllib.request
import uuid
from typing import Any

from eventstore._common import utc_now_iso
from workers import clocks, metrics
from workers.games import GameService, public_seats

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
CURSORS = "webhook_game_cursors"
BACKOFF_BASE = 1.0  # seconds; attempt n waits BACKOFF_BASE * 2**(n-1), capped
BACKOFF_CAP = 600.0
TIMEOUT = 5.0  # seconds a receiver may take to answer one send
SENDS_PER_JOB = 20  # a longer queue continues in the next job, so no job holds its lock for long
WEBHOOK_SEAT_FIELDS = ("seat", "kind", "name", "level", "external_id")


def queue_name(sub_id: str) -> str:
    return f"webhook_queue:{sub_id}"


def new_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def sign(secret: str, msg_id: str, timestamp: int, body: str) -> str:
    key = base64.b64decode(secret.removeprefix("whsec_"))
    digest = hmac.new(key, f"{msg_id}.{timestamp}.{body}".encode(), hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


# ------------------------------------------------------------------------------ subscriptions
def create_subscription(store, key_id: str, url: str, kinds: list[str], secret: str | None = None) -> dict:
    sub = {
        "id": "wh_" + uuid.uuid4().hex[:20],
        "key_id": key_id,
        "url": url,
        "secret": secret or new_secret(),
        "events": list(dict.fromkeys(kinds)),
        "created_at": utc_now_iso(),
        "active": True,
        "delivered_through": "",  # key of the last delivered queue entry
        "failures": 0,
        "next_attempt_at": None,
    }
    store.put_document(SUBSCRIPTIONS, sub["id"], sub)
    return sub


def subscriptions_for(store, key_id: str) -> list[dict]:
    return [doc for _, doc in store.list_documents(SUBSCRIPTIONS, limit=10_000) if doc["key_id"] == key_id]


def get_subscription(store, sub_id: str) -> dict | None:
    return store.get_document(SUBSCRIPTIONS, sub_id)


def delete_subscription(store, sub_id: str) -> None:
    store.delete_document(SUBSCRIPTIONS, sub_id)


def deliveries(store, sub_id: str, limit: int = 100, offset: int = 0) -> list[dict]:
    return [doc for _, doc in store.list_documents(queue_name(sub_id), limit=limit, offset=offset)]


# ------------------------------------------------------------------------------------- emitting
def enqueue_event(store, sub: dict, kind: str, data: dict, game_id: str | None = None) -> dict:
    """Add one event to a subscription's ordered queue (keys sort in emission order)."""
    key = f"{time.time_ns():020d}-{uuid.uuid4().hex[:8]}"
    entry = {
        "key": key,
        "id": "msg_" + uuid.uuid4().hex,
        "type": kind,
        "game_id": game_id,
        "timestamp": utc_now_iso(),
        "data": data,
        "status": "pending",
        "attempts": [],
    }
    store.put_document(queue_name(sub["id"]), key, entry)
    return entry


def emit(store, key_id: str | None, kind: str, data: dict, game_id: str | None = None) -> list[str]:
    """Queue an event for every subscription of this integrator that wants it; returns their ids."""
    if key_id is None:
        return []
    targets = [s for s in subscriptions_for(store, key_id) if s["active"] and kind in s["events"]]
    for sub in targets:
        enqueue_event(store, sub, kind, data, game_id)
    return [s["id"] for s in targets]


def sync_game(service: GameService, game_id: str) -> list[str]:
    """Derive the webhook events of a game's new events, in version order; returns subscriptions touched."""
    store = service.store
    info = service.info(game_id)
    key_id = info.metadata.get("created_by")
    if key_id is None or not subscriptions_for(store, key_id):
        return []
    cursor = store.get_document(CURSORS, game_id) or {"generation": 0, "version": 0}
    touched: set[str] = set()
    if cursor["generation"] != info.generation:
        touched.update(
            emit(
                store,
                key_id,
                "game.truncated",
                {"game_id": game_id, "generation": info.generation, "version": info.version},
                game_id,
            )
        )
        cursor = {"generation": info.generation, "version": min(cursor["version"], info.version)}
    if cursor["version"] >= info.version:
        store.put_document(CURSORS, game_id, cursor)
        return sorted(touched)
    rules = service.rules_for(info)
    state = service.load(game_id, at_version=cursor["version"]).state if cursor["version"] else rules.initial_state()
    events = store.read(game_id, cursor["version"] + 1, info.version)
    seats = public_seats(info.metadata, WEBHOOK_SEAT_FIELDS)
    setup_version = info.metadata.get("setup_version", 1)
    for index, event in enumerate(events):
        state = rules.evolve(state, event.data)
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
                )
            )
        if rules.is_over(state):
            result = rules.result(state).as_dict()
            forfeited = [s["seat"] for s in info.metadata["seats"] if s.get("forfeited")]
            if forfeited:
                result = {**result, "ranks": clocks.forfeit_ranks(result["ranks"], forfeited), "forfeited": forfeited}
            touched.update(
                emit(
                    store,
                    key_id,
                    "game.finished",
                    {**base, "seats": seats, "result": result, "tournament_id": info.metadata.get("tournament_id")},
                    game_id,
                )
            )
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
                )
            )
    store.put_document(CURSORS, game_id, {"generation": info.generation, "version": info.version})
    return sorted(touched)


def turn_deadline(config: dict | None, clock: dict | None) -> str | None:
    if not config or not clock:
        return None
    flag = clocks.next_flag_fall(clock)
    return clocks.iso(clock["since"] + flag) if flag is not None else None


# ------------------------------------------------------------------------------------ delivering
def send(sub: dict, entry: dict, timeout: float = TIMEOUT) -> tuple[bool, str]:
    body = json.dumps(
        {"type": entry["type"], "timestamp": entry["timestamp"], "data": entry["data"]},
        separators=(",", ":"),
        sort_keys=True,
    )
    timestamp = int(time.time())
    request = urllib.request.Request(
        sub["url"],
        data=body.encode(),
        method="POST",
        headers={
            "Content-Type": "application/json",
            "User-Agent": "Tradewinds-Webhooks/1",
            "webhook-id": entry["id"],
            "webhook-timestamp": str(timestamp),
            "webhook-signature": sign(sub["secret"], entry["id"], timestamp, body),
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return 200 <= response.status < 300, f"HTTP {response.status}"
    except urllib.error.HTTPError as exc:
        return False, f"HTTP {exc.code}"
    except (urllib.error.URLError, OSError, ValueError) as exc:
        return False, f"{type(exc).__name__}: {getattr(exc, 'reason', exc)}"


def deliver(store, sub_id: str, batch: int = 100, max_sends: int | None = None) -> tuple[int, float | None]:
    """Send a subscription's pending events in order; returns (sent, seconds until a retry or None).

    After ``max_sends`` sends it stops and returns a retry in 0 s (the rest goes in the next job)."""
    sub = get_subscription(store, sub_id)
    if sub is None or not sub["active"]:
        return 0, None
    sent = 0
    offset = 0
    while True:
        entries = deliveries(store, sub_id, limit=batch, offset=offset)
        if not entries:
            return sent, None
        for entry in entries:
            if entry["status"] == "delivered":
                continue
            if max_sends is not None and sent >= max_sends:
                return sent, 0.0
            ok, outcome = send(sub, entry)
            metrics.webhook_sent(ok)
            entry["attempts"].append({"at": utc_now_iso(), "outcome": outcome})
            if not ok:
                sub["failures"] += 1
                delay = min(BACKOFF_CAP, BACKOFF_BASE * 2 ** (sub["failures"] - 1))
                entry["status"] = "retrying"
                store.put_document(queue_name(sub_id), entry["key"], entry)
                sub["next_attempt_at"] = time.time() + delay
                store.put_document(SUBSCRIPTIONS, sub_id, sub)
                return sent, delay
            entry["status"] = "delivered"
            entry["delivered_at"] = utc_now_iso()
            store.put_document(queue_name(sub_id), entry["key"], entry)
            sub["failures"] = 0
            sub["delivered_through"] = entry["key"]
            sent += 1
        offset += len(entries)
        store.put_document(SUBSCRIPTIONS, sub_id, {**sub, "next_attempt_at": None})


def find_delivery(store, sub_id: str, message_id: str) -> dict | None:
    for _, entry in store.list_documents(queue_name(sub_id), limit=100_000):
        if entry["id"] == message_id:
            return entry
    return None


def redeliver(store, sub_id: str, message_id: str) -> dict | None:
    """Send one event again now, whatever its status (recorded in its attempts)."""
    sub = get_subscription(store, sub_id)
    if sub is None:
        return None
    for key, entry in store.list_documents(queue_name(sub_id), limit=100_000):
        if entry["id"] == message_id:
            ok, outcome = send(sub, entry)
            metrics.webhook_sent(ok)
            entry["attempts"].append({"at": utc_now_iso(), "outcome": outcome, "redelivery": True})
            if ok and entry["status"] != "delivered":
                entry["status"] = "delivered"
                entry["delivered_at"] = utc_now_iso()
            store.put_document(queue_name(sub_id), key, entry)
            return entry
    return None


def describe(sub: dict, with_secret: bool = False) -> dict[str, Any]:
    out = {k: sub[k] for k in ("id", "url", "events", "created_at", "active", "failures")}
    if with_secret:
        out["secret"] = sub["secret"]
    return out
