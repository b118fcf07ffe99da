"""Matrix rows for court URLs: a hearing is a case page (reading is "view", changing "edit")."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse
from django.utils import timezone

from caseflow.court.models import Hearing
from tests.matrix.base import NOT_ALLOWED, Row, casework


def _hearing_url(name, *, past: bool = False):
    def build(cast, case):
        hearing = Hearing.objects.create(
            case=case,
            court="Matrix Court",
            kind="protection_order",
            starts_at=timezone.now() + dt.timedelta(days=-2 if past else 5),
            created_by=cast.assigned,
        )
        return reverse(name, args=[case.public_id, hearing.public_id])

    return build


ROWS: dict[str, Row] = {
    # An empty POST re-renders the form with its errors.
    "court:hearing_new": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "court:hearing": Row(
        GET=casework(200, 200), POST=NOT_ALLOWED, url=_hearing_url("court:hearing")
    ),
    "court:hearing_change": Row(
        GET=casework(200, 200), POST=casework(200, 200), url=_hearing_url("court:hearing_change")
    ),
    "court:outcome": Row(
        GET=casework(200, 200),
        POST=casework(200, 200),
        url=_hearing_url("court:outcome", past=True),
    ),
    # An empty POST shows the checklist again (the page's own form always sends a field).
    "court:steps": Row(
        GET=casework(200, 200), POST=casework(200, 200), url=_hearing_url("court:steps")
    ),
}
