"""Rewrapping stored data keys under the newest master key, in batches that can be resumed.

Case content and calls on no case are encrypted with their own data keys, each kept wrapped
(encrypted) with the deployment's master keys. Rotating a master key is rewrapping those keys:
no value needs re-encrypting. ``rotate_keys`` does it for the cases' keys and
``rotate_call_keys`` for the calls'; both walk their table the same way, here. A key still in
the first envelope (a Fernet token under a master key) is rewrapped in the second (AES key wrap),
even when the newest master key is the one that wrapped it. ``reseal_values`` seals the values
still in the first envelope again in the second, under the same keys (:func:`reseal_rows`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cryptography.fernet import InvalidToken
from django.conf import settings
from django.db import models, transaction

from caseflow.lib.encryption import (
    VALUE_PREFIX,
    DataKey,
    DecryptionError,
    EncryptedTextField,
    Sealed,
    rewrap_data_key,
    wrapped_under_newest,
)


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


@dataclass
class Resealing:
    resealed: int = 0  #: values sealed again in the current envelope
    unreadable: int = 0  #: values left as they are: their key was destroyed or does not open them


def reseal_rows(model: type[models.Model], *, batch_size: int = 500) -> Resealing:
    """Seal again in the current envelope every value of ``model``'s encrypted fields still
    sealed in the first (a Fernet token), under the same data key, ``batch_size`` rows per
    transaction with the rows locked. The value and the row's times are unchanged. A model
    whose values are sealed under the master keys rather than a data key of its own (an
    account's second factor) is left as it is, as is a value whose key is gone (a purged case)."""
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    fields = [f for f in model._meta.concrete_fields if isinstance(f, EncryptedTextField)]
    if not fields or not callable(getattr(model, "data_key", None)):
        return Resealing()
    by_case = any(f.name == "case" and f.is_relation for f in model._meta.concrete_fields)
    manager = model._base_manager
    case_keys: dict[int, DataKey] = {}
    done = Resealing()
    last: Any = 0
    while True:
        with transaction.atomic():
            rows = manager.filter(pk__gt=last).order_by("pk")
            if by_case:
                rows = rows.select_related("case").select_for_update(of=("self",))
            else:
                rows = rows.select_for_update()
            batch = list(rows[:batch_size])
            if not batch:
                return done
            for row in batch:
                sealed = {
                    f.attname: value
                    for f in fields
                    if isinstance(value := row.__dict__.get(f.attname), Sealed)
                    and not value.token.startswith(VALUE_PREFIX.decode())
                }
                if not sealed:
                    continue
                case_id = getattr(row, "case_id", None) if by_case else None
                if case_id is not None and case_id in case_keys:
                    row.case.__dict__["_data_key"] = case_keys[case_id]  # type: ignore[attr-defined]
                try:
                    key = row.data_key()  # type: ignore[attr-defined]
                except DecryptionError:
                    done.unreadable += len(sealed)
                    continue
                if not isinstance(key, DataKey):
                    return done  # under the master keys: Fernet by design
                if case_id is not None:
                    case_keys[case_id] = key
                changes = {}
                for name, value in sealed.items():
                    try:
                        plain = key.decrypt(value.token.encode())
                    except InvalidToken:
                        done.unreadable += 1
                        continue
                    changes[name] = Sealed(key.encrypt(plain).decode())
                if changes:
                    manager.filter(pk=row.pk).update(**changes)
                    done.resealed += len(changes)
            last = batch[-1].pk
