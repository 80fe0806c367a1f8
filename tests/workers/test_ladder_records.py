"""``benchmarks/bot_ladder.py --from-records``: the table of a run read back from its records, pooled over runs."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _ladder():
    spec = importlib.util.spec_from_file_location("bot_ladder", ROOT / "benchmarks" / "bot_ladder.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("| murano")]


def test_the_records_give_back_the_table_of_the_run_and_runs_pool_by_complete_blocks(tmp_path, capsys):
    ladder = _ladder()
    first, second = tmp_path / "seed1.jsonl", tmp_path / "seed2.jsonl"
    args = ["--games-list", "murano", "--players", "2", "--rungs", "easy/random", "--min-share", "0"]
    ladder.main(["4", *args, "--seed", "1", "--records", str(first)])
    played = _rows(capsys.readouterr().out)
    ladder.main(["0", "--from-records", str(first), "--min-share", "0"])
    read = _rows(capsys.readouterr().out)
    # the same games, shares, means and command types; only the last column (seconds / games outside) differs
    assert [r.rsplit("|", 2)[0] for r in read] == [r.rsplit("|", 2)[0] for r in played]
    assert "| 0 games outside blocks |" in read[0]

    ladder.main(["2", *args, "--seed", "2", "--records", str(second)])
    capsys.readouterr()
    lines = second.read_text().splitlines()
    second.write_text("\n".join(lines[:1]) + "\n")  # a run stopped inside its first block
    ladder.main(["0", "--from-records", str(first), str(second), str(first)])
    out = capsys.readouterr()
    pooled = _rows(out.out)
    assert pooled[0].startswith("| murano | 2 | easy vs random | 4 (")  # seed 1's two blocks, read once
    assert "| 1 games outside blocks |" in pooled[0]
    assert "4 repeated game(s) read once" in out.err

    records = [json.loads(line) for line in first.read_text().splitlines()]
    assert {r["game_type"] for r in records} == {"murano"}
    kept, left, repeated = ladder.whole_blocks(records + records[:1])
    assert (len(kept), left, repeated) == (4, 0, 1)
    kept, left, repeated = ladder.whole_blocks(records[:3])
    assert (len(kept), left, repeated) == (2, 1, 0)


def test_a_rung_of_one_policy_against_itself_and_a_cut_off_last_line(tmp_path, capsys):
    """A rung whose two sides are the same policy seats every game of a deal alike: the games of a block still
    count (told apart by their game number). A last line cut off by a killed run is left out, not fatal."""
    ladder = _ladder()
    records = tmp_path / "same.jsonl"
    ladder.main(["2", "--games-list", "murano", "--players", "2", "--rungs", "easy/easy", "--records", str(records)])
    capsys.readouterr()
    games = [json.loads(line) for line in records.read_text().splitlines()]
    assert games[0]["seating"] == games[1]["seating"] and games[0]["seed"] == games[1]["seed"]
    kept, left, repeated = ladder.whole_blocks(games)
    assert (len(kept), left, repeated) == (2, 0, 0)
    with records.open("a", encoding="utf-8") as out:
        out.write(records.read_text().splitlines()[0][:40])  # a game half written
    ladder.main(["0", "--from-records", str(records)])
    out = capsys.readouterr()
    assert _rows(out.out)[0].startswith("| murano | 2 | easy vs easy | 2 (")
    assert "not a whole record, left out" in out.err


def test_options_play_every_game_with_them_and_their_records_pool_apart(tmp_path, capsys):
    """``--options`` sets the game options of every game (Archipelago's MORE_FUN deals objectives to keep, so each
    seat chooses ``keep_objectives``); the records carry them, and read back they pool apart from games without."""
    ladder = _ladder()
    with_options, without = tmp_path / "more_fun.jsonl", tmp_path / "plain.jsonl"
    args = ["2", "--games-list", "archipelago", "--players", "2", "--rungs", "easy/random", "--min-share", "0"]
    ladder.main([*args, "--records", str(with_options), "--options", '{"more_fun": true}'])
    played = capsys.readouterr().out
    ladder.main([*args, "--records", str(without)])
    capsys.readouterr()
    records = [json.loads(line) for line in with_options.read_text().splitlines()]
    assert [r["options"] for r in records] == [{"more_fun": True}] * 2
    assert all(r["commands"][seat].get("keep_objectives") == 1 for r in records for seat in range(2))
    assert all("options" not in json.loads(line) for line in without.read_text().splitlines())
    assert not any(
        "keep_objectives" in c for line in without.read_text().splitlines() for c in json.loads(line)["commands"]
    )
    assert '| archipelago {"more_fun": true} | 2 | easy vs random | 2 (' in played

    ladder.main(["0", "--from-records", str(with_options), str(without), "--min-share", "0"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| archipelago")]
    assert [row.split(" | 2 |")[0] for row in rows] == ['| archipelago {"more_fun": true}', "| archipelago"]


def test_bad_options_stop_the_run_before_any_game_with_the_reason(tmp_path, capsys):
    ladder = _ladder()
    records = tmp_path / "none.jsonl"
    for options, reason in (
        ('{"more_fun": 1', "bad --options"),
        ("[1]", "not a JSON object"),
        ('{"x": 1}', "unknown option"),
    ):
        try:
            ladder.main(
                ["2", "--games-list", "archipelago", "--players", "2", "--options", options, "--records", str(records)]
            )
        except SystemExit as stop:
            assert stop.code == 2
        else:
            raise AssertionError(f"{options} was accepted")
        assert reason in capsys.readouterr().err
    assert not records.exists()
    # options that suit the first game of the list and not the second: refused before either is played
    try:
        ladder.main(["2", "--games-list", "archipelago,murano", "--players", "2", "--options", '{"more_fun": true}',
                     "--rungs", "easy/random", "--records", str(records)])  # fmt: skip
    except SystemExit as stop:
        assert stop.code == 2 and "bad --options for murano" in capsys.readouterr().err
    else:
        raise AssertionError("options murano does not take were accepted")
    assert not records.exists()
