"""Matrix rows for casework URLs: reading is the case's "view"; notes "record_note" (the
caseworkers, and emergency access); incidents and changes "edit"."""

from django.urls import reverse

from tests.casework.helpers import checked, make_incident, make_note, pdf
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
}
