"""Runs `tradewinds serve` with the test-only game registered: ``python -m tests.support.serve_launcher [serve args]``."""

from __future__ import annotations

import sys

from tests.support.worker_launcher import register_test_extras

if __name__ == "__main__":
    register_test_extras()
    from api.cli import main

    sys.exit(main(["serve", *sys.argv[1:]]))
