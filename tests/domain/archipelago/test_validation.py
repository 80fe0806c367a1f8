"""One validation pass per command: bad player input is refused with a clear error, our own bugs surface."""

from __future__ import annotations

import pytest

from domain.archipelago import RULES
from domain.archipelago import decide as decide_module
from domain.archipelago.state import clone
from tests.domain.archipelago.fixtures import action_state, do, refused


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ({"type": "trade", "market": "DOM", "op": "BUY", "resource": 7}, "field 'resource' must be a string"),
        ({"type": "trade", "market": "MOON", "op": "BUY", "resource": "FISH"}, "field 'market' must be one of"),
        ({"type": "harvest", "resource": "FISH", "with": "C05"}, "field 'with' must be a list"),
        ({"type": "harvest", "resource": "FISH", "with": [["C05"]]}, "with: unknown card"),
        (
            {"type": "build", "building": "TOWN", "tile": "<tile>", "builder": "<unit>", "tokens": [1]},
            "'tokens' must be",
        ),
        ({"type": "use_card", "card": {"id": "C03"}}, "field 'card' must be a string"),
        ({"type": "offer_open", "to": "1"}, "field 'to' must be an integer"),
        ({"type": "offer_open", "to": True}, "field 'to' must be an integer"),
        ({"type": 3}, "unknown command type 3"),
        ({"type": "fly"}, "unknown command type 'fly'"),
    ],
)
def test_malformed_fields_are_refused_as_invalid_commands(command, message):
    st = action_state(3)
    if command.get("builder") == "<unit>":  # a real unit of the seat and its tile, so the tokens are read
        unit = next(u for u, x in sorted(st.units.items()) if x["owner"] == st.turn["seat"])
        command = {**command, "builder": unit, "tile": st.units[unit]["tile"]}
    text = refused(st, command, code="invalid_command").message
    assert message in text


def test_a_command_that_is_not_an_object_is_refused():
    st = action_state(3)
    for command in (["trade"], "pass", None, 7):
        assert "must be a JSON object" in refused(st, command, code="invalid_command").message  # type: ignore[arg-type]


def test_our_own_bug_in_a_handler_surfaces_instead_of_becoming_a_refusal(monkeypatch):
    """A KeyError or TypeError raised by the rules is a bug of ours, not the player's: it must not be turned into
    ``invalid_command`` (the API then answers 500 and the bug gets seen)."""
    st = action_state(3)

    def broken(st, seat, cmd, ctx):
        return {}["missing"]

    monkeypatch.setitem(decide_module.HANDLERS, "pass", broken)
    with pytest.raises(KeyError):
        RULES.decide(st, {"type": "pass"}, st.turn["seat"], None)

    def confused(st, seat, cmd, ctx):
        return len(None)

    monkeypatch.setitem(decide_module.HANDLERS, "pass", confused)
    with pytest.raises(TypeError):
        RULES.decide(st, {"type": "pass"}, st.turn["seat"], None)


def test_each_handler_runs_once_per_command(monkeypatch):
    st = action_state(3)
    calls = []
    original = decide_module.HANDLERS["pass"]

    def counted(st, seat, cmd, ctx):
        calls.append(ctx is not None)
        return original(st, seat, cmd, ctx)

    monkeypatch.setitem(decide_module.HANDLERS, "pass", counted)
    before = clone(st)
    after, events = do(st, {"type": "pass"})
    assert calls == [True] and events and events[0]["type"] == "TurnEnded"
    assert st == before, "decide left its input as it was"
    calls.clear()
    mine = RULES.copy_state(st)
    assert RULES.play(mine, {"type": "pass"}, st.turn["seat"], None) == events
    assert calls == [True] and mine == after
