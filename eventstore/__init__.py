"""Append-only event streams: the contract (``eventstore.base``) and ``open_store(url)`` for the backends.

URLs: ``memory://``; ``sqlite:///absolute/path.db`` or ``sqlite:relative/path.db``;
``postgresql://user@host:port/dbname`` (also ``postgres://``).
"""

from __future__ import annotations

from eventstore._common import utc_now_iso
from eventstore.base import (
    GENESIS_HASH,
    ArchivedEvent,
    AuditReport,
    DuplicateIdempotencyKey,
    EventStore,
    EventStoreError,
    IdempotencyRecord,
    Signer,
    StoredEvent,
    StoreUnavailable,
    StreamExists,
    StreamInfo,
    StreamNotFound,
    Truncation,
    WrongExpectedVersion,
    canonical_json,
    chain_hash,
    genesis_hash,
    head_message,
)

__all__ = [
    "utc_now_iso",
    "GENESIS_HASH",
    "ArchivedEvent",
    "AuditReport",
    "DuplicateIdempotencyKey",
    "EventStore",
    "EventStoreError",
    "IdempotencyRecord",
    "StoreUnavailable",
    "StoredEvent",
    "StreamExists",
    "StreamInfo",
    "StreamNotFound",
    "Truncation",
    "WrongExpectedVersion",
    "canonical_json",
    "Signer",
    "chain_hash",
    "genesis_hash",
    "head_message",
    "open_store",
    "sqlite_path",
]


def sqlite_path(url: str) -> str:
    """The file path of a ``sqlite:`` URL: ``sqlite:///abs/x.db`` -> ``/abs/x.db``, ``sqlite:x.db`` -> ``x.db``."""
    rest = url[len("sqlite:") :]
    if rest.startswith("//"):
        rest = rest[2:]
        if not rest.startswith("/"):
            raise ValueError(f"invalid SQLite URL {url!r}: use sqlite:///absolute/path.db or sqlite:relative/path.db")
        rest = "/" + rest.lstrip("/")  # sqlite:////abs/x.db (SQLAlchemy style) is absolute too
    if not rest or rest.endswith("/") or rest in (":memory:", "/:memory:") or "?" in rest:
        raise ValueError(f"invalid SQLite URL {url!r}: it must name a database file")
    return rest


def open_store(url: str, signer: Signer | None = None) -> EventStore:
    """Open (and migrate) the store a URL names; ``signer`` signs its stream heads (see ``eventstore.base``).

    Raises ``ValueError`` (one line) for a malformed URL and ``StoreUnavailable`` (one line) when the
    database cannot be reached or opened.
    """
    if not isinstance(url, str) or not url.strip():
        raise ValueError("empty event store URL: use memory://, sqlite:///path/to/file.db or postgresql://...")
    url = url.strip()
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    if scheme == "memory":
        if url.lower() not in ("memory://", "memory:", "memory:///"):
            raise ValueError(f"invalid memory URL {url!r}: use memory://")
        from eventstore.memory import MemoryStore

        return MemoryStore(signer=signer)
    if scheme == "sqlite":
        from eventstore.sqlite import SqliteStore

        return SqliteStore(sqlite_path(url), signer=signer)
    if scheme in ("postgresql", "postgres"):
        import psycopg

        try:
            psycopg.conninfo.conninfo_to_dict(url)
        except psycopg.Error as exc:
            first = (str(exc).strip().splitlines() or ["malformed"])[0]
            raise ValueError(f"invalid PostgreSQL URL: {first}") from None
        from eventstore.postgres import PostgresStore

        return PostgresStore(url, signer=signer)
    raise ValueError(
        f"unsupported event store URL scheme {scheme + ':' if scheme else url!r}: "
        "use memory://, sqlite:///path/to/file.db or postgresql://user@host/dbname"
    )
