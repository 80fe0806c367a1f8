"""A bot that fails or cheats never stalls a game: its seat plays a random legal move instead."""

from __future__ import annotations

import random

from domain.rng import rng_for
from tests.support.secret_game import RULES
from workers import jobs


class Broken:
    budget_ms = None

    def choose(self, rules, state, seat, rng, should_stop=None, continuing=False):
        raise RuntimeError("search blew up")


class Cheater:
    budget_ms = None

    def choose(self, rules, state, seat, rng, should_stop=None, continuing=False):
        return {"type": "bank", "amount": 99}


def test_a_failing_or_illegal_bot_falls_back_to_a_random_legal_move(monkeypatch, caplog):
    real = jobs.make_bot
    state = RULES.fold(RULES.setup(3, 2, {}))
    legal = RULES.legal_commands(state, 0)
    for bad in (Broken(), Cheater()):
        monkeypatch.setattr(
            jobs, "make_bot", lambda level, seed, bad=bad: bad if level == "hard" else real(level, seed)
        )
        command = jobs.choose_move(RULES, state, 0, "hard", rng_for(3, 4))
        assert command in legal
    assert "failed" in caplog.text and "illegal" in caplog.text


def test_the_time_budget_becomes_a_should_stop(monkeypatch):
    seen = {}

    class Timed:
        budget_ms = 500

        def choose(self, rules, state, seat, rng, should_stop=None, continuing=False):
            seen["before"] = should_stop()
            clock[0] += 0.6
            seen["after"] = should_stop()
            return random.Random(0).choice(rules.legal_commands(state, seat))

    clock = [100.0]
    monkeypatch.setattr(jobs.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(jobs, "make_bot", lambda level, seed: Timed())
    state = RULES.fold(RULES.setup(3, 2, {}))
    jobs.choose_move(RULES, state, 0, "medium", rng_for(3, 4))
    assert seen == {"before": False, "after": True}
