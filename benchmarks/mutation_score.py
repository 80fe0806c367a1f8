"""Mutation score of the rules engines and the bots, one package at a time (mutmut 3).

For each package named in ``[tool.tradewinds.mutation.packages]`` of pyproject.toml, mutmut mutates that
package only and runs that package's tests (``TRADEWINDS_PROPERTY_GAMES`` property games) against every
mutant. Each package works in a directory of its own, ``.mutation/<package>/`` (a fresh copy of ``domain/``,
``tests/`` and a pyproject.toml whose ``[tool.mutmut]`` is the project's plus the package's paths), so the
packages never share results.

Runs are resumable: mutmut records every verdict as it comes, and a new run tests only the mutants without
one (and those whose function changed). ``--budget-minutes`` bounds each package's run; stop at any time and
run the same command again to go on. ``--sample F`` tests a seeded random fraction of the mutants (a
SHA-256 of the seed and mutmut's mutant name, so the same F and seed pick the same mutants while the code is
unchanged).

A surviving mutant that cannot change behaviour is listed, with a one-line reason, in
tests/mutation_equivalents.toml, keyed by file, original line and mutated line (never by mutmut's index,
which shifts when the code changes). The score is killed / (tested - equivalent), timeouts counting as
killed.

Run from the repo root (see docs/testing.md):

    nice -n 19 .venv/bin/python benchmarks/mutation_score.py domain/puerto_rico --budget-minutes 30
    .venv/bin/python benchmarks/mutation_score.py --report        # figures only, runs nothing
    .venv/bin/python benchmarks/mutation_score.py domain/bots --survivors   # list the survivors
    nice -n 19 .venv/bin/python benchmarks/mutation_score.py domain/bots --ref main   # the score at main
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".mutation"
EQUIVALENTS = ROOT / "tests" / "mutation_equivalents.toml"

KILLED = {1, 3, 36, -24, 24, 152, 255, 37}  # test failure, pytest error, timeout, type check
SURVIVED = {0}
NO_TESTS = {5, 33}


def settings() -> tuple[dict, dict]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    return data["tool"].get("mutmut", {}), data["tool"]["tradewinds"]["mutation"]


def workdir(package: str, ref: str | None = None) -> Path:
    name = package.replace("/", "_")
    return WORK / (f"{name}@{ref.replace('/', '_')}" if ref else name)


def prepare(package: str, tests: str, ref: str | None = None) -> Path:
    """Refresh the package's working copy (from the work tree, or from git revision ``ref``); mutmut's
    results under mutants/ are kept."""
    base, _ = settings()
    wd = workdir(package, ref)
    wd.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("domain", "tests"):
        shutil.rmtree(wd / name, ignore_errors=True)
        if ref is None:
            shutil.copytree(ROOT / name, wd / name, ignore=ignore)
    if ref is not None:
        archive = subprocess.run(["git", "archive", ref, "domain", "tests"], cwd=ROOT, check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", str(wd)], input=archive.stdout, check=True)
    conf = dict(base)
    conf["source_paths"] = ["domain"]
    conf["only_mutate"] = [f"{package}/*"]
    conf["pytest_add_cli_args_test_selection"] = [tests]
    lines = ["[tool.mutmut]"]
    for key, value in conf.items():
        lines.append(f"{key} = {json.dumps(value)}")
    (wd / "pyproject.toml").write_text("\n".join(lines) + "\n", "utf-8")
    return wd


@dataclass
class Mutant:
    name: str
    file: str
    exit_code: int | None
    key: tuple[str, str, str] = ("", "", "")
    diff: str = ""


@dataclass
class Figures:
    generated: int = 0
    tested: int = 0
    killed: int = 0
    survived: int = 0
    timeout: int = 0
    no_tests: int = 0
    other: int = 0
    by_hand: int = 0
    equivalent: list[Mutant] = field(default_factory=list)
    survivors: list[Mutant] = field(default_factory=list)

    @property
    def score(self) -> float | None:
        judged = self.killed + len(self.survivors)
        return None if judged == 0 else 100.0 * self.killed / judged


def read_mutants(wd: Path, package: str) -> list[Mutant]:
    found = []
    for meta in sorted((wd / "mutants" / package).rglob("*.py.meta")):
        data = json.loads(meta.read_text("utf-8"))
        file = str(meta.relative_to(wd / "mutants"))[: -len(".meta")]
        for name, code in data["exit_code_by_key"].items():
            found.append(Mutant(name=name, file=file, exit_code=code))
    return found


def describe(wd: Path, mutants: list[Mutant]) -> None:
    """Fill each mutant's stable key (file, original line, mutated line) from mutmut's diff."""
    if not mutants:
        return
    old = os.getcwd()
    os.chdir(wd)
    sys.path.insert(0, str(wd / "mutants"))
    try:
        from mutmut.mutation.diff_apply import get_diff_for_mutant

        for m in mutants:
            diff = get_diff_for_mutant(m.name, path=m.file)
            removed = [ln[1:].strip() for ln in diff.splitlines() if ln.startswith("-") and not ln.startswith("---")]
            added = [ln[1:].strip() for ln in diff.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
            m.key = (m.file, " ".join(removed), " ".join(added))
            m.diff = diff
    finally:
        os.chdir(old)
        sys.path.remove(str(wd / "mutants"))


def function_of(name: str) -> str:
    """The mutated function of a mutmut mutant name: 'pkg.mod.x__f__mutmut_3' -> '_f',
    'pkg.mod.xǁCǁm__mutmut_1' -> 'C.m'."""
    short = name.rsplit(".", 1)[-1].rsplit("__mutmut_", 1)[0]
    if short.startswith("xǁ"):
        return short[2:].replace("ǁ", ".")
    return short[2:] if short.startswith("x_") else short


def equivalents(table: str = "equivalent") -> list[dict[str, str]]:
    """Entries of the equivalents list: file, line, mutant, reason and optionally function (needed
    when the same line occurs in several functions of the file). ``table="killed_by_hand"``: mutants in
    code that runs only at import time, where mutmut cannot switch them on; each names the test that
    fails when the mutant is applied by hand."""
    if not EQUIVALENTS.exists():
        return []
    entries = tomllib.loads(EQUIVALENTS.read_text("utf-8")).get(table, [])
    for e in entries:
        if not e.get("reason", "").strip():
            raise SystemExit(f"{EQUIVALENTS}: an entry without a reason: {e}")
        if table == "killed_by_hand" and not e.get("test", "").strip():
            raise SystemExit(f"{EQUIVALENTS}: a killed_by_hand entry without its test: {e}")
    return entries


def is_listed(m: Mutant, table: list[dict[str, str]]) -> bool:
    for e in table:
        if (e["file"], e["line"].strip(), e["mutant"].strip()) == m.key:
            if e.get("function") in (None, function_of(m.name)):
                return True
    return False


def figures(wd: Path, package: str, sample: set[str] | None = None, by_hand_too: bool = True) -> Figures:
    mutants = read_mutants(wd, package)
    if sample is not None:
        mutants = [m for m in mutants if m.name in sample]
    f = Figures(generated=len(mutants))
    table = equivalents()
    by_hand = equivalents("killed_by_hand") if by_hand_too else []  # their tests are the work tree's
    unexplained = []
    for m in mutants:
        if m.exit_code is None:
            continue
        f.tested += 1
        if m.exit_code in KILLED:
            f.killed += 1
            f.timeout += m.exit_code in {36, -24, 24, 152, 255}
        elif m.exit_code in SURVIVED:
            unexplained.append(m)
        elif m.exit_code in NO_TESTS:
            f.no_tests += 1
            unexplained.append(m)  # no test reaches it: as good as a survivor
        else:
            f.other += 1
    describe(wd, unexplained)
    for m in unexplained:
        if is_listed(m, table):
            f.equivalent.append(m)
        elif m.exit_code in SURVIVED and is_listed(m, by_hand):
            f.killed += 1
            f.by_hand += 1
        else:
            f.survivors.append(m)
    f.survived = sum(1 for m in f.survivors if m.exit_code in SURVIVED)
    return f


def stable_pick(wd: Path, package: str, fraction: float, seed: str) -> set[str]:
    """A seeded fraction of the mutants, chosen by a SHA-256 of the seed and the mutant's name."""
    picked = set()
    for m in read_mutants(wd, package):
        digest = hashlib.sha256(f"{seed}|{m.name}".encode()).digest()
        if int.from_bytes(digest[:8], "big") / 2**64 < fraction:
            picked.add(m.name)
    return picked


