"""``reveals`` names every event that shows a seat what it could not know before: a batch of commands must end at
such an event (``GameService`` refuses commands after it), and undo must not let a seat peek and take back.

Checked the way a cheat would find a gap: at each position of random games, the acting seat's command is decided
in the real world and in worlds the seat cannot tell from it (``determinize``, with other dice). Where what the
seat is told differs between them, the command showed it something hidden, so one of its events must reveal."""

from __future__ import annotations

import random

import pytest

from domain import registry
from domain.game import IllegalCommand
from domain.rng import rng_for

GAMES = [("puerto_rico", 3), ("murano", 3), ("amerigo", 3), ("archipelago", 3)]
STEPS = 400  # per game: the opening, where most draws and shuffles happen, and well into the play
WORLDS = 3


def told(rules, events, seat):
    return [rules.redact(event, seat) for event in events]


@pytest.mark.parametrize(("game_type", "players"), GAMES, ids=[g for g, _ in GAMES])
def test_what_a_command_shows_of_hidden_things_is_marked_as_revealed(game_type, players):
    rules = registry.get(game_type)
    rng = random.Random(11)
    checked = revealing = 0
    for _game in range(2):
        seed = rng.getrandbits(63)
        state = rules.fold(rules.setup(seed, players, rules.validate_options({}, players)))
        for step in range(STEPS):
            if rules.is_over(state):
                break
            seat = rng.choice(sorted(rules.to_act(state)))
            command = rng.choice(rules.legal_commands(state, seat))
            events = rules.decide(state, command, seat, rng_for(seed, step))
            if any(rules.reveals(event) for event in events):
                revealing += 1
            else:
                for world in range(WORLDS):
                    other = rules.determinize(state, seat, random.Random(step * 31 + world))
                    try:
                        elsewhere = rules.decide(other, command, seat, rng_for(seed + 1 + world, step))
                    except IllegalCommand as exc:  # legal here, refused in a world the seat cannot tell apart
                        pytest.fail(f"{game_type} step {step}: {command} depends on hidden things: {exc.message}")
                    assert told(rules, elsewhere, seat) == told(rules, events, seat), (
                        f"{game_type} step {step}: {command} shows seat {seat} something hidden, and none of "
                        f"{[e['type'] for e in events]} reveals"
                    )
                checked += 1
            state = rules.fold(events, state)
    assert checked > 100 and revealing > 0, (checked, revealing)
