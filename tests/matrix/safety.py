"""Matrix rows for safety URLs: reading needs the case in scope ("view"), writing "edit"."""

import datetime as dt

from django.urls import reverse

from caseflow.safety import instruments as engine
from caseflow.safety import services
from caseflow.safety.models import HardDate, RiskAssessment, RiskInstrument, SafetyPlan
from tests.matrix.base import NOT_ALLOWED, Row, casework


def _sample_instrument() -> RiskInstrument:
    row = RiskInstrument.objects.filter(slug="caseflow-sample", agency__isnull=True).first()
    if row is None:
        definition = engine.load_instrument(engine.SHIPPED_DIR / "caseflow-sample.yaml")
        row, _ = services.instrument_import(definition=definition.to_dict())
    return row


def _plan_version_url(cast, case) -> str:
    if not SafetyPlan.objects.filter(case=case).exists():
        services.plan_save(
            actor=cast.assigned,
            case=case,
            expected_version=0,
            content={"home": "Matrix plan text."},
        )
    return reverse("safety:plan_version", args=[case.public_id, 1])


def _assessment_new_url(cast, case) -> str:
    return reverse("safety:assessment_new", args=[case.public_id, _sample_instrument().pk])


def _assessment_url(cast, case) -> str:
    assessment = RiskAssessment.objects.filter(case=case).first()
    if assessment is None:
        assessment = services.assessment_record(
            actor=cast.assigned,
            case=case,
            instrument=_sample_instrument(),
            answers={"stalking": True},
        )
    return reverse("safety:assessment", args=[case.public_id, assessment.public_id])


def _hard_date_url(cast, case) -> str:
    row = HardDate.objects.filter(case=case).first()
    if row is None:
        row = HardDate.objects.create(
            case=case,
            kind="anniversary",
            words="Matrix words",
            day=dt.date(2020, 3, 14),
            yearly=True,
            created_by=cast.assigned,
        )
    return reverse("safety:hard_date_remove", args=[case.public_id, row.public_id])


ROWS: dict[str, Row] = {
    "safety:plan": Row(GET=casework(200, 200), POST=NOT_ALLOWED, kwargs="case"),
    # An empty POST is an invalid form (no version): shown again, nothing saved.
    "safety:plan_edit": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "safety:plan_version": Row(GET=casework(200, 200), POST=NOT_ALLOWED, url=_plan_version_url),
    "safety:plan_diff": Row(GET=casework(200, 200), POST=NOT_ALLOWED, kwargs="case"),
    "safety:plan_review": Row(GET=NOT_ALLOWED, POST=casework(302, 302), kwargs="case"),
    "safety:plan_print": Row(GET=casework(200, 200), POST=NOT_ALLOWED, kwargs="case"),
    # An empty POST is a form error (no kind, no day): shown again, nothing saved.
    "safety:hard_date_new": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "safety:hard_date_remove": Row(GET=NOT_ALLOWED, POST=casework(302, 302), url=_hard_date_url),
    "safety:assessments": Row(GET=casework(200, 200), POST=NOT_ALLOWED, kwargs="case"),
    # An empty POST answers nothing: a form error, nothing saved.
    "safety:assessment_new": Row(
        GET=casework(200, 200), POST=casework(200, 200), url=_assessment_new_url
    ),
    "safety:assessment": Row(GET=casework(200, 200), POST=NOT_ALLOWED, url=_assessment_url),
}
