"""Caps on live followers (per client address, per game, per process) and noticing a client that left.

Counts are shared by every process through Redis when it is configured: each follower holds a member of
a sorted set per address and per game, scored by when it lapses, and refreshes it while it streams, so
the slots of a killed process lapse within ``SLOT_TTL`` seconds. Without Redis, ``serve``'s processes share
the same slots in their counter file (``api.counters``); an app with neither counts in its process. The
per-process cap keeps request threads (or connections) free for ordinary requests whatever the other caps
say.
"""

from __future__ import annotations

import logging
import os
import select
import socket
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Any

from api.counters import CounterFile
from api.errors import ApiError

SLOT_TTL = 15.0  # seconds a slot lives in Redis without a refresh
REFRESH_SECONDS = 5.0  # one pipeline per process refreshes all its followers' slots
REDIS_CONNECTIONS = 16  # per process: followers wait for one rather than open one each

log = logging.getLogger(__name__)


def shared_redis(url: str | None) -> Any:
    """A Redis client of the follower counts' own: a bounded, blocking pool (a thousand followers
    refreshing their slots must queue for a connection, not fail for want of one)."""
    if not url:
        return None
    from redis import BlockingConnectionPool, Redis

    pool = BlockingConnectionPool.from_url(
        url, max_connections=REDIS_CONNECTIONS, timeout=10, socket_connect_timeout=3, socket_timeout=10
    )
    return Redis(connection_pool=pool)


def setting(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


@dataclass(frozen=True)
class Caps:
    per_address: int
    per_game: int
    per_process: int

    @classmethod
    def from_environment(cls) -> Caps:
        return cls(
            per_address=setting("TRADEWINDS_FOLLOWERS_PER_ADDRESS", 20),
            per_game=setting("TRADEWINDS_FOLLOWERS_PER_GAME", 1000),
            per_process=setting("TRADEWINDS_FOLLOWERS_PER_PROCESS", 900),
        )


def too_many(detail: str) -> ApiError:
    return ApiError("too_many_followers", detail, headers={"Retry-After": "5"})


class LocalSlots:
    def __init__(self) -> None:
        self._counts: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, keys: list[tuple[str, int, str]], slot_id: str) -> None:
        with self._lock:
            for key, cap, detail in keys:
                if self._counts.get(key, 0) >= cap:
                    raise too_many(detail)
            for key, _, _ in keys:
                self._counts[key] = self._counts.get(key, 0) + 1

    def refresh(self, slots: list[tuple[list[str], str]]) -> None:
        return None

    def release(self, keys: list[str], slot_id: str) -> None:
        with self._lock:
            for key in keys:
                left = self._counts.get(key, 0) - 1
                if left > 0:
                    self._counts[key] = left
                else:
                    self._counts.pop(key, None)

    def count(self, key: str) -> int:
        with self._lock:
            return self._counts.get(key, 0)


