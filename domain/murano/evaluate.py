"""The heuristic the bots play Murano with (``evaluate``, and ``evaluate_all`` for every seat at once).

A player's worth is what they hold and can still do, not only the points already scored:

* VP, and gold at a third of a VP;
* a tile in hand at a share of what it is worth on the board (``HAND_VALUE``). A tile scores only once it is
  built, and a tile still in hand when the game ends scores nothing, so a built tile must be worth clearly more
  than the same tile in hand: else buying beats building and the hand only grows;
* the shops on the board by the Income they can pay (§9 of docs/rules/murano.md): the best single Income action (one island, at most one
  own shop per colour) weighted by ``INCOME_WEIGHT``, so a shop built next to customers of its colour is worth more
  than one built elsewhere, and collecting keeps the shops' worth while it adds the gold;
* beads, gondoliers and cards at rough values.
"""

from __future__ import annotations

import math
from typing import Any

from domain.game import keep, relative_to_best_other
from domain.murano import data
from domain.murano.board import geometry
from domain.murano.state import GLASS_FACTORY, PALACE, SHOP, SPECIAL_BUILDING, STREET, MuranoState

GOLD_VALUE = 1.0 / 3.0
# A tile in hand, in VP: below its VP when built (factory 1, shop 2, palace 3; a special building earns a card
# worth 1 below), above what it costs (factory 1 gold, shop / palace 2, special building 2, so 1/3 or 2/3 VP).
HAND_VALUE = {GLASS_FACTORY: 0.6, SHOP: 1.2, PALACE: 1.8, SPECIAL_BUILDING: 0.8}
# Tried and not kept (2026-11-30, on a scratch change): a shop in hand worth W VP more per customer of its colour on
# the streets around the best free brown space that touches a street (each colour in hand once), so that where a
# street lies counts before a shop stands beside it. ``benchmarks/evaluation_ab.py murano P easy G --seed S`` with
# the term as the variant; the win share of the seat playing as it is (even share 1/P): two players, seed 7000,
# 400 games: W 0.1 0.475, 0.25 0.476, 0.5 0.463, 1.0 0.618; seed 9100, 800 games: W 0.3 0.540, 0.5 0.516; three
# players, seed 9200, 600 games: W 0.3 0.338, 0.5 0.347. Not shown to help at any weight.
# One gold of the best Income action, in VP: a third of a VP per gold, for about one and a half collections to come.
INCOME_WEIGHT = 0.5
COLOURS = {colour: i for i, colour in enumerate(data.CUSTOMER_COLOURS)}
# A gondolier the seat owns, in VP (GONDOLIER_VALUE, seated or in the personal supply), and what a seated one is worth
# more (SEATED_GONDOLIER_VALUE: it may score with a character card). A gondolier in the personal supply scores a
# point at the end (§11, §17 Q51), so at 0 firing one for 3 gold (a point) looks like a free point, and easy fires
# in about 3% of its commands. Tried at 1 (firing and hiring even, seating worth the same): easy with it against
# easy as below (``python benchmarks/evaluation_ab.py murano P easy G --set GONDOLIER_VALUE=1``, the current side
# being the one at 0, so read the shares from the other side) won 0.703 [0.636, 0.762] of 200 two-player games
# (mean score 47.0 / 39.2), 0.500 [0.421, 0.579] of 150 three-player games and 0.385 [0.296, 0.483] of 100
# four-player games, and medium with it won 9 of 12 two-player games against medium as below; but medium no longer
# climbed above easy (``bot_ladder.py 16 --games-list murano --players 2,3,4 --rungs medium/easy --jobs 2 --seed
# 95``: 0.562 [0.332, 0.769], 0.267 [0.109, 0.520] and 0.312 [0.142, 0.556] at 2, 3 and 4 players, mean scores
# 48.8 / 53.0, 37.9 / 41.4, 40.1 / 36.2), nor in 30, 30 and 28 more games (seed 97: 0.567 [0.392, 0.726], 0.400
# [0.246, 0.577] and 0.393 [0.236, 0.576], mean scores 50.0 / 54.8, 43.0 / 43.8 and 42.7 / 35.9), nor with the
# plan below (seeds 400 and 401: 0.562 [0.493, 0.629] of 200 two-player games, 0.321 [0.227, 0.430] of 78
# three-player games, where at 0 it climbs at both), so it stays at 0 until medium keeps its lead with it.
GONDOLIER_VALUE = 0.0
SEATED_GONDOLIER_VALUE = 1.5
# The bots' plan (``Rules.plan_weight``, ``domain.bots.mcts``): at a decision that goes on the seat's own step
# (a street's space, a building's, stopping a build) the search plays the greedy follow-through's pick that it
# valued the step's first command by, with no search of its own. Searched afresh, those decisions are mostly
# near-ties decided by the search's noise, and medium lost its lead over easy. Measured on 60 paired two-player
# deals against easy (``bot_ladder.py N --games-list murano --players 2 --rungs medium/easy --seed 322`` and 323):
# medium with no plan won 23 (0.383), with the plan at 0.1 / 0.5 / 10 times the iterations 30 / 33 / 40, and at
# math.inf (no search of such decisions) 44, 0.733 [0.610, 0.829], mean score 45.2 / 36.7; of the deals only one
# of the two won, 24 went to the plan at math.inf and 3 to no plan (docs/bots.md).
PLAN_WEIGHT = math.inf


