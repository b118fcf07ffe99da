"""Case pages as users drive them: intake, conflict check, edits, assignment, status, bad input."""

from __future__ import annotations

import pytest
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import (
    Case,
    CaseStatus,
    FieldSetting,
    IntakeField,
    Party,
    PartyRole,
    SafeContactProfile,
)
from caseflow.inbox.models import Notification
from tests import factories as f
from tests.conftest import Cast

pytestmark = pytest.mark.django_db

INTAKE = {
    "survivor_full_name": "Rae Example",
    "survivor_date_of_birth": "1991-02-03",
    "survivor_phone": "07700 900001",
    "other_full_name": "Lee Sample",
    "other_date_of_birth": "1989-05-06",
    "summary": "Referred by the police.",
}


def test_intake_opens_a_case_with_encrypted_people(cast: Cast, login):
    client = login(cast.assigned)
    response = client.post(
        reverse("cases:new"),
        {**INTAKE, "team": cast.team1.pk, "survivor_aliases": " Rae Earlier\n\nRay Example "},
    )
    assert response.status_code == 302
    case = Case.objects.get(parties__role=PartyRole.SURVIVOR, reference__startswith="CF-")
    assert response["Location"] == reverse("cases:detail", args=[case.public_id])
    assert case.primary_advocate == cast.assigned
    assert list(case.assignees.all()) == [cast.assigned]
    assert not case.conflict_flag
    names = {p.role: p.full_name for p in case.parties.all()}
    assert names == {"survivor": "Rae Example", "other_party": "Lee Sample"}
    survivor = case.parties.get(role=PartyRole.SURVIVOR)
    survivor.case = case
    assert survivor.aliases == "Rae Earlier\nRay Example"
    assert case.public_id not in ("", str(case.pk))
    assert AuditEvent.objects.filter(action="case.create", case_id=case.pk).count() == 1


def test_conflict_check_warns_without_detail_then_flags(cast: Cast, login):
    # The named other party is already a client of the agency (CASE-2's survivor).
    f.add_party(
        cast.team2_case, PartyRole.SURVIVOR, full_name="Lee  SAMPLE", date_of_birth="1989-05-06"
    )
    client = login(cast.assigned)
    data = {**INTAKE, "team": cast.team1.pk}
    first = client.post(reverse("cases:new"), data)
    body = first.content.decode()
    assert first.status_code == 200
    assert "Possible conflict — consult your supervisor" in body
    assert "CASE-2" not in body and cast.team2_case.public_id not in body
    assert not Case.objects.filter(reference__startswith="CF-").exists()
    # Sending the same form again is not going on: the check runs again and warns again.
    again = client.post(reverse("cases:new"), data)
    assert again.status_code == 200 and "Possible conflict" in again.content.decode()
    assert "despite_conflict" in again.content.decode()
    assert not Case.objects.filter(reference__startswith="CF-").exists()
    # Going on despite it is its own, explained action: flagged, and the supervisors are told.
    second = client.post(reverse("cases:new"), {**data, "despite_conflict": "1"})
    assert second.status_code == 302
    case = Case.objects.get(reference__startswith="CF-")
    assert case.conflict_flag
    told = Notification.objects.filter(kind="conflict", case=case)
    assert set(told.values_list("recipient", flat=True)) == {cast.supervisor.pk}
    assert "Lee" not in told.get().text and "SAMPLE" not in told.get().text.upper()


def test_opening_anyway_without_a_conflict_opens_an_unflagged_case(cast: Cast, login):
    client = login(cast.assigned)
    response = client.post(
        reverse("cases:new"), {**INTAKE, "team": cast.team1.pk, "despite_conflict": "1"}
    )
    assert response.status_code == 302
    assert not Case.objects.get(reference__startswith="CF-").conflict_flag
    assert not Notification.objects.filter(kind="conflict").exists()


