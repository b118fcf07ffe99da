"""The agency's project as HUD knows it (the HUD report's Q4a): set by its admin, checked on the
form, every change audited."""

from __future__ import annotations

import pytest
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.partners.models import HudProject, HudProjectType, HudRrhSubtype

pytestmark = pytest.mark.django_db

URL = "partners:hud_project"
GOOD = {
    "organization_name": "Harbor Light Services",
    "organization_id": "HLS-01",
    "project_name": "Harbor Light Rapid Re-Housing",
    "project_id": "RRH-7",
    "project_type": HudProjectType.RAPID_REHOUSING,
    "rrh_subtype": HudRrhSubtype.SERVICES_ONLY,
    "coordinated_entry_access_point": "on",
    "affiliated_project_ids": "",
    "coc_number": " ca-600 ",
    "geocode": "069037",
}


def test_the_admin_describes_the_project_and_changes_it(cast, login):
    client = login(cast.agency_admin)
    page = client.get(reverse(URL))
    assert page.status_code == 200
    assert "Continuum of Care number" in page.content.decode()
    assert client.post(reverse(URL), GOOD).status_code == 302
    project = HudProject.objects.get(agency=cast.agency)
    assert (project.coc_number, project.rrh_subtype, project.coordinated_entry_access_point) == (
        "CA-600",
        HudRrhSubtype.SERVICES_ONLY,
        True,
    )
    assert client.post(reverse(URL), {**GOOD, "geocode": "069038"}).status_code == 302
    project.refresh_from_db()
    assert project.geocode == "069038"
    assert HudProject.objects.filter(agency=cast.agency).count() == 1
    saves = AuditEvent.objects.filter(action="partners.hud_project.save").order_by("pk")
    assert [e.detail["changed"] for e in saves][-1] == ["geocode"]
    assert AuditEvent.objects.filter(action="partners.hud_project.view").exists()


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"coc_number": "CA600"}, "coc_number", "two letters, a dash and three digits"),
        ({"coc_number": "C1-600"}, "coc_number", "two letters, a dash and three digits"),
        ({"geocode": "12345"}, "geocode", "six digits"),
        ({"geocode": "12345a"}, "geocode", "six digits"),
        ({"rrh_subtype": ""}, "rrh_subtype", "Say which kind of rapid re-housing"),
        (
            {"project_type": HudProjectType.ES_ENTRY_EXIT},
            "rrh_subtype",
            "Only a rapid re-housing project has a kind",
        ),
        (
            {"affiliated_with_residential": "on"},
            "affiliated_with_residential",
            "Only a services-only project",
        ),
        (
            {
                "project_type": HudProjectType.SERVICES_ONLY,
                "rrh_subtype": "",
                "affiliated_project_ids": "TH-1",
            },
            "affiliated_project_ids",
            "only for a project affiliated",
        ),
        ({"project_type": "shelter"}, "project_type", "Select a valid choice"),
        ({"project_name": ""}, "project_name", "This field is required"),
    ],
)
def test_bad_input_is_a_message_on_the_form_and_nothing_saved_changes(
    cast, login, change, field, message
):
    client = login(cast.agency_admin)
    assert client.post(reverse(URL), GOOD).status_code == 302
    response = client.post(reverse(URL), {**GOOD, "project_name": "Renamed", **change})
    assert response.status_code == 200
    assert message in " ".join(response.context["form"].errors[field])
    assert HudProject.objects.get(agency=cast.agency).project_name == GOOD["project_name"]


def test_a_services_only_project_affiliated_with_residential_ones(cast, login):
    client = login(cast.agency_admin)
    values = {
        **GOOD,
        "project_type": HudProjectType.SERVICES_ONLY,
        "rrh_subtype": "",
        "affiliated_with_residential": "on",
        "affiliated_project_ids": "TH-1, ES-2",
    }
    assert client.post(reverse(URL), values).status_code == 302
    project = HudProject.objects.get(agency=cast.agency)
    assert project.affiliated_with_residential and project.affiliated_project_ids == "TH-1, ES-2"


def test_only_the_agency_admin_sees_or_sets_it(cast, login):
    for user in (cast.supervisor, cast.assigned, cast.auditor):
        client = login(user)
        assert client.get(reverse(URL)).status_code == 403
        assert client.post(reverse(URL), GOOD).status_code == 403
    assert not HudProject.objects.exists()
