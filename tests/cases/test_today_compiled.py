"""The advocate's today queue runs SQL compiled once per process for each number of listed cases,
and the case page's facts query SQL compiled once per process: the very statements, and so the
very queue and facts, that building their querysets anew gives."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from caseflow import policy
from caseflow.agreements import today as agreements_today
from caseflow.assistance import today as assistance_today
from caseflow.cases import journey, selectors, today
from caseflow.cases.models import Case, CaseStatus, RiskLevel
from caseflow.cases.panels import panel_facts
from caseflow.checkins import today as checkins_today
from caseflow.checkins.models import CheckIn, CheckInStatus
from caseflow.court import today as court_today
from caseflow.inbox.models import FollowUp, FollowUpStatus
from caseflow.partners import today as partners_today
from caseflow.safety import today as safety_today

pytestmark = pytest.mark.django_db

H = dt.timedelta(hours=1)

LISTED = {
    "checkins": (checkins_today._OWN_CHECKINS, {"user": 0, "day_end": 1, "since": -30}),
    "followups": (checkins_today._OWN_FOLLOWUPS, {"user": 0, "day_end": 1}),
    "followups_done": (checkins_today._RECENTLY_DONE, {"user": 0, "since": -1}),
    "contact_reviews": (agreements_today._REVIEWS, {"logged_before": 0}),
    "safety_plans": (safety_today._OWN_PLANS, {"user": 0}),
    "court_coming": (court_today._COMING, {"now": 0, "until": 4}),
    "court_unrecorded": (court_today._UNRECORDED, {"now": 0, "since": -30}),
}


def _values(cast, spec: dict[str, int], now: dt.datetime) -> dict:
    """A source's values: the advocate for ``user``, ``now`` moved by so many days else."""
    return {
        name: cast.assigned.pk if name == "user" else now + dt.timedelta(days=days)
        for name, days in spec.items()
    }


@pytest.mark.parametrize("source", sorted(LISTED))
def test_each_listed_source_sends_the_statement_its_queryset_compiles(cast, source):
    query, spec = LISTED[source]
    now = timezone.now()
    values = _values(cast, spec, now)
    for ids in ([cast.case.pk], [cast.case.pk, cast.restricted_case.pk, cast.team2_case.pk]):
        built = query.build(cases=Case.objects.filter(pk__in=ids), **values)
        compiled = query._compiled(len(ids))
        assert compiled is not None
        cases = {f"case_{n}": pk for n, pk in enumerate(ids)}
        assert compiled.sql(**values, **cases) == built.query.get_compiler("default").as_sql()


def test_the_meeting_actions_of_their_owner_send_the_statement_the_scope_builds(cast):
    today_ = timezone.localdate()
    for user in (cast.assigned, cast.supervisor):
        found = policy.visible_cases_values(user)
        assert found is not None
        supervisor, values = found
        with time_machine.travel(values["now"], tick=False):  # the scope's "now"
            expected = partners_today._listed(
                partners_today._due(today_).filter(
                    owner=user,
                    case__in=policy.visible_cases(user).filter(status__in=partners_today.OPEN),
                )
            )
        compiled = partners_today._OWN[supervisor].sql(**values, today=today_)
        assert compiled == expected.query.get_compiler("default").as_sql()
    assert policy.visible_cases_values(cast.auditor) is None


def _work(cast, now: dt.datetime) -> None:
    """Something on most of the advocate's sources."""
    FollowUp.objects.create(
        case=cast.case, kind="task", due_at=now - 30 * H, assignee=cast.assigned
    )
    FollowUp.objects.create(case=cast.case, kind="task", due_at=now - 2 * H, assignee=cast.assigned)
    done = FollowUp.objects.create(
        case=cast.case, kind="task", due_at=now - 3 * H, assignee=cast.assigned
    )
    FollowUp.objects.filter(pk=done.pk).update(
        status=FollowUpStatus.DONE, done_by=cast.assigned, done_at=now - dt.timedelta(minutes=1)
    )
    for hours, status in ((2, CheckInStatus.MISSED), (-3, CheckInStatus.SCHEDULED)):
        CheckIn.objects.create(
            case=cast.case,
            channel="phone",
            due_at=now - hours * H,
            assignee=cast.assigned,
            status=status,
        )
    Case.objects.filter(pk=cast.case.pk).update(
        risk_level=RiskLevel.HIGH, primary_advocate=cast.assigned, status=CaseStatus.ACTIVE
    )


