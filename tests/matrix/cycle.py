"""Matrix rows for what followed harm: marking is the case's "edit" (an empty POST re-renders the
form with its errors); the agency's own kinds are its agency admin's."""

from __future__ import annotations

from django.urls import reverse

from tests.agreements.helpers import log_event, london, make_agreement
from tests.casework.helpers import make_incident
from tests.matrix.base import Row, casework, expect


def _after_incident(cast, case):
    incident = make_incident(case, cast.assigned)
    return reverse("cycle:after_incident", args=[case.public_id, incident.public_id])


def _after_contact(cast, case):
    agreement = make_agreement(case, cast.assigned)
    event = log_event(agreement, cast.assigned, london(2025, 2, 3, 21, 0), channel="phone")
    return reverse("cycle:after_contact", args=[case.public_id, event.public_id])


ROWS: dict[str, Row] = {
    "cycle:after_incident": Row(
        GET=casework(200, 200), POST=casework(200, 200), url=_after_incident
    ),
    "cycle:after_contact": Row(GET=casework(200, 200), POST=casework(200, 200), url=_after_contact),
    "cycle:kinds": Row(GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200)),
}
