"""Deterministic randomness derived from (game seed, stream version).

``decide`` receives ``rng_for(seed, version)`` where ``version`` is the stream version the command is
decided against. Undoing a move and playing it again therefore draws the same outcome: undo cannot
be used to re-roll. ``setup`` draws from ``rng_for(seed, 0)``.
"""

from __future__ import annotations

import hashlib
import random


def rng_for(seed: int, version: int, purpose: str = "decide") -> random.Random:
    """A ``random.Random`` seeded from SHA-256 of the seed, the version and a purpose tag."""
    digest = hashlib.sha256(f"tradewinds:{purpose}:{seed}:{version}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def new_seed(source: random.Random | None = None) -> int:
    """A fresh 63-bit game seed (from ``source`` when given, otherwise from the OS)."""
    if source is not None:
        return source.getrandbits(63)
    return random.SystemRandom().getrandbits(63)
