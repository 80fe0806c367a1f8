"""Snapshots as data: a game state written as tagged JSON, authenticated, tied to the chain it was taken at.

A snapshot row is JSON: ``{"format", "stream", "generation", "version", "chain_hash", "state", "mac"}``,
where ``chain_hash`` is the stored hash of the event at ``version`` and ``mac`` an HMAC (a key derived
from the server's signing key, never stored in the database) over everything else. A row is used only
when it parses, its MAC is the server's, and its chain hash is the hash the stream holds at that version
now; otherwise it is ignored (and logged) and the state is folded from the events. Reading one runs
no code named by the data: JSON is parsed, then only classes of the game's own modules are rebuilt, by
setting their fields.

State encoding (each JSON object is a tag; lists are lists):

- ``{"t": [...]}`` tuple, ``{"fs": [...]}`` frozenset, ``{"s": [...]}`` set, ``{"d": [[k, v], ...]}`` dict
  (any keys), ``{"f": float}`` for floats that JSON cannot carry (inf, nan);
- ``{"o": "module:Qualname", "v": {field: value}}`` an object: dataclass fields (slots or not) or
  ``__dict__`` (through ``__getstate__``/``__setstate__`` when the class defines them);
- ``{"r": "module:Qualname", "a": [...]}`` an object its class reduces to ``module-level function(*args)``
  (interned values such as Amerigo boards), rebuilt by calling that function of that module;
- ``{"e": "module:Qualname", "v": value}`` an enum member.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import logging
import math
import sys
from typing import Any

from eventstore.base import canonical_json

log = logging.getLogger(__name__)

SNAPSHOT_FORMAT = "tradewinds-snapshot/1"


_TAGS = frozenset(map(frozenset, (("t",), ("d",), ("s",), ("fs",), ("f",), ("e", "v"), ("r", "a"), ("o", "v"))))


class SnapshotError(ValueError):
    """The snapshot is not one this server wrote for this chain."""


# --------------------------------------------------------------------------- the state codec
class StateCodec:
    """Encodes states of classes from ``allowed_modules`` (module names or package prefixes ending in '.')."""

    def __init__(self, allowed_modules: tuple[str, ...]) -> None:
        self.allowed = allowed_modules

    def _allowed(self, module: str) -> bool:
        return any(module == a or (a.endswith(".") and module.startswith(a)) for a in self.allowed)

    def _name(self, cls: type) -> str:
        if not self._allowed(cls.__module__):
            raise TypeError(f"{cls.__module__}.{cls.__qualname__} is not a class of the game's modules")
        return f"{cls.__module__}:{cls.__qualname__}"

    def _lookup(self, name: Any) -> Any:
        if not isinstance(name, str) or name.count(":") != 1:
            raise SnapshotError(f"bad class name {name!r}")
        module_name, qualname = name.split(":")
        if not self._allowed(module_name) or module_name not in sys.modules:  # never imports anything
            raise SnapshotError(f"{name!r} is not a class of the game's modules")
        found: Any = sys.modules[module_name]
        for part in qualname.split("."):
            if part.startswith("__"):
                raise SnapshotError(f"bad class name {name!r}")
            found = getattr(found, part, None)
        if found is None:
            raise SnapshotError(f"no {name!r}")
        return found

    # ------------------------------------------------------------------ encode
    def encode(self, value: Any) -> Any:
        if value is None or isinstance(value, bool | int | str):
            return value
        if isinstance(value, float):
            return value if math.isfinite(value) else {"f": repr(value)}
        if isinstance(value, enum.Enum):
            return {"e": self._name(type(value)), "v": self.encode(value.value)}
        if type(value) is list:
            return [self.encode(v) for v in value]
        if type(value) is tuple:
            return {"t": [self.encode(v) for v in value]}
        if type(value) is dict:
            return {"d": [[self.encode(k), self.encode(v)] for k, v in value.items()]}
        if type(value) in (set, frozenset):
            items = sorted((self.encode(v) for v in value), key=canonical_json)
            return {"s" if type(value) is set else "fs": items}
        cls = type(value)
        if "__reduce__" in cls.__dict__:
            reduced: Any = value.__reduce__()
            function, args = reduced[:2]
            if not callable(function):
                raise TypeError(f"{cls.__qualname__} reduces to {function!r}, not a function")
            name = f"{function.__module__}:{function.__qualname__}"
            if getattr(sys.modules.get(function.__module__), function.__name__, None) is not function:
                raise TypeError(f"{cls.__qualname__} reduces to {function!r}, not a module-level function")
            self._name(cls)
            return {"r": name, "a": [self.encode(a) for a in args]}
        if dataclasses.is_dataclass(value):
            fields = {f.name: self.encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
            return {"o": self._name(cls), "v": fields}
        if hasattr(value, "__dict__"):
            values = value.__getstate__() if "__getstate__" in cls.__dict__ else value.__dict__
            return {"o": self._name(cls), "v": {k: self.encode(v) for k, v in values.items()}}
        raise TypeError(f"cannot encode a {cls.__qualname__} in a snapshot")

    # ------------------------------------------------------------------ decode
    def decode(self, data: Any) -> Any:
        if data is None or isinstance(data, bool | int | float | str):
            return data
        if isinstance(data, list):
            return [self.decode(v) for v in data]
        if not isinstance(data, dict) or frozenset(data) not in _TAGS:
            raise SnapshotError("malformed snapshot value")
        if "t" in data:
            return tuple(self.decode(v) for v in data["t"])
        if "d" in data:
            return {self.decode(k): self.decode(v) for k, v in data["d"]}
        if "s" in data:
            return {self.decode(v) for v in data["s"]}
        if "fs" in data:
            return frozenset(self.decode(v) for v in data["fs"])
        if "f" in data:
            return float(data["f"])
        if "e" in data:
            cls = self._lookup(data["e"])
            if not (isinstance(cls, type) and issubclass(cls, enum.Enum)):
                raise SnapshotError(f"{data['e']!r} is not an enum")
            return cls(self.decode(data["v"]))
        if "r" in data:
            function = self._lookup(data["r"])
            if not callable(function) or isinstance(function, type):
                raise SnapshotError(f"{data['r']!r} is not a function")
            return function(*[self.decode(a) for a in data["a"]])
        if "o" in data:
            return self._rebuild(self._lookup(data["o"]), data["v"])
        raise SnapshotError("malformed snapshot value")

    def _rebuild(self, cls: Any, fields: Any) -> Any:
        if not isinstance(cls, type) or not isinstance(fields, dict):
            raise SnapshotError("malformed snapshot object")
        values = {name: self.decode(v) for name, v in fields.items()}
        obj: Any = object.__new__(cls)  # no __init__: the fields are the state
        if dataclasses.is_dataclass(cls):
            names = {f.name for f in dataclasses.fields(cls)}
            if set(values) != names:
                raise SnapshotError(f"{cls.__qualname__} fields differ from the snapshot's")
            for name, value in values.items():
                object.__setattr__(obj, name, value)
        elif "__setstate__" in cls.__dict__:
            obj.__setstate__(values)
        else:
            obj.__dict__.update(values)
        return obj


def codec_for(rules: Any) -> StateCodec:
    """The game's own modules: its package in ``domain`` (and the module that defines its rules class)."""
    module = type(rules).__module__
    allowed = {module}
    if module.startswith("domain."):
        allowed.add(".".join(module.split(".")[:2]) + ".")
    return StateCodec(tuple(sorted(allowed)))


