"""The check-ins section of the case page: upcoming check-ins and open follow-ups."""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from caseflow import policy
from caseflow.cases.panels import loaded, may_have
from caseflow.checkins import selectors
from caseflow.checkins.models import CheckIn
from caseflow.inbox.models import FollowUp, FollowUpStatus


def case_facts() -> dict:
    return {
        "has_checkins": Exists(CheckIn.objects.filter(case=OuterRef("pk"))),
        "has_open_followups": Exists(
            FollowUp.objects.filter(case=OuterRef("pk"), status=FollowUpStatus.OPEN)
        ),
    }


def case_panel(request, case):
    """The check-ins and open follow-ups, queried only if the case has some. The safe windows
    come from the profile the case page loaded already, decrypted once."""
    profile = loaded(case, "safe_contact", lambda: selectors.PROFILE_NOT_LOADED)
    context = selectors.case_checkins(
        case,
        profile=profile,
        checkins=may_have(case, "has_checkins"),
        followups=may_have(case, "has_open_followups"),
    )
    context["can_edit"] = policy.may(request.user, case, "edit")
    context["case"] = case
    return "checkins/panel.html", context
