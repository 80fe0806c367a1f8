"""Live following: Server-Sent Events (or NDJSON) resumable with Last-Event-ID, stream tickets, long-polls.

Event ids are ``<generation>.<version>``. A follower whose last id belongs to a history that an undo
replaced receives a ``truncated`` event naming the version to roll back to, then the new history.

Followers wait on the process's fan-out hub (``api.fanout``): no query and no database connection per
follower while it waits. Each holds a slot counted per client address, per game and per process
(``api.followers``); a follower whose client has gone is dropped within ``CHECK_SECONDS``.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator

import marshmallow as ma
from flask import Flask, Response, current_app, request
from flask.views import MethodView
from marshmallow import fields, validate

from api.blueprint import Blueprint
from api.bots import looked
from api.common import bearer_token, caller_for, seat_only, service
from api.contract import errors
from api.counters import shared_counters
from api.errors import ApiError
from api.fanout import EXTENSION as HUB_EXTENSION
from api.fanout import RESYNC, Delivery, Hub
from api.followers import Caps, FollowerLimits, Slot, client_gone, shared_redis
from api.games import event_body
from api.ratelimit import address_bucket
from api.schemas import Pattern
from api.tickets import TicketSchema, issue_ticket, redeem_ticket
from eventstore.base import StreamInfo
from workers.game_model import LoadedGame, hash_token
from workers.games import GameService

blp = Blueprint("live", __name__, description="Follow games live")

HEARTBEAT_SECONDS = 10.0  # a keep-alive comment at least this often (proxies, and dead-peer detection)
CHECK_SECONDS = 2.0  # how often an idle follower checks that its client is still there
# A seat's stream sends the seat's events only while the token it was opened with (or its ticket's) is still the
# seat's: checked before sending events, at most this often, and at every keep-alive (a reissue ends the stream).
CREDENTIAL_SECONDS = 1.0
STALL_SECONDS = 15.0  # a write that cannot proceed for this long drops the follower
EVENT_ID = re.compile(r"[0-9]{1,9}\.[0-9]{1,9}")
SSE = "text/event-stream"
NDJSON = "application/x-ndjson"
CATCH_UPS = 4  # followers reading the store at once per process: the rest of the pool stays free for requests
_setup_lock = threading.Lock()
_catch_ups = threading.BoundedSemaphore(CATCH_UPS)


SSE_EVENT = {
    "type": "object",
    "description": "one Server-Sent Event; `data` is JSON text",
    "required": ["event", "data"],
    "properties": {
        "event": {"type": "string", "enum": ["game_event", "truncated", "game_over"]},
        "data": {"type": "string"},
        "id": {"type": "string", "pattern": "^[0-9]+[.][0-9]+$"},
        "retry": {"type": "integer"},
    },
}


class StreamHeadersSchema(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    @ma.pre_load
    def empty_is_absent(self, data, **kwargs):
        """An empty Last-Event-ID is no id (what EventSource sends before it has seen one)."""
        if not (data.get("Last-Event-ID") or "").strip():
            return {k: v for k, v in data.items() if k != "Last-Event-ID"}
        return data

    last_event_id = fields.String(
        data_key="Last-Event-ID",
        validate=Pattern(r"^([0-9]{1,9}[.][0-9]{1,9})?$", error="<generation>.<version>, e.g. 0.12"),
        metadata={
            "description": "resume after this event id, `<generation>.<version>` (sent by EventSource on "
            "reconnect); 400 when it is not of that form, 422 when the game has no such event"
        },
    )


class StreamQuerySchema(ma.Schema):
    max_seconds = fields.Integer(
        load_default=300,
        validate=validate.Range(1, 3600),
        metadata={"description": "close the stream after this long (clients reconnect with Last-Event-ID)"},
    )
    ticket = fields.String(
        validate=Pattern(r"^twst_[A-Za-z0-9_-]{1,195}$", error="a ticket as POST .../stream-tickets returns it"),
        metadata={
            "description": "a stream ticket from POST /games/{game_id}/stream-tickets, for clients that "
            "cannot send a bearer header (EventSource): the stream is then the ticket's seat's; usable once"
        },
    )
    last_event_id = fields.String(
        validate=Pattern(r"^([0-9]{1,9}[.][0-9]{1,9})?$", error="<generation>.<version>, e.g. 0.12"),
        metadata={"description": "as the Last-Event-ID header, for a client opening a new stream with a new ticket"},
    )
    format = fields.String(
        load_default="sse",
        validate=validate.OneOf(["sse", "ndjson"]),
        metadata={"description": "`sse` (text/event-stream) or `ndjson` (one JSON object a line, for fetch())"},
    )


# -- per-process state -------------------------------------------------------------------------------
def hub() -> Hub:
    return _extension(HUB_EXTENSION, lambda app: Hub(app.extensions["tradewinds"].service))


def limits() -> FollowerLimits:
    def build(app: Flask) -> FollowerLimits:
        caps = app.config.get("FOLLOWER_CAPS") or Caps.from_environment()
        return FollowerLimits(caps, shared_redis(app.extensions["tradewinds"].redis_url), shared_counters(app))

    return _extension("tradewinds_followers", build)


def _extension(name: str, build):
    app: Flask = current_app  # the proxy: its extensions are the app's
    found = app.extensions.get(name)
    if found is None:
        with _setup_lock:
            found = app.extensions.get(name)
            if found is None:
                found = app.extensions[name] = build(app)
    return found


def acquire_slot(game_id: str) -> Slot:
    # the same client address as the rate limits: behind trusted proxies the forwarded client, IPv6 by /64
    return limits().acquire(address_bucket(request.remote_addr or ""), game_id)


# -- resuming ----------------------------------------------------------------------------------------
def resume_point(svc: GameService, info: StreamInfo, last_id: str | None) -> tuple[int, bool]:
    """The version to send from (exclusive) and whether the follower saw a history since undone; ``info``: the
    game's stream as the caller read it."""
    if last_id is None:
        return 0, False
    if not EVENT_ID.fullmatch(last_id):
        raise ApiError("invalid_event_id", "Last-Event-ID is <generation>.<version> as sent in the stream, e.g. 0.12")
    generation, version = (int(part) for part in last_id.split("."))
    if generation > info.generation:
        raise ApiError("invalid_event_id", f"Last-Event-ID {last_id} is from a generation this game has not reached")
    if generation == info.generation:
        if version > info.version:  # a generation's versions only grow, and an undo starts a new generation
            raise ApiError("invalid_event_id", f"Last-Event-ID {last_id} names a version this game has not reached")
        return version, False
    # an old generation: it ended at the version its undo started from
    undos = svc.truncations(info.stream)
    ended = next((t for t in undos if t.generation == generation + 1), None)
    if ended is not None and version > ended.from_version:
        raise ApiError(
            "invalid_event_id", f"Last-Event-ID {last_id} names a version generation {generation} never reached"
        )
    return svc.kept_through(info.stream, generation, min(version, info.version), undos), True


