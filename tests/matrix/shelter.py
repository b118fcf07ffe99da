"""Matrix rows for shelter URLs: the bed board, booking and turn-aways are for caseworkers
(advocates and supervisors, each in their own agency); the sites list is for supervisors and the
agency admin; adding sites, rooms and beds is the agency admin's; a stay is a case page (reading
is "view", ending it "edit")."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from caseflow.cases.models import new_public_id
from caseflow.shelter.models import Bed, Room, Site, Stay
from tests.matrix.base import NOT_ALLOWED, Row, casework, expect

CASEWORK_ROLES = dict(
    assigned=200, same_team=200, other_team=200, supervisor=200, other_supervisor=200,
    other_agency=200,
)  # fmt: skip


def _stay(cast, case) -> Stay:
    site = Site.objects.create(
        agency=case.agency, name=f"Matrix {new_public_id()}", address="1 Road"
    )
    room = Room.objects.create(agency=case.agency, site=site, name="Room")
    bed = Bed.objects.create(agency=case.agency, room=room, label="Bed")
    return Stay.objects.create(
        case=case,
        party=case.parties.filter(role="survivor").first(),
        bed=bed,
        starts_on=dt.date(2026, 1, 5),
        ends_on=dt.date(2026, 1, 9),
        booked_by=cast.assigned,
    )


def _stay_url(name):
    def build(cast, case):
        return reverse(name, args=[case.public_id, _stay(cast, case).public_id])

    return build


ROWS: dict[str, Row] = {
    "shelter:board": Row(GET=expect(403, **CASEWORK_ROLES), POST=NOT_ALLOWED),
    # An empty POST re-renders the form with its errors.
    "shelter:book": Row(GET=expect(403, **CASEWORK_ROLES), POST=expect(403, **CASEWORK_ROLES)),
    "shelter:turn_away": Row(GET=expect(403, **CASEWORK_ROLES), POST=expect(403, **CASEWORK_ROLES)),
    "shelter:sites": Row(
        GET=expect(403, supervisor=200, other_supervisor=200, agency_admin=200),
        POST=NOT_ALLOWED,
    ),
    "shelter:site_edit": Row(GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200)),
    "shelter:room_new": Row(GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200)),
    "shelter:bed_new": Row(GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200)),
    "shelter:stay": Row(GET=casework(200, 200), POST=NOT_ALLOWED, url=_stay_url("shelter:stay")),
    "shelter:stay_end": Row(
        GET=casework(200, 200), POST=casework(200, 200), url=_stay_url("shelter:stay_end")
    ),
}
