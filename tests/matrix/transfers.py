"""Matrix rows for transfers: asking for one is a page of the sending case (its supervisor or
primary advocate); the list of transfers in and the answer are the receiving agency's
supervisors' only (everyone else: 403 on the list, 404 on a transfer)."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse
from django.utils import timezone

from caseflow.cases.models import PartyRole
from caseflow.confidentiality.models import Disclosure, DisclosureKind, Release
from caseflow.confidentiality.services import recipient_index
from caseflow.transfers.models import Transfer, TransferState
from tests.matrix.base import NOT_ALLOWED, Row, casework, expect


def _incoming_url(cast, case) -> str:
    """A transfer of Agency B's case to Agency A, waiting (its risk level only goes: no canary
    of the sending case may show on the answer page)."""
    sending = cast.foreign_case
    transfer = Transfer.objects.filter(case=sending, state=TransferState.REQUESTED).first()
    if transfer is None:
        today = timezone.localdate()
        name = cast.agency.name
        release = Release.objects.create(
            case=sending,
            consenting_party=sending.parties.get(role=PartyRole.SURVIVOR),
            recipient=name,
            recipient_index=recipient_index(name),
            purpose="Transfer",
            categories=["risk"],
            signed_on=today - dt.timedelta(days=1),
            expires_on=today + dt.timedelta(days=30),
        )
        disclosure = Disclosure.objects.create(
            case=sending,
            kind=DisclosureKind.TRANSFER,
            release=release,
            recipient=name,
            categories=["risk"],
            disclosed_on=today,
        )
        transfer = Transfer.objects.create(
            case=sending,
            receiving_agency=cast.agency,
            release=release,
            disclosure=disclosure,
            categories=["risk"],
            state=TransferState.REQUESTED,
            requested_by=cast.other_agency,
        )
    return reverse("transfers:decide", args=[transfer.public_id])


ROWS: dict[str, Row] = {
    # An empty POST re-renders the form with its errors.
    "transfers:request": Row(
        GET=casework(200, 200), POST=casework(200, 200), kwargs="case", reauth=("POST",)
    ),
    "transfers:external": Row(
        GET=casework(200, 200), POST=casework(200, 200), kwargs="case", reauth=("POST",)
    ),
    "transfers:incoming": Row(
        GET=expect(403, supervisor=200, other_supervisor=200), POST=NOT_ALLOWED
    ),
    "transfers:decide": Row(
        GET=expect(404, supervisor=200, other_supervisor=200),
        POST=expect(404, supervisor=200, other_supervisor=200),
        url=_incoming_url,
        kwargs="call",
    ),
}
