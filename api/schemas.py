"""Marshmallow schemas: they validate requests and generate the OpenAPI document.

Every schema here derives from ``Schema``, whose ``dump`` (what flask-smorest calls on every response) runs a
plan compiled once per schema instance: a field whose value already has the JSON type the field would produce
(an ``int`` for ``Integer``, a ``str`` for ``String``, a plain ``dict`` for ``Dict``...) is taken as is, and
anything else goes through the field's own ``_serialize``, so the output is marshmallow's to the byte
(``tests/api/test_fast_dump.py`` holds the two equal over real games).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from domain import registry
from domain.bots import LEVELS as BOT_LEVELS
from workers.text import REASON, REASON_PUBLISHED, TEXT, TEXT_PUBLISHED

MAX_COMMANDS = 50


class BoundedList(fields.List):
    """A list whose ``Length`` validators are checked on the list as sent, before any item is read: a 4 MB body
    of 100,000 seats is refused by its length alone, not after reading every seat (seconds of CPU)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, list):
            for check in self.validators:
                if isinstance(check, validate.Length):
                    check(value)  # raises ValidationError with the validator's own message
        return super()._deserialize(value, attr, data, **kwargs)


GAME_TYPES = sorted(registry.GAME_MODULES)


def hosted_game_type(value: str) -> None:
    if value not in registry.names():
        raise ma.ValidationError(f"not a hosted game type; one of {', '.join(registry.names())}")


