"""Matrix rows for casework URLs: reading is the case's "view"; notes "record_note" (the
caseworkers, and emergency access); incidents and changes "edit"."""

from django.urls import reverse

from tests.casework.helpers import (
    checked,
    make_goal,
    make_incident,
    make_need,
    make_note,
    make_service,
    pdf,
)
from tests.matrix.base import NOT_ALLOWED, Row, casework


def _note_url(name):
    def build(cast, case):
        note = make_note(case, cast.assigned)
        return reverse(name, args=[case.public_id, note.public_id])

    return build


def _incident_url(cast, case, name="casework:incident"):
    incident = make_incident(case, cast.assigned)
    return reverse(name, args=[case.public_id, incident.public_id])


def _incident_evidence_url(cast, case):
    return _incident_url(cast, case, "casework:incident_evidence")


def _evidence_url(name):
    def build(cast, case):
        incident = make_incident(case, cast.assigned, evidence=[checked("report.pdf", pdf())])
        evidence = incident.evidence.get()
        return reverse(name, args=[case.public_id, evidence.public_id])

    return build


def _need_url(name):
    def build(cast, case):
        need = make_need(case, cast.assigned)
        return reverse(name, args=[case.public_id, need.public_id])

    return build


def _goal_change_url(cast, case):
    goal = make_goal(case, cast.assigned)
    return reverse("casework:goal_change", args=[case.public_id, goal.public_id])


def _service_change_url(cast, case):
    service = make_service(case, cast.assigned)
    return reverse("casework:service_change", args=[case.public_id, service.public_id])


ROWS: dict[str, Row] = {
    "casework:note_new": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "casework:note": Row(GET=casework(200, 200), POST=NOT_ALLOWED, url=_note_url("casework:note")),
    # The author edits; the supervisor may only amend (with a reason): both see the form.
    "casework:note_change": Row(
        GET=casework(200, 200), POST=casework(200, 200), url=_note_url("casework:note_change")
    ),
    "casework:incident_new": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "casework:incident": Row(GET=casework(200, 200), POST=NOT_ALLOWED, url=_incident_url),
    # A POST without files re-renders the form with its error.
    "casework:incident_evidence": Row(
        GET=casework(200, 200), POST=casework(200, 200), url=_incident_evidence_url
    ),
    "casework:evidence_file": Row(
        GET=casework(200, 200), POST=NOT_ALLOWED, url=_evidence_url("casework:evidence_file")
    ),
    "casework:evidence_download": Row(
        GET=casework(200, 200),
        POST=NOT_ALLOWED,
        url=_evidence_url("casework:evidence_download"),
        reauth=("GET",),
    ),
    # Needs, goals and services: read with the case, written by whoever may edit it. A POST
    # without data re-renders the form with its errors.
    "casework:needs": Row(GET=casework(200, 200), POST=NOT_ALLOWED, kwargs="case"),
    "casework:need_new": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "casework:need": Row(GET=casework(200, 200), POST=NOT_ALLOWED, url=_need_url("casework:need")),
    "casework:need_change": Row(
        GET=casework(200, 200), POST=casework(200, 200), url=_need_url("casework:need_change")
    ),
    "casework:need_status": Row(
        GET=casework(200, 200), POST=casework(200, 200), url=_need_url("casework:need_status")
    ),
    "casework:goal_new": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "casework:goal_change": Row(
        GET=casework(200, 200), POST=casework(200, 200), url=_goal_change_url
    ),
    "casework:service_new": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "casework:service_change": Row(
        GET=casework(200, 200), POST=casework(200, 200), url=_service_change_url
    ),
}
