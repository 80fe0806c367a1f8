"""Dispatchers for background jobs: RQ on Redis, or an in-process runner.

Outbox work (``workers.sweeper``) is dispatched as ``run_entry(key, token, job, args)``, which runs the
named job of ``workers.jobs`` and then completes the outbox entry. Every job is idempotent, so a
duplicate or a retry is harmless. Webhook jobs go to queues of their own, so a slow receiver never
holds up bot turns, and one API key's webhook jobs take turns with another's (``WEBHOOK_SHARDS``, ``_FairQueue``).
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any, Protocol

from eventstore.outbox import OutboxEntry
from workers.sweeper import WEBHOOK_JOBS, RetryLater

log = logging.getLogger(__name__)

QUEUE_NAME = "tradewinds"
WEBHOOK_QUEUE_NAME = "tradewinds-webhooks"
BOT_JOB_TIMEOUT = 30  # seconds: the hardest bot level searches for at most 5 s
WEBHOOK_JOB_TIMEOUT = 120
HEARTBEAT_EVERY = 1.0  # a running job refreshes its alive key this often (from its first second on)
HEARTBEAT_TTL = 3  # seconds without a heartbeat before a started job counts as dead
# A job's named lock (``try_lock``) lives this long in Redis and is renewed every HEARTBEAT_EVERY while the job runs:
# the lock of a worker that died (SIGKILL, OOM) frees itself within LOCK_LEASE, whatever the job's own timeout.
LOCK_LEASE = 10.0
FILE_LOCKS = 4096  # the lock files of a server without Redis (``FileLocks``)
REDIS_DOWN_PAUSE = 2.0  # after a failed enqueue, leave work to the sweeper for this long


# With RQ, webhook jobs wait in WEBHOOK_SHARDS queues besides WEBHOOK_QUEUE_NAME, a job in the one its group's name
# hashes to (``webhook_queue_for``), and a worker takes the webhook queues in turn (``workers.worker``): stochastic
# fairness queueing. One key's many slow receivers then hold up another key's deliveries only when the two keys share
# a queue (a chance of one in WEBHOOK_SHARDS), where the in-process runner's fair queue (``_FairQueue``) gives every
# group its turn. Jobs with no group wait in WEBHOOK_QUEUE_NAME.
WEBHOOK_SHARDS = 16
WEBHOOK_QUEUE_NAMES = (WEBHOOK_QUEUE_NAME, *(f"{WEBHOOK_QUEUE_NAME}-{i}" for i in range(WEBHOOK_SHARDS)))


def queue_for(job: str) -> str:
    return WEBHOOK_QUEUE_NAME if job in WEBHOOK_JOBS else QUEUE_NAME


def webhook_queue_for(group: str | None) -> str:
    """The RQ queue of a webhook job of ``group`` (see WEBHOOK_SHARDS)."""
    if group is None:
        return WEBHOOK_QUEUE_NAME
    digest = hashlib.blake2b(group.encode(), digest_size=4).digest()
    return WEBHOOK_QUEUE_NAMES[1 + int.from_bytes(digest, "big") % WEBHOOK_SHARDS]


GroupOf = Callable[[str, tuple[Any, ...]], "str | None"]


def job_group(group_of: GroupOf | None, job: str, args: tuple[Any, ...]) -> str | None:
    """``group_of(job, args)`` (an outbox entry's by its own job and arguments); ``None`` when it cannot be told."""
    if group_of is None:
        return None
    if job == "run_entry" and len(args) == 4:
        job, args = args[2], tuple(args[3])
    try:
        return group_of(job, args)
    except Exception:  # the store is away: the job waits in the common group
        log.warning("could not tell the group of job %s%r", job, args, exc_info=True)
        return None


class Dispatcher(Protocol):
    kind: str

    def dispatch(self, entry: OutboxEntry) -> None: ...
    def is_live(self, entry: OutboxEntry) -> bool: ...
    def enqueue(self, job: str, *args: Any) -> None: ...
    def try_lock(self, name: str) -> AbstractContextManager[None]: ...
    def heartbeat(self, token: str) -> AbstractContextManager[None]: ...
    def ping(self) -> None: ...


def entry_args(entry: OutboxEntry) -> tuple[Any, ...]:
    return (entry.key, entry.token, entry.job, list(entry.args))


class _LocalLocks:
    """Named locks for one process; a lock held by another job is never waited for."""

    def __init__(self) -> None:
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    @contextmanager
    def try_lock(self, name: str) -> Iterator[None]:
        with self._guard:
            lock = self._locks.setdefault(name, threading.Lock())
        if not lock.acquire(blocking=False):
            raise RetryLater(1.0)
        try:
            yield
        finally:
            lock.release()


class FileLocks:
    """Named locks shared by the processes of one server without Redis (the request processes and the job runner):
    an exclusive, non-blocking ``flock`` on one of ``FILE_LOCKS`` files in ``folder``, chosen by a hash of the name
    (a bounded set of files; two names that share one wait for each other, rarely and briefly). A lock held by
    another job or process is never waited for (``RetryLater``), and a holder that dies lets go at once."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        # where the folder cannot be made (or there is no flock), this process's own locks, as without a folder
        self._local: _LocalLocks | None = None

    def try_lock(self, name: str) -> AbstractContextManager[None]:
        if self._local is None:
            try:
                import fcntl  # noqa: F401  (POSIX only)

                self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
                return self._file_lock(name)
            except (ImportError, OSError) as exc:
                log.warning("named locks stay within this process: no lock files in %s (%s)", self.folder, exc)
                self._local = _LocalLocks()
        return self._local.try_lock(name)

    @contextmanager
    def _file_lock(self, name: str) -> Iterator[None]:
        import fcntl

        bucket = int.from_bytes(hashlib.blake2b(name.encode(), digest_size=4).digest(), "big") % FILE_LOCKS
        handle = os.open(self.folder / f"{bucket:04d}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise RetryLater(1.0) from None
            yield
        finally:
            os.close(handle)  # lets the lock go


class InlineDispatcher:
    """Runs jobs synchronously in the caller's thread, one after the other (no recursion). For tests.

    A job dispatched while another runs is appended to the queue and run when the current job returns.
    Work for later stays in the outbox until a sweep (``Runtime.sweep(now=...)``) finds it due.
    """

    kind = "inline"

    def __init__(self, run: Callable[[str, tuple[Any, ...]], None]) -> None:
        self._run = run
        self._queue: deque[tuple[str, tuple[Any, ...]]] = deque()
        self._local = threading.local()
        self._locks = _LocalLocks()

    def try_lock(self, name: str) -> AbstractContextManager[None]:
        return self._locks.try_lock(name)

    def heartbeat(self, token: str) -> AbstractContextManager[None]:
        return nullcontext()

    def dispatch(self, entry: OutboxEntry) -> None:
        self.enqueue("run_entry", *entry_args(entry))

    def is_live(self, entry: OutboxEntry) -> bool:
        return False

    def enqueue(self, job: str, *args: Any) -> None:
        self._queue.append((job, args))
        if getattr(self._local, "draining", False):
            return
        self._local.draining = True
        try:
            while self._queue:
                name, job_args = self._queue.popleft()
                try:
                    self._run(name, job_args)
                except Exception:  # a failed job is logged; its outbox entry is swept again later
                    log.exception("job %s%r failed", name, job_args)
        finally:
            self._local.draining = False

    def ping(self) -> None:
        return None


Job = tuple[str, tuple[Any, ...], str | None]  # (job name, its arguments, the outbox entry's token or None)


class _FairQueue:
    """A lane's waiting jobs, taken in turn by group: the first job of the group whose turn it is, which then goes
    to the back of the turns. Jobs of one group keep their order. With a single group this is a FIFO queue."""

    def __init__(self) -> None:
        self._groups: dict[str | None, deque[Job]] = {}
        self._turns: deque[str | None] = deque()  # the groups with waiting jobs, the next one first
        self._size = 0

    def append(self, group: str | None, job: Job) -> None:
        waiting = self._groups.get(group)
        if waiting is None:
            waiting = self._groups[group] = deque()
            self._turns.append(group)
        waiting.append(job)
        self._size += 1

    def popleft(self) -> Job:
        group = self._turns.popleft()
        waiting = self._groups[group]
        job = waiting.popleft()
        if waiting:
            self._turns.append(group)
        else:
            del self._groups[group]
        self._size -= 1
        return job

    def __len__(self) -> int:
        return self._size


class InProcessDispatcher:
    """Runs jobs on background threads of this process (the default without Redis).

    Bot turns and webhook deliveries have threads of their own, so a slow receiver never holds up a game.
    ``group_of(job, args)``, when given, names the group of a job (an API key's webhook deliveries): a lane's
    free thread takes the groups' jobs in turn, so one key's many slow receivers hold up another key's
    deliveries by at most the sends already under way, not by all the sends queued before them.
    """

    kind = "in-process"

    def __init__(
        self,
        run: Callable[[str, tuple[Any, ...]], None],
        threads: int = 2,
        webhook_threads: int = 2,
        group_of: GroupOf | None = None,
        lock_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        self._run = run
        self._group_of = group_of
        lock = threading.Lock()
        # One lock, two kinds of waiting: a lane's threads wait for its work (``_work``), ``wait_idle`` for the state
        # to change (``_cond``). An idle thread that woke every waiter would wake the other idle threads, which
        # would wake it again: a core spent on nothing.
        self._cond = threading.Condition(lock)
        self._lanes: dict[str, _FairQueue] = {QUEUE_NAME: _FairQueue(), WEBHOOK_QUEUE_NAME: _FairQueue()}
        self._work = {lane: threading.Condition(lock) for lane in self._lanes}
        self._threads: dict[str, list[threading.Thread]] = {QUEUE_NAME: [], WEBHOOK_QUEUE_NAME: []}
        self._sizes = {QUEUE_NAME: threads, WEBHOOK_QUEUE_NAME: webhook_threads}
        self._busy = 0
        self._live: set[str] = set()
        # with ``lock_dir``, the jobs' locks are the server's request processes' too (``FileLocks``)
        self._locks: _LocalLocks | FileLocks = _LocalLocks() if lock_dir is None else FileLocks(lock_dir)

    def dispatch(self, entry: OutboxEntry) -> None:
        self._put(queue_for(entry.job), "run_entry", entry_args(entry), entry.token)

    def is_live(self, entry: OutboxEntry) -> bool:
        with self._cond:
            return entry.token in self._live

    def enqueue(self, job: str, *args: Any) -> None:
        self._put(queue_for(job), job, args, None)

    def _put(self, lane: str, job: str, args: tuple[Any, ...], token: str | None) -> None:
        group = job_group(self._group_of, job, args)
        with self._cond:
            if token is not None:
                self._live.add(token)
            self._lanes[lane].append(group, (job, args, token))
            threads = self._threads[lane] = [t for t in self._threads[lane] if t.is_alive()]
            if len(threads) < self._sizes[lane]:
                thread = threading.Thread(target=self._loop, args=(lane,), name=f"tradewinds-{lane}", daemon=True)
                threads.append(thread)
                thread.start()
            self._work[lane].notify()

    def try_lock(self, name: str) -> AbstractContextManager[None]:
        return self._locks.try_lock(name)

    def heartbeat(self, token: str) -> AbstractContextManager[None]:
        return nullcontext()

    def _loop(self, lane: str) -> None:
        queue = self._lanes[lane]
        while True:
            with self._cond:
                while not queue:
                    self._cond.notify_all()  # for wait_idle: this lane may have just run dry
                    self._work[lane].wait()
                name, args, token = queue.popleft()
                self._busy += 1
            try:
                self._run(name, args)
            except Exception:
                log.exception("job %s%r failed", name, args)
            finally:
                with self._cond:
                    self._busy -= 1
                    if token is not None:
                        self._live.discard(token)
                    self._cond.notify_all()

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Block until no job is queued or running (for tests and orderly shutdown)."""
        with self._cond:
            return self._cond.wait_for(lambda: not any(self._lanes.values()) and not self._busy, timeout)

    def ping(self) -> None:
        return None


class RQDispatcher:
    """Queues jobs on RQ; ``tradewinds worker`` runs them. Survives Redis being away: the outbox keeps the work.
    ``group_of(job, args)``, once set, names a webhook job's group, which chooses its queue (see WEBHOOK_SHARDS)."""

    kind = "rq"

    def __init__(self, redis_url: str) -> None:
        from redis import Redis
        from rq import Queue

        self.redis = Redis.from_url(redis_url, socket_connect_timeout=1, socket_timeout=5, health_check_interval=10)
        self.queue = Queue(QUEUE_NAME, connection=self.redis)
        self.webhook_queues = {name: Queue(name, connection=self.redis) for name in WEBHOOK_QUEUE_NAMES}
        self.group_of: GroupOf | None = None  # set once the store is open (``Runtime.build``)
        self._down_until = 0.0
        self._beating: dict[str, bool] = {}  # running jobs' tokens: whether their alive key was written
        self._held: dict[str, Any] = {}  # the named locks (redis.lock.Lock) this process's jobs hold
        self._beat_lock = threading.Lock()
        self._beat_thread: threading.Thread | None = None

    def _queue(self, job: str, args: tuple[Any, ...]) -> Any:  # rq.Queue, imported lazily
        if job not in WEBHOOK_JOBS:
            return self.queue
        return self.webhook_queues[webhook_queue_for(job_group(self.group_of, job, args))]

    def _enqueue(self, job: str, own_args: tuple[Any, ...], args: tuple[Any, ...], job_id: str | None) -> None:
        """Queue ``job`` (whose own arguments are ``own_args``) as the call ``args``, under ``job_id``."""
        if time.monotonic() < self._down_until:
            raise ConnectionError("Redis was unreachable a moment ago; the outbox keeps the work")
        queue = self._queue(job, own_args)  # before the try: a store that cannot tell the group is no Redis failure
        try:
            queue.enqueue(
                f"workers.jobs.{'run_entry' if job_id else job}",
                *args,
                job_id=job_id,
                job_timeout=WEBHOOK_JOB_TIMEOUT if job in WEBHOOK_JOBS else BOT_JOB_TIMEOUT,
                result_ttl=0,  # the outcome is in the store; a finished job leaves nothing in Redis
                failure_ttl=3600,
            )
        except Exception:
            self._down_until = time.monotonic() + REDIS_DOWN_PAUSE
            raise

    def dispatch(self, entry: OutboxEntry) -> None:
        self._enqueue(entry.job, tuple(entry.args), entry_args(entry), f"ob-{entry.token}")

    def enqueue(self, job: str, *args: Any) -> None:
        self._enqueue(job, args, args, None)

    def is_live(self, entry: OutboxEntry) -> bool:
        """Waiting on its queue, or started by a worker whose heartbeat for it is fresh."""
        from rq.exceptions import NoSuchJobError
        from rq.job import Job, JobStatus

        try:
            job = Job.fetch(f"ob-{entry.token}", connection=self.redis)
        except NoSuchJobError:
            return False
        status = job.get_status(refresh=False)
        if status == JobStatus.QUEUED:
            return self._waiting(job)
        if status in (JobStatus.DEFERRED, JobStatus.SCHEDULED):
            return True
        if status == JobStatus.STARTED:
            return bool(self.redis.exists(alive_key(entry.token)))
        return False

    def _waiting(self, job: Any) -> bool:
        """Whether a job RQ calls queued is on its queue, or taken by a worker that has not started it yet (RQ's
        intermediate list, which RQ itself fails over when that worker dies). A worker that died, or lost Redis,
        between taking a job and starting it leaves it "queued" on neither, where no worker would ever take it.
        (A job between its worker's taking and its start, on no list for that moment, reads as not waiting: it may
        then run twice, which is harmless, as every job is idempotent.) A job of a queue not ours counts as waiting."""
        from rq.intermediate_queue import IntermediateQueue

        queue = self.webhook_queues.get(job.origin) or (self.queue if job.origin == QUEUE_NAME else None)
        if queue is None:
            return True
        lists = (queue.key, IntermediateQueue.get_intermediate_queue_key(queue.key))
        return any(self.redis.lpos(key, job.id) is not None for key in lists)

    @contextmanager
    def try_lock(self, name: str) -> Iterator[None]:
        """The named lock for one job at a time (``RetryLater`` when another holds it), leased for LOCK_LEASE and
        renewed by the heartbeat thread while the job runs."""
        from redis.exceptions import LockError

        # thread_local=False: the heartbeat thread renews the lease with the token this thread took it with
        lock = self.redis.lock(f"tradewinds:lock:{name}", timeout=LOCK_LEASE, blocking=False, thread_local=False)
        if not lock.acquire(blocking=False):
            raise RetryLater(1.0)
        with self._beat_lock:
            self._held[name] = lock
            self._start_beating()
        try:
            yield
        finally:
            with self._beat_lock:
                self._held.pop(name, None)
            try:
                lock.release()
            except LockError:  # its lease ran out meanwhile (Redis away for longer than LOCK_LEASE)
                log.warning("lock %s expired before its job ended", name)

    @contextmanager
    def heartbeat(self, token: str) -> Iterator[None]:
        """While a job runs, keep its alive key fresh; a dead worker's job is then noticed within seconds.

        One thread per process beats for every running job; a job shorter than a second (most) never
        writes its key: a sweeper looks at an entry only after its lease, far longer than that."""
        with self._beat_lock:
            self._beating[token] = False
            self._start_beating()
        try:
            yield
        finally:
            with self._beat_lock:
                beaten = self._beating.pop(token, False)
            if beaten:
                try:
                    self.redis.delete(alive_key(token))
                except Exception:
                    pass

    def _start_beating(self) -> None:
        """Start the heartbeat thread if it is not running (called holding ``_beat_lock``)."""
        if self._beat_thread is None or not self._beat_thread.is_alive():
            self._beat_thread = threading.Thread(target=self._beat, name="tradewinds-heartbeat", daemon=True)
            self._beat_thread.start()

    def _beat(self) -> None:
        while True:
            time.sleep(HEARTBEAT_EVERY)
            with self._beat_lock:
                tokens = list(self._beating)
                locks = list(self._held.values())
            for lock in locks:
                try:
                    lock.reacquire()  # back to a whole LOCK_LEASE, if this process still holds it
                except Exception:  # Redis is away, or the lease ran out: release() says so when the job ends
                    pass
            for token in tokens:
                try:
                    self.redis.set(alive_key(token), 1, ex=HEARTBEAT_TTL)
                except Exception:  # Redis is away: the sweeper will retry the work if this job dies
                    continue
                with self._beat_lock:
                    if token in self._beating:
                        self._beating[token] = True

    def ping(self) -> None:
        self.redis.ping()


def alive_key(token: str) -> str:
    return f"tradewinds:alive:{token}"
