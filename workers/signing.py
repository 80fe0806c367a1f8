"""The server's signing key: Ed25519 (the ``cryptography`` package), kept in a file outside the database.

The store signs every stream head with it (``eventstore.base.head_message``); exports carry the head's
signature and the public key; ``verify`` checks the signature against the keys it trusts. The same
key authenticates snapshots (an HMAC key derived from it), so a snapshot row written by anyone without
the key file is ignored.

The key file is PEM (PKCS#8, unencrypted), mode 0600, created on first start when missing:
``TRADEWINDS_SIGNING_KEY_FILE``, or ``signing-key.pem`` in the data directory. Every process of one
deployment (API servers, workers) must read the same file.

Rotation (``tradewinds rotate-signing-key``, docs/deployment.md): the public half of the key being replaced is
appended to ``<key file>.retired`` (one base64 public key a line, with its id and the time), and a new key
takes its place in the key file. Heads signed before stay signed by the retired key, which stays trusted
for checking them (audits, exports, ``verify``); every change from then on is signed with the new key. The
retired key's private half is gone with the old file.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

ALGORITHM = "Ed25519"
KEY_FILE_NAME = "signing-key.pem"
RETIRED_SUFFIX = ".retired"


class KeyFileError(Exception):
    """The key file exists but is not an Ed25519 private key in PEM."""


class ServerKey:
    def __init__(self, private_key: Ed25519PrivateKey) -> None:
        self._private = private_key
        raw_private = private_key.private_bytes(
            serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
        )
        self._mac_key = hashlib.sha256(b"tradewinds snapshot mac\x00" + raw_private).digest()
        self.public_raw = private_key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        self.path: Path | None = None
        self.retired: tuple[str, ...] = ()  # public keys (base64) of keys this one replaced

    # ------------------------------------------------------------------ creation
    @classmethod
    def generate(cls) -> ServerKey:
        """A key of this process only (tests, ``memory://`` servers): nothing it signs outlives it."""
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def load_or_create(cls, path: str | os.PathLike[str]) -> ServerKey:
        path = Path(path)
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            key = Ed25519PrivateKey.generate()
            pem = key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
            # written whole to a private file, then linked into place: two processes starting at once
            # keep whichever key was linked first, and no reader ever sees a half-written file
            fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".signing-key-")
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(pem)
                try:
                    os.link(temporary, path)
                except FileExistsError:
                    pass
            finally:
                os.unlink(temporary)
        try:
            loaded = serialization.load_pem_private_key(path.read_bytes(), password=None)
        except (ValueError, TypeError) as exc:
            raise KeyFileError(f"{path} is not an unencrypted PEM private key: {exc}") from None
        if not isinstance(loaded, Ed25519PrivateKey):
            raise KeyFileError(f"{path} holds a {type(loaded).__name__}, not an Ed25519 private key")
        server_key = cls(loaded)
        server_key.path = path
        server_key.retired = read_retired(retired_path(path))
        return server_key

    # ------------------------------------------------------------------ use
    def sign(self, message: bytes) -> str:
        return base64.b64encode(self._private.sign(message)).decode("ascii")

    def mac(self, data: bytes) -> str:
        return hmac.new(self._mac_key, data, hashlib.sha256).hexdigest()

    def check_mac(self, data: bytes, mac: str) -> bool:
        return isinstance(mac, str) and hmac.compare_digest(self.mac(data), mac)

    @property
    def public_key(self) -> str:
        """The raw 32-byte public key in base64."""
        return base64.b64encode(self.public_raw).decode("ascii")

    @property
    def key_id(self) -> str:
        return hashlib.sha256(self.public_raw).hexdigest()[:16]

    @property
    def public_pem(self) -> str:
        return (
            self._private.public_key()
            .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
            .decode("ascii")
        )

    @property
    def trusted_keys(self) -> list[str]:
        """The public keys heads of this deployment may be signed with: this one, then the retired ones."""
        return [self.public_key, *self.retired]

    def signer_of(self, message: bytes, signature: str) -> str | None:
        """Which trusted key (base64 public key) made ``signature`` of ``message``, if any."""
        for public_key in self.trusted_keys:
            if signature_valid(public_key, message, signature):
                return public_key
        return None

    def describe(self) -> dict[str, object]:
        return {
            "algorithm": ALGORITHM,
            "key_id": self.key_id,
            "public_key": self.public_key,
            "public_key_pem": self.public_pem,
            "retired_keys": [{"key_id": key_id_of(key), "public_key": key} for key in self.retired],
        }


