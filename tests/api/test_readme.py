"""The README's two set-up commands are what CI runs, and its quick start works when pasted."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.api.test_serve import free_port, tradewinds, wait_for

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
BLOCKS = re.findall(r"```sh\n(.*?)```", README, re.S)


def test_the_test_command_is_the_one_ci_runs():
    test_command = BLOCKS[1].strip()
    assert test_command in (ROOT / ".ci" / "run").read_text()
    assert BLOCKS[0].strip().endswith("tradewinds serve")


@pytest.mark.skipif(shutil.which("curl") is None, reason="the quick start uses curl")
def test_quick_start_works_when_pasted(tmp_path):
    port = free_port()
    cmd, env = tradewinds("serve", "--port", str(port), "--data-dir", str(tmp_path))
    server = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(f"http://127.0.0.1:{port}/health")
        script = BLOCKS[2].replace("127.0.0.1:8000", f"127.0.0.1:{port}")
        result = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=120, cwd=tmp_path
        )
        assert result.returncode == 0, result.stderr
        out = result.stdout
        assert '"name":"puerto_rico"' in out.replace(" ", "") or '"puerto_rico"' in out
        assert "HTTP/1.1 200" in out and "ETag" in out
        assert '"replayed":false' in out.replace(" ", "")
        assert '"events":' in out
        assert "problem+json" not in out
    finally:
        server.terminate()
        server.wait(timeout=10)