def sse(event: str, data: dict, event_id: str | None = None) -> str:
    head = f"id: {event_id}\n" if event_id else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def ndjson(event: str, data: dict, event_id: str | None = None) -> str:
    line = {"event": event, "data": data, **({"id": event_id} if event_id else {})}
    return json.dumps(line, separators=(",", ":")) + "\n"


# -- following ---------------------------------------------------------------------------------------
class Follower:
    """One stream: catch up from the store, then take the hub's deliveries; ``frames`` yields (event, data, id)."""

    def __init__(
        self,
        svc: GameService,
        the_hub: Hub,
        game_id: str,
        seat: int | None,
        sent: int,
        generation: int,
        credential: str | None = None,
    ) -> None:
        self.svc = svc
        self.hub = the_hub
        self.game_id = game_id
        self.seat = seat
        self.credential = credential  # the hash of the seat token the stream was opened with (None: a spectator)
        self.checked_at = time.monotonic()
        self.sent = sent
        self.generation = generation  # of the stream row ``sent`` was read against
        self.game: LoadedGame | None = None

    def catch_up(self, frame) -> Iterator[str]:
        """Send what the store holds past ``sent`` (and any truncation first).

        Rendered events are shared through the hub's cache: an audience that joins at once renders a
        game's history once per seat, not once per follower."""
        while True:
            game = self.svc.load(self.game_id)
            if game.generation != self.generation:
                self.sent, _ = resume_point(self.svc, game.info, f"{self.generation}.{self.sent}")
                self.generation = game.generation
                yield frame("truncated", {"generation": self.generation, "to_version": self.sent}, self._id())
            self.game = game
            if game.version <= self.sent:
                return
            for stored in self.svc.read_events(self.game_id, self.sent + 1, game.version):
                if stored.generation > self.generation:
                    break  # truncated meanwhile: the next turn says so
                key = (self.game_id, self.generation, stored.version, self.seat, frame, game.over)
                text = self.hub.rendered.get(key)
                if text is None:
                    body = event_body(game, stored, self.seat, game.over)
                    text = self.hub.rendered.put(key, frame("game_event", body, self._id(stored.version)))
                yield text
                self.sent = stored.version

    def take(self, item, frame) -> Iterator[str] | None:
        """The frames of one delivery, or None when the follower must re-read from the store instead."""
        if item == RESYNC or not isinstance(item, Delivery) or item.game.generation != self.generation:
            return None
        events = [e for e in item.events if not (e.generation == self.generation and e.version <= self.sent)]
        expected = self.sent + 1
        for event in events:
            if event.generation != self.generation or event.version != expected:
                return None
            expected += 1
        self.game = item.game
        return self._frames(item, events, frame)

    def _frames(self, item: Delivery, events, frame) -> Iterator[str]:
        for event in events:
            key = (self.seat, frame, event.version)
            text = item.rendered.get(key)
            if text is None:
                body = event_body(item.game, event, self.seat, item.game.over)
                text = item.rendered[key] = frame("game_event", body, self._id(event.version))
            yield text
            self.sent = event.version

    def finished(self) -> bool:
        return self.game is not None and self.game.over and self.sent >= self.game.version

    def seated(self, force: bool = False) -> bool:
        """Whether the stream may go on sending the seat's events: its token is still the seat's (looked up at
        most every CREDENTIAL_SECONDS unless ``force``). A spectator's stream always may."""
        if self.credential is None or self.seat is None:
            return True
        now = time.monotonic()
        if not force and now - self.checked_at < CREDENTIAL_SECONDS:
            return True
        self.checked_at = now
        return self.svc.holds_seat(self.game_id, self.seat, self.credential)

    def _id(self, version: int | None = None) -> str:
        return f"{self.generation}.{self.sent if version is None else version}"


