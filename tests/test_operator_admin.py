"""The Django admin is for operators only, and shows no case content."""

import pytest
from django.contrib import admin

from caseflow.cases.models import BreakGlassGrant, Case, CaseKey, Party, SafeContactProfile
from tests.conftest import ACTORS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("actor", ACTORS)
def test_only_operators_reach_the_admin(actor, cast, login):
    client = login(cast.actor(actor))
    response = client.get("/operator/")
    if actor == "operator":
        assert response.status_code == 200
    else:
        assert response.status_code == 302
        assert "/operator/login/" in response["Location"]


def test_no_case_model_is_registered():
    for model in (Case, Party, SafeContactProfile, BreakGlassGrant, CaseKey):
        assert not admin.site.is_registered(model)
    registered = {m._meta.app_label for m in admin.site._registry}
    assert registered.isdisjoint({"cases", "safety", "agreements", "checkins"})


def test_staff_flag_alone_does_not_open_the_admin(cast, login):
    cast.supervisor.is_staff = True
    cast.supervisor.save(update_fields=["is_staff"])
    client = login(cast.supervisor)
    assert client.get("/operator/").status_code == 302
    # Its sign-in page does not offer a way in to a signed-in non-operator.
    assert client.get("/operator/login/").status_code == 403


def test_operator_without_a_verified_second_factor_is_sent_to_verify(cast, client):
    from django.urls import reverse

    from tests.accounts.flows import enrolled, password_login

    enrolled(cast.operator)
    password_login(client, "operator")
    for path in ("/operator/", "/operator/accounts/user/", "/operator/login/"):
        response = client.get(path)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:second_factor"))


