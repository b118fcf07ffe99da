"""Operations on agreements, the contact log and the breach register.

Each operation checks policy itself, runs in a transaction and writes one audit event. Audit
details hold ids and field names only.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.files.base import ContentFile
from django.core.files.storage import Storage
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_noop

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.agreements import terms
from caseflow.agreements.breaches import can_breach, counted_breaches, review_for_survivor
from caseflow.agreements.labels import RECORDED_BY_ADVOCATE
from caseflow.agreements.models import (
    SEVERITY_RANK,
    STATUS_TRANSITIONS,
    AgencyEscalationRule,
    AgreementFollowUpKind,
    AgreementStatus,
    AgreementVersion,
    Breach,
    ContactAgreement,
    ContactEvent,
    EscalationFiring,
    EscalationRuleKind,
    Evidence,
    ReviewState,
)
from caseflow.audit.services import record
from caseflow.cases.evidence import TYPES as EVIDENCE_FILE_TYPES
from caseflow.cases.evidence import check_quota, evidence_storage
from caseflow.cases.models import Case, Party
from caseflow.inbox.services import case_supervisors, followup_ensure, notify
from caseflow.lib.concurrency import StaleEdit
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.outbox import events
from caseflow.outbox import services as outbox

log = logging.getLogger(__name__)

EVIDENCE_PREFIX = "agreements/evidence/"


#: Agreement fields an advocate edits directly (the rest are derived or system-kept).
AGREEMENT_FIELDS = (
    "effective_from",
    "effective_to",
    "court",
    "court_reference",
    "order_expires_on",
)


class AlreadyReviewed(Exception):
    """The contact event's breach review was already confirmed; nothing was written."""


class NotABreach(Exception):
    """The contact came from the survivor: it is never reviewed as a breach."""


def survivor_timezone(case: Case) -> str:
    """The survivor's time zone from the safe-contact profile, or Europe/London."""
    profile = getattr(case, "safe_contact", None) if hasattr(case, "safe_contact") else None
    return profile.timezone if profile is not None else "Europe/London"


# --- Agreements and versions ----------------------------------------------------------------------


def _add_version(
    *,
    actor: User,
    agreement: ContactAgreement,
    number: int,
    agreement_terms: terms.Agreement,
    protocol: dict,
    note: str,
) -> AgreementVersion:
    version = AgreementVersion(
        case=agreement.case,
        agreement=agreement,
        number=number,
        author=actor,
        terms=agreement_terms.to_dict(),
        protocol=protocol,
        note=note,
    )
    version.save()
    return version


@transaction.atomic
def agreement_create(
    *,
    actor: User,
    case: Case,
    fields: dict[str, Any],
    children: list[Party],
    agreement_terms: terms.Agreement,
    protocol: dict,
    note: str = "",
) -> ContactAgreement:
    """A new draft agreement with its first version of the terms."""
    policy.require(actor, case, "edit")
    agreement = ContactAgreement(
        case=case,
        created_by=actor,
        timezone=agreement_terms.timezone,
        current_number=1,
        **{name: _field_value(fields, name) for name in AGREEMENT_FIELDS},
    )
    agreement.save()
    agreement.children.set(_own_children(case, children))
    version = _add_version(
        actor=actor,
        agreement=agreement,
        number=1,
        agreement_terms=agreement_terms,
        protocol=protocol,
        note=note,
    )
    record(
        "agreement.create",
        actor=actor,
        case=case,
        obj=agreement,
        detail={"version": version.number},
    )
    return agreement


def _field_value(fields: dict[str, Any], name: str) -> Any:
    """The value to store for an agreement field; empty text fields become "", dates None."""
    if name == "effective_from":
        return fields[name]
    return fields.get(name) or ("" if name in ("court", "court_reference") else None)


def _own_children(case: Case, children: list[Party]) -> list[Party]:
    return [p for p in children if p.case_id == case.pk and p.role == "child"]


