"""The check-ins section of the case page: upcoming check-ins and open follow-ups."""

from __future__ import annotations

from caseflow import policy
from caseflow.checkins import selectors


def case_panel(request, case):
    context = selectors.case_checkins(case)
    context["can_edit"] = policy.may(request.user, case, "edit")
    context["case"] = case
    return "checkins/panel.html", context
