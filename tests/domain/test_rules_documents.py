"""The rules documents live in the repository (docs/rules/) and the code cites them by path."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("puerto_rico", "murano", "amerigo", "archipelago")


def test_every_game_has_its_rules_document():
    for game in GAMES:
        text = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
        assert text.startswith("# "), game


def test_each_game_package_cites_its_own_rules_document():
    for game in GAMES:
        doc = (ROOT / "domain" / game / "__init__.py").read_text(encoding="utf-8")
        assert f"docs/rules/{game}.md" in doc, game


def test_code_cites_only_rules_documents_that_exist_and_never_the_shared_folder():
    cited: set[str] = set()
    for path in list((ROOT / "domain").rglob("*.py")) + list((ROOT / "benchmarks").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "shared/rules" not in text, path
        cited.update(re.findall(r"docs/rules/[a-z_]+\.md", text))
    assert cited
    for doc in cited:
        assert (ROOT / doc).is_file(), doc
