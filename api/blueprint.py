"""The blueprint class every endpoint module uses, with the project's request parser: 400 for a request that
does not match its schema (unknown query parameters included), and JSON bodies checked for depth and size."""

from __future__ import annotations

import flask_smorest
import marshmallow as ma
from webargs.flaskparser import FlaskParser

from api.conventions import check_json
from api.errors import ApiError


class Parser(FlaskParser):
    DEFAULT_VALIDATION_STATUS = 400
    # a query parameter the operation does not take is a mistake worth a 400, not something to ignore
    DEFAULT_UNKNOWN_BY_LOCATION = {**FlaskParser.DEFAULT_UNKNOWN_BY_LOCATION, "query": ma.RAISE}

    def load_json(self, req, schema):
        try:
            data = super().load_json(req, schema)
        except RecursionError:
            raise ApiError("invalid_request", "JSON nested too deeply") from None
        except ValueError as exc:  # not a JSONDecodeError: an integer of thousands of digits
            raise ApiError("invalid_request", f"the body is not acceptable JSON: {exc}") from None
        check_json(data)
        return data


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = Parser()