def follow(follower: Follower, truncated: bool, max_seconds: float, slot: Slot, sock, fmt: str) -> Iterator[str]:
    frame = ndjson if fmt == "ndjson" else sse
    deadline = time.monotonic() + max_seconds
    try:
        with follower.hub.subscribe(follower.game_id) as sub:  # before catching up: nothing falls between
            if truncated:
                yield frame(
                    "truncated", {"generation": follower.generation, "to_version": follower.sent}, follower._id()
                )
            if fmt == "sse":
                yield "retry: 2000\n\n"
            resync = True
            last_beat = last_check = time.monotonic()
            while True:
                if resync:
                    resync = False
                    with _catch_ups:
                        caught = list(follower.catch_up(frame))
                    if caught and not follower.seated():
                        return  # the seat's token was reissued: its events are no longer this client's
                    yield from caught
                if follower.game is not None and follower.finished():
                    yield frame("game_over", {"result": follower.game.result_dict()}, follower._id())
                    return
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                for item in sub.get(min(remaining, CHECK_SECONDS)):
                    frames = None if resync else follower.take(item, frame)
                    if frames is None:
                        resync = True
                        continue
                    if not follower.seated():
                        return
                    yield from frames
                now = time.monotonic()
                if now - last_check >= CHECK_SECONDS:
                    last_check = now
                    if client_gone(sock):
                        return
                if now - last_beat >= HEARTBEAT_SECONDS:
                    last_beat = now
                    if not follower.seated(force=True):
                        return
                    looked(follower.svc, follower.game_id)  # a follower still there watches the table
                    yield ": keep-alive\n\n" if fmt == "sse" else "\n"
    finally:
        slot.release()


def wait_for_change(svc: GameService, game_id: str, version: int, generation: int, timeout: float) -> bool:
    """Long-poll: block until the game moves past ``version`` or is truncated, without a query while waiting."""
    slot = acquire_slot(game_id)
    try:
        with hub().subscribe(game_id) as sub:
            deadline = time.monotonic() + timeout
            check = True
            while True:
                if check:
                    info = svc.info(game_id)
                    if info.version != version or info.generation != generation:
                        return True
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                items = sub.get(remaining)
                check = bool(items)  # any delivery or resync: look (a resync may change nothing)
    finally:
        slot.release()