def test_without_a_date_of_birth_the_check_compares_names_and_says_so(cast: Cast, login):
    f.add_party(
        cast.team2_case, PartyRole.SURVIVOR, full_name="Sample, Lee", date_of_birth="1970-01-01"
    )
    client = login(cast.assigned)
    data = {**INTAKE, "team": cast.team1.pk, "other_date_of_birth": ""}
    response = client.post(reverse("cases:new"), data)
    body = response.content.decode()
    assert response.status_code == 200
    assert "Possible conflict" in body
    assert "compared names only, because no date of birth was given" in body
    event = AuditEvent.objects.filter(action="case.conflict_warning").get()
    assert event.detail == {}


def test_a_name_only_check_that_finds_nothing_says_so_after_opening(cast: Cast, login):
    client = login(cast.assigned)
    data = {**INTAKE, "team": cast.team1.pk, "survivor_date_of_birth": ""}
    response = client.post(reverse("cases:new"), data, follow=True)
    body = response.content.decode()
    assert "opened" in body
    assert "compared names only, because no date of birth was given" in body
    case = Case.objects.get(reference__startswith="CF-")
    event = AuditEvent.objects.get(action="case.create", case_id=case.pk)
    assert event.detail["checked_by_name_only"] == ["survivor"]


def test_hiding_dates_of_birth_is_named_as_the_reason(cast: Cast, login):
    FieldSetting.objects.create(agency=cast.agency, field="other_date_of_birth", hidden=True)
    f.add_party(cast.team2_case, PartyRole.SURVIVOR, full_name="Lee Sample")
    client = login(cast.assigned)
    data = {**INTAKE, "team": cast.team1.pk}
    body = client.post(reverse("cases:new"), data).content.decode()
    assert "Possible conflict" in body
    assert "because your agency does not collect dates of birth" in body


def test_the_field_settings_page_warns_that_hiding_a_birth_date_weakens_the_check(
    cast: Cast, login
):
    client = login(cast.agency_admin)
    url = reverse("confidentiality:fields")
    assert "alert-info" in client.get(url).content.decode()
    form = {f"{name}__hidden": "" for name in IntakeField.values}
    form.update({f"{name}__label": "" for name in IntakeField.values})
    form["survivor_date_of_birth__hidden"] = "on"
    response = client.post(url, form, follow=True)
    body = response.content.decode()
    assert "compares names only" in body
    assert "alert-warning" in body


def test_conflict_check_needs_a_date_of_birth_to_match(cast: Cast, login):
    f.add_party(
        cast.team2_case, PartyRole.SURVIVOR, full_name="Lee Sample", date_of_birth="1970-01-01"
    )
    client = login(cast.assigned)
    response = client.post(reverse("cases:new"), {**INTAKE, "team": cast.team1.pk})
    assert response.status_code == 302
    assert not Case.objects.get(reference__startswith="CF-").conflict_flag


def test_intake_refuses_a_team_of_another_agency_and_ignores_extra_fields(cast: Cast, login):
    client = login(cast.assigned)
    response = client.post(
        reverse("cases:new"),
        {
            **INTAKE,
            "team": cast.other_agency_team.pk,
            "agency": cast.other_agency_team.agency_id,
        },
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    response = client.post(
        reverse("cases:new"),
        {
            **INTAKE,
            "team": cast.team1.pk,
            "assignees": [cast.other_team.pk],
            "role": "supervisor",
            "restricted": "on",
            "primary_advocate": cast.other_team.pk,
        },
    )
    assert response.status_code == 302
    case = Case.objects.get(reference__startswith="CF-")
    assert list(case.assignees.all()) == [cast.assigned]
    assert not case.restricted
    cast.assigned.membership.refresh_from_db()
    assert cast.assigned.membership.role == "advocate"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("survivor_full_name", "", "This field is required"),
        ("survivor_full_name", "x" * 201, "at most 200 characters"),
        ("survivor_date_of_birth", "not-a-date", "Enter a valid date"),
        ("survivor_date_of_birth", "2999-01-01", "cannot be in the future"),
        ("survivor_email", "nope", "Enter a valid email address"),
        ("survivor_aliases", "x" * 201, "Each name may have at most 200 characters."),
    ],
)
def test_intake_bad_input_gets_form_errors_and_saves_nothing(cast, login, field, value, message):
    client = login(cast.assigned)
    response = client.post(reverse("cases:new"), {**INTAKE, "team": cast.team1.pk, field: value})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Case.objects.filter(reference__startswith="CF-").exists()


