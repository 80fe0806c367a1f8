"""``tradewinds serve``: gunicorn sized for live followers, one control socket per instance (or none).

Two worker classes (measurements in docs/streaming.md):

- ``gevent`` (the default when Redis is configured): every connection is a greenlet, so a follower or
  a long-poll costs a greenlet and a socket, not a thread; ``--connections`` per worker process.
- ``gthread`` (the default on the embedded set-up): a pool of ``--threads`` per process; followers may
  take all but a reserve of them, so ordinary requests (and ``/health``) always find a thread.

Without Redis, bot turns and the other jobs run in a job runner process that ``serve`` forks and supervises
(``workers.local_runner``), never in a request process. ``--workers`` defaults to the machine's cores. The
request processes share their rate-limit counts and follower caps through Redis when it is configured,
else through a counter file that ``serve`` makes for them (``api.counters``); a ``memory://`` store lives in
one process, so it is served by one.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from api import counters
from api.followers import Caps
from workers import logs
from workers.runtime import ConfigError

GEVENT_RESERVE = 100  # connections per gevent worker kept for ordinary requests


@dataclass(frozen=True)
class Sizing:
    worker_class: str
    workers: int
    threads: int
    connections: int

    @property
    def followers_per_process(self) -> int:
        if self.worker_class == "gevent":
            return max(1, self.connections - GEVENT_RESERVE)
        return max(1, self.threads - self.request_threads)

    @property
    def request_threads(self) -> int:
        return max(4, self.threads // 4)

    def describe(self) -> str:
        followers = self.workers * self.followers_per_process
        if self.worker_class == "gevent":
            return (
                f"{self.workers} gevent worker process(es) x {self.connections} connections: sized for "
                f"{followers} live followers and long-polls, with {self.workers * GEVENT_RESERVE} connections "
                "kept for other requests"
            )
        return (
            f"{self.workers} gthread worker process(es) x {self.threads} threads: sized for {followers} live "
            f"followers and long-polls, with {self.workers * self.request_threads} threads kept for other "
            "requests"
        )


def env_int(name: str) -> int | None:
    value = os.environ.get(name, "").strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {value!r}") from None


def sizing(
    worker_class: str | None,
    workers: int | None,
    threads: int | None,
    connections: int | None,
    shared: bool,
    one_process: bool = False,
) -> Sizing:
    """Resolve the serve options; ``shared`` is whether Redis is configured, ``one_process`` whether the store
    lives in one process's memory (``memory://``)."""
    worker_class = worker_class or os.environ.get("TRADEWINDS_WORKER_CLASS") or ("gevent" if shared else "gthread")
    if worker_class not in ("gevent", "gthread"):
        raise ConfigError(f"unknown worker class {worker_class!r}: use gevent or gthread")
    workers = workers if workers is not None else env_int("TRADEWINDS_WORKERS")
    if workers is None:
        workers = 1 if one_process else (os.cpu_count() or 1)
    if workers < 1:
        raise ConfigError("--workers must be at least 1")
    if workers > 1 and one_process:
        raise ConfigError(
            f"--workers {workers} needs a store outside the process: a memory:// store lives in one process "
            "(use --workers 1, or a sqlite:// or postgresql:// TRADEWINDS_DATABASE_URL)"
        )
    threads = threads if threads is not None else (env_int("TRADEWINDS_THREADS") or 32)
    connections = connections if connections is not None else (env_int("TRADEWINDS_CONNECTIONS") or 1000)
    if threads < 2 or connections < GEVENT_RESERVE + 1:
        raise ConfigError(f"--threads must be at least 2 and --connections at least {GEVENT_RESERVE + 1}")
    return Sizing(worker_class, workers, threads, connections)


def caps_for(size: Sizing) -> Caps:
    caps = Caps.from_environment()
    configured = env_int("TRADEWINDS_FOLLOWERS_PER_PROCESS")
    per_process = min(configured, size.followers_per_process) if configured else size.followers_per_process
    return Caps(caps.per_address, caps.per_game, per_process)


