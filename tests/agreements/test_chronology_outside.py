"""The breach chronology given to someone outside the agency: only under a covering release or a
court order or subpoena recorded on the case, and the audit names which one. Internal use is as
it was."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from caseflow.audit.models import AuditEvent
from caseflow.confidentiality import services as conf
from caseflow.confidentiality.models import Category, Disclosure, DisclosureKind
from tests.agreements.helpers import london, make_agreement, record_breach
from tests.confidentiality.helpers import RECIPIENT, release

pytestmark = pytest.mark.django_db

COURT_REF = "FAM-CHRONO-REF"


@pytest.fixture
def agreement(cast):
    agreement = make_agreement(cast.case, cast.assigned)
    agreement.court = "County Court"
    agreement.court_reference = COURT_REF
    agreement.save()
    record_breach(agreement, cast.assigned, london(2025, 2, 4, 22, 0))
    return agreement


def _url(cast, agreement, case=None):
    case = case or cast.case
    return reverse("confidentiality:chronology_share", args=[case.public_id, agreement.public_id])


def _post(client, cast, agreement, **over):
    data = {
        "audience": "outside",
        "recipient": RECIPIENT,
        "release": "",
        "order": "",
        "fmt": "html",
    }
    data.update(over)
    return client.post(_url(cast, agreement), data)


def _exports():
    return AuditEvent.objects.filter(action="agreement.chronology.export")


def _order(cast):
    return conf.compelled_record(
        actor=cast.assigned,
        case=cast.case,
        kind="court_order",
        received_on=timezone.localdate() - dt.timedelta(days=2),
        issuer="Family Court",
        reference="ORDER-1",
        demanded="The breach chronology",
        recipient="Family Court",
        categories=["evidence"],
        disclosed_on=timezone.localdate(),
    )


def test_internal_use_is_as_before(cast, login, agreement):
    client = login(cast.assigned)
    response = client.post(_url(cast, agreement), {"audience": "internal", "fmt": "html"})
    assert response.status_code == 302
    assert response.url == reverse(
        "agreements:chronology", args=[cast.case.public_id, agreement.public_id]
    )
    page = client.get(response.url).content.decode()
    assert "For the agency's internal file" in page
    assert COURT_REF in page
    assert _exports().last().detail["audience"] == "internal"
    assert not Disclosure.objects.filter(kind=DisclosureKind.CHRONOLOGY).exists()


def test_outside_without_release_or_order_is_a_form_error(cast, login, agreement):
    response = _post(login(cast.assigned), cast, agreement)
    assert response.status_code == 200
    assert "choose either the consent" in response.content.decode()
    assert not _exports().exists()


def test_outside_without_a_covering_release_is_refused_and_audited(cast, login, agreement):
    rel = release(cast, categories=[Category.EVIDENCE])  # not the court order
    response = _post(login(cast.assigned), cast, agreement, release=rel.public_id)
    body = response.content.decode()
    assert "Refused: the chronology holds" in body
    assert "Called repeatedly." not in body
    assert not _exports().exists()
    refusal = AuditEvent.objects.filter(action="disclosure.refused").last()
    assert refusal.detail["reason"] == "category_not_covered"
    assert refusal.detail["kind"] == "chronology"
    assert not Disclosure.objects.filter(kind=DisclosureKind.CHRONOLOGY).exists()


def test_outside_to_another_recipient_is_refused(cast, login, agreement):
    rel = release(cast, categories=[Category.EVIDENCE, Category.COURT_ORDERS])
    response = _post(
        login(cast.assigned), cast, agreement, release=rel.public_id, recipient="Someone Else"
    )
    assert "Refused" in response.content.decode()
    assert not _exports().exists()


def test_outside_under_a_covering_release_names_it_in_the_audit(cast, login, agreement):
    rel = release(cast, categories=[Category.EVIDENCE, Category.COURT_ORDERS])
    response = _post(login(cast.assigned), cast, agreement, release=rel.public_id)
    body = response.content.decode()
    assert response.status_code == 200
    assert "Called repeatedly." in body and f"Produced for {RECIPIENT}" in body
    disclosure = Disclosure.objects.get(kind=DisclosureKind.CHRONOLOGY)
    assert disclosure.release_id == rel.pk
    detail = _exports().get().detail
    assert detail["audience"] == "outside"
    assert detail["release"] == rel.pk and detail["order"] is None
    assert detail["disclosure"] == disclosure.pk
    assert RECIPIENT not in json.dumps(detail)


def test_outside_under_a_recorded_court_order_names_it_in_the_audit(cast, login, agreement):
    order = _order(cast)
    response = _post(login(cast.assigned), cast, agreement, order=str(order.pk), fmt="csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == (
        f'attachment; filename="chronology-{agreement.public_id[:8]}.csv"'
    )
    assert "Called repeatedly." in response.content.decode()
    detail = _exports().get().detail
    assert detail["audience"] == "outside" and detail["format"] == "csv"
    assert detail["order"] == order.pk and detail["release"] is None
    assert Disclosure.objects.get(kind=DisclosureKind.CHRONOLOGY).order_id == order.pk


def test_another_cases_order_or_release_cannot_be_used(cast, login, agreement):
    foreign = release(cast, cast.team2_case, categories=[Category.EVIDENCE, Category.COURT_ORDERS])
    client = login(cast.assigned)
    response = _post(client, cast, agreement, release=foreign.public_id)
    assert "Refused" in response.content.decode()
    response = _post(client, cast, agreement, order="999999")
    assert "Select a valid choice" in response.content.decode()
    assert not _exports().exists()
    assert not Disclosure.objects.filter(kind=DisclosureKind.CHRONOLOGY).exists()


def test_the_share_page_is_an_audited_read_and_needs_edit(cast, login, agreement):
    client = login(cast.assigned)
    before = AuditEvent.objects.filter(action="agreement.view").count()
    assert client.get(_url(cast, agreement)).status_code == 200
    assert AuditEvent.objects.filter(action="agreement.view").count() == before + 1
    from caseflow.cases.services import break_glass_open

    break_glass_open(actor=cast.same_team, reference=cast.case.reference, reason="duty line")
    assert login(cast.same_team).get(_url(cast, agreement)).status_code == 403