@transaction.atomic
def agreement_save(
    *,
    actor: User,
    agreement: ContactAgreement,
    expected_lock: int | None,
    fields: dict[str, Any],
    children: list[Party],
    agreement_terms: terms.Agreement,
    protocol: dict,
    note: str = "",
) -> AgreementVersion:
    """Save the agreement's details and a new version of its terms.

    Refused with :class:`StaleEdit`, writing nothing, if the agreement changed since the user
    loaded it (``expected_lock``).
    """
    case = agreement.case
    policy.require(actor, case, "edit")
    if agreement.status in (AgreementStatus.SUPERSEDED, AgreementStatus.ENDED):
        raise PermissionDenied(_("A superseded or ended agreement is kept as it was."))
    if expected_lock is None:
        raise StaleEdit("agreement")
    claimed = ContactAgreement.objects.filter(
        pk=agreement.pk, lock=expected_lock, current_number=agreement.current_number
    ).update(lock=F("lock") + 1, current_number=F("current_number") + 1)
    if not claimed:
        raise StaleEdit("agreement")
    agreement.refresh_from_db(fields=["lock", "current_number"])
    changed = []
    for name in AGREEMENT_FIELDS:
        value = _field_value(fields, name)
        if getattr(agreement, name) != value:
            changed.append(name)
            setattr(agreement, name, value)
    agreement.save(update_fields=[*AGREEMENT_FIELDS, "updated_at"])
    agreement.children.set(_own_children(case, children))
    version = _add_version(
        actor=actor,
        agreement=agreement,
        number=agreement.current_number,
        agreement_terms=agreement_terms,
        protocol=protocol,
        note=note,
    )
    record(
        "agreement.update",
        actor=actor,
        case=case,
        obj=agreement,
        detail={"version": version.number, "fields": changed},
    )
    return version


@transaction.atomic
def agreement_set_status(
    *,
    actor: User,
    agreement: ContactAgreement,
    expected_lock: int,
    status: str,
) -> ContactAgreement:
    """Move the agreement on (draft → active → superseded/ended). Activating one supersedes the
    case's other active agreement."""
    case = agreement.case
    policy.require(actor, case, "edit")
    if status not in STATUS_TRANSITIONS[agreement.status]:
        raise PermissionDenied(_("That status change is not possible."))
    claimed = ContactAgreement.objects.filter(
        pk=agreement.pk, lock=expected_lock, status=agreement.status
    ).update(lock=F("lock") + 1, status=status)
    if not claimed:
        raise StaleEdit("agreement")
    superseded = []
    if status == AgreementStatus.ACTIVE:
        others = ContactAgreement.objects.filter(case=case, status=AgreementStatus.ACTIVE).exclude(
            pk=agreement.pk
        )
        superseded = list(others.values_list("public_id", flat=True))
        others.update(status=AgreementStatus.SUPERSEDED, lock=F("lock") + 1)
    agreement.refresh_from_db(fields=["lock", "status"])
    record(
        "agreement.status",
        actor=actor,
        case=case,
        obj=agreement,
        detail={"status": status, "superseded": superseded},
    )
    return agreement


def version_terms(version: AgreementVersion) -> terms.Agreement:
    return terms.Agreement.from_dict(version.terms)


def version_in_force(
    parsed: list[tuple[int, terms.Agreement]], moment: dt.datetime
) -> tuple[int | None, terms.Agreement | None]:
    """The (number, terms) of the version in force at ``moment``, or (None, None).

    A newer version replaces the older ones from the day its terms apply: the candidate is the
    highest-numbered version that had started by ``moment``, and it is in force only if
    ``moment`` also falls before its end.
    """
    started = [(number, t) for number, t in parsed if t.effective_from <= moment]
    if not started:
        return None, None
    number, candidate = max(started, key=lambda item: item[0])
    if terms.agreement_in_force(moment, [candidate]) is None:
        return None, None
    return number, candidate


# --- Contact log and breach register -------------------------------------------------------------


def _stored_event(row: ContactEvent) -> terms.ContactEvent:
    return terms.ContactEvent(
        occurred_at=row.occurred_at,
        channel=terms.Channel(row.channel),
        direction=terms.Direction(row.direction),
        topic=row.topic,
        kind=terms.EventKind(row.kind),
        handover_missed=row.handover_missed,
        direct_contact_at_handover=row.direct_contact_at_handover,
    )


