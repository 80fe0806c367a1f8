"""Service-level endpoints: health, the catalogue of game types, and the pages of the problem codes."""

from __future__ import annotations

import html

import marshmallow as ma
from flask import Response, request
from flask.views import MethodView
from marshmallow import fields

from api.blueprint import Blueprint
from api.common import runtime
from api.contract import errors
from api.contract_schemas import GameTypeDetailSchema
from api.errors import CODES, ApiError
from api.game_contract import camel, command_component
from api.schemas import GameTypeSchema, HealthSchema, SigningKeySchema
from domain import registry

blp = Blueprint("meta", __name__, description="Service health and the games it hosts")


@blp.route("/health")
class Health(MethodView):
    @blp.response(200, HealthSchema())
    @blp.alt_response(503, schema=HealthSchema, description="a backing service is unreachable")
    @errors(blp)
    def get(self):
        """Report whether the event store and the job queue are reachable"""
        rt = runtime()
        store, queue = "ok", "ok"
        try:
            rt.store.ping()
        except Exception as exc:
            store = f"unreachable: {exc}".splitlines()[0]
        try:
            rt.dispatcher.ping()
        except Exception as exc:
            queue = f"unreachable: {exc}".splitlines()[0]
        healthy = store == "ok" and queue == "ok"
        body = {
            "status": "ok" if healthy else "degraded",
            "store": store,
            "store_backend": rt.database_url.split(":", 1)[0],
            "queue": queue,
            "queue_backend": rt.dispatcher.kind,
        }
        return body, 200 if healthy else 503


@blp.route("/game-types")
class GameTypes(MethodView):
    @blp.response(200, GameTypeSchema(many=True))
    @errors(blp)
    def get(self):
        """List the game types with their player counts, options and bot levels"""
        from domain.bots import LEVELS

        return [{**rules.describe(), "bot_levels": list(LEVELS)} for rules in registry.all_rules()]


@blp.route("/signing-key")
class SigningKey(MethodView):
    @blp.response(200, SigningKeySchema())
    @errors(blp)
    def get(self):
        """The public key this server signs game chains with (Ed25519): check exports against it

        Every stored game's chain head is signed with the matching private key, which is kept outside
        the database. An export carries the head's signature; `tradewinds verify --public-key KEY FILE`
        or any Ed25519 implementation can check it offline.
        """
        return runtime().key.describe()


@blp.route("/game-types/<game_type:name>")
class GameTypeDetail(MethodView):
    @blp.response(200, GameTypeDetailSchema())
    @errors(blp, "unknown_game_type")
    @blp.doc(operationId="getGameType")
    def get(self, name):
        """Everything static a client needs to draw and explain a game: components, board, codes, commands"""
        from domain.bots import LEVELS

        if name not in registry.names():
            raise ApiError("unknown_game_type", f"no game type {name!r}; see GET /game-types")
        rules = registry.get(name)
        commands = rules.command_schemas()
        return {
            **rules.describe(),
            "bot_levels": list(LEVELS),
            "catalogue": rules.catalogue(),
            "commands": commands,
            "command_schema": command_component(name) if commands else None,
            "view_schema": f"{camel(name)}View" if rules.view_schema() else None,
        }


class ProblemTypeSchema(ma.Schema):
    code = fields.String(required=True, metadata={"description": "the stable machine-readable code"})
    status = fields.Integer(required=True, metadata={"description": "the HTTP status it comes with"})
    title = fields.String(required=True)
    explanation = fields.String(required=True, metadata={"description": "what it means and what to do"})


PROBLEM_TYPE = ProblemTypeSchema()
PROBLEM_TYPES = ProblemTypeSchema(many=True)
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title} ({code})</title></head>
<body><h1>{title}</h1><p>HTTP {status}, problem code <code>{code}</code>.</p><p>{explanation}</p>
<p><a href="/problems">Every problem code</a></p></body></html>
"""


def problem_type(code: str) -> dict:
    entry = CODES[code]
    return {"code": code, "status": entry.status, "title": entry.title, "explanation": entry.explanation}


@blp.route("/problems")
class ProblemTypes(MethodView):
    @blp.response(200, PROBLEM_TYPES)
    @errors(blp)
    @blp.doc(operationId="listProblemTypes")
    def get(self):
        """Every problem code the API returns, with its HTTP status and what it means"""
        return [problem_type(code) for code in CODES]


@blp.route("/problems/<problem_code:code>")
class ProblemPage(MethodView):
    @blp.response(200, PROBLEM_TYPE, content_type="application/json")
    @blp.alt_response(
        200,
        success=True,
        content_type="text/html",
        description="the code explained: JSON, or an HTML page when the Accept header prefers text/html",
        schema={"type": "string"},
    )
    @errors(blp, "not_found")
    @blp.doc(operationId="getProblemType")
    def get(self, code):
        """What one problem code means: the page a problem's `type` URI points to"""
        if code not in CODES:
            raise ApiError("not_found", f"no problem code {code!r}; GET /problems lists them")
        body = problem_type(code)
        if request.accept_mimetypes.best_match(["application/json", "text/html"]) == "text/html":
            page = PAGE.format(**{k: html.escape(str(v)) for k, v in body.items()})
            return Response(page, mimetype="text/html")
        return body
