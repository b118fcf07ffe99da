"""Risk assessments through the service: scoring and bands of both shipped instruments, overrides,
the case's risk level, and what a high band sets in motion."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.utils import timezone

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case
from caseflow.inbox.models import FollowUp, FollowUpStatus, Notification
from caseflow.safety import services
from caseflow.safety.models import RiskAssessment
from tests import factories as f
from tests.conftest import Cast
from tests.safety.conftest import import_shipped

pytestmark = pytest.mark.django_db


def assess(cast: Cast, instrument, answers, **kw):
    return services.assessment_record(
        actor=kw.pop("actor", cast.assigned),
        case=kw.pop("case", cast.case),
        instrument=instrument,
        answers=answers,
        **kw,
    )


def yes_to(instrument, count: int) -> dict[str, bool]:
    items = instrument.instrument().items
    return {item.id: index < count for index, item in enumerate(items)}


@pytest.mark.parametrize(
    ("answers", "score", "band"),
    [
        ({"stalking": True, "isolation": True}, 5, "standard"),
        (
            {"abuse_escalating": True, "recent_separation": True, "threats_to_kill": True},
            10,
            "medium",
        ),
        (
            {"abuse_escalating": True, "threats_to_kill": True, "substance_misuse": False},
            7,
            "standard",
        ),
        # Strangulation escalates on its own: a score of 5 is high.
        ({"strangulation": True}, 5, "high"),
    ],
)
def test_sample_instrument_scores_and_bands(cast: Cast, sample, answers, score, band):
    assessment = assess(cast, sample, answers)
    assert (assessment.score, assessment.band, assessment.effective_band) == (score, band, band)
    cast.case.refresh_from_db()
    assert cast.case.risk_level == band


def test_sample_instrument_reaches_high_by_score(cast: Cast, sample):
    answers = {
        "abuse_escalating": True,  # 3
        "threats_to_kill": True,  # 4
        "stalking": True,  # 3
        "survivor_fears_serious_harm": True,  # 4
        "orders_ignored": True,  # 3
        "weapon_access": True,  # 2
        "isolation": False,
    }
    assert assess(cast, sample, answers).band == "medium"  # 19
    answers["isolation"] = True
    assert assess(cast, sample, answers).band == "high"  # 21


@pytest.mark.parametrize(
    ("yes", "band"),
    [(0, "standard"), (9, "standard"), (10, "medium"), (13, "medium"), (14, "high"), (24, "high")],
)
def test_dash_style_instrument_counts_yes_answers(cast: Cast, dash_style, yes, band):
    assessment = assess(cast, dash_style, {**yes_to(dash_style, yes), "q24": yes == 24})
    assert assessment.score == yes
    assert assessment.band == band


def test_an_agency_threshold_changes_the_band(cast: Cast, dash_style):
    own = import_shipped("example-dash-style.yaml", agency=cast.agency, thresholds={"high": 12})
    assert services.instruments_for(cast.agency.pk) == [own]
    assert assess(cast, own, yes_to(own, 12)).band == "high"
    # Another agency still gets the shared instrument and its own thresholds.
    assert services.instruments_for(cast.foreign_case.agency_id) == [dash_style]
    assert (
        assess(
            cast,
            dash_style,
            yes_to(dash_style, 12),
            case=cast.foreign_case,
            actor=cast.other_agency,
        ).band
        == "medium"
    )


def test_an_instrument_of_another_agency_cannot_be_used(cast: Cast):
    foreign = import_shipped("caseflow-sample.yaml", agency=cast.foreign_case.agency)
    with pytest.raises(PermissionDenied):
        assess(cast, foreign, {"stalking": True})
    assert not RiskAssessment.objects.exists()


def test_an_override_needs_a_reason_and_nothing_is_saved_without_one(cast: Cast, sample):
    for reason in ("", "   "):
        with pytest.raises(ValidationError, match="needs a reason"):
            assess(cast, sample, {"stalking": True}, override_band="high", override_reason=reason)
    assert not RiskAssessment.objects.exists()
    assert not FollowUp.objects.exists()
    cast.case.refresh_from_db()
    assert cast.case.risk_level == "unknown"


def test_an_override_with_a_reason_sets_the_case_risk_level(cast: Cast, sample):
    assessment = assess(
        cast,
        sample,
        {"strangulation": True},
        override_band="medium",
        override_reason="Other party is in custody until next year.",
    )
    assert (assessment.band, assessment.override_band, assessment.effective_band) == (
        "high",
        "medium",
        "medium",
    )
    cast.case.refresh_from_db()
    assert cast.case.risk_level == "medium"
    with connection.cursor() as cur:
        cur.execute("SELECT override_reason, answers FROM safety_riskassessment")
        reason, answers = cur.fetchone()
    assert "custody" not in reason and "strangulation" not in answers
    assert not FollowUp.objects.filter(kind="multi_agency_referral").exists()


def test_unknown_answers_are_refused(cast: Cast, sample):
    with pytest.raises(ValidationError):
        assess(cast, sample, {"not_an_item": True})
    assert not RiskAssessment.objects.exists()


def test_risk_level_change_is_audited_and_bumps_the_case_version(cast: Cast, sample):
    before = Case.objects.get(pk=cast.case.pk).version
    assess(
        cast, sample, {"abuse_escalating": True, "recent_separation": True, "threats_to_kill": True}
    )
    case = Case.objects.get(pk=cast.case.pk)
    assert case.version == before + 1
    event = AuditEvent.objects.get(action="case.update", case_id=case.pk)
    assert event.detail == {"fields": ["risk_level"], "source": "risk_assessment"}
    assessed = AuditEvent.objects.get(action="risk.assess")
    assert assessed.detail["override"] is False and "answers" not in assessed.detail
    # The same band again changes nothing on the case.
    assess(
        cast, sample, {"abuse_escalating": True, "recent_separation": True, "threats_to_kill": True}
    )
    assert Case.objects.get(pk=cast.case.pk).version == before + 1


@time_machine.travel(dt.datetime(2026, 2, 1, 12, tzinfo=dt.UTC), tick=False)
def test_high_band_opens_a_referral_and_tells_the_supervisors(cast: Cast, sample):
    f.staff(cast.agency, "supervisor", [cast.team2], username="elsewhere")
    assessment = assess(cast, sample, {"weapon_threat_to_kill": True})
    referral = FollowUp.objects.get(case=cast.case, kind="multi_agency_referral")
    assert referral.assignee == cast.assigned
    assert referral.source_key == f"assessment:{assessment.pk}:referral"
    notes = Notification.objects.filter(kind="risk_high")
    assert [n.recipient for n in notes] == [cast.supervisor]
    assert notes[0].text == "High risk assessed on case CASE-1: consider a multi-agency referral."
    assert "CANARY" not in notes[0].text


@time_machine.travel(dt.datetime(2026, 2, 1, 12, tzinfo=dt.UTC), tick=False)
def test_reassessment_follow_up_at_the_instrument_interval(cast: Cast, sample):
    first = assess(cast, sample, {"stalking": True})
    due = FollowUp.objects.get(source_key=f"assessment:{first.pk}:reassess")
    assert due.kind == "reassessment"
    assert due.due_at.date() == dt.date(2026, 5, 2)  # 90 days
    second = assess(cast, sample, {"stalking": True})
    due.refresh_from_db()
    assert due.status == FollowUpStatus.CANCELLED
    assert FollowUp.objects.get(source_key=f"assessment:{second.pk}:reassess").status == "open"


def test_a_high_band_brings_the_plan_review_forward(cast: Cast, sample):
    services.plan_save(actor=cast.assigned, case=cast.case, expected_version=0, content={})
    plan = services.plan_of(cast.case)
    assert plan.review_by == timezone.localdate() + dt.timedelta(days=30)
    assess(cast, sample, {"strangulation": True})
    plan.refresh_from_db()
    assert plan.review_by == timezone.localdate() + dt.timedelta(days=14)


def test_only_caseworkers_may_assess(cast: Cast, sample):
    for outsider in (cast.same_team, cast.auditor, cast.other_agency, cast.agency_admin):
        with pytest.raises(PermissionDenied):
            assess(cast, sample, {"stalking": True}, actor=outsider)
    assert not RiskAssessment.objects.exists()
