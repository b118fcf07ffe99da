"""Recording case notes and incidents, changing notes, opening evidence, escalating incidents.

Each operation checks policy itself, runs in a transaction and writes one audit event whose
detail holds ids and field names only. Files are written before their rows; if anything after
that fails, the files are removed again, so a failed save leaves nothing behind.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.cases import evidence as files
from caseflow.cases.models import BreakGlassGrant, Case, RiskLevel
from caseflow.casework.models import (
    PARTICIPANT_FIELDS,
    SERIOUS_KINDS,
    CaseNote,
    CaseworkFollowUpKind,
    Direction,
    Evidence,
    Goal,
    Incident,
    IncidentKind,
    Need,
    NoteAmendment,
    NoteKind,
    Participant,
)
from caseflow.inbox.kinds import GeneralFollowUpKind
from caseflow.inbox.services import case_supervisors, followup_ensure, notify
from caseflow.lib.concurrency import StaleEdit
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.outbox import services as outbox

EVIDENCE_PREFIX = "casework/evidence/"

#: Note fields a person writes, with the words used for them in an amendment's history.
NOTE_FIELDS: dict[str, str] = {
    "kind": _("What kind of contact"),
    "participants": _("Who took part"),
    "direction": _("Direction"),
    "occurred_at": _("When"),
    "duration_minutes": _("How long"),
    "text": _("Note"),
    "incident": _("Incident"),
    "need": _("About a need"),
    "goal": _("About a goal"),
}


def _store_files(
    *,
    actor: User,
    case: Case,
    checked: Sequence[files.CheckedFile],
    written: list[str],
    **owner: Any,
) -> list[Evidence]:
    """Write each file and its evidence row (:func:`caseflow.cases.evidence.store_with_rows`)."""
    return files.store_with_rows(
        Evidence,
        case=case,
        actor=actor,
        checked=checked,
        prefix=EVIDENCE_PREFIX,
        written=written,
        **owner,
    )


def current_grant(*, actor: User, case: Case) -> BreakGlassGrant | None:
    return (
        BreakGlassGrant.objects.filter(case=case, user=actor, expires_at__gt=timezone.now())
        .order_by("-granted_at")
        .first()
    )


# --- Notes ---------------------------------------------------------------------------------------


@transaction.atomic
def note_create(
    *,
    actor: User,
    case: Case,
    kind: str,
    participants: Sequence[str],
    direction: str,
    occurred_at: dt.datetime,
    duration_minutes: int | None,
    text: str,
    incident: Incident | None = None,
    checkin: Any = None,
    evidence: Sequence[files.CheckedFile] = (),
    followup_due: dt.datetime | None = None,
    followup_details: str = "",
    need: Need | None = None,
    goal: Goal | None = None,
) -> CaseNote:
    """Record a note; with ``followup_due``, also a follow-up for the case's advocate. Someone
    writing under emergency access may record a note: it is flagged for the supervisor's review.
    Raises :class:`~caseflow.cases.evidence.EvidenceRefused` over the case's quota."""
    policy.require(actor, case, "record_note")
    grant = None if policy.may(actor, case, "edit") else current_grant(actor=actor, case=case)
    if incident is not None and incident.case_id != case.pk:
        raise PermissionDenied
    if checkin is not None and checkin.case_id != case.pk:
        raise PermissionDenied
    if any(row is not None and row.case_id != case.pk for row in (need, goal)):
        raise PermissionDenied
    files.lock_case_for_quota(case, evidence)
    note = CaseNote(
        case=case,
        kind=NoteKind(kind),
        direction=Direction(direction),
        occurred_at=occurred_at,
        duration_minutes=duration_minutes,
        text=text,
        incident=incident,
        checkin=checkin,
        need=need,
        goal=goal,
        author=actor,
        break_glass=grant,
    )
    note.participants = list(participants)
    note.save()
    with files.removed_on_failure() as written:
        stored = _store_files(actor=actor, case=case, checked=evidence, note=note, written=written)
        record(
            "note.create",
            actor=actor,
            case=case,
            obj=note,
            detail={
                "kind": note.kind,
                "incident": incident.public_id if incident else None,
                "checkin": checkin.pk if checkin is not None else None,
                "need": need.public_id if need is not None else None,
                "goal": goal.public_id if goal is not None else None,
                "evidence": [e.public_id for e in stored],
                "break_glass": grant is not None,
            },
        )
        if followup_due is not None:
            followup_ensure(
                case=case,
                kind=GeneralFollowUpKind.TASK,
                due_at=followup_due,
                source_key=f"note:{note.pk}:followup",
                actor=actor,
                details=followup_details,
            )
    return note


