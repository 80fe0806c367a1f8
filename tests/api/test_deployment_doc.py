"""docs/deployment.md works when pasted: every shell block is run, in order, against a scratch PostgreSQL database
and Redis (the `postgres` blocks) or in an empty folder (the `sqlite` blocks).

A shell block is marked by the comment line before it: `<!-- deploy: settings -->` (the settings, replaced by
this test's own values for the same variables), `<!-- deploy: postgres -->` or `<!-- deploy: sqlite -->`. The
ports the trial processes listen on are replaced by free ones, as the README test does with 8000.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.api.test_serve import free_port
from tests.support.services import postgres_base_url, scratch_postgres_database, with_dbname

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "deployment.md").read_text()
BLOCK = re.compile(r"(?:<!-- deploy: (\w+) -->\n)?```sh\n(.*?)```", re.S)
PORTS = ("8001", "8002", "9101", "9102")


def blocks(kind: str) -> list[str]:
    return [body for marker, body in BLOCK.findall(DOC) if marker == kind]


def test_every_shell_block_is_marked_and_the_settings_name_what_the_test_sets():
    markers = [marker for marker, _ in BLOCK.findall(DOC)]
    assert markers and all(m in ("settings", "postgres", "sqlite") for m in markers), markers
    (settings,) = blocks("settings")
    names = re.findall(r"^export (\w+)=", settings, re.M)
    assert names == [
        "TRADEWINDS_DATABASE_URL",
        "TRADEWINDS_REDIS_URL",
        "TRADEWINDS_SIGNING_KEY_FILE",
        "TRADEWINDS_METRICS_TOKEN",
    ]


def run_script(script: str, cwd: Path, env: dict[str, str], timeout: float = 300) -> subprocess.CompletedProcess:
    # background processes the blocks start are stopped when the script ends, however it ends
    prelude = (
        "set -euo pipefail\ntrap 'status=$?; kill $(jobs -p) 2>/dev/null || true; wait || true; exit $status' EXIT\n"
    )
    return subprocess.run(
        ["bash", "-c", prelude + script], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def base_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TRADEWINDS_", "PROMETHEUS_"))}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"  # `tradewinds` of this install
    env["PYTHONPATH"] = str(ROOT)
    return env


def drop_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(with_dbname(postgres_base_url(), "postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.skipif(
    not all(shutil.which(t) for t in ("curl", "pg_dump", "pg_restore", "createdb", "psql")),
    reason="needs curl and the PostgreSQL client tools",
)
def test_the_postgres_deployment_works_when_pasted(tmp_path, redis_url):
    with scratch_postgres_database("tradewinds_deploy") as database_url:
        settings = {
            "TRADEWINDS_DATABASE_URL": database_url,
            "TRADEWINDS_REDIS_URL": redis_url,
            "TRADEWINDS_SIGNING_KEY_FILE": str(tmp_path / "keys" / "signing-key.pem"),
            "TRADEWINDS_METRICS_TOKEN": "deployment-doc-scrape",
        }
        script = "\n".join(f"export {name}={value}" for name, value in settings.items()) + "\n"
        script += "\n".join(blocks("postgres"))
        for port in PORTS:
            script = script.replace(port, str(free_port()))
        try:
            result = run_script(script, tmp_path, base_env())
        finally:
            drop_database(database_url + "_restored")
        logs = "".join(p.read_text() for p in tmp_path.glob("*.log"))
        assert result.returncode == 0, f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}\n{logs[-3000:]}"
    out = result.stdout
    assert '"status": "ready"' in out.replace('":"', '": "') or '"status":"ready"' in out
    assert re.search(r'^tradewinds_bot_turns_total\{outcome="played"\} [1-9]', out, re.M), out
    assert 'tradewinds_http_requests_total{method="POST",route="/games",status="201"} 1.0' in out
    assert "retired key" in out and "now signing with key" in out
    keys = [line for line in out.splitlines() if re.fullmatch(r"[A-Za-z0-9+/]{43}=", line)]
    assert len(keys) == 2 and keys[0] != keys[1]  # public-key before and after the rotation
    assert (tmp_path / "keys" / "signing-key.pem.retired").read_text().startswith(keys[0])
    assert "migrated" in out and (tmp_path / "tradewinds.dump").stat().st_size > 0
    # the trial servers logged JSON request lines, with no credential in them
    assert '"logger": "tradewinds.access"' in logs and "deployment-doc-scrape" not in logs


@pytest.mark.skipif(shutil.which("sqlite3") is None, reason="needs the sqlite3 shell")
def test_the_sqlite_backup_works_when_pasted(tmp_path):
    result = run_script("\n".join(blocks("sqlite")), tmp_path, base_env())
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("ok")
    assert (tmp_path / "tradewinds-backup.db").stat().st_size > 0
