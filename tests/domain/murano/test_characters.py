"""Character cards (§13): the formula language and every card's formula, with the worked examples."""

from __future__ import annotations

import pytest

from domain.murano import data
from domain.murano.formulas import FormulaError, compile_formula
from domain.murano.scoring import FORMULAS, allowed, best_assignment, card_value, island_env
from tests.domain.murano.helpers import given, opening, street, tile

SD = 1  # SAN_DONATO's island index
NAV = 3  # NAVAGERO's island index


def board_one():
    """SAN_DONATO: 5 streets (3 paved spaces free), 2 red shops (seat 0 and 1), 1 blue shop (seat 0), factories of
    seat 0 and seat 1, a 3-crest palace, a special building; 3 brown spaces free."""
    return given(
        *opening(),
        *street("SAN_DONATO:r1c0", "ST_R"),
        *street("SAN_DONATO:r1c1", "ST_RB"),
        *street("SAN_DONATO:r1c2", "ST_NONE"),
        *street("SAN_DONATO:r1c3", "ST_GB"),
        *street("SAN_DONATO:r2c3", "ST_G"),
        *tile(0, "SAN_DONATO:r0c1", "shop", "red"),
        *tile(1, "SAN_DONATO:r0c3", "shop", "red"),
        *tile(0, "SAN_DONATO:r0c4", "shop", "blue"),
        *tile(0, "SAN_DONATO:r1c5", "glass_factory"),
        *tile(1, "SAN_DONATO:r2c0", "glass_factory"),
        *tile(2, "SAN_DONATO:r2c2", "palace", 3),
        *tile(2, "SAN_DONATO:r2c4", "special_building"),
    )


def board_two():
    """NAVAGERO full: 6 streets (one red customer), seat 0's factory, a 1-crest palace, seat 2's grey shop and
    four special buildings."""
    events = [*opening()]
    for i, sp in enumerate(("r0c1", "r1c1", "r1c2", "r1c3", "r2c3", "r3c3")):
        events += street(f"NAVAGERO:{sp}", "ST_R" if i == 0 else "ST_NONE")
    events += tile(0, "NAVAGERO:r0c0", "glass_factory")
    events += tile(0, "NAVAGERO:r0c2", "palace", 1)
    events += tile(2, "NAVAGERO:r1c0", "shop", "grey")
    for sp in ("r1c4", "r2c1", "r2c4", "r3c2"):
        events += tile(1, f"NAVAGERO:{sp}", "special_building")
    return given(*events)


def test_island_counts():
    env = island_env(board_one(), SD, 0)
    expected = {
        "GF": 2,
        "GF_own": 1,
        "GF_opp": 1,
        "SH": 3,
        "SH[red]": 2,
        "SH[grey]": 0,
        "SH[blue]": 1,
        "SH_own": 2,
        "SH_opp": 1,
        "PA": 1,
        "CR": 3,
        "SB": 1,
        "BLD": 7,
        "OWN": 3,
        "OPP": 2,
        "ST": 5,
        "ST_NONE": 1,
        "CU[red]": 2,
        "CU[grey]": 2,
        "CU[blue]": 2,
        "CU": 6,
        "FREE_S": 3,
        "FREE_B": 3,
        "TYPES": 4,
    }
    assert {k: env[k] for k in expected} == expected
    assert env["SH_of"] == [2, 1, 0, 0] and env["GF_of"] == [1, 1, 0, 0] and env["OPPONENTS"] == [1, 2, 3]


BOARD_ONE_SEAT_0 = {
    "C01": 8,
    "C02": 0,
    "C03": 4,
    "C04": 0,
    "C05": 0,
    "C06": 0,
    "C07": 8,
    "C08": 4,
    "C09": 4,
    "C10": 4,
    "C11": 6,
    "C12": 4,
    "C13": 6,
    "C14": 5,
    "C15": 0,
    "C16": 0,
    "C17": 0,
    "C18": 3,
    "C19": 6,
    "C20": 3,
    "C21": 10,
    "C22": 0,
    "C23": 10,
    "C24": 0,
    "C25": 0,
    "C26": 8,
    "C27": 12,
    "C28": 6,
    "C29": 8,
    "C30": 14,
    "C31": 9,
    "C32": 9,
    "C33": 5,
    "C34": 12,
    "C35": 6,
    "C36": 15,
    "C37": 0,
    "C38": 9,
    "C39": 8,
    "C40": 9,
}

BOARD_TWO_SEAT_0 = {
    "C04": 12,
    "C05": 12,
    "C06": 16,
    "C07": 2 * 1 + 1,
    "C14": 20,
    "C16": 12,
    "C17": 8,
    "C18": 15,
    "C24": 0,
    "C25": 10,
    "C26": 8,
    "C27": 7 + 6,
    "C35": 24,
    "C36": 18,
    "C37": 14,
    "C15": 0,
    "C21": 0,
    "C23": 0,
}


@pytest.mark.parametrize("card", sorted(data.CHARACTERS))
def test_every_card_formula_on_board_one(card):
    assert card_value(board_one(), card, 0, SD) == BOARD_ONE_SEAT_0[card]


@pytest.mark.parametrize("card", sorted(BOARD_TWO_SEAT_0))
def test_card_formulas_on_board_two(card):
    assert card_value(board_two(), card, 0, NAV) == BOARD_TWO_SEAT_0[card]


