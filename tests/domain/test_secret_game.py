import pytest

from domain.game import IllegalCommand
from domain.rng import rng_for
from tests.domain.protocol_checks import play_random_game
from tests.support.secret_game import RULES


def test_random_games_finish_and_replay():
    for seed in range(50):
        state, events = play_random_game(RULES, 3, seed, {"rounds": 2}, check_purity=True)
        assert RULES.is_over(state)


def test_out_of_turn_is_refused():
    state = RULES.fold(RULES.setup(1, 2, {}))
    with pytest.raises(IllegalCommand) as err:
        RULES.decide(state, {"type": "pass"}, 1, rng_for(1, 3))
    assert err.value.code == "not_your_turn"


def test_secret_hidden_from_others():
    state = RULES.fold(RULES.setup(1, 2, {}))
    assert RULES.view(state, 1)["secrets"][0] is None
    assert RULES.view(state, 0)["secrets"][0] == state.secrets[0]
