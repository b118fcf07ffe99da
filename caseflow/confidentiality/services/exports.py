"""Evidence packs and case exports for another organisation, each only under a release that
covers it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import secrets
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cryptography.fernet import InvalidToken
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import timezone

from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.cases.models import Case
from caseflow.confidentiality.models import Category, Disclosure, DisclosureKind, Release
from caseflow.confidentiality.pack import build_sections
from caseflow.confidentiality.services.disclosures import _authorise, _disclose, _release_for

#: What an evidence pack needs the release to cover.
EVIDENCE_PACK_CATEGORIES = [Category.EVIDENCE]


@dataclass
class Export:
    disclosure: Disclosure
    release: Release
    data: bytes
    filename: str
    content_type: str


def _json_bytes(value: Any) -> bytes:
    return json.dumps(
        value, indent=2, sort_keys=True, ensure_ascii=False, cls=DjangoJSONEncoder
    ).encode()


class EvidenceUnavailable(Exception):
    """An evidence file is missing or does not match its fingerprint: nothing was produced."""


#: One file of an evidence pack: its name in the ZIP, its part, its bytes, what it is about.
Member = tuple[str, str, bytes, dict[str, Any]]


def evidence_chosen(case: Case, evidence_ids: list[str]) -> list[Any]:
    """The case's evidence files ``evidence_ids`` (public ids); ValueError for any other."""
    from caseflow.agreements import packs

    chosen = set(evidence_ids)
    files = [e for e in packs.evidence_files(case) if e.public_id in chosen]
    if len(files) != len(chosen):
        raise ValueError("evidence of another case or unknown evidence")
    return files


def evidence_members(
    case: Case,
    files: list[Any],
    *,
    include_breaches: bool,
    include_contact_log: bool,
    step: Callable[[], None] = lambda: None,
) -> list[Member]:
    """The files of an evidence pack, decrypted with the case key, under random names; ``step``
    is called after each. Raises :class:`EvidenceUnavailable` for a file that cannot be read."""
    from caseflow.agreements import packs
    from caseflow.agreements.services import EXTENSIONS, evidence_read

    members: list[Member] = []
    if include_contact_log:
        members.append(
            ("contact-log.json", "contact_log", _json_bytes(packs.contact_log(case)), {})
        )
        step()
    if include_breaches:
        members.append(("breaches.json", "breaches", _json_bytes(packs.breaches(case)), {}))
        step()
    for evidence in files:
        try:
            data = evidence_read(case, evidence)
        except (OSError, ValueError, InvalidToken) as exc:
            raise EvidenceUnavailable from exc
        name = f"files/{secrets.token_hex(12)}{EXTENSIONS.get(evidence.content_type, '.bin')}"
        about = {
            "evidence": evidence.public_id[:8],
            "contact": evidence.event.public_id[:8],
            "content_type": evidence.content_type,
        }
        members.append((name, "evidence", data, about))
        step()
    return members


def manifest_files(members: list[Member]) -> list[dict[str, Any]]:
    """The manifest's entry of each file: its name, part, size and SHA-256."""
    return [
        {
            "name": name,
            "part": part,
            "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            **about,
        }
        for name, part, data, about in members
    ]


