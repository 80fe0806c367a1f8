"""Plackett-Luce ratings folded from finished games, and leaderboards."""

from __future__ import annotations

import math
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workers.ratings import (
    MODEL_PARAMETERS,
    LeaderboardRow,
    Rating,
    initial_rating,
    leaderboard,
    make_model,
    rate_games,
    strict_orders,
)

MU, SIGMA = MODEL_PARAMETERS["mu"], MODEL_PARAMETERS["sigma"]


def game(players, ranks):
    return {"players": list(players), "ranks": list(ranks)}


def test_model_parameters_are_applied():
    model = make_model()
    assert (model.mu, model.sigma, model.beta, model.kappa, model.tau) == (25.0, 25 / 3, 25 / 6, 1e-4, 25 / 300)
    assert initial_rating() == Rating(mu=25.0, sigma=25 / 3, games=0)
    assert initial_rating().ordinal == pytest.approx(0.0)


def test_winners_gain_and_losers_lose():
    ratings = rate_games([game(["a", "b", "c", "d"], [1, 2, 3, 4])])
    assert ratings["a"].mu > ratings["b"].mu > ratings["c"].mu > ratings["d"].mu
    assert ratings["a"].mu > MU > ratings["d"].mu
    assert all(r.sigma < SIGMA for r in ratings.values())
    assert all(r.games == 1 for r in ratings.values())


def test_two_player_win_is_symmetric():
    ratings = rate_games([game(["a", "b"], [1, 2])])
    assert ratings["a"].mu - MU == pytest.approx(MU - ratings["b"].mu)
    assert ratings["a"].sigma == pytest.approx(ratings["b"].sigma)


def test_ties_are_handled():
    ratings = rate_games([game(["a", "b", "c"], [1, 1, 3])])
    assert ratings["a"] == ratings["b"]
    assert ratings["a"].mu > MU > ratings["c"].mu
    # a draw between equals moves nobody's mean
    drawn = rate_games([game(["x", "y"], [1, 1])])
    assert drawn["x"].mu == pytest.approx(MU) and drawn["y"].mu == pytest.approx(MU)
    assert drawn["x"].sigma < SIGMA
    # dense and competition ranks mean the same placements
    assert rate_games([game("abc", [1, 1, 2])]) == rate_games([game("abc", [1, 1, 3])])


def test_tied_winners_rank_above_the_runner_up():
    # openskill 6.2 alone gives the tied winners the runner-up's mu and a lower ordinal (issues #155, #201)
    ratings = rate_games([game(["a", "b", "c", "d"], [1, 1, 2, 3])])
    assert ratings["a"] == ratings["b"]
    assert ratings["a"].mu > ratings["c"].mu > ratings["d"].mu
    assert ratings["a"].ordinal > ratings["c"].ordinal > ratings["d"].ordinal


def test_tie_free_games_are_rated_exactly_as_openskill_does():
    model = make_model()
    teams = [[model.rating()] for _ in range(4)]
    expected = model.rate(teams, ranks=[3.0, 1.0, 4.0, 2.0])
    ratings = rate_games([game(["a", "b", "c", "d"], [3, 1, 4, 2])])
    for p, (r,) in zip("abcd", expected):
        assert (ratings[p].mu, ratings[p].sigma) == (r.mu, r.sigma)


def test_strict_orders():
    assert strict_orders([1, 2, 3]) == [[0, 1, 2]]
    assert strict_orders([1, 1, 3]) == [[0, 1, 2], [1, 0, 2]]
    orders = strict_orders([2, 1, 2, 2, 1])  # groups of 2 and 3: lcm 6 orders
    assert len(orders) == 6
    for order in orders:
        assert sorted(order) == [0, 1, 2, 3, 4]
        assert {order[1], order[4]} == {0, 1}
    assert sorted(o[0] for o in orders) == [2, 2, 3, 3, 4, 4]  # each place of its group equally often


def test_upset_moves_more_than_expected_result():
    history = [game(["strong", "weak"], [1, 2])] * 5
    expected = rate_games([*history, game(["strong", "weak"], [1, 2])])
    upset = rate_games([*history, game(["strong", "weak"], [2, 1])])
    before = rate_games(history)
    gain = expected["strong"].mu - before["strong"].mu
    loss = before["strong"].mu - upset["strong"].mu
    assert 0 < gain < loss


def test_seat_order_does_not_matter():
    a = rate_games([game(["a", "b", "c"], [2, 1, 3])])
    b = rate_games([game(["c", "b", "a"], [3, 1, 2])])
    for p in "abc":
        assert a[p].mu == pytest.approx(b[p].mu) and a[p].sigma == pytest.approx(b[p].sigma)


def test_determinism():
    games = [game(["a", "b", "c"], [1, 2, 3]), game(["b", "c", "d", "e"], [2, 1, 1, 4]), game(["a", "e"], [2, 1])]
    assert rate_games(games) == rate_games(list(games))
    assert leaderboard(rate_games(games)) == leaderboard(rate_games(games))


def test_retracting_a_game_by_omission_equals_never_playing_it():
    games = [
        game(["a", "b", "c"], [1, 2, 3]),
        game(["a", "b"], [2, 1]),
        game(["c", "d", "a"], [1, 3, 2]),
        game(["b", "d"], [1, 1]),
    ]
    without = [g for i, g in enumerate(games) if i != 1]
    assert rate_games(without) == rate_games([games[0], games[2], games[3]])
    assert rate_games(without) != rate_games(games)
    assert rate_games(without)["a"].games == 2


def test_incremental_fold_equals_full_fold():
    games = [game(["a", "b"], [1, 2]), game(["b", "c", "a"], [1, 2, 3]), game(["c", "a"], [1, 2])]
    assert rate_games(games[1:], initial=rate_games(games[:1])) == rate_games(games)