class StrictBoolean(fields.Boolean):
    """true or false, not 0, 1, "yes" or "on" (marshmallow's Boolean takes those)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class Pattern(validate.Regexp):
    """``validate.Regexp`` whose pattern must match the whole value: Regexp matches from the start only, where a
    final ``$`` also matches before a trailing newline, so "abc\\n" would pass ``^[a-z]+$``."""

    def __call__(self, value):  # type: ignore[override]  # Regexp's overloads: str (and bytes, unused here)
        if self.regex.fullmatch(value) is None:
            raise ma.ValidationError(self._format_error(value))
        return value


class CheckedPattern(validate.Regexp):
    """A text checked against ``full`` (Python's regular expressions) and documented by ``published``, a pattern
    within what OpenAPI's ECMA-262 patterns can say, that ``full`` narrows (``workers.text``)."""

    def __init__(self, full: str, published: str, error: str) -> None:
        super().__init__(published, error=error)  # the pattern apispec publishes
        self.full = re.compile(full)

    def __call__(self, value):  # type: ignore[override]  # Regexp's overloads: str (and bytes, unused here)
        if self.full.fullmatch(value) is None:
            raise ma.ValidationError(self._format_error(value))
        return value


def name_field(low: int, high: int, **kwargs) -> fields.String:
    return fields.String(
        validate=[
            validate.Length(low, high),
            CheckedPattern(
                TEXT,
                TEXT_PUBLISHED,
                error="something visible, and no control, direction or zero-width characters, nor a pile of marks",
            ),
        ],
        **kwargs,
    )


def game_type_field(**kwargs) -> fields.String:
    """A game type name: documented as an enum of the hosted games (GET /game-types describes each)."""
    return fields.String(metadata={"enum": GAME_TYPES, "example": "puerto_rico"}, **kwargs)


_SLOW = object()  # "let the field serialise this value itself"


def _as_is(kind: type) -> Callable[[Any], Any]:
    return lambda value: value if type(value) is kind or value is None else _SLOW


def _plain_kind(field: fields.Field) -> type | None:
    """The type whose values the field gives out as they are (``int`` for an ``Integer``, ``str`` for a
    ``String``...), checked in the dump's own loop without a call; None for any other field."""
    impl = type(field)._serialize
    if impl is fields.Number._serialize and not field.as_string:  # type: ignore[attr-defined]
        return field.num_type  # type: ignore[attr-defined]
    if impl is fields.String._serialize:
        return str
    if impl is fields.Boolean._serialize:
        return bool
    return None


def _fast_converter(field: fields.Field) -> Callable[[Any], Any] | None:
    """A converter that gives the field's output for the common value types (``_SLOW`` otherwise); None when
    the field is not one this knows."""
    impl = type(field)._serialize
    if impl is fields.Field._serialize:  # Raw
        return lambda value: value
    plain = _plain_kind(field)
    if plain is not None:
        return _as_is(plain)
    if impl is fields.Mapping._serialize and not field.key_field and not field.value_field:  # type: ignore[attr-defined]
        kind = field.mapping_type  # type: ignore[attr-defined]
        return lambda value: kind(value) if type(value) is dict else (None if value is None else _SLOW)
    if impl is fields.List._serialize:
        inner = _fast_converter(field.inner)  # type: ignore[attr-defined]
        if inner is None:
            return None

        def each(value: Any) -> Any:
            if value is None:
                return None
            if type(value) is not list:
                return _SLOW
            out = [inner(item) for item in value]
            return _SLOW if any(item is _SLOW for item in out) else out

        return each
    if impl is fields.Nested._serialize and not field.only and not field.exclude:  # type: ignore[attr-defined]
        schema = field.schema  # type: ignore[attr-defined]
        many = schema.many or field.many  # type: ignore[attr-defined]
        return lambda value: None if value is None else schema.dump(value, many=many)
    return None


def _left_out_when_absent(name: str, field: fields.Field) -> bool:
    """Whether marshmallow leaves the field out of a dict's dump when the dict has no such key: a field read
    by its own name, without a dump default, whose name is no attribute of a dict (marshmallow falls back to
    ``getattr``, so a missing "items" would give the dict's method) and not a dotted path."""
    return (
        field._CHECK_ATTRIBUTE
        and field.attribute is None
        and field.dump_default is ma.missing
        and "." not in name
        and not hasattr(dict, name)
    )


class Schema(ma.Schema):
    """A marshmallow schema whose ``dump`` follows a plan compiled once per instance (see the module doc)."""

    def _dump_plan(
        self,
    ) -> list[tuple[str, str, fields.Field, Callable[[Any], Any] | None, type | None, bool]] | None:
        plan = self.__dict__.get("_tw_plan", False)
        if plan is False:
            if self._hooks[ma.decorators.PRE_DUMP] or self._hooks[ma.decorators.POST_DUMP]:
                plan = None
            else:
                plan = [
                    (
                        name,
                        field.data_key if field.data_key is not None else name,
                        field,
                        # a field read from another attribute goes through marshmallow (``field.serialize``)
                        _fast_converter(field) if field.attribute is None else None,
                        _plain_kind(field) if field.attribute is None else None,
                        _left_out_when_absent(name, field),
                    )
                    for name, field in self.dump_fields.items()
                ]
            self.__dict__["_tw_plan"] = plan
        return plan

    def dump(self, obj: Any, *, many: bool | None = None):
        plan = self._dump_plan()
        many = self.many if many is None else bool(many)
        if plan is None:
            return super().dump(obj, many=many)
        if many:
            return [self._dump_one(plan, item) for item in obj]
        return self._dump_one(plan, obj)

    def _dump_one(self, plan, obj: Any) -> Any:
        if type(obj) is not dict:
            return ma.Schema._serialize(self, obj, many=False)
        out: dict[str, Any] = {}
        for name, key, field, convert, kind, absent_left_out in plan:
            value = obj.get(name, ma.missing)
            if type(value) is kind:  # the common case, without a call
                out[key] = value
                continue
            if value is ma.missing and absent_left_out:  # an optional field the value does not have
                continue
            if value is ma.missing or convert is None:
                value = field.serialize(name, obj, accessor=self.get_attribute)
                if value is ma.missing:
                    continue
            else:
                converted = convert(value)
                value = field._serialize(value, name, obj) if converted is _SLOW else converted
            out[key] = value
        return out


class ProblemSchema(Schema):
    type = fields.String(required=True, metadata={"description": "URI naming the problem kind"})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    code = fields.String(required=True, metadata={"description": "stable machine-readable error code"})
    detail = fields.String(required=True, metadata={"description": "what went wrong and how to fix it"})
    errors = fields.Dict(metadata={"description": "field-by-field validation errors"})
    etag = fields.String(metadata={"description": "the game's current version, on stale_version"})
    index = fields.Integer(metadata={"description": "the index of the refused command in a list"})


class OptionSchema(Schema):
    name = fields.String(required=True)
    type = fields.String(required=True, validate=validate.OneOf(["boolean", "integer", "string"]))
    default = fields.Raw(required=True)
    description = fields.String(required=True)
    choices = fields.List(fields.Raw())
    minimum = fields.Integer()
    maximum = fields.Integer()


class GameTypeSchema(Schema):
    name = fields.String(required=True, metadata={"example": "puerto_rico"})
    title = fields.String(required=True)
    min_players = fields.Integer(required=True)
    max_players = fields.Integer(required=True)
    options = fields.List(fields.Nested(OptionSchema), required=True)
    bot_levels = fields.List(fields.String(), required=True)


class HealthSchema(Schema):
    status = fields.String(required=True, validate=validate.OneOf(["ok", "degraded"]))
    store = fields.String(required=True, metadata={"description": "ok, or the error"})
    store_backend = fields.String(required=True)
    queue = fields.String(required=True, metadata={"description": "ok, or the error"})
    queue_backend = fields.String(
        required=True,
        metadata={"description": "rq, local-runner (a job runner process beside the server), in-process or inline"},
    )


class SeatRequestSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(["human", "bot"]))
    name = name_field(1, 64, metadata={"description": "display name"})
    level = fields.String(
        validate=validate.OneOf(list(BOT_LEVELS)),
        metadata={"description": "bot level (bot seats only; default medium); see GET /game-types"},
    )
    external_id = name_field(1, 128, metadata={"description": "the site's player id"})