# -- routes ------------------------------------------------------------------------------------------
STREAM_DOC = {
    "description": "text/event-stream of `game_event` (id `<generation>.<version>`, data as in the event log, "
    "redacted for the caller), `truncated` (an undo: roll back to `to_version`) and `game_over` (the result; the "
    "stream then ends). With `format=ndjson`, one JSON object a line with `event`, `data` and `id` (an empty "
    "line is a keep-alive).",
    "content": {
        SSE: {
            "schema": {
                "type": "string",
                "description": "Server-Sent Events text: blocks of `id:`, `event:` and `data:` lines (data is one JSON "
                "object) separated by a blank line; `retry:` and `: keep-alive` comment lines may appear. "
                "`x-sse-event` describes one event.",
            },
            "x-sse-event": SSE_EVENT,
        },
        NDJSON: {"schema": {"type": "string", "description": "JSON Lines: {event, data, id}"}},
    },
}


@blp.route("/games/<game_id:game_id>/stream")
class Stream(MethodView):
    @blp.arguments(StreamHeadersSchema(), location="headers")
    @blp.arguments(StreamQuerySchema(), location="query")
    @blp.doc(operationId="streamGame", security=[{"seatToken": []}, {}], responses={"200": STREAM_DOC})
    @errors(blp, "unauthorized", "unknown_game", "invalid_event_id", "too_many_followers")
    def get(self, headers, query, game_id):
        """Follow a game live (Server-Sent Events or NDJSON), resumable with Last-Event-ID

        Followers are capped per client address, per game and per server process (429
        `too_many_followers`). Browsers pass a stream ticket (`ticket=`) instead of the bearer header.
        """
        fmt = query["format"]
        media = NDJSON if fmt == "ndjson" else SSE
        if request.environ.get("HTTP_ACCEPT") and not request.accept_mimetypes.best_match([media]):
            raise ApiError("not_acceptable", f"format={fmt} answers with {media}; the Accept header does not allow it")
        svc = service()
        info = svc.info(game_id)
        sent, truncated = resume_point(svc, info, headers.get("last_event_id") or query.get("last_event_id"))
        limit = min(query["max_seconds"], current_app.config.get("STREAM_MAX_SECONDS", 3600))
        slot = acquire_slot(game_id)  # before redeeming a ticket: a refused follower keeps its ticket
        try:
            credential = None  # the hash of the seat token behind the stream, checked again as it runs
            seat: int | None
            if "ticket" in query:
                seat, credential = redeem_ticket(svc.documents, game_id, query["ticket"])
                if not svc.holds_seat(game_id, seat, credential):
                    raise ApiError(
                        "unauthorized", "this stream ticket's seat token was reissued since; use the new one"
                    )
            else:
                seat = caller_for(info).seat
                token = bearer_token()
                if seat is not None and token is not None:
                    credential = hash_token(token)
            follower = Follower(svc, hub(), game_id, seat, sent, info.generation, credential)
        except BaseException:
            slot.release()
            raise
        sock = request.environ.get("gunicorn.socket")
        if sock is not None:
            sock.settimeout(STALL_SECONDS)  # a client that stops reading is dropped, not waited on forever
        stream = follow(follower, truncated, limit, slot, sock, fmt)  # needs no request context
        response = Response(
            stream,
            mimetype=media,
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
        response.call_on_close(slot.release)  # also when the body is never iterated
        return response


@blp.route("/games/<game_id:game_id>/stream-tickets")
class StreamTickets(MethodView):
    @blp.response(201, TicketSchema())
    @errors(blp, "unauthorized", "forbidden", "unknown_game")
    @blp.doc(operationId="createStreamTicket", security=[{"seatToken": []}])
    def post(self, game_id):
        """A short-lived, single-use ticket to open this seat's stream where no bearer header can be sent

        Pass it as `?ticket=` to GET /games/{game_id}/stream (e.g. `new EventSource(url)`). It works once,
        for this game and seat only, and expires after `expires_in` seconds. When the stream ends, fetch a
        new ticket and resume with `last_event_id=`.
        """
        svc = service()
        seat = seat_only(caller_for(svc.info(game_id)), "a stream ticket is for a seat")
        seconds = int(current_app.config.get("STREAM_TICKET_SECONDS", 60))
        token = bearer_token()
        assert token is not None, "a seat's caller sent its token"
        issued = issue_ticket(svc.documents, game_id, seat, seconds, hash_token(token))
        return issued, 201, {"Location": issued["stream_url"]}
