"""Labels of legal commands (what a seat is shown before it decides): each names the choice and previews
its price or VP as the rules compute them (§4.3 cost, §4.5 price, §4.6 VP per load)."""

from __future__ import annotations

from domain.puerto_rico import RULES
from domain.puerto_rico.data import CORN, INDIGO, SUGAR
from tests.domain.puerto_rico.helpers import act, give, new_game, pick


def label(s, command, seat=None):
    return RULES.label(s, s.current if seat is None else seat, command)


def test_role_labels_name_the_role_and_the_doubloons_on_it():
    s = new_game(4)
    s.role_money[s.role_names.index("trader")] = 2
    assert label(s, {"type": "select_role", "role": "trader"}) == {
        "label": "Take the trader role and the 2 doubloons on it",
        "gain": 2,
    }
    assert label(s, {"type": "select_role", "role": "mayor"}) == {"label": "Take the mayor role"}
    assert label(s, {"type": "select_role", "role": "prospector"}) == {"label": "Take the prospector role", "gain": 1}


def test_settler_and_mayor_labels():
    s = new_game(4)
    assert label(s, {"type": "pass"}) == {"label": "Pass"}
    assert label(s, {"type": "draw_from_hacienda"})["label"] == "Draw the top face-down plantation with your hacienda"
    assert label(s, {"type": "take_plantation", "plantation": "sugar"})["label"] == "Take a face-up sugar plantation"
    assert label(s, {"type": "take_quarry"})["label"] == "Take a quarry"
    assert label(s, {"type": "place_colonist", "target": "quarry"})["label"] == "Place a colonist on a quarry"
    assert label(s, {"type": "place_colonist", "target": "corn"})["label"] == "Place a colonist on a corn plantation"
    assert label(s, {"type": "place_colonist", "target": "harbor"})["label"] == "Place a colonist on your harbor"
    for step, text in (
        ("hospice", "Take a colonist for your new tile (hospice)"),
        ("university", "Take a colonist for your new building (university)"),
        ("privilege", "Take a colonist from the supply (mayor's privilege)"),
    ):
        s.step = step
        assert label(s, {"type": "take_colonist"})["label"] == text


def test_trader_label_previews_the_price():
    s = new_game(4)
    give(s, 1, goods={"coffee": 1}, buildings={"small_market": 1})
    _, s = pick(s, "trader", 0)
    assert label(s, {"type": "sell", "good": "coffee"}, seat=1) == {
        "label": "Sell a coffee barrel for 5 doubloons",
        "gain": 5,
    }
    assert label(s, {"type": "take_good", "good": "corn"})["label"] == "Take one more corn barrel"


def test_captain_labels_preview_the_amount_and_the_vp():
    s = new_game(4)
    give(s, 0, goods={"corn": 7, "indigo": 1, "sugar": 2}, buildings={"wharf": 1, "harbor": 1})
    _, s = pick(s, "captain", 0)
    # the picker's first load: barrels + 1 (harbor) + 1 (privilege)
    assert label(s, {"type": "load", "good": "corn", "ship": 2}) == {
        "label": "Ship 7 corn barrels onto the 7-barrel ship for 9 VP",
        "points": 9,
    }
    assert label(s, {"type": "ship_with_wharf", "good": "sugar"}) == {
        "label": "Ship 2 sugar barrels with your wharf for 4 VP",
        "points": 4,
    }
    _, s = act(s, {"type": "load", "good": "indigo", "ship": 2})
    assert s.players[0].goods[INDIGO] == 0 and s.players[0].goods[CORN] == 7 and s.players[0].goods[SUGAR] == 2
    # no privilege once the captain has loaded; the 6-barrel ship takes 6 of the 7 corn
    assert label(s, {"type": "load", "good": "corn", "ship": 1}, seat=0)["label"] == (
        "Ship 6 corn barrels onto the 6-barrel ship for 7 VP"
    )


def test_storage_labels():
    s = new_game(4)
    assert label(s, {"type": "store_in_warehouse", "good": "sugar"})["label"] == "Keep all your sugar in a warehouse"
    assert label(s, {"type": "keep_barrel", "good": "corn"})["label"] == (
        "Keep one corn barrel; the rest not stored is lost"
    )


def test_goods_starting_with_a_vowel_take_an():
    s = new_game(4)
    assert (
        label(s, {"type": "place_colonist", "target": "indigo"})["label"] == "Place a colonist on an indigo plantation"
    )
    assert label(s, {"type": "place_colonist", "target": "quarry"})["label"] == "Place a colonist on a quarry"