def _queue_and_sql(scope: today.Scope):
    with CaptureQueriesContext(connection) as captured:
        queue = today.queue(scope)
    return queue, [q["sql"] for q in captured]


def test_the_listed_queue_is_the_built_one_statement_for_statement(cast, monkeypatch):
    now = timezone.now()
    _work(cast, now)
    rows = list(selectors.my_open_cases(cast.assigned))
    assert cast.case.pk in {c.pk for c in rows}
    ids = [c.pk for c in rows]
    with time_machine.travel(now, tick=False):
        compiled, compiled_sql = _queue_and_sql(
            today.listed_scope(cast.assigned, ids, own_only=True, now=now)
        )
    assert all(query._by_size for query, _spec in LISTED.values())
    # With nothing kept compiled every source builds its queryset each time.
    for query, _spec in LISTED.values():
        monkeypatch.setattr(query, "_by_size", {})
    monkeypatch.setattr(today, "LISTED_SIZES_MAX", 0)
    with time_machine.travel(now, tick=False):
        built, built_sql = _queue_and_sql(
            today.listed_scope(cast.assigned, ids, own_only=True, now=now)
        )
        scoped = today.queue(
            today.scope_for(
                cast.assigned, selectors.my_open_case_set(cast.assigned), own_only=True, now=now
            )
        )
    assert not any(query._by_size for query, _spec in LISTED.values())
    assert compiled == built == scoped
    assert compiled_sql == built_sql
    kinds = {i.kind for i in compiled.overdue + compiled.today + compiled.recent}
    assert {"Check-in", "Follow-up", "Safety plan"} <= {str(k) for k in kinds}
    assert compiled.recent  # the follow-up just marked done


def test_listed_cases_are_sent_once_each_in_their_order(cast):
    scope = today.listed_scope(
        cast.assigned, [cast.case.pk, cast.restricted_case.pk, cast.case.pk], own_only=True
    )
    assert scope.listed == (cast.case.pk, cast.restricted_case.pk)
    assert list(scope.cases.order_by("pk").values_list("pk", flat=True)) == sorted(scope.listed)
    empty = today.listed_scope(cast.assigned, [], own_only=True)
    assert len(today.queue(empty)) == 0


def test_the_case_page_facts_send_the_statement_get_sends(cast, monkeypatch):
    annotations, related = panel_facts()
    annotations = {**annotations, **journey.case_facts()}
    cases = [Case.objects.get(pk=case.pk) for case in (cast.case, cast.team2_case)]
    with CaptureQueriesContext(connection) as compiled_sql:
        compiled = [selectors.case_page_facts(case, annotations, related) for case in cases]
    assert selectors._PAGE_FACTS  # kept compiled for this dictionary
    monkeypatch.setattr(selectors, "_PAGE_FACTS", {})
    monkeypatch.setattr(selectors, "_PAGE_FACTS_MAX", 0)
    cases = [Case.objects.get(pk=case.pk) for case in (cast.case, cast.team2_case)]
    with CaptureQueriesContext(connection) as built_sql:
        built = [selectors.case_page_facts(case, annotations, related) for case in cases]
    assert not selectors._PAGE_FACTS
    assert compiled == built
    assert [q["sql"] for q in compiled_sql] == [q["sql"] for q in built_sql]
    # The statement is the one ``get()`` sends for the same case.
    names = ("safe_contact", *related)
    with CaptureQueriesContext(connection) as got:
        (
            Case.objects.filter(pk=cast.case.pk)
            .select_related("key", *names)
            .annotate(**annotations)
            .only(
                "pk",
                "key__wrapped",
                *(f"{name}__{f}" for name in names for f in selectors._fields(name)),
            )
            .get()
        )
    assert got[0]["sql"] == compiled_sql[0]["sql"]


def _day(now: dt.datetime, days: int) -> dt.date:
    return (now + dt.timedelta(days=days)).date()


