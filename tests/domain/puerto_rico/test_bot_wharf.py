"""The bots use a wharf they hold (§4.6, D10, D42): `ship_with_wharf` is in no ladder record because the bots
seldom build a wharf (docs/bots.md, "Known gaps"), not because they pass it by once they have one."""

from __future__ import annotations

import pytest

from domain import registry
from domain.bots.levels import make_bot
from tests.domain.puerto_rico.helpers import legal
from tests.domain.puerto_rico.test_captain import only_a_wharf_option, wharf

RULES = registry.get("puerto_rico")


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_a_bot_ships_by_its_wharf_the_goods_no_cargo_ship_takes(level):
    """Seat 1's sugar fits no cargo ship (the sugar ship is full): the wharf ships it for VP, where a pass would
    leave it to the storage step, which keeps one barrel."""
    s = only_a_wharf_option()
    assert s.current == 1 and legal(s) == [wharf("sugar"), {"type": "pass"}]
    assert make_bot(level, 1).choose(RULES, s, 1) == wharf("sugar")
