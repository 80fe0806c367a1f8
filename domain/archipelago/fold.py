"""The registry of Archipelago's fold: one handler per event type, registered with ``on``.

``apply(state, event)`` folds in place; ``evolve(state, event)`` is the pure fold: it copies only the fields the
event's handler touches (declared with ``on``), sharing the rest with ``state``. The handlers live in ``evolve``,
``evolve_map``, ``evolve_crises`` and ``evolve_market``; importing ``domain.archipelago.evolve`` registers them all.

The state never shares a mutable object with an event: whatever an event carries into the state is copied, so
folding in place (the bots' fast path) cannot change a stored event or a later state.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.archipelago.state import ArchState, copy_on_write

Handler = Callable[[ArchState, dict], None]
_H: dict[str, Handler] = {}
TOUCHES: dict[str, tuple[str, ...]] = {}  # per event type: the state fields (containers) its handler reads or changes


def on(name: str, *touches: str) -> Callable[[Handler], Handler]:
    """Register the fold of event ``name``; ``touches`` names every container field of the state the handler (or a
    helper it calls) uses, so ``evolve`` copies just those (a test derives the list from the code and compares)."""

    def deco(fn: Handler) -> Handler:
        _H[name] = fn
        TOUCHES[name] = touches
        return fn

    return deco


def apply(st: ArchState, ev: dict) -> None:
    """Fold ``ev`` into ``st`` itself."""
    fn = _H.get(ev["type"])
    if fn is not None:
        fn(st, ev)


def evolve(state: ArchState, ev: dict) -> ArchState:
    """The pure fold of one event: a copy of ``state`` that shares every field the event does not touch."""
    t = ev["type"]
    fn = _H.get(t)
    new = copy_on_write(state, TOUCHES.get(t, ()))
    if fn is not None:
        fn(new, ev)
    return new
