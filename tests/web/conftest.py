"""Browser tests: the app on a free 127.0.0.1 port (memory store, in-process bots) driven by Chromium.

Chromium is the system one (/usr/bin/chromium; `.ci/run` installs it): Playwright's own browser download is
not used. Without it (or without the playwright package) these tests skip with the reason, and fail under
TRADEWINDS_REQUIRE_SERVICES=1 like every other test that needs something outside Python.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from tests.support.services import require_service

CHROMIUM = os.environ.get("TRADEWINDS_CHROMIUM", "/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parents[2] / "test-screenshots"


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        require_service("Chromium", f"no browser at {CHROMIUM} (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:  # the test extra pins it; a bare install may lack it
        require_service("Playwright", f"the playwright package is missing: {exc}")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


class LogLines(logging.Handler):
    """Every log line the server writes while a test runs, through the filter `tradewinds serve` installs."""

    def __init__(self):
        from api.serving import ScrubFilter

        super().__init__(logging.DEBUG)
        self.lines: list[str] = []
        self.addFilter(ScrubFilter())

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


class LiveServer:
    """The Flask app served by a real threaded WSGI server in this process."""

    def __init__(self):
        from api.app import create_app
        from tests.api.conftest import make_runtime
        from workers import jobs

        self.runtime = make_runtime()
        self.app = create_app(self.runtime, {"STREAM_MAX_SECONDS": 5})
        self.server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.log = LogLines()
        logging.getLogger().addHandler(self.log)
        logging.getLogger("werkzeug").setLevel(logging.INFO)  # the access lines, as a server writes them
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self._jobs = jobs

    def close(self):
        self.server.shutdown()
        self.server.server_close()
        logging.getLogger().removeHandler(self.log)
        self._jobs.set_runtime(None)

    def client(self):
        return self.app.test_client()


@pytest.fixture
def live_server():
    server = LiveServer()
    yield server
    server.close()


class Console:
    """Every console error and uncaught page error of the pages it watches."""

    def __init__(self):
        self.errors: list[str] = []
        self.allowed: list[str] = []

    def allow(self, text: str) -> None:
        """Tolerate console errors containing `text` (e.g. Chromium's line for an expected 412 answer)."""
        self.allowed.append(text)

    def _console(self, page, msg) -> None:
        if msg.type == "error" and not any(text in msg.text for text in self.allowed):
            self.errors.append(f"{page.url}: {msg.text}")

    def watch(self, page):
        page.on("console", lambda msg: self._console(page, msg))
        page.on("pageerror", lambda exc: self.errors.append(f"{page.url}: uncaught {exc}"))
        return page


@pytest.fixture
def console():
    watcher = Console()
    yield watcher
    assert watcher.errors == [], "the browser console has errors"


@pytest.fixture
def context(browser):
    # The tests wait on conditions written as JavaScript text (wait_for_function), which the page's policy refuses
    # to evaluate; test_the_page_runs_under_its_content_security_policy drives a page with the policy in force.
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    yield ctx
    ctx.close()


def shot(page, name: str) -> None:
    """Save what the page shows, for a person to look at (test-screenshots/NAME.png).

    CSS animations are stopped first (a spinner need not be drawn mid-turn). In CI a full-page capture once timed
    out inside Chromium after the page had settled (the cause is not known); the capture is then tried once more
    at the viewport's size, so a capture that hangs does not fail a test whose page is right.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    SHOTS.mkdir(exist_ok=True)
    path = str(SHOTS / f"{name}.png")
    try:
        page.screenshot(path=path, full_page=True, animations="disabled", timeout=45_000)
    except PlaywrightTimeout:
        page.screenshot(path=path, animations="disabled", timeout=45_000)
