"""The confidentiality section of the case page: releases and disclosures."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db.models import Exists, OuterRef
from django.utils import timezone

from caseflow import policy
from caseflow.cases.panels import loaded, may_have
from caseflow.confidentiality import selectors
from caseflow.confidentiality.models import (
    CompelledOrder,
    Disclosure,
    Release,
    ResearchAnswer,
    ResearchConsent,
)


def case_facts() -> dict:
    return {
        "has_releases": Exists(Release.objects.filter(case=OuterRef("pk"))),
        "has_disclosures": Exists(Disclosure.objects.filter(case=OuterRef("pk"))),
        "has_orders": Exists(CompelledOrder.objects.filter(case=OuterRef("pk"))),
    }


def case_panel(request, case):
    """Each list is queried only if the case page's facts query found rows in it."""
    today = timezone.localdate()
    releases = selectors.case_releases(case) if may_have(case, "has_releases") else []
    soon = today + dt.timedelta(days=settings.RELEASE_EXPIRY_WARNING_DAYS)
    research = loaded(
        case, "research_consent", lambda: ResearchConsent.objects.filter(case=case).first()
    )
    for release in releases:
        release.valid_today = release.is_valid_on(today)
        release.expires_soon = release.valid_today and release.expires_on <= soon
    return (
        "confidentiality/panel.html",
        {
            "releases": releases,
            "disclosures": (
                selectors.case_disclosures(case) if may_have(case, "has_disclosures") else []
            ),
            "orders": selectors.case_orders(case) if may_have(case, "has_orders") else [],
            "can_edit": policy.may(request.user, case, "edit"),
            "research": research,
            "research_answer": ResearchAnswer(
                research.answer if research else ResearchAnswer.NOT_ASKED
            ).label,
            "today": today,
        },
    )
