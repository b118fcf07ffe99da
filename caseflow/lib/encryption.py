"""Field encryption at rest with per-case data keys.

Why not a popular encrypted-field package: they derive keys from SECRET_KEY, silently return
ciphertext or ``None`` on a wrong key, allow look-ups that match nothing, and have no notion of a
per-record key that can be destroyed. Here:

* master keys come from ``FIELD_ENCRYPTION_KEYS`` (newest first) through ``MultiFernet``;
* every case has its own random data key, stored wrapped by the master keys (``CaseKey``), so that
  destroying that one row makes the case's ciphertexts unreadable (crypto-shredding) and master
  rotation rewraps keys instead of re-encrypting every value;
* a wrong key raises :class:`DecryptionError`; ``None`` is stored as NULL and ``""`` as a token,
  so both round-trip distinctly;
* a look-up on an encrypted field raises ``FieldError`` instead of silently matching nothing;
* values are decrypted lazily, on first attribute access, so list pages that do not show a field
  never decrypt it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import unicodedata
from functools import lru_cache
from typing import Any

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings
from django.core.exceptions import FieldError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models


class DecryptionError(Exception):
    """A value could not be decrypted: wrong key, destroyed key or tampered ciphertext."""


class KeyDestroyed(DecryptionError):
    """The data key of the record has been destroyed (the record was purged)."""


@lru_cache(maxsize=8)
def _master_for(keys: tuple[str, ...]) -> MultiFernet:
    if not keys:
        raise DecryptionError("FIELD_ENCRYPTION_KEYS is empty")
    return MultiFernet([Fernet(k.encode()) for k in keys])


def master() -> MultiFernet:
    return _master_for(tuple(settings.FIELD_ENCRYPTION_KEYS))


def new_wrapped_data_key() -> str:
    """A fresh random data key, wrapped (encrypted) under the newest master key."""
    return master().encrypt(Fernet.generate_key()).decode()


def unwrap_data_key(wrapped: str) -> Fernet:
    try:
        return Fernet(master().decrypt(wrapped.encode()))
    except InvalidToken as exc:
        raise DecryptionError(
            "data key cannot be unwrapped with the configured master keys"
        ) from exc


def rewrap_data_key(wrapped: str) -> str:
    """Re-encrypt a wrapped data key under the newest master key."""
    try:
        return master().rotate(wrapped.encode()).decode()
    except InvalidToken as exc:
        raise DecryptionError(
            "data key cannot be unwrapped with the configured master keys"
        ) from exc


def normalise_identity(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    kept = "".join(ch if ch.isalnum() else " " for ch in text)
    return " ".join(kept.split())


def blind_index(*parts: str) -> str:
    """Keyed HMAC over normalised parts: exact-match look-ups without storing the values."""
    message = "\x1f".join(normalise_identity(p) for p in parts).encode()
    return hmac.new(settings.BLIND_INDEX_KEY.encode(), message, hashlib.sha256).hexdigest()


class Sealed:
    """A ciphertext fresh from the database, not yet decrypted. Renders as nothing useful."""

    __slots__ = ("token",)

    def __init__(self, token: str) -> None:
        self.token = token

    def __repr__(self) -> str:
        return "<Sealed>"

    def __str__(self) -> str:
        return "[encrypted]"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sealed) and other.token == self.token

    def __hash__(self) -> int:
        return hash(self.token)


class _EncryptedDescriptor:
    def __init__(self, field: EncryptedTextField) -> None:
        self.field = field

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        value = instance.__dict__.get(self.field.attname)
        if isinstance(value, Sealed):
            value = self.field.decrypt(instance, value.token)
            instance.__dict__[self.field.attname] = value
            instance.__dict__.setdefault("_sealed_tokens", {})[self.field.attname] = None
        return value

    def __set__(self, instance: Any, value: Any) -> None:
        instance.__dict__[self.field.attname] = value


class EncryptedTextField(models.TextField):
    """Text encrypted with the owning record's data key (``instance.data_key()``)."""

    description = "Encrypted text"

    def contribute_to_class(
        self, cls: type[models.Model], name: str, private_only: bool = False
    ) -> None:
        super().contribute_to_class(cls, name, private_only=private_only)
        setattr(cls, self.attname, _EncryptedDescriptor(self))

    # -- serialisation of plain values (subclasses change these) -----------------------------
    def to_plain_bytes(self, value: Any) -> bytes:
        return str(value).encode()

    def from_plain_bytes(self, raw: bytes) -> Any:
        return raw.decode()

    # -- encryption ------------------------------------------------------------------------
    def decrypt(self, instance: Any, token: str) -> Any:
        return self.open(instance.data_key(), token, type(instance).__name__)

    def open(self, key: Fernet, token: str, owner: str = "") -> Any:
        """The plain value of ``token`` under a data key already unwrapped: what a reader of
        many rows uses (values rows, each case key unwrapped once) instead of model instances."""
        try:
            return self.from_plain_bytes(key.decrypt(token.encode()))
        except InvalidToken as exc:
            raise DecryptionError(
                f"{owner or self.model.__name__}.{self.name} cannot be decrypted with this key"
            ) from exc

    def pre_save(self, model_instance: Any, add: bool) -> Any:
        value = model_instance.__dict__.get(self.attname)
        if value is None or isinstance(value, Sealed):
            return value
        token = model_instance.data_key().encrypt(self.to_plain_bytes(value)).decode()
        return Sealed(token)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        return None if value is None else Sealed(value)

    def get_db_prep_save(self, value: Any, connection: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, Sealed):
            return value.token
        raise FieldError(
            f"{self.name} is encrypted: write it through Model.save(), not update() or raw values"
        )

    def get_lookup(self, lookup_name: str) -> Any:
        if lookup_name == "isnull":
            return super().get_lookup(lookup_name)
        raise FieldError(f"{self.name} is encrypted and cannot be searched ({lookup_name})")

    def get_transform(self, name: str) -> Any:
        raise FieldError(f"{self.name} is encrypted and cannot be searched ({name})")

    def to_python(self, value: Any) -> Any:
        return value

    def value_to_string(self, obj: Any) -> str:
        return "[encrypted]"


class EncryptedJSONField(EncryptedTextField):
    """A JSON document encrypted as one value."""

    description = "Encrypted JSON"
    # What the type checker sees on an instance: any JSON value, not text.
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any

    def to_plain_bytes(self, value: Any) -> bytes:
        # DjangoJSONEncoder writes a lazily translated label as its text.
        return json.dumps(
            value, sort_keys=True, separators=(",", ":"), cls=DjangoJSONEncoder
        ).encode()

    def from_plain_bytes(self, raw: bytes) -> Any:
        return json.loads(raw)
