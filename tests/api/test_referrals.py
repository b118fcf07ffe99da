"""POST /api/v1/referrals/: a hotline platform's referral lands in the team's queue, checked as
the intake form checks it; bad input is a problem response that writes nothing."""

from __future__ import annotations

import copy
import json

import pytest
from django.urls import reverse

from caseflow import policy
from caseflow.api.models import IdempotentCall
from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case, CaseStatus, Party, PartyRole
from caseflow.inbox.models import Notification
from tests import factories as f
from tests.api.conftest import HOTLINE_PAYLOAD

URL = "/api/v1/referrals/"


def payload(**changes):
    body = copy.deepcopy(HOTLINE_PAYLOAD)
    body.update(changes)
    return body


def test_the_url_is_the_versioned_one():
    assert reverse("api:referrals") == URL


def test_a_hotline_referral_lands_in_the_teams_queue_unassigned(cast, make_caller, login):
    caller = make_caller()
    response = caller.post(URL, payload())
    assert response.status_code == 201, response.content
    body = response.json()
    assert set(body) == {"id", "status"}
    case = Case.objects.get(public_id=body["id"])
    assert (case.status, case.team, case.primary_advocate) == (
        CaseStatus.REFERRAL,
        cast.team1,
        None,
    )
    assert not case.assignees.exists()
    assert case.summary.startswith("Called the hotline")
    survivor = case.parties.get(role=PartyRole.SURVIVOR)
    assert survivor.full_name == "Rowan Fictional"
    # The team's supervisor sees it among the team's cases, and is told.
    assert policy.visible_cases(cast.supervisor).filter(pk=case.pk).exists()
    assert Notification.objects.filter(recipient=cast.supervisor, case=case).exists()
    page = login(cast.supervisor).get(reverse("cases:list"))
    assert case.reference in page.content.decode()
    # Recorded under the integration's own account.
    created = AuditEvent.objects.get(action="case.create", case_id=case.pk)
    assert created.actor_id == caller.integration.account_id


def test_the_team_comes_from_the_integration_when_it_has_one(cast, make_caller):
    caller = make_caller(team=cast.team2)
    body = payload()
    del body["team"]
    response = caller.post(URL, body)
    assert response.status_code == 201
    assert Case.objects.get(public_id=response.json()["id"]).team == cast.team2
    # ... and it cannot send to another team.
    assert caller.post(URL, payload(team="Team 1")).status_code == 422


def test_a_possible_conflict_flags_the_case_and_tells_nobody_outside(cast, make_caller):
    # Sam Invented is already a survivor the agency supports.
    f.add_party(cast.team2_case, full_name="Sam Invented", date_of_birth="1988-01-15")
    response = make_caller().post(URL, payload())
    assert response.status_code == 201
    assert set(response.json()) == {"id", "status"}
    case = Case.objects.get(public_id=response.json()["id"])
    assert case.conflict_flag is True
    assert "conflict" not in response.content.decode().lower()


def test_a_survivor_known_before_is_named_to_the_supervisors_only(cast, make_caller):
    f.add_party(cast.case, full_name="Rowan Fictional", date_of_birth="1990-04-02")
    response = make_caller().post(URL, payload())
    assert response.status_code == 201
    case = Case.objects.get(public_id=response.json()["id"])
    assert AuditEvent.objects.filter(action="intake.earlier_case", case_id=case.pk).exists()
    assert Notification.objects.filter(
        recipient=cast.supervisor, case=case, kind="referral_known"
    ).exists()
    assert cast.case.public_id not in response.content.decode()


def test_a_repeat_with_the_same_key_gets_the_first_answer_and_writes_nothing(cast, make_caller):
    caller = make_caller()
    first = caller.post(URL, payload(), HTTP_IDEMPOTENCY_KEY="hotline-4411")
    assert first.status_code == 201
    cases = Case.objects.count()
    events = AuditEvent.objects.count()
    again = caller.post(URL, payload(), HTTP_IDEMPOTENCY_KEY="hotline-4411")
    assert again.status_code == 200
    assert again.json() == first.json()
    assert Case.objects.count() == cases
    assert AuditEvent.objects.count() == events


