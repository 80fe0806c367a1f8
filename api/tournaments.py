"""Tournaments for integrators (round robin and swiss over multi-player tables) and rating leaderboards."""

from __future__ import annotations

import marshmallow as ma
from flask import url_for
from flask.views import MethodView
from marshmallow import fields, validate

from api import bots
from api.blueprint import Blueprint
from api.common import NEXT_PAGE_LINK, integrator_key, next_page_link, service
from api.contract import errors
from api.errors import ApiError
from api.schemas import BOT_LEVELS, BoundedList, ClockSchema, Pattern, game_type_field, name_field
from api.webhooks import key_required, require_key
from domain import registry
from workers import bot_tables, ratings
from workers.tournaments import FORMATS, Tournaments, public_view

blp = Blueprint("tournaments", __name__, description="Tournaments, standings and rating leaderboards")

KEY_AUTH: list[dict[str, list[str]]] = [{"apiKey": []}]


class ParticipantSchema(ma.Schema):
    external_id = name_field(1, 128, metadata={"description": "the site's player id (not starting with `bot:`)"})
    name = name_field(1, 64)
    bot_level = fields.String(validate=validate.OneOf(list(BOT_LEVELS)), metadata={"description": "a bot entrant"})


class TableSizeSchema(ma.Schema):
    min = fields.Integer(required=True, strict=True, validate=validate.Range(1, 16))
    max = fields.Integer(required=True, strict=True, validate=validate.Range(1, 16))


class CreateTournamentSchema(ma.Schema):
    name = name_field(1, 200, required=True)
    game_type = game_type_field(required=True)
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    participants = BoundedList(fields.Nested(ParticipantSchema), required=True, validate=validate.Length(2, 256))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    rounds = fields.Integer(
        strict=True,
        validate=validate.Range(1, 100),
        metadata={"description": "swiss rounds (default from the field size); a cap for round robin"},
    )
    table_size = fields.Nested(TableSizeSchema, metadata={"description": "seats per table (default: the game's)"})
    clock = fields.Nested(ClockSchema)
    seed = fields.Integer(strict=True, validate=validate.Range(0, 2**31 - 1))


class TournamentSeatTokenSchema(ma.Schema):
    seat = fields.Integer(required=True)
    player = fields.String(required=True)
    token = fields.String(required=True)


class TableSchema(ma.Schema):
    table = fields.Integer(required=True)
    game_id = fields.String(required=True)
    players = fields.List(fields.String(), required=True, metadata={"description": "player ids by seat"})
    result = fields.Dict(
        allow_none=True,
        required=True,
        metadata={
            "description": "null while the game runs; `{ranks, scores, no_winner}` (by seat) once it finished, or "
            "`{status}` (`aborted` or `abandoned`) for a void table, which counts in nobody's standings"
        },
    )
    seat_tokens = fields.List(
        fields.Nested(TournamentSeatTokenSchema),
        metadata={
            "description": "only in the response that created the tournament (first round), once: the "
            "server keeps only their hashes; POST /tournaments/{id}/tables/{game_id}/seat-tokens issues "
            "new ones (later rounds, lost tokens)"
        },
    )


class RoundSchema(ma.Schema):
    number = fields.Integer(required=True)
    status = fields.String(required=True)
    started_at = fields.String(required=True)
    finished_at = fields.String(allow_none=True)
    byes = fields.List(fields.String(), required=True)
    tables = fields.List(fields.Nested(TableSchema), required=True)


class StandingSchema(ma.Schema):
    player = fields.String(required=True)
    rank = fields.Integer(required=True)
    points = fields.Float(required=True)
    score_sum = fields.Float(required=True)
    wins = fields.Float(required=True)
    opponents_points = fields.Float(required=True)
    games = fields.Integer(required=True)
    byes = fields.Integer(required=True)


