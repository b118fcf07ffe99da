"""Evidence packs and case exports for another organisation, each only under a release that
covers it.
"""

from __future__ import annotations

import hashlib
import io
import json
import secrets
import zipfile
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
    from caseflow.agreements import packs
    from caseflow.agreements.services import EXTENSIONS, evidence_read

    categories = [str(c) for c in EVIDENCE_PACK_CATEGORIES]
    release = _authorise(
        actor=actor,
        case=case,
        kind=DisclosureKind.EVIDENCE_PACK,
        release_id=release_id,
        recipient=recipient,
        categories=categories,
    )
    chosen = set(evidence_ids)
    files = [e for e in packs.evidence_files(case) if e.public_id in chosen]
    if len(files) != len(chosen):
        raise ValueError("evidence of another case or unknown evidence")
    members: list[tuple[str, str, bytes, dict[str, Any]]] = []
    if include_contact_log:
        members.append(
            ("contact-log.json", "contact_log", _json_bytes(packs.contact_log(case)), {})
        )
    if include_breaches:
        members.append(("breaches.json", "breaches", _json_bytes(packs.breaches(case)), {}))
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
    with transaction.atomic():
        disclosure = _disclose(
            actor=actor,
            case=case,
            kind=DisclosureKind.EVIDENCE_PACK,
            release=release,
            recipient=recipient,
            categories=categories,
        )
        manifest = {
            "format": "caseflow-evidence-pack/1",
            "case": case.reference,
            "disclosure": disclosure.pk,
            "release": release.public_id,
            "categories": categories,
            "generated_at": timezone.now().isoformat(),
            "files": [
                {
                    "name": name,
                    "part": part,
                    "size": len(data),
                    "sha256": hashlib.sha256(data).hexdigest(),
                    **about,
                }
                for name, part, data, about in members
            ],
        }
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for name, _, data, _ in members:
                archive.writestr(name, data)
            archive.writestr("manifest.json", _json_bytes(manifest))
        record(
            "disclosure.evidence_pack",
            actor=actor,
            case=case,
            obj=disclosure,
            detail={
                "disclosure": disclosure.pk,
                "release": release.pk,
                "categories": categories,
                "parts": sorted({part for _, part, _, _ in members}),
                "evidence": [e.pk for e in files],
            },
        )
    return Export(
        disclosure,
        release,
        buffer.getvalue(),
        f"evidence-pack-{case.public_id[:8]}-{disclosure.pk}.zip",
        "application/zip",
    )


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
    release = _release_for(case, release_id)
    wanted = sorted(set(categories) or (set(release.categories) if release else set()))
    release = _authorise(
        actor=actor,
        case=case,
        kind=DisclosureKind.CASE_EXPORT,
        release_id=release_id,
        recipient=recipient,
        categories=wanted,
    )
    with transaction.atomic():
        disclosure = _disclose(
            actor=actor,
            case=case,
            kind=DisclosureKind.CASE_EXPORT,
            release=release,
            recipient=recipient,
            categories=wanted,
        )
        document = _document("caseflow-case-export/1", case, disclosure, release, wanted)
        record(
            "disclosure.case_export",
            actor=actor,
            case=case,
            obj=disclosure,
            detail={"disclosure": disclosure.pk, "release": release.pk, "categories": wanted},
        )
    return Export(
        disclosure,
        release,
        _json_bytes(document),
        f"case-export-{case.public_id[:8]}-{disclosure.pk}.json",
        "application/json",
    )


def _document(
    fmt: str, case: Case, disclosure: Disclosure, release: Release, categories: list[str]
) -> dict[str, Any]:
    """The case's sections for ``categories``, built by the referral pack's providers."""
    return {
        "format": fmt,
        "case": case.reference,
        "disclosure": disclosure.pk,
        "release": release.public_id,
        "categories": categories,
        "generated_at": timezone.now().isoformat(),
        "sections": [
            {
                "category": category,
                "label": label,
                "items": [{"item": item, "value": str(value)} for item, value in rows],
            }
            for category, (label, rows) in zip(
                categories, build_sections(case, categories), strict=True
            )
        ],
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
    document = _document(
        "caseflow-transfer-pack/1", case, disclosure, disclosure.release, disclosure.categories
    )
    return Export(
        disclosure,
        disclosure.release,
        _json_bytes(document),
        f"transfer-pack-{case.public_id[:8]}-{disclosure.pk}.json",
        "application/json",
    )
