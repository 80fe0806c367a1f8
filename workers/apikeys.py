"""Integrator API keys: created by `tradewinds apikey create`, shown once, stored hashed, revocable."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from eventstore.base import DocumentStore
from workers.text import name_problem

KEY_PREFIX = "twk_"
COLLECTION = "api_keys"


@dataclass(frozen=True)
class ApiKey:
    key_id: str  # the first characters of the hash: safe to show and log
    name: str
    created_at: str
    revoked: bool


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def is_api_key(token: str) -> bool:
    return token.startswith(KEY_PREFIX)


def create_key(store: DocumentStore, name: str) -> tuple[ApiKey, str]:
    from eventstore import utc_now_iso

    problem = name_problem(name, 100)
    if problem:
        raise ValueError(f"an API key's name: {problem}")
    token = KEY_PREFIX + secrets.token_urlsafe(32)
    digest = _hash(token)
    key = ApiKey(digest[:16], name, utc_now_iso(), False)
    store.put_document(
        COLLECTION, digest, {"key_id": key.key_id, "name": name, "created_at": key.created_at, "revoked": False}
    )
    return key, token


def lookup(store: DocumentStore, token: str) -> ApiKey | None:
    doc = store.get_document(COLLECTION, _hash(token))
    if doc is None or doc.get("revoked"):
        return None
    return ApiKey(doc["key_id"], doc["name"], doc["created_at"], doc["revoked"])


def list_keys(store: DocumentStore) -> list[ApiKey]:
    return [
        ApiKey(d["key_id"], d["name"], d["created_at"], d["revoked"])
        for _, d in store.list_documents(COLLECTION, limit=10_000)
    ]


def revoke(store: DocumentStore, key_id: str) -> bool:
    """Refuse the key from now on, and disable its webhook subscriptions (reason ``revoked``): nothing more is
    queued or sent for them. False when there is no such key."""
    from workers import webhooks  # the subscriptions are the webhooks' own records

    for digest, doc in store.list_documents(COLLECTION, limit=10_000):
        if doc["key_id"] == key_id:
            store.put_document(COLLECTION, digest, {**doc, "revoked": True})
            webhooks.silence_key(store, key_id)
            return True
    return False
