"""Matrix rows for the integrations pages (the agency admin's) and the API under /api/v1/.

The API takes an integration's key, never a browser session: every signed-in person is, to it,
someone without a key (401), whatever their role. Integrations as actors have their own matrix
(``tests/api/test_api_matrix.py``)."""

from __future__ import annotations

import datetime as dt
import itertools

from django.urls import reverse
from django.utils import timezone

from caseflow.api import services
from tests.matrix.base import NOT_ALLOWED, Row, expect

_names = itertools.count(1)

ADMIN_ONLY = expect(403, agency_admin=200)
NO_KEY = {actor: 401 for actor in expect(0)}
EVERYONE = {actor: 200 for actor in expect(0)}


def _integration(name, cast, case) -> str:
    integration, _key = services.integration_register(
        actor=cast.agency_admin,
        name=f"Matrix {next(_names)}",
        scopes=["cases:read-summary"],
        team=None,
        expires_at=timezone.now() + dt.timedelta(days=30),
    )
    return reverse(name, args=[integration.public_id])


def _subscription(name, cast, case) -> str:
    subscription, _secret = services.webhook_subscribe(
        actor=cast.agency_admin,
        url="https://receiver.example.invalid/hook",
        kinds=["breach.recorded"],
    )
    return reverse(name, args=[subscription.public_id])


#: URL builders for this module's ``kwargs`` kinds (read by ``tests/test_url_matrix.url_for``).
KWARGS = {
    "integration": _integration,
    "subscription": _subscription,
    "api_case": lambda name, cast, case: reverse(name, args=[case.public_id]),
    "api_report": lambda name, cast, case: reverse(name, args=["voca", "2025-10-01"]),
}

ROWS: dict[str, Row] = {
    "integrations:list": Row(GET=ADMIN_ONLY, POST=NOT_ALLOWED),
    # An empty POST re-renders the form with its errors.
    "integrations:new": Row(GET=ADMIN_ONLY, POST=ADMIN_ONLY),
    "integrations:revoke": Row(
        GET=NOT_ALLOWED, POST=expect(403, agency_admin=302), kwargs="integration"
    ),
    "integrations:subscription_new": Row(GET=ADMIN_ONLY, POST=ADMIN_ONLY),
    "integrations:subscription_end": Row(
        GET=NOT_ALLOWED, POST=expect(403, agency_admin=302), kwargs="subscription"
    ),
    "api:referrals": Row(GET=NO_KEY, POST=NO_KEY),
    "api:case_summary": Row(GET=NO_KEY, POST=NO_KEY, kwargs="api_case"),
    "api:case_followups": Row(GET=NO_KEY, POST=NO_KEY, kwargs="api_case"),
    "api:contact_events": Row(GET=NO_KEY, POST=NO_KEY, kwargs="api_case"),
    "api:reports": Row(GET=NO_KEY, POST=NO_KEY),
    "api:report": Row(GET=NO_KEY, POST=NO_KEY, kwargs="api_report"),
    # The schema and its documentation hold no data: anyone may read them.
    "api:schema": Row(GET=EVERYONE, POST={a: 405 for a in EVERYONE}),
    "api:docs": Row(GET=EVERYONE, POST={a: 405 for a in EVERYONE}),
}
