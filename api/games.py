"""Games: create, read (as a seat or a spectator), legal commands, moves, the event log, past states."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

import marshmallow as ma
from flask import Response, g, request, url_for
from flask.views import MethodView
from marshmallow import fields

from api import bots, game_contract
from api.blueprint import Blueprint
from api.common import NEXT_PAGE_LINK, caller_for, integrator_key, next_page_link, seat_only, service
from api.contract import errors
from api.errors import ApiError
from api.fast_json import encoded_response, response_body
from api.ratelimit import address_bucket
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
    Pattern,
    SubmitSchema,
)
from domain import registry
from eventstore.base import Audience, StoredEvent, StreamInfo, is_public
from workers import bot_tables, clocks, facts
from workers.game_model import LoadedGame, public_seats, resign_policy, with_seat_ids
from workers.history import current_request

blp = Blueprint("games", __name__, url_prefix="/games", description="Create games, follow them and play moves")

SEAT_AUTH: list[dict[str, list[str]]] = [{"seatToken": []}, {}]

CREATE_EXAMPLE = {
    "game_type": "puerto_rico",
    "seed": 7,
    "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}, {"kind": "bot"}],
}
GAME_ID = {"game_id": "$response.body#/id"}
GAME_LINKS = {
    "GetReplay": {"operationId": "getReplay", "parameters": GAME_ID},
    "GetHistory": {"operationId": "getHistory", "parameters": GAME_ID},
    "AuditGame": {"operationId": "auditGame", "parameters": GAME_ID},
    "StreamGame": {"operationId": "streamGame", "parameters": GAME_ID},
    "ExportGame": {"operationId": "exportGame", "parameters": GAME_ID},
    "GetGame": {"operationId": "getGame", "parameters": {"game_id": "$response.body#/id"}},
    "GetLegalCommands": {"operationId": "getLegalCommands", "parameters": {"game_id": "$response.body#/id"}},
    "SubmitCommands": {"operationId": "submitCommands", "parameters": {"game_id": "$response.body#/id"}},
    "GetEvents": {"operationId": "getEvents", "parameters": {"game_id": "$response.body#/id"}},
    "GetPastState": {
        "operationId": "getPastState",
        "parameters": {"game_id": "$response.body#/id", "version": "$response.body#/version"},
    },
}


ETAG_HEADER = {
    "description": "the game's version (a read adds a digest of its body, so each seat's view of a version, and "
    "each form a read has taken, has its own tag), to send in If-Match (moves) or If-None-Match (reads)",
    "required": True,
    "schema": {"type": "string"},
}
IF_NONE_MATCH = {
    "in": "header",
    "name": "If-None-Match",
    "required": False,
    "description": "an ETag from an earlier read, a list of them, or `*`: 304 while the read's body is unchanged",
    "schema": {"type": "string", "pattern": "^[\\x20-\\x7e]{0,200}$"},
}


GAME_LIST_QUERY = GameListQuerySchema()
CREATE_GAME = CreateGameSchema()
GAME_LIST = GameListSchema()


class MoveHeadersSchema(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    if_match = fields.String(
        data_key="If-Match",
        validate=Pattern(r"^[\x20-\x7e]{1,200}$", error="visible ASCII, at most 200 characters"),
        metadata={
            "description": "the game's ETag as last read, a list of them, or `*` (RFC 9110); 412 if the "
            "game is at none of them. Weak tags (W/) never match."
        },
    )
    idempotency_key = fields.String(
        data_key="Idempotency-Key",
        validate=Pattern(r"^[\x21-\x7e]{1,200}$", error="1 to 200 visible ASCII characters"),
        metadata={"description": "a retried request with the same key never plays twice"},
    )


# --------------------------------------------------------------------------- helpers
def caller_key():
    """The request's API key (looked up once per request), or None."""
    if "caller_key" not in g:
        g.caller_key = integrator_key()
    return g.caller_key


def caller_created(info: StreamInfo) -> bool:
    """Whether the request's API key is the one that created the game (it sees the seats' external ids)."""
    creator = info.metadata.get("created_by")
    key = caller_key() if creator is not None else None
    return key is not None and key.key_id == creator


