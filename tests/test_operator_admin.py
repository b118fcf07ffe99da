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
