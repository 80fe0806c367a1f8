"""The embedded set-up's job runner: bot turns and other jobs in a process of their own, never in a request's.

Without Redis, ``tradewinds serve`` forks a small supervisor before gunicorn starts; the supervisor forks
the runner and starts it again whenever it exits (a crash, a kill), with a short back-off. The runner:

- builds its own runtime on the same store and signing key, with the in-process dispatcher (bot turns and
  webhook deliveries on threads of its own) and the outbox sweeper;
- at start, dispatches the pending bot turns and the due outbox work (so a killed runner's work resumes);
- listens on a Unix datagram socket: a request process that stored a move hands the outbox entries that
  are due now to the runner with one non-blocking datagram each (``RunnerDispatcher``). The entry is
  already committed in the outbox, so a lost datagram (the runner is restarting, its buffer is full) only
  delays the work until the sweeper's next look, a lease later (``workers.sweeper.LEASE``).

Request processes never run a job: their dispatcher only sends datagrams. Everything the runner does is
through the store, so it needs nothing from the request processes but the socket address.

The runner lowers its own CPU priority (``TRADEWINDS_RUNNER_NICE``, 10 by default, as ``nice``): a bot's
search takes whatever CPU the requests leave, so people's moves are not slowed by bots thinking on the
same machine; bots think more slowly only while requests keep every core busy.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from eventstore.outbox import OutboxEntry
from workers.dispatch import FileLocks

log = logging.getLogger(__name__)

SOCKET_ENV = "TRADEWINDS_RUNNER_SOCKET"
RESTART_MIN = 0.2  # seconds before a runner that exited is started again (doubling while it keeps failing)
RESTART_MAX = 5.0
STABLE_AFTER = 10.0  # a runner that lived this long resets the back-off
PARENT_CHECK = 0.5  # how often the supervisor and the runner look whether their parent is still there
MAX_DATAGRAM = 60_000
NICE_ENV = "TRADEWINDS_RUNNER_NICE"
DEFAULT_NICE = 10


def lower_priority() -> None:
    """Take the runner's CPU priority down by ``$TRADEWINDS_RUNNER_NICE`` (0 leaves it as it is)."""
    value = os.environ.get(NICE_ENV, "").strip()
    try:
        increment = int(value) if value else DEFAULT_NICE
    except ValueError:
        log.warning("%s must be a whole number, not %r; using %d", NICE_ENV, value, DEFAULT_NICE)
        increment = DEFAULT_NICE
    if increment > 0:
        os.nice(increment)


def new_address() -> str:
    """A fresh socket address: ``@name`` in Linux's abstract namespace (no file to clean up), else a file in
    the temp folder."""
    name = f"tradewinds-runner-{os.getpid()}-{uuid.uuid4().hex[:12]}"
    if sys.platform.startswith("linux"):
        return "@" + name
    return os.path.join(tempfile.gettempdir(), name + ".sock")


def sockaddr(address: str) -> str:
    """The address as the socket module takes it (``@name``: the abstract namespace)."""
    return "\0" + address[1:] if address.startswith("@") else address


class RunnerDispatcher:
    """The request processes' dispatcher: hands work to the runner process, runs nothing itself."""

    kind = "local-runner"

    def __init__(self, address: str, lock_dir: str | os.PathLike[str]) -> None:
        self.address = sockaddr(address)
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._sock.setblocking(False)
        self._locks = FileLocks(lock_dir)  # the runner's jobs take the same (``Runtime.build``)

    def _send(self, message: dict[str, Any]) -> None:
        payload = json.dumps(message, separators=(",", ":")).encode()
        if len(payload) > MAX_DATAGRAM:
            raise ValueError("job arguments too large for a datagram; the sweeper dispatches it")
        self._sock.sendto(payload, self.address)  # OSError when the runner is away: dispatch_now logs it

    def dispatch(self, entry: OutboxEntry) -> None:
        self._send({"entry": entry.as_dict() | {"attempts": entry.attempts}})

    def enqueue(self, job: str, *args: Any) -> None:
        self._send({"job": job, "args": list(args)})

    def is_live(self, entry: OutboxEntry) -> bool:
        return False  # only the runner sweeps; nothing here asks

    def try_lock(self, name: str) -> AbstractContextManager[None]:
        """A job's lock, as the runner's jobs take it: a request that changes what a job records (an undo of a
        tournament's table) takes its turn with the job."""
        return self._locks.try_lock(name)

    def heartbeat(self, token: str) -> nullcontext[None]:
        return nullcontext()

    def ping(self) -> None:
        """Whether the runner is listening (a zero-length datagram it ignores)."""
        self._sock.sendto(b"", self.address)


