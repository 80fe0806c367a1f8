"""The browser client: static files under ``api/web/`` served at ``/`` (the lobby) and ``/web/...``.

The page is a plain client of the public REST API (same origin); these routes are not part of the
API contract, so they are a plain Flask blueprint, absent from the OpenAPI document.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, send_from_directory

WEB_ROOT = Path(__file__).resolve().parent / "web"

blp = Blueprint("webclient", __name__)

# What the page may load and run: its own modules, styles and API only (no inline script or style, nothing from
# another origin), and never inside another site's frame.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


@blp.after_request
def page_headers(response):
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"  # for browsers that predate frame-ancestors
    return response


@blp.get("/")
def lobby():
    """The single page: lobby, table and replay are chosen by the query string."""
    response = send_from_directory(WEB_ROOT, "index.html", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    # Seat tokens live in the URL fragment, which browsers never send; keep them out of Referer too.
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@blp.get("/web/<path:filename>")
def asset(filename: str):
    """The page's modules and style sheet (404 for anything outside the folder)."""
    response = send_from_directory(WEB_ROOT, filename, max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response