class ClockSchema(Schema):
    bank_seconds = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(1, 7 * 24 * 3600),
        metadata={"description": "each seat's time bank"},
    )
    increment_seconds = fields.Integer(
        load_default=0,
        strict=True,
        validate=validate.Range(0, 24 * 3600),
        metadata={"description": "added to a seat's bank after each of its moves"},
    )
    on_timeout = fields.String(
        required=True,
        validate=validate.OneOf(["bot", "forfeit"]),
        metadata={
            "description": "bot: a bot plays on for the seat; forfeit: a bot plays on and the seat is ranked last"
        },
    )


class ClockStateSchema(ClockSchema):
    remaining = fields.List(fields.Float(), required=True, metadata={"description": "seconds left per seat"})
    running = fields.List(fields.Integer(), required=True, metadata={"description": "seats whose clock runs"})
    deadline = fields.String(allow_none=True, required=True, metadata={"description": "earliest flag-fall"})


class CreateGameSchema(Schema):
    game_type = game_type_field(required=True)
    seats = BoundedList(fields.Nested(SeatRequestSchema), required=True, validate=validate.Length(1, 8))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    undo = StrictBoolean(load_default=True, metadata={"description": "false for tournament play: seats cannot undo"})
    clock = fields.Nested(ClockSchema, metadata={"description": "a turn clock (tournament play)"})
    on_resign = fields.String(
        load_default="lose",
        validate=validate.OneOf(["lose", "bot"]),
        metadata={
            "description": "what POST /games/{id}/resign means: lose (the seat is ranked last, a random bot plays "
            "its turns; the game ends when one seat is left in play) or bot (a bot of `resign_level` plays on for it)"
        },
    )
    resign_level = fields.String(
        validate=validate.OneOf(list(BOT_LEVELS)),
        metadata={"description": "the bot level that takes over a seat that resigns when on_resign is bot"},
    )
    public = StrictBoolean(
        metadata={
            "description": "whether GET /games lists the game to other callers: by default true without an API key "
            "and false with one (a key's games are listed only to that key); see docs/limits.md"
        }
    )
    seed = fields.Integer(
        strict=True,
        validate=validate.Range(0, 2**63 - 1),
        metadata={
            "description": "makes set-up and every random outcome reproducible; kept secret from the seats until the "
            "end, but whoever sends it can foresee every draw: leave it out (the server draws one) when the players "
            "should not have to trust the game's creator"
        },
    )


