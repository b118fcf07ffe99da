"""Outside authority and compelled disclosures: giving a document outside the agency under a
release or a court order, and recording a court order or subpoena with its follow-ups.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.cases.models import Case, SafeContactProfile
from caseflow.confidentiality.models import (
    Category,
    CompelledOrder,
    ConfidentialityFollowUpKind,
    Disclosure,
    DisclosureKind,
    Release,
)
from caseflow.confidentiality.services.disclosures import _authorise, _disclose, _refused
from caseflow.confidentiality.services.releases import ReleaseRefused, categories_problem
from caseflow.inbox.kinds import GeneralFollowUpKind
from caseflow.inbox.services import case_supervisors, followup_ensure, notify
from caseflow.lib import weekly_windows
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.safety.models import SafetyFollowUpKind

#: What the breach chronology holds: the breaches and the linked court order.
CHRONOLOGY_CATEGORIES: list[str] = [Category.EVIDENCE, Category.COURT_ORDERS]


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
    case: Case,
    recipient: str,
    categories: list[str],
    release_id: str = "",
    order_id: int | None = None,
    kind: str = DisclosureKind.CHRONOLOGY,
) -> Authority:
    """Authorise giving a document holding ``categories`` to ``recipient`` outside the agency:
    under a covering release, or under a court order or subpoena recorded on the case. Records
    the disclosure (of ``kind``); a refusal is audited and raises :class:`ReleaseRequired`."""
    if not policy.may(actor, case, "edit"):
        raise PermissionDenied
    categories = sorted({str(c) for c in categories})
    if order_id:
        order = CompelledOrder.objects.filter(case=case, pk=order_id).first()
        if order is None:
            raise _refused(
                actor=actor,
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
            _(
                "Tell the survivor about the compelled disclosure. There is no safe-contact "
                "profile: agree a safe channel and time before contacting them."
            )
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
        followup, _created = followup_ensure(
            case=case,
            kind=ConfidentialityFollowUpKind.LEGAL_REVIEW,
            due_at=now + dt.timedelta(days=1),
            source_key=f"compelled:{order.pk}:legal:{getattr(supervisor, 'pk', 0)}",
            assignee=supervisor,
            actor=actor,
            details=_("Legal review of a compelled disclosure (court order or subpoena)."),
        )
        followups.append(followup.pk)
    notify(
        recipients=supervisors,
        kind="legal_review",
        case=case,
        key=f"compelled:{order.pk}",
        message=gettext_noop(
            "A compelled disclosure was recorded on case %(reference)s: legal review needed."
        ),
        values={"reference": case.reference},
    )
    due, details = _next_safe_contact(case, now)
    followup, _created = followup_ensure(
        case=case,
        kind=GeneralFollowUpKind.TASK,
        due_at=due,
        source_key=f"compelled:{order.pk}:tell_survivor",
        actor=actor,
        details=details,
    )
    followups.append(followup.pk)
    followup, _created = followup_ensure(
        case=case,
        kind=SafetyFollowUpKind.PLAN_REVIEW,
        due_at=now + dt.timedelta(days=2),
        source_key=f"compelled:{order.pk}:plan_review",
        actor=actor,
        details=_("Review the safety plan: information was disclosed under compulsion."),
    )
    followups.append(followup.pk)
    record(
        "disclosure.compelled",
        actor=actor,
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