def test_bot_ids_and_trivial_games():
    ratings = rate_games([game(["u1", "bot:hard:1"], [2, 1]), game(["solo"], [1]), game([], [])])
    assert set(ratings) == {"u1", "bot:hard:1"}
    assert rate_games([]) == {}


@pytest.mark.parametrize(
    "bad",
    [
        {"players": ["a", "b"], "ranks": [1]},
        {"players": ["a", "a"], "ranks": [1, 2]},
        {"players": ["a", "b"], "ranks": ["1", 2]},
        {"players": ["a", "b"], "ranks": [True, 2]},
    ],
)
def test_malformed_games_are_rejected(bad):
    with pytest.raises(ValueError):
        rate_games([bad])


def test_leaderboard_order_and_limit():
    ratings = {
        "b": Rating(mu=30.0, sigma=2.0, games=10),  # ordinal 24
        "a": Rating(mu=30.0, sigma=2.0, games=3),  # ordinal 24, id breaks the tie
        "c": Rating(mu=40.0, sigma=6.0, games=1),  # ordinal 22
        "d": Rating(mu=26.0, sigma=0.5, games=50),  # ordinal 24.5
    }
    rows = leaderboard(ratings)
    assert [r.player for r in rows] == ["d", "a", "b", "c"]
    assert rows[0] == LeaderboardRow(player="d", mu=26.0, sigma=0.5, ordinal=24.5, games=50)
    assert rows[0].to_dict() == {"player": "d", "mu": 26.0, "sigma": 0.5, "ordinal": 24.5, "games": 50}
    assert [r.player for r in leaderboard(ratings, limit=2)] == ["d", "a"]
    assert leaderboard(ratings, limit=0) == []
    assert leaderboard({}) == []
    with pytest.raises(ValueError):
        leaderboard(ratings, limit=-1)


def test_ordinal_matches_openskill():
    ratings = rate_games([game(["a", "b", "c"], [1, 2, 3])])
    model = make_model()
    for r in ratings.values():
        assert r.ordinal == pytest.approx(model.rating(mu=r.mu, sigma=r.sigma).ordinal())


def test_consistent_winner_tops_the_leaderboard():
    games = [game(["champ", f"x{i}", f"y{i}"], [1, 2, 3]) for i in range(10)]
    rows = leaderboard(rate_games(games), limit=3)
    assert rows[0].player == "champ" and rows[0].games == 10


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.lists(st.integers(1, 4), min_size=2, max_size=5).flatmap(
            lambda ranks: st.tuples(st.permutations(list("abcdef")).map(lambda p: p[: len(ranks)]), st.just(ranks))
        ),
        max_size=10,
    )
)
def test_rating_properties(specs):
    games = [game(players, ranks) for players, ranks in specs]
    ratings = rate_games(games)
    assert ratings == rate_games(games)
    for p, r in ratings.items():
        assert math.isfinite(r.mu) and r.sigma > 0
        assert r.games == sum(p in g["players"] for g in games)
    for players, ranks in specs[:1]:  # in a first game, a strictly better placement means a higher mean
        first = rate_games([game(players, ranks)])
        for (p, rp), (q, rq) in permutations(zip(players, ranks), 2):
            if rp < rq:
                assert first[p].mu > first[q].mu
                assert first[p].ordinal > first[q].ordinal
            elif rp == rq:
                assert first[p] == first[q]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["add", "add", "add", "add", "early", "retract", "again", "quiet"]),
            st.integers(0, 10**6),
        ),
        min_size=1,
        max_size=25,
    )
)
def test_kept_ratings_brought_up_to_date_equal_a_fold_of_every_game(ops):
    """``current_ratings`` after any mix of changes (games added after the others or no later than one of them,
    retracted, recorded again after an undo; or nothing) gives the ratings of a fold of every rated game, and a game
    added after every kept one is folded alone."""
    from eventstore.memory import MemoryStore
    from workers import ratings

    store, clock, folded = MemoryStore(), [0.0], []
    counting = ratings.rate_games

    def count(games, initial=None):
        games = list(games)
        folded.append(len(games))
        return counting(games, initial)

    ratings.rate_games = count
    try:
        for op, n in ops:
            keys = [k for k, _ in store.list_documents("rated:puerto_rico", limit=1000)]
            if op in ("add", "early"):
                clock[0] += 1.0
                at = clock[0] if op == "add" else clock[0] - 1.0 - n % 3
                players = [f"site/p{(n + i) % 7}" for i in range(3)]
                doc = {"players": players, "ranks": [1 + (n >> i) % 3 for i in range(3)], "finished_at": at}
                store.put_document("rated:puerto_rico", f"g{n:07d}", {**doc, "generation": 0})
            elif op == "retract" and keys:
                store.delete_document("rated:puerto_rico", keys[n % len(keys)])
            elif op == "again" and keys:
                doc = store.get_document("rated:puerto_rico", keys[n % len(keys)])
                clock[0] += 1.0
                store.put_document(
                    "rated:puerto_rico", keys[n % len(keys)], {**doc, "finished_at": clock[0], "generation": 1}
                )
            ratings.rated_changed(store, "puerto_rico")
            before = len(folded)
            count_of_games, got = ratings.current_ratings(store, "puerto_rico")
            whole = counting(ratings.rated_games(store, "puerto_rico"))
            assert got == whole and count_of_games == len(store.list_documents("rated:puerto_rico", limit=1000))
            if op == "add" and keys and f"g{n:07d}" not in keys:
                assert folded[before:] == [1]  # the new game alone, from the kept ratings
    finally:
        ratings.rate_games = counting
