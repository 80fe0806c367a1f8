"""Service-level endpoints: health and the catalogue of game types."""

from __future__ import annotations

from flask.views import MethodView

from api.app import Blueprint
from api.common import errors, runtime
from api.contract import camel, command_component
from api.contract_schemas import GameTypeDetailSchema
from api.errors import ApiError
from api.schemas import GameTypeSchema, HealthSchema, SigningKeySchema
from domain import registry

blp = Blueprint("meta", __name__, description="Service health and the games it hosts")


@blp.route("/health")
class Health(MethodView):
    @blp.response(200, HealthSchema)
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
    @blp.response(200, SigningKeySchema)
    @errors(blp)
    def get(self):
        """The public key this server signs game chains with (Ed25519): check exports against it

        Every stored game's chain head is signed with the matching private key, which is kept outside
        the database. An export carries the head's signature; `tradewinds verify --public-key KEY FILE`
        or any Ed25519 implementation can check it offline.
        """
        return runtime().key.describe()


@blp.route("/game-types/<string:name>")
class GameTypeDetail(MethodView):
    @blp.response(200, GameTypeDetailSchema)
    @errors(blp, 404)
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