def test_opponent_comparisons_from_another_seat():
    state = board_one()
    assert card_value(state, "C21", 1, SD) == 0  # 1 shop does not beat seat 0's 2
    assert card_value(state, "C23", 1, SD) == 10  # seat 0 also has exactly 1 factory
    assert card_value(state, "C22", 1, SD) == 0
    assert card_value(state, "C04", 1, SD) == 0
    assert card_value(board_two(), "C22", 2, NAV) == 0


def _env(**values):
    base = {
        k: 0
        for k in (
            "GF",
            "GF_own",
            "GF_opp",
            "SH",
            "SH_own",
            "SH_opp",
            "PA",
            "CR",
            "SB",
            "BLD",
            "OWN",
            "OPP",
            "ST",
            "ST_NONE",
            "CU",
            "FREE_S",
            "FREE_B",
            "TYPES",
        )
    }
    for c in ("red", "grey", "blue"):
        base[f"SH[{c}]"] = 0
        base[f"CU[{c}]"] = 0
    base.update({"GF_of": [0, 0, 0], "SH_of": [0, 0, 0], "OPPONENTS": [1, 2]})
    base.update(values)
    return base


def test_conditional_cards_with_hand_made_counts():
    assert FORMULAS["C15"](_env(**{"SH[red]": 1, "SH[grey]": 2, "SH[blue]": 1}), None) == 10
    assert FORMULAS["C22"](_env(SH_own=2, SH_of=[2, 0, 2]), None) == 10
    assert FORMULAS["C22"](_env(SH_own=0, SH_of=[0, 0, 0]), None) == 0  # needs at least one own shop
    assert FORMULAS["C21"](_env(SH_own=2, SH_of=[2, 1, 1]), None) == 10
    assert FORMULAS["C21"](_env(SH_own=2, SH_of=[2, 2, 1]), None) == 0
    assert FORMULAS["C24"](_env(GF=0, PA=2), None) == 10
    assert FORMULAS["C24"](_env(GF=1, PA=3), None) == 0
    assert FORMULAS["C25"](_env(**{"CU[red]": 2, "CU[blue]": 2}), None) == 0
    assert FORMULAS["C25"](_env(**{"CU[red]": 3, "CU[grey]": 5}), None) == 10
    assert FORMULAS["C06"](_env(GF=0, PA=0, SH=0), None) == 0  # needs a factory


def test_seed_worked_examples():
    # "4 VP per red shop" with 2 red shops -> 8; "12 VP if only you have glass factories" -> 12
    env = _env(**{"SH[red]": 2}, GF=1, GF_own=1, GF_opp=0)
    assert FORMULAS["C01"](env, None) == 8 and FORMULAS["C04"](env, None) == 12


def test_every_formula_compiles_and_cards_name_their_islands():
    assert len(data.CHARACTERS) == 40
    for _card, (_name, island, players, formula) in data.CHARACTERS.items():
        compile_formula(formula)
        assert island == "ANY" or island in data.ISLANDS
        assert players in (2, 4)
    assert [c for c, spec in data.CHARACTERS.items() if spec[2] == 4] == ["C39", "C40"]
    assert allowed("C35", "NAVAGERO") and not allowed("C35", "SAN_DONATO") and allowed("C01", "SAN_DONATO")


@pytest.mark.parametrize(
    "text",
    [
        "SH[green]",
        "GF[red]",
        "GF_of(q)",
        "FOO",
        "2 *",
        "IF(GF, 3)",
        "(GF",
        "GF >= 1",
        "ANY(q in OPPONENTS: GF_of(q) == 1)",
        "3 $ 4",
    ],
)
def test_formula_errors(text):
    with pytest.raises(FormulaError):
        compile_formula(text)


def test_and_binds_tighter_than_or():
    f = compile_formula("IF(GF == 1 or PA == 1 and SB == 1, 5)")
    assert f(_env(GF=1), None) == 5
    assert f(_env(PA=1), None) == 0
    assert f(_env(PA=1, SB=1), None) == 5
    assert compile_formula("IF(ALL(q in OPPONENTS: GF_of(q) == 0), 1)")(_env(OPPONENTS=[]), None) == 1
    assert compile_formula("IF(ANY(q in OPPONENTS: GF_of(q) == 0), 1)")(_env(OPPONENTS=[]), None) == 0
    assert compile_formula("2 * (3 + 4) - 1")(_env(), None) == 13


def test_example_9_best_assignment_strict_and_lenient():
    values = {
        ("C01", "SAN_DONATO"): 8,
        ("C04", "SAN_DONATO"): 0,
        ("C35", "NAVAGERO"): 6,
        ("C01", "NAVAGERO"): 0,
        ("C04", "NAVAGERO"): 0,
    }

    def ok(card, island):
        return data.CHARACTERS[card][1] in ("ANY", island)

    free = {"SAN_DONATO": 2, "NAVAGERO": 1}
    strict = best_assignment(["C01", "C04", "C35"], free, ok, lambda c, i: values[(c, i)], strict=True)
    lenient = best_assignment(["C01", "C04", "C35"], free, ok, lambda c, i: values[(c, i)], strict=False)
    assert strict[0] == 14 and lenient[0] == 15
    assert dict(strict[1]) == {"C01": "SAN_DONATO", "C04": "SAN_DONATO", "C35": "NAVAGERO"}
