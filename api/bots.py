"""The API's side of the limits on bot work (``workers.bot_tables``): admitting new bot tables, and noting
every look at a game so that an idle table pauses and a paused one resumes."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask, current_app, request

from api.errors import ApiError
from workers import bot_tables
from workers.game_model import GameError
from workers.games import GameService

log = logging.getLogger(__name__)

LOOKS = bot_tables.Looks()  # per process


def caps() -> bot_tables.BotCaps:
    return current_app.config["BOT_CAPS"]


def admit(svc: GameService, seats: list[dict[str, Any]], owner: str, hands_over: bool = False) -> None:
    with _refused():
        bot_tables.admit(svc.documents, svc.status_of, seats, owner, caps(), hands_over)


def admit_tables(svc: GameService, owner: str, tables: int) -> None:
    """``tables`` more bot tables at once (a tournament's round) for this owner, or ``ApiError``."""
    with _refused():
        bot_tables.within_caps(svc.documents, svc.status_of, owner, caps(), tables)


@contextmanager
def _refused() -> Iterator[None]:
    """A refusal of the caps as the API's error, with its ``Retry-After``."""
    try:
        yield
    except GameError as exc:
        wait = exc.extra.get("retry_after")
        headers = {"Retry-After": str(wait)} if wait else None
        raise ApiError(exc.code, exc.detail, headers=headers) from None


def looked(svc: GameService, game_id: str) -> None:
    """Somebody looked at this game (a request on it, or a live follower still there)."""

    def resume(gid: str) -> None:
        game = svc.load(gid)
        if game.bot_seats_to_act():
            svc.schedule_bot_turn(game)

    try:
        LOOKS.look(svc.documents, game_id, resume)
    except Exception:  # a look never fails the request that made it
        log.warning("could not note a look at game %s", game_id, exc_info=True)


def install(app: Flask) -> None:
    app.config.setdefault("BOT_CAPS", bot_tables.BotCaps.from_environment())

    @app.before_request
    def note_look():
        game_id = (request.view_args or {}).get("game_id")
        # a CORS preflight (OPTIONS, never rate limited: api/ratelimit.py) reads nothing of the game: no look
        if isinstance(game_id, str) and request.method != "OPTIONS":
            looked(app.extensions["tradewinds"].service, game_id)
