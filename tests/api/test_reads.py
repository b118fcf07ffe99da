"""Reading cases through the API: only what the integration may see, narratives only with
their scope, each read recorded on the case under the integration's name."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from caseflow import policy
from caseflow.audit.models import AuditEvent
from caseflow.inbox.models import FollowUp
from tests.conftest import canary


def url(name, case) -> str:
    return reverse(f"api:{name}", args=[case.public_id])


def test_a_summary_without_narratives(cast, make_caller):
    caller = make_caller([policy.SCOPE_CASES_SUMMARY])
    response = caller.get(url("case_summary", cast.case))
    assert response.status_code == 200
    body = response.json()
    assert body["id"] == cast.case.public_id
    assert body["reference"] == "CASE-1"
    assert "summary" not in body
    assert canary(cast.case) not in response.content.decode()


def test_the_narrative_scope_adds_the_summary_text(cast, make_caller):
    caller = make_caller([policy.SCOPE_CASES_SUMMARY, policy.SCOPE_CASES_NARRATIVE])
    body = caller.get(url("case_summary", cast.case)).json()
    assert canary(cast.case) in body["summary"]


def test_each_read_is_recorded_and_shown_on_who_accessed(cast, make_caller, login):
    caller = make_caller([policy.SCOPE_CASES_SUMMARY], name="Coalition data system")
    assert caller.get(url("case_summary", cast.case)).status_code == 200
    assert caller.get(url("case_followups", cast.case)).status_code == 200
    reads = AuditEvent.objects.filter(case_id=cast.case.pk, actor=caller.integration.account)
    assert sorted(reads.values_list("action", flat=True)) == [
        "api.case.read",
        "api.followups.read",
    ]
    page = login(cast.supervisor).get(reverse("audit:case_access", args=[cast.case.public_id]))
    assert page.status_code == 200
    assert "Coalition data system" in page.content.decode()


def test_never_a_restricted_case_another_team_or_agency_or_an_unknown_id(cast, make_caller):
    caller = make_caller(
        [policy.SCOPE_CASES_SUMMARY, policy.SCOPE_CASES_NARRATIVE], team=cast.team1
    )
    assert caller.get(url("case_summary", cast.case)).status_code == 200
    denied = [cast.restricted_case, cast.team2_case, cast.foreign_case]
    for case in denied:
        for name in ("case_summary", "case_followups"):
            response = caller.get(url(name, case))
            assert response.status_code == 404, (case, name)
            assert response["Content-Type"] == "application/problem+json"
            assert canary(case) not in response.content.decode()
    missing = caller.get(reverse("api:case_summary", args=["x" * 22]))
    assert missing.status_code == 404
    assert missing.json()["detail"] == denied_detail(caller, cast.foreign_case)
    assert not AuditEvent.objects.filter(
        actor=caller.integration.account, case_id__in=[c.pk for c in denied]
    ).exists()


def denied_detail(caller, case) -> str:
    return caller.get(url("case_summary", case)).json()["detail"]


def test_without_the_scope_it_is_403_and_nothing_is_read(cast, make_caller):
    caller = make_caller([policy.SCOPE_REFERRALS_WRITE])
    response = caller.get(url("case_summary", cast.case))
    assert response.status_code == 403
    assert canary(cast.case) not in response.content.decode()
    # Nothing was read; the refusal itself is what the trail holds.
    events = AuditEvent.objects.filter(actor=caller.integration.account)
    assert [(e.action, e.detail["reason"]) for e in events] == [("api.refused", "scope")]


def test_follow_ups_with_details_only_under_the_narrative_scope(cast, make_caller):
    followup = FollowUp(
        case=cast.case,
        kind="court_date",
        details=f"Hearing {canary(cast.case)}",
        due_at=dt.datetime(2026, 3, 20, 10, 0, tzinfo=dt.UTC),
        assignee=cast.assigned,
        created_by=cast.assigned,
    )
    followup.save()
    plain = make_caller([policy.SCOPE_CASES_SUMMARY]).get(url("case_followups", cast.case))
    assert plain.json() == [
        {"kind": "court_date", "due_at": "2026-03-20T10:00:00Z", "status": "open"}
    ]
    full = make_caller([policy.SCOPE_CASES_SUMMARY, policy.SCOPE_CASES_NARRATIVE], name="Full").get(
        url("case_followups", cast.case)
    )
    assert canary(cast.case) in full.json()[0]["details"]


def test_wrong_method_is_405(cast, make_caller):
    response = make_caller().post(url("case_summary", cast.case), {})
    assert response.status_code == 405