def note_change_mode(user: Any, note: CaseNote, now: dt.datetime | None = None) -> str | None:
    """How ``user`` may change ``note``: "edit" (its author, inside the edit window), "amend"
    (anyone who works the case, afterwards), or None."""
    if not policy.may(user, note.case, "edit"):
        return None
    now = now or timezone.now()
    if note.author_id == user.pk and now < note.editable_by_author_until():
        return "edit"
    return "amend"


def _shown(name: str, value: Any) -> str:
    """A note field's value in words, for an amendment's history."""
    if name == "kind":
        return str(NoteKind(value).label)
    if name == "direction":
        return str(Direction(value).label)
    if name == "participants":
        return ", ".join(str(Participant(p).label) for p in value) or "—"
    if name == "occurred_at":
        return timezone.localtime(value).strftime("%d %b %Y %H:%M")
    if name == "duration_minutes":
        return "—" if value is None else gettext("%(count)s minutes") % {"count": value}
    if name == "incident":
        return (
            "—"
            if value is None
            else gettext("Incident of %(day)s") % {"day": f"{value.occurred_at:%d %b %Y}"}
        )
    if name == "need":
        return "—" if value is None else str(value.get_kind_display())
    if name == "goal":
        return (
            "—"
            if value is None
            else gettext("A goal set on %(day)s") % {"day": f"{value.created_at:%d %b %Y}"}
        )
    return str(value)


def _differs(name: str, before: Any, after: Any) -> bool:
    if name == "occurred_at" and before is not None and after is not None:
        # The form shows minutes: the same minute is no change.
        return before.replace(second=0, microsecond=0) != after.replace(second=0, microsecond=0)
    return before != after


@transaction.atomic
def note_change(
    *,
    actor: User,
    note: CaseNote,
    changes: dict[str, Any],
    expected_version: int,
    reason: str = "",
) -> CaseNote:
    """Change ``note``: directly by its author inside the edit window, otherwise as an amendment
    with ``reason``; either way what it said before is kept. A stale ``expected_version`` is
    refused; a change that changes nothing writes nothing."""
    case = note.case
    mode = note_change_mode(actor, note)
    if mode is None:
        raise PermissionDenied
    if mode == "amend" and not reason.strip():
        raise ValueError("an amendment needs a reason")
    for link in ("incident", "need", "goal"):
        linked = changes.get(link)
        if linked is not None and linked.case_id != case.pk:
            raise PermissionDenied
    if "participants" in changes:
        changes = {
            **changes,
            "participants": [p for p in Participant.values if p in changes["participants"]],
        }
    changed = [
        name
        for name in NOTE_FIELDS
        if name in changes and _differs(name, getattr(note, name), changes[name])
    ]
    if not changed:
        return note
    claimed = CaseNote.objects.filter(pk=note.pk, version=expected_version).update(
        version=expected_version + 1
    )
    if not claimed:
        raise StaleEdit("note")
    history = [
        [str(NOTE_FIELDS[n]), _shown(n, getattr(note, n)), _shown(n, changes[n])] for n in changed
    ]
    for name in changed:
        setattr(note, name, changes[name])
    note.version = expected_version + 1
    note.updated_at = timezone.now()
    columns = [n for n in changed if n != "participants"]
    if "participants" in changed:
        columns += list(PARTICIPANT_FIELDS.values())
    note.save(update_fields=[*columns, "version", "updated_at"])
    # Every change keeps what the note said before: an amendment with its reason, the author's
    # own change inside the edit window as a direct one (seen by supervisors).
    amendment = NoteAmendment.objects.create(
        case=case,
        note=note,
        changes=history,
        reason=reason.strip() if mode == "amend" else "",
        author=actor,
        direct=mode == "edit",
    )
    if mode == "amend":
        record(
            "note.amend",
            actor=actor,
            case=case,
            obj=note,
            detail={"fields": changed, "amendment": amendment.pk},
        )
    else:
        record(
            "note.update",
            actor=actor,
            case=case,
            obj=note,
            detail={"fields": changed, "amendment": amendment.pk},
        )
    return note


# --- Incidents -----------------------------------------------------------------------------------


def is_serious(*, kinds: Sequence[str], injuries: str, marked: bool) -> bool:
    """See :mod:`caseflow.casework.models`: marked, a serious kind, or an injury recorded."""
    return marked or bool(SERIOUS_KINDS & set(kinds)) or bool(injuries.strip())


