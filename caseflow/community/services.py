"""Recording sessions and surveys: each checked, agency-scoped and audited."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.accounts.zones import agency_today
from caseflow.audit.services import record
from caseflow.community.models import (
    Audience,
    EducationSession,
    OutcomeSurvey,
    SessionKind,
    SurveyAnswer,
    SurveyService,
)
from caseflow.lib.i18n import gettext_lazy as _

#: The earliest day either record may carry: anything before is a mistyped year.
EARLIEST = dt.date(2000, 1, 1)
#: More people than this at one session is a mistyped number.
MOST_PARTICIPANTS = 5000


def _agency_of(actor: User):
    if not policy.records_community_work(actor):
        raise PermissionDenied
    agency_id = policy.agency_id_of(actor)
    if agency_id is None:
        raise PermissionDenied
    return actor.membership.agency


def day_problem(day: dt.date, today: dt.date) -> str:
    """Why ``day`` cannot be a session's or a survey's day, or ``""``."""
    if day > today:
        return str(_("This day has not happened yet."))
    if day < EARLIEST:
        return str(_("Check the year: this day is before 2000."))
    return ""


@transaction.atomic
def session_record(
    *, actor: User, held_on: dt.date, kind: str, audience: str, participants: int
) -> EducationSession:
    """Record one prevention or community education session."""
    agency = _agency_of(actor)
    problem = day_problem(held_on, agency_today(agency))
    if problem:
        raise ValidationError({"held_on": problem})
    if kind not in SessionKind.values or audience not in Audience.values:
        raise ValidationError(_("Choose what kind of session it was and who it was for."))
    if not 1 <= participants <= MOST_PARTICIPANTS:
        raise ValidationError(
            {"participants": _("Between 1 and %(most)s people.") % {"most": MOST_PARTICIPANTS}}
        )
    row = EducationSession.objects.create(
        agency=agency,
        held_on=held_on,
        kind=kind,
        audience=audience,
        participants=participants,
        recorded_by=actor,
    )
    record(
        "community.session",
        actor=actor,
        obj=row,
        detail={"kind": kind, "audience": audience, "participants": participants},
    )
    return row


@transaction.atomic
def survey_record(
    *, actor: User, returned_on: dt.date, service: str, safety: str, resources: str
) -> OutcomeSurvey:
    """Count one outcome survey handed back. Its answers are codes; nothing else is kept."""
    agency = _agency_of(actor)
    problem = day_problem(returned_on, agency_today(agency))
    if problem:
        raise ValidationError({"returned_on": problem})
    if service not in SurveyService.values:
        raise ValidationError(_("Choose the service the survey was about."))
    if safety not in SurveyAnswer.values or resources not in SurveyAnswer.values:
        raise ValidationError(_("Choose an answer for each statement."))
    row = OutcomeSurvey.objects.create(
        agency=agency,
        returned_on=returned_on,
        service=service,
        safety=safety,
        resources=resources,
        recorded_by=actor,
    )
    record("community.survey", actor=actor, obj=row, detail={"service": service})
    return row


#: How long after counting a survey its counter may take it back (a slip of the hand).
TAKE_BACK = dt.timedelta(minutes=30)


@transaction.atomic
def session_remove(*, actor: User, session: EducationSession) -> None:
    """Remove a session recorded by mistake. What it said stays in the audit trail."""
    allowed = EducationSession.objects.filter(
        policy.community_records_removable_filter(actor), pk=session.pk
    )
    if not allowed.exists():
        raise PermissionDenied
    record(
        "community.session_remove",
        actor=actor,
        obj=session,
        detail={
            "held_on": session.held_on.isoformat(),
            "kind": session.kind,
            "audience": session.audience,
            "participants": session.participants,
        },
    )
    session.delete()


@transaction.atomic
def survey_take_back(*, actor: User) -> OutcomeSurvey | None:
    """Take back the last survey ``actor`` counted, if within :data:`TAKE_BACK`: the one just
    entered wrong. ``None`` when there is none to take back."""
    _agency_of(actor)
    last = (
        OutcomeSurvey.objects.select_for_update()
        .filter(recorded_by=actor, created_at__gte=timezone.now() - TAKE_BACK)
        .order_by("-created_at", "-pk")
        .first()
    )
    if last is None:
        return None
    record(
        "community.survey_take_back",
        actor=actor,
        obj=last,
        detail={"service": last.service, "returned_on": last.returned_on.isoformat()},
    )
    last.delete()
    return last
