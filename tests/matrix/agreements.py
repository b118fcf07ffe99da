"""Matrix rows for agreements URLs: reading is the case's "view", writing its "edit"."""

from django.urls import reverse

from tests.agreements.helpers import add_evidence, log_event, london, make_agreement
from tests.matrix.base import NOT_ALLOWED, Row, casework


def _agreement(cast, case):
    return make_agreement(case, cast.assigned)


def _agreement_url(name):
    def build(cast, case):
        agreement = _agreement(cast, case)
        return reverse(name, args=[case.public_id, agreement.public_id])

    return build


def _review_url(cast, case):
    agreement = _agreement(cast, case)
    event = log_event(agreement, cast.assigned, london(2025, 2, 3, 21, 0), channel="phone")
    return reverse("agreements:review", args=[case.public_id, agreement.public_id, event.public_id])


def _evidence_url(cast, case, name="agreements:evidence"):
    evidence = add_evidence(_agreement(cast, case), cast.assigned)
    return reverse(name, args=[case.public_id, evidence.public_id])


def _evidence_view_url(cast, case):
    return _evidence_url(cast, case, "agreements:evidence_view")


ROWS: dict[str, Row] = {
    "agreements:list": Row(GET=casework(200, 200), POST=NOT_ALLOWED, kwargs="case"),
    "agreements:new": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "agreements:detail": Row(
        GET=casework(200, 200), POST=NOT_ALLOWED, url=_agreement_url("agreements:detail")
    ),
    "agreements:edit": Row(
        GET=casework(200, 200), POST=casework(200, 200), url=_agreement_url("agreements:edit")
    ),
    "agreements:status": Row(
        GET=NOT_ALLOWED, POST=casework(302, 302), url=_agreement_url("agreements:status")
    ),
    "agreements:versions": Row(
        GET=casework(200, 200), POST=NOT_ALLOWED, url=_agreement_url("agreements:versions")
    ),
    "agreements:event_new": Row(
        GET=casework(200, 200), POST=casework(200, 200), url=_agreement_url("agreements:event_new")
    ),
    "agreements:review": Row(GET=casework(200, 200), POST=casework(200, 200), url=_review_url),
    "agreements:chronology": Row(
        GET=casework(200, 200), POST=NOT_ALLOWED, url=_agreement_url("agreements:chronology")
    ),
    "confidentiality:chronology_share": Row(
        GET=casework(200, 200),
        POST=casework(200, 200),
        url=_agreement_url("confidentiality:chronology_share"),
        reauth=("POST",),
    ),
    "agreements:chronology_csv": Row(
        GET=casework(200, 200),
        POST=NOT_ALLOWED,
        url=_agreement_url("agreements:chronology_csv"),
        reauth=("GET",),
    ),
    "agreements:evidence": Row(
        GET=casework(200, 200), POST=NOT_ALLOWED, url=_evidence_url, reauth=("GET",)
    ),
    "agreements:evidence_view": Row(
        GET=casework(200, 200), POST=NOT_ALLOWED, url=_evidence_view_url
    ),
}
