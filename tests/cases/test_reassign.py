"""Handing many cases to a new primary advocate, the guard on deactivating someone who still
holds open cases, and the daily check for open cases without an active primary advocate."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases import reassign
from caseflow.cases.models import Case, CaseStatus, RiskLevel
from caseflow.checkins import services as checkins
from caseflow.checkins.models import CheckIn, CheckInFollowUpKind
from caseflow.inbox.models import FollowUp, Notification
from tests import factories as f

# A Tuesday, 09:00 in London (10:00-12:00 on weekdays is the factory profile's safe window).
NOW = dt.datetime(2026, 3, 10, 9, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def pinned():
    with time_machine.travel(NOW, tick=False):
        yield


def _leaving_caseload(cast):
    """``assigned`` holds CASE-1 (with ``same_team`` as a second advocate added here) and a
    high-risk CASE-3 with a safe-contact profile; CASE-R is restricted to ``assigned``."""
    from caseflow.cases.models import CaseAssignment

    CaseAssignment.objects.create(case=cast.case, user=cast.same_team)
    high = f.open_case(cast.team1, [cast.assigned], reference="CASE-3", risk_level=RiskLevel.HIGH)
    f.add_profile(high)
    return high


def test_a_leaving_advocates_cases_are_listed_ticked_and_handed_over(cast, login):
    high = _leaving_caseload(cast)
    checkin = CheckIn.objects.create(
        case=cast.case,
        channel="phone",
        due_at=NOW + dt.timedelta(days=2),
        assignee=cast.assigned,
        created_by=cast.assigned,
    )
    followup = FollowUp.objects.create(
        case=cast.case, kind="task", due_at=NOW + dt.timedelta(days=1), assignee=cast.assigned
    )
    client = login(cast.supervisor)
    url = reverse("cases:reassign")
    page = client.get(url, {"advocate": cast.assigned.pk})
    text = page.content.decode()
    assert page.status_code == 200
    # Their open cases of the supervisor's team, ticked; not the restricted one, nor others'.
    assert text.count("checked") >= 2
    for reference in ("CASE-1", "CASE-3"):
        assert reference in text
    for reference in ("CASE-R", "CASE-2", "CASE-B"):
        assert reference not in text

    response = client.post(
        url + f"?advocate={cast.assigned.pk}",
        {"cases": [cast.case.public_id, high.public_id], "primary": cast.supervisor.pk},
    )
    assert response.status_code == 302
    for case in (Case.objects.get(pk=cast.case.pk), Case.objects.get(pk=high.pk)):
        assert case.primary_advocate_id == cast.supervisor.pk
        assert cast.assigned not in case.assignees.all()
    # The second advocate stays; the deactivated one left on the case goes.
    assert set(Case.objects.get(pk=cast.case.pk).assignees.all()) == {
        cast.supervisor,
        cast.same_team,
    }
    # Nothing the leaving advocate had to do is lost: it is the new advocate's.
    checkin.refresh_from_db()
    followup.refresh_from_db()
    assert (checkin.assignee_id, followup.assignee_id) == (cast.supervisor.pk, cast.supervisor.pk)
    # CASE-1 has its check-in; CASE-3 had none, so one is proposed in her safe window.
    proposed = FollowUp.objects.filter(kind=CheckInFollowUpKind.FIRST_CHECKIN)
    assert [(p.case_id, p.assignee_id) for p in proposed] == [(high.pk, cast.supervisor.pk)]
    first = proposed.get()
    # Not sooner than two hours from now (11:00), inside her 10:00-12:00 window.
    assert first.due_at == dt.datetime(2026, 3, 10, 11, 0, tzinfo=dt.UTC)
    assert checkins.slot_problem(checkins.profile_for(high), first.due_at, "phone") == ""
    # Audited per case, and as one handover; the new advocate is told, without any name.
    assert AuditEvent.objects.filter(action="case.assign").count() == 2
    assert AuditEvent.objects.filter(action="checkin.handover").count() == 2
    many = AuditEvent.objects.get(action="case.reassign_many")
    assert many.detail == {
        "cases": 2,
        "primary": cast.supervisor.pk,
        "previous": [cast.assigned.pk],
    }
    told = Notification.objects.get(recipient=cast.supervisor, kind="handover")
    assert "CASE" not in told.words and "Cases were handed to you" in told.words


def test_a_case_without_a_safe_window_gets_a_first_check_in_to_agree_tomorrow(cast, login):
    from caseflow.cases.models import SafeContactProfile

    high = _leaving_caseload(cast)
    SafeContactProfile.objects.filter(case=high).delete()
    reassign.cases_reassign(actor=cast.supervisor, cases=[high], primary=cast.same_team)
    first = FollowUp.objects.get(kind=CheckInFollowUpKind.FIRST_CHECKIN)
    assert first.due_at == NOW + dt.timedelta(days=1)


def test_a_case_the_supervisor_does_not_supervise_cannot_be_slipped_in(cast, login):
    client = login(cast.supervisor)
    response = client.post(
        reverse("cases:reassign"),
        {"cases": [cast.team2_case.public_id], "primary": cast.same_team.pk},
    )
    assert response.status_code == 200
    assert "no longer in the list" in response.content.decode()
    assert Case.objects.get(pk=cast.team2_case.pk).primary_advocate_id == cast.other_team.pk
    with pytest.raises(reassign.PermissionDenied):
        reassign.cases_reassign(
            actor=cast.supervisor, cases=[cast.team2_case], primary=cast.same_team
        )


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        ({"primary": "SAME_TEAM"}, "Choose at least one case."),
        ({"cases": ["CASE"], "primary": "nobody"}, "Select a valid choice"),
        ({"cases": ["CASE"], "primary": "OTHER_AGENCY"}, "Select a valid choice"),
    ],
)
def test_bad_input_is_a_form_error_and_nothing_changes(cast, login, answer, words):
    values = {"SAME_TEAM": cast.same_team.pk, "OTHER_AGENCY": cast.other_agency.pk}
    data = {
        "cases": [cast.case.public_id] if "cases" in answer else [],
        "primary": values.get(answer["primary"], answer["primary"]),
    }
    response = login(cast.supervisor).post(reverse("cases:reassign"), data)
    assert response.status_code == 200
    assert words in response.content.decode()
    assert Case.objects.get(pk=cast.case.pk).primary_advocate_id == cast.assigned.pk
    assert not AuditEvent.objects.filter(action="case.reassign_many").exists()


def test_filters_by_risk_and_a_filter_that_is_wrong_offers_nothing(cast, login):
    _leaving_caseload(cast)
    client = login(cast.supervisor)
    high = client.get(reverse("cases:reassign"), {"risk": RiskLevel.HIGH}).content.decode()
    assert "CASE-3" in high and "CASE-1" not in high
    wrong = client.get(reverse("cases:reassign"), {"advocate": cast.other_agency.pk})
    assert wrong.status_code == 200
    assert "Select a valid choice" in wrong.content.decode()
    assert "CASE-1" not in wrong.content.decode()


def test_deactivating_someone_who_holds_open_cases_is_refused_until_they_are_handed_over(
    cast, login
):
    client = login(cast.agency_admin)
    url = reverse("agency:staff_edit", args=[cast.assigned.pk])
    data = {
        "username": "assigned",
        "first_name": "Ash",
        "email": "assigned@example.invalid",
        "role": "advocate",
        "teams": [cast.team1.pk],
        # is_active left out: unticked
    }
    refused = client.post(url, data)
    assert refused.status_code == 200
    assert "primary advocate of 2 open cases" in refused.content.decode()
    cast.assigned.refresh_from_db()
    assert cast.assigned.membership.is_active and cast.assigned.is_active
    # The restricted case lists only them: the message says someone on its list hands it over.
    assert "1 of them is restricted" in refused.content.decode()
    reassign.cases_reassign(actor=cast.supervisor, cases=[cast.case], primary=cast.same_team)
    still = client.post(url, data)
    assert "primary advocate of 1 open case." in still.content.decode()
    # Listed on its access list, a supervisor of the team hands the restricted one over.
    cast.restricted_case.restricted_users.add(cast.supervisor)
    reassign.cases_reassign(
        actor=cast.supervisor, cases=[cast.restricted_case], primary=cast.same_team
    )
    saved = client.post(url, data)
    assert saved.status_code == 302
    cast.assigned.refresh_from_db()
    assert not cast.assigned.membership.is_active


def test_the_daily_check_tells_supervisors_once_a_day_of_cases_without_an_active_primary(cast):
    Case.objects.filter(pk=cast.case.pk).update(primary_advocate=cast.deactivated)
    closed = f.open_case(cast.team1, [cast.deactivated], reference="CASE-C")
    Case.objects.filter(pk=closed.pk).update(status=CaseStatus.CLOSED)
    orphan = f.open_case(cast.team2, [], reference="CASE-O")
    assert set(reassign.without_active_primary()) == {Case.objects.get(pk=cast.case.pk), orphan}
    assert reassign.no_primary_sweep() == 2  # supervisor (team 1), other_supervisor (team 2)
    assert reassign.no_primary_sweep() == 0  # once a day
    told = Notification.objects.filter(kind="no_primary").order_by("recipient__username")
    assert [(n.recipient.username, n.case_id) for n in told] == [
        ("other_supervisor", orphan.pk),
        ("supervisor", cast.case.pk),
    ]
    assert all("no active primary advocate" in n.words for n in told)
    with time_machine.travel(NOW + dt.timedelta(days=1), tick=False):
        assert reassign.no_primary_sweep() == 2
