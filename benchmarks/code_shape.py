"""Figures about the code's shape, per package: functions, the share fully annotated, the longest function.

    python benchmarks/code_shape.py [ROOT]

``ROOT`` is a checkout (default: this one), so an older tree can be measured the same way
(``git worktree add --detach /tmp/old REV``). A function counts as annotated when its return and every
parameter but ``self``/``cls`` carry a type. The most complex functions come from ruff:
``ruff check --isolated --select C901 --config 'lint.mccabe.max-complexity=10' domain api workers eventstore``;
duplicated code from the ``duplicates`` tool, where it is installed.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGES = (
    "domain/puerto_rico",
    "domain/murano",
    "domain/amerigo",
    "domain/archipelago",
    "domain/bots",
    "eventstore",
    "workers",
    "api",
)


def annotated(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    params = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    params = [p for p in params if p.arg not in ("self", "cls")]
    params += [p for p in (node.args.vararg, node.args.kwarg) if p is not None]
    return node.returns is not None and all(p.annotation is not None for p in params)


def package_figures(root: Path, package: str) -> tuple[int, int, int, str]:
    total = typed = 0
    longest, where = 0, ""
    for path in sorted((root / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                total += 1
                typed += annotated(node)
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > longest:
                    longest, where = lines, f"{path.relative_to(root)}:{node.name}"
    return total, typed, longest, where


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1])
    for package in PACKAGES:
        if not (root / package).is_dir():
            continue
        total, typed, longest, where = package_figures(root, package)
        share = 100 * typed / total if total else 100.0
        print(f"{package:20} {total:4} functions, {share:5.1f}% annotated, longest {longest} lines ({where})")


if __name__ == "__main__":
    main()
