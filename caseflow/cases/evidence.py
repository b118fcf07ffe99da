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

A PDF is shown in the page by the browser's own viewer, which cannot run in a sandbox, so a PDF
that would act on its own is refused (:func:`pdf_active_content`, read with ``pypdf``): script,
an action on opening or on an event other than going to a page, a launch, a form that submits or
imports data. One kept from before this check is served in a sandbox (the browser shows nothing)
and stays downloadable. Refusals are in the reader's language, with a file's size and the limit
in the same unit (:func:`megabytes`), and names are shown without direction controls
(:func:`shown_name`).

Files are encrypted with the case's data key and written under random names with
:func:`evidence_storage` (``settings.EVIDENCE_ROOT``, which no URL serves, or a configured
``STORAGES["evidence"]``); they are read back only through audited views. The parts of caseflow
that keep evidence rows mark their models with ``holds_evidence_files = True`` and a ``size``
field, so the quota counts every file of a case wherever it is attached.
"""

from __future__ import annotations

import hashlib
import io
import logging
import secrets
import struct
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

import filetype
from django.apps import apps
from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, Storage, storages
from django.db.models import Sum
from django.utils.formats import number_format
from django.utils.translation import gettext
from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject

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
        FileType("image/jpeg", "image", _("a JPEG photo"), (".jpg", ".jpeg")),
        FileType("image/png", "image", _("a PNG image"), (".png",)),
        FileType("image/gif", "image", _("a GIF image"), (".gif",)),
        FileType("image/webp", "image", _("a WebP image"), (".webp",)),
        FileType("image/heic", "image", _("a HEIC photo"), (".heic", ".heif")),
        FileType("application/pdf", "pdf", _("a PDF"), (".pdf",)),
        FileType("audio/mp4", "audio", _("an M4A recording"), (".m4a",)),
        FileType("audio/mpeg", "audio", _("an MP3 recording"), (".mp3",)),
        FileType("audio/ogg", "audio", _("an Ogg recording"), (".ogg", ".oga", ".opus")),
        FileType("audio/x-wav", "audio", _("a WAV recording"), (".wav",)),
        FileType("video/mp4", "video", _("an MP4 video"), (".mp4", ".m4v")),
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


#: One megabyte in every message about sizes, limits and quotas alike: 1,048,576 bytes (the
#: unit the limits are set in), so a file and its limit are always compared in the same unit.
MEGABYTE = 1024 * 1024


def megabytes(size: int, *, up: bool = False) -> str:
    """``size`` in megabytes with one decimal, in the reader's number format ("10.2 MB", "10,2
    MB"); a whole number loses its decimal ("10 MB"). ``up`` rounds up, for a file over a limit:
    it never reads as the limit itself."""
    tenths = -(-size * 10 // MEGABYTE) if up else round(size * 10 / MEGABYTE)
    places = 0 if tenths % 10 == 0 else 1
    return _("%(size)s MB") % {"size": number_format(tenths / 10, places)}


#: Characters that reorder the text around them (embeddings, overrides, isolates, marks): in a
#: file name they make "gpj.exe" read as "exe.jpg". Removed from every name caseflow shows.
BIDI_CONTROLS = dict.fromkeys(
    [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C]
)


def shown_name(name: str) -> str:
    """The file name as caseflow shows it: its last part, without direction controls, at most
    120 characters ("file" when nothing is left)."""
    cleaned = PurePath((name or "").translate(BIDI_CONTROLS)).name
    return cleaned[-120:].strip() or "file"


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
    """Accept one uploaded file or raise :class:`EvidenceRefused` saying why, in the reader's
    language."""
    shown = shown_name(name)
    if not data:
        raise EvidenceRefused(gettext("%(name)s is empty.") % {"name": shown})
    ext = PurePath(shown).suffix.lower()
    named = [t for t in TYPES.values() if ext in t.extensions]
    if not named:
        raise EvidenceRefused(
            gettext("%(name)s: this type of file is not accepted. Accepted: %(accepted)s.")
            % {"name": shown, "accepted": ACCEPTED_WORDS}
        )
    found = sniff(data)
    if found is None or found not in named:
        raise EvidenceRefused(
            gettext(
                "%(name)s is not %(kind)s: its content does not match its name (or it is "
                "damaged), so it was not accepted."
            )
            % {"name": shown, "kind": named[0].label}
        )
    limit = limit_for(found.family)
    if len(data) > limit:
        raise EvidenceRefused(
            gettext("%(name)s is too large (%(size)s); the limit for %(kind)s is %(limit)s.")
            % {
                "name": shown,
                "size": megabytes(len(data), up=True),
                "kind": str(FAMILY_LABELS[found.family]).lower(),
                "limit": megabytes(limit),
            }
        )
    if not _complete(found.content_type, data):
        raise EvidenceRefused(
            gettext("%(name)s is damaged or cut short, so it was not accepted.") % {"name": shown}
        )
    if found.content_type == "application/pdf":
        _check_pdf(shown, data)
    return CheckedFile(shown, found.content_type, found.family, data)


#: Actions a PDF viewer may carry out that do more than move within the document: run script,
#: start a program, send or fetch form data, play or embed other content.
ACTIVE_ACTIONS = frozenset(
    {
        "/JavaScript",
        "/Launch",
        "/SubmitForm",
        "/ImportData",
        "/GoToE",
        "/GoToR",
        "/Rendition",
        "/RichMediaExecute",
        "/Sound",
        "/Movie",
    }
)


def pdf_active_content(data: bytes) -> list[str]:
    """What in a PDF would act on its own or reach outside it, in plain words (empty when none):
    script anywhere (an action, a ``/JS`` entry, the document's JavaScript names, an XFA form),
    an action run on opening or on any event (``/OpenAction``, ``/AA``) other than going to a
    page, and any launch, form submission, data import or embedded-content action. Every object
    reachable from the document's trailer is read. A file pypdf cannot read counts as active
    (it cannot be shown to be safe)."""
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            return [gettext("it is locked with a password, so it could not be checked")]
        return _walk_pdf(reader.trailer)
    except Exception:  # noqa: BLE001 — a file pypdf cannot read is not shown
        log.info("a PDF could not be read to check it")
        return [gettext("it could not be read to check it")]


def _walk_pdf(root: Any) -> list[str]:
    found: set[str] = set()
    seen: set[tuple[int, int]] = set()
    stack = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, IndirectObject):
            ref = (item.idnum, item.generation)
            if ref in seen:
                continue
            seen.add(ref)
            item = item.get_object()
        if isinstance(item, ArrayObject):
            stack.extend(item)
            continue
        if not isinstance(item, DictionaryObject):
            continue
        kind = item.get("/S")
        if kind in ACTIVE_ACTIONS:
            found.add(_ACTION_WORDS.get(str(kind), gettext("an action that reaches outside it")))
        if "/JS" in item or (kind is None and "/JavaScript" in item):
            found.add(gettext("a script"))
        if "/XFA" in item:
            found.add(gettext("a form with its own scripts"))
        if "/OpenAction" in item and _acts(item["/OpenAction"]):
            found.add(gettext("an action that runs by itself"))
        if "/AA" in item and item["/AA"].get_object():
            # Actions on events (a page opened, a field touched): none is needed to read a page.
            found.add(gettext("an action that runs by itself"))
        stack.extend(item.values())
    return sorted(found)


def _acts(value: Any) -> bool:
    """An ``/OpenAction`` does more than open the document at a page."""
    value = value.get_object()
    if isinstance(value, ArrayObject):
        return False  # a destination: open at this page
    if isinstance(value, DictionaryObject):
        return value.get("/S") != "/GoTo" or "/Next" in value
    return False


_ACTION_WORDS = {
    "/JavaScript": _("a script"),
    "/Launch": _("an action that starts a program"),
    "/SubmitForm": _("a form that sends what is typed to somewhere else"),
    "/ImportData": _("an action that fetches data from somewhere else"),
}


def _check_pdf(shown: str, data: bytes) -> None:
    found = pdf_active_content(data)
    if found:
        raise EvidenceRefused(
            gettext(
                "%(name)s was not accepted: it carries %(what)s. Save or print it again as a "
                'plain PDF (a scan, or "Print to PDF") and add that.'
            )
            % {"name": shown, "what": ", ".join(str(w) for w in found)}
        )


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
            gettext(
                "This case has room for %(left)s more evidence (each case may hold %(quota)s). "
                "Nothing was saved: ask your supervisor about older files."
            )
            % {"left": megabytes(left), "quota": megabytes(quota)}
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


def lock_case_for_quota(case: Any, checked: Sequence[CheckedFile]) -> None:
    """Refuse files that would take the case over its quota. The case row is locked first, so
    two uploads at once cannot both squeeze under it."""
    if not checked:
        return
    type(case).objects.select_for_update().filter(pk=case.pk).values_list("pk", flat=True).first()
    check_quota(case, [len(item.data) for item in checked])


@contextmanager
def removed_on_failure() -> Iterator[list[str]]:
    """Files written inside the block (their names appended to the list it gives) are removed
    again if anything in it fails: rows and files are kept together or not at all."""
    written: list[str] = []
    try:
        yield written
    except Exception:
        discard(written)
        raise


def store_with_rows(
    model: Any,
    *,
    case: Any,
    actor: Any,
    checked: Sequence[CheckedFile],
    prefix: str,
    written: list[str],
    **owner: Any,
) -> list[Any]:
    """Write each file and its ``model`` row (a model that holds evidence files) owned by
    ``owner``. Each name written is appended to ``written`` as it goes, so that a failure in
    this loop or after it removes them all (see :func:`removed_on_failure`)."""
    rows = []
    for item in checked:
        stored = store(case, item.data, prefix)
        written.append(stored.storage_name)
        row = model(
            case=case,
            storage_name=stored.storage_name,
            filename=item.name,
            content_type=item.content_type,
            family=item.family,
            size=stored.size,
            sha256=stored.sha256,
            uploaded_by=actor,
            **owner,
        )
        row.save()
        rows.append(row)
    return rows


def read(case: Any, storage_name: str, sha256: str) -> bytes:
    """The decrypted bytes of a stored file of ``case``, checked against its fingerprint."""
    with evidence_storage().open(storage_name, "rb") as handle:
        token = handle.read()
    data = case.data_key().decrypt(token)
    if hashlib.sha256(data).hexdigest() != sha256:
        raise ValueError("evidence file does not match its fingerprint")
    return data
