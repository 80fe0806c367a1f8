"""Type-check gate: mypy (configured in pyproject.toml) with a ratchet that only goes down.

Prints the error count of every package and fails when one exceeds its ceiling in
``[tool.tradewinds.mypy-ratchet]``. Lower a ceiling whenever a package gets cleaner; never raise one.
Run: ``python .ci/mypy_ratchet.py``.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["api", "domain", "eventstore", "workers"]


def group_of(path: str) -> str:
    parts = Path(path).parts
    if parts[0] == "domain" and len(parts) > 2:
        return "/".join(parts[:2])
    return parts[0]


def main() -> int:
    ceilings: dict[str, int] = (
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"].get("tradewinds", {}).get("mypy-ratchet", {})
    )
    run = subprocess.run([sys.executable, "-m", "mypy", *PACKAGES], cwd=ROOT, capture_output=True, text=True)
    counts: Counter[str] = Counter()
    for line in run.stdout.splitlines():
        match = re.match(r"^([^:]+\.py):\d+: error:", line)
        if match:
            counts[group_of(match.group(1))] += 1
    if run.returncode not in (0, 1) or (run.returncode == 1 and not counts):
        print(run.stdout + run.stderr)
        return 2
    failed = False
    for group in sorted(set(counts) | set(ceilings)):
        ceiling = ceilings.get(group, 0)
        mark = "ok" if counts[group] <= ceiling else "OVER"
        failed |= counts[group] > ceiling
        print(f"mypy {group:<22} {counts[group]:>4} errors (ceiling {ceiling}) {mark}")
    print(f"mypy total {sum(counts.values())} errors")
    if failed:
        print(run.stdout)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
