"""An agency's field settings reach notes and incidents: a field it does not collect is not
asked for, not shown and never leaves in a pack or export; a relabelled one shows its label."""

from __future__ import annotations

import pytest
from django.urls import reverse

from caseflow.cases import timeline
from caseflow.cases.models import FieldSetting, IntakeField
from caseflow.casework.models import Incident
from caseflow.confidentiality.models import Category
from caseflow.confidentiality.pack import category_rows
from tests.casework.helpers import make_incident, make_note

pytestmark = pytest.mark.django_db

FORM = {
    "kinds": ["physical"],
    "occurred_on": "2025-03-02",
    "occurred_time": "21:15",
    "date_confirmed": "2025-03-02T21:15",
    "person": "other_party",
    "what_happened": "Pushed her.",
    "police": "yes",
    "police_reference": "REF-999",
    "witnesses": "The neighbour",
}


def _hide(cast, *fields):
    for field in fields:
        FieldSetting.objects.create(agency=cast.agency, field=field, hidden=True)


def test_incidents_leave_in_the_evidence_and_notes_in_the_narratives(cast):
    make_incident(cast.case, cast.assigned, police="yes", police_reference="REF-1", witnesses="Sam")
    make_note(cast.case, cast.assigned, text="Called about the handover.")
    case = type(cast.case).objects.get(pk=cast.case.pk)
    evidence = " ".join(v for _, v in category_rows(case, Category.EVIDENCE))
    assert "Messages all evening." in evidence and "REF-1" in evidence and "Sam" in evidence
    narratives = " ".join(v for _, v in category_rows(case, Category.NARRATIVES))
    assert "Called about the handover." in narratives and "20" in narratives


def test_a_hidden_field_is_not_asked_for_shown_or_sent(cast, login):
    incident = make_incident(
        cast.case, cast.assigned, police="yes", police_reference="REF-1", witnesses="Sam"
    )
    make_note(cast.case, cast.assigned)
    _hide(
        cast,
        IntakeField.INCIDENT_POLICE_REFERENCE,
        IntakeField.INCIDENT_WITNESSES,
        IntakeField.NOTE_DURATION,
    )
    client = login(cast.assigned)
    form = client.get(reverse("casework:incident_new", args=[cast.case.public_id])).content
    assert b'name="police_reference"' not in form and b'name="witnesses"' not in form
    assert (
        b'name="duration_minutes"'
        not in client.get(reverse("casework:note_new", args=[cast.case.public_id])).content
    )
    # A value posted anyway is ignored.
    client.post(reverse("casework:incident_new", args=[cast.case.public_id]), FORM)
    posted = Incident.objects.exclude(pk=incident.pk).get()
    posted.case = cast.case
    assert posted.police_reference == "" and posted.witnesses == ""
    # Values stored before the field was hidden are kept, but not shown or sent.
    page = client.get(
        reverse("casework:incident", args=[cast.case.public_id, incident.public_id])
    ).content.decode()
    assert "REF-1" not in page and "Sam" not in page
    case = type(cast.case).objects.get(pk=cast.case.pk)
    evidence = " ".join(v for _, v in category_rows(case, Category.EVIDENCE))
    assert "REF-1" not in evidence and "Sam" not in evidence and "Messages all evening." in evidence
    narratives = " ".join(v for _, v in category_rows(case, Category.NARRATIVES))
    assert "Minutes" not in narratives
    entries = timeline.page(cast.case, timeline.Query(kinds=frozenset({"note"}))).entries
    assert entries and all(label != "How long" for label, _ in entries[0].facts)
    incident.refresh_from_db()
    incident.case = cast.case
    assert incident.police_reference == "REF-1"


def test_a_relabelled_field_shows_the_agencys_label(cast, login):
    FieldSetting.objects.create(
        agency=cast.agency, field=IntakeField.INCIDENT_PLACE, label="Location (area only)"
    )
    page = (
        login(cast.assigned)
        .get(reverse("casework:incident_new", args=[cast.case.public_id]))
        .content.decode()
    )
    assert "Location (area only)" in page


def test_the_field_settings_page_offers_the_note_and_incident_fields(cast, login):
    page = login(cast.agency_admin).get(reverse("confidentiality:fields")).content.decode()
    assert "Do not collect: Police reference (incidents)" in page
    assert "The incident form, the incident" in page
