"""The demo shows integrations in use: registered, one revoked, a referral received from the
hotline waiting for the North team, and the on-call system's deliveries on the admin's page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from caseflow.accounts.models import User
from caseflow.api.models import Integration, WebhookDelivery
from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case, CaseStatus
from caseflow.demo import seed


@pytest.mark.demo
def test_demo_shows_integrations_in_use(db, login):
    seed.seed()
    names = set(Integration.objects.values_list("name", flat=True))
    assert {"County hotline platform", "State coalition data system", "Old website form"} <= names
    hotline = Integration.objects.get(name="County hotline platform")
    opened = AuditEvent.objects.filter(action="case.create", actor=hotline.account)
    referral = Case.objects.get(pk__in=opened.values("case_id"))
    assert (referral.status, referral.primary_advocate, referral.team) == (
        CaseStatus.REFERRAL,
        None,
        hotline.team,
    )
    assert WebhookDelivery.objects.filter(kind="referral.received").count() == 1
    page = login(User.objects.get(username="ada.admin")).get(reverse("integrations:list"))
    assert page.status_code == 200
    body = page.content.decode()
    assert "County hotline platform" in body
    assert "https://on-call.demo.invalid/caseflow" in body


@pytest.mark.demo
def test_demo_shows_a_co_parenting_apps_export_recorded(db):
    from caseflow.agreements.models import ContactEvent, ReviewState
    from caseflow.api.models import ImportedContact

    seed.seed()
    app = Integration.objects.get(name="Co-parenting app export")
    imported = ImportedContact.objects.filter(integration=app)
    assert imported.count() == 3
    events = ContactEvent.objects.filter(pk__in=imported.values("event_id"))
    assert {e.logged_by_id for e in events} == {app.account_id}
    reviews = sorted(events.values_list("review", flat=True))
    assert reviews.count(ReviewState.PENDING) == 2
    assert set(reviews) - {ReviewState.PENDING} <= {
        ReviewState.SURVIVOR_WITHIN,
        ReviewState.SURVIVOR_OUTSIDE,
    }
    assert AuditEvent.objects.filter(action="api.contacts.write", actor=app.account).exists()
