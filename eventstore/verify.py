"""Recompute a stream's hash chain (shared by every backend's ``verify``)."""

from __future__ import annotations

from collections.abc import Iterable

from eventstore.base import GENESIS_HASH, AuditReport, StoredEvent, chain_hash


def verify_events(stream: str, events: Iterable[StoredEvent], head_version: int, head_hash: str) -> AuditReport:
    """Check versions 1..n are contiguous, each hash chains to the previous one, and the stream head agrees.

    ``broken_version`` is the first version whose stored hash does not match the recomputed one (or the
    first missing version); the head check names ``head_version`` when the stream row disagrees.
    """
    previous = GENESIS_HASH
    checked = 0
    for expected_version, event in enumerate(events, start=1):
        if event.version != expected_version:
            return AuditReport(stream, False, checked, expected_version, f"version {expected_version} is missing")
        recomputed = chain_hash(previous, event.version, event.data, event.meta)
        if recomputed != event.hash:
            return AuditReport(
                stream,
                False,
                checked,
                event.version,
                f"version {event.version}: stored hash {event.hash[:12]}... does not match recomputed {recomputed[:12]}...",
            )
        previous = event.hash
        checked += 1
    if checked != head_version:
        return AuditReport(
            stream, False, checked, checked + 1, f"stream is at version {head_version} but {checked} events are stored"
        )
    if previous != head_hash:
        return AuditReport(
            stream, False, checked, head_version or None, "the stream's head hash does not match its last event"
        )
    return AuditReport(stream, True, checked, None, f"{checked} events verified")
