"""One work queue: automatic follow-ups of one kind on one case are one item ("Re-assess risk:
5 incidents since 9 Oct"), done and undone together; the supervisor's queue is the same items by
person then kind, with counts and filters; a high-risk case with no safety plan comes first."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from caseflow.audit.models import AuditEvent
from caseflow.cases import selectors, today
from caseflow.cases.models import Case, RiskLevel
from caseflow.inbox.models import FollowUp, FollowUpStatus
from tests import factories as f

pytestmark = pytest.mark.django_db

H = dt.timedelta(hours=1)
DAY = dt.timedelta(days=1)


def _auto(case, user, due_at, n, kind="incident_risk_review") -> FollowUp:
    return FollowUp.objects.create(
        case=case, kind=kind, due_at=due_at, assignee=user, source_key=f"incident:{n}:risk"
    )


def _task(case, user, due_at) -> FollowUp:
    return FollowUp.objects.create(case=case, kind="task", due_at=due_at, assignee=user)


def _queue(user, *, supervisor=False) -> today.Queue:
    cases = selectors.team_open_case_set(user) if supervisor else selectors.my_open_case_set(user)
    return today.queue(today.scope_for(user, cases, own_only=not supervisor))


def test_like_automatic_follow_ups_are_one_item_with_a_count_and_the_earliest_date(cast):
    now = timezone.now()
    autos = [_auto(cast.case, cast.assigned, now - (n + 1) * DAY, n) for n in range(5)]
    _task(cast.case, cast.assigned, now - 3 * H)  # made by hand: never merged
    _task(cast.case, cast.assigned, now - 2 * H)
    # Another case's: its own item.
    _auto(cast.restricted_case, cast.assigned, now - 2 * DAY, 99)
    queue = _queue(cast.assigned)
    merged = [i for i in queue.overdue if i.count > 1]
    assert len(merged) == 1
    (item,) = merged
    earliest = min(a.due_at for a in autos)
    since = earliest.astimezone(today.staff_zone())
    assert item.count == 5 and item.due_at == earliest
    assert item.title == f"Re-assess risk: 5 incidents since {since.day} {since:%b}"
    assert item.action.label == "Mark all done"
    assert ("together", ",".join(str(a.pk) for a in reversed(autos))) in item.action.fields
    assert len(queue.overdue) == 4  # the merged one, the other case's and the two tasks


def test_marking_the_merged_item_done_marks_them_all_and_undo_restores_them(cast, login):
    now = timezone.now()
    autos = [_auto(cast.case, cast.assigned, now - (n + 1) * H, n) for n in range(3)]
    task = _task(cast.case, cast.assigned, now - H)
    (item,) = [i for i in _queue(cast.assigned).overdue if i.count > 1]
    client = login(cast.assigned)
    response = client.post(item.action.url, dict(item.action.fields))
    assert response.status_code == 302
    rows = FollowUp.objects.filter(pk__in=[a.pk for a in autos])
    assert set(rows.values_list("status", flat=True)) == {FollowUpStatus.DONE}
    task.refresh_from_db()
    assert task.status == FollowUpStatus.OPEN
    done = AuditEvent.objects.filter(action="followup.done")
    assert sorted(done.values_list("object_id", flat=True)) == sorted(str(a.pk) for a in autos)
    assert all(e.detail == {"together": 3} for e in done)  # a count, never a value
    page = client.get(reverse("dashboard")).content.decode()
    assert "Just done (1)" in page and "3 incidents" in page
    (undo,) = _queue(cast.assigned).recent
    assert undo.count == 3 and undo.action.label == "Undo"
    client.post(undo.action.url, dict(undo.action.fields))
    assert set(rows.values_list("status", flat=True)) == {FollowUpStatus.OPEN}
    assert AuditEvent.objects.filter(action="followup.reopen").count() == 3


def test_only_its_person_and_case_are_marked_done_together(cast, login):
    now = timezone.now()
    mine = [_auto(cast.case, cast.assigned, now - (n + 1) * H, n) for n in range(2)]
    theirs = _auto(cast.case, cast.same_team, now - H, 7)
    later = _auto(cast.case, cast.assigned, now + 10 * DAY, 8)  # not on the queue yet
    (item,) = [i for i in _queue(cast.assigned).overdue if i.count > 1]
    login(cast.assigned).post(item.action.url, dict(item.action.fields))
    theirs.refresh_from_db()
    later.refresh_from_db()
    assert theirs.status == FollowUpStatus.OPEN and later.status == FollowUpStatus.OPEN
    # Naming the other person's follow-up in the form does not reach it either.
    again = _auto(cast.case, cast.assigned, now - H, 9)
    login(cast.assigned).post(
        reverse("checkins:followup_done", args=[cast.case.public_id, again.pk]),
        {"together": f"{again.pk},{theirs.pk},{later.pk},x,-1"},
    )
    again.refresh_from_db()
    theirs.refresh_from_db()
    assert again.status == FollowUpStatus.DONE and theirs.status == FollowUpStatus.OPEN
    assert {m.status for m in FollowUp.objects.filter(pk__in=[m.pk for m in mine])} == {
        FollowUpStatus.DONE
    }


def _population(cast) -> dict:
    """Team 1's work: 22 like tasks for ``assigned`` over 22 cases, 3 automatic follow-ups of one
    kind on one case for ``same_team``, a check-in-free day otherwise; Team 2's stays out."""
    now = timezone.now()
    for n in range(22):
        case = f.open_case(cast.team1, [cast.assigned], reference=f"T-{n:02d}")
        _task(case, cast.assigned, now - (n + 1) * H)
    theirs = f.open_case(cast.team1, [cast.same_team], reference="S-01")
    for n in range(3):
        _auto(theirs, cast.same_team, now - (n + 1) * DAY, 100 + n)
    _task(theirs, cast.same_team, now + 30 * dt.timedelta(minutes=1))  # later today, maybe
    _task(cast.team2_case, cast.other_team, now - H)
    return {"now": now}


