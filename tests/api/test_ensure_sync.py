"""The app keeps whether a function is a coroutine function (``TradewindsFlask.ensure_sync``): the answers are
Flask's own, for plain functions, a view's bound methods, coroutine functions and other callables."""

from __future__ import annotations

import functools

import pytest
from flask import Flask


class View:
    def get(self):
        return "plain"

    async def post(self):
        return "async"


def plain():
    return "plain"


async def coroutine():
    return "async"


def test_plain_functions_and_methods_are_served_as_they_are(app):
    assert app.ensure_sync(plain) is plain
    method = View().get
    assert app.ensure_sync(method) is method
    assert app.ensure_sync(plain) is plain  # asked again: the kept answer


def test_coroutine_functions_are_made_synchronous_as_flask_makes_them(app, monkeypatch):
    made = []
    monkeypatch.setattr(type(app), "async_to_sync", lambda self, func: made.append(func) or "wrapped")
    assert app.ensure_sync(coroutine) == "wrapped"
    assert app.ensure_sync(coroutine) == "wrapped"  # the kept answer
    method = View().post
    assert app.ensure_sync(method) == "wrapped"
    assert made == [coroutine, coroutine, method]


@pytest.mark.parametrize("func", [functools.partial(plain), len])
def test_other_callables_get_flasks_answer(app, func):
    assert app.ensure_sync(func) is Flask.ensure_sync(app, func) is func


def test_a_partial_coroutine_function_is_made_synchronous(app, monkeypatch):
    monkeypatch.setattr(type(app), "async_to_sync", lambda self, func: "wrapped")
    assert app.ensure_sync(functools.partial(coroutine)) == "wrapped"


def test_one_off_functions_beyond_the_kept_number_are_answered_but_not_kept(app, monkeypatch):
    from api import app as app_module

    monkeypatch.setattr(app_module, "KEPT_FUNCTIONS", len(app._coroutine) + 1)

    def first():
        return 1

    def second():
        return 2

    assert app.ensure_sync(first) is first and app.ensure_sync(second) is second
    assert first in app._coroutine and second not in app._coroutine
