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


# Games whose modules cite their rules document's sections (every game).
CITING_GAMES = ("puerto_rico", "murano", "amerigo", "archipelago")


def _headings(game: str) -> set[str]:
    text = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    return set(re.findall(r"^#+\s+(\d+[a-z]?(?:\.\d+[a-z]?)*)[.\s]", text, re.M))


def test_a_module_citing_sections_names_its_document_and_every_section_exists():
    for game in CITING_GAMES:
        headings = _headings(game)
        text_of_doc = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
        for path in sorted((ROOT / "domain" / game).glob("*.py")):
            text = path.read_text(encoding="utf-8")
            sections = set(re.findall(r"§(\d+(?:\.\d+)*)", text))
            rulings = set(re.findall(r"\b([DQ]\d+)\b", text))
            if not sections and not rulings:
                continue
            assert f"docs/rules/{game}.md" in text, f"{path} cites sections without naming docs/rules/{game}.md"
            assert sections <= headings, f"{path} cites sections the document lacks: {sorted(sections - headings)}"
            for ruling in rulings:
                assert re.search(rf"\b{ruling}\b", text_of_doc), f"{path} cites {ruling}, not in the document"
