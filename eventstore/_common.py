"""Helpers shared by the backends: validation, JSON copies, timestamps, wake-up waiting."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from typing import Any

import orjson

from eventstore.base import StreamInfo, WrongExpectedVersion, canonical_json, head_message

MAX_NAME_LENGTH = 200


def iso_utc(moment: datetime) -> str:
    """ISO 8601 in UTC with microseconds and a ``Z`` suffix: ``2026-11-21T21:48:00.123456Z``."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def utc_now_iso() -> str:
    """``iso_utc`` of now (``isoformat`` of an aware UTC time ends ``+00:00``: that becomes the ``Z``)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")[:-6] + "Z"


# An integer orjson might not give back as ``json`` does: beyond 64 bits it becomes a float there. Every integer
# of 19 digits fits in 64 bits unsigned (below 10**19 < 2**64), a negative one only down to -2**63: so ``json``
# reads a text with a run of 20 digits, or of 19 after a minus sign (a long digit string inside a text matches too,
# and costs only the slower read). The runs are looked for in the text's bytes with every digit made "0" and every
# other byte but "-" a space (a regular expression costs more than the parse it would spare).
_DIGIT_SHAPE = bytes(0x30 if 0x30 <= b <= 0x39 else b if b == 0x2D else 0x20 for b in range(256))
_LONG_RUNS = (b"0" * 20, b"-" + b"0" * 19)


def json_loads(text: str | bytes) -> Any:
    """``json.loads(text)``, the same value, faster: with orjson, unless the text may hold an integer beyond 64 bits
    (``_LONG_RUNS``) or orjson refuses it (NaN, a number beyond a double's range, a lone surrogate, deep nesting),
    which ``json`` reads as it always did. Every read of a stored document, event or stream row parses JSON
    (PostgreSQL's ``json`` and ``jsonb`` values come as UTF-8 bytes)."""
    raw = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")  # a lone surrogate: refused
    shape = raw.translate(_DIGIT_SHAPE)
    if _LONG_RUNS[0] not in shape and _LONG_RUNS[1] not in shape:
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


def check_name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_NAME_LENGTH or "\x00" in value:
        raise ValueError(f"{what} must be a non-empty string of at most {MAX_NAME_LENGTH} characters")
    return value


def json_copy(value: Any, what: str) -> Any:
    """A deep copy through canonical JSON: what every backend stores and returns (tuples become lists)."""
    return json_copy_and_text(value, what)[0]


def json_copy_and_text(value: Any, what: str) -> tuple[Any, str]:
    """``json_copy`` and the canonical JSON it was read back from."""
    try:
        text = canonical_json(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what} is not JSON-serialisable: {exc}") from exc
    return json_loads(text), text


def check_dict(value: Any, what: str) -> dict[str, Any]:
    return check_dict_and_text(value, what)[0]


def check_dict_and_text(value: Any, what: str) -> tuple[dict[str, Any], str]:
    """``check_dict`` and the dict's canonical JSON (what an append stores as an event's meta)."""
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be a JSON object (dict)")
    copied, text = json_copy_and_text(value, what)
    return copied, text


def check_events(events: Any) -> list[tuple[dict[str, Any], str]]:
    """Validate a batch before anything is written (a bad event fails the whole batch).

    Returns each event as (a copy, its canonical JSON).
    """
    if not isinstance(events, list | tuple) or not events:
        raise ValueError("append needs a non-empty list of events")
    encoded = []
    for index, event in enumerate(events):
        if not isinstance(event, dict) or not isinstance(event.get("type"), str) or not event["type"]:
            raise ValueError(f"event {index} must be a dict with a non-empty string 'type'")
        try:
            text = canonical_json(event)
            if "NaN" in text or "Infinity" in text:  # not JSON: refuse them (the rare false alarm costs a check)
                json.dumps(event, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"event {index} is not JSON-serialisable: {exc}") from exc
        encoded.append((json_loads(text), text))
    return encoded


def event_payload(version: int, generation: int, recorded_at: str, data_text: str, meta_text: str) -> str:
    """``canonical_json({"version", "generation", "recorded_at", "data", "meta"})`` built from the canonical
    JSON of data and meta (sorted keys: data < generation < meta < recorded_at < version; the ISO time
    needs no escaping)."""
    return (
        f'{{"data":{data_text},"generation":{generation},"meta":{meta_text},'
        f'"recorded_at":"{recorded_at}","version":{version}}}'
    )


def sign_head(signer: Any, stream: str, generation: int, version: int, head_hash: str) -> str:
    """The signature a store keeps with its head ("" without a signer)."""
    return signer(head_message(stream, generation, version, head_hash)) if signer is not None else ""


def hash_payload(previous_hash: str, payload: str) -> str:
    """The chain step of ``base.chain_hash`` for a payload built by ``event_payload``."""
    return hashlib.sha256((previous_hash + payload).encode("utf-8")).hexdigest()


def check_expected_version(expected_version: Any) -> int:
    if not isinstance(expected_version, int) or isinstance(expected_version, bool) or expected_version < 0:
        raise ValueError("expected_version must be an integer >= 0")
    return expected_version


def check_truncation_args(actor: Any, reason: Any, expected_version: Any) -> None:
    check_name(actor, "actor")
    if not isinstance(reason, str):
        raise ValueError("reason must be a string")
    check_expected_version(expected_version)


def check_truncation_target(stream: str, info: StreamInfo, to_version: Any, expected_version: int) -> None:
    """Under the stream's lock: the writer's expected version first, then the target."""
    if info.version != expected_version:
        raise WrongExpectedVersion(stream, expected_version, info.version)
    if not isinstance(to_version, int) or isinstance(to_version, bool) or not 0 <= to_version < info.version:
        raise ValueError(f"cannot truncate stream {stream!r} at version {info.version} back to {to_version}")


def check_paging(limit: int, offset: int = 0) -> None:
    if limit < 0 or offset < 0:
        raise ValueError("limit and offset must be >= 0")


def wait_until(
    condition: threading.Condition,
    counter: Callable[[], int],
    has_newer: Callable[[], bool],
    timeout: float,
    poll: float,
) -> bool:
    """Return True as soon as ``has_newer()``; re-check when ``counter()`` changes (a wake-up) or every ``poll`` s."""
    deadline = time.monotonic() + max(0.0, timeout)
    while True:
        with condition:
            seen = counter()
        if has_newer():
            return True
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        with condition:
            condition.wait_for(partial(_moved, counter, seen), timeout=min(remaining, poll))


def _moved(counter: Callable[[], int], seen: int) -> bool:
    return counter() != seen


def one(row: tuple[Any, ...] | None) -> Any:
    """The first column of a row that the query always returns (an aggregate, a RETURNING clause)."""
    assert row is not None, "the query returns a row"
    return row[0]


def chain_batch(
    previous: str, after_version: int, generation: int, recorded_at: str, data_texts: list[str], meta_text: str
) -> list[str]:
    """The chain hashes of a batch appended after ``after_version`` on the head hash ``previous``."""
    hashes = []
    for version, data_text in enumerate(data_texts, start=after_version + 1):
        previous = hash_payload(previous, event_payload(version, generation, recorded_at, data_text, meta_text))
        hashes.append(previous)
    return hashes


def check_head(head: StreamInfo | None, stream: str, expected_version: int) -> None:
    """``append``'s ``head``: the stream as the caller read it, at the version it expects."""
    if head is not None and (head.stream != stream or head.version != expected_version):
        raise ValueError("head must be the stream's info read at expected_version")


def signed_in_advance(signer: Any, head: StreamInfo, data_texts: list[str], meta_text: str) -> dict[str, Any]:
    """For an append on ``head`` (a read of the stream): the recording time, the new head hash and its
    signature, computed before the write (the store then refuses the write if its head is another)."""
    recorded_at = utc_now_iso()
    hashes = chain_batch(head.head_hash, head.version, head.generation, recorded_at, data_texts, meta_text)
    head_hash = hashes[-1] if hashes else head.head_hash
    version = head.version + len(data_texts)
    return {"r": recorded_at, "hd": head_hash, "g": sign_head(signer, head.stream, head.generation, version, head_hash)}


def same_head(head: StreamInfo | None, generation: int, head_hash: str) -> bool:
    """Whether the stream's head is the one ``head`` read (a truncation since changes the generation)."""
    return head is None or (head.generation == generation and (not head.head_hash or head.head_hash == head_hash))
