"""Field encryption at rest with per-case data keys.

Why not a popular encrypted-field package: they derive keys from SECRET_KEY, silently return
ciphertext or ``None`` on a wrong key, allow look-ups that match nothing, and have no notion of a
per-record key that can be destroyed. Here:

* master keys come from ``FIELD_ENCRYPTION_KEYS`` (newest first);
* every case has its own random data key, stored wrapped by a master key (``CaseKey``), so that
  destroying that one row makes the case's ciphertexts unreadable (crypto-shredding) and master
  rotation rewraps keys instead of re-encrypting every value;
* a wrong key raises :class:`DecryptionError`; ``None`` is stored as NULL and ``""`` as a token,
  so both round-trip distinctly;
* a look-up on an encrypted field raises ``FieldError`` instead of silently matching nothing;
* values are decrypted lazily, on first attribute access, so list pages that do not show a field
  never decrypt it.

The envelope (version 2). A data key is 32 random bytes. It is wrapped with AES key wrap
(RFC 3394) under a key-encryption key derived from the newest master key, and stored as
``w2:<master key id>:<wrapped key>``. Values are sealed with AES-256-GCM (a random 96-bit nonce
per value) under a subkey derived from the data key, and stored as ``v2:<nonce, ciphertext and
tag>``. Both are one call into OpenSSL, where Fernet's token (HMAC-SHA256 and AES-CBC, with its
framing in Python) costs several times more: a funder report opens every served person's key
and answers, and that cost is most of it. Subkeys are HKDF-Expand (RFC 5869) of the key with a
label naming their use: the data key and the master keys are uniformly random already, so the
extract step is not needed, and a key is never used by two algorithms.

Version 1 was Fernet throughout (keys wrapped by ``MultiFernet``, values Fernet tokens under the
data key read as a Fernet key). Both are still read: a version-1 key unwraps to the same 32
bytes, and a data key opens the Fernet tokens written under it before. ``rotate_keys`` rewraps
every key in version 2; values are sealed in version 2 from their next write, or all at once by
``reseal_values``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import unicodedata
from functools import lru_cache
from typing import Any, Protocol

import orjson
from cryptography.exceptions import InvalidTag
from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.keywrap import InvalidUnwrap, aes_key_unwrap, aes_key_wrap
from django.conf import settings
from django.core.exceptions import FieldError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models


class DecryptionError(Exception):
    """A value could not be decrypted: wrong key, destroyed key or tampered ciphertext."""


class KeyDestroyed(DecryptionError):
    """The data key of the record has been destroyed (the record was purged)."""


class Cipher(Protocol):
    """What seals and opens a record's values: a :class:`DataKey`, or the master keys for the
    few records that have no key of their own."""

    def encrypt(self, data: bytes, /) -> bytes: ...

    def decrypt(self, token: bytes, /) -> bytes: ...


#: A value sealed with AES-256-GCM (version 2); a Fernet token begins ``gAAAAA``.
VALUE_PREFIX = b"v2:"
#: A data key wrapped with AES key wrap (version 2); ``w2:<master key id>:<wrapped key>``.
WRAPPED_PREFIX = "w2:"
_NONCE = 12
_FROM_URLSAFE = bytes.maketrans(b"-_", b"+/")


def _from_urlsafe(text: bytes) -> bytes:
    """Decode URL-safe base64, refusing any other character (``binascii.Error``): the standard
    library's ``urlsafe_b64decode`` in one C call instead of three layers of Python."""
    return binascii.a2b_base64(text.translate(_FROM_URLSAFE), strict_mode=True)


def _subkey(key: bytes, label: bytes) -> bytes:
    """HKDF-Expand (RFC 5869) of a uniformly random ``key`` to 32 bytes for ``label``'s use:
    one block, HMAC-SHA256(key, label || 0x01)."""
    return hmac.digest(key, label + b"\x01", "sha256")


class DataKey:
    """A record's data key, unwrapped. Seals values in version 2 and opens both versions."""

    __slots__ = ("_aead", "_fernet", "_raw")

    def __init__(self, raw: bytes) -> None:
        if len(raw) != 32:
            raise ValueError("a data key is 32 bytes")
        self._raw = raw
        self._aead = AESGCM(_subkey(raw, b"caseflow value v2"))
        self._fernet: Fernet | None = None

    @classmethod
    def generate(cls) -> DataKey:
        return cls(os.urandom(32))

    def __repr__(self) -> str:
        return "<DataKey>"

    def encrypt(self, data: bytes, /) -> bytes:
        nonce = os.urandom(_NONCE)
        return VALUE_PREFIX + base64.urlsafe_b64encode(
            nonce + self._aead.encrypt(nonce, data, None)
        )

    def decrypt(self, token: bytes, /) -> bytes:
        """The plain bytes of ``token``; :class:`InvalidToken` if this key did not seal it or it
        was changed."""
        if not token.startswith(VALUE_PREFIX):
            if self._fernet is None:
                self._fernet = Fernet(base64.urlsafe_b64encode(self._raw))
            return self._fernet.decrypt(token)
        try:
            sealed = _from_urlsafe(token[len(VALUE_PREFIX) :])
            return self._aead.decrypt(sealed[:_NONCE], sealed[_NONCE:], None)
        except (binascii.Error, ValueError, InvalidTag) as exc:
            raise InvalidToken from exc