class ScrubFilter(logging.Filter):
    """Drops credentials (``workers.logs.redact``: tokens, keys, stream tickets) from a record's message."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        scrubbed = logs.redact(message)
        if scrubbed != message:
            record.msg, record.args = scrubbed, None
        return True


def _scrubbing_logger():
    """gunicorn's own lines (worker boots, timeouts, refusals) as redacted JSON lines, like the application's."""
    from gunicorn.glogging import Logger

    class ScrubbingLogger(Logger):
        def setup(self, cfg):
            super().setup(cfg)
            for log in (self.error_log, self.access_log):
                for handler in log.handlers:
                    handler.setFormatter(logs.formatter())
                    handler.addFilter(ScrubFilter())

    return ScrubbingLogger


def prepare_metrics_dir(configured: str | None) -> Path:
    """The folder where this instance's processes write their metrics (prometheus_client's multiprocess mode).

    ``configured`` (``--metrics-dir``, ``TRADEWINDS_METRICS_DIR`` or ``PROMETHEUS_MULTIPROC_DIR``) is emptied
    of metric files from an earlier run; without one, a fresh temporary folder is made (and removed at exit).
    Set before ``prometheus_client`` is first imported, so that this process and the ones it forks count
    into files there.
    """
    folder = configured or os.environ.get("TRADEWINDS_METRICS_DIR") or os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        path = Path(folder)
        try:
            path.mkdir(parents=True, exist_ok=True)
            _hold(path)
            for stale in path.glob("*.db"):
                stale.unlink()
        except OSError as exc:
            raise ConfigError(f"cannot use the metrics folder {path}: {exc}") from None
    else:
        path = Path(tempfile.mkdtemp(prefix="tradewinds-metrics-"))
        import atexit

        atexit.register(_remove_if_owner, path, os.getpid())
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(path)
    return path


# The lock files this process holds open (``_hold``): a lock lasts as long as its file stays open here or in a child.
_HELD: list[int] = []


def _hold(folder: Path) -> None:
    """Lock ``folder`` for this instance (and the processes it forks) while it runs; ``ConfigError`` when another
    running instance holds it, whose metric files emptying the folder would delete."""
    import fcntl

    descriptor = os.open(folder / ".tradewinds.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise ConfigError(
            f"the metrics folder {folder} is another running instance's: give each instance its own (--metrics-dir)"
        ) from None
    _HELD.append(descriptor)


def prepare_counters_file() -> Path:
    """A new counter file for this instance's request processes (``api.counters``), in a folder removed when
    ``serve`` stops (the counts need not outlive it)."""
    folder = Path(tempfile.mkdtemp(prefix="tradewinds-counters-"))
    import atexit

    atexit.register(_remove_if_owner, folder, os.getpid())
    path = folder / "counters.sqlite3"
    counters.CounterFile(path=str(path))  # made once here, before the workers open it
    return path


def _remove_if_owner(path: Path, owner: int) -> None:
    """At exit of the process that made the folder; forked processes inherit the hook and must leave it be."""
    if os.getpid() == owner:
        shutil.rmtree(path, ignore_errors=True)


def process_gone(server, worker) -> None:
    """gunicorn's ``child_exit`` hook: a worker process that ended no longer counts in the live gauges."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def cooperative_psycopg() -> None:
    """Under gevent, make psycopg wait through the (patched) ``select`` module.

    psycopg 3 picks its wait function when it is imported: the C one, which blocks the whole event loop,
    unless gevent has patched ``select`` by then. ``serve`` opens the store once in the master process
    (to fail fast) before gunicorn forks and patches, so the choice is made again here, in the worker.
    """
    try:
        from gevent import monkey
    except ImportError:
        return
    if not monkey.is_module_patched("select"):
        return
    try:
        from psycopg import waiting
    except ImportError:
        return
    import selectors

    if waiting.wait is getattr(waiting, "wait_c", None):
        waiting.wait = waiting.wait_poll if hasattr(waiting, "wait_poll") else waiting.wait_select
    if hasattr(waiting, "DefaultSelector"):  # wait_conn (connecting) uses the selector bound at import
        setattr(waiting, "DefaultSelector", selectors.DefaultSelector)  # noqa: B010


