"""Matrix rows for community work: the education page and the outcome survey page are for the
people who work cases (advocates and supervisors, each in their own agency); an empty POST
re-renders the form with its errors. A session recorded by mistake (here by ``assigned``) is
removed by its recorder or one of the agency's supervisors; to anyone else who works cases it
is not there (404). Taking back one's last survey is anyone's who counts them (with none to
take back, it says so)."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from caseflow.community.models import EducationSession
from tests.matrix.base import CASEWORKERS_ONLY, NOT_ALLOWED, Row, expect


def _session_url(name):
    def build(cast, case):
        session = EducationSession.objects.create(
            agency=cast.agency,
            held_on=dt.date(2026, 3, 3),
            kind="talk",
            audience="adults",
            participants=12,
            recorded_by=cast.assigned,
        )
        return reverse(name, args=[session.public_id])

    return build


CASEWORKERS = expect(403, **CASEWORKERS_ONLY)
REDIRECTED = expect(403, **{actor: 302 for actor in CASEWORKERS_ONLY})

ROWS: dict[str, Row] = {
    "community:education": Row(GET=CASEWORKERS, POST=CASEWORKERS),
    "community:session_remove": Row(
        GET=NOT_ALLOWED,
        POST=expect(
            403,
            **{
                **{actor: 404 for actor in CASEWORKERS_ONLY},
                **dict(assigned=302, supervisor=302, other_supervisor=302),
            },
        ),
        kwargs="call",
        url=_session_url("community:session_remove"),
    ),
    "community:surveys": Row(GET=CASEWORKERS, POST=CASEWORKERS),
    "community:survey_take_back": Row(GET=NOT_ALLOWED, POST=REDIRECTED),
}