class SeatSchema(Schema):
    seat = fields.Integer(required=True)
    kind = fields.String(required=True)
    name = fields.String(allow_none=True)
    level = fields.String(allow_none=True)
    external_id = fields.String(
        allow_none=True, metadata={"description": "shown only to the API key that created the game, else null"}
    )
    timed_out = fields.Boolean(allow_none=True, metadata={"description": "the seat ran out of time"})
    forfeited = fields.Boolean(allow_none=True, metadata={"description": "ranked last after running out"})
    resigned = fields.String(
        allow_none=True, metadata={"description": "the seat resigned: lose (ranked last) or bot (a bot plays on)"}
    )


class SeatTokenSchema(Schema):
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={"description": "bearer token for this seat; shown once"})


OPTIONS_READ = (
    "the game type's options the game was created with, each one given (the defaults filled in); see GET "
    "/game-types/{name}"
)
PUBLIC_READ = (
    "whether the game is public: `public` as given at creation, else true for a game created without an API key and "
    "false for one created with a key. GET /games lists a public game to every API key, and to callers without a "
    "key when it was created without one (docs/limits.md)"
)


class GameSchema(Schema):
    id = fields.String(required=True)
    game_type = fields.String(required=True)
    status = fields.String(
        required=True,
        metadata={"description": "active, finished, aborted (by its creator) or abandoned (expired without a move)"},
    )
    version = fields.Integer(required=True, metadata={"description": "number of events in the game's stream"})
    generation = fields.Integer(required=True, metadata={"description": "increments at every undo"})
    etag = fields.String(required=True, metadata={"description": "the value to send in If-Match"})
    created_at = fields.String(required=True)
    options = fields.Dict(required=True, metadata={"description": OPTIONS_READ})
    public = fields.Boolean(required=True, metadata={"description": PUBLIC_READ})
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    to_act = fields.List(fields.Integer(), required=True, metadata={"description": "seats that may act now"})
    your_seat = fields.Integer(allow_none=True, required=True, metadata={"description": "the caller's seat"})
    state = fields.Dict(
        required=True,
        metadata={
            "description": (
                "the game state as the caller may see it; its schema is the game type's view component (PuertoRicoView, "
                "MuranoView, AmerigoView, ArchipelagoView; see `view_schema` in GET /game-types/{name})"
            )
        },
    )
    result = fields.Nested(
        "GameResultSchema",
        allow_none=True,
        required=True,
        metadata={
            "description": (
                "once over: scores, ranks (1 is best, ties share a rank), no_winner (true when nobody won, e.g. a "
                "collective loss; every rank is then 1), tiebreaks and game-specific details"
            )
        },
    )
    undo_allowed = fields.Boolean(required=True)
    on_resign = fields.String(
        required=True,
        validate=validate.OneOf(["lose", "bot"]),
        metadata={"description": "what resigning means in this game (lose or bot), as chosen at creation"},
    )
    resign_level = fields.String(
        required=True,
        validate=validate.OneOf(list(BOT_LEVELS)),
        metadata={"description": "the bot level that plays on for a seat that resigns (on_resign bot)"},
    )
    clock = fields.Nested(ClockStateSchema, allow_none=True, required=True)
    undo_request = fields.Nested(
        "UndoRequestSchema", allow_none=True, required=True, metadata={"description": "open request (seats only)"}
    )


