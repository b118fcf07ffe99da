"""The supervisor's "Decisions waiting": what waits for them, grouped by kind with counts and a link
to where each decision is made; and approving a high-risk closure with a reason."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from caseflow.audit.models import AuditEvent
from caseflow.cases import decisions, journey
from caseflow.cases.models import (
    AbuseChange,
    BreakGlassGrant,
    Case,
    CaseStatus,
    Closure,
    ClosureState,
    FeelsSafer,
    PlanExitCheck,
    RiskLevel,
    StandardClosureReason,
)
from tests import factories as f
from tests.conftest import Cast

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 11, 30, 10, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _pinned():
    with time_machine.travel(NOW, tick=False):
        yield


def _outcomes(case: Case) -> dict:
    return {
        "reason": journey.closure_reasons(case.agency_id).get(
            standard=StandardClosureReason.GOALS_MET
        ),
        "plan_check": PlanExitCheck.REVIEWED,
        "if_things_change": "Call the duty line.",
        "abuse_change": AbuseChange.REDUCED,
        "feels_safer": FeelsSafer.YES,
    }


def _high_closure(cast: Cast, case: Case | None = None) -> Closure:
    case = case or cast.case
    Case.objects.filter(pk=case.pk).update(risk_level=RiskLevel.HIGH)
    case.refresh_from_db()
    return journey.closure_submit(actor=cast.assigned, case=case, data=_outcomes(case))


def _grant(case: Case, user) -> BreakGlassGrant:
    return BreakGlassGrant.objects.create(
        case=case, user=user, reason="Duty line crisis call", expires_at=timezone.now()
    )


def _lowered(cast: Cast, case: Case) -> None:
    journey.risk_from_assessment(
        actor=cast.assigned,
        case=case,
        level=RiskLevel.HIGH,
        assessment_id=f"a{case.pk}",
        assessed_at=timezone.now() - dt.timedelta(days=2),
    )
    Case.objects.filter(pk=case.pk).update(risk_level=RiskLevel.HIGH)
    case.refresh_from_db()
    journey.risk_level_override(
        actor=cast.assigned, case=case, level=RiskLevel.MEDIUM, reason="Moved far away."
    )


def _totals(user) -> dict[str, int]:
    return {g.kind: g.total for g in decisions.decisions_waiting(user)}


def test_each_kind_is_counted_for_the_supervisor_of_the_team_only(cast: Cast):
    assert _totals(cast.supervisor) == {
        "closures": 0,
        "emergency": 0,
        "no_primary": 0,
        "lowered": 0,
        "transfers_in": 0,
    }
    _high_closure(cast)
    _grant(cast.case, cast.same_team)
    _grant(cast.team2_case, cast.same_team)  # another team's case: not this supervisor's
    orphan = f.open_case(cast.team1, [cast.deactivated], reference="ORPHAN-1")
    f.open_case(cast.team1, [], reference="NOBODY-1")
    lowered = f.open_case(cast.team1, [cast.assigned], reference="LOWERED-1")
    _lowered(cast, lowered)
    assert orphan.primary_advocate == cast.deactivated
    assert _totals(cast.supervisor) == {
        "closures": 1,
        "emergency": 1,
        "no_primary": 2,
        "lowered": 1,
        "transfers_in": 0,
    }
    assert _totals(cast.other_supervisor)["emergency"] == 1
    assert _totals(cast.other_supervisor)["closures"] == 0
    # Raised again by hand: no longer below the assessment, nothing waits.
    journey.risk_level_override(
        actor=cast.assigned, case=lowered, level=RiskLevel.HIGH, reason="Back up."
    )
    assert _totals(cast.supervisor)["lowered"] == 0


def test_a_closure_the_supervisor_asked_for_waits_for_another_supervisor(cast: Cast):
    Case.objects.filter(pk=cast.case.pk).update(risk_level=RiskLevel.HIGH)
    cast.case.refresh_from_db()
    journey.closure_submit(actor=cast.supervisor, case=cast.case, data=_outcomes(cast.case))
    assert _totals(cast.supervisor)["closures"] == 0


def test_the_dashboard_starts_with_decisions_waiting_linking_where_each_is_made(cast: Cast, login):
    _high_closure(cast)
    grant = _grant(cast.case, cast.same_team)
    f.open_case(cast.team1, [], reference="NOBODY-1")
    lowered = f.open_case(cast.team1, [cast.assigned], reference="LOWERED-1")
    _lowered(cast, lowered)
    page = login(cast.supervisor).get(reverse("dashboard")).content.decode()
    start = page.index("Decisions waiting")
    assert start < page.index('aria-labelledby="queue-h"')  # before the today queue
    section = page[start : page.index("</section>", start)]
    for link in (
        reverse("cases:closure", args=[cast.case.public_id]),
        reverse("audit:break_glass_review", args=[grant.pk]),
        reverse("cases:risk", args=[lowered.public_id]),
    ):
        assert link in section
    assert "NOBODY-1" in section and "LOWERED-1" in section
    # Metadata only: no names of staff or people, nothing typed.
    for words in ("Duty line", "Moved far away", cast.same_team.get_full_name() or "same_team"):
        assert words not in section
    # An advocate has no such section.
    assert (
        "Decisions waiting" not in login(cast.assigned).get(reverse("dashboard")).content.decode()
    )


def _count(client) -> int:
    client.get(reverse("dashboard"))
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse("dashboard")).status_code == 200
    return len(captured)


def test_the_decisions_cost_the_same_queries_whatever_their_number(cast: Cast, login):
    client = login(cast.supervisor)

    def grow(start: int, count: int) -> None:
        for n in range(start, start + count):
            case = f.open_case(cast.team1, [cast.assigned], reference=f"DEC-{n:03d}")
            _high_closure(cast, case)
            _grant(case, cast.same_team)
            f.open_case(cast.team1, [], reference=f"NONE-{n:03d}")
            _lowered(cast, f.open_case(cast.team1, [cast.assigned], reference=f"LOW-{n:03d}"))

    grow(0, 1)
    small = _count(client)
    grow(1, 14)
    large = _count(client)
    assert large == small, f"{small} queries with 1 of each, {large} with 15"
    totals = _totals(cast.supervisor)
    assert totals["closures"] == 15 and totals["lowered"] == 15
    page = client.get(reverse("dashboard")).content.decode()
    assert f"{decisions.SHOWN} of 15 shown" in page


# --- Approving a high-risk closure with a reason -------------------------------------------------


def test_approving_needs_a_reason_kept_on_the_form_when_missing(cast: Cast, login):
    closure = _high_closure(cast)
    client = login(cast.supervisor)
    url = reverse("cases:closure_decide", args=[cast.case.public_id])
    response = client.post(url, {"decision": "approve", "comment": "  "})
    assert response.status_code == 400
    assert "Give your reason for approving the closure." in response.content.decode()
    closure.refresh_from_db()
    assert closure.state == ClosureState.AWAITING_APPROVAL
    assert Case.objects.get(pk=cast.case.pk).status != CaseStatus.CLOSED


def test_the_reason_is_encrypted_audited_without_its_words_and_shown_afterwards(cast: Cast, login):
    closure = _high_closure(cast)
    client = login(cast.supervisor)
    url = reverse("cases:closure_decide", args=[cast.case.public_id])
    response = client.post(
        url, {"decision": "approve", "comment": "Plan reviewed with the refuge."}
    )
    assert response.status_code == 302
    closure.refresh_from_db()
    assert closure.state == ClosureState.CLOSED
    assert closure.decision_comment == "Plan reviewed with the refuge."
    with connection.cursor() as cur:
        cur.execute("SELECT decision_comment FROM cases_closure WHERE id = %s", [closure.pk])
        stored = cur.fetchone()[0]
    assert "refuge" not in str(stored)
    event = AuditEvent.objects.get(action="closure.approve", case_id=cast.case.pk)
    assert event.detail["fields"] == ["decision_comment"]
    assert "refuge" not in str(event.detail)
    page = client.get(reverse("cases:closure", args=[cast.case.public_id])).content.decode()
    assert "Closure approved" in page and "Plan reviewed with the refuge." in page


def _sent(run) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        run()
    return [q["sql"] for q in captured]


def _columns(rows_of_kinds) -> list[list[tuple]]:
    return [
        [(r.pk, r.total, getattr(r, "lowered_at", None)) for r in rows] for rows in rows_of_kinds
    ]


def test_a_supervisors_decisions_are_read_with_the_statements_the_querysets_send(cast: Cast):
    _high_closure(cast)
    _grant(cast.case, cast.same_team)
    f.open_case(cast.team1, [cast.deactivated], reference="ORPHAN-1")
    _lowered(cast, f.open_case(cast.team1, [cast.assigned], reference="LOWERED-1"))
    seen = []
    for user in (cast.supervisor, cast.other_supervisor):
        compiled_sql = _sent(lambda: decisions._rows(user))  # noqa: B023
        assert compiled_sql == _sent(lambda: decisions._built_rows(user))  # noqa: B023
        assert len(compiled_sql) == 4
        compiled = decisions._rows(user)
        assert _columns(compiled) == _columns(decisions._built_rows(user))
        seen += compiled
    assert all(seen[:4]) and not any(seen[4:])  # each kind waits for the first supervisor only
    # Whoever supervises nothing reads as before (nothing).
    assert _columns(decisions._rows(cast.assigned)) == [[], [], [], []]