def test_the_supervisors_queue_is_by_person_then_kind_with_counts(cast):
    _population(cast)
    queue = _queue(cast.supervisor, supervisor=True)
    people = today.grouped(queue)
    by_name = {p.owner: p for p in people}
    assert set(by_name) == {cast.assigned.get_full_name(), cast.same_team.get_full_name()}
    mine = by_name[cast.assigned.get_full_name()]
    assert [(g.label, g.count, g.overdue) for g in mine.kinds] == [("Follow-up: Task", 22, 22)]
    theirs = by_name[cast.same_team.get_full_name()]
    kinds = {g.label: g for g in theirs.kinds}
    risk = kinds["Follow-up: Risk re-assessment after an incident"]
    assert risk.count == 3 and len(risk.rows) == 1  # merged into one line
    assert theirs.overdue == 3
    # Filters: one person, one kind, only what is overdue.
    only = today.grouped(queue, owner_id=cast.same_team.pk)
    assert [p.owner for p in only] == [cast.same_team.get_full_name()]
    tasks = today.grouped(queue, kind="followups:task")
    assert sum(p.count for p in tasks) == 22 + sum(
        1 for _k, i in theirs.kinds[-1].rows if i.group_key == "followups:task"
    )
    late = today.grouped(queue, overdue_only=True)
    assert all(key == "overdue" for p in late for g in p.kinds for key, _i in g.rows)
    assert ("followups:task", "Follow-up: Task") in today.kinds_listed(queue)


def test_the_supervisors_page_groups_and_filters(cast, login):
    _population(cast)
    client = login(cast.supervisor)
    page = client.get(reverse("dashboard")).content.decode()
    assert "<details" in page and "22 overdue" in page
    assert page.count('class="list-group-item queue-item') == 22 + 1 + page.count(
        "queue-item-today"
    )
    page = client.get(reverse("dashboard"), {"staff": cast.same_team.pk}).content.decode()
    assert "T-00" not in page and "S-01" in page
    page = client.get(reverse("dashboard"), {"kind": "followups:task", "overdue": "on"})
    assert "T-05" in page.content.decode()


@pytest.mark.parametrize(
    "params",
    [
        {"staff": "999999"},
        {"staff": "not a number"},
        {"kind": "<script>alert(1)</script>"},
        {"staff": "1' OR 1=1", "overdue": "maybe"},
    ],
)
def test_bad_filters_are_a_message_on_the_form_not_an_error(cast, login, params):
    _population(cast)
    response = login(cast.supervisor).get(reverse("dashboard"), params)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Select a valid choice" in page and "<script>alert(1)" not in page
    assert "T-00" in page  # the whole queue is still shown


def test_another_teams_advocate_is_not_a_choice(cast, login):
    _task(cast.team2_case, cast.other_team, timezone.now() - H)
    _task(cast.case, cast.assigned, timezone.now() - H)
    page = login(cast.supervisor).get(reverse("dashboard"), {"staff": cast.other_team.pk})
    assert "Select a valid choice" in page.content.decode()
    assert "CASE-2" not in page.content.decode()


def test_high_risk_without_a_plan_is_first_of_the_advocates_overdue_list(cast):
    _task(cast.case, cast.assigned, timezone.now() - 400 * DAY)
    Case.objects.filter(pk=cast.case.pk).update(
        risk_level=RiskLevel.HIGH, opened_at=timezone.now() - 2 * DAY
    )
    first = _queue(cast.assigned).overdue[0]
    assert first.title == "High risk, and no safety plan yet"
    assert first.action.label == "Start the safety plan"


def test_serious_incidents_recorded_one_after_another_are_one_re_assessment(cast):
    from caseflow.casework import services as casework
    from tests.casework.helpers import make_incident

    for _n in range(5):
        incident = make_incident(cast.case, cast.assigned, kinds=["physical"])
        casework.incident_escalate(incident_id=incident.pk)
    assert FollowUp.objects.filter(kind="incident_risk_review").count() == 5
    later = timezone.now() + 2 * DAY
    scope = today.scope_for(
        cast.assigned, selectors.my_open_case_set(cast.assigned), own_only=True, now=later
    )
    (item,) = [i for i in today.queue(scope).overdue if i.case_reference == "CASE-1"]
    assert item.count == 5 and item.title.startswith("Re-assess risk: 5 incidents since ")
