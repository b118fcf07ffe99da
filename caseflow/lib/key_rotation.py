"""Rewrapping stored data keys under the newest master key, in batches that can be resumed.

Case content and calls on no case are encrypted with their own data keys, each kept wrapped
(encrypted) with the deployment's master keys. Rotating a master key is rewrapping those keys:
no value needs re-encrypting. ``rotate_keys`` does it for the cases' keys and
``rotate_call_keys`` for the calls'; both walk their table the same way, here. A key still in
the first envelope (a Fernet token under a master key) is rewrapped in the second (AES key wrap),
even when the newest master key is the one that wrapped it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import models, transaction

from caseflow.lib.encryption import DecryptionError, rewrap_data_key, wrapped_under_newest


class NoMasterKey(Exception):
    """``FIELD_ENCRYPTION_KEYS`` is empty."""


class KeyNotUnwrappable(Exception):
    """A stored key opens with none of the configured master keys."""

    def __init__(self, pk: int, resume_after: int) -> None:
        super().__init__(pk, resume_after)
        self.pk = pk
        #: The last primary key of the batches already committed: run again after it.
        self.resume_after = resume_after


@dataclass
class Rotation:
    rewrapped: int = 0
    already_current: int = 0


def rewrap_keys(
    rows: models.QuerySet,
    field: str,
    *,
    after: int = 0,
    batch_size: int = 500,
    done_up_to: Callable[[int], None] | None = None,
) -> Rotation:
    """Rewrap ``field`` of every row of ``rows`` with a primary key above ``after`` under the
    newest master key, in primary-key order, ``batch_size`` rows per transaction. Keys already
    under the newest master key are left as they are; a row whose key changed meanwhile (taken
    on, shredded) is left alone. ``done_up_to`` hears the last primary key of each committed
    batch. Raises :class:`KeyNotUnwrappable` at a key no configured master key opens."""
    if not settings.FIELD_ENCRYPTION_KEYS:
        raise NoMasterKey
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    rotation = Rotation()
    last = after
    while True:
        with transaction.atomic():
            batch = list(
                rows.filter(pk__gt=last)
                .order_by("pk")
                .select_for_update()
                .values_list("pk", field)[:batch_size]
            )
            if not batch:
                return rotation
            for pk, wrapped in batch:
                if wrapped_under_newest(wrapped):
                    rotation.already_current += 1
                    continue
                try:
                    new = rewrap_data_key(wrapped)
                except DecryptionError as exc:
                    raise KeyNotUnwrappable(pk, last) from exc
                # Conditional: a key changed meanwhile is left alone.
                rotation.rewrapped += rows.filter(pk=pk, **{field: wrapped}).update(**{field: new})
            last = batch[-1][0]
        if done_up_to is not None:
            done_up_to(last)