def test_duplicate_reference_is_a_form_error(cast: Cast, login):
    client = login(cast.assigned)
    response = client.post(
        reverse("cases:new"), {**INTAKE, "team": cast.team1.pk, "reference": "CASE-1"}
    )
    assert response.status_code == 200
    assert "Another case already has this reference" in response.content.decode()


def test_case_page_shows_content_and_audits_the_read(cast: Cast, login):
    client = login(cast.assigned)
    before = AuditEvent.objects.filter(action="case.view").count()
    response = client.get(reverse("cases:detail", args=[cast.case.public_id]))
    assert response.status_code == 200
    assert f"Survivor CANARY{cast.case.pk}X" in response.content.decode()
    assert response["Cache-Control"].startswith("no-store")
    assert AuditEvent.objects.filter(action="case.view").count() == before + 1


def test_stale_case_edit_is_refused_and_nothing_is_overwritten(cast: Cast, login):
    url = reverse("cases:edit", args=[cast.case.public_id])
    first = login(cast.supervisor)
    first.post(url, {"reference": "CASE-1", "risk_level": "high", "summary": "first", "version": 1})
    second = login(cast.assigned)
    response = second.post(
        url, {"reference": "CASE-1", "risk_level": "standard", "summary": "second", "version": 1}
    )
    assert response.status_code == 200
    assert "Someone else changed this case" in response.content.decode()
    case = Case.objects.get(pk=cast.case.pk)
    assert (case.summary, case.version) == ("first", 2)


def test_supervisor_reassigns_and_old_advocate_loses_access(cast: Cast, login):
    client = login(cast.supervisor)
    response = client.post(
        reverse("cases:assign", args=[cast.case.public_id]), {"primary": cast.same_team.pk}
    )
    assert response.status_code == 302
    case = Case.objects.get(pk=cast.case.pk)
    assert case.primary_advocate == cast.same_team
    assert set(case.assignees.all()) == {cast.same_team}
    old = login(cast.assigned)
    assert old.get(reverse("cases:detail", args=[case.public_id])).status_code == 404