class GameResultSchema(Schema):
    """The final result; one shape for every game type (the ``GameResult`` component)."""

    scores = fields.List(fields.Float(), required=True, metadata={"description": "final score per seat"})
    ranks = fields.List(fields.Integer(), required=True, metadata={"description": "1 is best; ties share a rank"})
    no_winner = fields.Boolean(required=True, metadata={"description": "nobody won (every rank is then 1)"})
    tiebreaks = fields.List(fields.Raw(), required=True, metadata={"description": "per seat, game-specific"})
    details = fields.Dict(required=True, metadata={"description": "game-specific details of the final scoring"})
    forfeited = fields.List(fields.Integer(), metadata={"description": "seats ranked last after running out"})
    resigned = fields.List(fields.Integer(), metadata={"description": "seats ranked last after resigning"})


class CreatedGameSchema(GameSchema):
    seat_tokens = fields.List(fields.Nested(SeatTokenSchema), required=True)


class GameSummarySchema(Schema):
    id = fields.String(required=True)
    game_type = fields.String(required=True)
    status = fields.String(required=True)
    version = fields.Integer(required=True)
    created_at = fields.String(required=True)
    options = fields.Dict(required=True, metadata={"description": OPTIONS_READ})
    public = fields.Boolean(required=True, metadata={"description": PUBLIC_READ})
    seats = fields.List(fields.Nested(SeatSchema), required=True)


class GameListQuerySchema(Schema):
    game_type = game_type_field(validate=hosted_game_type)
    status = fields.String(validate=validate.OneOf(["active", "finished", "aborted", "abandoned"]))
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))
    cursor = fields.String(
        validate=Pattern(r"^[0-9a-f]{32}$"),
        metadata={
            "description": 'the `next_cursor` of the previous page (also in its `Link: <...>; rel="next"` header)'
        },
    )


class GameListSchema(Schema):
    games = fields.List(fields.Nested(GameSummarySchema), required=True, metadata={"description": "newest first"})
    next_cursor = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "pass as `cursor` for the next page; null on the last page"},
    )


class LegalChoiceSchema(Schema):
    command = fields.Dict(required=True, metadata={"description": "the command, to send as is"})
    label = fields.String(required=True, metadata={"description": "short English label for a button or menu"})
    cost = fields.Integer(metadata={"description": "what it costs, in the game's currency"})
    gain = fields.Integer(metadata={"description": "what it brings in, in the game's currency"})
    points = fields.Integer(metadata={"description": "victory points it scores, or the printed VP of what it buys"})


class LegalCommandsSchema(Schema):
    seat = fields.Integer(required=True)
    version = fields.Integer(required=True)
    etag = fields.String(required=True)
    commands = fields.List(fields.Dict(), required=True, metadata={"description": "the legal commands, to send as is"})
    choices = fields.List(
        fields.Nested(LegalChoiceSchema),
        required=True,
        metadata={
            "description": "the same commands in the same order, each with an English label and, where it helps, "
            "cost/gain/points previews"
        },
    )


class CommandSchema(Schema):
    """A game command: its ``type`` and the named fields that command takes (see legal-commands).

    Each game type's commands are the ``<Game>Command`` component (e.g. ``PuertoRicoCommand``), a union
    discriminated by ``type``; a command that does not match it (unknown type or field, wrong field type) is
    refused with 400 ``invalid_request`` before the rules see it."""

    class Meta:
        unknown = ma.INCLUDE

    type = fields.String(required=True, validate=Pattern(r"^[a-z][a-z0-9_]{0,63}$"), metadata={"example": "pass"})


class SubmitSchema(Schema):
    command = fields.Nested(CommandSchema, metadata={"description": "one command"})
    commands = BoundedList(
        fields.Nested(CommandSchema),
        validate=validate.Length(1, MAX_COMMANDS),
        metadata={
            "description": "several commands applied in order, all or nothing; a command that draws or reveals "
            "what was hidden (a card, a tile, a die) must be the last (422 `invalid_command` otherwise)"
        },
    )