def evidence_zip(members: list[Member]) -> bytes:
    """The ZIP of the files, without its manifest (:func:`with_manifest` adds it)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, _, data, _ in members:
            archive.writestr(name, data)
    return buffer.getvalue()


def with_manifest(
    data: bytes,
    *,
    case: Case,
    disclosure: Disclosure,
    release: Release,
    categories: list[str],
    files: list[dict[str, Any]],
    generated_at: dt.datetime,
) -> bytes:
    """The ZIP ``data`` with its ``manifest.json``: which disclosure it is, under which release,
    and the fingerprint of every file."""
    manifest = {
        "format": "caseflow-evidence-pack/1",
        "case": case.reference,
        "disclosure": disclosure.pk,
        "release": release.public_id,
        "categories": categories,
        "generated_at": generated_at.isoformat(),
        "files": files,
    }
    buffer = io.BytesIO(data)
    with zipfile.ZipFile(buffer, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.json", _json_bytes(manifest))
    return buffer.getvalue()


def evidence_pack_disclose(
    *,
    actor: User,
    case: Case,
    release: Release,
    recipient: str,
    parts: list[str],
    evidence_pks: list[int],
    detail: dict[str, Any] | None = None,
) -> Disclosure:
    """Record the evidence pack's disclosure and audit it (in the caller's transaction)."""
    categories = [str(c) for c in EVIDENCE_PACK_CATEGORIES]
    disclosure = _disclose(
        actor=actor,
        case=case,
        kind=DisclosureKind.EVIDENCE_PACK,
        release=release,
        recipient=recipient,
        categories=categories,
    )
    record(
        "disclosure.evidence_pack",
        actor=actor,
        case=case,
        obj=disclosure,
        detail={
            "disclosure": disclosure.pk,
            "release": release.pk,
            "categories": categories,
            "parts": sorted(set(parts)),
            "evidence": evidence_pks,
            **(detail or {}),
        },
    )
    return disclosure


def evidence_pack_export(
    *,
    actor: User,
    case: Case,
    release_id: str,
    recipient: str,
    include_breaches: bool,
    include_contact_log: bool,
    evidence_ids: list[str],
) -> Export:
    """A ZIP of the chosen parts of the contact log, breach register and evidence files, for
    ``recipient``, only under the case's release ``release_id`` covering it and the evidence
    category. Files are decrypted with the case key and stored under random names; the manifest
    gives the SHA-256 of every file in the ZIP. A refusal is audited and produces nothing."""
    categories = [str(c) for c in EVIDENCE_PACK_CATEGORIES]
    release = _authorise(
        actor=actor,
        case=case,
        kind=DisclosureKind.EVIDENCE_PACK,
        release_id=release_id,
        recipient=recipient,
        categories=categories,
    )
    files = evidence_chosen(case, evidence_ids)
    members = evidence_members(
        case, files, include_breaches=include_breaches, include_contact_log=include_contact_log
    )
    with transaction.atomic():
        disclosure = evidence_pack_disclose(
            actor=actor,
            case=case,
            release=release,
            recipient=recipient,
            parts=[part for _, part, _, _ in members],
            evidence_pks=[e.pk for e in files],
        )
        data = with_manifest(
            evidence_zip(members),
            case=case,
            disclosure=disclosure,
            release=release,
            categories=categories,
            files=manifest_files(members),
            generated_at=timezone.now(),
        )
    return evidence_pack_file(case, disclosure, release, data)


def evidence_pack_file(case: Case, disclosure: Disclosure, release: Release, data: bytes) -> Export:
    return Export(
        disclosure,
        release,
        data,
        f"evidence-pack-{case.public_id[:8]}-{disclosure.pk}.zip",
        "application/zip",
    )


def case_export_categories(case: Case, release_id: str, categories: list[str]) -> list[str]:
    """What a case export holds: ``categories``, or every category the release covers when none
    is chosen."""
    release = _release_for(case, release_id)
    return sorted(set(categories) or (set(release.categories) if release else set()))


def case_export_disclose(
    *,
    actor: User,
    case: Case,
    release: Release,
    recipient: str,
    categories: list[str],
    detail: dict[str, Any] | None = None,
) -> Disclosure:
    """Record the case export's disclosure and audit it (in the caller's transaction)."""
    disclosure = _disclose(
        actor=actor,
        case=case,
        kind=DisclosureKind.CASE_EXPORT,
        release=release,
        recipient=recipient,
        categories=categories,
    )
    record(
        "disclosure.case_export",
        actor=actor,
        case=case,
        obj=disclosure,
        detail={
            "disclosure": disclosure.pk,
            "release": release.pk,
            "categories": categories,
            **(detail or {}),
        },
    )
    return disclosure


def case_export(
    *,
    actor: User,
    case: Case,
    release_id: str,
    recipient: str,
    categories: list[str],
) -> Export:
    """The case's sections for ``categories`` (every category the release covers when none is
    chosen) as JSON, built by the same providers as the referral pack, only under the case's
    release ``release_id``. A refusal is audited and produces nothing."""
    wanted = case_export_categories(case, release_id, categories)
    release = _authorise(
        actor=actor,
        case=case,
        kind=DisclosureKind.CASE_EXPORT,
        release_id=release_id,
        recipient=recipient,
        categories=wanted,
    )
    with transaction.atomic():
        disclosure = case_export_disclose(
            actor=actor, case=case, release=release, recipient=recipient, categories=wanted
        )
        document = case_document("caseflow-case-export/1", case, release, wanted)
    return case_export_file(case, disclosure, release, document)


def case_export_file(
    case: Case, disclosure: Disclosure, release: Release, document: dict[str, Any]
) -> Export:
    """The case export's JSON file, its disclosure written in."""
    return Export(
        disclosure,
        release,
        _json_bytes({**document, "disclosure": disclosure.pk}),
        f"case-export-{case.public_id[:8]}-{disclosure.pk}.json",
        "application/json",
    )