def propose_violations(
    agreement: ContactAgreement, event: terms.ContactEvent
) -> tuple[int | None, list[terms.Violation]]:
    """The version in force when ``event`` happened and the terms the event breaks under it."""
    versions = list(agreement.versions.all())
    for version in versions:
        version.case = agreement.case
    number, in_force = version_in_force(
        [(version.number, version_terms(version)) for version in versions], event.occurred_at
    )
    if in_force is None:
        return None, []
    prior_rows = ContactEvent.objects.filter(
        agreement=agreement, occurred_at__lte=event.occurred_at
    ).only("occurred_at", "channel", "direction", "kind", "topic", "case_id")
    prior = []
    for row in prior_rows:
        row.case = agreement.case
        prior.append(_stored_event(row))
    violations = [
        v for v in terms.check(event, in_force, prior) if v.term != terms.Term.EFFECTIVE_PERIOD
    ]
    return number, violations


@transaction.atomic
def event_log(
    *,
    actor: User,
    agreement: ContactAgreement,
    event: terms.ContactEvent,
    description: str = "",
    evidence: Sequence[dict] = (),
    reported_at: dt.datetime | None = None,
    integration: policy.IntegrationLike | None = None,
) -> ContactEvent:
    """Log a contact the survivor reported, with its evidence, and store what the breach checker
    proposes; the advocate then confirms or edits it (:func:`breach_review`). The survivor's own
    contact is not reviewed: it is recorded at once as within or outside the agreed terms, never
    as a breach (:mod:`caseflow.agreements.breaches`). Raises
    :class:`~caseflow.cases.evidence.EvidenceRefused` when the files would take the case over
    its evidence quota.

    With ``integration`` the contact comes from another system (a co-parenting app's export sent
    through the API, ``actor`` being the integration's own account): it must hold the contacts
    scope for the case instead of an advocate's right to edit it."""
    case = agreement.case
    if integration is not None:
        policy.require_integration(integration, case, policy.SCOPE_CONTACTS_WRITE)
    else:
        policy.require(actor, case, "edit")
    if evidence:
        # The case's evidence quota counts every file of the case; the case row is locked so
        # that two uploads at once cannot both squeeze under it.
        Case.objects.select_for_update().filter(pk=case.pk).values_list("pk", flat=True).first()
        check_quota(case, [len(item["data"]) for item in evidence])
    number, violations = propose_violations(agreement, event)
    row = ContactEvent(
        case=case,
        agreement=agreement,
        occurred_at=event.occurred_at,
        reported_at=reported_at or timezone.now(),
        channel=event.channel.value,
        direction=event.direction.value,
        kind=event.kind.value,
        topic=event.topic,
        handover_missed=event.handover_missed,
        direct_contact_at_handover=event.direct_contact_at_handover,
        description=description,
        version_number=number,
        proposed=[v.to_dict() for v in violations],
        review=(
            ReviewState.PENDING
            if can_breach(event.direction.value)
            else review_for_survivor(violations)
        ),
        logged_by=actor,
    )
    row.save()
    stored: list[Evidence] = []
    try:
        for item in evidence:
            stored.append(_evidence_store(actor=actor, event=row, item=item))
        record(
            "agreement.event.create",
            actor=actor,
            case=case,
            obj=row,
            detail={
                "agreement": agreement.public_id,
                "version": number,
                "proposed": [v.term.value for v in violations],
                "review": row.review,
                "evidence": [e.public_id for e in stored],
            },
        )
    except Exception:
        # Nothing of this event is kept: neither its rows (rolled back) nor its files.
        _evidence_discard(stored)
        raise
    return row


def _finding(term: terms.Term, proposed: dict | None) -> dict:
    """What the breach register keeps of a broken term: the checker's finding (its sentence, and
    its code and values when it has them, to write it in the reader's language), or the note
    that the advocate marked it."""
    if proposed is None:
        return {"term": term.value, "message": RECORDED_BY_ADVOCATE}
    kept = {"term": term.value, "message": proposed["message"]}
    kept.update({key: proposed[key] for key in ("code", "params") if key in proposed})
    return kept