class EventSchema(Schema):
    version = fields.Integer(required=True)
    generation = fields.Integer(required=True)
    type = fields.String(required=True)
    seat = fields.Integer(allow_none=True, required=True, metadata={"description": "the seat whose move caused it"})
    actor = fields.String(required=True, metadata={"description": "setup, human or bot"})
    data = fields.Dict(required=True, metadata={"description": "the event, redacted for the caller"})
    recorded_at = fields.String(required=True)


class MoveResultSchema(Schema):
    version = fields.Integer(required=True)
    etag = fields.String(required=True)
    replayed = fields.Boolean(required=True, metadata={"description": "true when the Idempotency-Key matched"})
    events = fields.List(fields.Nested(EventSchema), required=True)
    to_act = fields.List(fields.Integer(), required=True)
    status = fields.String(required=True)
    head_hash = fields.String(
        required=True,
        metadata={
            "description": "the chain hash after this move's last event (hex SHA-256): anchor it anywhere; the "
            "signed export of the finished game proves the chain passes through it"
        },
    )


class EventQuerySchema(Schema):
    after = fields.Integer(
        load_default=0,
        validate=validate.Range(0, 10**9),
        metadata={
            "description": "the events after this version; past the game's version the page is empty (a client "
            "that was ahead before an undo compares the page's `generation` with its own and reads again from 0)"
        },
    )
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 1000))
    wait = fields.Float(
        load_default=0,
        validate=validate.Range(0, 30),
        metadata={"description": "long-poll: when nothing follows `after`, wait up to this many seconds for it"},
    )


class EventPageSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    generation = fields.Integer(required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)
    next_after = fields.Integer(allow_none=True, required=True, metadata={"description": "pass as after; null at end"})


class PastStateSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    current_version = fields.Integer(required=True)
    to_act = fields.List(fields.Integer(), required=True)
    state = fields.Dict(required=True)


class UndoRequestSchema(Schema):
    id = fields.String(required=True)
    by = fields.Integer(required=True, metadata={"description": "the seat asking"})
    to_version = fields.Integer(required=True)
    at_version = fields.Integer(required=True)
    at_generation = fields.Integer(required=True)
    reason = fields.String(required=True)
    accepted = fields.List(fields.Integer(), required=True)
    pending = fields.List(fields.Integer(), required=True, metadata={"description": "seats yet to answer"})
    created_at = fields.String(required=True)
    declined_by = fields.Integer()
    closed_at = fields.String()


class UndoBodySchema(Schema):
    to_version = fields.Integer(required=True, strict=True, validate=validate.Range(0, 10**9))
    reason = fields.String(
        load_default="",
        validate=[
            validate.Length(0, 500),
            CheckedPattern(REASON, REASON_PUBLISHED, error="no control, direction or zero-width characters"),
        ],
    )


class TruncationSchema(Schema):
    from_version = fields.Integer(required=True)
    to_version = fields.Integer(required=True)
    generation = fields.Integer(required=True, metadata={"description": "the game's generation after it"})
    actor = fields.String(required=True)
    reason = fields.String(required=True)
    truncated_at = fields.String(required=True)


class UndoResultSchema(Schema):
    status = fields.String(required=True, validate=validate.OneOf(["done", "requested", "declined"]))
    etag = fields.String(required=True)
    request = fields.Nested(UndoRequestSchema)
    truncation = fields.Nested(TruncationSchema)


class HistoryEntrySchema(TruncationSchema):
    archived_events = fields.List(fields.Nested(EventSchema), required=True)


class HistorySchema(Schema):
    game_id = fields.String(required=True)
    truncations = fields.List(fields.Nested(HistoryEntrySchema), required=True)


class RetiredKeySchema(Schema):
    key_id = fields.String(required=True)
    public_key = fields.String(required=True, metadata={"description": "the raw 32-byte public key, base64"})


