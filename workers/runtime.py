"""Wiring: which store and which dispatcher this process uses, from configuration."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eventstore.base import EventStore, Signer
from workers import dispatch, jobs
from workers.games import GameService
from workers.signing import KeyFileError, ServerKey, key_file_path
from workers.sweeper import Sweeper
from workers.webhooks import delivery_group, silence_revoked_keys

DEFAULT_DATA_DIR = "tradewinds-data"


class ConfigError(Exception):
    """Bad configuration: reported as one line at start-up."""


def data_folder(data_dir: str | os.PathLike[str] | None = None) -> Path:
    folder = Path(data_dir or os.environ.get("TRADEWINDS_DATA_DIR") or DEFAULT_DATA_DIR).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def lock_folder(data_dir: str | os.PathLike[str] | None = None) -> Path:
    """The named locks of a server without Redis (``dispatch.FileLocks``): its request processes and its job runner
    take them here, in the data folder they share (made when a lock is first taken, not here)."""
    return Path(data_dir or os.environ.get("TRADEWINDS_DATA_DIR") or DEFAULT_DATA_DIR).resolve() / "locks"


def default_database_url(data_dir: str | None = None) -> str:
    return f"sqlite:///{data_folder(data_dir) / 'tradewinds.db'}"


def server_key(database_url: str, data_dir: str | None = None) -> ServerKey:
    """The signing key: the configured key file, or ``signing-key.pem`` in the data directory (created on
    first start); a throw-away ``memory://`` store without a configured file gets a key of its own."""
    if database_url.strip().lower().startswith("memory:") and not os.environ.get("TRADEWINDS_SIGNING_KEY_FILE"):
        return ServerKey.generate()
    path = key_file_path(data_dir)
    try:
        return ServerKey.load_or_create(path)
    except (OSError, KeyFileError) as exc:
        raise ConfigError(f"cannot use the signing key file {path}: {exc}") from None


def run_job(name: str, args: tuple[Any, ...]) -> None:
    getattr(jobs, name)(*args)


@dataclass
class Runtime:
    store: EventStore
    dispatcher: object
    service: GameService
    database_url: str
    redis_url: str | None
    sweeper: Sweeper | None = None

    @property
    def key(self) -> ServerKey:
        return self.service.key

    @classmethod
    def build(
        cls,
        database_url: str | None = None,
        redis_url: str | None = None,
        dispatcher: str | None = None,
        data_dir: str | None = None,
    ) -> Runtime:
        """``dispatcher`` is "rq", "in-process", "inline" or "local-runner" (hand jobs to the job runner process
        listening at ``$TRADEWINDS_RUNNER_SOCKET``, ``workers.local_runner``); by default RQ when a Redis URL is
        given, else in-process."""
        from eventstore import open_store

        kind = dispatcher or ("rq" if redis_url else "in-process")
        # The dispatcher is settled first: a server or worker that cannot reach Redis writes nothing (no data folder,
        # no key file, no tables).
        disp: Any = None
        if kind == "rq":
            if not redis_url:
                raise ConfigError("the RQ dispatcher needs TRADEWINDS_REDIS_URL")
            disp = reach_redis(redis_url)
        elif kind == "local-runner":
            from workers.local_runner import SOCKET_ENV, RunnerDispatcher

            address = os.environ.get(SOCKET_ENV)
            if not address:
                raise ConfigError(f"the local-runner dispatcher needs {SOCKET_ENV}")
            disp = RunnerDispatcher(address, lock_folder(data_dir))
        elif kind == "inline":
            disp = dispatch.InlineDispatcher(run_job)
        elif kind != "in-process":
            raise ConfigError(f"unknown dispatcher {kind!r}")
        database_url = database_url or default_database_url(data_dir)
        key = server_key(database_url, data_dir)
        try:
            store = open_store(database_url, signer=key.sign)
        except ValueError as exc:
            raise ConfigError(f"bad TRADEWINDS_DATABASE_URL: {exc}") from None
        except Exception as exc:
            raise ConfigError(f"cannot open the event store at {redact_url(database_url)}: {exc}") from None
        # webhook jobs are grouped by key, read from the store: the in-process runner and RQ's workers take the
        # groups in turn
        if kind == "in-process":
            disp = dispatch.InProcessDispatcher(
                run_job, group_of=lambda job, args: delivery_group(store, job, args), lock_dir=lock_folder(data_dir)
            )
        elif kind == "rq":
            disp.group_of = lambda job, args: delivery_group(store, job, args)
        silence_revoked_keys(store)  # once per store: keys revoked before a revocation disabled their webhooks
        runtime = cls(store, disp, GameService(store, disp, key=key), database_url, redis_url)
        if kind not in ("rq", "local-runner"):
            jobs.set_runtime(runtime)
        return runtime

    def __post_init__(self) -> None:
        if self.sweeper is None:
            self.sweeper = Sweeper(self.store, self.dispatcher)
        if getattr(self.dispatcher, "kind", None) == "in-process":
            self.sweeper.start()  # the in-process runner sweeps its own outbox

    def sweep(self, now: float | None = None) -> int:
        """Dispatch due outbox work now (``now`` in the future runs work scheduled for later: tests)."""
        assert self.sweeper is not None
        return self.sweeper.sweep_once(now)

    def close(self) -> None:
        if self.sweeper is not None:
            self.sweeper.stop()
        self.store.close()

    @classmethod
    def signed(
        cls,
        open_store: Callable[[Signer], EventStore],
        dispatcher: object,
        database_url: str = "memory://",
        redis_url: str | None = None,
        key: ServerKey | None = None,
        sweep_interval: float | None = None,
    ) -> Runtime:
        """A runtime around a store opened with ``open_store(signer)``, signing with ``key`` (or a new one);
        ``sweep_interval`` sets how often its outbox sweeper looks for due work (its default otherwise)."""
        key = key or ServerKey.generate()
        store = open_store(key.sign)
        sweeper = Sweeper(store, dispatcher, interval=sweep_interval) if sweep_interval is not None else None
        return cls(store, dispatcher, GameService(store, dispatcher, key=key), database_url, redis_url, sweeper)

    @classmethod
    def from_environment(cls, dispatcher: str | None = None) -> Runtime:
        return cls.build(
            os.environ.get("TRADEWINDS_DATABASE_URL") or None,
            os.environ.get("TRADEWINDS_REDIS_URL") or None,
            dispatcher,
        )


def reach_redis(redis_url: str) -> dispatch.RQDispatcher:
    """An RQ dispatcher on ``redis_url`` that has answered a ping (``ConfigError`` if Redis does not answer)."""
    try:
        disp = dispatch.RQDispatcher(redis_url)
        disp.ping()
    except Exception as exc:
        raise ConfigError(f"cannot reach Redis at {redact_url(redis_url)}: {exc}") from None
    return disp


def redact_url(url: str) -> str:
    """The URL without its password, for messages."""
    from urllib.parse import urlsplit, urlunsplit

    try:
        parts = urlsplit(url)
    except ValueError:
        return "<malformed URL>"
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return urlunsplit(parts._replace(netloc=netloc))
    return url
