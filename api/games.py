"""Games: create, read (as a seat or a spectator), legal commands, moves, the event log, past states."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask.views import MethodView
from marshmallow import fields, validate

from api.app import Blueprint
from api.common import caller_for, errors, integrator_key, service
from api.errors import ApiError
from api.schemas import (
    CreatedGameSchema,
    CreateGameSchema,
    EventPageSchema,
    EventQuerySchema,
    GameListQuerySchema,
    GameListSchema,
    GameSchema,
    LegalCommandsSchema,
    MoveResultSchema,
    PastStateSchema,
    SubmitSchema,
)
from eventstore.base import StoredEvent
from workers import clocks
from workers.games import LoadedGame, public_seats
from workers.history import current_request

blp = Blueprint("games", __name__, url_prefix="/games", description="Create games, follow them and play moves")

SEAT_AUTH = [{"seatToken": []}, {}]

GAME_LINKS = {
    "GetGame": {"operationId": "getGame", "parameters": {"game_id": "$response.body#/id"}},
    "GetLegalCommands": {"operationId": "getLegalCommands", "parameters": {"game_id": "$response.body#/id"}},
    "SubmitCommands": {"operationId": "submitCommands", "parameters": {"game_id": "$response.body#/id"}},
    "GetEvents": {"operationId": "getEvents", "parameters": {"game_id": "$response.body#/id"}},
    "GetPastState": {
        "operationId": "getPastState",
        "parameters": {"game_id": "$response.body#/id", "version": "$response.body#/version"},
    },
}


class MoveHeadersSchema(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    if_match = fields.String(
        data_key="If-Match",
        validate=validate.Length(1, 100),
        metadata={"description": "the game's ETag as last read; 412 if another move was stored since"},
    )
    idempotency_key = fields.String(
        data_key="Idempotency-Key",
        validate=validate.Length(1, 200),
        metadata={"description": "a retried request with the same key never plays twice"},
    )


# --------------------------------------------------------------------------- helpers
def caller_seat(game: LoadedGame) -> int | None:
    return caller_for(game.info).seat


def visible_state(game: LoadedGame, seat: int | None) -> dict[str, Any]:
    if game.over:
        return game.rules.reveal_all(game.state)
    return game.rules.view(game.state, seat)


def game_body(game: LoadedGame, seat: int | None) -> dict[str, Any]:
    info = game.info
    return {
        "id": info.stream,
        "game_type": info.game_type,
        "status": "finished" if game.over else info.status,
        "version": game.version,
        "generation": game.generation,
        "etag": game.etag,
        "created_at": info.created_at,
        "seats": public_seats(info.metadata),
        "to_act": [] if game.over else sorted(game.rules.to_act(game.state)),
        "your_seat": seat,
        "state": visible_state(game, seat),
        "result": game.result_dict() if game.over else None,
        "undo_allowed": bool(info.metadata.get("undo", True)),
        "clock": clock_body(game),
        "undo_request": current_request(game) if seat is not None else None,
    }


def clock_body(game: LoadedGame) -> dict[str, Any] | None:
    config = game.info.metadata.get("clock")
    if not config:
        return None
    state = service().last_clock(game)
    return clocks.describe(config, None if game.over else state)


def event_body(game: LoadedGame, event: StoredEvent, seat: int | None, reveal: bool) -> dict[str, Any]:
    data = event.data if reveal else game.rules.redact(event.data, seat)
    return {
        "version": event.version,
        "generation": event.generation,
        "type": event.type,
        "seat": event.meta.get("seat"),
        "actor": event.meta.get("actor", "unknown"),
        "data": data,
        "recorded_at": event.recorded_at,
    }


def etag_header(game: LoadedGame) -> dict[str, str]:
    return {"ETag": f'"{game.etag}"'}


def parse_if_match(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    if value.startswith("W/"):
        value = value[2:]
    return value.strip('"')


# ---------------------------------------------------------------------------- routes
@blp.route("")
class Games(MethodView):
    @blp.arguments(CreateGameSchema)
    @blp.response(201, CreatedGameSchema)
    @errors(blp, 400, 404, 413, 422)
    @blp.doc(operationId="createGame", responses={"201": {"links": GAME_LINKS}})
    def post(self, body):
        """Create a game; returns one secret bearer token per human seat (shown only here)"""
        key = integrator_key()
        game, tokens = service().create_game(
            body["game_type"],
            body["seats"],
            body.get("options"),
            body.get("seed"),
            undo=body["undo"],
            created_by=key.key_id if key else None,
            clock=body.get("clock"),
        )
        return {**game_body(game, None), "seat_tokens": tokens}, 201, etag_header(game)

    @blp.arguments(GameListQuerySchema, location="query")
    @blp.response(200, GameListSchema)
    @errors(blp, 400)
    @blp.doc(operationId="listGames")
    def get(self, query):
        """List games, newest first"""
        infos = service().store.list_streams(
            game_type=query.get("game_type"), status=query.get("status"), limit=query["limit"], offset=query["offset"]
        )
        return {
            "games": [
                {
                    "id": info.stream,
                    "game_type": info.game_type,
                    "status": info.status,
                    "version": info.version,
                    "created_at": info.created_at,
                    "seats": public_seats(info.metadata),
                }
                for info in infos
            ]
        }


@blp.route("/<string:game_id>")
class Game(MethodView):
    @blp.response(200, GameSchema, headers={"ETag": {"schema": {"type": "string"}}})
    @errors(blp, 401, 404)
    @blp.doc(operationId="getGame", security=SEAT_AUTH)
    def get(self, game_id):
        """Read a game as the caller's seat sees it (or as a spectator without a token)"""
        game = service().load(game_id)
        return game_body(game, caller_seat(game)), 200, etag_header(game)


