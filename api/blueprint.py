"""The blueprint class every endpoint module uses, with the project's request parser: 400 for a request that
does not match its schema (unknown query parameters included), and JSON bodies checked for depth and size.

Its ``doc`` and ``alt_response`` (and so ``api.contract.errors``) only document: they give a copy of the view the
documentation instead of wrapping the view in a function that passes every call through (flask-smorest's do, which
costs every request a call, a ``current_app`` lookup and an ``ensure_sync`` per decorator)."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from types import FunctionType
from typing import Any

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
        except ValueError:  # not a JSONDecodeError (that is webargs' 400): an integer of thousands of digits
            raise ApiError(
                "invalid_request", f"the body holds an integer longer than {sys.get_int_max_str_digits()} digits"
            ) from None
        check_json(data)
        return data


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = Parser()

    @staticmethod
    def doc(**kwargs: Any):
        return documenting(flask_smorest.Blueprint.doc(**kwargs))

    def alt_response(self, *args: Any, **kwargs: Any):
        return documenting(super().alt_response(*args, **kwargs))


def documenting(decorate: Callable[[Callable[..., Any]], Callable[..., Any]]):
    """A flask-smorest decorator that only documents (its wrapper passes calls through), applied as
    documentation alone: a copy of the view (the same code, a function object of its own, as the wrapper was)
    carries the wrapper's ``_apidoc``, and calls go straight to the code."""

    def decorator(func: Callable[..., Any]) -> Callable[..., Any]:
        wrapper = decorate(func)
        if type(func) is not FunctionType:
            return wrapper
        copy: Any = FunctionType(func.__code__, func.__globals__, func.__name__, func.__defaults__, func.__closure__)
        copy.__kwdefaults__ = func.__kwdefaults__
        functools.update_wrapper(copy, func)
        del copy.__wrapped__  # the copy is the view itself, not a wrapper of it
        copy._apidoc = wrapper._apidoc  # type: ignore[attr-defined]  # the wrapper: a plain callable to mypy
        return copy

    return decorator
