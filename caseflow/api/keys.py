"""Integration keys: ``cf_<prefix>_<secret>``, 256 random bits in the secret.

Only the prefix (to find the row) and the SHA-256 of the whole key are stored; a presented key
is compared with :func:`hmac.compare_digest`. A slow hash (argon2) would add nothing for a key
this random and would cost every call tens of milliseconds."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

KEY_RE = re.compile(r"^cf_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$")


def new_key() -> tuple[str, str, str]:
    """(the key to show once, its prefix, its hash)."""
    prefix = secrets.token_hex(6)
    key = f"cf_{prefix}_{secrets.token_urlsafe(32)}"
    return key, prefix, digest(key)


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def parse(key: str) -> str | None:
    """The prefix of a well-formed key, or None."""
    match = KEY_RE.match(key)
    return match.group(1) if match else None


def matches(key: str, stored_hash: str) -> bool:
    return hmac.compare_digest(digest(key), stored_hash)
