"""The transfer pages: a refusal is a message on the form and sends nothing; the receiving
supervisor's answer is checked on the form; a bad answer loses nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from caseflow.cases.models import CaseStatus
from caseflow.confidentiality.models import Category, Disclosure
from caseflow.transfers.models import Transfer, TransferState
from tests.confidentiality.helpers import fresh
from tests.conftest import canary
from tests.transfers.helpers import COVERED, receiving_supervisor, requested, transfer_release

pytestmark = pytest.mark.django_db


def test_no_release_is_refused_on_the_form(cast, login):
    rel = transfer_release(cast, recipient="Somebody Else")
    client = login(cast.assigned)
    response = client.post(
        reverse("transfers:request", args=[cast.case.public_id]),
        {
            "receiving_agency": cast.other_agency_team.agency.pk,
            "release": rel.public_id,
            "categories": COVERED,
        },
    )
    assert response.status_code == 200
    assert "does not cover this transfer" in response.content.decode()
    assert not Transfer.objects.exists()
    assert not Disclosure.objects.exists()


def test_bad_input_is_a_message_on_the_form(cast, login):
    client = login(cast.assigned)
    response = client.post(
        reverse("transfers:request", args=[cast.case.public_id]),
        {"receiving_agency": "999999", "release": "x" * 40, "categories": ["nope"]},
    )
    assert response.status_code == 200
    assert "Choose a service from the list." in response.content.decode()


def test_the_request_then_the_answer_through_the_pages(cast, login):
    receiver = receiving_supervisor(cast)
    rel = transfer_release(cast)
    client = login(cast.assigned)
    response = client.post(
        reverse("transfers:request", args=[cast.case.public_id]),
        {
            "receiving_agency": cast.other_agency_team.agency.pk,
            "release": rel.public_id,
            "categories": [Category.CONTACT, Category.RISK],
        },
    )
    assert response.status_code == 302
    transfer = Transfer.objects.get()
    client = login(receiver)
    assert client.get(reverse("transfers:incoming")).status_code == 200
    url = reverse("transfers:decide", args=[transfer.public_id])
    page = client.get(url).content.decode()
    assert f"Survivor {canary(cast.case)}" in page
    assert f"summary {canary(cast.case)}" not in page  # narratives did not go
    # Accepting without a team: a message, nothing done.
    response = client.post(url, {"decision": "accept"})
    assert "Choose the team that takes the case on." in response.content.decode()
    assert Transfer.objects.get().state == TransferState.REQUESTED
    response = client.post(url, {"decision": "accept", "team": cast.other_agency_team.pk})
    assert response.status_code == 302
    transfer.refresh_from_db()
    assert response["Location"] == reverse("cases:detail", args=[transfer.new_case.public_id])
    assert fresh(cast.case).status == CaseStatus.CLOSED
    # Asked again: already answered, nothing more opens.
    response = client.post(url, {"decision": "accept", "team": cast.other_agency_team.pk})
    assert response.status_code == 200
    assert Transfer.objects.get().new_case_id == transfer.new_case_id


def test_a_refusal_needs_its_reason(cast, login):
    receiver = receiving_supervisor(cast)
    transfer = requested(cast)
    client = login(receiver)
    url = reverse("transfers:decide", args=[transfer.public_id])
    response = client.post(url, {"decision": "refuse", "reason": "other"})
    assert "Say why the transfer is refused." in response.content.decode()
    response = client.post(url, {"decision": "refuse", "reason": "no_capacity"})
    assert response.status_code == 302
    assert Transfer.objects.get().state == TransferState.REFUSED
    client = login(cast.assigned)
    page = client.get(reverse("cases:detail", args=[cast.case.public_id])).content.decode()
    assert "We cannot take on new cases at the moment" in page
