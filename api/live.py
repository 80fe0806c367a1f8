"""Live following: Server-Sent Events resumable with Last-Event-ID, and long-polling of the event log.

Event ids are ``<generation>.<version>``. A follower whose last id belongs to a history that an undo
replaced receives a ``truncated`` event naming the version to roll back to, then the new history.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator

import marshmallow as ma
from flask import Response, current_app, stream_with_context
from flask.views import MethodView
from marshmallow import fields, validate

from api.app import Blueprint
from api.common import caller_for, service
from api.contract import errors
from api.errors import ApiError
from api.games import event_body
from workers.games import GameService

blp = Blueprint("live", __name__, description="Follow games live")

HEARTBEAT_SECONDS = 15.0
EVENT_ID = re.compile(r"[0-9]{1,9}\.[0-9]{1,9}")


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
        validate=validate.Regexp(r"^([0-9]{1,9}[.][0-9]{1,9})?$", error="<generation>.<version>, e.g. 0.12"),
        metadata={"description": "resume after this event id, `<generation>.<version>` (sent by EventSource on "
                  "reconnect); 400 when it is not of that form, 422 when the game has no such event"},
    )


class StreamQuerySchema(ma.Schema):
    max_seconds = fields.Integer(
        load_default=300,
        validate=validate.Range(1, 3600),
        metadata={"description": "close the stream after this long (clients reconnect with Last-Event-ID)"},
    )


def resume_point(svc: GameService, game_id: str, last_id: str | None) -> tuple[int, bool]:
    """The version to send from (exclusive) and whether the follower saw a history since undone."""
    info = svc.store.stream_info(game_id)
    if last_id is None:
        return 0, False
    if not EVENT_ID.fullmatch(last_id):
        raise ApiError("invalid_event_id", "Last-Event-ID is <generation>.<version> as sent in the stream, e.g. 0.12")
    generation, version = (int(part) for part in last_id.split("."))
    if generation > info.generation:
        raise ApiError("invalid_event_id", f"Last-Event-ID {last_id} is from a generation this game has not reached")
    if generation == info.generation:
        return min(version, info.version), False
    later = [t.to_version for t in svc.store.truncations(game_id) if t.generation > generation]
    return min([version, info.version, *later]), True


def sse(event: str, data: dict, event_id: str | None = None) -> str:
    head = f"id: {event_id}\n" if event_id else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def follow(svc: GameService, game_id: str, seat: int | None, sent: int, truncated: bool, max_seconds: float
           ) -> Iterator[str]:
    deadline = time.monotonic() + max_seconds
    generation = svc.store.stream_info(game_id).generation
    if truncated:
        yield sse("truncated", {"generation": generation, "to_version": sent}, f"{generation}.{sent}")
    yield "retry: 2000\n\n"
    last_beat = time.monotonic()
    while True:
        game = svc.load(game_id)
        if game.generation != generation:
            sent, _ = resume_point(svc, game_id, f"{generation}.{sent}")
            generation = game.generation
            yield sse("truncated", {"generation": generation, "to_version": sent}, f"{generation}.{sent}")
        if game.version > sent:
            for stored in svc.store.read(game_id, sent + 1, game.version):
                if stored.generation > generation:
                    break  # truncated meanwhile: the next loop turn says so
                body = event_body(game, stored, seat, game.over)
                yield sse("game_event", body, f"{generation}.{stored.version}")
                sent = stored.version
            continue
        if game.over:
            yield sse("game_over", {"result": game.result_dict()}, f"{generation}.{sent}")
            return
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return
        if time.monotonic() - last_beat >= HEARTBEAT_SECONDS:
            yield ": keep-alive\n\n"
            last_beat = time.monotonic()
        svc.wait_for_change(game_id, sent, generation, min(remaining, HEARTBEAT_SECONDS))


@blp.route("/games/<game_id:game_id>/stream")
class Stream(MethodView):
    @blp.arguments(StreamHeadersSchema(), location="headers")
    @blp.arguments(StreamQuerySchema(), location="query")
    @blp.doc(
        operationId="streamGame",
        security=[{"seatToken": []}, {}],
        responses={
            "200": {
                "description": "text/event-stream of `game_event` (id `<generation>.<version>`, data as in the "
                "event log, redacted for the caller), `truncated` (an undo: roll back to `to_version`) and "
                "`game_over` (the result; the stream then ends)",
                "content": {"text/event-stream": {
                    "schema": {
                        "type": "string",
                        "description": "Server-Sent Events text: blocks of `id:`, `event:` and `data:` lines (data "
                        "is one JSON object) separated by a blank line; `retry:` and `: keep-alive` comment lines "
                        "may appear. `x-sse-event` describes one event.",
                    },
                    "x-sse-event": SSE_EVENT,
                }},
            }
        },
    )
    @errors(blp, "unauthorized", "unknown_game", "invalid_event_id")
    def get(self, headers, query, game_id):
        """Follow a game live (Server-Sent Events), resumable with Last-Event-ID"""
        svc = service()
        info = svc.info(game_id)
        seat = caller_for(info).seat
        sent, truncated = resume_point(svc, game_id, headers.get("last_event_id"))
        limit = min(query["max_seconds"], current_app.config.get("STREAM_MAX_SECONDS", 3600))
        stream = stream_with_context(follow(svc, game_id, seat, sent, truncated, limit))
        return Response(stream, mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
