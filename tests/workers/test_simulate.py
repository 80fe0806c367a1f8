import json

import pytest

from domain import registry
from tests.support.secret_game import RULES
from workers.simulate import Progress, format_summary, main, outcome_counts, plan, summarise, wilson_interval


@pytest.fixture
def secret_registered():
    registry.register(RULES)
    yield RULES.name
    registry.unregister(RULES.name)


def run(capsys, argv):
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_end_to_end_in_process(capsys, tmp_path, secret_registered):
    out = tmp_path / "games.jsonl"
    argv = [
        "--game",
        secret_registered,
        "--seats",
        "mcts:30,greedy,random",
        "--games",
        "9",
        "--jobs",
        "1",
        "--seed",
        "7",
        "--out",
        str(out),
    ]
    code, stdout, stderr = run(capsys, argv)
    assert code == 0
    assert "mcts:30" in stdout and "greedy" in stdout and "random" in stdout
    assert "95% CI" in stdout and "mean game length: 9.0 decisions" in stdout
    assert "progress: 9/9 games" in stderr  # not a TTY: plain progress lines
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 9
    for index, record in enumerate(lines):
        assert record["game"] == index
        assert set(record) >= {"seed", "seating", "scores", "ranks", "details", "decisions"}
        assert len(record["scores"]) == len(record["ranks"]) == len(record["seating"]) == 3
        assert record["decisions"] == 9
    # rotation: every policy sat in every seat equally often, and each block of 3 shares its deal
    for seat in range(3):
        assert sorted(r["seating"][seat] for r in lines) == sorted(["mcts:30", "greedy", "random"] * 3)
    assert len({r["seed"] for r in lines[:3]}) == 1 and lines[0]["seed"] != lines[3]["seed"]


def test_same_seed_same_output_with_one_or_two_jobs(capsys, tmp_path, secret_registered):
    outputs, files = [], []
    for jobs in ("1", "2", "2"):
        path = tmp_path / f"run{len(files)}.jsonl"
        argv = [
            "--game",
            secret_registered,
            "--seats",
            "mcts:20,random",
            "--games",
            "8",
            "--jobs",
            jobs,
            "--seed",
            "11",
            "--out",
            str(path),
        ]
        code, stdout, _ = run(capsys, argv)
        assert code == 0
        outputs.append(stdout)
        files.append(path.read_text())
    assert outputs[0] == outputs[1] == outputs[2]
    assert files[0] == files[1] == files[2]
    code, other, _ = run(capsys, argv[:-4] + ["--seed", "12"])
    assert code == 0 and other != outputs[0]


def test_game_module_registers_the_game(capsys):
    registry.unregister(RULES.name)
    try:
        code, stdout, _ = run(
            capsys,
            [
                "--game-module",
                "tests.support.secret_game",
                "--seats",
                "easy,random",
                "--games",
                "4",
                "--jobs",
                "2",
                "--seed",
                "1",
                "--no-progress",
                "--options",
                '{"rounds": 2}',
            ],
        )
        assert code == 0
        assert "game secret_numbers: 4 games" in stdout
        assert "mean game length: 4.0 decisions" in stdout
    finally:
        registry.unregister(RULES.name)


def test_no_rotate_keeps_the_seating(capsys, tmp_path, secret_registered):
    path = tmp_path / "fixed.jsonl"
    code, stdout, _ = run(
        capsys,
        [
            "--game",
            secret_registered,
            "--seats",
            "greedy,random",
            "--games",
            "4",
            "--no-rotate",
            "--seed",
            "3",
            "--out",
            str(path),
            "--no-progress",
        ],
    )
    assert code == 0 and "fixed seating" in stdout
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert all(r["seating"] == ["greedy", "random"] for r in records)
    assert len({r["seed"] for r in records}) == 4


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--game", "no_such_game", "--seats", "random,random"], "unknown game"),
        (["--game", "secret_numbers", "--seats", "random,wizard"], "unknown bot or level"),
        (["--game", "secret_numbers", "--seats", ",".join(["random"] * 7)], "takes 1..6 seats"),
        (["--game", "secret_numbers", "--seats", "random", "--options", '{"rounds": 0}'], "bad --options"),
        (["--game", "secret_numbers", "--seats", "random", "--games", "0"], "at least 1"),
        (["--game", "secret_numbers", "--seats", "random", "--time-limit", "0"], "no game finished"),
    ],
)
def test_usage_errors(capsys, secret_registered, argv, message):
    code, _, stderr = run(capsys, argv)
    assert code == 2
    assert message in stderr


def test_missing_seats_is_a_usage_error(capsys):
    code, _, stderr = run(capsys, ["--game", "secret_numbers"])
    assert code == 2 and "--seats" in stderr