def seats_for(info: StreamInfo, now: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """A game's public seats as this caller may see them: `external_id` only for the key that created the game
    (read from the game's own record of seat ids, never from its public creation metadata).
    ``now``: the seats as they play now (after resignations, from the game's facts), else as created."""
    seats = now if now is not None else info.metadata["seats"]
    if caller_created(info):
        return public_seats({"seats": with_seat_ids(seats, service().seat_ids(info))})
    return [{**seat, "external_id": None} for seat in public_seats({"seats": seats})]


def caller_seat(game: LoadedGame) -> int | None:
    return caller_for(game.info).seat


def visible_state(game: LoadedGame, seat: int | None) -> dict[str, Any]:
    """The state as ``seat`` sees it (everything once the game is over), computed once per version."""

    def view() -> dict[str, Any]:
        return game.rules.reveal_all(game.state) if game.over else game.rules.view(game.state, seat)

    return service().per_version(game, "view", seat, view)


def game_body(game: LoadedGame, seat: int | None, moving: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game as ``seat`` sees it; ``moving``: its ``moving_parts``, if the caller has them already."""
    info = game.info
    resign = resign_policy(info.metadata)
    return {
        "id": info.stream,
        "game_type": info.game_type,
        "status": game.status,
        "version": game.version,
        "generation": game.generation,
        "etag": game.etag,
        "created_at": info.created_at,
        "options": info.metadata.get("options") or {},
        "public": is_public(info.metadata),
        "to_act": [] if game.over else sorted(game.rules.to_act(game.state)),
        "your_seat": seat,
        "state": visible_state(game, seat),
        "result": game.result_dict() if game.over else None,
        "undo_allowed": bool(info.metadata.get("undo", True)),
        "on_resign": resign["policy"],
        "resign_level": resign["level"],
        **(moving_parts(game, seat) if moving is None else moving),
    }


def moving_parts(game: LoadedGame, seat: int | None) -> dict[str, Any]:
    """What of a game's body can change between moves (``kept_between_moves`` reads them), and the seats (the caller's own
    view of them)."""
    return {
        "seats": seats_for(game.info, game.seats),
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
    data = facts.public_event(game.rules, event.data) if reveal else facts.redact(game.rules, event.data, seat)
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


def kept_between_moves(moving: dict[str, Any]) -> bool:
    """Whether a game read with these ``moving_parts`` can be kept until the game moves: not while a clock runs, an
    undo request is open or a seat has been handed to a bot, each of which changes the body between moves."""
    return (
        not moving.get("clock")
        and not moving.get("undo_request")
        and not any(s.get("timed_out") for s in moving["seats"])
    )


VISIBLE = re.compile(r"[\x20-\x7e]{0,200}")
ENTITY_TAG = re.compile(r'\s*(W/)?"([^"]*)"\s*|\s*([^\s,"]+)\s*')


def entity_tags(value: str) -> list[tuple[bool, str]] | None:
    """An If-Match / If-None-Match field as (weak, tag) pairs, ``None`` for ``*`` (RFC 9110 13.1.1). Bare
    unquoted tags are taken as strong tags, as a courtesy to clients that send the body's `etag` as is."""
    if value.strip() == "*":
        return None
    tags = []
    for part in value.split(","):
        if not part.strip():
            continue
        match = ENTITY_TAG.fullmatch(part)
        if match is None:
            raise ApiError("invalid_request", f"not an entity-tag list: {value!r}")
        tags.append((bool(match.group(1)), match.group(2) if match.group(2) is not None else match.group(3)))
    return tags


def parse_if_match(value: str | None) -> list[str] | None:
    """The versions a move may apply to: strong comparison, so weak tags match nothing; ``["*"]`` for any."""
    if value is None:
        return None
    tags = entity_tags(value)
    if tags is None:
        return ["*"]
    return [tag.split("-", 1)[0] for weak, tag in tags if not weak]


def not_modified(etag: str) -> bool:
    """If-None-Match on a read: weak comparison, ``*`` matches any current representation."""
    value = request.headers.get("If-None-Match")
    if value is None:
        return False
    if not VISIBLE.fullmatch(value):
        raise ApiError("invalid_request", "If-None-Match takes entity-tags of visible ASCII, or *")
    try:
        tags = entity_tags(value)
    except ApiError:
        return False  # not an entity-tag list: it matches nothing, so the full answer is sent
    return tags is None or any(tag == etag for _, tag in tags)


def read_response(
    game: LoadedGame,
    schema: ma.Schema,
    body: Callable[[], dict[str, Any]],
    seat: int | None,
    variant: str = "",
    kept: bool = True,
):
    """A read of ``game`` as ``seat`` sees it: ``body()`` dumped by ``schema`` and encoded, or 304 when
    If-None-Match names its entity-tag. The tag is the game's version and a digest of the encoded body, so it names
    one representation (RFC 9110 8.8.3): each seat's view of a version has its own (its own hidden information), and
    a body that changed while the game did not move (a running clock, or a server whose reads now say more) is
    never answered 304. If-Match reads only the version, the part before the first ``-``, so a move takes any read's
    tag. ``kept``: the encoded body and its tag are kept with the game's version (``per_version``), so a client
    polling a game that has not moved is answered from what the first read of that version made. ``variant``: what
    else the body depends on for the same seat (a caller who sees the seats' external ids)."""

    def encoded() -> tuple[bytes, str]:
        data = response_body(schema.dump(body()))
        return data, f"{game.etag}-{hashlib.blake2b(data, digest_size=6).hexdigest()}"

    if kept:
        data, tag = service().per_version(game, f"{type(schema).__name__}:{variant}", seat, encoded)
    else:
        data, tag = encoded()
    headers = {"ETag": f'"{tag}"', "Cache-Control": "private, no-cache"}
    if not_modified(tag):
        return Response(status=304, headers=headers)
    return encoded_response(data, 200, headers)


GAME_SCHEMA = GameSchema()
CREATED_GAME_SCHEMA = CreatedGameSchema()
LEGAL_COMMANDS_SCHEMA = LegalCommandsSchema()
MOVE_RESULT_SCHEMA = MoveResultSchema()
SUBMIT_SCHEMA = SubmitSchema()
MOVE_HEADERS_SCHEMA = MoveHeadersSchema()
EVENT_QUERY_SCHEMA = EventQuerySchema()
EVENT_PAGE_SCHEMA = EventPageSchema()
PAST_STATE_SCHEMA = PastStateSchema()


# ---------------------------------------------------------------------------- routes
@blp.route("")
class Games(MethodView):
    @blp.arguments(CREATE_GAME, example=CREATE_EXAMPLE)
    @blp.response(201, CREATED_GAME_SCHEMA)
    @errors(
        blp,
        "unauthorized",
        "unknown_game_type",
        "invalid_seats",
        "invalid_options",
        "human_seat_required",
        "too_many_bot_games",
        "bot_capacity",
    )
    @blp.doc(operationId="createGame", responses={201: {"links": GAME_LINKS}})
    def post(self, body):
        """Create a game; returns one secret bearer token per human seat (shown only here)"""
        key = integrator_key()
        owner = bot_tables.owner_of(key.key_id if key else None, address_bucket(request.remote_addr or ""))
        # seats that pass to bots when they resign or run out of time make it a bot table as well
        hands_over = body["on_resign"] == "bot" or body.get("clock") is not None
        bots.admit(service(), body["seats"], owner, hands_over)
        game, tokens = service().create_game(
            body["game_type"],
            body["seats"],
            body.get("options"),
            body.get("seed"),
            undo=body["undo"],
            created_by=key.key_id if key else None,
            clock=body.get("clock"),
            on_resign=body["on_resign"],
            resign_level=body.get("resign_level"),
            extra_metadata={"public": body["public"]} if "public" in body else None,
        )
        bot_tables.register(service().documents, game.info.stream, owner, body["seats"], hands_over)
        return (
            {**game_body(game, None), "seat_tokens": tokens},
            201,
            {**etag_header(game), "Location": url_for("games.Game", game_id=game.info.stream)},
        )

    @blp.arguments(GAME_LIST_QUERY, location="query")
    @blp.response(
        200,
        GAME_LIST,
        headers=NEXT_PAGE_LINK,
    )
    @errors(blp, "unauthorized", "invalid_cursor")
    @blp.doc(operationId="listGames", security=[{"apiKey": []}, {}])
    def get(self, query):
        """List games, newest first, filtered by status and game type, a page at a time (cursor pagination)

        Without an API key: the public games created without one. With a key: its own games and every public
        game. A game created with a key is public only when created with `public: true` (docs/limits.md)."""
        limit = query["limit"]
        key = caller_key()
        audience = Audience(key.key_id if key else None)
        infos = service().list_games(
            audience=audience,
            game_type=query.get("game_type"),
            status=query.get("status"),
            limit=limit + 1,
            before=query.get("cursor"),
        )
        if query.get("cursor") and not service().listed(query["cursor"], audience):
            # said so, lest an unknown cursor's empty page pass for the end of the list; and a game not listed to
            # the caller is no cursor either (the games after it would tell that it exists, and roughly when)
            raise ApiError("invalid_cursor", "cursor names no game of this listing; start again without a cursor")
        more = len(infos) > limit
        infos = infos[:limit]
        next_cursor = infos[-1].stream if more else None
        headers = next_page_link("games.Games", next_cursor) if next_cursor else {}
        body = {
            "games": [
                {
                    "id": info.stream,
                    "game_type": info.game_type,
                    "status": info.status,
                    "version": info.version,
                    "created_at": info.created_at,
                    "options": info.metadata.get("options") or {},
                    "public": is_public(info.metadata),
                    "seats": seats_for(info),
                }
                for info in infos
            ],
            "next_cursor": next_cursor,
        }
        return body, 200, headers


@blp.route("/<game_id:game_id>")
class Game(MethodView):
    @blp.response(200, GAME_SCHEMA, headers={"ETag": ETAG_HEADER})
    @blp.alt_response(
        304, description="not modified: the If-None-Match tag is the current one", headers={"ETag": ETAG_HEADER}
    )
    @errors(blp, "unauthorized", "unknown_game")
    @blp.doc(operationId="getGame", security=SEAT_AUTH, parameters=[IF_NONE_MATCH])
    def get(self, game_id):
        """Read a game as the caller's seat sees it (or as a spectator without a token)"""
        info, seat_tokens = service().info_and_seat_tokens(game_id)
        game = service().load(game_id, info=info)
        seat = caller_for(info, seat_tokens).seat
        moving = moving_parts(game, seat)
        variant = "creator" if caller_created(info) else ""
        return read_response(
            game, GAME_SCHEMA, lambda: game_body(game, seat, moving), seat, variant, kept_between_moves(moving)
        )


@blp.route("/<game_id:game_id>/legal-commands")
class LegalCommands(MethodView):
    @blp.response(200, LEGAL_COMMANDS_SCHEMA, headers={"ETag": ETAG_HEADER})
    @blp.alt_response(
        304, description="not modified: the If-None-Match tag is the current one", headers={"ETag": ETAG_HEADER}
    )
    @errors(blp, "unauthorized", "forbidden", "unknown_game")
    @blp.doc(operationId="getLegalCommands", security=[{"seatToken": []}], parameters=[IF_NONE_MATCH])
    def get(self, game_id):
        """Every command the caller's seat may send now (empty when it is not this seat's turn)"""
        info, seat_tokens = service().info_and_seat_tokens(game_id)
        game = service().load(game_id, info=info)
        seat = seat_only(caller_for(info, seat_tokens), "legal commands are per seat")

        def body() -> dict[str, Any]:
            commands = [] if game.over else game.rules.legal_commands(game.state, seat)
            if game.seats[seat]["kind"] != "human":
                commands = []  # the seat ran out of time: a bot plays it now
            choices = game_contract.choices(game.rules, game.state, seat, commands)
            return {"seat": seat, "version": game.version, "etag": game.etag, "commands": commands, "choices": choices}

        return read_response(game, LEGAL_COMMANDS_SCHEMA, body, seat)


@blp.route("/<game_id:game_id>/commands")
class Commands(MethodView):
    @blp.arguments(MOVE_HEADERS_SCHEMA, location="headers")
    @blp.arguments(SUBMIT_SCHEMA)
    @blp.response(200, MOVE_RESULT_SCHEMA, headers={"ETag": ETAG_HEADER})
    @errors(
        blp,
        "unauthorized",
        "unknown_game",
        "forbidden",
        "not_your_turn",
        "game_over",
        "out_of_time",
        "busy",
        "idempotency_expired",
        "stale_version",
        "invalid_command",
        "illegal_command",
        "idempotency_conflict",
    )
    @blp.doc(operationId="submitCommands", security=[{"seatToken": []}])
    def post(self, headers, body, game_id):
        """Play a command, or a list of commands applied in order all-or-nothing, for the caller's seat"""
        svc = service()
        info, seat_tokens = svc.info_and_seat_tokens(game_id)  # one read of the stream row for the whole move
        seat = seat_only(caller_for(info, seat_tokens), "moves are played by a seat")
        if ("command" in body) == ("commands" in body):
            raise ApiError("invalid_command", 'send exactly one of "command" (an object) or "commands" (a list)')
        commands = body["commands"] if "commands" in body else [body["command"]]
        game_contract.check_commands(registry.get(info.game_type), commands)
        outcome = svc.submit(
            game_id,
            seat,
            commands,
            if_match=parse_if_match(headers.get("if_match")),
            idempotency_key=headers.get("idempotency_key"),
            info=info,
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
                "status": game.status,
                "head_hash": outcome.events[-1].hash if outcome.events else "",
            },
            200,
            etag_header(game),
        )