def run(
    host: str,
    port: int,
    size: Sizing,
    database_url: str,
    redis_url: str | None,
    access_log: bool,
    control_socket: str | None,
    data_dir: str | None = None,
) -> None:
    """Serve until stopped. ``data_dir``: the folder of the signing key (and of the default SQLite store), for
    every process the server starts: each request process and the job runner sign with that key."""
    from gunicorn.app.base import BaseApplication

    from api.server import WORKER_CLASSES
    from workers.runtime import Runtime

    caps = caps_for(size)
    if size.workers > 1 and not redis_url:  # the request processes count rate limits and followers together
        os.environ[counters.ENV] = str(prepare_counters_file())
    runner = runs_job_runner(database_url, redis_url)
    supervisor: int | None = None
    if runner:  # forked before gunicorn starts any thread; request processes only hand it work
        from workers import local_runner

        os.environ[local_runner.SOCKET_ENV] = local_runner.new_address()
        supervisor = local_runner.start_supervisor(os.environ[local_runner.SOCKET_ENV], database_url, data_dir)

    class Server(BaseApplication):
        def load_config(self):
            self.cfg.set("bind", address(host, port))
            self.cfg.set("workers", size.workers)
            self.cfg.set("worker_class", WORKER_CLASSES[size.worker_class])
            self.cfg.set("threads", size.threads)
            self.cfg.set("worker_connections", size.connections)
            self.cfg.set("timeout", 120)
            self.cfg.set("graceful_timeout", 5)  # followers reconnect elsewhere with Last-Event-ID
            self.cfg.set("accesslog", None)  # the application writes the request lines (api.observability)
            # gunicorn's own lines (boots, worker exits) at the level the application's follow
            self.cfg.set("loglevel", gunicorn_level(logs.log_level()))
            self.cfg.set("logger_class", _scrubbing_logger())
            self.cfg.set("child_exit", process_gone)
            self.cfg.set("worker_exit", close_runtime)
            if supervisor is not None:
                self.cfg.set("on_exit", lambda arbiter: _stop_runner(supervisor))
            if "control_socket" in self.cfg.settings:  # gunicorn 24 and later
                if control_socket:
                    self.cfg.set("control_socket", control_socket)
                else:
                    self.cfg.set("control_socket_disable", True)

        def load(self):
            from api.app import create_app

            cooperative_psycopg()
            runtime = Runtime.build(database_url, redis_url, "local-runner" if runner else None, data_dir)
            if not runner:  # the job runner resumes pending bot turns itself when it starts
                runtime.service.resume_pending_bots()
            return create_app(runtime, {"FOLLOWER_CAPS": caps})

    if access_log:
        logging.getLogger("tradewinds.access").setLevel(logging.INFO)
    if size.worker_class == "gevent":
        import warnings

        from gevent.monkey import MonkeyPatchWarning

        # The master imported ssl (via redis) before the worker patches. Plain redis:// and libpq (its
        # own TLS) are cooperative; a rediss:// URL would do its TLS reads unpatched (docs/streaming.md).
        warnings.filterwarnings("ignore", category=MonkeyPatchWarning)
    Server().run()


def address(host: str, port: int) -> str:
    """``host:port`` as gunicorn's bind and a URL write it: an IPv6 address in brackets (given with or without)."""
    bare = host.strip("[]")
    return f"[{bare}]:{port}" if ":" in bare else f"{bare}:{port}"


def gunicorn_level(name: str) -> str:
    """gunicorn's name for a logging level name (it knows debug, info, warning, error and critical only)."""
    level = logging.getLevelName(name.strip().upper() or "WARNING")
    return logging.getLevelName(level).lower() if isinstance(level, int) else "warning"


def close_runtime(server: object, worker: object) -> None:
    """gunicorn's ``worker_exit``: close the worker's store while the process still runs its event loop (left to
    the interpreter's end, a gevent worker's PostgreSQL pool stops its threads from a finalised greenlet and prints
    a traceback where the log promises JSON lines)."""
    from api.fanout import EXTENSION

    app = getattr(worker, "wsgi", None)
    extensions = getattr(app, "extensions", {})
    hub = extensions.get(EXTENSION)  # the live fan-out reads the store: it stops first
    if hub is not None:
        hub.close()
    runtime = extensions.get("tradewinds")
    if runtime is not None:
        try:
            runtime.close()
        except Exception:  # noqa: BLE001  (exiting anyway: a store that will not close is logged, not raised)
            logging.getLogger(__name__).warning("closing the store at exit failed", exc_info=True)


def runs_job_runner(database_url: str, redis_url: str | None) -> bool:
    """Without Redis, jobs run in a supervised runner process (``workers.local_runner``); a ``memory://``
    store lives in one process only, so its jobs stay on that process's threads."""
    return not redis_url and not database_url.strip().lower().startswith("memory:")


def _stop_runner(pid: int) -> None:
    from workers.local_runner import stop_supervisor

    stop_supervisor(pid)
