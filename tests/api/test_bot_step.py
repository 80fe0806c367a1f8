"""A server's bot knows when its decision goes on its own step (``Bot.choose``'s ``continuing``), from the stored
events: the seat's own command was the last one played. A bot built for every move then keeps to its plan as a bot
kept for a whole game does (``MCTSBot.plan_weight``)."""

from __future__ import annotations

from tests.api.conftest import create_secret_game, integrator
from workers import facts, jobs


def record_decisions(monkeypatch) -> list[tuple[int, bool]]:
    seen: list[tuple[int, bool]] = []
    real = jobs.choose_move

    def recording(rules, state, seat, level, rng, continuing=False):
        seen.append((seat, continuing))
        return real(rules, state, seat, level, rng, continuing)

    monkeypatch.setattr(jobs, "choose_move", recording)
    return seen


def test_a_bot_that_acts_again_after_its_own_command_goes_on_its_step(client, runtime, monkeypatch):
    seen = record_decisions(monkeypatch)
    game = create_secret_game(client, seats=1, rounds=3, bots=("random",), headers=integrator(runtime))
    assert runtime.service.load(game["id"]).over
    assert seen == [(0, False), (0, True), (0, True)]


def test_a_bot_after_another_seats_move_does_not(client, runtime, monkeypatch):
    seen = record_decisions(monkeypatch)
    game = create_secret_game(client, seats=2, rounds=2, bots=("random", "random"), headers=integrator(runtime))
    assert runtime.service.load(game["id"]).over
    assert seen == [(0, False), (1, False), (0, False), (1, False)]


def test_a_platform_event_after_the_seats_command_ends_the_step(client, runtime):
    """A vote, a timeout or a finish recorded after the seat's command (platform events, whoever caused them) ends
    the step: the decision is searched as any other."""
    game = create_secret_game(client, seats=1, rounds=2)
    token = game["seat_tokens"][0]["token"]
    posted = client.post(
        f"/games/{game['id']}/commands",
        json={"command": {"type": "draw"}},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert posted.status_code == 200, posted.get_json()
    loaded = runtime.service.load(game["id"])
    assert loaded.facts.last_mover == 0
    assert facts.Facts.from_json(loaded.facts.to_json()) == loaded.facts  # as a snapshot keeps it
    finished = runtime.service.append_facts(loaded, [facts.finished_event({"ranks": [1]})], actor="human", seat=0)
    assert finished.facts.last_mover is None
    assert runtime.service.load(game["id"]).facts.last_mover is None  # folded again from the store
