"""The confidentiality section of the case page: releases and disclosures."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.utils import timezone

from caseflow import policy
from caseflow.confidentiality import selectors


def case_panel(request, case):
    today = timezone.localdate()
    releases = selectors.case_releases(case)
    soon = today + dt.timedelta(days=settings.RELEASE_EXPIRY_WARNING_DAYS)
    for release in releases:
        release.valid_today = release.is_valid_on(today)
        release.expires_soon = release.valid_today and release.expires_on <= soon
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
