"""The case page's notes and incidents section."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.casework.helpers import make_incident, make_note

pytestmark = pytest.mark.django_db


def test_the_case_page_lists_the_latest_notes_and_incidents_with_links_to_record(cast, login):
    note = make_note(cast.case, cast.assigned)
    incident = make_incident(cast.case, cast.assigned, kinds=["physical"])
    body = login(cast.assigned).get(reverse("cases:detail", args=[cast.case.public_id]))
    page = body.content.decode()
    assert "Notes and incidents" in page
    assert reverse("casework:note", args=[cast.case.public_id, note.public_id]) in page
    assert reverse("casework:incident", args=[cast.case.public_id, incident.public_id]) in page
    assert "Serious" in page
    assert reverse("casework:note_new", args=[cast.case.public_id]) in page
    assert reverse("casework:incident_new", args=[cast.case.public_id]) in page


def test_an_empty_case_says_so(cast, login):
    page = login(cast.supervisor).get(reverse("cases:detail", args=[cast.case.public_id]))
    body = page.content.decode()
    assert "No notes yet." in body and "No incidents recorded." in body