def test_the_same_key_with_another_body_is_a_conflict(cast, make_caller):
    caller = make_caller()
    assert caller.post(URL, payload(), HTTP_IDEMPOTENCY_KEY="k1").status_code == 201
    cases = Case.objects.count()
    response = caller.post(URL, payload(summary="Different"), HTTP_IDEMPOTENCY_KEY="k1")
    assert response.status_code == 409
    assert response["Content-Type"] == "application/problem+json"
    assert Case.objects.count() == cases
    assert IdempotentCall.objects.count() == 1


def test_keys_are_per_integration(cast, make_caller):
    one = make_caller(name="Hotline")
    other = make_caller(name="Website")
    assert one.post(URL, payload(), HTTP_IDEMPOTENCY_KEY="same").status_code == 201
    assert other.post(URL, payload(), HTTP_IDEMPOTENCY_KEY="same").status_code == 201


BAD = [
    ("malformed JSON", b'{"survivor": {"full_name": "Rowan"', "application/json", 400),
    ("not an object", b'["Rowan"]', "application/json", 400),
    ("unknown field", {**HOTLINE_PAYLOAD, "nickname": "R"}, "application/json", 400),
    (
        "unknown nested field",
        {**HOTLINE_PAYLOAD, "survivor": {"full_name": "Rowan", "shoe_size": 5}},
        "application/json",
        400,
    ),
    ("wrong type", {**HOTLINE_PAYLOAD, "summary": 42}, "application/json", 400),
    (
        "wrong type nested",
        {**HOTLINE_PAYLOAD, "survivor": {"full_name": ["Rowan"]}},
        "application/json",
        400,
    ),
    (
        "bad date",
        {**HOTLINE_PAYLOAD, "survivor": {"full_name": "R", "date_of_birth": 19900402}},
        "application/json",
        400,
    ),
    ("missing survivor", {"team": "Team 1"}, "application/json", 400),
    ("form data", b"survivor=Rowan", "application/x-www-form-urlencoded", 415),
    (
        "invalid e-mail",
        {**HOTLINE_PAYLOAD, "survivor": {"full_name": "Rowan", "email": "not-an-address"}},
        "application/json",
        422,
    ),
    (
        "birth date in the future",
        {**HOTLINE_PAYLOAD, "survivor": {"full_name": "R", "date_of_birth": "2090-01-01"}},
        "application/json",
        422,
    ),
    ("another agency's team", {**HOTLINE_PAYLOAD, "team": "Team B"}, "application/json", 422),
]


@pytest.mark.parametrize(("label", "body", "content_type", "status"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_a_problem_and_writes_nothing(
    cast, make_caller, label, body, content_type, status
):
    caller = make_caller()
    before = (Case.objects.count(), Party.objects.count(), AuditEvent.objects.count())
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    response = caller.client.generic(
        "POST", URL, data, content_type=content_type, **caller.headers()
    )
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["status"] == status
    assert problem["title"] and problem["detail"]
    assert "Rowan" not in response.content.decode()
    assert (Case.objects.count(), Party.objects.count(), AuditEvent.objects.count()) == before


def test_an_oversized_body_is_refused_before_it_is_read(cast, make_caller, settings):
    settings.API_MAX_BODY_BYTES = 1000
    caller = make_caller()
    before = Case.objects.count()
    response = caller.post(URL, payload(summary="x" * 2000))
    assert response.status_code == 413
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["title"] == "Request body too large"
    assert Case.objects.count() == before


def test_a_body_over_the_sites_limit_is_a_problem_too(cast, make_caller, settings):
    settings.REQUEST_MAX_BYTES = 1000
    response = make_caller().post(URL, payload(summary="x" * 2000))
    assert response.status_code == 413
    assert response["Content-Type"] == "application/problem+json"


def test_without_the_scope_it_is_forbidden_and_nothing_is_written(cast, make_caller):
    caller = make_caller([policy.SCOPE_CASES_SUMMARY])
    before = Case.objects.count()
    response = caller.post(URL, payload())
    assert response.status_code == 403
    assert response.json()["title"] == "Not allowed"
    assert Case.objects.count() == before


def test_wrong_method_is_405_problem(cast, make_caller):
    response = make_caller().get(URL)
    assert response.status_code == 405
    assert response["Content-Type"] == "application/problem+json"


def test_without_a_key_it_is_401(cast, client):
    response = client.post(URL, json.dumps(HOTLINE_PAYLOAD), content_type="application/json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert response["Content-Type"] == "application/problem+json"
