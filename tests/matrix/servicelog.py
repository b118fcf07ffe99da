"""Matrix rows for counting services: from a note, a stay or a hearing it is a case page that
changes the case ("edit"); from a call on no case, the call's readers (its logger and the
agency's supervisors); the catalogue is the agency admin's."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse
from django.utils import timezone

from caseflow.court.models import Hearing
from tests.casework.helpers import make_note
from tests.matrix.base import Row, casework, expect
from tests.matrix.calls import READERS, _call_url
from tests.matrix.shelter import _stay


def _in_case(name, make):
    def build(cast, case):
        return reverse(name, args=[case.public_id, make(cast, case).public_id])

    return build


def _hearing(cast, case):
    return Hearing.objects.create(
        case=case,
        court="Matrix Court",
        kind="protection_order",
        starts_at=timezone.now() - dt.timedelta(days=2),
        created_by=cast.assigned,
    )


CASEWORK = casework(200, 200)

# An empty POST re-renders the form with its errors.
ROWS: dict[str, Row] = {
    "servicelog:from_note": Row(
        GET=CASEWORK,
        POST=CASEWORK,
        url=_in_case("servicelog:from_note", lambda cast, case: make_note(case, cast.assigned)),
    ),
    "servicelog:from_stay": Row(
        GET=CASEWORK, POST=CASEWORK, url=_in_case("servicelog:from_stay", _stay)
    ),
    "servicelog:from_hearing": Row(
        GET=CASEWORK, POST=CASEWORK, url=_in_case("servicelog:from_hearing", _hearing)
    ),
    "servicelog:from_call": Row(
        GET=READERS, POST=READERS, kwargs="call", url=_call_url("servicelog:from_call")
    ),
    "servicelog:categories": Row(
        GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200)
    ),
}
