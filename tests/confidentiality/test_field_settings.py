"""An agency's field settings hold wherever the field is collected or shown: the party and case
edit forms and the case page, not only intake. A hidden field is not collected (a value posted
anyway changes nothing, what is stored is kept); a relabelled one shows the agency's label."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case, FieldSetting, IntakeField, Party, PartyRole
from tests.conftest import canary

pytestmark = pytest.mark.django_db


def _configure(agency, **settings) -> None:
    """``settings``: {IntakeField name: "hidden" | a label}."""
    for name, value in settings.items():
        FieldSetting.objects.create(
            agency=agency,
            field=IntakeField(name),
            hidden=value == "hidden",
            label="" if value == "hidden" else value,
        )


def _party(case: Case, role: str) -> Party:
    party = Party.objects.get(case=case, role=role)
    party.case = case
    return party


def _party_url(case: Case, party: Party) -> str:
    return reverse("cases:party_edit", args=[case.public_id, party.public_id])


def test_hidden_fields_are_not_on_the_edit_forms(cast, login):
    _configure(cast.agency, survivor_phone="hidden", other_date_of_birth="hidden", summary="hidden")
    client = login(cast.assigned)
    survivor = _party(cast.case, PartyRole.SURVIVOR)
    other = _party(cast.case, PartyRole.OTHER_PARTY)

    form = client.get(_party_url(cast.case, survivor)).content.decode()
    assert 'name="phone"' not in form
    assert f"phone {canary(cast.case)}" not in form  # nor is its stored value
    assert 'name="email"' in form
    assert 'name="date_of_birth"' in form  # the survivor's date of birth is still collected

    form = client.get(_party_url(cast.case, other)).content.decode()
    assert 'name="date_of_birth"' not in form
    assert 'name="phone"' in form  # only the survivor's phone is hidden

    form = client.get(reverse("cases:edit", args=[cast.case.public_id])).content.decode()
    assert 'name="summary"' not in form
    assert 'name="reference"' in form


def test_a_hidden_field_posted_anyway_changes_nothing(cast, login):
    _configure(cast.agency, survivor_phone="hidden", summary="hidden")
    client = login(cast.assigned)
    survivor = _party(cast.case, PartyRole.SURVIVOR)
    stored_phone = survivor.phone
    assert stored_phone  # there is a value to keep

    response = client.post(
        _party_url(cast.case, survivor),
        {
            "role": "survivor",
            "full_name": "Renamed Survivor",
            "date_of_birth": "1990-01-01",
            "phone": "07700 900999",
        },
    )
    assert response.status_code == 302
    survivor = _party(cast.case, PartyRole.SURVIVOR)
    assert survivor.full_name == "Renamed Survivor"  # the collected fields were saved
    assert survivor.phone == stored_phone  # the hidden one was neither changed nor wiped
    event = AuditEvent.objects.filter(action="party.update").latest("pk")
    # The name was changed; the hidden phone was not (the language fields the post left out
    # are the form's own and may be reset, which is not what this test is about).
    assert "full_name" in event.detail["fields"] and "phone" not in event.detail["fields"]

    stored_summary = Case.objects.get(pk=cast.case.pk).summary
    response = client.post(
        reverse("cases:edit", args=[cast.case.public_id]),
        {"reference": "CASE-1-MOVED", "summary": "overwritten", "version": 1},
    )
    assert response.status_code == 302
    case = Case.objects.get(pk=cast.case.pk)
    assert case.reference == "CASE-1-MOVED"
    assert case.summary == stored_summary
    assert AuditEvent.objects.filter(action="case.update").latest("pk").detail["fields"] == [
        "reference"
    ]

    # A blank field of a hidden kind does not wipe either: the field is not on the form at all.
    response = client.post(
        _party_url(cast.case, survivor),
        {"role": "survivor", "full_name": "Renamed Survivor", "phone": ""},
    )
    assert response.status_code == 302
    assert _party(cast.case, PartyRole.SURVIVOR).phone == stored_phone


def test_relabelled_fields_show_the_agency_label(cast, login):
    _configure(
        cast.agency,
        survivor_phone="Mobile, only if safe",
        other_date_of_birth="Their birthday",
        summary="Why they came to us",
    )
    client = login(cast.assigned)
    survivor = _party(cast.case, PartyRole.SURVIVOR)
    other = _party(cast.case, PartyRole.OTHER_PARTY)

    assert "Mobile, only if safe" in client.get(_party_url(cast.case, survivor)).content.decode()
    form = client.get(_party_url(cast.case, other)).content.decode()
    assert "Their birthday" in form
    assert "Mobile, only if safe" not in form  # another role's phone keeps its own label
    form = client.get(reverse("cases:edit", args=[cast.case.public_id])).content.decode()
    assert "Why they came to us" in form

    page = client.get(reverse("cases:detail", args=[cast.case.public_id])).content.decode()
    assert "Mobile, only if safe" in page
    assert "Their birthday" in page
    assert '<dt class="col-sm-3">Why they came to us</dt>' in page
    assert '<dt class="col-sm-3">Summary</dt>' not in page
    assert f"phone {canary(cast.case)}" in page  # relabelled, still shown


def test_hidden_fields_are_not_shown_on_the_case_page(cast, login):
    client = login(cast.assigned)
    url = reverse("cases:detail", args=[cast.case.public_id])
    page = client.get(url).content.decode()
    assert f"phone {canary(cast.case)}" in page
    assert f"summary {canary(cast.case)}" in page

    _configure(cast.agency, survivor_phone="hidden", summary="hidden")
    page = client.get(url).content.decode()
    assert f"phone {canary(cast.case)}" not in page
    assert f"summary {canary(cast.case)}" not in page
    assert "Not collected" in page
    assert "1990-01-01" in page  # the survivor's date of birth is still shown
    # Kept in the database (until a purge): collecting the field again shows it again.
    FieldSetting.objects.filter(agency=cast.agency).update(hidden=False)
    assert f"phone {canary(cast.case)}" in client.get(url).content.decode()


def test_another_agency_is_unaffected(cast, login):
    _configure(cast.agency, survivor_phone="hidden", summary="Why they came to us")
    client = login(cast.other_agency)
    case = cast.foreign_case
    survivor = _party(case, PartyRole.SURVIVOR)
    assert 'name="phone"' in client.get(_party_url(case, survivor)).content.decode()
    form = client.get(reverse("cases:edit", args=[case.public_id])).content.decode()
    assert 'name="summary"' in form
    assert "Why they came to us" not in form
    page = client.get(reverse("cases:detail", args=[case.public_id])).content.decode()
    assert f"phone {canary(case)}" in page
    assert '<dt class="col-sm-3">Summary</dt>' in page
    response = client.post(
        _party_url(case, survivor),
        {"role": "survivor", "full_name": survivor.full_name, "phone": "07700 900123"},
    )
    assert response.status_code == 302
    assert _party(case, PartyRole.SURVIVOR).phone == "07700 900123"


def test_adding_a_person_refuses_a_field_hidden_for_the_chosen_role(cast, login):
    _configure(cast.agency, other_date_of_birth="hidden")
    client = login(cast.assigned)
    url = reverse("cases:party_new", args=[cast.case.public_id])
    # The role is chosen on the same form: a child's date of birth is still collected.
    form = client.get(url).content.decode()
    assert 'name="date_of_birth"' in form
    assert "Not collected for: Other party." in form

    response = client.post(
        url, {"role": "other_party", "full_name": "New Other", "date_of_birth": "1980-02-02"}
    )
    assert response.status_code == 200
    assert "does not collect this for Other party" in response.content.decode()
    assert not Party.objects.filter(case=cast.case, role="other_party").exclude(
        pk=_party(cast.case, PartyRole.OTHER_PARTY).pk
    )

    response = client.post(url, {"role": "other_party", "full_name": "New Other"})
    assert response.status_code == 302
    response = client.post(
        url, {"role": "child", "full_name": "New Child", "date_of_birth": "2015-03-03"}
    )
    assert response.status_code == 302
    child = _party(cast.case, PartyRole.CHILD)
    assert child.date_of_birth == "2015-03-03"


def test_the_case_page_reads_the_field_settings_once(cast, login):
    _configure(cast.agency, survivor_phone="Mobile", summary="hidden")
    client = login(cast.assigned)
    url = reverse("cases:detail", args=[cast.case.public_id])
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    table = FieldSetting._meta.db_table
    assert sum(table in q["sql"] for q in captured.captured_queries) == 1


def test_a_hidden_field_never_leaves_in_a_pack_and_a_relabelled_one_keeps_its_label(cast):
    from caseflow.confidentiality.models import Category
    from caseflow.confidentiality.pack import build_sections

    categories = [Category.CONTACT, Category.NARRATIVES]
    text = str(build_sections(Case.objects.get(pk=cast.case.pk), categories))
    assert f"phone {canary(cast.case)}" in text and f"summary {canary(cast.case)}" in text

    _configure(cast.agency, survivor_phone="hidden", summary="Reason for referral")
    sections = build_sections(Case.objects.get(pk=cast.case.pk), categories)
    text = str(sections)
    # Stored before it was hidden, but the agency does not collect it: it does not leave.
    assert f"phone {canary(cast.case)}" not in text
    rows = dict(row for _, rows in sections for row in rows)
    assert rows["Reason for referral"] == f"summary {canary(cast.case)}"
    assert "Summary" not in rows
