"""The home page's today queue: overdue first, then due today, in the staff's day; an
advocate's own work, a supervisor's teams'; one-tap actions; emergency-access badges."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from caseflow.audit.models import AuditEvent
from caseflow.cases import selectors, today
from caseflow.cases.models import BreakGlassGrant
from caseflow.checkins.models import CheckIn, CheckInStatus
from caseflow.inbox.models import FollowUp, FollowUpStatus

pytestmark = pytest.mark.django_db

H = dt.timedelta(hours=1)


def _followup(case, user, due_at, kind="task") -> FollowUp:
    return FollowUp.objects.create(case=case, kind=kind, due_at=due_at, assignee=user)


def _checkin(case, user, due_at, status=CheckInStatus.SCHEDULED) -> CheckIn:
    return CheckIn.objects.create(
        case=case, channel="phone", due_at=due_at, assignee=user, status=status
    )


def _queue(user, *, supervisor=False, now=None) -> today.Queue:
    cases = selectors.team_open_case_set(user) if supervisor else selectors.my_open_case_set(user)
    return today.queue(today.scope_for(user, cases, own_only=not supervisor, now=now))


def test_overdue_comes_first_then_today_and_nothing_later_or_of_others(cast):
    now = timezone.now()
    late = _followup(cast.case, cast.assigned, now - 30 * H)
    _checkin(cast.case, cast.assigned, now - 2 * H, status=CheckInStatus.MISSED)
    later = _followup(cast.case, cast.assigned, now + 72 * H)
    _followup(cast.case, cast.same_team, now - H)  # someone else's
    _followup(cast.team2_case, cast.other_team, now - H)  # another team's case
    done = _followup(cast.case, cast.assigned, now - H)
    FollowUp.objects.filter(pk=done.pk).update(status=FollowUpStatus.DONE)
    queue = _queue(cast.assigned)
    assert [i.kind for i in queue.overdue] == ["Follow-up", "Check-in"]
    assert queue.overdue[0].due_at == late.due_at
    assert "not reached last time" in queue.overdue[1].title
    assert all(i.due_at != later.due_at for i in queue.overdue + queue.today)
    assert {i.case_reference for i in queue.overdue + queue.today} == {"CASE-1"}


def test_today_is_the_staffs_day_not_the_utc_day(cast, settings):
    settings.STAFF_TIME_ZONE = "Europe/London"
    # 00:30 in London on 1 July is still 30 June in UTC.
    now = dt.datetime(2026, 6, 30, 23, 30, tzinfo=dt.UTC)
    with time_machine.travel(now, tick=False):
        # 23:30 in London on 1 July: due today there (tomorrow by the UTC calendar).
        evening = _followup(
            cast.case, cast.assigned, dt.datetime(2026, 7, 1, 22, 30, tzinfo=dt.UTC)
        )
        # 23:59 in London on 1 July's eve (30 June): overdue, not today.
        yesterday = _followup(
            cast.case, cast.assigned, dt.datetime(2026, 6, 30, 22, 59, tzinfo=dt.UTC)
        )
        queue = _queue(cast.assigned, now=now)
    assert [i.due_at for i in queue.today] == [evening.due_at]
    assert [i.due_at for i in queue.overdue] == [yesterday.due_at]


def test_check_ins_show_the_survivors_time_and_whether_now_is_safe(cast):
    # Weekdays 10:00-12:00 in New York.
    profile = cast.case.safe_contact
    profile.timezone = "America/New_York"
    profile.rules = {
        "channels": ["phone"],
        "windows": [{"days": [0, 1, 2, 3, 4], "start": "10:00", "end": "12:00"}],
        "voicemail_safe": False,
    }
    profile.save()
    inside = dt.datetime(2026, 3, 4, 15, 30, tzinfo=dt.UTC)  # a Wednesday, 10:30 in New York
    with time_machine.travel(inside, tick=False):
        _checkin(cast.case, cast.assigned, inside + H)
        item = _queue(cast.assigned, now=inside).today[0]
        assert item.local_time == "11:30" and item.safe_now is True
        outside = inside + 3 * H
        item = _queue(cast.assigned, now=outside).overdue[0]
        assert item.safe_now is False


def test_the_supervisor_sees_the_teams_items_with_owners_and_overdue_counts(cast, login):
    now = timezone.now()
    _followup(cast.case, cast.assigned, now - 5 * H)
    _followup(cast.team2_case, cast.other_team, now - 5 * H)  # not this supervisor's team
    queue = _queue(cast.supervisor, supervisor=True)
    owner = cast.assigned.get_full_name()
    assert [(i.case_reference, i.owner) for i in queue.overdue] == [("CASE-1", owner)]
    page = login(cast.supervisor).get(reverse("dashboard")).content.decode()
    assert "Your teams today" in page and "1 overdue" in page
    assert "CASE-2" not in page


def test_the_home_page_lists_the_queue_and_marks_a_follow_up_done_in_one_tap(cast, login):
    now = timezone.now()
    item = _followup(cast.case, cast.assigned, now - 30 * H)
    client = login(cast.assigned)
    page = client.get(reverse("dashboard")).content.decode()
    assert "Your day" in page and "Overdue (1)" in page and ">Overdue</span>" in page
    # What a person reads says no "UTC" (attributes are left out: a random public id in a link
    # may hold those letters).
    assert not re.search(r"\bUTC\b", re.sub(r'="[^"]*"', "", page))
    done_url = reverse("checkins:followup_done", args=[cast.case.public_id, item.pk])
    assert done_url in page
    response = client.post(done_url, {"next": "dashboard"})
    assert response.status_code == 302 and response["Location"] == reverse("dashboard")
    item.refresh_from_db()
    assert item.status == FollowUpStatus.DONE and item.done_by == cast.assigned
    page = client.get(reverse("dashboard")).content.decode()
    assert "Nothing overdue or due today." in page
    # "Mark done" can be undone for a short while, by whoever pressed it.
    undo_url = reverse("checkins:followup_undo", args=[cast.case.public_id, item.pk])
    assert "Just done (1)" in page and undo_url in page
    assert login(cast.supervisor).post(undo_url, {"next": "dashboard"}).status_code == 302
    item.refresh_from_db()
    assert item.status == FollowUpStatus.DONE  # not theirs to undo
    client = login(cast.assigned)
    client.post(undo_url, {"next": "dashboard"})
    item.refresh_from_db()
    assert item.status == FollowUpStatus.OPEN and item.done_at is None
    assert "Overdue (1)" in client.get(reverse("dashboard")).content.decode()


def test_undo_runs_out(cast, login):
    from caseflow.checkins.services import UNDO_WINDOW

    item = _followup(cast.case, cast.assigned, timezone.now() - H)
    client = login(cast.assigned)
    client.post(
        reverse("checkins:followup_done", args=[cast.case.public_id, item.pk]),
        {"next": "dashboard"},
    )
    FollowUp.objects.filter(pk=item.pk).update(done_at=timezone.now() - UNDO_WINDOW - H)
    response = client.post(
        reverse("checkins:followup_undo", args=[cast.case.public_id, item.pk]),
        {"next": "dashboard"},
        follow=True,
    )
    assert "can no longer be undone" in response.content.decode()
    item.refresh_from_db()
    assert item.status == FollowUpStatus.DONE


def test_the_home_page_read_covers_the_cases_the_queue_names(cast, login):
    _followup(cast.case, cast.assigned, timezone.now() - H)
    login(cast.supervisor).get(reverse("dashboard"))
    event = AuditEvent.objects.filter(action="dashboard.view").latest("pk")
    assert cast.case.pk in event.detail["cases"]


def test_a_case_opened_by_emergency_access_carries_a_badge_where_it_is_listed(cast, login):
    BreakGlassGrant.objects.create(
        case=cast.team2_case,
        user=cast.same_team,
        reason="Crisis call on the duty line",
        expires_at=timezone.now() + H,
    )
    client = login(cast.same_team)
    for url in (reverse("dashboard"), reverse("cases:list")):
        page = client.get(url).content.decode()
        assert "CASE-2" in page
        assert "Emergency access</span>" in page
    # Not for the case's own advocate.
    page = login(cast.other_team).get(reverse("cases:list")).content.decode()
    assert "Emergency access</span>" not in page


def test_the_supervisor_sees_high_risk_cases_without_a_current_plan(cast):
    import datetime as dt

    from caseflow.cases.models import Case, RiskLevel
    from caseflow.safety import services as safety
    from caseflow.safety.models import SafetyPlan

    Case.objects.filter(pk=cast.case.pk).update(risk_level=RiskLevel.HIGH)
    queue = _queue(cast.supervisor, supervisor=True)
    items = [i for i in queue.overdue + queue.today if i.kind == "Safety plan"]
    assert [(i.case_reference, i.title) for i in items] == [
        ("CASE-1", "High risk, and no safety plan yet")
    ]
    assert items[0].action.label == "Start the safety plan"
    # The advocate is told too, first of their work (overdue since the case was opened), with
    # the way to start it.
    queue = _queue(cast.assigned)
    mine = queue.overdue + queue.today
    assert mine and mine[0].kind == "Safety plan"
    assert (mine[0].title, mine[0].action.label) == (
        "High risk, and no safety plan yet",
        "Start the safety plan",
    )
    assert mine[0].action.url == f"/cases/{cast.case.public_id}/safety/edit/"
    safety.plan_save(
        actor=cast.assigned,
        case=cast.case,
        expected_version=0,
        content={"home": "Front room."},
    )
    plans = SafetyPlan.objects.filter(case=cast.case)
    plans.update(review_by=timezone.localdate() + dt.timedelta(days=10))
    queue = _queue(cast.supervisor, supervisor=True)
    assert not [i for i in queue.overdue + queue.today if i.kind == "Safety plan"]
    plans.update(review_by=timezone.localdate() - dt.timedelta(days=3))
    queue = _queue(cast.supervisor, supervisor=True)
    (item,) = [i for i in queue.overdue if i.kind == "Safety plan"]
    assert "was due for review on" in item.title and item.all_day
    assert item.action.label == "Open the plan"
    # The advocate's plan reviews reach them as follow-ups, not here.
    assert not [i for i in _queue(cast.assigned).overdue if i.kind == "Safety plan"]


def test_the_queue_of_the_listed_cases_is_the_queue_of_the_advocates_scope(cast):
    now = timezone.now()
    _followup(cast.case, cast.assigned, now - 30 * H)
    _checkin(cast.case, cast.assigned, now - 2 * H, status=CheckInStatus.MISSED)
    _followup(cast.team2_case, cast.other_team, now - H)  # another team's case, never listed
    rows = list(selectors.my_open_cases(cast.assigned))
    assert cast.case.pk in {c.pk for c in rows}
    assert cast.team2_case.pk not in {c.pk for c in rows}
    listed = today.queue(
        today.scope_for(cast.assigned, selectors.listed_case_set(rows), own_only=True, now=now)
    )
    scoped = _queue(cast.assigned, now=now)
    assert len(listed) == 2
    assert listed == scoped
    # A list that is empty asks about no case at all.
    nothing = today.queue(
        today.scope_for(cast.assigned, selectors.listed_case_set([]), own_only=True, now=now)
    )
    assert len(nothing) == 0
