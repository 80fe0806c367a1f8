"""Undo, the game's history of truncations, replays, audits, exports and their verification."""

from __future__ import annotations

from flask import Response, request
from flask.views import MethodView

from api import bots
from api.blueprint import Blueprint
from api.common import caller_for, runtime, seat_only, service
from api.contract import errors
from api.errors import ApiError
from api.schemas import (
    AuditSchema,
    HistorySchema,
    ReplayQuerySchema,
    ReplaySchema,
    UndoBodySchema,
    UndoResultSchema,
    VerifyBodySchema,
    VerifyReportSchema,
)
from workers.history import VERIFY_MAX_EVENTS, History, verify_export

blp = Blueprint("history", __name__, description="Undo, replays, audits and verifiable exports")

NDJSON = "application/x-ndjson"

AUDIT_SCHEMA = AuditSchema()
HISTORY_SCHEMA = HistorySchema()
REPLAY_QUERY_SCHEMA = ReplayQuerySchema()
REPLAY_SCHEMA = ReplaySchema()
UNDO_BODY_SCHEMA = UndoBodySchema()
UNDO_RESULT_SCHEMA = UndoResultSchema()
VERIFY_BODY_SCHEMA = VerifyBodySchema()
VERIFY_REPORT_SCHEMA = VerifyReportSchema()


def history() -> History:
    return History(service())


def require_seat(game_id: str) -> int:
    """The caller's seat in an undo vote (``seat_only``: 403 for an API key, 401 without a seat token)."""
    return seat_only(caller_for(service().info(game_id)), "an undo request is answered by a seat")


@blp.route("/games/<game_id:game_id>/undo")
class Undo(MethodView):
    @blp.arguments(UNDO_BODY_SCHEMA)
    @blp.response(200, UNDO_RESULT_SCHEMA)
    @errors(
        blp,
        "unauthorized",
        "unknown_game",
        "forbidden",
        "game_over",
        "invalid_undo",
        "stale_version",
        "busy",
        "too_many_bot_games",
        "bot_capacity",
    )
    @blp.doc(operationId="undo", security=[{"seatToken": []}, {"apiKey": []}])
    def post(self, body, game_id):
        """Take moves back to `to_version`: at once when the policy allows, else as a request to the other seats

        A seat may take back its own latest moves while nobody else has acted and nothing random or hidden
        was revealed since; beyond that the other human seats must accept. The integrator that created the
        game (its API key) may truncate anywhere.
        """
        caller = caller_for(service().info(game_id))
        if caller.seat is None and caller.integrator is None:
            raise ApiError("unauthorized", "undo needs a seat token or the creating integrator's API key")
        svc = service()
        return history().undo(
            game_id,
            body["to_version"],
            caller.seat,
            caller.integrator,
            body["reason"],
            admit=lambda owner: bots.admit_tables(svc, owner, 1),  # an ended bot table back in play counts again
        )


@blp.route("/games/<game_id:game_id>/undo/accept")
class UndoAccept(MethodView):
    @blp.response(200, UNDO_RESULT_SCHEMA)
    @errors(blp, "unauthorized", "unknown_game", "forbidden", "no_undo_request", "stale_version", "game_over")
    @blp.doc(operationId="acceptUndo", security=[{"seatToken": []}])
    def post(self, game_id):
        """Agree to the open undo request; the last agreement performs it"""
        return history().answer(game_id, require_seat(game_id), accept=True)


@blp.route("/games/<game_id:game_id>/undo/decline")
class UndoDecline(MethodView):
    @blp.response(200, UNDO_RESULT_SCHEMA)
    @errors(blp, "unauthorized", "unknown_game", "forbidden", "no_undo_request", "stale_version", "game_over")
    @blp.doc(operationId="declineUndo", security=[{"seatToken": []}])
    def post(self, game_id):
        """Refuse the open undo request; it closes"""
        return history().answer(game_id, require_seat(game_id), accept=False)


@blp.route("/games/<game_id:game_id>/history")
class GameHistory(MethodView):
    @blp.response(200, HISTORY_SCHEMA)
    @errors(blp, "unauthorized", "unknown_game")
    @blp.doc(operationId="getHistory", security=[{"seatToken": []}, {}])
    def get(self, game_id):
        """Every truncation of the game with who, when, why and the events it archived (redacted)"""
        seat = caller_for(service().info(game_id)).seat
        return {"game_id": game_id, "truncations": history().truncations(game_id, seat)}


@blp.route("/games/<game_id:game_id>/audit")
class Audit(MethodView):
    @blp.response(200, AUDIT_SCHEMA)
    @errors(blp, "unknown_game")
    @blp.doc(operationId="auditGame")
    def get(self, game_id):
        """Re-verify the stored hash chain and the server's signature of its head; names the first broken version"""
        return history().audit(game_id)


@blp.route("/games/<game_id:game_id>/replay")
class Replay(MethodView):
    @blp.arguments(REPLAY_QUERY_SCHEMA, location="query")
    @blp.response(200, REPLAY_SCHEMA)
    @errors(blp, "unauthorized", "unknown_game", "busy")
    @blp.doc(operationId="getReplay", security=[{"seatToken": []}, {}])
    def get(self, query, game_id):
        """The log step by step with the acting seat and the state after each event (public once over)"""
        seat = caller_for(service().info(game_id)).seat
        return history().replay(game_id, seat, query["after"], query["limit"])


@blp.route("/games/<game_id:game_id>/export")
class Export(MethodView):
    @blp.doc(
        operationId="exportGame",
        responses={
            200: {
                "description": "JSON Lines: a header line (game type, options, seed, seats, result), then every "
                "event with its hash. Check it with `tradewinds verify FILE` or POST /verify. Served as "
                "`application/x-ndjson` unless the Accept header prefers `text/plain` (the same text).",
                "content": {NDJSON: {"schema": {"type": "string"}}, "text/plain": {"schema": {"type": "string"}}},
            }
        },
    )
    @errors(blp, "unknown_game", "game_not_over")
    def get(self, game_id):
        """Export a game that is over (finished, aborted or abandoned) as a self-contained, verifiable JSON Lines file"""
        lines = history().export_lines(game_id)
        mimetype = request.accept_mimetypes.best_match([NDJSON, "text/plain"], default=NDJSON)
        return Response(
            "\n".join(lines) + "\n",
            mimetype=mimetype,
            headers={"Content-Disposition": f'attachment; filename="{game_id}.jsonl"'},
        )


@blp.route("/verify")
class Verify(MethodView):
    @blp.arguments(VERIFY_BODY_SCHEMA)
    @blp.response(200, VERIFY_REPORT_SCHEMA)
    @errors(blp)
    @blp.doc(operationId="verifyExport")
    def post(self, body):
        """Verify an export: hash chain, this server's signature of its head, set-up and result re-folded

        The chain is recomputed from the stream as created (seats, options, seed); its head must carry a
        valid signature by this server's key (GET /signing-key), so a log edited and re-hashed fails.
        """
        lines = body["export"].splitlines()
        if len(lines) > VERIFY_MAX_EVENTS + 1:
            raise ApiError(
                "payload_too_large",
                f"an export of {len(lines) - 1} event lines: this server verifies at most {VERIFY_MAX_EVENTS} (more"
                " than any game stores); `tradewinds verify FILE` checks any length",
            )
        return verify_export(lines, runtime().key.trusted_keys)