def best_incomes(state: MuranoState) -> list[int]:
    """Per seat, the gold of its best Income action now (§9): the island where its best shop of each colour pays
    most in all (Market Hall: +1 per shop that pays). Kept by what it reads (``_INCOMES``)."""
    key = (state.n, tuple(state.board), tuple(data.MARKET_HALL in cards for cards in state.effective))
    known = _INCOMES.get(key)
    if known is None:
        known = keep(_INCOMES, key, _best_incomes(state), _INCOMES_ENTRIES)
    return list(known)


# ``best_incomes`` by its inputs' values: the number of seats (the board's geometry), every space's tile (a tuple, or
# None) and who has the Market Hall in effect. A search scores many positions whose board did not change; the board
# is changed in place on the fast path, so the key is its content, not its identity.
_INCOMES: dict[tuple[int, tuple[Any, ...], tuple[bool, ...]], tuple[int, ...]] = {}
_INCOMES_ENTRIES = 2048


def _best_incomes(state: MuranoState) -> tuple[int, ...]:
    """``best_incomes`` computed."""
    g = geometry(state.n)
    board = state.board
    neighbours, island_of, faces = g.neighbours, g.island_of, data.STREET_FACES
    # best[seat][island][colour]: the most one own shop of that colour on that island earns
    best = [[[0, 0, 0] for _ in g.islands] for _ in range(state.n)]
    for space, cell in enumerate(board):
        if cell is None or cell[0] != SHOP:
            continue
        _kind, colour, owner = cell
        earned = 0
        for nb in neighbours[space]:
            other = board[nb]
            if other is not None and other[0] == STREET:
                earned += faces[other[1]].get(colour, 0)
        if earned and data.MARKET_HALL in state.effective[owner]:
            earned += 1
        slot = best[owner][island_of[space]]
        c = COLOURS[colour]
        if earned > slot[c]:
            slot[c] = earned
    return tuple(max(sum(slot) for slot in islands) if islands else 0 for islands in best)


def _worth(state: MuranoState, s: int, income: int) -> float:
    w = state.vp[s] + state.gold[s] * GOLD_VALUE
    for kind, _face in state.hand[s]:
        w += HAND_VALUE[kind]
    w += income * INCOME_WEIGHT
    w += sum(state.beads[s]) * 1.5
    seated = state.gondolas.count(s)
    w += (state.personal[s] + seated) * GONDOLIER_VALUE + seated * SEATED_GONDOLIER_VALUE
    w += len(state.chars[s]) * 3.0 + len(state.specials[s]) * 1.0
    return w


def worth(state: MuranoState, s: int) -> float:
    """VP, gold, tiles in hand, the Income the seat's shops can pay, beads, gondoliers and cards (see the module)."""
    return _worth(state, s, best_incomes(state)[s])


def evaluate(state: MuranoState, seat: int) -> float:
    """Greedy heuristic: the seat's ``worth`` relative to the best opponent's."""
    incomes = best_incomes(state)
    mine = _worth(state, seat, incomes[seat])
    others = [_worth(state, s, incomes[s]) for s in range(state.n) if s != seat]
    return mine - max(others)  # a game has 2-4 seats: there is always an opponent


def evaluate_all(state: MuranoState) -> list[float]:
    """``evaluate`` for every seat, each worth computed once."""
    incomes = best_incomes(state)
    return relative_to_best_other([_worth(state, s, incomes[s]) for s in range(state.n)])