def key_id_of(public_key: str) -> str:
    """A base64 public key's id: the first 16 hex digits of SHA-256 of its raw bytes."""
    return hashlib.sha256(base64.b64decode(public_key)).hexdigest()[:16]


def retired_path(key_path: Path) -> Path:
    return key_path.with_name(key_path.name + RETIRED_SUFFIX)


def read_retired(path: Path) -> tuple[str, ...]:
    """The retired public keys listed in ``path`` (none when it is missing)."""
    try:
        text = path.read_text(encoding="ascii")
    except FileNotFoundError:
        return ()
    keys: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        try:
            raw = base64.b64decode(fields[0], validate=True)
        except ValueError:
            raw = b""
        if len(raw) != 32:
            raise KeyFileError(f"{path}, line {number}: not a base64 Ed25519 public key")
        if fields[0] not in keys:
            keys.append(fields[0])
    return tuple(keys)


def rotate(path: str | os.PathLike[str]) -> tuple[ServerKey, ServerKey]:
    """Retire the key in ``path`` (its public key appended to the retired list) and put a new one in its place.

    Returns (old, new). Processes that still hold the old key keep signing with it until restarted; both
    keys are trusted, so a rolling restart loses nothing."""
    path = Path(path)
    if not path.exists():
        raise KeyFileError(f"{path} does not exist: there is no key to rotate (the first start creates one)")
    old = ServerKey.load_or_create(path)
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    with open(retired_path(path), "a", encoding="ascii") as retired:
        retired.write(f"{old.public_key} {old.key_id} retired {stamp}\n")
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".signing-key-")  # mode 0600
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(pem)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)  # readers see the old file or the new one, never half of one
    except BaseException:
        os.unlink(temporary)
        raise
    return old, ServerKey.load_or_create(path)


def key_file_path(data_dir: str | os.PathLike[str] | None = None) -> Path:
    configured = os.environ.get("TRADEWINDS_SIGNING_KEY_FILE")
    if configured:
        return Path(configured)
    from workers.runtime import DEFAULT_DATA_DIR

    return Path(data_dir or os.environ.get("TRADEWINDS_DATA_DIR") or DEFAULT_DATA_DIR).resolve() / KEY_FILE_NAME


def public_key_text(text: str) -> str:
    """An Ed25519 public key given as base64 of its 32 raw bytes (as ``tradewinds public-key`` prints it) or as
    PEM (``--pem``), in the base64 form; ``ValueError`` for anything else."""
    text = text.strip()
    if text.startswith("-----BEGIN"):
        key = serialization.load_pem_public_key(text.encode())
        if not isinstance(key, Ed25519PublicKey):
            raise ValueError("not an Ed25519 public key")
        raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    else:
        raw = base64.b64decode(text, validate=True)
    if len(raw) != 32:
        raise ValueError("not an Ed25519 public key (base64 of 32 bytes, or PEM)")
    return base64.b64encode(raw).decode("ascii")


def signature_valid(public_key: str, message: bytes, signature: str) -> bool:
    """Whether ``signature`` (base64) is ``public_key``'s (base64 raw Ed25519) signature of ``message``."""
    try:
        key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key, validate=True))
        key.verify(base64.b64decode(signature, validate=True), message)
    except (InvalidSignature, ValueError, TypeError):
        return False
    return True