class RedisSlots:
    PREFIX = "tradewinds:followers:"

    def __init__(self, redis: Any) -> None:
        self.redis = redis

    def take(self, keys: list[tuple[str, int, str]], slot_id: str) -> None:
        now = time.time()
        pipe = self.redis.pipeline()
        for key, _, _ in keys:
            name = self.PREFIX + key
            pipe.zremrangebyscore(name, "-inf", now)
            pipe.zadd(name, {slot_id: now + SLOT_TTL})
            pipe.zcard(name)
            pipe.expire(name, int(SLOT_TTL) * 2)
        results = pipe.execute()
        for index, (_key, cap, detail) in enumerate(keys):
            if results[index * 4 + 2] > cap:
                self.release([k for k, _, _ in keys], slot_id)
                raise too_many(detail)

    def refresh(self, slots: list[tuple[list[str], str]]) -> None:
        """Extend the lapse time of these (keys, slot id) in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        lapse = time.time() + SLOT_TTL
        for keys, slot_id in slots:
            for key in keys:
                # added again if it is gone (a Redis that restarted lost it): the caps hold across the restart; a
                # slot released meanwhile is released again by the caller
                pipe.zadd(self.PREFIX + key, {slot_id: lapse})
        for key in {key for keys, _ in slots for key in keys}:
            pipe.expire(self.PREFIX + key, int(SLOT_TTL) * 2)
        pipe.execute()

    def release(self, keys: list[str], slot_id: str) -> None:
        pipe = self.redis.pipeline()
        for key in keys:
            pipe.zrem(self.PREFIX + key, slot_id)
        pipe.execute()

    def count(self, key: str) -> int:
        name = self.PREFIX + key
        self.redis.zremrangebyscore(name, "-inf", time.time())
        return int(self.redis.zcard(name))


class FileSlots:
    """The slots of RedisSlots in the counter file of one ``serve`` (``api.counters``)."""

    def __init__(self, counters: CounterFile) -> None:
        self.counters = counters

    def take(self, keys: list[tuple[str, int, str]], slot_id: str) -> None:
        full = self.counters.take([(key, cap) for key, cap, _ in keys], slot_id, SLOT_TTL)
        if full is not None:
            raise too_many(next(detail for key, _, detail in keys if key == full))

    def refresh(self, slots: list[tuple[list[str], str]]) -> None:
        self.counters.refresh([slot_id for _, slot_id in slots], SLOT_TTL)

    def release(self, keys: list[str], slot_id: str) -> None:
        self.counters.release(slot_id)

    def count(self, key: str) -> int:
        return self.counters.count(key)


@dataclass
class Slot:
    limiter: FollowerLimits
    keys: list[str]
    slot_id: str
    released: bool = False

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.limiter.forget(self.slot_id)
            self.limiter.local.release(self.keys[:1], self.slot_id)
            try:
                self.limiter.shared.release(self.keys[1:], self.slot_id)
            except Exception:  # it lapses within SLOT_TTL anyway
                log.warning("could not release a follower slot", exc_info=True)


class FollowerLimits:
    def __init__(self, caps: Caps, redis: Any = None, counters: CounterFile | None = None) -> None:
        self.caps = caps
        self.local = LocalSlots()  # the per-process cap is always counted here
        self.shared: LocalSlots | RedisSlots | FileSlots
        if redis is not None:
            self.shared = RedisSlots(redis)
        elif counters is not None:
            self.shared = FileSlots(counters)
        else:
            self.shared = LocalSlots()
        self._live: dict[str, list[str]] = {}  # slot id -> its shared keys, refreshed together
        self._lock = threading.Lock()
        self._refresher: threading.Thread | None = None

    def forget(self, slot_id: str) -> None:
        with self._lock:
            self._live.pop(slot_id, None)

    def _remember(self, slot_id: str, keys: list[str]) -> None:
        with self._lock:
            self._live[slot_id] = keys
            lapsing = isinstance(self.shared, (RedisSlots, FileSlots))
            if lapsing and (self._refresher is None or not self._refresher.is_alive()):
                self._refresher = threading.Thread(target=self._refresh, name="tradewinds-slots", daemon=True)
                self._refresher.start()

    def _refresh(self) -> None:
        """Every REFRESH_SECONDS, one pipeline extends every live slot of this process."""
        while True:
            time.sleep(REFRESH_SECONDS)
            with self._lock:
                slots = [(keys, slot_id) for slot_id, keys in self._live.items()]
            if not slots:
                continue
            try:
                self.shared.refresh(slots)
                with self._lock:  # released while the refresh was under way: not brought back by it
                    gone = [(keys, slot_id) for keys, slot_id in slots if slot_id not in self._live]
                for keys, slot_id in gone:
                    self.shared.release(keys, slot_id)
            except Exception:  # Redis (or the file) is down or slow: streams go on; their slots may lapse early
                log.warning("could not refresh %d follower slots", len(slots), exc_info=True)

    def acquire(self, address: str, game_id: str) -> Slot:
        slot_id = uuid.uuid4().hex
        process_key = "process"
        self.local.take(
            [
                (
                    process_key,
                    self.caps.per_process,
                    f"this server process follows {self.caps.per_process} streams already; try again shortly",
                )
            ],
            slot_id,
        )
        shared = [
            (
                f"addr:{address}",
                self.caps.per_address,
                f"at most {self.caps.per_address} live followers per client address; close one first",
            ),
            (
                f"game:{game_id}",
                self.caps.per_game,
                f"at most {self.caps.per_game} live followers per game; try again shortly",
            ),
        ]
        try:
            self.shared.take(shared, slot_id)
        except ApiError:  # a cap is reached
            self.local.release([process_key], slot_id)
            raise
        except Exception as exc:  # the shared counts (Redis, the counter file) do not answer: a 503, not a 500
            self.local.release([process_key], slot_id)
            log.warning("could not count a follower", exc_info=True)
            raise ApiError(
                "unavailable", "the follower counts do not answer; try again shortly", headers={"Retry-After": "5"}
            ) from exc
        except BaseException:
            self.local.release([process_key], slot_id)
            raise
        self._remember(slot_id, [k for k, _, _ in shared])
        return Slot(self, [process_key] + [k for k, _, _ in shared], slot_id)

    def count(self, address: str | None = None, game_id: str | None = None) -> int:
        if address is not None:
            return self.shared.count(f"addr:{address}")
        if game_id is not None:
            return self.shared.count(f"game:{game_id}")
        return self.local.count("process")


def client_gone(sock: socket.socket | None) -> bool:
    """True when the peer of a streaming response has closed its end (readable, and reading gives EOF).

    A follower sends nothing after its request, so a readable socket means EOF or a reset; bytes (a
    pipelined request) are left alone.
    """
    if sock is None:
        return False
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        if not readable:
            return False
        return sock.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True
