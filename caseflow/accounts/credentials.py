"""Credentials a user holds beyond their sessions (e.g. calendar feed links), ended together
with them: on "log out everywhere", a password change and a second-factor reset.

Apps above ``accounts`` that issue such credentials register a revoker in their
``AppConfig.ready``; ``credentials_revoke`` calls every one of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Each is called as ``revoker(actor=..., user=...)``.
_REVOKERS: list[Callable[..., Any]] = []


def register_credential_revoker(revoker: Callable[..., Any]) -> None:
    if revoker not in _REVOKERS:
        _REVOKERS.append(revoker)


def credentials_revoke(*, actor: Any, user: Any) -> None:
    """End every registered credential of ``user`` (``actor`` did it)."""
    for revoker in _REVOKERS:
        revoker(actor=actor, user=user)