@transaction.atomic
def breach_review(
    *,
    actor: User,
    event: ContactEvent,
    terms_broken: list[str],
    severity: str = "",
    police_reported: bool = False,
    police_reference: str = "",
    description: str = "",
) -> Breach | None:
    """Confirm (or correct) the checker's proposal for ``event``: a breach for the terms the
    advocate chose, or no breach when none is chosen. Escalation is evaluated after commit.
    Raises :class:`NotABreach` for the survivor's own contact, writing nothing."""
    case = event.case
    policy.require(actor, case, "edit")
    if not can_breach(event.direction):
        raise NotABreach()
    claimed = ContactEvent.objects.filter(
        pk=event.pk, review=ReviewState.PENDING, direction=terms.Direction.TO_SURVIVOR.value
    ).update(review=ReviewState.BREACH if terms_broken else ReviewState.NO_BREACH)
    if not claimed:
        raise AlreadyReviewed()
    proposed = {v["term"]: v for v in (event.proposed or [])}
    proposed_terms = sorted(proposed)
    if not terms_broken:
        record(
            "agreement.event.review",
            actor=actor,
            case=case,
            obj=event,
            detail={"breach": False, "proposed": proposed_terms},
        )
        return None
    chosen = [t for t in terms.Term if t.value in terms_broken]
    breach = Breach(
        case=case,
        agreement=event.agreement,
        event=event,
        occurred_at=event.occurred_at,
        reported_at=event.reported_at,
        channel=event.channel,
        terms_broken=[t.value for t in chosen],
        violations=[_finding(t, proposed.get(t.value)) for t in chosen],
        description=description,
        severity=severity,
        police_reported=police_reported,
        police_reference=police_reference if police_reported else "",
        recorded_by=actor,
    )
    breach.save()
    record(
        "agreement.breach.create",
        actor=actor,
        case=case,
        obj=breach,
        detail={
            "event": event.public_id,
            "terms": breach.terms_broken,
            "proposed": proposed_terms,
            "severity": severity,
            "police_reported": police_reported,
        },
    )
    outbox.enqueue("caseflow.agreements.tasks.escalate_breach", breach_id=breach.pk)
    events.publish(
        events.EventKind.BREACH_RECORDED, agency_id=case.agency_id, case_public_id=case.public_id
    )
    return breach


# --- Evidence -------------------------------------------------------------------------------------


class EvidenceStorageFailed(Exception):
    """The evidence storage refused a file (disk full, read-only, gone): nothing of the event
    it came with is kept."""


def _evidence_write(storage: Storage, token: bytes) -> str:
    """Write one encrypted file; on failure remove whatever part of it reached the storage
    (a full disk leaves a partly written file behind) and raise :class:`EvidenceStorageFailed`."""
    wanted = f"{EVIDENCE_PREFIX}{secrets.token_hex(16)}.bin"
    try:
        return storage.save(wanted, ContentFile(token))
    except OSError as exc:
        log.warning("evidence storage refused a file: %s (errno %s)", type(exc).__name__, exc.errno)
        try:
            if storage.exists(wanted):
                storage.delete(wanted)
        except OSError:
            log.error("a partly written evidence file could not be removed: %s", wanted)
        raise EvidenceStorageFailed from exc


def _evidence_store(*, actor: User, event: ContactEvent, item: dict) -> Evidence:
    """Encrypt the bytes with the case key and write them under a random name."""
    data: bytes = item["data"]
    token = event.case.data_key().encrypt(data)
    name = _evidence_write(evidence_storage(), token)
    evidence = Evidence(
        case=event.case,
        event=event,
        storage_name=name,
        filename=item["name"],
        content_type=item["content_type"],
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        uploaded_by=actor,
    )
    try:
        evidence.save()
    except Exception:
        evidence_storage().delete(name)
        raise
    return evidence


def _evidence_discard(stored: list[Evidence]) -> None:
    storage = evidence_storage()
    for evidence in stored:
        try:
            storage.delete(evidence.storage_name)
        except OSError:
            log.error("an evidence file could not be removed: %s", evidence.storage_name)


#: The file name extension of each stored content type (downloads and packs name files by it).
EXTENSIONS = {
    **{t.content_type: t.extensions[0] for t in EVIDENCE_FILE_TYPES.values()},
    "text/plain": ".txt",
}


def evidence_read(case: Case, evidence: Evidence) -> bytes:
    """The decrypted bytes of an evidence file of ``case``, checked against its fingerprint.
    Not audited: callers (the download, the evidence pack) write their own export event."""
    if evidence.case_id != case.pk:
        raise PermissionDenied(_("Not allowed"))
    with evidence_storage().open(evidence.storage_name, "rb") as handle:
        token = handle.read()
    data = case.data_key().decrypt(token)
    if hashlib.sha256(data).hexdigest() != evidence.sha256:
        raise ValueError("evidence file does not match its fingerprint")
    return data


