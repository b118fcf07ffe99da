"""The confidentiality section of the case page: releases and disclosures."""

from __future__ import annotations

from django.utils import timezone

from caseflow import policy
from caseflow.confidentiality import selectors


def case_panel(request, case):
    today = timezone.localdate()
    releases = selectors.case_releases(case)
    for release in releases:
        release.valid_today = release.is_valid_on(today)
    return (
        "confidentiality/panel.html",
        {
            "releases": releases,
            "disclosures": selectors.case_disclosures(case),
            "orders": selectors.case_orders(case),
            "can_edit": policy.may(request.user, case, "edit"),
            "today": today,
        },
    )
