"""Confidentiality operations: releases, disclosures, retention and purges, reports, field settings.

Each operation checks policy itself, runs in a transaction and writes its audit event. Audit
details hold ids, categories and field names only.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import secrets
import zipfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cryptography.fernet import Fernet, InvalidToken
from dateutil.relativedelta import relativedelta
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, OuterRef, ProtectedError, RestrictedError
from django.db.models.functions import TruncMonth, TruncQuarter
from django.http import HttpRequest
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import Agency, User
from caseflow.audit.services import record
from caseflow.cases.models import (
    Case,
    CaseAssignment,
    CaseKey,
    CaseStatus,
    FieldSetting,
    IntakeField,
    Party,
    PartyRole,
    RiskLevel,
    SafeContactProfile,
)
from caseflow.confidentiality import narratives
from caseflow.confidentiality.models import (
    APPROVALS_NEEDED,
    CasePurge,
    Category,
    CompelledOrder,
    ConfidentialityFollowUpKind,
    DeletionCertificate,
    Disclosure,
    DisclosureKind,
    ProposalStatus,
    PurgeApproval,
    PurgeProposal,
    PurgeScope,
    Release,
    RetentionSchedule,
)
from caseflow.confidentiality.pack import Rows, build_sections
from caseflow.inbox.kinds import GeneralFollowUpKind
from caseflow.inbox.services import case_supervisors, followup_cancel, followup_ensure, notify
from caseflow.lib import weekly_windows
from caseflow.lib.encryption import Sealed, blind_index
from caseflow.safety.models import SafetyFollowUpKind

# --- Who may do what at agency level -------------------------------------------------------------


def may_configure(user: Any) -> bool:
    return policy.is_agency_admin(user)


# --- Releases ------------------------------------------------------------------------------------


class ReleaseRefused(Exception):
    """The release cannot be recorded or changed; ``str(exc)`` says why, for the user."""


def recipient_index(recipient: str) -> str:
    return blind_index("release-recipient", recipient)


def consent_problem(case: Case, party: Party, for_child: Party | None = None) -> str | None:
    """Why ``party`` cannot consent on ``case`` (for ``for_child``), or None if they can."""
    if party.case_id != case.pk:
        return "Choose a person recorded on this case."
    if party.role == PartyRole.OTHER_PARTY:
        return "The case's other party cannot give consent: a release must come from the survivor."
    if party.role == PartyRole.CHILD:
        return "A child cannot sign a release: record the guardian's consent for the child."
    if for_child is not None and (
        for_child.case_id != case.pk or for_child.role != PartyRole.CHILD
    ):
        return "The release can only be for a child recorded on this case."
    if party.identity_index and (
        Party.objects.filter(
            case=case, role=PartyRole.OTHER_PARTY, identity_index=party.identity_index
        ).exists()
    ):
        return "This person is also recorded as the case's other party and cannot give consent."
    return None


def expiry_problem(signed_on: dt.date, expires_on: dt.date) -> str | None:
    if expires_on <= signed_on:
        return "The expiry date must be after the date the release was signed."
    limit = signed_on + relativedelta(months=settings.RELEASE_MAX_MONTHS)
    if expires_on > limit:
        return (
            f"A release is time-limited: it can run at most {settings.RELEASE_MAX_MONTHS} months "
            f"(until {limit:%d %b %Y})."
        )
    return None


def categories_problem(categories: Iterable[str]) -> str | None:
    categories = list(categories)
    if not categories:
        return "Choose at least one category of information the survivor agreed to share."
    if set(categories) - set(Category.values):
        return "Choose categories from the list."
    return None


@transaction.atomic
def release_record(
    *,
    actor: User,
    request: HttpRequest | None,
    case: Case,
    consenting_party: Party,
    for_child: Party | None = None,
    recipient: str,
    purpose: str,
    categories: list[str],
    signed_on: dt.date,
    expires_on: dt.date,
) -> Release:
    if not policy.may(actor, case, "edit"):
        raise PermissionDenied
    problem = (
        consent_problem(case, consenting_party, for_child)
        or expiry_problem(signed_on, expires_on)
        or categories_problem(categories)
    )
    if problem:
        raise ReleaseRefused(problem)
    if not recipient.strip():
        raise ReleaseRefused("Name the organisation the information may go to.")
    release = Release(
        case=case,
        consenting_party=consenting_party,
        for_child=for_child,
        recipient=recipient.strip(),
        recipient_index=recipient_index(recipient),
        purpose=purpose,
        categories=sorted(set(categories)),
        signed_on=signed_on,
        expires_on=expires_on,
        recorded_by=actor,
    )
    release.save()
    record(
        "release.create",
        actor=actor,
        request=request,
        case=case,
        obj=release,
        detail={
            "release": release.pk,
            "categories": release.categories,
            "party_role": consenting_party.role,
            "for_child": for_child is not None,
        },
    )
    release_expiry_ensure(release, today=timezone.localdate())
    return release


@transaction.atomic
def release_revoke(
    *, actor: User, request: HttpRequest | None, case: Case, release: Release, reason: str
) -> Release:
    if not policy.may(actor, case, "edit"):
        raise PermissionDenied
    locked = Release.objects.select_for_update().get(pk=release.pk, case=case)
    if locked.revoked_at is not None:
        raise ReleaseRefused("This release was already revoked.")
    release.revoked_at = timezone.now()
    release.revoked_reason = reason
    release.revoked_by = actor
    release.save(update_fields=["revoked_at", "revoked_reason", "revoked_by"])
    followup_cancel(case=case, source_key=_expiry_key(release), actor=actor)
    record(
        "release.revoke",
        actor=actor,
        request=request,
        case=case,
        obj=release,
        detail={"release": release.pk},
    )
    return release


def release_covering(
    case: Case, recipient: str, categories: Iterable[str], at: dt.datetime | None = None
) -> Release | None:
    """The valid (signed, unexpired, unrevoked) release of ``case`` that covers sharing
    ``categories`` with ``recipient`` at ``at`` (now by default), or None."""
    wanted = set(categories)
    if not wanted or not recipient.strip():
        return None
    day = timezone.localdate(at or timezone.now())
    candidates = (
        Release.objects.filter(
            case=case,
            recipient_index=recipient_index(recipient),
            revoked_at__isnull=True,
            signed_on__lte=day,
            expires_on__gte=day,
        )
        .select_related("consenting_party", "for_child")
        .order_by("-expires_on", "-pk")
    )
    for release in candidates:
        if wanted <= set(release.categories) and _consent_holds(case, release):
            release.case = case
            return release
    return None


def _consent_holds(case: Case, release: Release) -> bool:
    """The release's consent still comes from someone who may give it (never the other party,
    even if such a row was written around the form)."""
    return consent_problem(case, release.consenting_party, release.for_child) is None


def release_problem(
    case: Case,
    release: Release | None,
    recipient: str,
    categories: Iterable[str],
    at: dt.datetime | None = None,
) -> str | None:
    """Why ``release`` does not cover sharing ``categories`` with ``recipient`` now: a reason
    code for the audit trail (no free text), or None if it covers it."""
    if release is None or release.case_id != case.pk:
        return "unknown_release"
    day = timezone.localdate(at or timezone.now())
    if release.revoked_at is not None:
        return "revoked"
    if day > release.expires_on:
        return "expired"
    if day < release.signed_on:
        return "not_yet_signed"
    if not _consent_holds(case, release):
        return "consent_not_valid"
    if not recipient.strip() or recipient_index(recipient) != release.recipient_index:
        return "recipient_not_covered"
    wanted = set(categories)
    if not wanted or not wanted <= set(release.categories):
        return "category_not_covered"
    return None


def _expiry_key(release: Release) -> str:
    return f"release:{release.pk}:expiry:{release.expires_on.isoformat()}"


def release_expiry_ensure(release: Release, *, today: dt.date) -> bool:
    """A follow-up for ``release`` if it expires within the warning period. True if created."""
    warn = dt.timedelta(days=settings.RELEASE_EXPIRY_WARNING_DAYS)
    if release.revoked_at is not None or not today <= release.expires_on <= today + warn:
        return False
    _, created = followup_ensure(
        case=release.case,
        kind=ConfidentialityFollowUpKind.RELEASE_EXPIRY,
        due_at=dt.datetime.combine(release.expires_on, dt.time(0), tzinfo=dt.UTC),
        source_key=_expiry_key(release),
        details="A release of information is about to expire: renew it with the survivor "
        "or stop sharing under it.",
    )
    return created


def release_expiry_sweep(*, now: dt.datetime | None = None) -> int:
    """Follow-ups for every release expiring within the warning period. Idempotent."""
    today = timezone.localdate(now or timezone.now())
    horizon = today + dt.timedelta(days=settings.RELEASE_EXPIRY_WARNING_DAYS)
    created = 0
    due = Release.objects.filter(
        revoked_at__isnull=True, expires_on__gte=today, expires_on__lte=horizon
    ).select_related("case", "case__team", "case__primary_advocate")
    for release in due.only("pk", "expires_on", "revoked_at", "case"):
        with transaction.atomic():
            created += release_expiry_ensure(release, today=today)
    return created


# --- Disclosures ---------------------------------------------------------------------------------


class ReleaseRequired(Exception):
    """No valid release covers this recipient and these categories: nothing was produced."""


@dataclass
class ReferralPack:
    disclosure: Disclosure
    release: Release
    sections: list[tuple[str, Rows]]


def referral_pack_export(
    *,
    actor: User,
    request: HttpRequest | None,
    case: Case,
    recipient: str,
    categories: list[str],
    fmt: str,
) -> ReferralPack:
    """Produce a referral pack for ``recipient``, only under a release that covers it.

    A refusal is audited (and stands: it is written before the exception) and produces nothing.
    """
    if not policy.may(actor, case, "edit"):
        raise PermissionDenied
    categories = sorted(set(categories))
    release = release_covering(case, recipient, categories)
    if release is None:
        record(
            "disclosure.refused",
            actor=actor,
            request=request,
            case=case,
            obj=case,
            detail={"categories": categories, "reason": "no_covering_release", "format": fmt},
        )
        raise ReleaseRequired
    with transaction.atomic():
        disclosure = _disclose(
            actor=actor,
            case=case,
            kind=DisclosureKind.REFERRAL_PACK,
            release=release,
            recipient=recipient,
            categories=categories,
        )
        record(
            "disclosure.referral_pack",
            actor=actor,
            request=request,
            case=case,
            obj=disclosure,
            detail={
                "disclosure": disclosure.pk,
                "release": release.pk,
                "categories": categories,
                "format": fmt,
            },
        )
    return ReferralPack(disclosure, release, build_sections(case, categories))


# --- Evidence packs and case exports for another organisation -----------------------------------


#: What an evidence pack needs the release to cover.
EVIDENCE_PACK_CATEGORIES = [Category.EVIDENCE]


def _refused(
    *,
    actor: User,
    request: HttpRequest | None,
    case: Case,
    kind: str,
    categories: list[str],
    reason: str,
    release: Release | None,
) -> ReleaseRequired:
    """Audit a refused export (it stands: it is written outside any rolled-back transaction)."""
    record(
        "disclosure.refused",
        actor=actor,
        request=request,
        case=case,
        obj=case,
        detail={
            "kind": kind,
            "categories": categories,
            "reason": reason,
            "release": release.pk if release is not None else None,
        },
    )
    return ReleaseRequired(reason)


def _release_for(case: Case, release_id: str) -> Release | None:
    """The release ``release_id`` of ``case`` (an id of another case's release is not found)."""
    release = (
        Release.objects.filter(case=case, public_id=str(release_id or ""))
        .select_related("consenting_party", "for_child")
        .first()
    )
    if release is not None:
        release.case = case
    return release


def _authorise(
    *,
    actor: User,
    request: HttpRequest | None,
    case: Case,
    kind: str,
    release_id: str,
    recipient: str,
    categories: list[str],
) -> Release:
    if not policy.may(actor, case, "edit"):
        raise PermissionDenied
    release = _release_for(case, release_id)
    reason = release_problem(case, release, recipient, categories)
    if reason is not None:
        raise _refused(
            actor=actor,
            request=request,
            case=case,
            kind=kind,
            categories=categories,
            reason=reason,
            release=release,
        )
    return release


def _disclose(
    *,
    actor: User,
    case: Case,
    kind: str,
    recipient: str,
    categories: list[str],
    release: Release | None = None,
    order: CompelledOrder | None = None,
) -> Disclosure:
    """The record of what leaves today, to whom, and under which release or order."""
    return Disclosure.objects.create(
        case=case,
        kind=kind,
        release=release,
        order=order,
        recipient=recipient.strip(),
        categories=categories,
        disclosed_on=timezone.localdate(),
        created_by=actor,
    )


@dataclass
class Export:
    disclosure: Disclosure
    release: Release
    data: bytes
    filename: str
    content_type: str


def _json_bytes(value: Any) -> bytes:
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False).encode()


