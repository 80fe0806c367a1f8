"""Every event type a game's fold knows has its own sentence in the game's board module (api/web/games/),
so no event of a real game reaches a player as the generic "type (field value; ...)" fallback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain.amerigo import evolve as amerigo_evolve
from domain.archipelago import evolve as _archipelago_handlers  # noqa: F401  # registers the fold handlers
from domain.archipelago.fold import _H as archipelago_fold
from domain.murano import evolve as murano_evolve
from domain.puerto_rico import evolve as puerto_rico_evolve
from workers import facts

WEB = Path(__file__).resolve().parents[2] / "api" / "web" / "games"

FOLDS = {
    "puerto_rico": set(puerto_rico_evolve.HANDLERS),
    "murano": set(murano_evolve._HANDLERS),
    "amerigo": set(amerigo_evolve._HANDLERS),
    "archipelago": set(archipelago_fold),
}


def _cases(game: str) -> set[str]:
    source = (WEB / f"{game}.js").read_text(encoding="utf-8")
    body = source[source.index("export function sentence") :]
    return set(re.findall(r"case '([A-Za-z0-9]+)':", body))


@pytest.mark.parametrize("game", sorted(FOLDS))
def test_every_event_type_has_a_sentence(game):
    assert FOLDS[game], "the fold registry was found"
    assert sorted(FOLDS[game] - _cases(game)) == []


def test_every_platform_fact_has_a_sentence_shared_by_all_games():
    source = (WEB.parent / "events.js").read_text(encoding="utf-8")
    table = source[source.index("export const PLATFORM_SENTENCES") :]
    table = table[: table.index("\n};")]
    named = set(re.findall(r"'(platform\.[A-Za-z]+)'", table))
    kinds = {value for value in vars(facts).values() if isinstance(value, str) and value.startswith(facts.PREFIX)}
    assert kinds - {facts.PREFIX}, "the platform event types were found"
    assert sorted(kinds - {facts.PREFIX} - named) == []
