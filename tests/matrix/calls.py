"""Matrix rows for the duty line's calls. Logging and the list: the people who work cases, in
any agency (each sees their own agency's calls). A call on no case (logged by ``assigned``):
its logger and the agency's supervisors read it and may take it on; everyone else is out of
reach (404). Calls on a case follow the case (tests/calls/test_views.py)."""

from __future__ import annotations

from django.urls import reverse

from caseflow.calls.models import Call
from tests.matrix.base import CASEWORKERS_ONLY, NOT_ALLOWED, Row, expect


def _call_url(name):
    def build(cast, case):
        call = Call(
            agency=cast.agency,
            caller_kind="survivor",
            needs=["housing"],
            caller_name="Matrix Caller",
            notes="Matrix note",
            logged_by=cast.assigned,
        )
        call.save()
        return reverse(name, args=[call.public_id])

    return build


LOGGERS = expect(403, **CASEWORKERS_ONLY)
READERS = expect(404, assigned=200, supervisor=200, other_supervisor=200)

ROWS: dict[str, Row] = {
    "calls:list": Row(GET=LOGGERS, POST=NOT_ALLOWED),
    # An empty POST re-renders the form with its errors.
    "calls:new": Row(GET=LOGGERS, POST=LOGGERS),
    "calls:detail": Row(
        GET=READERS, POST=NOT_ALLOWED, kwargs="call", url=_call_url("calls:detail")
    ),
    "calls:open_case": Row(
        GET=READERS, POST=READERS, kwargs="call", url=_call_url("calls:open_case")
    ),
    "calls:attach": Row(GET=READERS, POST=READERS, kwargs="call", url=_call_url("calls:attach")),
}
