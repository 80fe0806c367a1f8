"""The API reaches the event store only through the game service (docs/design.md).

Import contracts (``lint-imports``) keep the layers pointing one way; they cannot see an attribute. This test
reads the endpoint modules and fails on any use of a ``store`` attribute: endpoints call ``GameService``
methods, and hand ``service().documents`` (the key-value documents only) to the workers' document helpers.
The operator's side (the CLI's migrations and key management, the readiness probe, the metrics scrape) holds
the runtime and may use its store.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OPERATOR_MODULES = {"cli.py", "meta.py", "observability.py"}


def store_uses(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(), filename=str(path))
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "store"]


def test_endpoints_reach_the_store_only_through_the_service():
    found = {
        path.name: lines
        for path in sorted((ROOT / "api").glob("*.py"))
        if path.name not in OPERATOR_MODULES and (lines := store_uses(path))
    }
    assert not found, f"endpoint modules using a store directly (module: lines): {found}"


def test_the_check_sees_a_store_attribute(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f(svc):\n    return svc.store.read('g', 1, 2)\n")
    assert store_uses(sample) == [2]
