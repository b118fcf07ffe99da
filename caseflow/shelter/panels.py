"""The case page's section for shelter stays."""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from caseflow import policy
from caseflow.accounts.zones import agency_today
from caseflow.cases.panels import may_have
from caseflow.shelter import selectors
from caseflow.shelter.models import Stay


def case_facts() -> dict:
    return {"has_shelter_stays": Exists(Stay.objects.filter(case=OuterRef("pk")))}


def case_panel(request, case):
    stays = selectors.case_stays(case) if may_have(case, "has_shelter_stays") else []
    if not stays and not policy.books_shelter(request.user):
        return None
    today = agency_today(case.agency)
    for stay in stays:
        stay.nights = stay.nights_until(today)  # type: ignore[attr-defined]
    return (
        "shelter/panel.html",
        {
            "case": case,
            "stays": stays,
            "can_book": policy.may(request.user, case, "edit")
            and policy.books_shelter(request.user),
        },
    )