@blp.route("/<game_id:game_id>/events")
class Events(MethodView):
    @blp.arguments(EVENT_QUERY_SCHEMA, location="query")
    @blp.response(200, EVENT_PAGE_SCHEMA)
    @errors(blp, "unauthorized", "unknown_game", "too_many_followers", "busy")
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
            # the credential again, as it is now: a seat token reissued (or a key revoked) while the request
            # waited no longer reads the seat's events (401), as a stream it opened would end
            g.pop("known_key", None)
            seat = caller_for(info).seat
        for _ in range(3):
            stored = (
                svc.read_events(game_id, after + 1, min(after + limit, info.version)) if after < info.version else []
            )
            game = svc.load(game_id)
            if game.generation == info.generation:
                break
            # an undo landed in between: the page's events and its generation must be of one history
            info = svc.info(game_id)
        else:
            raise ApiError("busy", "the game was undone again and again while its events were read; retry")
        reveal = game.over
        last = stored[-1].version if stored else after
        return {
            "game_id": game_id,
            "version": game.version,
            "generation": game.generation,
            "events": [event_body(game, e, seat, reveal) for e in stored],
            "next_after": last if last < game.version else None,
        }


@blp.route("/<game_id:game_id>/states/<int:version>")
class PastState(MethodView):
    @blp.response(200, PAST_STATE_SCHEMA)
    @errors(blp, "unauthorized", "unknown_game", "unknown_version", "busy")
    @blp.doc(operationId="getPastState", security=SEAT_AUTH)
    def get(self, game_id, version):
        """The game as it was at a past version (replay), as the caller may see it"""
        svc = service()

        def read() -> tuple[dict[str, Any], int]:
            # what is revealed is decided on ``current``: an undo between the reads (a finished game back in play,
            # its seats drawing anew) would show the new history's secrets as the old one's
            current = svc.load(game_id)
            seat = caller_seat(current)
            if not 1 <= version <= current.version:
                raise ApiError("unknown_version", f"version must be between 1 and {current.version}")
            past = svc.load(game_id, at_version=version)
            state = past.rules.reveal_all(past.state) if current.over else past.rules.view(past.state, seat)
            body = {
                "game_id": game_id,
                "version": version,
                "current_version": current.version,
                "to_act": [] if past.over else sorted(past.rules.to_act(past.state)),
                "state": state,
            }
            return body, current.generation

        return svc.in_one_history(game_id, read)