def case_document(
    fmt: str,
    case: Case,
    release: Release,
    categories: list[str],
    step: Callable[[], None] = lambda: None,
) -> dict[str, Any]:
    """The case's sections for ``categories``, built by the referral pack's providers, one
    category at a time (``step`` is called after each); its ``disclosure`` is written in when it
    is handed over."""
    sections = []
    for category in categories:
        ((label, rows),) = build_sections(case, [category])
        sections.append(
            {
                "category": category,
                "label": label,
                "items": [{"item": item, "value": str(value)} for item, value in rows],
            }
        )
        step()
    return {
        "format": fmt,
        "case": case.reference,
        "disclosure": None,
        "release": release.public_id,
        "categories": categories,
        "generated_at": timezone.now().isoformat(),
        "sections": sections,
    }


def transfer_authorise(
    *,
    actor: User,
    case: Case,
    release_id: str,
    recipient: str,
    categories: list[str],
) -> Release:
    """The case's release ``release_id`` if it covers transferring ``categories`` of ``case`` to
    ``recipient`` (a service on caseflow or not) today. A refusal is audited (call this outside
    any transaction that may roll back, so that the refusal stands) and raises
    :class:`ReleaseRequired`."""
    return _authorise(
        actor=actor,
        case=case,
        kind=DisclosureKind.TRANSFER,
        release_id=release_id,
        recipient=recipient,
        categories=sorted(set(categories)),
    )


def transfer_disclose(
    *, actor: User, case: Case, release: Release, recipient: str, categories: list[str]
) -> Disclosure:
    """The record of the transfer's disclosure under ``release`` (already authorised by
    :func:`transfer_authorise`). The caller (``caseflow.transfers``) audits the transfer in the
    same transaction."""
    return _disclose(
        actor=actor,
        case=case,
        kind=DisclosureKind.TRANSFER,
        release=release,
        recipient=recipient,
        categories=sorted(set(categories)),
    )


def transfer_pack(case: Case, disclosure: Disclosure) -> Export:
    """The transfer pack of ``disclosure`` for a service not on caseflow: the case export's
    sections for the categories the transfer disclosed."""
    assert disclosure.release is not None  # a transfer is never disclosed without a release
    document = case_document(
        "caseflow-transfer-pack/1", case, disclosure.release, disclosure.categories
    )
    return Export(
        disclosure,
        disclosure.release,
        _json_bytes({**document, "disclosure": disclosure.pk}),
        f"transfer-pack-{case.public_id[:8]}-{disclosure.pk}.json",
        "application/json",
    )