class EvidenceUnavailable(Exception):
    """An evidence file is missing or does not match its fingerprint: nothing was produced."""


def evidence_pack_export(
    *,
    actor: User,
    request: HttpRequest | None,
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
        request=request,
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
            request=request,
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
    request: HttpRequest | None,
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
        request=request,
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
        document = {
            "format": "caseflow-case-export/1",
            "case": case.reference,
            "disclosure": disclosure.pk,
            "release": release.public_id,
            "categories": wanted,
            "generated_at": timezone.now().isoformat(),
            "sections": [
                {
                    "category": category,
                    "label": label,
                    "items": [{"item": item, "value": str(value)} for item, value in rows],
                }
                for category, (label, rows) in zip(
                    wanted, build_sections(case, wanted), strict=True
                )
            ],
        }
        record(
            "disclosure.case_export",
            actor=actor,
            request=request,
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


#: What the breach chronology holds: the breaches and the linked court order.
CHRONOLOGY_CATEGORIES = [Category.EVIDENCE, Category.COURT_ORDERS]


@dataclass
class Authority:
    """On what authority something leaves the agency: a release or a compelled order."""

    disclosure: Disclosure
    release: Release | None = None
    order: CompelledOrder | None = None

    @property
    def audit(self) -> dict[str, int | None]:
        return {
            "disclosure": self.disclosure.pk,
            "release": self.release.pk if self.release else None,
            "order": self.order.pk if self.order else None,
        }


def outside_authority(
    *,
    actor: User,
    request: HttpRequest | None,
    case: Case,
    recipient: str,
    categories: list[str],
    release_id: str = "",
    order_id: int | None = None,
) -> Authority:
    """Authorise giving a document holding ``categories`` to ``recipient`` outside the agency:
    under a covering release, or under a court order or subpoena recorded on the case. Records
    the disclosure; a refusal is audited and raises :class:`ReleaseRequired`."""
    if not policy.may(actor, case, "edit"):
        raise PermissionDenied
    categories = sorted({str(c) for c in categories})
    kind = DisclosureKind.CHRONOLOGY
    if order_id:
        order = CompelledOrder.objects.filter(case=case, pk=order_id).first()
        if order is None:
            raise _refused(
                actor=actor,
                request=request,
                case=case,
                kind=kind,
                categories=categories,
                reason="unknown_order",
                release=None,
            )
        order.case = case
        disclosure = _disclose(
            actor=actor,
            case=case,
            kind=kind,
            order=order,
            recipient=recipient,
            categories=categories,
        )
        return Authority(disclosure, order=order)
    release = _authorise(
        actor=actor,
        request=request,
        case=case,
        kind=kind,
        release_id=release_id,
        recipient=recipient,
        categories=categories,
    )
    disclosure = _disclose(
        actor=actor,
        case=case,
        kind=kind,
        release=release,
        recipient=recipient,
        categories=categories,
    )
    return Authority(disclosure, release=release)


def _next_safe_contact(case: Case, now: dt.datetime) -> tuple[dt.datetime, str]:
    profile = SafeContactProfile.objects.filter(case=case).first()
    if profile is None:
        return now, (
            "Tell the survivor about the compelled disclosure. There is no safe-contact profile: "
            "agree a safe channel and time before contacting them."
        )
    profile.case = case
    windows = [weekly_windows.Window.from_dict(w) for w in profile.windows]
    slot = weekly_windows.next_safe_slot(now, windows, profile.timezone, dt.timedelta(minutes=15))
    channels = ", ".join(profile.channels) or "none recorded"
    if slot is None:
        return now, (
            "Tell the survivor about the compelled disclosure. No safe window in the next two "
            f"weeks: check the safe-contact profile. Safe channels: {channels}."
        )
    return slot, (
        "Tell the survivor about the compelled disclosure, at this safe time, on a safe channel "
        f"({channels}). Use the code word first."
    )


@transaction.atomic
def compelled_record(
    *,
    actor: User,
    request: HttpRequest | None,
    case: Case,
    kind: str,
    received_on: dt.date,
    issuer: str,
    reference: str,
    demanded: str,
    recipient: str,
    categories: list[str],
    disclosed_on: dt.date,
) -> CompelledOrder:
    """Record a court order or subpoena and exactly what was disclosed under it, and start the
    follow-ups: legal review (supervisors), telling the survivor safely, a safety-plan review."""
    if not policy.may(actor, case, "edit"):
        raise PermissionDenied
    problem = categories_problem(categories)
    if problem:
        raise ReleaseRefused(problem)
    order = CompelledOrder.objects.create(
        case=case,
        kind=kind,
        received_on=received_on,
        issuer=issuer,
        reference=reference,
        demanded=demanded,
        recorded_by=actor,
    )
    disclosure = Disclosure.objects.create(
        case=case,
        kind=DisclosureKind.COMPELLED,
        order=order,
        recipient=recipient,
        categories=sorted(set(categories)),
        disclosed_on=disclosed_on,
        created_by=actor,
    )
    now = timezone.now()
    followups = []
    supervisors = case_supervisors(case)
    for supervisor in supervisors or [None]:
        followup, _ = followup_ensure(
            case=case,
            kind=ConfidentialityFollowUpKind.LEGAL_REVIEW,
            due_at=now + dt.timedelta(days=1),
            source_key=f"compelled:{order.pk}:legal:{getattr(supervisor, 'pk', 0)}",
            assignee=supervisor,
            actor=actor,
            details="Legal review of a compelled disclosure (court order or subpoena).",
        )
        followups.append(followup.pk)
    notify(
        recipients=supervisors,
        kind="legal_review",
        case=case,
        key=f"compelled:{order.pk}",
        text=f"A compelled disclosure was recorded on case {case.reference}: legal review needed.",
    )
    due, details = _next_safe_contact(case, now)
    followup, _ = followup_ensure(
        case=case,
        kind=GeneralFollowUpKind.TASK,
        due_at=due,
        source_key=f"compelled:{order.pk}:tell_survivor",
        actor=actor,
        details=details,
    )
    followups.append(followup.pk)
    followup, _ = followup_ensure(
        case=case,
        kind=SafetyFollowUpKind.PLAN_REVIEW,
        due_at=now + dt.timedelta(days=2),
        source_key=f"compelled:{order.pk}:plan_review",
        actor=actor,
        details="Review the safety plan: information was disclosed under compulsion.",
    )
    followups.append(followup.pk)
    record(
        "disclosure.compelled",
        actor=actor,
        request=request,
        case=case,
        obj=order,
        detail={
            "order": order.pk,
            "disclosure": disclosure.pk,
            "kind": kind,
            "categories": disclosure.categories,
            "followups": followups,
        },
    )
    return order


# --- Retention -----------------------------------------------------------------------------------


def schedule_for(agency_id: int) -> tuple[int, int]:
    """(narratives years, whole-record years) after closure for the agency."""
    schedule = RetentionSchedule.objects.filter(agency_id=agency_id).first()
    if schedule is None:
        return settings.RETENTION_NARRATIVES_YEARS, settings.RETENTION_RECORD_YEARS
    return schedule.narratives_years, schedule.record_years


@transaction.atomic
def retention_save(
    *, actor: User, request: HttpRequest | None, narratives_years: int, record_years: int
) -> RetentionSchedule:
    if not may_configure(actor):
        raise PermissionDenied
    if record_years < narratives_years:
        raise ValueError("the whole record cannot go before its narratives")
    schedule, _ = RetentionSchedule.objects.update_or_create(
        agency_id=policy.agency_id_of(actor),
        defaults={
            "narratives_years": narratives_years,
            "record_years": record_years,
            "updated_by": actor,
        },
    )
    record(
        "retention.save",
        actor=actor,
        request=request,
        obj=schedule,
        detail={"narratives_years": narratives_years, "record_years": record_years},
    )
    return schedule


LIVE = (ProposalStatus.PENDING, ProposalStatus.APPROVED, ProposalStatus.EXECUTED)


def _propose(case: Case, scope: str, due_on: dt.date) -> PurgeProposal | None:
    try:
        with transaction.atomic():
            proposal = PurgeProposal.objects.create(
                case=case, agency_id=case.agency_id, scope=scope, due_on=due_on
            )
            record(
                "purge.propose",
                case=case,
                obj=proposal,
                detail={"proposal": proposal.pk, "scope": scope},
            )
    except IntegrityError:
        return None
    return proposal


def purge_propose_due(*, now: dt.datetime | None = None) -> list[PurgeProposal]:
    """Propose the purges the agencies' schedules make due; cancel proposals of reopened cases.
    Idempotent: a case has at most one live proposal per scope."""
    now = now or timezone.now()
    created: list[PurgeProposal] = []
    stale = PurgeProposal.objects.filter(
        status__in=(ProposalStatus.PENDING, ProposalStatus.APPROVED)
    ).exclude(case__status=CaseStatus.CLOSED)
    for proposal in stale.select_related("case"):
        with transaction.atomic():
            proposal.status = ProposalStatus.CANCELLED
            proposal.decided_at = now
            proposal.save(update_fields=["status", "decided_at"])
            record(
                "purge.cancel",
                case=proposal.case,
                obj=proposal,
                detail={"proposal": proposal.pk, "reason": "case_reopened"},
            )
    for agency_id in Agency.objects.values_list("pk", flat=True):
        narratives_years, record_years = schedule_for(agency_id)
        closed = Case.objects.filter(
            agency_id=agency_id, status=CaseStatus.CLOSED, closed_at__isnull=False
        ).only("pk", "agency_id", "closed_at", "public_id", "reference")
        live = PurgeProposal.objects.filter(case=OuterRef("pk"), status__in=LIVE)
        whole_cut = now - relativedelta(years=record_years)
        for case in closed.filter(closed_at__lte=whole_cut).exclude(
            Exists(live.filter(scope=PurgeScope.WHOLE))
        ):
            due = (case.closed_at + relativedelta(years=record_years)).date()
            if (p := _propose(case, PurgeScope.WHOLE, due)) is not None:
                created.append(p)
        narratives_cut = now - relativedelta(years=narratives_years)
        for case in closed.filter(closed_at__lte=narratives_cut).exclude(Exists(live)):
            due = (case.closed_at + relativedelta(years=narratives_years)).date()
            if (p := _propose(case, PurgeScope.NARRATIVES, due)) is not None:
                created.append(p)
    return created


class PurgeRefused(Exception):
    """The purge step cannot be taken; ``str(exc)`` says why, for the user."""


def _locked_proposal(actor: User, proposal_id: int) -> PurgeProposal:
    proposal = (
        PurgeProposal.objects.select_for_update()
        .filter(pk=proposal_id, agency_id=policy.agency_id_of(actor))
        .first()
    )
    if proposal is None or not policy.may_decide_purges(actor, proposal.agency_id):
        raise PermissionDenied
    return proposal


@transaction.atomic
def purge_approve(*, actor: User, request: HttpRequest | None, proposal_id: int) -> PurgeProposal:
    """One approval. A whole-record purge needs two different approvers, a partial one one."""
    if not policy.may_decide_purges(actor):
        raise PermissionDenied
    proposal = _locked_proposal(actor, proposal_id)
    case = Case.objects.get(pk=proposal.case_id)
    if proposal.status != ProposalStatus.PENDING:
        raise PurgeRefused("This proposal is no longer waiting for approval.")
    if case.status != CaseStatus.CLOSED:
        raise PurgeRefused("The case has been reopened: it cannot be purged.")
    if PurgeApproval.objects.filter(proposal=proposal, approver=actor).exists():
        raise PurgeRefused(
            "You have already approved this purge: a different person must give the second "
            "approval."
        )
    PurgeApproval.objects.create(proposal=proposal, approver=actor)
    approvals = PurgeApproval.objects.filter(proposal=proposal).count()
    if approvals >= APPROVALS_NEEDED[proposal.scope]:
        proposal.status = ProposalStatus.APPROVED
        proposal.decided_at = timezone.now()
        proposal.save(update_fields=["status", "decided_at"])
    record(
        "purge.approve",
        actor=actor,
        request=request,
        case=case,
        obj=proposal,
        detail={
            "proposal": proposal.pk,
            "scope": proposal.scope,
            "approvals": approvals,
            "needed": APPROVALS_NEEDED[proposal.scope],
        },
    )
    return proposal


def case_counts(case: Case) -> dict[str, Any]:
    """Non-identifying counts of what the case holds, computed over every case-owned model."""
    counts: dict[str, Any] = {}
    for model in narratives.case_owned_models():
        n = model._default_manager.filter(case=case).count()
        if n:
            counts[model._meta.label] = n
    counts["parties_by_role"] = dict(
        Counter(Party.objects.filter(case=case).values_list("role", flat=True))
    )
    return counts


def _delete_case_owned(case: Case) -> dict[str, int]:
    """Delete every case-owned row of ``case``, in whatever order protected links allow."""
    deleted: Counter[str] = Counter()
    remaining = narratives.case_owned_models()
    while remaining:
        postponed = []
        for model in remaining:
            try:
                with transaction.atomic():
                    _, per_model = model._default_manager.filter(case=case).delete()
            except (ProtectedError, RestrictedError):
                postponed.append(model)
                continue
            deleted.update({k: v for k, v in per_model.items() if v})
        if len(postponed) == len(remaining):
            raise PurgeRefused("Some records of this case are protected and cannot be purged.")
        remaining = postponed
    return dict(deleted)


def _shred(case: Case) -> dict[str, Any]:
    deleted = _delete_case_owned(case)
    assignments, _ = CaseAssignment.objects.filter(case=case).delete()
    case.restricted_users.clear()
    policy.forget_permissions(case)
    # Out of everyone's scope: a restricted case that lists nobody. What is left is a stub.
    Case.objects.filter(pk=case.pk).update(
        restricted=True,
        conflict_flag=False,
        primary_advocate=None,
        # The summary's ciphertext is replaced by one under a throwaway key, then the case key goes.
        summary=Sealed(Fernet(Fernet.generate_key()).encrypt(b"").decode()),
    )
    keys, _ = CaseKey.objects.filter(case=case).delete()
    if assignments:
        deleted["cases.CaseAssignment"] = assignments
    return {"deleted": deleted, "cleared": {}, "key_destroyed": bool(keys)}


def _empty_like(field: Any, value: Any) -> Any:
    """An empty value of the type the field holds: ``""``, ``{}``, ``[]``."""
    if isinstance(value, (str, dict, list)):
        return type(value)()
    return None if field.null else ""


def _clear_narratives(case: Case) -> dict[str, Any]:
    cleared: dict[str, list[str]] = {}
    evidence = narratives.evidence_models()
    for model, names in narratives.narrative_fields().items():
        if model in evidence:
            continue  # its rows are deleted below
        rows = [case] if model is Case else list(model._default_manager.filter(case=case))
        fields = [model._meta.get_field(name) for name in names]
        for row in rows:
            if row is not case:
                row.case = case
            sealed = {}
            for field in fields:
                setattr(row, field.attname, _empty_like(field, getattr(row, field.attname)))
                sealed[field.attname] = field.pre_save(row, False)
            # Written with update(): some rows (plan and agreement versions) refuse save().
            model._base_manager.filter(pk=row.pk).update(**sealed)
        if rows:
            cleared[model._meta.label] = list(names)
    deleted: Counter[str] = Counter()
    for model in evidence:
        _, per_model = model._default_manager.filter(case=case).delete()
        deleted.update({k: v for k, v in per_model.items() if v})
    return {"deleted": dict(deleted), "cleared": cleared, "key_destroyed": False}


@transaction.atomic
def purge_execute(
    *, actor: User, request: HttpRequest | None, proposal_id: int
) -> DeletionCertificate:
    """Carry out an approved purge and issue its deletion certificate."""
    if not policy.may_decide_purges(actor):
        raise PermissionDenied
    proposal = _locked_proposal(actor, proposal_id)
    if proposal.status != ProposalStatus.APPROVED:
        raise PurgeRefused("Only an approved purge can be carried out.")
    approvers = list(
        PurgeApproval.objects.filter(proposal=proposal)
        .select_related("approver")
        .order_by("approved_at", "pk")
    )
    if len({a.approver_id for a in approvers}) < APPROVALS_NEEDED[proposal.scope]:
        raise PurgeRefused("This purge does not have the approvals it needs.")
    case = Case.objects.select_for_update().get(pk=proposal.case_id)
    if case.status != CaseStatus.CLOSED:
        raise PurgeRefused("The case has been reopened: it cannot be purged.")
    now = timezone.now()
    counts = case_counts(case)
    previous = CasePurge.objects.filter(case=case).first()
    if previous is not None and previous.is_whole:
        raise PurgeRefused("This case has already been purged.")
    if previous is not None:
        counts = previous.counts  # the counts from before the first purge stand
    purged = _shred(case) if proposal.scope == PurgeScope.WHOLE else _clear_narratives(case)
    CasePurge.objects.update_or_create(
        case=case, defaults={"scope": proposal.scope, "purged_at": now, "counts": counts}
    )
    certificate = DeletionCertificate.objects.create(
        proposal=proposal,
        agency_id=case.agency_id,
        case=case,
        case_reference=case.reference,
        scope=proposal.scope,
        purged_at=now,
        executed_by=actor,
        approver_ids=[a.approver_id for a in approvers],
        approver_names=[a.approver.get_username() for a in approvers],
        purged=purged,
    )
    proposal.status = ProposalStatus.EXECUTED
    proposal.save(update_fields=["status"])
    if proposal.scope == PurgeScope.WHOLE:
        PurgeProposal.objects.filter(
            case=case, status__in=(ProposalStatus.PENDING, ProposalStatus.APPROVED)
        ).update(status=ProposalStatus.CANCELLED, decided_at=now)
    record(
        "purge.execute",
        actor=actor,
        request=request,
        case=case,
        obj=certificate,
        detail={
            "proposal": proposal.pk,
            "certificate": certificate.pk,
            "scope": proposal.scope,
            "approvers": certificate.approver_ids,
            "deleted": purged["deleted"],
            "cleared": purged["cleared"],
            "key_destroyed": purged["key_destroyed"],
        },
    )
    return certificate


# --- Aggregate reports ---------------------------------------------------------------------------

#: The only dimensions a report can use: none of them identifies anyone.
DIMENSIONS: dict[str, tuple[str, str]] = {
    "team": ("team__name", "Service (team)"),
    "risk_level": ("risk_level", "Risk band"),
    "status": ("status", "Outcome (case status)"),
}
PERIODS = {"month": ("Month", TruncMonth), "quarter": ("Quarter", TruncQuarter)}


@dataclass
class AggregateReport:
    columns: list[str]
    rows: list[list[str]]
    suppressed: int
    threshold: int


def _period_label(period: str, value: dt.datetime | dt.date) -> str:
    if period == "quarter":
        return f"{value.year} Q{(value.month - 1) // 3 + 1}"
    return f"{value.year}-{value.month:02d}"


def aggregate_report(
    *,
    actor: User,
    request: HttpRequest | None,
    period: str,
    dimensions: list[str],
    start: dt.date,
    end: dt.date,
) -> AggregateReport:
    """Counts of the actor's agency's cases opened in [start, end], by period and dimensions.
    Cells under AGGREGATE_MIN_CELL are shown as "<N"."""
    if not policy.may_run_reports(actor):
        raise PermissionDenied
    if period not in PERIODS or set(dimensions) - set(DIMENSIONS):
        raise ValueError("unknown period or dimension")
    dimensions = [d for d in DIMENSIONS if d in dimensions]
    period_label, trunc = PERIODS[period]
    fields = [DIMENSIONS[d][0] for d in dimensions]
    since = dt.datetime.combine(start, dt.time(0), tzinfo=dt.UTC)
    until = dt.datetime.combine(end + dt.timedelta(days=1), dt.time(0), tzinfo=dt.UTC)
    grouped = (
        Case.objects.filter(
            agency_id=policy.agency_id_of(actor), opened_at__gte=since, opened_at__lt=until
        )
        .annotate(bucket=trunc("opened_at", tzinfo=dt.UTC))
        .values("bucket", *fields)
        .annotate(n=Count("pk"))
        .order_by("bucket", *fields)
    )
    labels = {
        "risk_level": dict(RiskLevel.choices),
        "status": dict(CaseStatus.choices),
    }
    threshold = settings.AGGREGATE_MIN_CELL
    rows, suppressed = [], 0
    for item in grouped:
        row = [_period_label(period, item["bucket"])]
        for d, f in zip(dimensions, fields, strict=True):
            row.append(labels.get(d, {}).get(item[f], item[f]))
        if item["n"] < threshold:
            row.append(f"<{threshold}")
            suppressed += 1
        else:
            row.append(str(item["n"]))
        rows.append(row)
    record(
        "report.aggregate",
        actor=actor,
        request=request,
        detail={
            "period": period,
            "dimensions": dimensions,
            "from": start.isoformat(),
            "to": end.isoformat(),
            "rows": len(rows),
        },
    )
    columns = [period_label, *(DIMENSIONS[d][1] for d in dimensions), "Cases"]
    return AggregateReport(columns, rows, suppressed, threshold)


# --- Field settings ------------------------------------------------------------------------------


@transaction.atomic
def field_settings_save(
    *, actor: User, request: HttpRequest | None, values: dict[str, tuple[bool, str]]
) -> None:
    """Hide or relabel optional intake fields for the actor's agency."""
    if not may_configure(actor):
        raise PermissionDenied
    agency_id = policy.agency_id_of(actor)
    changed = []
    for name, (hidden, label) in values.items():
        if name not in IntakeField.values:
            raise ValueError(f"unknown field {name}")
        setting, _ = FieldSetting.objects.get_or_create(agency_id=agency_id, field=name)
        if (setting.hidden, setting.label) != (hidden, label):
            setting.hidden, setting.label = hidden, label
            setting.save()
            changed.append(name)
    record("fields.save", actor=actor, request=request, detail={"fields": changed})
