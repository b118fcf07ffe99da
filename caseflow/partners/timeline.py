"""The risk meeting's outcome and referrals to other services on the case timeline."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from caseflow.cases.timeline import (
    OTHER_AGENCY,
    SURVIVOR,
    Entry,
    Query,
    Source,
    about,
    key_of,
    newest,
)
from caseflow.lib.i18n import gettext_lazy
from caseflow.partners.models import MeetingReferral, ServiceReferral

MEETING, REFERRAL = "risk_meeting", "service_referral"
PEOPLE = frozenset({SURVIVOR, OTHER_AGENCY})


def meeting_outcomes(case, query: Query) -> list[Entry]:
    if not about(query, PEOPLE):
        return []
    qs = MeetingReferral.objects.filter(case=case, outcome_recorded_at__isnull=False)
    entries = []
    for row in newest(qs, query, MEETING, "outcome_recorded_at"):
        row.case = case
        facts = [(_("Meeting"), row.meeting_name)]
        if row.meeting_on:
            facts.append((_("Heard on"), f"{row.meeting_on:%d %b %Y}"))
        if row.repeat:
            facts.append((_("Repeat"), _("Heard within the last 12 months")))
        entries.append(
            Entry(
                at=row.outcome_recorded_at,
                kind=MEETING,
                key=key_of(row.pk),
                title=_("Outcome of the risk meeting"),
                body=row.outcome,
                people=PEOPLE,
                url=reverse("partners:meeting", args=[case.public_id, row.public_id]),
                facts=tuple(facts),
            )
        )
    return entries


def service_referrals(case, query: Query) -> list[Entry]:
    if not about(query, PEOPLE):
        return []
    qs = ServiceReferral.objects.filter(case=case)
    entries = []
    for row in newest(qs, query, REFERRAL, "created_at"):
        row.case = case
        entries.append(
            Entry(
                at=row.created_at,
                kind=REFERRAL,
                key=key_of(row.pk),
                title=_("Referral: %(service)s (%(direction)s)")
                % {
                    "service": row.get_service_type_display(),
                    "direction": row.get_direction_display().lower(),
                },
                people=PEOPLE,
                url=reverse("partners:referral", args=[case.public_id, row.public_id]),
                facts=((_("With"), row.organisation), (_("Now"), row.get_state_display())),
            )
        )
    return entries


SOURCES = (
    Source(
        kind=MEETING,
        label=gettext_lazy("Risk meetings"),
        fetch=meeting_outcomes,
        model=MeetingReferral,
        order=60,
        categories=frozenset({"narratives", "risk"}),
    ),
    Source(
        kind=REFERRAL,
        label=gettext_lazy("Referrals to other services"),
        fetch=service_referrals,
        model=ServiceReferral,
        order=61,
        categories=frozenset({"narratives"}),
    ),
)