def test_assign_refuses_staff_of_another_agency(cast: Cast, login):
    client = login(cast.supervisor)
    response = client.post(
        reverse("cases:assign", args=[cast.case.public_id]), {"primary": cast.other_agency.pk}
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert Case.objects.get(pk=cast.case.pk).primary_advocate == cast.assigned


def test_status_moves_and_reopening_keeps_history(cast: Cast, login):
    client = login(cast.assigned)
    url = reverse("cases:status", args=[cast.case.public_id])
    client.post(url, {"status": CaseStatus.ACTIVE})
    client.post(url, {"status": CaseStatus.DORMANT})
    client.post(url, {"status": CaseStatus.ACTIVE})
    case = Case.objects.get(pk=cast.case.pk)
    assert case.status == CaseStatus.ACTIVE
    assert case.parties.count() == 2
    moves = AuditEvent.objects.filter(action="case.status", case_id=case.pk)
    assert [e.detail["to"] for e in moves] == ["active", "dormant", "active"]


def test_impossible_status_change_is_refused_with_a_message(cast: Cast, login):
    client = login(cast.assigned)
    response = client.post(
        reverse("cases:status", args=[cast.case.public_id]),
        {"status": CaseStatus.DORMANT},
        follow=True,
    )
    assert "not possible" in response.content.decode()
    assert Case.objects.get(pk=cast.case.pk).status == CaseStatus.REFERRAL


def test_restricting_hides_the_case_from_the_team(cast: Cast, login):
    client = login(cast.supervisor)
    response = client.post(
        reverse("cases:restrict", args=[cast.case.public_id]),
        {"restricted": "on", "users": [cast.assigned.pk]},
    )
    assert response.status_code == 302
    case = Case.objects.get(pk=cast.case.pk)
    # The supervisor who restricted it stays on the list.
    assert set(case.restricted_users.all()) == {cast.assigned, cast.supervisor}
    same = login(cast.same_team)
    assert same.get(reverse("cases:detail", args=[case.public_id])).status_code == 404


def test_safe_contact_profile_saves_and_rejects_bad_windows(cast: Cast, login):
    case = f.open_case(cast.team1, [cast.assigned], reference="CASE-P")
    client = login(cast.assigned)
    url = reverse("checkins:safe_contact", args=[case.public_id])
    bad = client.post(
        url,
        {
            "timezone": "Europe/London",
            "channels": ["phone"],
            "windows": "Funday 10:00-12:00",
            "safe_phone": "07700 900002",
        },
    )
    assert bad.status_code == 200
    assert "line 1" in bad.content.decode().lower()
    assert not SafeContactProfile.objects.filter(case=case).exists()
    missing_phone = client.post(
        url, {"timezone": "Europe/London", "channels": ["phone"], "windows": "Mon-Fri 10:00-12:00"}
    )
    assert "safe phone number" in missing_phone.content.decode()
    good = client.post(
        url,
        {
            "timezone": "Europe/London",
            "channels": ["phone"],
            "windows": "Mon-Fri 10:00-12:00\nSat 22:00-01:00",
            "safe_phone": "07700 900002",
            "code_word": "parcel",
        },
    )
    assert good.status_code == 302
    profile = SafeContactProfile.objects.get(case=case)
    assert profile.code_word == "parcel"
    assert len(profile.windows) == 2


def test_party_can_be_added_and_edited(cast: Cast, login):
    client = login(cast.assigned)
    response = client.post(
        reverse("cases:party_new", args=[cast.case.public_id]),
        {"role": "child", "full_name": "Kid Example"},
    )
    assert response.status_code == 302
    child = Party.objects.get(case=cast.case, role="child")
    response = client.post(
        reverse("cases:party_edit", args=[cast.case.public_id, child.public_id]),
        {"role": "child", "full_name": "Kid Renamed"},
    )
    assert response.status_code == 302
    assert Party.objects.get(pk=child.pk).full_name == "Kid Renamed"


def test_second_survivor_cannot_be_added(cast: Cast, login):
    client = login(cast.assigned)
    response = client.post(
        reverse("cases:party_new", args=[cast.case.public_id]),
        {"role": "survivor", "full_name": "Another"},
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()


def test_party_of_another_case_is_404(cast: Cast, login):
    client = login(cast.assigned)
    foreign_party = cast.team2_case.parties.first()
    url = reverse("cases:party_edit", args=[cast.case.public_id, foreign_party.public_id])
    assert client.get(url).status_code == 404


def test_dashboard_shows_the_next_item_due(cast, login):
    import datetime as dt

    from django.utils import timezone

    from caseflow.accounts import zones
    from caseflow.inbox.models import FollowUp

    soon = timezone.now() + dt.timedelta(days=2)
    FollowUp(case=cast.case, kind="task", due_at=soon, assignee=cast.assigned).save()
    FollowUp(
        case=cast.case, kind="task", due_at=soon + dt.timedelta(days=5), assignee=cast.assigned
    ).save()
    body = login(cast.assigned).get(reverse("dashboard")).content.decode()
    # Shown in the time of the agency's staff (it may be summer time there when it is not now).
    shown = soon.astimezone(zones.agency_zone(cast.agency))
    assert shown.strftime("%-d %b %Y %H:%M") in body