# --------------------------------------------------------------------------- snapshot rows
def dump(key: Any, rules: Any, stream: str, generation: int, version: int, chain_hash: str, state: Any) -> bytes:
    body = {
        "format": SNAPSHOT_FORMAT,
        "stream": stream,
        "generation": generation,
        "version": version,
        "chain_hash": chain_hash,
        "state": codec_for(rules).encode(state),
    }
    text = canonical_json(body)
    return canonical_json({**body, "mac": key.mac(text.encode("utf-8"))}).encode("utf-8")


def load(key: Any, rules: Any, blob: bytes, stream: str, generation: int, version: int, chain_hash: str) -> Any:
    """The state a snapshot row holds, or ``SnapshotError`` when it is not this server's for this chain."""
    try:
        body = json.loads(bytes(blob).decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise SnapshotError("not a JSON snapshot") from None
    if not isinstance(body, dict) or body.get("format") != SNAPSHOT_FORMAT:
        raise SnapshotError("not a snapshot of this format")
    mac = body.pop("mac", None)
    if not key.check_mac(canonical_json(body).encode("utf-8"), mac):
        raise SnapshotError("its MAC is not this server's")
    expected = {"stream": stream, "generation": generation, "version": version, "chain_hash": chain_hash}
    found = {name: body.get(name) for name in expected}
    if found != expected:
        raise SnapshotError(f"it was taken at {found}, not at the chain's {expected}")
    return codec_for(rules).decode(body["state"])
