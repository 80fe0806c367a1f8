"""Snapshots are data: a state written as tagged JSON reads back equal to the fold, for every game type.

Given random games of each type, when the state at assorted versions is written as a snapshot body
(JSON text) and read back, then it equals the fold of the events, encodes to the same JSON again, and
folding the rest of the log onto it ends on the same state as folding the whole log.
"""

from __future__ import annotations

import json
import os
import random

import pytest

from domain import registry
from domain.rng import rng_for
from eventstore.base import canonical_json
from tests.support.secret_game import RULES as SECRET
from workers.snapshots import SnapshotError, StateCodec, codec_for

GAMES = int(os.environ.get("TRADEWINDS_SNAPSHOT_CODEC_GAMES", "2"))
SEATS = {"puerto_rico": (3, 5), "murano": (2, 4), "amerigo": (2, 4), "archipelago": (2, 4), "secret_numbers": (1, 4)}


def random_log(rules, seed: int) -> list[dict]:
    chooser = random.Random(seed)
    seats = chooser.randint(*SEATS[rules.name])
    events = list(rules.setup(seed, seats, rules.validate_options(None, seats)))
    state = rules.fold(events)
    for _ in range(chooser.choice([60, 400, 5000])):
        if rules.is_over(state):
            break
        seat = chooser.choice(sorted(rules.to_act(state)))
        new = rules.decide(state, chooser.choice(rules.legal_commands(state, seat)), seat, rng_for(seed, len(events)))
        for event in new:
            state = rules.evolve(state, event)
        events.extend(new)
    return events


@pytest.mark.parametrize("game_type", sorted(SEATS))
@pytest.mark.parametrize("seed", range(GAMES))
def test_a_state_read_back_from_its_snapshot_equals_the_fold(game_type, seed):
    rules = SECRET if game_type == "secret_numbers" else registry.get(game_type)
    codec = codec_for(rules)
    events = random_log(rules, seed * 7919 + 1)
    final = rules.fold(events)
    chooser = random.Random(seed)
    for version in sorted({1, len(events), *chooser.sample(range(1, len(events) + 1), min(8, len(events)))}):
        state = rules.fold(events[:version])
        text = canonical_json(codec.encode(state))
        back = codec.decode(json.loads(text))
        assert back == state, (game_type, version)
        assert canonical_json(codec.encode(back)) == text
        assert rules.fold(events[version:], back) == final


def test_only_classes_of_the_games_own_modules_are_rebuilt():
    codec = codec_for(registry.get("puerto_rico"))
    for hostile in (
        {"o": "os:system", "v": {}},
        {"r": "os:system", "a": ["touch /tmp/pwned"]},
        {"r": "builtins:eval", "a": ["1"]},
        {"o": "domain.archipelago.state:ArchState", "v": {}},  # another game's class
        {"e": "subprocess:Popen", "v": 1},
        {"o": "domain.puerto_rico.state:PRState.__init__.__globals__", "v": {}},
        {"x": 1},
        {"t": [1], "d": []},
    ):
        with pytest.raises(SnapshotError):
            codec.decode(hostile)


def test_a_class_outside_the_allowed_modules_is_not_encoded():
    class Foreign:
        pass

    with pytest.raises(TypeError):
        StateCodec(("domain.",)).encode({"x": Foreign()})
