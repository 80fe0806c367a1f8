"""Machine instructions of one child process, counted by valgrind's callgrind (used by the ``--instructions``
modes of ``request_cpu.py`` and ``mcts_speed.py``): a count repeats whatever else the machine runs."""

from __future__ import annotations

import os
import re
import shutil
import subprocess


def available() -> bool:
    return shutil.which("valgrind") is not None


def instructions(command: list[str], what: str) -> int:
    """Instructions callgrind counts for ``command`` (run with a fixed hash seed); ``what`` names it in errors."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
        check=False,
    )
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    if done.returncode or found is None:
        raise SystemExit(f"callgrind run failed ({what}):\n{done.stderr[-2000:]}")
    return int(found.group(1))