@transaction.atomic
def incident_create(
    *,
    actor: User,
    case: Case,
    fields: dict[str, Any],
    evidence: Sequence[files.CheckedFile] = (),
) -> Incident:
    """Record an incident with its evidence. A serious one is escalated after commit (a risk
    re-assessment for the advocate; the supervisors told when the case is at high risk).
    Raises :class:`~caseflow.cases.evidence.EvidenceRefused` over the case's quota."""
    policy.require(actor, case, "edit")
    files.lock_case_for_quota(case, evidence)
    kinds = [k for k in IncidentKind.values if k in fields["kinds"]]
    police = fields.get("police", "unknown")
    incident = Incident(
        case=case,
        kinds=kinds,
        occurred_at=fields["occurred_at"],
        approximate=bool(fields.get("approximate")),
        when_described=fields.get("when_described", "") if fields.get("approximate") else "",
        place=fields.get("place", ""),
        person=fields["person"],
        person_described=fields.get("person_described", ""),
        what_happened=fields["what_happened"],
        injuries=fields.get("injuries", ""),
        police=police,
        police_reference=fields.get("police_reference", "") if police == "yes" else "",
        witnesses=fields.get("witnesses", ""),
        serious=is_serious(
            kinds=kinds,
            injuries=fields.get("injuries", ""),
            marked=bool(fields.get("serious")),
        ),
        recorded_by=actor,
    )
    incident.save()
    with files.removed_on_failure() as written:
        stored = _store_files(
            actor=actor, case=case, checked=evidence, incident=incident, written=written
        )
        record(
            "incident.create",
            actor=actor,
            case=case,
            obj=incident,
            detail={
                "kinds": kinds,
                "serious": incident.serious,
                "police": police,
                "evidence": [e.public_id for e in stored],
            },
        )
        if incident.serious:
            outbox.enqueue("caseflow.casework.tasks.escalate_incident", incident_id=incident.pk)
    return incident


@transaction.atomic
def incident_add_evidence(
    *,
    actor: User,
    incident: Incident,
    evidence: Sequence[files.CheckedFile],
) -> list[Evidence]:
    """Attach files that arrived after the incident was recorded (a photo sent days later).
    Raises :class:`~caseflow.cases.evidence.EvidenceRefused` over the case's quota."""
    case = incident.case
    policy.require(actor, case, "edit")
    files.lock_case_for_quota(case, evidence)
    with files.removed_on_failure() as written:
        stored = _store_files(
            actor=actor, case=case, checked=evidence, incident=incident, written=written
        )
        record(
            "incident.evidence.add",
            actor=actor,
            case=case,
            obj=incident,
            detail={"evidence": [e.public_id for e in stored]},
        )
    return stored


RISK_REVIEW_TEXT = _("A serious incident was recorded: re-assess the risk.")


@transaction.atomic
def incident_escalate(*, incident_id: int) -> bool:
    """Propose a risk re-assessment for a serious incident and, on a high-risk case, tell the
    team's supervisors. Safe to run again: the follow-up is one per incident, the notifications
    one per supervisor and incident, and the event is written by the run that claims the
    incident. Returns whether the supervisors were told by this run."""
    incident = (
        Incident.objects.select_related("case__team", "case__primary_advocate")
        .filter(pk=incident_id, serious=True)
        .first()
    )
    if incident is None:
        return False
    case = incident.case
    followup_ensure(
        case=case,
        kind=CaseworkFollowUpKind.INCIDENT_RISK_REVIEW,
        due_at=incident.created_at + dt.timedelta(days=1),
        source_key=f"incident:{incident.pk}:risk",
        details=RISK_REVIEW_TEXT,
    )
    if case.risk_level != RiskLevel.HIGH:
        return False
    key = f"incident:{incident.pk}:supervisors"
    notify(
        recipients=case_supervisors(case),
        kind="incident_escalation",
        case=case,
        key=key,
        message=gettext_noop(
            "Case %(reference)s: a serious incident was recorded on a high-risk case."
        ),
        values={"reference": case.reference},
    )
    claimed = Incident.objects.filter(pk=incident.pk, supervisors_told_at__isnull=True).update(
        supervisors_told_at=timezone.now()
    )
    if claimed:
        record(
            "incident.escalation",
            case=case,
            obj=incident,
            detail={"risk_level": case.risk_level},
        )
    return bool(claimed)


# --- Evidence ------------------------------------------------------------------------------------


def evidence_open(
    *,
    actor: User,
    case: Case,
    evidence: Evidence,
    download: bool,
) -> bytes:
    """The decrypted bytes of an evidence file, looked at in the page or downloaded: each
    recorded as its own kind of read."""
    policy.require(actor, case, "view")
    if evidence.case_id != case.pk:
        raise PermissionDenied
    data = files.read(case, evidence.storage_name, evidence.sha256)
    record(
        "evidence.download" if download else "evidence.view",
        actor=actor,
        case=case,
        obj=evidence,
        detail={
            "note": evidence.note.public_id if evidence.note_id and evidence.note else None,
            "incident": (
                evidence.incident.public_id if evidence.incident_id and evidence.incident else None
            ),
        },
    )
    return data
