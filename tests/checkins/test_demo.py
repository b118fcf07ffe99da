"""The demo shows check-ins in use: today, overdue, upcoming, recurring, outcomes, follow-ups,
notifications."""

from __future__ import annotations

import datetime as dt
import random

import pytest
import time_machine
from django.conf import settings
from django.urls import reverse

from caseflow.accounts.models import User
from caseflow.checkins import demo, services
from caseflow.checkins.models import CheckIn, CheckInOutcome, CheckInStatus
from caseflow.demo import seed
from caseflow.demo.seed import DemoContext
from caseflow.inbox.models import FollowUp, Notification
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.mark.demo
def test_demo_populates_check_ins(login):
    seed.seed()
    assert CheckIn.objects.filter(status=CheckInStatus.SCHEDULED, schedule__isnull=False).exists()
    assert CheckIn.objects.filter(status=CheckInStatus.MISSED).exists()
    assert CheckIn.objects.filter(status=CheckInStatus.DONE, outcome="reached").exists()
    assert CheckIn.objects.filter(status=CheckInStatus.DONE, outcome="not_safe").exists()
    assert FollowUp.objects.filter(created_by__isnull=False).count() >= 4
    assert Notification.objects.filter(kind="checkin_missed", sent_at__isnull=False).exists()
    advocate = User.objects.get(username="aisha.advocate")
    response = login(advocate).get(reverse("checkins:home"))
    ctx = response.context
    assert ctx["overdue"] and (ctx["today"] or ctx["upcoming"]) and ctx["followups"]
    assert Notification.objects.filter(recipient=advocate, sent_at__isnull=False).exists()


# The demo's safe windows (``caseflow.demo.seed``), and a sparser profile in another zone whose
# evening window crosses midnight.
DEMO_RULES = {
    "channels": ["text"],
    "windows": [
        {"days": [0, 1, 2, 3, 4], "start": "10:00", "end": "12:00"},
        {"days": [5], "start": "14:00", "end": "16:00"},
    ],
}
SPARSE_RULES = {
    "channels": ["phone"],
    "windows": [
        {"days": [1, 3], "start": "23:00", "end": "00:30"},
        {"days": [6], "start": "09:00", "end": "10:00"},
    ],
}
AWKWARD_MOMENTS = [
    # A Saturday evening, after the week's last demo window.
    dt.datetime(2027, 7, 17, 15, 50, tzinfo=dt.UTC),
    # Half an hour before UK clocks go forward, and before they go back.
    dt.datetime(2031, 3, 30, 0, 30, tzinfo=dt.UTC),
    dt.datetime(2029, 10, 28, 0, 30, tzinfo=dt.UTC),
    # The last minutes of a window on 29 February; New Year's Eve, late.
    dt.datetime(2028, 2, 29, 11, 50, tzinfo=dt.UTC),
    dt.datetime(2030, 12, 31, 23, 30, tzinfo=dt.UTC),
]


def _demo_cases(cast, tz: str, rules: dict) -> list:
    cases = []
    for _ in range(6):
        case = f.open_case(cast.team1, [cast.same_team])
        f.add_profile(case, timezone=tz, rules=rules)
        cases.append(case)
    return cases


@pytest.mark.parametrize("now", AWKWARD_MOMENTS, ids=lambda now: now.strftime("%Y-%m-%dT%H:%M"))
@pytest.mark.parametrize(
    "tz, rules", [("Europe/London", DEMO_RULES), ("America/New_York", SPARSE_RULES)]
)
def test_demo_check_ins_are_inside_safe_windows_whatever_the_moment(cast, now, tz, rules):
    cases = _demo_cases(cast, tz, rules)
    with time_machine.travel(now, tick=False):
        demo.seed_demo(DemoContext(rng=random.Random(1), cases=cases, staff={}, now=now))
        checkins = list(CheckIn.objects.filter(case__in=cases).select_related("case"))
        checked = 0
        for checkin in checkins:
            profile = services.profile_for(checkin.case)
            assert services.slot_problem(profile, checkin.due_at, checkin.channel) == ""
            checked += 1
    assert checked >= 6
    by_status = {}
    for checkin in checkins:
        by_status.setdefault((checkin.status, checkin.outcome), []).append(checkin)
    grace = dt.timedelta(minutes=settings.CHECKIN_GRACE_MINUTES)
    assert [c.due_at < now - grace for c in by_status[(CheckInStatus.MISSED, "")]] == [True]
    for outcome in (CheckInOutcome.REACHED, CheckInOutcome.NOT_SAFE):
        assert [c.due_at < now for c in by_status[(CheckInStatus.DONE, outcome)]] == [True]
    scheduled = by_status[(CheckInStatus.SCHEDULED, "")]
    assert len([c for c in scheduled if c.schedule_id]) >= 2  # the weekly one, materialised
    assert len([c for c in scheduled if not c.schedule_id]) == 2
    assert all(c.due_at > now for c in scheduled)


def test_demo_stops_with_a_clear_error_when_a_check_in_cannot_be_placed(cast):
    now = dt.datetime(2027, 7, 14, 3, 0, tzinfo=dt.UTC)
    cases = _demo_cases(cast, "Europe/London", {"channels": ["phone"], "windows": []})
    with time_machine.travel(now, tick=False), pytest.raises(demo.DemoSeedError) as error:
        demo.seed_demo(DemoContext(rng=random.Random(1), cases=cases, staff={}, now=now))
    assert cases[0].reference in str(error.value)
    assert "no safe slot in the two weeks after 2027-07-14 04:00 UTC" in str(error.value)
    assert not CheckIn.objects.filter(case__in=cases).exists()


@pytest.mark.demo
def test_every_demo_advocate_and_supervisor_has_a_monday_morning_queue():
    from caseflow.accounts import zones
    from caseflow.accounts.models import Agency, Role
    from caseflow.cases import selectors, today

    seed.seed()
    people = User.objects.filter(
        membership__role__in=(Role.ADVOCATE, Role.SUPERVISOR), membership__is_active=True
    )
    assert people.count() >= 4
    zones_by_agency = dict(Agency.objects.values_list("slug", "time_zone"))
    assert zones_by_agency == {"riverside": "Europe/London", "hillview": "America/Chicago"}
    for person in people:
        if not person.has_usable_password():
            continue  # a new starter who has not yet followed their link: no caseload yet
        supervisor = person.membership.role == Role.SUPERVISOR
        cases = (
            selectors.team_open_case_set(person)
            if supervisor
            else selectors.my_open_case_set(person)
        )
        # Each agency's own day: Riverside's in London, Hillview's in Chicago.
        with zones.using(zones.user_zone(person)):
            queue = today.queue(today.scope_for(person, cases, own_only=not supervisor))
        assert queue.overdue, f"{person.username} has nothing overdue in the demo"
        assert queue.today, f"{person.username} has nothing due today in the demo"
