"""The demo shows transfers in use: one waiting in Hillview's decisions, one taken on there."""

from __future__ import annotations

import pytest

from caseflow.cases.models import CaseStatus
from caseflow.demo.seed import seed
from caseflow.transfers.models import Transfer, TransferState

pytestmark = pytest.mark.django_db


@pytest.mark.demo
def test_demo_seeds_one_transfer_waiting_and_one_taken_on():
    seed()
    assert Transfer.objects.filter(state=TransferState.REQUESTED).count() == 1
    accepted = Transfer.objects.get(state=TransferState.ACCEPTED)
    assert accepted.case.status == CaseStatus.CLOSED
    assert accepted.new_case.agency_id == accepted.receiving_agency_id
    assert accepted.new_case.agency_id != accepted.case.agency_id