class TournamentParticipantSchema(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    kind = fields.String(required=True)
    level = fields.String(allow_none=True, required=True)
    external_id = fields.String(allow_none=True, required=True)


class TournamentSchema(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    game_type = fields.String(required=True)
    format = fields.String(required=True)
    status = fields.String(required=True, metadata={"description": "running or finished"})
    table_min = fields.Integer(required=True)
    table_max = fields.Integer(required=True)
    rounds_planned = fields.Integer(required=True)
    participants = fields.List(fields.Nested(TournamentParticipantSchema), required=True)
    rounds = fields.List(fields.Nested(RoundSchema), required=True)
    standings = fields.List(
        fields.Nested(StandingSchema),
        required=True,
        metadata={
            "description": "points k - rank at a table of k (ties share), then score sum, first places, opponents' "
            "points; players equal on all of these share a rank, in the participants' order"
        },
    )
    created_at = fields.String(required=True)
    finished_at = fields.String(allow_none=True, required=True)


class TournamentListQuerySchema(ma.Schema):
    # a client written before paging asked for every tournament: it still gets them all, up to a thousand
    limit = fields.Integer(load_default=1000, validate=validate.Range(1, 1000))
    cursor = fields.String(
        validate=Pattern(r"^t_[0-9a-f]{20}$"),
        metadata={
            "description": 'the `next_cursor` of the previous page (also in its `Link: <...>; rel="next"` header)'
        },
    )


class TournamentListSchema(ma.Schema):
    tournaments = fields.List(fields.Nested(TournamentSchema), required=True, metadata={"description": "newest first"})
    next_cursor = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "pass as `cursor` for the next page; null on the last page"},
    )


class LeaderboardQuerySchema(ma.Schema):
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 1000))


class LeaderboardRowSchema(ma.Schema):
    rank = fields.Integer(required=True)
    player = fields.String(
        required=True,
        metadata={
            "description": "<key id>/<external id> (for other callers than that key, <key id>/~<digest of the "
            "external id>: stable, but not the id), or bot:<level>"
        },
    )
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    ordinal = fields.Float(required=True, metadata={"description": "mu - 3 sigma; the sort key"})
    games = fields.Integer(required=True)


class LeaderboardSchema(ma.Schema):
    game_type = fields.String(required=True)
    games = fields.Integer(required=True, metadata={"description": "rated games counted"})
    rows = fields.List(fields.Nested(LeaderboardRowSchema), required=True)


def tournaments() -> Tournaments:
    return Tournaments(service())


class ReissuedTokensSchema(ma.Schema):
    tournament_id = fields.String(required=True)
    game_id = fields.String(required=True)
    seat_tokens = fields.List(fields.Nested(TournamentSeatTokenSchema), required=True)


def body_for(t: dict, issued: dict | None = None) -> dict:
    """A tournament as served; seat tokens only as just ``issued`` (never read back from storage)."""
    out = {**t, "standings": tournaments().standings(t)}
    out["rounds"] = [
        {
            **r,
            "tables": [
                {
                    **{k: v for k, v in table.items() if k != "seat_tokens"},
                    **({"seat_tokens": issued[table["game_id"]]} if issued and table["game_id"] in issued else {}),
                }
                for table in r["tables"]
            ],
        }
        for r in t["rounds"]
    ]
    return out


@blp.route("/tournaments")
class TournamentList(MethodView):
    @key_required
    @blp.arguments(CreateTournamentSchema())
    @blp.response(201, TournamentSchema())
    @errors(
        blp,
        "unauthorized",
        "unknown_game_type",
        "invalid_seats",
        "invalid_options",
        "too_many_bot_games",
        "bot_capacity",
    )
    @blp.doc(operationId="createTournament", security=KEY_AUTH)
    def post(self, body):
        """Create a tournament and its first round's games; the response lists each seat's token"""
        key = require_key()
        for p in body["participants"]:
            if ("bot_level" in p) == ("external_id" in p):
                raise ApiError(
                    "invalid_seats", "each participant is either a player (external_id) or a bot (bot_level)"
                )
        owner = bot_tables.owner_of(key.key_id, "")
        created, issued = tournaments().create(
            key.key_id, body, admit=lambda tables: bots.admit_tables(service(), owner, tables)
        )
        stored = tournaments().get(created["id"])
        assert stored is not None, "a tournament just created is there"
        return (
            body_for(stored, issued),
            201,
            {"Location": url_for("tournaments.Tournament", tournament_id=created["id"])},
        )

    @blp.arguments(TournamentListQuerySchema(), location="query")
    @blp.response(200, TournamentListSchema(), headers=NEXT_PAGE_LINK)
    @errors(blp, "unauthorized", "invalid_cursor")
    @blp.doc(operationId="listTournaments", security=KEY_AUTH)
    def get(self, query):
        """The API key's tournaments, newest first, a page at a time (cursor pagination)"""
        key = require_key()
        found, next_cursor = tournaments().list_for(key.key_id, query["limit"], query.get("cursor"))
        headers = next_page_link("tournaments.TournamentList", next_cursor) if next_cursor else {}
        return {"tournaments": [body_for(t) for t in found], "next_cursor": next_cursor}, 200, headers