def generate(wd: Path) -> None:
    """Write the mutants (and mutmut's meta files) without testing any."""
    code = (
        "import sys; from mutmut.__main__ import copy_src_dir, copy_also_copy_files, create_mutants;"
        "copy_src_dir(); copy_also_copy_files(); create_mutants(1)"
    )
    subprocess.run([sys.executable, "-c", code], cwd=wd, check=True, stdout=subprocess.DEVNULL)


def run(wd: Path, names: list[str] | None, budget_s: float, children: int, games: int) -> str:
    """Run mutmut within the budget; how it ended: finished, stopped by the budget, or failed (see its log)."""
    mutmut = Path(sys.executable).parent / "mutmut"
    cmd = ["nice", "-n", "19", str(mutmut), "run", "--max-children", str(children), *(names or [])]
    # -n 0: the tests run in mutmut's own process, not spread by pytest-xdist (pyproject.toml's addopts), which
    # would hide from mutmut which tests reach which function (it then finds no test for any mutant)
    addopts = " ".join(filter(None, [os.environ.get("PYTEST_ADDOPTS", ""), "-n 0"]))
    env = dict(os.environ, TRADEWINDS_PROPERTY_GAMES=str(games), PYTHONDONTWRITEBYTECODE="1", PYTEST_ADDOPTS=addopts)
    log = open(wd / "mutmut-run.log", "a")  # noqa: SIM115
    proc = subprocess.Popen(cmd, cwd=wd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        proc.wait(timeout=budget_s)
        if proc.returncode:
            return f"mutmut failed (exit {proc.returncode}; see {wd / 'mutmut-run.log'})"
        return "finished"
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)  # verdicts are saved one by one: those so far stay
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        return "stopped by the budget"
    finally:
        log.close()


