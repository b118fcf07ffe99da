"""The case page's section for working with other agencies: risk meeting referrals, referrals to
and from other services, and whether the survivor's demographics were asked."""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from caseflow import policy
from caseflow.cases.fields import field_config
from caseflow.cases.panels import may_have
from caseflow.partners.models import MeetingReferral, ServiceReferral


def case_facts() -> dict:
    return {
        "has_meeting_referrals": Exists(MeetingReferral.objects.filter(case=OuterRef("pk"))),
        "has_service_referrals": Exists(ServiceReferral.objects.filter(case=OuterRef("pk"))),
    }


def case_panel(request, case):
    meetings = (
        list(MeetingReferral.objects.filter(case=case).order_by("-referred_on", "-pk")[:5])
        if may_have(case, "has_meeting_referrals")
        else []
    )
    referrals = (
        list(ServiceReferral.objects.filter(case=case).order_by("-sent_on", "-pk")[:10])
        if may_have(case, "has_service_referrals")
        else []
    )
    for row in [*meetings, *referrals]:
        row.case = case
    return (
        "partners/panel.html",
        {
            "case": case,
            "meetings": meetings,
            "referrals": referrals,
            "can_edit": policy.may(request.user, case, "edit"),
            # Read from the field settings the case page has already read.
            "hud": not field_config(request, case)
            .for_kind("hud")
            .get("answers", {})
            .get("hidden", True),
        },
    )