def evidence_open(*, actor: User, case: Case, evidence: Evidence, view: bool = False) -> bytes:
    """The decrypted bytes of an evidence file, for a download (or, with ``view``, a look in the
    browser) that is audited, each as its own kind of read."""
    policy.require(actor, case, "view")
    data = evidence_read(case, evidence)
    record(
        "evidence.view" if view else "agreement.evidence.export",
        actor=actor,
        case=case,
        obj=evidence,
        detail={"event": evidence.event.public_id},
    )
    return data


# --- Escalation ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class EscalationRule:
    severity: str
    count: int
    days: int


def escalation_rule_for(agency_id: int) -> EscalationRule:
    row = AgencyEscalationRule.objects.filter(agency_id=agency_id).first()
    if row is not None:
        return EscalationRule(row.severity_threshold, row.count_threshold, row.window_days)
    return EscalationRule(
        settings.AGREEMENTS_ESCALATION_SEVERITY,
        settings.AGREEMENTS_ESCALATION_COUNT,
        settings.AGREEMENTS_ESCALATION_DAYS,
    )


FOLLOWUP_TEXT: dict[str, str] = {
    EscalationRuleKind.SEVERITY: _("A serious breach of the contact agreement: re-assess risk."),
    EscalationRuleKind.FREQUENCY: _("Repeated breaches of the contact agreement: re-assess risk."),
}


def _fire(breach: Breach, rule: str) -> EscalationFiring:
    case = breach.case
    key = f"agreements:breach:{breach.pk}:{rule}"
    firing, created = EscalationFiring.objects.get_or_create(
        key=key, defaults={"case": case, "breach": breach, "rule": rule}
    )
    followup_ensure(
        case=case,
        kind=AgreementFollowUpKind.BREACH_ESCALATION,
        due_at=firing.created_at + dt.timedelta(days=1),
        source_key=key,
        details=FOLLOWUP_TEXT[rule],
    )
    notify(
        recipients=case_supervisors(case),
        kind="breach_escalation",
        case=case,
        key=key,
        message=gettext_noop(
            "Case %(reference)s: contact-agreement breach escalation, risk re-assessment due."
        ),
        values={"reference": case.reference},
    )
    if created:
        record(
            "agreement.escalation",
            case=case,
            obj=firing,
            object_id=str(firing.pk),
            detail={"breach": breach.public_id, "rule": rule},
        )
    return firing


@transaction.atomic
def breach_escalate(*, breach_id: int) -> list[EscalationFiring]:
    """Evaluate the agency's escalation rules for one breach. Safe to run again: each firing has
    a key, the follow-up and the notifications are unique per key."""
    breach = (
        counted_breaches().select_related("case__team", "case__agency").filter(pk=breach_id).first()
    )
    if breach is None:
        return []
    rule = escalation_rule_for(breach.case.agency_id)
    firings = []
    if SEVERITY_RANK.get(breach.severity, -1) >= SEVERITY_RANK.get(rule.severity, 99):
        firings.append(_fire(breach, EscalationRuleKind.SEVERITY))
    since = breach.occurred_at - dt.timedelta(days=rule.days)
    window = {"occurred_at__gt": since, "occurred_at__lte": breach.occurred_at}
    if rule.count and counted_breaches().filter(case=breach.case, **window).count() >= rule.count:
        earlier = (
            EscalationFiring.objects.filter(
                case=breach.case,
                rule=EscalationRuleKind.FREQUENCY,
                **{f"breach__{name}": value for name, value in window.items()},
            )
            .exclude(breach=breach)
            .exists()
        )
        if not earlier:
            firings.append(_fire(breach, EscalationRuleKind.FREQUENCY))
    return firings


# --- Chronology -----------------------------------------------------------------------------------


def chronology_record(
    *,
    actor: User,
    agreement: ContactAgreement,
    fmt: str,
    sha256: str,
    authority: dict[str, int | None] | None = None,
) -> None:
    """Audit one generation of the chronology (an export of case content): for the agency's
    own file, or for someone outside it under ``authority`` (the ids of the disclosure and of
    the release or compelled order it was made under)."""
    policy.require(actor, agreement.case, "edit" if authority else "view")
    detail: dict[str, Any] = {"format": fmt, "sha256": sha256}
    if authority is None:
        detail["audience"] = "internal"
    else:
        detail.update(audience="outside", **authority)
    record(
        "agreement.chronology.export",
        actor=actor,
        case=agreement.case,
        obj=agreement,
        detail=detail,
    )
