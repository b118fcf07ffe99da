"""The case page's section for notes and incidents: the latest of each, and links to record."""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from caseflow import policy
from caseflow.cases.panels import may_have
from caseflow.casework import needs, selectors
from caseflow.casework.models import CaseNote, Incident, Need


def case_facts() -> dict:
    return {
        "has_notes": Exists(CaseNote.objects.filter(case=OuterRef("pk"))),
        "has_incidents": Exists(Incident.objects.filter(case=OuterRef("pk"))),
        "has_needs": Exists(Need.objects.filter(case=OuterRef("pk"))),
    }


def needs_panel(request, case):
    """The case's open needs (with the nearest goal) and how many are met or closed."""
    summary = (
        needs.panel_summary(case)
        if may_have(case, "has_needs")
        else {"open": [], "closed_count": 0, "count": 0}
    )
    return (
        "casework/needs_panel.html",
        {"case": case, "can_edit": policy.may(request.user, case, "edit"), **summary},
    )


def case_panel(request, case):
    can_edit = policy.may(request.user, case, "edit")
    return (
        "casework/panel.html",
        {
            "case": case,
            "notes": selectors.recent_notes(case) if may_have(case, "has_notes") else [],
            "incidents": (
                selectors.recent_incidents(case) if may_have(case, "has_incidents") else []
            ),
            # Whoever may edit may record a note; asked only of the others (emergency access).
            "can_note": can_edit or policy.may(request.user, case, "record_note"),
            "can_edit": can_edit,
        },
    )
