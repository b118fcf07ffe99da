import datetime as dt
import random

import pytest
import time_machine

from caseflow.cases import evidence as files
from caseflow.cases import services as case_services
from caseflow.cases.models import RiskLevel
from caseflow.casework import demo
from caseflow.casework.models import CaseNote, Evidence, Incident, NoteAmendment
from caseflow.demo.seed import DemoContext
from caseflow.inbox.models import FollowUp, Notification

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2025, 6, 4, 12, 0, tzinfo=dt.UTC)


def test_the_generated_media_are_accepted_evidence():
    assert files.check_file("a.png", demo.demo_png()).content_type == "image/png"
    assert files.check_file("a.pdf", demo.demo_pdf()).content_type == "application/pdf"
    assert files.check_file("a.wav", demo.demo_wav()).family == "audio"


@time_machine.travel(NOW, tick=False)
def test_demo_fills_the_high_risk_cases_with_months_of_notes_and_incidents(cast):
    for case in (cast.case, cast.team2_case):
        case.risk_level = RiskLevel.HIGH
        case.save(update_fields=["risk_level"])
    case_services.break_glass_open(
        actor=cast.same_team, reference=cast.case.reference, reason="Duty line"
    )
    context = DemoContext(
        rng=random.Random(3),
        cases=[cast.case, cast.team2_case, cast.restricted_case],
        staff={},
        now=NOW,
    )
    demo.seed_demo(context)
    for case in (cast.case, cast.team2_case):
        notes = CaseNote.objects.filter(case=case)
        assert notes.count() >= demo.MONTHS * 5
        span = (
            notes.order_by("occurred_at").last().occurred_at
            - notes.earliest("occurred_at").occurred_at
        )
        assert span > dt.timedelta(days=120)
        assert Incident.objects.filter(case=case, serious=True).exists()
        families = set(Evidence.objects.filter(case=case).values_list("family", flat=True))
        assert families == {"image", "pdf", "audio"}
        assert NoteAmendment.objects.filter(case=case).count() == 1
        assert FollowUp.objects.filter(case=case, kind="incident_risk_review").exists()
    assert not CaseNote.objects.filter(case=cast.restricted_case).exists()
    assert CaseNote.objects.filter(break_glass__isnull=False).count() == 1
    assert Notification.objects.filter(kind="incident_escalation").exists()
    assert not CaseNote.objects.filter(occurred_at__gt=NOW).exists()
    assert not Incident.objects.filter(occurred_at__gt=NOW).exists()


@time_machine.travel(NOW, tick=False)
def test_demo_records_needs_at_every_status_with_goals_and_services(cast):
    from caseflow.casework.models import Goal, Need, NeedStatusChange, Service

    context = DemoContext(
        rng=random.Random(3),
        cases=[cast.case, cast.team2_case, cast.restricted_case],
        staff={},
        now=NOW,
    )
    demo.seed_needs(context)
    # The restricted case is left alone; the others hold needs at every status.
    assert not Need.objects.filter(case=cast.restricted_case).exists()
    assert set(Need.objects.values_list("status", flat=True)) == {
        "identified",
        "in_progress",
        "met",
        "no_longer_needed",
    }
    assert NeedStatusChange.objects.count() > Need.objects.count()
    assert Goal.objects.filter(target_date__isnull=False).exists()
    assert Goal.objects.filter(status="achieved").exists()
    assert set(Service.objects.values_list("how", flat=True)) == {"given", "referred"}
