"""Agency admins manage staff and teams of their own agency, and nobody else's."""

from __future__ import annotations

import pytest
from django.urls import reverse

from caseflow.accounts.models import Role, Team, User
from caseflow.audit.models import AuditEvent
from tests.conftest import Cast, verified_session

pytestmark = pytest.mark.django_db

NEW_STAFF = {
    "username": "new.advocate",
    "first_name": "New",
    "last_name": "Advocate",
    "email": "new@example.invalid",
    "role": Role.ADVOCATE,
    "is_active": "on",
}


def test_admin_creates_an_advocate_in_their_own_agency(cast: Cast, login):
    client = login(cast.agency_admin)
    response = client.post(reverse("agency:staff_new"), {**NEW_STAFF, "teams": [cast.team1.pk]})
    assert response.status_code == 302
    user = User.objects.get(username="new.advocate")
    assert user.membership.agency == cast.agency
    assert user.membership.role == Role.ADVOCATE
    assert list(user.teams.all()) == [cast.team1]
    assert not user.has_usable_password()  # they choose it through their enrolment link
    assert AuditEvent.objects.filter(action="staff.create", object_id=str(user.pk)).exists()


def test_admin_cannot_put_staff_in_another_agencys_team(cast: Cast, login):
    client = login(cast.agency_admin)
    response = client.post(
        reverse("agency:staff_new"), {**NEW_STAFF, "teams": [cast.other_agency_team.pk]}
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not User.objects.filter(username="new.advocate").exists()


def test_admin_cannot_open_staff_of_another_agency(cast: Cast, login):
    client = login(cast.agency_admin)
    url = reverse("agency:staff_edit", args=[cast.other_agency.pk])
    assert client.get(url).status_code == 404
    assert client.post(url, {**NEW_STAFF, "username": "x"}).status_code == 404


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("username", "Bad Name!", "lower-case letters"),
        ("username", "assigned", "That username is taken"),
        ("email", "not-an-email", "Enter a valid email address"),
        ("role", "overlord", "Select a valid choice"),
    ],
)
def test_staff_form_bad_input(cast: Cast, login, field, value, message):
    client = login(cast.agency_admin)
    response = client.post(reverse("agency:staff_new"), {**NEW_STAFF, field: value})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert User.objects.filter(membership__agency=cast.agency).count() == 8


def test_deactivating_staff_ends_their_session_at_the_next_request(cast: Cast, login, client):
    target = cast.same_team
    other_client = type(client)()
    verified_session(other_client, target)
    assert other_client.get(reverse("dashboard")).status_code == 200

    admin_client = login(cast.agency_admin)
    data = {**NEW_STAFF, "username": target.username, "email": target.email}
    del data["is_active"]  # an unticked box is absent from the POST
    response = admin_client.post(reverse("agency:staff_edit", args=[target.pk]), data)
    assert response.status_code == 302
    assert other_client.get(reverse("dashboard")).status_code == 302
    target.refresh_from_db()
    assert not target.is_active


def test_role_change_is_recorded(cast: Cast, login):
    client = login(cast.agency_admin)
    target = cast.same_team
    client.post(
        reverse("agency:staff_edit", args=[target.pk]),
        {
            **NEW_STAFF,
            "username": target.username,
            "email": target.email,
            "role": Role.SUPERVISOR,
        },
    )
    target.membership.refresh_from_db()
    assert target.membership.role == Role.SUPERVISOR
    event = AuditEvent.objects.get(action="security.role_change", object_id=str(target.pk))
    assert event.detail == {"from": "advocate", "to": "supervisor"}


def test_admin_cannot_demote_themselves(cast: Cast, login):
    client = login(cast.agency_admin)
    me = cast.agency_admin
    response = client.post(
        reverse("agency:staff_edit", args=[me.pk]),
        {**NEW_STAFF, "username": me.username, "email": me.email},
    )
    assert response.status_code == 200
    assert "cannot change your own role" in response.content.decode()
    me.membership.refresh_from_db()
    assert me.membership.role == Role.AGENCY_ADMIN


def test_teams_are_created_and_names_are_unique_per_agency(cast: Cast, login):
    client = login(cast.agency_admin)
    clash = client.post(reverse("agency:team_new"), {"name": "team 1"})
    assert "already has a team with this name" in clash.content.decode()
    ok = client.post(
        reverse("agency:team_new"), {"name": "Court team", "members": [cast.same_team.pk]}
    )
    assert ok.status_code == 302
    team = Team.objects.get(name="Court team")
    assert team.agency == cast.agency
    assert list(team.members.all()) == [cast.same_team]


def test_team_members_must_be_of_the_agency(cast: Cast, login):
    client = login(cast.agency_admin)
    response = client.post(
        reverse("agency:team_new"), {"name": "Mixed", "members": [cast.other_agency.pk]}
    )
    assert response.status_code == 200
    assert not Team.objects.filter(name="Mixed").exists()


def test_admin_pages_show_no_case_content(cast: Cast, login):
    client = login(cast.agency_admin)
    for url in (reverse("agency:staff_list"), reverse("dashboard")):
        body = client.get(url).content.decode()
        assert "CANARY" not in body
        assert "CASE-1" not in body