def test_wilson_interval():
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-3) and high == pytest.approx(0.7634, abs=1e-3)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_ties_share_wins():
    records = [
        {"seating": ["a", "b", "c"], "scores": [5, 5, 1], "ranks": [1, 1, 3], "decisions": 3},
        {"seating": ["c", "a", "b"], "scores": [9, 2, 1], "ranks": [1, 2, 3], "decisions": 3},
    ]
    stats = {s.policy: s for s in summarise(records, ["a", "b", "c"])}
    assert stats["a"].wins == 0.5 and stats["b"].wins == 0.5 and stats["c"].wins == 1.0
    assert stats["a"].games == 2 and stats["a"].rank == 3


def test_duplicate_policies_are_pooled():
    tasks = plan("secret_numbers", None, ["random", "random", "greedy"], 6, seed=1)
    stats = summarise(
        [{"seating": list(t.seating), "scores": [1, 2, 3], "ranks": [3, 2, 1], "decisions": 3} for t in tasks],
        ["random", "random", "greedy"],
    )
    assert [(s.policy, s.games) for s in stats] == [("random", 12), ("greedy", 6)]


def test_progress_lines_when_not_a_tty(tmp_path):
    class Stream:
        def __init__(self):
            self.text = ""

        def write(self, text):
            self.text += text

        def flush(self):
            pass

        def isatty(self):
            return False

    stream = Stream()
    progress = Progress(25, stream)
    for _ in range(25):
        progress.step()
    lines = stream.text.splitlines()
    assert 2 <= len(lines) <= 12 and lines[-1].startswith("progress: 25/25 games")

    tty = Stream()
    tty.isatty = lambda: True
    bar = Progress(3, tty)
    for _ in range(3):
        bar.step()
    assert "\r[" in tty.text and "3/3 games" in tty.text and tty.text.endswith("\n")


def test_time_limit_reports_whole_rotation_blocks(capsys, tmp_path, secret_registered, monkeypatch):
    import workers.simulate as simulate

    calls = {"n": 0}
    real_play = simulate.play_game

    def play_then_expire(task, rules=None):
        calls["n"] += 1
        if calls["n"] == 5:  # the clock "runs out" after the fifth game
            monkeypatch.setattr(simulate.time, "monotonic", lambda: float("inf"))
        return real_play(task, rules)

    monkeypatch.setattr(simulate, "play_game", play_then_expire)
    path = tmp_path / "partial.jsonl"
    code, stdout, stderr = run(
        capsys,
        [
            "--game",
            secret_registered,
            "--seats",
            "greedy,random",
            "--games",
            "10",
            "--seed",
            "1",
            "--time-limit",
            "1000",
            "--out",
            str(path),
        ],
    )
    assert code == 0
    assert "game secret_numbers: 4 games" in stdout
    assert "reporting the first 4 of 10 games" in stderr
    assert len(path.read_text().splitlines()) == 4


def test_games_nobody_won_are_no_shared_wins():
    records = [
        {"seating": ["a", "b"], "scores": [5, 1], "ranks": [1, 2], "decisions": 3},
        # nobody won: every seat has rank 1, but none of them gets a (shared) win
        {"seating": ["b", "a"], "scores": [3, 3], "ranks": [1, 1], "no_winner": True, "decisions": 3},
        {
            "seating": ["a", "b"],
            "scores": [0, 0],
            "ranks": [1, 1],
            "no_winner": True,
            "aborted": "aborted",
            "decisions": 400,
        },
    ]
    stats = {s.policy: s for s in summarise(records, ["a", "b"])}
    assert stats["a"].wins == 1.0 and stats["b"].wins == 0.0
    assert stats["a"].games == stats["b"].games == 1
    assert outcome_counts(records) == {"decided": 1, "aborted": 1, "no_winner": 1}
    text = format_summary("g", records, ["a", "b"], 1, True)
    assert "decided 1, aborted 1, no winner 1" in text


def test_a_game_cut_by_max_decisions_is_reported_as_aborted(capsys, tmp_path, secret_registered):
    out = tmp_path / "games.jsonl"
    argv = [
        "--game",
        secret_registered,
        "--seats",
        "random,random",
        "--games",
        "2",
        "--seed",
        "3",
        "--max-decisions",
        "2",
        "--out",
        str(out),
        "--no-progress",
    ]
    code, stdout, _ = run(capsys, argv)
    assert code == 0
    assert "decided 0, aborted 2, no winner 0" in stdout
    for line in out.read_text().splitlines():
        record = json.loads(line)
        assert record["aborted"] == "max_decisions" and record["no_winner"] is True
        assert record["decisions"] == 2


@pytest.mark.parametrize("jobs", [1, 2])
def test_each_record_is_handed_over_as_its_game_ends(secret_registered, jobs):
    """``run(on_record=...)`` gets every game's record as the game ends (a long run keeps what it played)."""
    from workers.simulate import run as run_games

    tasks = plan(secret_registered, None, ["greedy", "random"], 6, 3, rotate=True)
    seen: list[dict] = []
    records = run_games(tasks, jobs, Progress(len(tasks), None, enabled=False), None, None, seen.append)
    assert len(records) == 6
    assert sorted(r["game"] for r in seen) == [r["game"] for r in records]
    assert {r["game"]: r["ranks"] for r in seen} == {r["game"]: r["ranks"] for r in records}