#: Each source's query for a supervisor's teams, with its values (days from now; a date for
#: ``today``; the supervisor for ``user``).
TEAMS = {
    "checkins": (checkins_today._TEAM_CHECKINS, {"day_end": 1, "since": -30}),
    "followups": (checkins_today._TEAM_FOLLOWUPS, {"day_end": 1}),
    "followups_done": (checkins_today._RECENTLY_DONE, {"user": 0, "since": -1}),
    "contact_reviews": (agreements_today._REVIEWS, {"logged_before": 0}),
    "safety_plans": (safety_today._TEAM_PLANS, {"today": 0}),
    "payment_approvals": (assistance_today._PENDING, {}),
    "court_coming": (court_today._COMING, {"now": 0, "until": 4}),
    "court_unrecorded": (court_today._UNRECORDED, {"now": 0, "since": -30}),
    "meeting_actions": (partners_today._TEAM, {"today": 0}),
}


def _team_values(cast, spec: dict[str, int], now: dt.datetime) -> dict:
    values: dict = {}
    for name, days in spec.items():
        if name == "user":
            values[name] = cast.supervisor.pk
        elif name == "today":
            values[name] = _day(now, days)
        else:
            values[name] = now + dt.timedelta(days=days)
    return values


@pytest.mark.parametrize("source", sorted(TEAMS))
def test_each_team_source_sends_the_statement_its_queryset_compiles(cast, source):
    query, spec = TEAMS[source]
    scope = today.team_scope(cast.supervisor)
    assert scope.teams == {
        "user": cast.supervisor.pk,
        "agency": cast.supervisor.membership.agency_id,
        "now": scope.now,
    }
    values = _team_values(cast, spec, scope.now)
    with time_machine.travel(scope.now, tick=False):  # the scope's "now"
        built = query.build(cases=selectors.team_open_case_set(cast.supervisor), **values)
    teams = {f"team_{name}": value for name, value in scope.teams.items()}
    compiled = query._team_compiled().sql(**values, **teams)
    assert compiled == built.query.get_compiler("default").as_sql()


def test_the_teams_cases_by_id_are_the_teams_open_cases(cast):
    now = timezone.now()
    for user in (cast.supervisor, cast.other_supervisor):
        found = policy.visible_cases_values(user)
        assert found is not None
        values = {**found[1], "now": now}
        with time_machine.travel(now, tick=False):
            expected = selectors.team_open_case_set(user)
        by_id = selectors.team_open_cases_of(**values)
        assert str(by_id.query) == str(expected.query)
        assert sorted(by_id.values_list("pk", flat=True)) == sorted(
            expected.values_list("pk", flat=True)
        )
    assert cast.case.pk in selectors.team_open_cases_of(
        **{**policy.visible_cases_values(cast.supervisor)[1], "now": now}
    ).values_list("pk", flat=True)
    # Whoever supervises no team has no teams' values: their scope is built as before.
    scope = today.team_scope(cast.assigned)
    assert scope.teams is None
    assert not scope.cases.exists()


def test_the_team_queue_is_the_built_one_statement_for_statement(cast, monkeypatch):
    now = timezone.now()
    _work(cast, now)
    with time_machine.travel(now, tick=False):
        compiled, compiled_sql = _queue_and_sql(today.team_scope(cast.supervisor, now=now))
    assert all(query._teams is not None for query, _spec in TEAMS.values())
    # A scope of any queryset builds each source's queryset each time.
    for query, _spec in TEAMS.values():
        monkeypatch.setattr(query, "_teams", None)
    with time_machine.travel(now, tick=False):
        built, built_sql = _queue_and_sql(
            today.scope_for(
                cast.supervisor,
                selectors.team_open_case_set(cast.supervisor),
                own_only=False,
                now=now,
            )
        )
    assert all(query._teams is None for query, _spec in TEAMS.values())
    assert compiled == built
    assert compiled_sql == built_sql
    kinds = {str(i.kind) for i in compiled.overdue + compiled.today}
    assert {"Check-in", "Follow-up", "Safety plan"} <= kinds
    assert {i.owner for i in compiled.overdue} == {cast.assigned.get_full_name() or "assigned"}