@lru_cache(maxsize=8)
def _master_for(keys: tuple[str, ...]) -> MultiFernet:
    if not keys:
        raise DecryptionError("FIELD_ENCRYPTION_KEYS is empty")
    return MultiFernet([Fernet(k.encode()) for k in keys])


def master() -> MultiFernet:
    """The master keys as Fernet keys: what seals the few records that have no key of their own
    (an account's second factor, an API client's secret) and opens version-1 wrapped keys."""
    return _master_for(tuple(settings.FIELD_ENCRYPTION_KEYS))


@lru_cache(maxsize=8)
def _wrapping_keys(keys: tuple[str, ...]) -> tuple[tuple[str, bytes], dict[str, bytes]]:
    """The newest master key's id and key-encryption key, and every master key's by id. The id
    names the master key in a wrapped key without saying anything of it."""
    if not keys:
        raise DecryptionError("FIELD_ENCRYPTION_KEYS is empty")
    derived = []
    for text in keys:
        try:
            raw = base64.urlsafe_b64decode(text.encode())
        except (binascii.Error, ValueError) as exc:
            raise DecryptionError("a master key is not a Fernet key") from exc
        if len(raw) != 32:
            raise DecryptionError("a master key is not a Fernet key")
        key_id = _subkey(raw, b"caseflow master key id v2")[:6].hex()
        derived.append((key_id, _subkey(raw, b"caseflow key wrap v2")))
    return derived[0], dict(reversed(derived))  # newest first: an id shared keeps the newest


def _wrapping() -> tuple[tuple[str, bytes], dict[str, bytes]]:
    return _wrapping_keys(tuple(settings.FIELD_ENCRYPTION_KEYS))


def _wrap(raw: bytes) -> str:
    key_id, kek = _wrapping()[0]
    return f"{WRAPPED_PREFIX}{key_id}:{base64.urlsafe_b64encode(aes_key_wrap(kek, raw)).decode()}"


_NOT_UNWRAPPED = "data key cannot be unwrapped with the configured master keys"


def _unwrap_raw(wrapped: str) -> bytes:
    try:
        if not wrapped.startswith(WRAPPED_PREFIX):  # version 1: a Fernet token of the key
            return base64.urlsafe_b64decode(master().decrypt(wrapped.encode()))
        key_id, _, sealed = wrapped[len(WRAPPED_PREFIX) :].partition(":")
        kek = _wrapping()[1].get(key_id)
        if kek is not None:
            return aes_key_unwrap(kek, _from_urlsafe(sealed.encode()))
    except (InvalidToken, InvalidUnwrap, binascii.Error, ValueError) as exc:
        raise DecryptionError(_NOT_UNWRAPPED) from exc
    raise DecryptionError(_NOT_UNWRAPPED)  # under a master key no longer configured


def new_data_key() -> tuple[str, DataKey]:
    """A fresh random data key: wrapped under the newest master key, and ready to use."""
    key = os.urandom(32)
    return _wrap(key), DataKey(key)


def new_wrapped_data_key() -> str:
    """A fresh random data key, wrapped under the newest master key."""
    return new_data_key()[0]


def unwrap_data_key(wrapped: str) -> DataKey:
    return DataKey(_unwrap_raw(wrapped))


def rewrap_data_key(wrapped: str) -> str:
    """The same data key wrapped under the newest master key, in version 2."""
    return _wrap(_unwrap_raw(wrapped))


def wrapped_under_newest(wrapped: str) -> bool:
    """Whether ``wrapped`` is already a version-2 key under the newest master key."""
    return wrapped.startswith(f"{WRAPPED_PREFIX}{_wrapping()[0][0]}:")


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

    def open(self, key: Cipher, token: str, owner: str = "") -> Any:
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


#: Digits enough for an integer orjson cannot hold (past 64 bits, 19 digits or more), looked
#: for as a run of "0" once every digit is made one and every other byte a "." (a tenth of what
#: a regular expression's search costs).
_DIGITS = bytes(0x30 if 0x30 <= b <= 0x39 else 0x2E for b in range(256))
_LONG_NUMBER = b"0" * 19


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
        # orjson reads a report's thousands of documents in a quarter of the time Python's json
        # takes, to the same values, but for an integer past 64 bits, which it reads as a float
        # (its last digits lost): a document with 19 digits in a row anywhere is read by json,
        # as is what orjson refuses and json reads (NaN, the infinities, a lone surrogate's
        # escape). UTF-8 text only: no guessing of its encoding (json refuses other bytes too).
        if _LONG_NUMBER not in raw.translate(_DIGITS):
            try:
                return orjson.loads(raw)
            except orjson.JSONDecodeError:
                pass
        return json.loads(raw.decode())
