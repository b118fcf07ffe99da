"""Check-ins proposed in the survivor's safe window before her hard dates and after handovers:
where they fall (a window that never opens that day, the year boundary, a daylight-saving
change), booking them once, the sweep that keeps each occurrence in view once, and the page."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse

from caseflow.agreements import services as agreement_services
from caseflow.agreements import terms
from caseflow.audit.models import AuditEvent
from caseflow.cases import services as case_services
from caseflow.cases.models import CaseStatus
from caseflow.checkins import proposals
from caseflow.checkins import services as checkin_services
from caseflow.checkins.models import CheckIn, CheckInFollowUpKind
from caseflow.inbox.models import FollowUp, FollowUpStatus
from caseflow.safety import services as safety_services
from tests.agreements.helpers import make_agreement

pytestmark = pytest.mark.django_db

LONDON = ZoneInfo("Europe/London")
# Monday 7 December 2026, 08:00 in London; the cast's safe window is 10:00-12:00, Monday-Friday.
MONDAY = dt.datetime(2026, 12, 7, 8, 0, tzinfo=dt.UTC)


def _hard_date(cast, day, *, yearly=False, before=1, kind="anniversary", words="The day I left"):
    return safety_services.hard_date_add(
        actor=cast.assigned,
        case=cast.case,
        kind=kind,
        words=words,
        day=day,
        yearly=yearly,
        support_days_before=before,
    )


def _only(case, **kw):
    found = proposals.proposed_checkins(case, **kw)
    assert len(found) == 1
    return found[0]


# --- Where the check-in falls ----------------------------------------------------------------


@time_machine.travel(MONDAY, tick=False)
def test_a_check_in_is_proposed_in_her_safe_window_the_days_before_she_asked(cast):
    _hard_date(cast, dt.date(2026, 12, 17), before=1)
    proposal = _only(cast.case)
    assert proposal.label == "An anniversary: The day I left, on Thu 17 Dec 2026"
    assert proposal.day == dt.date(2026, 12, 16)
    assert proposal.when == dt.datetime(2026, 12, 16, 10, 0, tzinfo=dt.UTC)
    assert proposal.note == "Wed 16 Dec 2026, 10:00, in the survivor's safe window (their time)."
    assert proposal.available and proposal.channel == "phone"


@time_machine.travel(MONDAY, tick=False)
def test_a_day_her_window_never_opens_says_so_and_proposes_the_nearest_safe_time(cast):
    # Monday 14 December, support the day before: a Sunday, when no window opens. The nearest
    # safe time is the Friday's last slot, never the Monday itself.
    _hard_date(cast, dt.date(2026, 12, 14), before=1)
    proposal = _only(cast.case)
    length = checkin_services.checkin_duration()
    assert proposal.when == dt.datetime(2026, 12, 11, 12, 0, tzinfo=dt.UTC) - length
    assert proposal.note.startswith("No safe window opens on Sun 13 Dec 2026; the nearest is Fri")


@time_machine.travel(MONDAY, tick=False)
def test_no_safe_window_near_the_day_at_all_is_said_plainly(cast):
    profile = cast.case.safe_contact
    profile.rules = {**profile.rules, "windows": [{"days": [2], "start": "10:00", "end": "11:00"}]}
    profile.save()
    # Support on Sunday 20 December: the Wednesdays are further than three days away.
    _hard_date(cast, dt.date(2026, 12, 21), before=1)
    proposal = _only(cast.case)
    assert proposal.when is None and not proposal.available
    assert proposal.note == "No safe window opens on Sun 20 Dec 2026, nor in the days around it."


@time_machine.travel(MONDAY, tick=False)
def test_without_safe_contact_details_nothing_is_proposed(cast):
    cast.case.safe_contact.delete()
    _hard_date(cast, dt.date(2026, 12, 17))
    proposal = _only(cast.case)
    assert not proposal.available
    assert proposal.note.startswith("Record the survivor's safe-contact details first")


@time_machine.travel(dt.datetime(2026, 12, 30, 9, 0, tzinfo=dt.UTC), tick=False)
def test_a_yearly_date_is_proposed_across_the_year_boundary_then_the_next_year(cast):
    _hard_date(cast, dt.date(1990, 1, 5), yearly=True, kind="birthday", words="")
    proposal = _only(cast.case)
    assert proposal.label == "A birthday, on Tue 5 Jan 2027"
    assert proposal.day == dt.date(2027, 1, 4)
    assert proposal.when == dt.datetime(2027, 1, 4, 10, 0, tzinfo=dt.UTC)
    assert proposal.key.endswith(":2027-01-05")
    with time_machine.travel(dt.datetime(2027, 1, 6, 9, 0, tzinfo=dt.UTC), tick=False):
        following = _only(cast.case)
    assert following.key.endswith(":2028-01-05")
    assert following.day == dt.date(2028, 1, 4)


@time_machine.travel(dt.datetime(2027, 3, 22, 9, 0, tzinfo=dt.UTC), tick=False)
def test_the_safe_window_is_her_clock_across_the_daylight_saving_change(cast):
    # Clocks go forward on Sunday 28 March 2027: 10:00 in London is 09:00 UTC on the Monday.
    _hard_date(cast, dt.date(2027, 3, 29), before=0, kind="court_date", words="")
    proposal = _only(cast.case)
    assert proposal.when == dt.datetime(2027, 3, 29, 9, 0, tzinfo=dt.UTC)
    start, end = proposals.day_bounds(dt.date(2027, 3, 28), LONDON)
    assert end - start == dt.timedelta(hours=23)


# --- Handovers -------------------------------------------------------------------------------


def _active_agreement(cast, handover):
    agreement = make_agreement(
        cast.case, cast.assigned, start=dt.date(2026, 11, 2), handover=handover
    )
    return agreement_services.agreement_set_status(
        actor=cast.assigned, agreement=agreement, expected_lock=agreement.lock, status="active"
    )


@time_machine.travel(MONDAY, tick=False)
def test_a_check_in_is_proposed_after_the_next_handover(cast):
    # Wednesday 17:00 at the contact centre; her window is 10:00-12:00: the next morning.
    handover = terms.Handover(place="Contact centre", weekdays=frozenset({2}), time="17:00")
    _active_agreement(cast, handover)
    proposal = _only(cast.case)
    assert proposal.label == "After the handover at Contact centre, on Wed 9 Dec 2026"
    assert proposal.day == dt.date(2026, 12, 9)
    assert proposal.when == dt.datetime(2026, 12, 10, 10, 0, tzinfo=dt.UTC)
    assert proposal.note.startswith("No safe window opens on Wed 9 Dec 2026; the nearest is Thu")


# --- Booking ---------------------------------------------------------------------------------


@time_machine.travel(MONDAY, tick=False)
def test_booking_a_proposal_books_one_check_in_once_and_closes_its_follow_up(cast):
    _hard_date(cast, dt.date(2026, 12, 17))
    code = _only(cast.case).code
    added, problems = proposals.checkin_proposals_add(
        actor=cast.assigned, case=cast.case, codes=[code]
    )
    assert len(added) == 1 and problems == []
    checkin = CheckIn.objects.get(case=cast.case)
    assert checkin.due_at == dt.datetime(2026, 12, 16, 10, 0, tzinfo=dt.UTC)
    again, _problems = proposals.checkin_proposals_add(
        actor=cast.assigned, case=cast.case, codes=[code]
    )
    assert again == [] and CheckIn.objects.count() == 1
    booked = _only(cast.case)
    assert booked.done and booked.note.startswith("A check-in is already booked for it")
    followup = FollowUp.objects.get(kind=CheckInFollowUpKind.PROPOSED_CHECKIN)
    assert followup.status == FollowUpStatus.DONE
    # The sweep finds the occurrence already proposed: nothing new.
    assert proposals.checkin_proposals_sweep() == 0
    assert AuditEvent.objects.filter(action="checkin.proposals").count() == 2


@time_machine.travel(MONDAY, tick=False)
def test_a_proposal_that_is_not_available_is_not_booked(cast):
    _hard_date(cast, dt.date(2026, 12, 17))
    cast.case.safe_contact.delete()
    added, problems = proposals.checkin_proposals_add(
        actor=cast.assigned, case=cast.case, codes=["hard_date-1-2026-12-17"]
    )
    assert added == [] and problems == [] and not CheckIn.objects.exists()


# --- The sweep -------------------------------------------------------------------------------


@time_machine.travel(MONDAY, tick=False)
def test_the_sweep_keeps_each_coming_occurrence_proposed_once(cast):
    _hard_date(cast, dt.date(1990, 12, 12), yearly=True, kind="birthday", words="")
    _hard_date(cast, dt.date(2027, 2, 1), kind="release", words="")  # beyond the fortnight
    _active_agreement(
        cast, terms.Handover(place="Contact centre", weekdays=frozenset({4}), time="17:00")
    )
    assert proposals.checkin_proposals_sweep() == 3  # the birthday, two Friday handovers
    followups = FollowUp.objects.filter(kind=CheckInFollowUpKind.PROPOSED_CHECKIN)
    assert {f.assignee_id for f in followups} == {cast.case.primary_advocate_id}
    keys = sorted(f.source_key.rsplit(":", 1)[1] for f in followups)
    assert keys == ["2026-12-11", "2026-12-12", "2026-12-18"]
    # No personal data in what a follow-up shows: the kind and the case.
    assert all(f.details == "" for f in followups)
    assert proposals.checkin_proposals_sweep() == 0
    # A week on, the next Friday's handover comes into view, once.
    with time_machine.travel(MONDAY + dt.timedelta(days=7), tick=False):
        assert proposals.checkin_proposals_sweep() == 1
        assert proposals.checkin_proposals_sweep() == 0


@time_machine.travel(MONDAY, tick=False)
def test_the_sweep_leaves_closed_cases_alone(cast):
    _hard_date(cast, dt.date(2026, 12, 12))
    type(cast.case).objects.filter(pk=cast.case.pk).update(status=CaseStatus.CLOSED)
    assert proposals.checkin_proposals_sweep() == 0


# --- The page --------------------------------------------------------------------------------


@time_machine.travel(MONDAY, tick=False)
def test_the_page_lists_the_proposals_ticked_and_books_the_ticked_ones(cast, login):
    _hard_date(cast, dt.date(2026, 12, 17))
    client = login(cast.assigned)
    url = reverse("checkins:proposals", args=[cast.case.public_id])
    text = client.get(url).content.decode()
    assert text.count('name="proposals"') == 1 and "checked" in text
    assert "An anniversary: The day I left, on Thu 17 Dec 2026" in text
    code = _only(cast.case).code
    response = client.post(url, {"confirm": "1", "proposals": [code]})
    assert response.status_code == 302
    assert CheckIn.objects.filter(case=cast.case).count() == 1


@time_machine.travel(MONDAY, tick=False)
def test_the_proposals_page_answers_by_method_scope_and_right(cast, login):
    url = reverse("checkins:proposals", args=[cast.case.public_id])
    assert login(cast.assigned).get(url).status_code == 200
    assert login(cast.assigned).put(url).status_code == 405
    assert login(cast.other_team).get(url).status_code == 404
    assert login(None).get(url).status_code == 302
    case_services.break_glass_open(
        actor=cast.same_team, reference=cast.case.reference, reason="Crisis call"
    )
    assert login(cast.same_team).get(url).status_code == 403


@time_machine.travel(MONDAY, tick=False)
def test_taking_a_hard_date_off_the_plan_cancels_what_is_still_proposed_for_it(cast):
    row = _hard_date(cast, dt.date(2026, 12, 12))
    assert proposals.checkin_proposals_sweep() == 1
    safety_services.hard_date_remove(actor=cast.assigned, hard_date=row)
    followup = FollowUp.objects.get(kind=CheckInFollowUpKind.PROPOSED_CHECKIN)
    assert followup.status == FollowUpStatus.CANCELLED
    assert proposals.proposed_checkins(cast.case) == []


def test_a_proposal_due_today_leads_from_the_today_queue_to_the_proposals(cast):
    from caseflow.cases import today as today_queue
    from caseflow.cases.selectors import my_open_case_set

    with time_machine.travel(MONDAY, tick=False):
        # Support on Thursday 10 December: the follow-up falls due three days before, today.
        _hard_date(cast, dt.date(2026, 12, 11))
        assert proposals.checkin_proposals_sweep() == 1
        scope = today_queue.scope_for(
            cast.assigned, my_open_case_set(cast.assigned), own_only=True, now=MONDAY
        )
        queue = today_queue.queue(scope)
    items = [i for i in queue.today + queue.overdue if i.title.startswith("A check-in is proposed")]
    assert len(items) == 1
    assert items[0].action.url == reverse("checkins:proposals", args=[cast.case.public_id])
    assert not items[0].action.post
    # Nothing of her words on the queue.
    assert "left" not in items[0].title


@time_machine.travel(MONDAY, tick=False)
def test_the_sweep_runs_hourly_from_beat_without_arguments(cast, settings):
    from caseflow.checkins import tasks

    entry = settings.CELERY_BEAT_SCHEDULE["checkins-proposals"]
    assert entry["task"] == tasks.proposals_sweep.name and entry["schedule"] == 3600.0
    _hard_date(cast, dt.date(2026, 12, 12))
    assert tasks.proposals_sweep() == 1
    assert tasks.proposals_sweep() == 0
