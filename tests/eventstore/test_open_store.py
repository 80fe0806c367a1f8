"""``open_store(url)``: which backend a URL selects, and one-line errors for bad or unreachable stores."""

from __future__ import annotations

import socket

import pytest

import eventstore
from eventstore import StoreUnavailable, open_store, sqlite_path
from eventstore.memory import MemoryStore
from eventstore.postgres import PostgresStore
from eventstore.sqlite import SqliteStore


def test_memory_url() -> None:
    store = open_store("memory://")
    assert isinstance(store, MemoryStore)
    store.close()


def test_sqlite_urls(tmp_path, monkeypatch) -> None:
    absolute = open_store(f"sqlite://{tmp_path / 'abs.db'}")
    assert isinstance(absolute, SqliteStore) and absolute.path == str(tmp_path / "abs.db")
    absolute.close()
    monkeypatch.chdir(tmp_path)
    relative = open_store("sqlite:rel.db")
    assert relative.path == "rel.db" and (tmp_path / "rel.db").exists()
    relative.close()


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("sqlite:///data/x.db", "/data/x.db"),
        ("sqlite:////data/x.db", "/data/x.db"),
        ("sqlite:x.db", "x.db"),
        ("sqlite:dir/x.db", "dir/x.db"),
    ],
)
def test_sqlite_path(url: str, path: str) -> None:
    assert sqlite_path(url) == path


@pytest.mark.parametrize(
    "url",
    [
        "",
        "   ",
        "mysql://localhost/db",
        "nonsense",
        "sqlite:",
        "sqlite://",
        "sqlite:///",
        "sqlite://relative.db",
        "sqlite::memory:",
        "memory://somewhere",
        "postgresql://host/db?bogus_option=1",
    ],
)
def test_malformed_urls_raise_a_one_line_value_error(url: str) -> None:
    with pytest.raises(ValueError) as caught:
        open_store(url)
    message = str(caught.value)
    assert message and "\n" not in message


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_unreachable_postgres_raises_a_one_line_store_unavailable() -> None:
    with pytest.raises(StoreUnavailable) as caught:
        open_store(f"postgresql://tradewinds:secret@127.0.0.1:{_closed_port()}/nowhere")
    message = str(caught.value)
    assert "\n" not in message and "secret" not in message and "127.0.0.1" in message


@pytest.mark.postgres
def test_postgres_url_opens_a_postgres_store(postgres_url: str) -> None:
    store = open_store(postgres_url)
    try:
        assert isinstance(store, PostgresStore)
        store.ping()
    finally:
        store.close()


@pytest.mark.postgres
def test_missing_postgres_database_raises_store_unavailable(postgres_url: str) -> None:
    url = postgres_url.replace("tradewinds_test_", "tradewinds_missing_")
    with pytest.raises(StoreUnavailable) as caught:
        open_store(url)
    assert "\n" not in str(caught.value)


def test_sqlite_in_a_missing_directory_raises_store_unavailable(tmp_path) -> None:
    with pytest.raises(StoreUnavailable) as caught:
        open_store(f"sqlite://{tmp_path / 'no' / 'such' / 'dir.db'}")
    assert "\n" not in str(caught.value)


def test_base_names_are_reexported() -> None:
    for name in ("EventStore", "StoredEvent", "WrongExpectedVersion", "StoreUnavailable", "GENESIS_HASH", "chain_hash"):
        assert hasattr(eventstore, name)
