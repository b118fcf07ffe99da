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
