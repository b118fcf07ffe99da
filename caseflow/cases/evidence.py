"""Evidence files of a case: what is accepted, how it is checked, where it is kept.

Survivors send photos (often HEIC from a phone), screenshots, PDFs, voice notes and short videos.
A file is accepted when its *content* is one of the types below, when the name's extension
belongs to that same type, when it is not empty and not larger than the type's limit
(``settings.EVIDENCE_LIMITS``), and when the case still has room under
``settings.EVIDENCE_CASE_QUOTA_BYTES``. Anything else is refused with a message that names the
rule, and nothing is written.

The content is recognised by its magic bytes with the ``filetype`` package (it knows every type
here, HEIC and M4A included, and has no dependencies). Magic bytes only prove how a file starts,
so the formats that end with a fixed marker are also checked for it: a PNG without its ``IEND``
chunk, a JPEG without its end-of-image marker, a GIF without its trailer, a PDF without
``%%EOF``, or a RIFF file (WAV, WebP) shorter than its header says was cut short and is refused
as damaged.

Files are encrypted with the case's data key and written under random names with
:func:`evidence_storage` (``settings.EVIDENCE_ROOT``, which no URL serves, or a configured
``STORAGES["evidence"]``); they are read back only through audited views. The parts of caseflow
that keep evidence rows mark their models with ``holds_evidence_files = True`` and a ``size``
field, so the quota counts every file of a case wherever it is attached.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import struct
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

import filetype
from django.apps import apps
from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, Storage, storages
from django.db.models import Sum

from caseflow.lib.i18n import gettext_lazy as _

log = logging.getLogger(__name__)


def evidence_storage() -> Storage:
    """Where evidence goes: the "evidence" storage if configured, else a private folder."""
    if "evidence" in settings.STORAGES:
        return storages["evidence"]
    return FileSystemStorage(location=settings.EVIDENCE_ROOT)


@dataclass(frozen=True)
class FileType:
    content_type: str
    #: The family whose size limit applies and how the file is shown: image, pdf, audio, video.
    family: str
    #: Plain words for messages: "a JPEG photo".
    label: str
    extensions: tuple[str, ...]


#: Every accepted type, by the MIME type ``filetype`` reports for its content.
TYPES: dict[str, FileType] = {
    t.content_type: t
    for t in (
        FileType("image/jpeg", "image", "a JPEG photo", (".jpg", ".jpeg")),
        FileType("image/png", "image", "a PNG image", (".png",)),
        FileType("image/gif", "image", "a GIF image", (".gif",)),
        FileType("image/webp", "image", "a WebP image", (".webp",)),
        FileType("image/heic", "image", "a HEIC photo", (".heic", ".heif")),
        FileType("application/pdf", "pdf", "a PDF", (".pdf",)),
        FileType("audio/mp4", "audio", "an M4A recording", (".m4a",)),
        FileType("audio/mpeg", "audio", "an MP3 recording", (".mp3",)),
        FileType("audio/ogg", "audio", "an Ogg recording", (".ogg", ".oga", ".opus")),
        FileType("audio/x-wav", "audio", "a WAV recording", (".wav",)),
        FileType("video/mp4", "video", "an MP4 video", (".mp4", ".m4v")),
    )
}

#: What the browser is told each stored type is (the names browsers play).
SERVED_AS = {"audio/x-wav": "audio/wav"}

FAMILY_LABELS = {
    "image": _("Photos"),
    "pdf": _("PDFs"),
    "audio": _("Recordings"),
    "video": _("Videos"),
}

ACCEPT = ",".join(sorted(ext for t in TYPES.values() for ext in t.extensions))
ACCEPTED_WORDS = _("photos (JPEG, PNG, GIF, WebP, HEIC), PDF, recordings (M4A, MP3, Ogg, WAV), MP4")


class EvidenceRefused(ValueError):
    """A file that is not accepted; the message says why in plain words."""


def _megabytes(size: int) -> str:
    value = size / (1024 * 1024)
    return f"{value:.1f} MB" if value < 10 else f"{value:.0f} MB"


def limit_for(family: str) -> int:
    return int(settings.EVIDENCE_LIMITS[family])


def _complete(content_type: str, data: bytes) -> bool:
    """Whether a format that ends with a fixed marker has it (see the module docstring)."""
    tail = data[-1024:]
    if content_type == "image/png":
        return tail.rstrip(b"\x00").endswith(b"IEND\xaeB`\x82")
    if content_type == "image/jpeg":
        return b"\xff\xd9" in data[-64:]
    if content_type == "image/gif":
        return data.rstrip(b"\x00").endswith(b";")
    if content_type == "application/pdf":
        return b"%%EOF" in tail
    if data[:4] == b"RIFF":
        (declared,) = struct.unpack("<I", data[4:8])
        return len(data) >= declared + 8
    return True


def sniff(data: bytes) -> FileType | None:
    """The accepted type the bytes are, or None."""
    kind = filetype.guess(data[:8192])
    if kind is None:
        return None
    return TYPES.get(kind.mime)


@dataclass(frozen=True)
class CheckedFile:
    name: str
    content_type: str
    family: str
    data: bytes


def check_file(name: str, data: bytes) -> CheckedFile:
    """Accept one uploaded file or raise :class:`EvidenceRefused` saying why."""
    shown = PurePath(name or "file").name[-120:] or "file"
    if not data:
        raise EvidenceRefused(f"{shown} is empty.")
    ext = PurePath(shown).suffix.lower()
    named = [t for t in TYPES.values() if ext in t.extensions]
    if not named:
        raise EvidenceRefused(
            f"{shown}: this type of file is not accepted. Accepted: {ACCEPTED_WORDS}."
        )
    found = sniff(data)
    if found is None or found not in named:
        raise EvidenceRefused(
            f"{shown} is not {named[0].label}: its content does not match its name "
            f"(or it is damaged), so it was not accepted."
        )
    limit = limit_for(found.family)
    if len(data) > limit:
        raise EvidenceRefused(
            f"{shown} is too large ({_megabytes(len(data))}); the limit for "
            f"{FAMILY_LABELS[found.family].lower()} is {_megabytes(limit)}."
        )
    if not _complete(found.content_type, data):
        raise EvidenceRefused(f"{shown} is damaged or cut short, so it was not accepted.")
    return CheckedFile(shown, found.content_type, found.family, data)


def evidence_models() -> list[Any]:
    return [m for m in apps.get_models() if getattr(m, "holds_evidence_files", False)]


def case_usage(case: Any) -> int:
    """Bytes of evidence the case holds, in every part of caseflow (one query per model)."""
    total = 0
    for model in evidence_models():
        total += model._default_manager.filter(case=case).aggregate(n=Sum("size"))["n"] or 0
    return total


def check_quota(case: Any, sizes: list[int]) -> None:
    """Raise :class:`EvidenceRefused` if adding files of ``sizes`` puts the case over its quota."""
    quota = int(settings.EVIDENCE_CASE_QUOTA_BYTES)
    used = case_usage(case)
    if used + sum(sizes) > quota:
        left = max(quota - used, 0)
        raise EvidenceRefused(
            f"This case has room for {_megabytes(left)} more evidence (each case may hold "
            f"{_megabytes(quota)}). Nothing was saved: ask your supervisor about older files."
        )


@dataclass(frozen=True)
class Stored:
    storage_name: str
    size: int
    sha256: str


class EvidenceNotStored(EvidenceRefused):
    """The storage refused the file (disk full, read-only, gone): a form error, nothing kept."""


NOT_STORED = _(
    "The file could not be stored: the evidence storage is full or unavailable. Nothing was "
    "saved. Try again later, and tell your administrator if it happens again."
)


def store(case: Any, data: bytes, prefix: str) -> Stored:
    """Encrypt ``data`` with the case key and write it under a random name in ``prefix``. A
    storage failure removes whatever part of the file was written and raises
    :class:`EvidenceNotStored`."""
    token = case.data_key().encrypt(data)
    storage = evidence_storage()
    wanted = f"{prefix}{secrets.token_hex(16)}.bin"
    try:
        name = storage.save(wanted, ContentFile(token))
    except OSError as exc:
        log.warning("evidence storage refused a file: %s (errno %s)", type(exc).__name__, exc.errno)
        discard([wanted])
        raise EvidenceNotStored(NOT_STORED) from exc
    return Stored(name, len(data), hashlib.sha256(data).hexdigest())


def discard(names: list[str]) -> None:
    """Remove written files whose rows were not saved (no orphan file is left behind)."""
    storage = evidence_storage()
    for name in names:
        try:
            if storage.exists(name):
                storage.delete(name)
        except OSError:
            log.error("an evidence file could not be removed: %s", name)


def read(case: Any, storage_name: str, sha256: str) -> bytes:
    """The decrypted bytes of a stored file of ``case``, checked against its fingerprint."""
    with evidence_storage().open(storage_name, "rb") as handle:
        token = handle.read()
    data = case.data_key().decrypt(token)
    if hashlib.sha256(data).hexdigest() != sha256:
        raise ValueError("evidence file does not match its fingerprint")
    return data
