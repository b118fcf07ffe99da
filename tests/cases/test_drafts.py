"""Drafts of long forms: kept on the server as the advocate types, encrypted, for their author
only, offered back, forgotten once the form is saved or after DRAFT_DAYS."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Draft

pytestmark = pytest.mark.django_db

TEXT = "Leave by the back door; sister Sam has the spare key."


def _url(case, key="safety-plan"):
    return reverse("cases:draft", args=[case.public_id, key])


def test_a_draft_is_kept_encrypted_and_offered_back_to_its_author_only(cast, login):
    client = login(cast.assigned)
    response = client.post(
        _url(cast.case), {"leaving": TEXT, "items": ["keys", "phone"], "csrfmiddlewaretoken": "x"}
    )
    assert response.status_code == 204
    with connection.cursor() as cur:
        cur.execute("SELECT data FROM cases_draft")
        (raw,) = cur.fetchone()
    assert "back door" not in raw
    kept = client.get(_url(cast.case))
    assert kept.status_code == 200 and kept["Cache-Control"].startswith("no-store")
    assert kept.json()["fields"] == {"leaving": [TEXT], "items": ["keys", "phone"]}
    save = AuditEvent.objects.get(action="draft.save")
    assert save.detail == {"form": "safety-plan", "fields": ["items", "leaving"]}
    assert AuditEvent.objects.filter(action="draft.view", case_id=cast.case.pk).exists()
    # The supervisor, who may edit the case, has no draft of their own and sees none.
    assert login(cast.supervisor).get(_url(cast.case)).status_code == 204


def test_saving_the_form_forgets_the_draft(cast, login):
    client = login(cast.assigned)
    client.post(_url(cast.case), {"home": TEXT})
    response = client.post(
        reverse("safety:plan_edit", args=[cast.case.public_id]),
        {"version": "0", "home": TEXT, "_draft": "safety-plan"},
    )
    assert response.status_code == 302
    assert not Draft.objects.exists()


def test_a_form_sent_back_with_errors_keeps_the_draft(cast, login):
    client = login(cast.assigned)
    client.post(_url(cast.case), {"home": TEXT})
    client.post(
        reverse("safety:plan_edit", args=[cast.case.public_id]),
        {"version": "not a number", "_draft": "safety-plan"},
    )
    assert Draft.objects.count() == 1


def test_discard_and_expiry(cast, login, settings):
    client = login(cast.assigned)
    client.post(_url(cast.case), {"home": TEXT})
    assert client.post(_url(cast.case), {"discard": "1"}).status_code == 204
    assert not Draft.objects.exists()
    assert AuditEvent.objects.filter(action="draft.discard").count() == 1
    client.post(_url(cast.case), {"home": TEXT})
    old = timezone.now() - dt.timedelta(days=settings.DRAFT_DAYS, minutes=1)
    Draft.objects.update(updated_at=old)
    assert client.get(_url(cast.case)).status_code == 204
    assert not Draft.objects.exists()


@pytest.mark.parametrize("key", ["Safety", "a" * 61, "x_y", "-lead"])
def test_a_bad_form_key_is_not_found(cast, login, key):
    assert login(cast.assigned).get(_url(cast.case, key)).status_code == 404


def test_a_runaway_draft_is_refused(cast, login):
    response = login(cast.assigned).post(_url(cast.case), {"home": "x" * 250_000})
    assert response.status_code == 413
    assert not Draft.objects.exists()


def test_outside_the_scope_there_is_no_draft(cast, login):
    assert login(cast.other_team).post(_url(cast.case), {"home": TEXT}).status_code == 404
    assert not Draft.objects.exists()


@pytest.mark.parametrize(
    ("url_name", "key"),
    [
        ("safety:plan_edit", "safety-plan"),
        ("casework:note_new", "note-new"),
        ("casework:incident_new", "incident-new"),
        ("agreements:new", "agreement-new"),
    ],
)
def test_the_long_forms_keep_drafts(cast, login, url_name, key):
    page = login(cast.assigned).get(reverse(url_name, args=[cast.case.public_id])).content.decode()
    assert f'data-draft-url="{_url(cast.case, key)}"' in page
    assert f'data-draft-key="{key}"' in page


def test_when_a_draft_was_kept_is_said_in_the_readers_language(cast, login):
    from caseflow.accounts.language import set_agency_language

    client = login(cast.assigned)
    client.post(_url(cast.case), {"leaving": TEXT, "csrfmiddlewaretoken": "x"})
    english = client.get(_url(cast.case)).json()["saved"]
    assert " on " in english
    set_agency_language(cast.agency.pk, "es")
    spanish = client.get(_url(cast.case)).json()["saved"]
    assert " on " not in spanish and " del " in spanish
    assert spanish[:5] == english[:5]  # the same time, 24-hour
