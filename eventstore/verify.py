"""Recompute a stream's hash chain (shared by every backend's ``verify``)."""

from __future__ import annotations

from collections.abc import Iterable

from eventstore.base import AuditReport, StoredEvent, chain_hash


def verify_events(
    stream: str,
    events: Iterable[StoredEvent],
    head_version: int,
    head_hash: str,
    genesis: str,
    generation: int = 0,
    head_signature: str = "",
) -> AuditReport:
    """Check versions 1..n are contiguous, each hash chains to the previous one (from ``genesis``, the hash
    of the stream as created), and the stream head agrees.

    ``broken_version`` is the first version whose stored hash does not match the recomputed one (or the
    first missing version); the head check names ``head_version`` when the stream row disagrees.
    """
    previous = genesis
    checked = 0

    def report(ok: bool, broken: int | None, detail: str) -> AuditReport:
        return AuditReport(stream, ok, checked, broken, detail, generation, head_version, head_hash, head_signature)

    for expected_version, event in enumerate(events, start=1):
        if event.version != expected_version:
            return report(False, expected_version, f"version {expected_version} is missing")
        recomputed = chain_hash(previous, event.version, event.generation, event.recorded_at, event.data, event.meta)
        if recomputed != event.hash:
            return report(
                False,
                event.version,
                f"version {event.version}: stored hash {event.hash[:12]}... does not match recomputed {recomputed[:12]}...",
            )
        previous = event.hash
        checked += 1
    if checked != head_version:
        return report(False, checked + 1, f"stream is at version {head_version} but {checked} events are stored")
    if previous != head_hash:
        return report(
            False,
            head_version or None,
            "the stream's head hash does not match its last event"
            if head_version
            else "the stream's genesis hash does not match the stream as created",
        )
    return report(True, None, f"{checked} events verified")