@blp.route("/<game_id:game_id>/resign")
class Resign(MethodView):
    @blp.response(200, GAME_SCHEMA, headers={"ETag": ETAG_HEADER})
    @errors(blp, "unauthorized", "unknown_game", "forbidden", "game_over", "stale_version")
    @blp.doc(operationId="resignGame", security=[{"seatToken": []}])
    def post(self, game_id):
        """Resign the caller's seat: the game's `on_resign` choice applies (ranked last, or a bot plays on)

        Stored as a `platform.Resigned` event in the game's chain. With `on_resign: lose` the seat is ranked
        last and a random bot plays its turns; when at most one seat is left in play the game ends at once.
        With `on_resign: bot` a bot of the game's `resign_level` plays on for the seat.
        """
        svc = service()
        seat = seat_only(caller_for(svc.info(game_id)), "resigning is for a seat")
        game = svc.resign(game_id, seat)
        return game_body(game, seat), 200, etag_header(game)


@blp.route("/<game_id:game_id>/abort")
class Abort(MethodView):
    @blp.response(200, GAME_SCHEMA, headers={"ETag": ETAG_HEADER})
    @errors(blp, "unauthorized", "unknown_game", "forbidden", "game_over", "stale_version")
    @blp.doc(operationId="abortGame", security=[{"apiKey": []}, {"seatToken": []}])
    def post(self, game_id):
        """End a running game without a result (status `aborted`): its creator only

        The creator is the integrator key that created the game, or for a game created without a key, the
        first human seat (its token). Stored as a `platform.Aborted` event; an aborted game is not rated.
        """
        svc = service()
        info = svc.info(game_id)
        caller = caller_for(info)
        creator = info.creation.get("created_by", info.metadata.get("created_by"))
        if caller.integrator is not None:
            if creator != caller.integrator:
                raise ApiError("forbidden", "only the integrator that created this game may abort it")
            by = f"integrator:{caller.integrator}"
        elif caller.seat is not None:
            first_human = next((s["seat"] for s in info.metadata["seats"] if s["kind"] == "human"), None)
            if creator is not None or caller.seat != first_human:
                raise ApiError(
                    "forbidden", "only the game's creator may abort it (its key, or the first human seat without one)"
                )
            by = f"seat:{caller.seat}"
        else:
            raise ApiError("unauthorized", "aborting needs the creating integrator's API key or the first seat's token")
        game = svc.abort(game_id, by)
        return game_body(game, caller.seat), 200, etag_header(game)
