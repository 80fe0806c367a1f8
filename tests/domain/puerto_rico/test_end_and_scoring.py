"""Game end (§7), final scoring with the large buildings and the tie-break (§8)."""

from __future__ import annotations

from domain.puerto_rico import RULES
from domain.puerto_rico.scoring import score, score_breakdown
from tests.domain.puerto_rico.helpers import act, give, new_game, of_type, pick, play_passes, refused, types


def test_guild_hall_example():
    s = new_game(4)
    give(
        s,
        0,
        buildings={
            "guild_hall": 1,
            "small_sugar_mill": 0,
            "sugar_mill": 0,
            "small_indigo_plant": 0,
            "coffee_roaster": 0,
        },
    )
    b = score_breakdown(s.players[0])
    assert b["bonus_guild_hall"] == 6 and b["buildings"] == 4 + 1 + 2 + 1 + 3


def test_residence_counts_filled_island_spaces():
    s = new_game(4)
    give(s, 0, buildings={"residence": 1}, tiles={"corn": (9, 0)})  # + the starting indigo = 10
    assert score_breakdown(s.players[0])["bonus_residence"] == 5  # D22: occupied or not
    for tiles, bonus in ((7, 4), (8, 4), (10, 6), (11, 7)):
        give(s, 0, tiles={"corn": (tiles, 0)})
        assert score_breakdown(s.players[0])["bonus_residence"] == bonus


def test_fortress_counts_every_colonist_including_san_juan():
    s = new_game(4)
    give(s, 0, buildings={"fortress": 1, "indigo_plant": 3}, tiles={"corn": (5, 5), "quarry": (3, 3)}, san_juan=8)
    assert s.players[0].colonists() == 20
    assert score_breakdown(s.players[0])["bonus_fortress"] == 6  # D21


def test_customs_house_counts_chips_including_owed_vp():
    s = new_game(4)
    give(s, 0, buildings={"customs_house": 1}, vp=17)
    s.players[0].vp_owed = 2
    assert score_breakdown(s.players[0])["bonus_customs_house"] == 4


def test_city_hall_counts_violet_buildings_including_itself():
    s = new_game(4)
    give(
        s,
        0,
        buildings={"city_hall": 1, "guild_hall": 0, "small_market": 0, "harbor": 0, "factory": 0, "indigo_plant": 0},
    )
    assert score_breakdown(s.players[0])["bonus_city_hall"] == 5


def test_unoccupied_large_building_scores_only_its_printed_vp():
    s = new_game(4)
    give(s, 0, buildings={"city_hall": 0, "fortress": 0}, san_juan=9)
    b = score_breakdown(s.players[0])
    assert b["total"] == 8 and "bonus_city_hall" not in b and "bonus_fortress" not in b  # D28


def test_score_adds_chips_owed_vp_and_buildings():
    s = new_game(4)
    give(s, 2, vp=12, buildings={"harbor": 0, "small_market": 1})
    s.players[2].vp_owed = 3
    assert score(s.players[2]) == 12 + 3 + 3 + 1


def _end_now(s):
    """Finish the current round with picks of roles that need no decision."""
    events = []
    while not RULES.is_over(s):
        if s.phase == "pick":
            options = RULES.legal_commands(s, s.current)
            choice = next((c for c in options if c["role"].startswith("prospector")), options[0])
            new, s = act(s, choice)
        else:
            options = RULES.legal_commands(s, s.current)
            new, s = act(s, {"type": "pass"} if {"type": "pass"} in options else options[0])
        events += new
    return s, events


def test_tiebreak_doubloons_plus_goods_then_shared():
    s = new_game(4)
    give(s, 0, vp=10, doubloons=2, goods={"corn": 3})
    give(s, 1, vp=10, doubloons=4, goods={"corn": 0})
    give(s, 2, vp=10, doubloons=5)
    give(s, 3, vp=3)
    result = RULES.result(s)
    assert result.scores[:3] == [10, 10, 10]
    assert result.tiebreaks[:3] == [5, 4, 5]
    assert result.ranks == [1, 3, 1, 4]  # seats 0 and 2 share the win


def test_game_ends_after_the_round_in_which_a_trigger_fired():
    s = new_game(4)
    s.colonist_supply = 3
    _, s = pick(s, "mayor", 0)
    events, s = act(s, {"type": "pass"})
    assert s.triggers == ["colonists"] and not RULES.is_over(s)
    roles = iter(["prospector", "builder", "craftsman"])
    while not RULES.is_over(s):
        if s.phase == "pick":
            events, s = act(s, {"type": "select_role", "role": next(roles)})
        else:
            events, s = act(s, {"type": "pass"})
    assert types(events)[-2:] == ["RoundEnded", "GameEnded"]
    assert events[-1]["aborted"] is False and events[-1]["triggers"] == ["colonists"]
    assert s.governor == 0 and s.round == 1  # the governor card does not pass
    refused(s, {"type": "pass"}, code="game_over")
    assert RULES.to_act(s) == set() and RULES.legal_commands(s, 1) == []
    final = RULES.reveal_all(s)
    assert final["game_over"] and "face_down_stack" in final


def test_vp_trigger_also_lets_the_round_finish():
    s = new_game(4)
    s.vp_supply = 1
    s.players[3].vp = 99
    give(s, 1, goods={"corn": 7})
    events, s = pick(s, "captain", 0)
    assert s.triggers == ["victory_points"] and s.players[1].vp_owed == 6 and not RULES.is_over(s)
    s, events = _end_now(s)
    assert RULES.is_over(s) and s.round == 1
    assert of_type(events, "GameEnded")[0]["triggers"] == ["victory_points"]


def test_safety_guard_aborts_overlong_games():
    s = new_game(3, max_rounds=5)
    s.round = 5
    for _ in range(3):
        _, s = act(s, {"type": "select_role", "role": [c["role"] for c in RULES.legal_commands(s, s.current)][-1]})
        s = play_passes(s)
    assert RULES.is_over(s) and s.aborted and RULES.result(s).details["aborted"] is True
