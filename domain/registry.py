"""Maps game-type names to their rules objects."""

from __future__ import annotations

import importlib

from domain.game import Rules

# name -> module path that exposes ``RULES``; imported lazily so one broken game cannot break others.
GAME_MODULES: dict[str, str] = {
    "amerigo": "domain.amerigo",
    "archipelago": "domain.archipelago",
    "murano": "domain.murano",
    "puerto_rico": "domain.puerto_rico",
}

_extra: dict[str, Rules] = {}
_loaded: dict[str, Rules] = {}  # the built-in games imported so far (every request asks for its game's rules)


class UnknownGameType(KeyError):
    pass


def register(rules: Rules) -> None:
    """Register a rules object at run time (used by tests for test-only games)."""
    _extra[rules.name] = rules


def unregister(name: str) -> None:
    _extra.pop(name, None)


def get(name: str) -> Rules:
    if name in _extra:
        return _extra[name]
    rules = _loaded.get(name)
    if rules is None:
        if name not in GAME_MODULES:
            raise UnknownGameType(name)
        rules = _loaded[name] = importlib.import_module(GAME_MODULES[name]).RULES
    return rules


def names() -> list[str]:
    return sorted(set(GAME_MODULES) | set(_extra))


def all_rules() -> list[Rules]:
    return [get(name) for name in names()]
