"""Court hearings: recording, the safety steps they propose, the outcome and the orders it links,
the case page, timeline, today queue and calendar feed."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test import Client
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases import services as case_services
from caseflow.cases import today as today_queue
from caseflow.cases.timeline import Query, page
from caseflow.checkins import services as checkin_services
from caseflow.checkins.models import CheckIn
from caseflow.court import services, steps
from caseflow.court.models import CourtFollowUpKind, Hearing, HearingOutcome
from caseflow.court.orders import plan_orders
from caseflow.inbox.models import FollowUp
from caseflow.safety.models import SafetyFollowUpKind
from caseflow.safety.services import plan_save

pytestmark = pytest.mark.django_db

LONDON = ZoneInfo("Europe/London")
# Monday 7 December 2026, 08:00 in London; the cast's safe window is 10:00-12:00, Monday-Friday.
MONDAY = dt.datetime(2026, 12, 7, 8, 0, tzinfo=dt.UTC)
# Thursday 10 December 2026, 14:00 in London.
THURSDAY_HEARING = dt.datetime(2026, 12, 10, 14, 0, tzinfo=dt.UTC)


def _hearing(cast, starts_at=THURSDAY_HEARING, **kw) -> Hearing:
    args = dict(
        actor=cast.assigned,
        case=cast.case,
        court="Exampletown Family Court",
        kind="protection_order",
        starts_at=starts_at,
        attendance="in_person",
        support=["accompaniment", "waiting_room"],
    )
    args.update(kw)
    return services.hearing_record(**args)


def _post_hearing(client, case, **overrides):
    data = {
        "kind": "protection_order",
        "court": "Exampletown Family Court",
        "starts_at": "2026-12-10T14:00",
        "attendance": "in_person",
        "support": ["accompaniment"],
    }
    data.update(overrides)
    return client.post(reverse("court:hearing_new", args=[case.public_id]), data)


# --- Recording -------------------------------------------------------------------------------


@time_machine.travel(MONDAY, tick=False)
def test_a_hearing_is_recorded_audited_and_its_court_kept_encrypted(cast):
    hearing = _hearing(cast)
    assert hearing.agency_id == cast.case.agency_id
    assert hearing.support == ["accompaniment", "waiting_room"]
    assert AuditEvent.objects.filter(action="hearing.create").count() == 1
    with connection.cursor() as cursor:
        cursor.execute("SELECT court FROM court_hearing")
        (stored,) = cursor.fetchone()
    assert "Exampletown" not in stored
    assert Hearing.objects.get(pk=hearing.pk).court == "Exampletown Family Court"


@time_machine.travel(MONDAY, tick=False)
@pytest.mark.parametrize(
    "when", [dt.datetime(1926, 3, 1, 10, tzinfo=dt.UTC), dt.datetime(2066, 3, 1, 10, tzinfo=dt.UTC)]
)
def test_a_hearing_in_1926_or_decades_ahead_is_refused(cast, when):
    with pytest.raises(ValidationError):
        _hearing(cast, starts_at=when)
    assert not Hearing.objects.exists()


@time_machine.travel(MONDAY, tick=False)
def test_only_someone_who_may_change_the_case_records_a_hearing(cast):
    with pytest.raises(PermissionDenied):
        _hearing(cast, actor=cast.other_team)
    with pytest.raises(PermissionDenied):
        _hearing(cast, actor=cast.auditor)


@time_machine.travel(MONDAY, tick=False)
def test_a_stale_change_is_refused_and_nothing_is_written(cast):
    from caseflow.lib.concurrency import StaleEdit

    hearing = _hearing(cast)
    args = dict(
        actor=cast.assigned,
        court="Another court",
        kind="criminal",
        starts_at=THURSDAY_HEARING,
        attendance="video",
        support=[],
    )
    assert services.hearing_update(hearing=hearing, expected_version=1, **args) == [
        "court",
        "kind",
        "attendance",
        "support",
    ]
    with pytest.raises(StaleEdit):
        services.hearing_update(
            hearing=Hearing.objects.get(pk=hearing.pk), expected_version=1, **args
        )
    assert Hearing.objects.get(pk=hearing.pk).version == 2


# --- Safety steps ----------------------------------------------------------------------------


@time_machine.travel(MONDAY, tick=False)
def test_a_hearing_proposes_its_safety_steps_in_safe_windows(cast):
    hearing = _hearing(cast)
    proposed = {s.code: s for s in steps.proposed_steps(cast.case, hearing)}
    assert list(proposed) == list(steps.CODES)
    assert all(s.available for s in proposed.values())
    assert proposed["plan_review"].when == THURSDAY_HEARING - dt.timedelta(days=3)
    # Wednesday and Friday at 10:00 in London, the first safe minute of those days.
    assert proposed["checkin_before"].when == dt.datetime(2026, 12, 9, 10, 0, tzinfo=dt.UTC)
    assert proposed["checkin_after"].when == dt.datetime(2026, 12, 11, 10, 0, tzinfo=dt.UTC)
    assert "safe window" in proposed["checkin_before"].note
    assert proposed["accompaniment"].when == THURSDAY_HEARING


@time_machine.travel(MONDAY, tick=False)
def test_confirmed_steps_are_made_by_the_existing_services_once(cast):
    hearing = _hearing(cast)
    added, problems = steps.hearing_steps_add(
        actor=cast.assigned, hearing=hearing, codes=list(steps.CODES)
    )
    assert [s.code for s in added] == list(steps.CODES) and problems == []
    kinds = set(FollowUp.objects.filter(case=cast.case).values_list("kind", flat=True))
    assert kinds == {SafetyFollowUpKind.PLAN_REVIEW, CourtFollowUpKind.ACCOMPANIMENT}
    due = sorted(CheckIn.objects.filter(case=cast.case).values_list("due_at", flat=True))
    assert due == [
        dt.datetime(2026, 12, 9, 10, 0, tzinfo=dt.UTC),
        dt.datetime(2026, 12, 11, 10, 0, tzinfo=dt.UTC),
    ]
    assert AuditEvent.objects.filter(action="checkin.create").count() == 2
    # Again: everything is already there.
    again, _problems = steps.hearing_steps_add(
        actor=cast.assigned, hearing=hearing, codes=list(steps.CODES)
    )
    assert again == []
    assert CheckIn.objects.filter(case=cast.case).count() == 2
    assert all(s.done for s in steps.proposed_steps(cast.case, hearing))


@time_machine.travel(MONDAY, tick=False)
def test_unticked_steps_are_not_added(cast):
    hearing = _hearing(cast)
    added, _problems = steps.hearing_steps_add(
        actor=cast.assigned, hearing=hearing, codes=["accompaniment"]
    )
    assert [s.code for s in added] == ["accompaniment"]
    assert not CheckIn.objects.filter(case=cast.case).exists()


@time_machine.travel(MONDAY, tick=False)
def test_no_safe_window_the_day_before_proposes_the_nearest(cast):
    # Monday 14 December, 14:00: the day before is a Sunday, when no window opens.
    hearing = _hearing(cast, starts_at=dt.datetime(2026, 12, 14, 14, 0, tzinfo=dt.UTC))
    before = steps.proposed_steps(cast.case, hearing)[1]
    assert before.code == "checkin_before"
    assert before.when == dt.datetime(2026, 12, 14, 10, 0, tzinfo=dt.UTC)
    assert before.note.startswith("No safe window opens on Sun 13 Dec 2026")


@time_machine.travel(MONDAY, tick=False)
def test_the_nearest_slot_may_be_earlier_and_never_after_the_hearing(cast):
    # Monday 14 December at 09:00, before that day's window: the nearest is Friday's last slot.
    hearing = _hearing(cast, starts_at=dt.datetime(2026, 12, 14, 9, 0, tzinfo=dt.UTC))
    before = steps.proposed_steps(cast.case, hearing)[1]
    length = checkin_services.checkin_duration()
    assert before.when == dt.datetime(2026, 12, 11, 12, 0, tzinfo=dt.UTC) - length
    assert before.when < hearing.starts_at


@time_machine.travel(MONDAY, tick=False)
def test_without_a_safe_contact_profile_no_check_in_is_proposed(cast):
    cast.case.safe_contact.delete()
    hearing = _hearing(cast)
    proposed = {s.code: s for s in steps.proposed_steps(cast.case, hearing)}
    assert not proposed["checkin_before"].available
    assert "safe-contact" in proposed["checkin_before"].note
    assert proposed["plan_review"].available


# --- Outcome and orders ----------------------------------------------------------------------


def _plan_with_order(cast):
    plan_save(
        actor=cast.assigned,
        case=cast.case,
        expected_version=0,
        content={
            "protective_orders": [
                {
                    "court": "Exampletown Family Court",
                    "reference": "FL-2026-123",
                    "granted": "2026-12-10",
                    "expires": "2027-06-10",
                    "conditions": "No contact",
                }
            ]
        },
    )


def test_the_outcome_links_the_safety_plans_order_without_copying_it(cast):
    with time_machine.travel(MONDAY, tick=False):
        hearing = _hearing(cast)
    _plan_with_order(cast)
    (order,) = plan_orders(cast.case)
    assert "FL-2026-123" in order.label
    with time_machine.travel(THURSDAY_HEARING + dt.timedelta(hours=3), tick=False):
        services.hearing_outcome_record(
            actor=cast.assigned,
            hearing=hearing,
            expected_version=1,
            outcome=HearingOutcome.ORDER_MADE,
            attendance="in_person",
            orders=[order.key],
            notes="Order made for a year.",
        )
    saved = Hearing.objects.get(pk=hearing.pk)
    assert saved.orders == [order.key] and "FL-2026-123" not in order.key
    assert saved.outcome_recorded_at == THURSDAY_HEARING + dt.timedelta(hours=3)
    assert AuditEvent.objects.filter(action="hearing.outcome").exists()


def test_an_outcome_before_the_hearing_or_with_an_unknown_order_is_refused(cast):
    with time_machine.travel(MONDAY, tick=False):
        hearing = _hearing(cast)
        with pytest.raises(ValidationError):
            services.hearing_outcome_record(
                actor=cast.assigned,
                hearing=hearing,
                expected_version=1,
                outcome="adjourned",
                attendance="in_person",
                orders=[],
                notes="",
            )
    with (
        time_machine.travel(THURSDAY_HEARING + dt.timedelta(hours=3), tick=False),
        pytest.raises(ValidationError),
    ):
        services.hearing_outcome_record(
            actor=cast.assigned,
            hearing=hearing,
            expected_version=1,
            outcome="order_made",
            attendance="in_person",
            orders=["not-an-order"],
            notes="",
        )
    assert Hearing.objects.get(pk=hearing.pk).outcome == ""


# --- Today queue, timeline, calendar ---------------------------------------------------------


def _queue(user, cases, now):
    with time_machine.travel(now, tick=False):
        return today_queue.queue(today_queue.scope_for(user, cases, own_only=True, now=now))


def test_hearings_coming_up_and_outcomes_to_record_are_on_the_queue(cast):
    from caseflow.cases.selectors import my_open_case_set

    with time_machine.travel(MONDAY, tick=False):
        _hearing(cast)
        _hearing(cast, starts_at=MONDAY - dt.timedelta(days=2), kind="criminal")
        far = _hearing(cast, starts_at=MONDAY + dt.timedelta(days=20))
    queue = _queue(cast.assigned, my_open_case_set(cast.assigned), MONDAY)
    court = [i for i in queue.today + queue.overdue if i.kind == "Court hearing"]
    titles = sorted(i.title for i in court)
    assert titles == [
        "Protection order hearing, Thu 10 Dec, 14:00",
        "Record the outcome of the criminal hearing",
    ]
    assert all("Exampletown" not in i.title for i in court)
    assert far.public_id not in " ".join(i.action.url for i in court)
    others = _queue(cast.other_team, my_open_case_set(cast.other_team), MONDAY)
    assert not [i for i in others.today + others.overdue if i.kind == "Court hearing"]


def test_the_steps_reach_the_today_queue(cast):
    from caseflow.cases.selectors import my_open_case_set

    # Tuesday 8 December at 08:00: the hearing is on Wednesday, so the check-in before is today.
    tuesday = MONDAY + dt.timedelta(days=1)
    with time_machine.travel(tuesday, tick=False):
        hearing = _hearing(cast, starts_at=dt.datetime(2026, 12, 9, 14, 0, tzinfo=dt.UTC))
        steps.hearing_steps_add(actor=cast.assigned, hearing=hearing, codes=list(steps.CODES))
    queue = _queue(cast.assigned, my_open_case_set(cast.assigned), tuesday)
    kinds = sorted(i.kind for i in queue.today)
    assert kinds == ["Check-in", "Court hearing", "Follow-up"]


@time_machine.travel(MONDAY, tick=False)
def test_hearings_are_on_the_timeline(cast):
    hearing = _hearing(cast)
    entries = [e for e in page(cast.case, Query()).entries if e.kind == "court_hearing"]
    assert len(entries) == 1
    assert entries[0].title == "Court hearing: Protection order"
    assert ("Court", "Exampletown Family Court") in entries[0].facts
    assert hearing.public_id in entries[0].url


@time_machine.travel(MONDAY, tick=False)
def test_the_calendar_feed_says_court_support_and_nothing_about_the_case(cast):
    hearing = _hearing(cast)
    token = checkin_services.calendar_token_create(actor=cast.assigned)
    body = Client().get(reverse("checkins:feed", args=[token])).content.decode()
    assert "SUMMARY:Court support" in body
    assert f"UID:hearing-{hearing.pk}@caseflow" in body
    assert "DTSTART:20261210T140000Z" in body
    for secret in ("Exampletown", "Protection", cast.case.reference, cast.case.public_id):
        assert secret not in body
    # Someone who does not work the case does not get it.
    other = checkin_services.calendar_token_create(actor=cast.other_team)
    assert (
        "Court support" not in Client().get(reverse("checkins:feed", args=[other])).content.decode()
    )


# --- Pages -----------------------------------------------------------------------------------


@time_machine.travel(MONDAY, tick=False)
def test_recording_a_hearing_leads_to_its_safety_steps(cast, login):
    client = login(cast.assigned)
    response = _post_hearing(client, cast.case)
    hearing = Hearing.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "court:steps", args=[cast.case.public_id, hearing.public_id]
    )
    # 14:00 in the agency's zone (London) is stored in UTC.
    assert hearing.starts_at == THURSDAY_HEARING
    page_ = client.get(response["Location"]).content.decode()
    assert page_.count('name="steps"') == 4 and page_.count("checked") == 4
    response = client.post(
        response["Location"], {"confirm": "1", "steps": ["plan_review", "checkin_after"]}
    )
    assert response.status_code == 302
    assert FollowUp.objects.filter(kind=SafetyFollowUpKind.PLAN_REVIEW).count() == 1
    assert CheckIn.objects.filter(case=cast.case).count() == 1


@time_machine.travel(MONDAY, tick=False)
@pytest.mark.parametrize("when", ["1926-06-01T10:00", "2071-06-01T10:00", "not a date"])
def test_a_bad_date_is_a_form_error_not_a_500(cast, login, when):
    response = _post_hearing(login(cast.assigned), cast.case, starts_at=when)
    assert response.status_code == 200
    assert "is-invalid" in response.content.decode()
    assert not Hearing.objects.exists()


@time_machine.travel(MONDAY, tick=False)
def test_the_case_page_shows_upcoming_and_past_hearings(cast, login):
    _hearing(cast)
    _hearing(cast, starts_at=MONDAY - dt.timedelta(days=30), kind="housing")
    body = login(cast.assigned).get(reverse("cases:detail", args=[cast.case.public_id]))
    text = body.content.decode()
    assert "Upcoming hearings" in text and "Protection order, Thu 10 Dec 2026, 14:00" in text
    assert "Housing, 7 Nov 2026" in text and "Outcome not recorded yet" in text


@time_machine.travel(MONDAY, tick=False)
def test_hearing_pages_answer_by_method_scope_and_right(cast, login):
    hearing = _hearing(cast)
    url = reverse("court:hearing", args=[cast.case.public_id, hearing.public_id])
    change = reverse("court:hearing_change", args=[cast.case.public_id, hearing.public_id])
    assert login(cast.assigned).get(url).status_code == 200
    assert login(cast.assigned).post(url).status_code == 405
    assert login(cast.other_team).get(url).status_code == 404
    assert login(None).get(url).status_code == 302
    case_services.break_glass_open(
        actor=cast.same_team, reference=cast.case.reference, reason="Crisis call"
    )
    assert login(cast.same_team).get(change).status_code == 403
    assert AuditEvent.objects.filter(action="hearing.view").count() == 1


def test_the_outcome_page_waits_for_the_hearing_and_then_records_it(cast, login):
    with time_machine.travel(MONDAY, tick=False):
        hearing = _hearing(cast)
        url = reverse("court:outcome", args=[cast.case.public_id, hearing.public_id])
        assert login(cast.assigned).get(url).status_code == 302
    with time_machine.travel(THURSDAY_HEARING + dt.timedelta(hours=2), tick=False):
        client = login(cast.assigned)
        form = client.get(url).content.decode()
        assert "Record a protective order in the safety plan" in form
        response = client.post(
            url, {"outcome": "adjourned", "attendance": "video", "notes": "", "version": "1"}
        )
        assert response.status_code == 302
    saved = Hearing.objects.get(pk=hearing.pk)
    assert saved.outcome == "adjourned" and saved.attendance == "video"


def test_hearings_leave_in_packs_only_as_court_orders(cast):
    from caseflow.cases.features import members
    from caseflow.court.packs import hearing_rows

    with time_machine.travel(MONDAY, tick=False):
        hearing = _hearing(cast)
    _plan_with_order(cast)
    (order,) = plan_orders(cast.case)
    with time_machine.travel(THURSDAY_HEARING + dt.timedelta(hours=3), tick=False):
        services.hearing_outcome_record(
            actor=cast.assigned,
            hearing=hearing,
            expected_version=1,
            outcome="order_made",
            attendance="in_person",
            orders=[order.key],
            notes="",
        )
    rows = dict(hearing_rows(cast.case))
    assert rows["Court hearing 1: court"] == "Exampletown Family Court"
    assert rows["Court hearing 1: outcome"] == "Order made"
    assert rows["Court hearing 1: orders made"] == "Protective order 1"
    ours = [r for r in members(lambda f: f.pack_rows) if r.rows is hearing_rows]
    assert [r.category for r in ours] == ["court_orders"]
