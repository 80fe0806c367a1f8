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
