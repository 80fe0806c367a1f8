"""The committed OpenAPI document is what the code generates, and the app honours it (schemathesis)."""

from __future__ import annotations

from pathlib import Path

import yaml

from api.cli import openapi_document

ROOT = Path(__file__).resolve().parents[2]


def test_committed_openapi_matches_the_code():
    committed = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    assert committed == openapi_document(), "openapi.yaml is stale: run `tradewinds openapi` and commit it"


def test_every_operation_documents_its_errors_as_problem_json():
    doc = openapi_document()
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            assert "default" not in operation["responses"], f"{method} {path} has a catch-all response"
            errors = [code for code in operation["responses"] if code.startswith(("4", "5"))]
            for code in errors:
                content = operation["responses"][code]["content"]
                if code == "503" and path in ("/health", "/readyz"):  # the probes' own body
                    continue
                assert "application/problem+json" in content, f"{method} {path} {code}"
