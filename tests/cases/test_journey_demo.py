"""The demo shows the survivor's journey in use: a survivor with two earlier episodes (a return
and a re-referral) and their outcomes, outcomes on the closed cases, a high-risk closure waiting
for a supervisor, a request to reopen another team's case, and every risk level's source."""

from __future__ import annotations

import pytest
from django.urls import reverse

from caseflow.cases.models import (
    Case,
    CaseStatus,
    Closure,
    ClosureReason,
    ClosureState,
    Episode,
    EpisodeStart,
    ReopenRequest,
    RiskLevel,
    RiskLevelChange,
)
from caseflow.casework.models import Need, NeedStatus
from caseflow.demo.seed import seed

pytestmark = pytest.mark.django_db


@pytest.mark.demo
def test_the_demo_shows_episodes_outcomes_and_approvals(login):
    seed()
    # Every case has its episodes.
    assert not Case.objects.filter(episodes__isnull=True).exists()
    returned = Episode.objects.filter(number=3, start=EpisodeStart.REREFERRAL).get()
    earlier = list(Episode.objects.filter(case=returned.case, number__lt=3).order_by("number"))
    assert [e.start for e in earlier] == [EpisodeStart.REFERRAL, EpisodeStart.RETURN]
    assert all(e.closure.state == ClosureState.CLOSED for e in earlier)
    # Every closed case was closed with a reason and outcomes.
    for case in Case.objects.filter(status=CaseStatus.CLOSED):
        closure = Closure.objects.filter(case=case, state=ClosureState.CLOSED).latest("closed_at")
        assert closure.abuse_change and closure.feels_safer and closure.plan_check
    assert Closure.objects.filter(state=ClosureState.CLOSED).count() >= 5
    # Some closures recorded which of the survivor's needs were met, and those needs are met.
    with_needs = Closure.objects.filter(state=ClosureState.CLOSED).exclude(needs_met=[])
    assert with_needs.exists()
    for closure in with_needs:
        met = Need.objects.filter(case=closure.case, public_id__in=closure.needs_met)
        assert met.count() == len(closure.needs_met)
        assert set(met.values_list("status", flat=True)) == {NeedStatus.MET}
    waiting = Closure.objects.get(state=ClosureState.AWAITING_APPROVAL)
    assert waiting.case.risk_level == RiskLevel.HIGH and waiting.case.status != CaseStatus.CLOSED
    assert ReopenRequest.objects.filter(state="open").count() == 1
    assert ClosureReason.objects.filter(standard="").count() == 1
    # Every assessed case says where its level comes from.
    for case in Case.objects.exclude(risk_level=RiskLevel.UNKNOWN):
        latest = RiskLevelChange.objects.filter(case=case).order_by("-at", "-pk").first()
        assert latest is not None and latest.level == case.risk_level, case.reference

    client = login(returned.case.primary_advocate)
    page = client.get(reverse("cases:journey", args=[returned.case.public_id]))
    body = page.content.decode()
    assert page.status_code == 200
    assert "Episode 3" in body and "Came back to the service" in body
    assert "The survivor&#x27;s choice" in body
