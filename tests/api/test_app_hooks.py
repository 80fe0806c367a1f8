"""The app's ``ensure_sync`` answers from a cache, with Flask's own answers."""

from __future__ import annotations

import pytest

from api.app import App


def plain():
    return "plain"


async def coroutine():
    return "coroutine"


class View:
    def get(self):
        return "method"


def test_plain_functions_and_bound_methods_run_as_they_are():
    app = App("t")
    assert app.ensure_sync(plain) is plain
    assert app.ensure_sync(plain) is plain  # the cached answer
    first, second = View(), View()
    assert app.ensure_sync(first.get)() == "method"
    assert app.ensure_sync(second.get)() == "method"
    assert len(app._is_async) == 2  # plain and View.get: one entry per function, not per instance


def test_a_coroutine_function_is_still_sent_to_async_to_sync():
    app = App("t")
    sent = []
    app.async_to_sync = lambda func: sent.append(func) or (lambda: "wrapped")  # type: ignore[method-assign]
    assert app.ensure_sync(coroutine)() == "wrapped"
    assert app.ensure_sync(coroutine)() == "wrapped"  # the cached answer says async too
    assert sent == [coroutine, coroutine]


def test_functions_made_per_request_do_not_grow_the_cache_without_bound():
    app = App("t")

    def make():
        def callback():
            return "once"

        return callback

    for _ in range(3 * App.ENSURE_SYNC_CACHE):
        callback = make()
        assert app.ensure_sync(callback) is callback
    assert 0 < len(app._is_async) <= App.ENSURE_SYNC_CACHE


@pytest.mark.parametrize("path", ["/livez", "/game-types"])
def test_the_served_app_uses_it(client, path):
    assert isinstance(client.application, App)
    assert client.get(path).status_code == 200
