"""The API's own matrix: every endpoint × integration (of the agency with and without the
scope, limited to the other team, of another agency, revoked, expired, no key) × case, with the
expected status, and no canary of a case the integration may not read in any answer."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import Role
from caseflow.api import services
from tests import factories as f
from tests.api.conftest import HOTLINE_PAYLOAD, NOW
from tests.conftest import canary

FULL = [
    policy.SCOPE_REFERRALS_WRITE,
    policy.SCOPE_CASES_SUMMARY,
    policy.SCOPE_CASES_NARRATIVE,
    policy.SCOPE_REPORTS,
    policy.SCOPE_CONTACTS_WRITE,
]
CASES = ("case", "restricted_case", "team2_case", "foreign_case")

#: Which cases each integration may read.
ENTITLED = {
    "with_scope": {"case", "team2_case"},
    "team2_only": {"team2_case"},
    "other_agency": {"foreign_case"},
}


@pytest.fixture
def keys(cast):
    foreign_admin = f.staff(cast.other_agency_team.agency, Role.AGENCY_ADMIN, username="b_admin")

    def register(admin, scopes, name, team=None, expires_at=None):
        return services.integration_register(
            actor=admin,
            name=name,
            scopes=scopes,
            team=team,
            expires_at=expires_at or timezone.now() + dt.timedelta(days=30),
        )

    made = {
        "with_scope": register(cast.agency_admin, FULL, "With scope"),
        "no_scope": register(cast.agency_admin, [], "No scope"),
        "team2_only": register(cast.agency_admin, FULL, "Team 2 only", team=cast.team2),
        "other_agency": register(foreign_admin, FULL, "Other agency"),
        "revoked": register(cast.agency_admin, FULL, "Revoked"),
        "expired": register(cast.agency_admin, FULL, "Expired", expires_at=NOW),
    }
    services.integration_revoke(actor=cast.agency_admin, integration=made["revoked"][0])
    result = {name: key for name, (_integration, key) in made.items()}
    result["anonymous"] = ""
    return result


GONE = {"revoked": 401, "expired": 401, "anonymous": 401, "no_scope": 403}


def case_read(actor: str, target: str) -> int:
    if actor in GONE:
        return GONE[actor]
    return 200 if target in ENTITLED[actor] else 404


def expected(endpoint: str, actor: str, target: str) -> int:
    if endpoint in ("case_summary", "case_followups"):
        return case_read(actor, target)
    if endpoint == "contact_events":
        # Every case has an active agreement: an entitled call records the export.
        return 201 if case_read(actor, target) == 200 else case_read(actor, target)
    if actor in GONE:
        return GONE[actor]
    if endpoint == "referrals":
        # "Team 1" is not a team an integration of team 2 or of another agency may send to.
        return 201 if actor == "with_scope" else 422
    return 200  # reports


def call(client, key, endpoint, case):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {key}"} if key else {}
    if endpoint == "referrals":
        return client.generic(
            "POST",
            reverse("api:referrals"),
            json.dumps(HOTLINE_PAYLOAD),
            content_type="application/json",
            **headers,
        )
    if endpoint == "reports":
        return client.get(reverse("api:reports"), **headers)
    if endpoint == "contact_events":
        return client.generic(
            "POST",
            reverse("api:contact_events", args=[case.public_id]),
            json.dumps({"events": [CONTACT_EVENT]}),
            content_type="application/json",
            **headers,
        )
    return client.get(reverse(f"api:{endpoint}", args=[case.public_id]), **headers)


CONTACT_EVENT = {
    "occurred_at": "2026-03-09T18:20:00Z",
    "sender": "other_party",
    "topic": "school",
    "text": "Pick-up moved to 4pm on Friday.",
}


@pytest.fixture
def agreements(cast):
    """An active agreement on every case (made by someone who works it)."""
    from caseflow.agreements import services as agreement_services
    from caseflow.agreements.models import AgreementStatus
    from tests.agreements.helpers import make_agreement

    workers = {
        "case": cast.assigned,
        "restricted_case": cast.assigned,
        "team2_case": cast.other_team,
        "foreign_case": cast.other_agency,
    }
    for target, actor in workers.items():
        made = make_agreement(getattr(cast, target), actor, start=dt.date(2026, 3, 2))
        agreement_services.agreement_set_status(
            actor=actor, agreement=made, expected_lock=made.lock, status=AgreementStatus.ACTIVE
        )


ENDPOINTS = ["referrals", "case_summary", "case_followups", "reports", "contact_events"]


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_api_matrix(cast, client, keys, agreements, endpoint):
    failures = []
    checked = 0
    targets = CASES if endpoint.startswith("case_") or endpoint == "contact_events" else ("case",)
    for actor, key in keys.items():
        for target in targets:
            case = getattr(cast, target)
            response = call(client, key, endpoint, case)
            want = expected(endpoint, actor, target)
            checked += 1
            if response.status_code != want:
                failures.append(f"{actor} {target}: {response.status_code}, expected {want}")
            if (
                response.status_code >= 400
                and response["Content-Type"] != "application/problem+json"
            ):
                failures.append(f"{actor} {target}: not problem details")
            body = response.content.decode()
            allowed = ENTITLED.get(actor, set()) if response.status_code == 200 else set()
            if endpoint == "contact_events" and "Pick-up" in body:
                failures.append(f"{actor} {target}: the message's text came back")
            for other in CASES:
                if other not in allowed and canary(getattr(cast, other)) in body:
                    failures.append(f"{actor} {target} leaked {other}")
    assert checked == len(keys) * len(targets)
    assert failures == []


def test_the_canary_check_can_fail(cast, client, keys):
    """An entitled read with the narrative scope does show the canary: the check above is not
    vacuous."""
    response = call(client, keys["with_scope"], "case_summary", cast.case)
    assert canary(cast.case) in response.content.decode()