def show(package: str, f: Figures, note: str = "") -> None:
    score = "-" if f.score is None else f"{f.score:.1f}%"
    print(
        f"{package:<20} generated {f.generated:>5}  tested {f.tested:>5}  killed {f.killed:>5}"
        f"  (timeout {f.timeout}, by hand {f.by_hand})  survived {f.survived:>4}  no-tests {f.no_tests:>3}"
        f"  equivalent {len(f.equivalent):>3}  score {score}{note}"
    )


def main() -> None:
    _, conf = settings()
    packages: dict[str, str] = conf["packages"]
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("packages", nargs="*", help=f"default: all of {', '.join(packages)}")
    p.add_argument("--budget-minutes", type=float, default=60.0, help="per package; the run resumes next time")
    p.add_argument("--sample", type=float, default=None, help="test only this seeded fraction of the mutants")
    p.add_argument("--seed", default="tradewinds")
    p.add_argument("--max-children", type=int, default=conf.get("max_children", 1))
    p.add_argument("--games", type=int, default=conf.get("property_games", 2), help="TRADEWINDS_PROPERTY_GAMES")
    p.add_argument("--report", action="store_true", help="print the figures of past runs, run nothing")
    p.add_argument("--survivors", action="store_true", help="also print each surviving mutant's diff")
    p.add_argument("--ref", default=None, help="mutate and test this git revision's domain/ and tests/ (e.g. main)")
    p.add_argument(
        "--retest-survivors",
        action="store_true",
        help="test only the past survivors again (after adding tests); killed verdicts stand",
    )
    p.add_argument("--fresh", action="store_true", help="forget past verdicts of these packages first")
    a = p.parse_args()
    chosen = a.packages or list(packages)
    for package in chosen:
        if package not in packages:
            raise SystemExit(f"unknown package {package!r}; known: {', '.join(packages)}")
    for package in chosen:
        wd = workdir(package, a.ref)
        if a.fresh:
            shutil.rmtree(wd, ignore_errors=True)
        note = ""
        sample = None
        if not a.report:
            wd = prepare(package, packages[package], a.ref)
            names = None
            if a.sample is not None or a.retest_survivors:
                generate(wd)
                wanted = SURVIVED | NO_TESTS if a.retest_survivors else {None}
                mutants = read_mutants(wd, package)
                if a.sample is not None:
                    sample = stable_pick(wd, package, a.sample, a.seed)
                    mutants = [m for m in mutants if m.name in sample]
                    note = f"  (sample {a.sample:g}, seed {a.seed!r}: {len(sample)} mutants)"
                names = sorted(m.name for m in mutants if m.exit_code in wanted)
            started = time.monotonic()
            ended = (
                run(wd, names, a.budget_minutes * 60, a.max_children, a.games) if names is None or names else "finished"
            )
            note += f"  [{ended} in {time.monotonic() - started:.0f}s]"
        elif a.sample is not None and (wd / "mutants").exists():
            sample = stable_pick(wd, package, a.sample, a.seed)
            note = f"  (sample {a.sample:g}, seed {a.seed!r})"
        if not (wd / "mutants").exists():
            print(f"{package:<20} no run yet")
            continue
        f = figures(wd, package, sample, by_hand_too=a.ref is None)
        show(package, f, note)
        if a.survivors:
            for m in f.survivors:
                status = "no tests" if m.exit_code in NO_TESTS else "survived"
                print(f"--- {m.name} ({status})\n{m.diff}")


if __name__ == "__main__":
    main()