class SigningKeySchema(Schema):
    algorithm = fields.String(required=True, metadata={"description": "Ed25519"})
    key_id = fields.String(required=True, metadata={"description": "the first 16 hex digits of SHA-256(public key)"})
    public_key = fields.String(required=True, metadata={"description": "the raw 32-byte public key, base64"})
    public_key_pem = fields.String(
        required=True, metadata={"description": "the same key as PEM (SubjectPublicKeyInfo)"}
    )
    retired_keys = fields.List(
        fields.Nested(RetiredKeySchema),
        required=True,
        metadata={
            "description": "keys this one replaced (`tradewinds rotate-signing-key`): games whose chain heads were "
            "signed before a rotation stay signed by them"
        },
    )


class AuditSchema(Schema):
    game_id = fields.String(required=True)
    ok = fields.Boolean(required=True, metadata={"description": "chain intact and its head signed by this server"})
    checked = fields.Integer(required=True)
    broken_version = fields.Integer(allow_none=True, required=True)
    detail = fields.String(required=True)
    chain_ok = fields.Boolean(
        required=True, metadata={"description": "every hash recomputes from the stream as created"}
    )
    signed = fields.Boolean(required=True, metadata={"description": "the head carries this server's signature"})
    head_hash = fields.String(required=True)
    key_id = fields.String(required=True, metadata={"description": "the key the head was checked against"})
    truncations = fields.List(fields.Nested(TruncationSchema), required=True)


class ReplayStepSchema(Schema):
    version = fields.Integer(required=True)
    seat = fields.Integer(allow_none=True, required=True)
    actor = fields.String(required=True)
    event = fields.Dict(required=True)
    state = fields.Dict(required=True, metadata={"description": "the state after this event, as the caller sees it"})


class ReplaySchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    generation = fields.Integer(required=True)
    public = fields.Boolean(required=True, metadata={"description": "true once the game is over"})
    steps = fields.List(fields.Nested(ReplayStepSchema), required=True)
    next_after = fields.Integer(allow_none=True, required=True)


class ReplayQuerySchema(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(0, 10**9))
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))


class VerifyBodySchema(Schema):
    export = fields.String(
        required=True,
        validate=[
            validate.Length(min=1),
            Pattern(r"^[^\x00-\x09\x0b\x0c\x0e-\x1f\x7f]*$", error="JSON Lines: no control characters but line ends"),
        ],
        metadata={"description": "the text of an export (JSON Lines) from GET /games/{game_id}/export"},
    )


class VerifyReportSchema(Schema):
    ok = fields.Boolean(
        required=True,
        metadata={
            "description": "every check passed: the chain, its trusted signature, the set-up, the result, and the"
            " header's game id, options, seed, seats, status, set-up version, creation time, version and generation"
            " as the signed chain holds them (not state_version, the exporting server's state format)"
        },
    )
    game_type = fields.String(allow_none=True, required=True)
    events = fields.Integer(required=True)
    chain_ok = fields.Boolean(required=True)
    broken_version = fields.Integer(allow_none=True, required=True)
    signature_ok = fields.Boolean(
        required=True,
        metadata={"description": "the head's signature is valid, and the export's key id and algorithm are the key's"},
    )
    key_trusted = fields.Boolean(
        required=True, metadata={"description": "the signing key is this server's (GET /signing-key)"}
    )
    key_id = fields.String(allow_none=True, required=True)
    head_hash = fields.String(allow_none=True, required=True)
    setup_reproduced = fields.Boolean(
        allow_none=True,
        required=True,
        metadata={"description": "the set-up events follow from the seed; null: not checked (an earlier check failed)"},
    )
    result_reproduced = fields.Boolean(
        allow_none=True,
        required=True,
        metadata={"description": "re-folding the moves gives the recorded result; null: not checked"},
    )
    recorded_result = fields.Dict(allow_none=True, required=True)
    replayed_result = fields.Dict(allow_none=True, required=True)
    detail = fields.String(required=True)
