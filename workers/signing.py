"""The server's signing key: Ed25519 (the ``cryptography`` package), kept in a file outside the database.

The store signs every stream head with it (``eventstore.base.head_message``); exports carry the head's
signature and the public key; ``verify`` checks the signature against the keys it trusts. The same
key authenticates snapshots (an HMAC key derived from it), so a snapshot row written by anyone without
the key file is ignored.

The key file is PEM (PKCS#8, unencrypted), mode 0600, created on first start when missing:
``TRADEWINDS_SIGNING_KEY_FILE``, or ``signing-key.pem`` in the data directory. Every process of one
deployment (API servers, workers) must read the same file.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import tempfile
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

ALGORITHM = "Ed25519"
KEY_FILE_NAME = "signing-key.pem"


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

    # ------------------------------------------------------------------ creation
    @classmethod
    def generate(cls) -> ServerKey:
        """A key of this process only (tests, ``memory://`` servers): nothing it signs outlives it."""
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def load_or_create(cls, path: str | os.PathLike) -> ServerKey:
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

    def describe(self) -> dict[str, str]:
        return {
            "algorithm": ALGORITHM,
            "key_id": self.key_id,
            "public_key": self.public_key,
            "public_key_pem": self.public_pem,
        }


def key_file_path(data_dir: str | os.PathLike | None = None) -> Path:
    configured = os.environ.get("TRADEWINDS_SIGNING_KEY_FILE")
    if configured:
        return Path(configured)
    from workers.runtime import DEFAULT_DATA_DIR

    return Path(data_dir or os.environ.get("TRADEWINDS_DATA_DIR") or DEFAULT_DATA_DIR).resolve() / KEY_FILE_NAME


def signature_valid(public_key: str, message: bytes, signature: str) -> bool:
    """Whether ``signature`` (base64) is ``public_key``'s (base64 raw Ed25519) signature of ``message``."""
    try:
        key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key, validate=True))
        key.verify(base64.b64decode(signature, validate=True), message)
    except (InvalidSignature, ValueError, TypeError):
        return False
    return True