@blp.route("/<string:game_id>/legal-commands")
class LegalCommands(MethodView):
    @blp.response(200, LegalCommandsSchema)
    @errors(blp, 401, 404)
    @blp.doc(operationId="getLegalCommands", security=[{"seatToken": []}])
    def get(self, game_id):
        """Every command the caller's seat may send now (empty when it is not this seat's turn)"""
        game = service().load(game_id)
        seat = caller_seat(game)
        if seat is None:
            raise ApiError("unauthorized", "legal commands are per seat: send your seat token as a bearer token")
        commands = [] if game.over else game.rules.legal_commands(game.state, seat)
        return {"seat": seat, "version": game.version, "etag": game.etag, "commands": commands}, 200, etag_header(game)


@blp.route("/<string:game_id>/commands")
class Commands(MethodView):
    @blp.arguments(MoveHeadersSchema, location="headers")
    @blp.arguments(SubmitSchema)
    @blp.response(200, MoveResultSchema, headers={"ETag": {"schema": {"type": "string"}}})
    @errors(blp, 400, 401, 404, 409, 412, 413, 422)
    @blp.doc(operationId="submitCommands", security=[{"seatToken": []}])
    def post(self, headers, body, game_id):
        """Play a command, or a list of commands applied in order all-or-nothing, for the caller's seat"""
        svc = service()
        info = svc.info(game_id)
        seat = caller_for(info).seat
        if seat is None:
            raise ApiError("unauthorized", "moves need a seat token: send it as a bearer token")
        if ("command" in body) == ("commands" in body):
            raise ApiError("invalid_command", 'send exactly one of "command" (an object) or "commands" (a list)')
        commands = body["commands"] if "commands" in body else [body["command"]]
        outcome = svc.submit(
            game_id,
            seat,
            commands,
            if_match=parse_if_match(headers.get("if_match")),
            idempotency_key=headers.get("idempotency_key"),
        )
        game = outcome.game
        reveal = game.over
        return (
            {
                "version": game.version,
                "etag": game.etag,
                "replayed": outcome.replayed,
                "events": [event_body(game, e, seat, reveal) for e in outcome.events],
                "to_act": [] if game.over else sorted(game.rules.to_act(game.state)),
                "status": "finished" if game.over else "active",
            },
            200,
            etag_header(game),
        )


@blp.route("/<string:game_id>/events")
class Events(MethodView):
    @blp.arguments(EventQuerySchema, location="query")
    @blp.response(200, EventPageSchema)
    @errors(blp, 400, 401, 404)
    @blp.doc(operationId="getEvents", security=SEAT_AUTH)
    def get(self, query, game_id):
        """The game's event log after a version, redacted for the caller (all public once the game is over)"""
        svc = service()
        info = svc.info(game_id)
        seat = caller_for(info).seat
        after, limit = query["after"], query["limit"]
        if query["wait"] > 0 and after >= info.version:
            from api.live import wait_for_change  # the live fan-out: no query per waiting long-poll

            wait_for_change(svc, game_id, info.version, info.generation, query["wait"])
            info = svc.info(game_id)
        stored = svc.store.read(game_id, after + 1, min(after + limit, info.version)) if after < info.version else []
        game = svc.load(game_id)
        reveal = game.over
        last = stored[-1].version if stored else after
        return {
            "game_id": game_id,
            "version": game.version,
            "generation": game.generation,
            "events": [event_body(game, e, seat, reveal) for e in stored],
            "next_after": last if last < game.version else None,
        }


@blp.route("/<string:game_id>/states/<int:version>")
class PastState(MethodView):
    @blp.response(200, PastStateSchema)
    @errors(blp, 401, 404)
    @blp.doc(operationId="getPastState", security=SEAT_AUTH)
    def get(self, game_id, version):
        """The game as it was at a past version (replay), as the caller may see it"""
        svc = service()
        current = svc.load(game_id)
        seat = caller_seat(current)
        if not 1 <= version <= current.version:
            raise ApiError("unknown_version", f"version must be between 1 and {current.version}")
        past = svc.load(game_id, at_version=version)
        state = past.rules.reveal_all(past.state) if current.over else past.rules.view(past.state, seat)
        return {
            "game_id": game_id,
            "version": version,
            "current_version": current.version,
            "to_act": [] if past.over else sorted(past.rules.to_act(past.state)),
            "state": state,
        }
