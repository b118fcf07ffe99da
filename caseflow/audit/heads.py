"""Signed tree heads: published by beat, stored, shipped outside the database, checked.

A head states "the first ``tree_size`` events of the audit log have Merkle root ``root_hash``"
at a time, signed with ``AUDIT_SIGNING_KEY`` (Ed25519), a key held in the environment like the
field keys, never in the database. Each published head is stored (``AuditTreeHead``) and
appended as one JSON line to ``AUDIT_HEAD_SINK``, a file the database's writers cannot change.
Someone who can write the database can recompute every hash of a rewritten log, but cannot sign
a head for it, nor change the heads already shipped: ``verify_audit`` checks the log against the
latest shipped head by default. A supervisor or an outside witness can keep the heads too
(``audit_tree export``, or a copy of the sink) and check them with the public key alone.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from caseflow.audit import merkle, sequencer
from caseflow.audit.models import AuditTreeHead

#: Bytes signed are this label, then the size, root and time, one a line.
_LABEL = b"caseflow audit tree head v1"
#: How much of the sink's end is read to find its last head (one line is about 300 bytes).
_TAIL_BYTES = 64 * 1024


def _private_key() -> Ed25519PrivateKey:
    seed = base64.urlsafe_b64decode(settings.AUDIT_SIGNING_KEY)
    return Ed25519PrivateKey.from_private_bytes(seed)


def public_key() -> Ed25519PublicKey:
    return _private_key().public_key()


def public_key_text(key: Ed25519PublicKey | None = None) -> str:
    raw = (key or public_key()).public_bytes(Encoding.Raw, PublicFormat.Raw)
    return base64.urlsafe_b64encode(raw).decode()


def key_id(key: Ed25519PublicKey | None = None) -> str:
    raw = (key or public_key()).public_bytes(Encoding.Raw, PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


@dataclass(frozen=True)
class SignedHead:
    tree_size: int
    root_hash: str
    at: str
    key_id: str
    signature: str

    def message(self) -> bytes:
        return b"\n".join(
            [_LABEL, str(self.tree_size).encode(), self.root_hash.encode(), self.at.encode()]
        )

    def signed_by(self, key: Ed25519PublicKey) -> bool:
        try:
            key.verify(base64.urlsafe_b64decode(self.signature), self.message())
        except (InvalidSignature, ValueError):
            return False
        return True

    @property
    def root(self) -> bytes:
        return bytes.fromhex(self.root_hash)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> SignedHead:
        data = json.loads(text)
        head = cls(
            tree_size=int(data["tree_size"]),
            root_hash=str(data["root_hash"]),
            at=str(data["at"]),
            key_id=str(data["key_id"]),
            signature=str(data["signature"]),
        )
        if head.tree_size < 0 or len(head.root_hash) != 64:
            raise ValueError("not a tree head")
        bytes.fromhex(head.root_hash)
        return head

    @classmethod
    def from_row(cls, row: AuditTreeHead) -> SignedHead:
        return cls(row.tree_size, row.root_hash, _iso(row.at), row.key_id, row.signature)


def _iso(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def sign(tree_size: int, root: bytes, at: dt.datetime) -> SignedHead:
    unsigned = SignedHead(tree_size, root.hex(), _iso(at), key_id(), "")
    signature = _private_key().sign(unsigned.message())
    return SignedHead(
        tree_size,
        root.hex(),
        unsigned.at,
        unsigned.key_id,
        base64.urlsafe_b64encode(signature).decode(),
    )


def current_root() -> tuple[int, bytes]:
    size = sequencer.tree_size()
    return size, merkle.root(size, sequencer.nodes)


def publish_head(*, force: bool = False) -> SignedHead | None:
    """Sequence what is waiting, then sign, store and ship the head of the whole tree. Returns
    it, or ``None`` when the log is empty or unchanged since the last head (unless ``force``)."""
    sequencer.sequence_pending()
    with transaction.atomic():
        size, root = current_root()
        last = AuditTreeHead.objects.order_by("-tree_size", "-at").first()
        if size == 0 or (last is not None and last.tree_size == size and not force):
            return None
        head = sign(size, root, timezone.now())
        AuditTreeHead.objects.create(
            tree_size=head.tree_size,
            root_hash=head.root_hash,
            at=dt.datetime.fromisoformat(head.at),
            key_id=head.key_id,
            signature=head.signature,
        )
    ship(head)
    return head


def sink_path() -> Path:
    return Path(settings.AUDIT_HEAD_SINK)


def ship(head: SignedHead, path: Path | None = None) -> None:
    """Append ``head`` as one JSON line to the sink (created if missing), flushed to disk."""
    path = path or sink_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
    with os.fdopen(fd, "a") as fh:
        fh.write(head.to_json() + "\n")
        fh.flush()
        os.fsync(fh.fileno())


def latest_shipped(path: Path | None = None) -> SignedHead | None:
    """The last head in the sink, or ``None`` when there is no sink file or no head in it. A
    line that is not a head (a torn last write) is passed over."""
    path = path or sink_path()
    try:
        with path.open("rb") as fh:
            fh.seek(0, os.SEEK_END)
            end = fh.tell()
            fh.seek(max(0, end - _TAIL_BYTES))
            tail = fh.read().decode(errors="replace")
    except FileNotFoundError:
        return None
    for line in reversed(tail.splitlines()):
        try:
            return SignedHead.from_json(line)
        except (ValueError, KeyError, TypeError):
            continue
    return None
