"""Which checkout's code a benchmark runs (used by ``mcts_speed.py`` and ``same_moves.py``, whose ``--against``
modes run one process per checkout and tell each which with ``--root DIR``)."""

from __future__ import annotations

from pathlib import Path


def code_root(argv: list[str]) -> Path:
    """The checkout whose code runs: ``--root DIR``, else the one this folder is in."""
    if "--root" in argv[:-1]:
        return Path(argv[argv.index("--root") + 1]).resolve()
    return Path(__file__).resolve().parent.parent