# --------------------------------------------------------------------------- the runner process
def serve_jobs(address: str, database_url: str, data_dir: str | None, parent: int | None = None) -> None:
    """The runner's main loop: receive entries, hand them to the in-process dispatcher, until told to stop."""
    from workers.runtime import Runtime

    stop = {"now": False}

    def on_signal(signum: int, frame: Any) -> None:
        stop["now"] = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    if not address.startswith("@"):
        try:
            os.unlink(address)
        except FileNotFoundError:
            pass
    sock.bind(sockaddr(address))
    sock.settimeout(PARENT_CHECK)
    lower_priority()
    runtime = Runtime.build(database_url, None, "in-process", data_dir)
    try:
        try:
            resumed = runtime.service.resume_pending_bots()
            runtime.sweep()
            log.info("job runner %s started; %s pending bot turn(s) resumed", os.getpid(), resumed)
        except Exception as exc:  # the store is away: the sweeper keeps trying
            log.warning("job runner could not resume pending work yet: %s", exc)
        while not stop["now"]:
            if parent is not None and os.getppid() != parent:
                break
            try:
                payload = sock.recv(MAX_DATAGRAM + 1)
            except TimeoutError:
                continue
            except InterruptedError:
                continue
            if payload:
                _handle(runtime.dispatcher, payload)
    finally:
        sock.close()
        if not address.startswith("@"):
            try:
                os.unlink(address)
            except OSError:
                pass
        runtime.close()


def _handle(dispatcher: Any, payload: bytes) -> None:
    try:
        message = json.loads(payload)
        if "entry" in message:
            item = message["entry"]
            entry = OutboxEntry(item["key"], item["token"], item["job"], list(item["args"]), float(item["due_at"]))
            if not dispatcher.is_live(entry):
                dispatcher.dispatch(entry)
        else:
            dispatcher.enqueue(str(message["job"]), *message["args"])
    except Exception:  # a malformed datagram: the outbox still holds the work
        log.exception("job runner: could not take a message")


def supervise(address: str, database_url: str, data_dir: str | None, parent: int) -> int:
    """Start the runner and start it again whenever it exits, until the parent (gunicorn's master) is gone."""
    stopping = {"now": False}

    def on_signal(signum: int, frame: Any) -> None:
        stopping["now"] = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the master stops us
    backoff = RESTART_MIN
    child: int | None = None
    started = 0.0
    while not stopping["now"] and os.getppid() == parent:
        if child is None:
            started = time.monotonic()
            child = _fork_runner(address, database_url, data_dir)
        time.sleep(PARENT_CHECK / 5)
        try:
            pid, _status = os.waitpid(child, os.WNOHANG)
        except ChildProcessError:
            pid = child
        if pid == child:
            child = None
            lived = time.monotonic() - started
            backoff = RESTART_MIN if lived > STABLE_AFTER else min(backoff * 2, RESTART_MAX)
            log.warning("job runner exited after %.1f s; starting it again in %.1f s", lived, backoff)
            time.sleep(backoff)
    if child is not None:
        _stop(child)
    return 0


def _fork(what: str, run: Callable[[], int | None]) -> int:
    """Fork a child that runs ``run()`` and exits with its code (1 if it raised); returns the child's pid."""
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            code = run() or 0
        except BaseException:
            log.exception("%s failed", what)
            code = 1
        finally:
            logging.shutdown()
            os._exit(code)
    return pid


def _fork_runner(address: str, database_url: str, data_dir: str | None) -> int:
    supervisor = os.getpid()
    return _fork("job runner", lambda: serve_jobs(address, database_url, data_dir, parent=supervisor))


def _stop(pid: int, grace: float = 5.0) -> None:
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return
        if done == pid:
            return
        time.sleep(0.05)
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass


def start_supervisor(address: str, database_url: str, data_dir: str | None) -> int:
    """Fork the supervisor (call it before any thread is started: before gunicorn runs); returns its pid."""
    parent = os.getpid()
    return _fork("job runner supervisor", lambda: supervise(address, database_url, data_dir, parent))


def stop_supervisor(pid: int) -> None:
    """Ask the supervisor to stop its runner and exit (gunicorn's ``on_exit``)."""
    _stop(pid, grace=8.0)