def test_the_admin_has_no_password_form_of_its_own(client, cast):
    response = client.get("/operator/login/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    response = client.post("/operator/login/", {"username": "operator", "password": "x"})
    assert "_auth_user_id" not in client.session


def test_verified_operator_manages_people_not_cases(cast, login):
    client = login(cast.operator)
    assert client.get("/operator/accounts/user/").status_code == 200
    assert client.get("/operator/accounts/agency/").status_code == 200
    assert client.get("/operator/cases/case/").status_code == 404
    page = client.get(f"/operator/accounts/user/{cast.assigned.pk}/change/").content.decode()
    assert "demo_account" not in page


def _user_form(user, **changes) -> dict:
    """The change form of ``user`` as the admin would post it, with ``changes``."""
    from django.utils import timezone

    joined = timezone.localtime(user.date_joined)
    data = {
        "username": user.username,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "email": user.email,
        "is_active": "on",
        "date_joined_0": joined.strftime("%d/%m/%Y"),
        "date_joined_1": joined.strftime("%H:%M:%S"),
        "membership-TOTAL_FORMS": "1",
        "membership-INITIAL_FORMS": "0",
        "membership-MIN_NUM_FORMS": "0",
        "membership-MAX_NUM_FORMS": "1",
    }
    if user.is_superuser:
        data["is_superuser"] = "on"
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_an_operator_cannot_give_themselves_a_casework_membership(cast, login):
    from caseflow import policy
    from caseflow.accounts.models import Membership, Role

    client = login(cast.operator)
    url = f"/operator/accounts/user/{cast.operator.pk}/change/"
    response = client.post(
        url,
        _user_form(
            cast.operator,
            **{
                "membership-0-agency": str(cast.agency.pk),
                "membership-0-role": Role.SUPERVISOR,
                "membership-0-is_active": "on",
            },
        ),
    )
    assert response.status_code == 200
    assert "An operator account cannot belong to an agency" in response.content.decode()
    assert not Membership.objects.filter(user=cast.operator).exists()
    # Even a membership written straight to the database gives an operator no casework role.
    Membership.objects.create(user=cast.operator, agency=cast.agency, role=Role.SUPERVISOR)
    cast.operator.refresh_from_db()
    assert policy.active_role(cast.operator) is None
    assert not policy.visible_cases(cast.operator).exists()
    cast.team1.members.add(cast.operator)
    assert client.get(f"/cases/{cast.case.public_id}/").status_code in (403, 404)


def test_an_operator_cannot_make_a_member_a_superuser(cast, login):
    client = login(cast.operator)
    member = cast.supervisor
    membership = member.membership
    url = f"/operator/accounts/user/{member.pk}/change/"
    data = _user_form(
        member,
        is_superuser="on",
        **{
            "membership-INITIAL_FORMS": "1",
            "membership-0-id": str(membership.pk),
            "membership-0-user": str(member.pk),
            "membership-0-agency": str(membership.agency_id),
            "membership-0-role": membership.role,
            "membership-0-is_active": "on",
        },
    )
    response = client.post(url, data)
    assert response.status_code == 200
    assert "An operator account cannot belong to an agency" in response.content.decode()
    member.refresh_from_db()
    assert not member.is_superuser


def test_no_device_admin_shows_secret_keys(cast, login):
    from django_otp.plugins.otp_static.models import StaticDevice
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from tests.accounts.flows import enrolled

    device = enrolled(cast.assigned)
    assert not admin.site.is_registered(TOTPDevice)
    assert not admin.site.is_registered(StaticDevice)
    client = login(cast.operator)
    assert client.get("/operator/otp_totp/totpdevice/").status_code == 404
    assert client.get(f"/operator/otp_totp/totpdevice/{device.pk}/change/").status_code == 404
    assert device.key not in client.get("/operator/").content.decode()


def test_every_operator_save_and_delete_is_audited(cast, login):
    from caseflow.accounts.models import Agency
    from caseflow.audit.models import AuditEvent

    client = login(cast.operator)
    response = client.post(
        "/operator/accounts/agency/add/", {"name": "Agency C", "slug": "agency-c"}
    )
    assert response.status_code == 302
    agency = Agency.objects.get(slug="agency-c")
    added = AuditEvent.objects.get(action="operator.add", object_id=str(agency.pk))
    assert added.actor_id == cast.operator.pk and added.actor_role == "operator"
    assert added.detail["model"] == "accounts.agency"

    url = f"/operator/accounts/user/{cast.assigned.pk}/change/"
    membership = cast.assigned.membership
    data = _user_form(
        cast.assigned,
        first_name="Renamed",
        **{
            "membership-INITIAL_FORMS": "1",
            "membership-0-id": str(membership.pk),
            "membership-0-user": str(cast.assigned.pk),
            "membership-0-agency": str(membership.agency_id),
            "membership-0-role": membership.role,
            "membership-0-is_active": "on",
        },
    )
    assert client.post(url, data).status_code == 302
    changed = AuditEvent.objects.get(action="operator.change", object_id=str(cast.assigned.pk))
    assert changed.detail["model"] == "accounts.user"
    assert "First name" in changed.detail["fields"]
    assert "Renamed" not in str(changed.detail)

    delete = client.post(f"/operator/accounts/agency/{agency.pk}/delete/", {"post": "yes"})
    assert delete.status_code == 302
    assert AuditEvent.objects.filter(action="operator.delete", object_id=str(agency.pk)).exists()


def test_operators_make_no_caseworkers_and_set_no_caseworkers_passwords(cast, login):
    from caseflow.accounts.models import Membership, Role, User

    client = login(cast.operator)
    newcomer = User.objects.create_user("newcomer", "n@example.invalid")
    url = f"/operator/accounts/user/{newcomer.pk}/change/"
    for role in (Role.ADVOCATE, Role.SUPERVISOR, Role.AUDITOR):
        response = client.post(
            url,
            _user_form(
                newcomer,
                **{
                    "membership-0-agency": str(cast.agency.pk),
                    "membership-0-role": role,
                    "membership-0-is_active": "on",
                },
            ),
        )
        assert response.status_code == 200
        assert "Operators only set up agency admins" in response.content.decode()
    assert not Membership.objects.filter(user=newcomer).exists()
    # An agency admin, yes.
    response = client.post(
        url,
        _user_form(
            newcomer,
            **{
                "membership-0-agency": str(cast.agency.pk),
                "membership-0-role": Role.AGENCY_ADMIN,
                "membership-0-is_active": "on",
            },
        ),
    )
    assert response.status_code == 302
    assert newcomer.membership.role == Role.AGENCY_ADMIN
    # No password form for anyone who does casework.
    for member in (cast.assigned, cast.supervisor, cast.auditor):
        password_url = f"/operator/accounts/user/{member.pk}/password/"
        assert client.get(password_url).status_code == 403
        response = client.post(
            password_url, {"password1": "A-new-secret-9", "password2": "A-new-secret-9"}
        )
        assert response.status_code == 403
        member.refresh_from_db()
        assert not member.check_password("A-new-secret-9")
    assert client.get(f"/operator/accounts/user/{newcomer.pk}/password/").status_code == 200