@blp.route("/tournaments/<tournament_id:tournament_id>")
class Tournament(MethodView):
    @blp.response(200, TournamentSchema())
    @errors(blp, "unauthorized", "not_found")
    @blp.doc(operationId="getTournament", security=[{"apiKey": []}, {}])
    def get(self, tournament_id):
        """A tournament with its rounds and standings (never seat tokens: see .../seat-tokens)

        Human participants are named by their `external_id` only to the API key that created the tournament;
        every other caller sees a stand-in (`~p<n>`, n their place in the participants' list) in the
        participants, tables, byes and standings, and `external_id` null.
        """
        t = tournaments().get(tournament_id)
        if t is None:
            raise ApiError("not_found", f"no tournament {tournament_id!r}")
        key = integrator_key()
        if key is not None and key.key_id == t["key_id"]:
            return body_for(t)
        return public_view(body_for(t))  # external ids only to the key that set them (docs/limits.md)


@blp.route("/tournaments/<tournament_id:tournament_id>/tables/<game_id:game_id>/seat-tokens")
class TableSeatTokens(MethodView):
    @key_required
    @blp.response(200, ReissuedTokensSchema())
    @errors(blp, "unauthorized", "forbidden", "not_found", "unknown_game")
    @blp.doc(operationId="reissueSeatTokens", security=KEY_AUTH)
    def post(self, tournament_id, game_id):
        """Issue new seat tokens for the human seats of one table; the old tokens stop working

        The server keeps only hashes of seat tokens, so this is how the creating integrator gets the
        tokens of a later round's games (or replaces lost or leaked ones). Shown once.
        """
        key = require_key()
        t = tournaments().get(tournament_id)
        if t is None:
            raise ApiError("not_found", f"no tournament {tournament_id!r}")
        if t["key_id"] != key.key_id:
            raise ApiError("forbidden", "only the integrator that created the tournament may issue its seat tokens")
        tokens = tournaments().reissue_tokens(t, game_id)
        return {"tournament_id": tournament_id, "game_id": game_id, "seat_tokens": tokens}


@blp.route("/leaderboards/<game_type:game_type>")
class Leaderboard(MethodView):
    @blp.arguments(LeaderboardQuerySchema(), location="query")
    @blp.response(200, LeaderboardSchema())
    @errors(blp, "unauthorized", "unknown_game_type")
    @blp.doc(operationId="getLeaderboard", security=[{"apiKey": []}, {}])
    def get(self, query, game_type):
        """Ratings of one game type from every finished rated game (openskill Plackett-Luce)"""
        if game_type not in registry.names():
            raise ApiError("unknown_game_type", f"unknown game type {game_type!r}")
        games, rated = ratings.current_ratings(service().documents, game_type)
        rows = ratings.leaderboard(rated, query["limit"])
        return {
            "game_type": game_type,
            "games": games,
            "rows": [
                {"rank": i + 1, **row.to_dict(), "player": shown_player(row.player)} for i, row in enumerate(rows)
            ],
        }


LEADERBOARD_STAND_IN = b"tradewinds leaderboard player\x00"  # keeps these digests apart from other uses of the key


def shown_player(player: str) -> str:
    """A leaderboard's player id as this caller may see it: an external id only to the key that set it; to
    others a digest keyed by the server's key (a plain hash of a guessable id, an e-mail address, could be
    reversed by hashing guesses)."""
    site, slash, rest = player.partition("/")
    if not slash:
        return player  # bot:<level>, guest:<name>
    key = integrator_key()
    if key is not None and key.key_id == site:
        return player
    digest = service().key.mac(LEADERBOARD_STAND_IN + player.encode("utf-8"))
    return f"{site}/~{digest[:16]}"
