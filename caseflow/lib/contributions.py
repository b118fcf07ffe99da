"""What the layers below ``cases`` read of the features registered above them.

A feature of a case (:mod:`caseflow.cases.features`) may bring follow-up kinds (read by the
inbox), credentials to end with a user's sessions (read by accounts), the language a member
of staff reads (read here, by :func:`caseflow.lib.i18n.language_of`) and whether an agency has
anyone to tell about an event (read by the outbox before it fans an event out). Those readers
sit below ``cases`` and may not import it (import-linter's layers), so ``cases.features`` hands
them one :class:`Contributions` object when it is imported, and they ask it. This is not a
registry: it holds one reader, set once; the features themselves are registered only in
``cases.features``.

Before it is installed (a script that never set Django up) every answer is empty.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from django.db import models


class CredentialRevoker(Protocol):
    """Ends one kind of credential ``user`` holds besides their sessions (a calendar feed link),
    because ``actor`` logged them out everywhere, changed a password or reset a second factor."""

    def __call__(self, *, actor: Any, user: Any) -> object: ...


class EventAudience(Protocol):
    """Whether agency ``agency_id`` has anyone subscribed to events of ``kind``."""

    def __call__(self, agency_id: int, kind: str) -> bool: ...


class Contributions(Protocol):
    def followup_kinds(self) -> Sequence[type[models.TextChoices]]:
        """Every feature's follow-up kinds, in the features' order."""
        ...

    def credential_revokers(self) -> Sequence[CredentialRevoker]:
        """Every feature's credential revokers, in the features' order."""
        ...

    def user_language(self, user: Any) -> str | None:
        """The language ``user`` chose (or their agency did), or ``None``."""
        ...

    def anyone_listening(self, agency_id: int, kind: str) -> bool:
        """Whether any feature's audience for events wants ``kind`` from the agency."""
        ...


class _Nothing:
    def followup_kinds(self) -> Sequence[type[models.TextChoices]]:
        return ()

    def credential_revokers(self) -> Sequence[CredentialRevoker]:
        return ()

    def user_language(self, user: Any) -> str | None:
        return None

    def anyone_listening(self, agency_id: int, kind: str) -> bool:
        return False


_installed: Contributions = _Nothing()


def install(contributions: Contributions) -> None:
    """Read the features through ``contributions`` (called once, by ``caseflow.cases.features``;
    a second, different reader is an error)."""
    global _installed
    if not isinstance(_installed, _Nothing) and _installed is not contributions:
        raise RuntimeError("the features' contributions are already installed")
    _installed = contributions


def contributions() -> Contributions:
    return _installed
