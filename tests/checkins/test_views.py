"""Check-in pages: dashboard, htmx actions, forms, notifications, calendar feed, health."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse
from icalendar import Calendar

from caseflow.audit.models import AuditEvent
from caseflow.checkins import scheduler, services
from caseflow.checkins.models import CheckIn, CheckInOutcome, CheckInSchedule, CheckInStatus
from caseflow.inbox.models import FollowUpStatus, Notification
from tests.checkins.helpers import MONDAY, UTC, make_checkin, make_followup
from tests.conftest import canary

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@time_machine.travel(MONDAY, tick=False)
def test_dashboard_lists_today_overdue_week_and_followups(cast, login):
    today = make_checkin(cast.case, cast.assigned, MONDAY + dt.timedelta(hours=2, minutes=30))
    overdue = make_checkin(cast.case, cast.assigned, MONDAY - dt.timedelta(days=2))
    later = make_checkin(cast.case, cast.assigned, MONDAY + dt.timedelta(days=3, hours=2))
    make_checkin(cast.case, cast.assigned, MONDAY + dt.timedelta(days=9))  # beyond 7 days
    make_checkin(cast.case, cast.same_team, MONDAY + dt.timedelta(hours=3))  # someone else's
    make_followup(cast.case, cast.assigned, MONDAY + dt.timedelta(days=1), kind="court_date")
    response = login(cast.assigned).get(reverse("checkins:home"))
    assert response.status_code == 200
    ctx = response.context
    assert [c.pk for c in ctx["today"]] == [today.pk]
    assert [c.pk for c in ctx["overdue"]] == [overdue.pk]
    assert [c.pk for c in ctx["upcoming"]] == [later.pk]
    assert len(ctx["followups"]) == 1
    body = response.content.decode()
    assert "Mon-Fri 10:00-12:00" in body and "Europe/London" in body
    assert "Court date" in body
    assert 'name="csrfmiddlewaretoken"' in body and "hx-post=" in body
    assert canary(cast.case) not in body
    event = AuditEvent.objects.filter(action="checkins.dashboard.view").latest("seq")
    assert event.detail["cases"] == [cast.case.pk]


def test_dashboard_queries_stay_constant(cast, login, django_assert_max_num_queries):
    client = login(cast.assigned)
    for i in range(3):
        make_checkin(cast.case, cast.assigned, MONDAY + dt.timedelta(hours=i))
    with time_machine.travel(MONDAY, tick=False):
        client.get(reverse("checkins:home"))
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as few:
            client.get(reverse("checkins:home"))
        for i in range(20):
            make_checkin(cast.restricted_case, cast.assigned, MONDAY + dt.timedelta(hours=i))
        with django_assert_max_num_queries(len(few.captured_queries)):
            client.get(reverse("checkins:home"))


@time_machine.travel(MONDAY, tick=False)
def test_htmx_outcome_returns_the_result_in_place(cast, login):
    checkin = make_checkin(cast.case, cast.assigned, MONDAY + dt.timedelta(hours=2, minutes=30))
    url = reverse("checkins:outcome", args=[cast.case.public_id, checkin.pk])
    response = login(cast.assigned).post(
        url,
        {"outcome": CheckInOutcome.NOT_SAFE, "note": "Not alone", "version": 1, "next": "home"},
        **HX,
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "Recorded: Not safe to talk" in body
    assert "Next safe slot" in body and "Schedule it" in body
    assert "<html" not in body
    checkin.refresh_from_db()
    assert checkin.status == CheckInStatus.DONE and checkin.note == "Not alone"
    # A second post with the old version is refused, nothing overwritten.
    again = login(cast.assigned).post(
        url, {"outcome": CheckInOutcome.REACHED, "note": "x", "version": 1}, **HX
    )
    assert "Nothing was saved" in again.content.decode()
    checkin.refresh_from_db()
    assert checkin.outcome == CheckInOutcome.NOT_SAFE


@time_machine.travel(MONDAY, tick=False)
def test_outcome_bad_input_is_a_form_error(cast, login):
    checkin = make_checkin(cast.case, cast.assigned, MONDAY + dt.timedelta(hours=2))
    url = reverse("checkins:outcome", args=[cast.case.public_id, checkin.pk])
    client = login(cast.assigned)
    response = client.post(url, {"outcome": "bogus", "version": "x", "note": "n" * 600})
    assert response.status_code == 200 and response.context["form"].errors
    response = client.post(url, {"outcome": "rescheduled", "version": 1})
    assert "Give the new date and time" in response.content.decode()
    assert CheckIn.objects.get(pk=checkin.pk).status == CheckInStatus.SCHEDULED
    other = make_checkin(cast.restricted_case, cast.assigned, MONDAY + dt.timedelta(hours=2))
    wrong = reverse("checkins:outcome", args=[cast.case.public_id, other.pk])
    assert client.get(wrong).status_code == 404


@time_machine.travel(MONDAY, tick=False)
def test_schedule_form_refuses_unsafe_time_and_offers_the_next_slot(cast, login):
    url = reverse("checkins:new", args=[cast.case.public_id])
    client = login(cast.assigned)
    data = {"date": "2026-12-07", "time": "09:00", "channel": "phone", "assignee": cast.assigned.pk}
    response = client.post(url, data)
    body = response.content.decode()
    assert response.status_code == 200
    assert "outside the survivor&#x27;s safe windows" in body
    assert "Next safe slot" in body and "10:00" in body
    assert not CheckIn.objects.exists()
    response = client.post(url, {**data, "time": "10:30", "repeat": "weekly"})
    assert response.status_code == 302
    assert CheckIn.objects.filter(schedule__isnull=False).count() == 4
    assert CheckInSchedule.objects.get().rule == "FREQ=WEEKLY;BYDAY=MO"
    response = client.post(url, {**data, "repeat": "days"})
    assert "Choose the days it repeats on." in response.content.decode()
    response = client.post(url, {**data, "assignee": cast.other_agency.pk})
    assert response.context["form"].errors["assignee"]


@time_machine.travel(MONDAY, tick=False)
def test_followup_pages_and_htmx_done(cast, login):
    client = login(cast.assigned)
    new = reverse("checkins:followup_new", args=[cast.case.public_id])
    response = client.post(
        new,
        {
            "kind": "court_date",
            "due_at": "2026-12-09T09:00",
            "details": "Bring the order",
            "assignee": cast.assigned.pk,
        },
    )
    assert response.status_code == 302
    fu = cast.case.followups.get()
    assert fu.due_at == dt.datetime(2026, 12, 9, 9, 0, tzinfo=UTC)
    edit = reverse("checkins:followup_edit", args=[cast.case.public_id, fu.pk])
    stale = client.post(
        edit,
        {"kind": "task", "due_at": "2026-12-09T09:00", "assignee": cast.assigned.pk, "version": 9},
    )
    assert "Nothing was saved" in stale.content.decode()
    done = reverse("checkins:followup_done", args=[cast.case.public_id, fu.pk])
    response = client.post(done, {"next": "home"}, **HX)
    assert "Done" in response.content.decode()
    fu.refresh_from_db()
    assert fu.status == FollowUpStatus.DONE


def test_notifications_list_counts_and_marks_read(cast, login):
    make_checkin(cast.case, cast.assigned, MONDAY + dt.timedelta(hours=2))
    scheduler.sweep(MONDAY + dt.timedelta(hours=2), enqueue=lambda ids: None)
    for note in Notification.objects.all():
        scheduler.notification_deliver(notification_id=note.pk)
    client = login(cast.assigned)
    home = client.get(reverse("dashboard")).content.decode()
    assert '1<span class="visually-hidden"> unread notifications' in home
    page = client.get(reverse("checkins:notifications")).content.decode()
    assert "Check-in due now on case CASE-1" in page and ">new</span>" in page
    # Listing them reads none; opening one reads it and goes where it points.
    unread = Notification.objects.filter(channel="in_app", read_at__isnull=True)
    assert unread.count() == 1
    note = unread.get()
    response = client.get(reverse("checkins:notification_open", args=[note.pk]))
    assert response.status_code == 302 and response["Location"] == note.link
    assert not unread.exists()
    home = client.get(reverse("dashboard")).content.decode()
    assert "unread notifications" not in home


def _note(user, key, text="Emergency access opened on case CASE-1: please review it.", **kw):
    from django.utils import timezone

    return Notification.objects.create(
        recipient=user,
        kind=kw.pop("kind", "break_glass"),
        key=key,
        text=text,
        link=kw.pop("link", "/"),
        sent_at=timezone.now(),
        **kw,
    )


def test_repeats_are_folded_and_mark_all_read_reads_every_one(cast, login):
    for n in range(3):
        _note(cast.supervisor, f"dup:{n}")
    _note(cast.supervisor, "other", text="Something else.")
    client = login(cast.supervisor)
    page = client.get(reverse("checkins:notifications")).content.decode()
    assert page.count("please review it.") == 1 and "3 times" in page
    response = client.post(reverse("checkins:notifications_read_all"), follow=True)
    assert "4 notifications marked read." in response.content.decode()
    assert not Notification.objects.filter(recipient=cast.supervisor, read_at__isnull=True)


def test_a_notification_of_someone_else_or_with_an_outside_link_goes_nowhere(cast, login):
    theirs = _note(cast.supervisor, "theirs")
    outside = _note(cast.assigned, "outside", link="//evil.example/")
    client = login(cast.assigned)
    assert client.get(reverse("checkins:notification_open", args=[theirs.pk])).status_code == 404
    response = client.get(reverse("checkins:notification_open", args=[outside.pk]))
    assert response["Location"] == reverse("checkins:notifications")


def test_done_work_clears_its_notifications_for_everyone(cast):
    from caseflow.inbox.services import notifications_resolve

    _note(cast.supervisor, "break_glass:7")
    _note(cast.other_supervisor, "break_glass:7")
    _note(cast.supervisor, "break_glass:70")
    assert notifications_resolve(key="break_glass:7") == 2
    assert Notification.objects.filter(key="break_glass:70", read_at__isnull=True).exists()
    _note(cast.assigned, "checkin:5:due:20260301T1000Z")
    _note(cast.assigned, "checkin:5:missed:20260301T1000Z")
    _note(cast.assigned, "checkin:50:due:20260301T1000Z")
    assert notifications_resolve(prefix="checkin:5:") == 2
    with pytest.raises(ValueError):
        notifications_resolve(prefix="checkin:5")


def _feed(client, token):
    return client.get(reverse("checkins:feed", args=[token]))


@time_machine.travel(MONDAY, tick=False)
def test_calendar_feed_parses_and_holds_no_personal_data(cast, client, login):
    make_checkin(cast.case, cast.assigned, MONDAY + dt.timedelta(hours=2, minutes=30))
    make_checkin(cast.restricted_case, cast.assigned, MONDAY + dt.timedelta(days=1, hours=2))
    make_checkin(cast.team2_case, cast.other_team, MONDAY + dt.timedelta(hours=3))
    response = login(cast.assigned).post(reverse("checkins:calendar"), {"action": "create"})
    feed_url = response.context["feed_url"]
    token = feed_url.rsplit("/", 1)[1].removesuffix(".ics")
    client.logout()
    response = _feed(client, token)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    cal = Calendar.from_ical(response.content)
    events = list(cal.walk("VEVENT"))
    assert sorted(str(e["SUMMARY"]) for e in events) == ["Check-in · CASE-1", "Check-in · CASE-R"]
    first = min(events, key=lambda e: e.decoded("DTSTART"))
    assert first.decoded("DTSTART") == MONDAY + dt.timedelta(hours=2, minutes=30)
    body = response.content.decode()
    for case in (cast.case, cast.restricted_case, cast.team2_case, cast.foreign_case):
        assert canary(case) not in body
    for word in ("Survivor", "phone", "code", cast.case.public_id):
        assert word not in body
    for event in events:  # nothing but times, an id and the summary
        assert set(event.keys()) == {"UID", "DTSTAMP", "DTSTART", "DTEND", "SUMMARY"}
    assert (
        AuditEvent.objects.filter(action="calendar.fetch", actor_id=cast.assigned.pk).count() == 1
    )


@time_machine.travel(MONDAY, tick=False)
def test_calendar_feed_revoked_or_deactivated_is_gone_and_rate_limited(
    cast, client, login, settings, caplog
):
    token = services.calendar_token_create(actor=cast.assigned)
    settings.CALENDAR_FEED_RATE_PER_HOUR = 2  # counted per token: a new token starts at 0
    assert _feed(client, token).status_code == 200
    assert _feed(client, token).status_code == 200
    assert _feed(client, token).status_code == 429
    assert AuditEvent.objects.filter(action="calendar.fetch").count() == 2
    login(cast.assigned).post(reverse("checkins:calendar"), {"action": "revoke"})
    client.logout()
    assert _feed(client, token).status_code == 404
    leaving = services.calendar_token_create(actor=cast.same_team)
    assert _feed(client, leaving).status_code == 200
    cast.same_team.membership.is_active = False
    cast.same_team.membership.save()
    assert _feed(client, leaving).status_code == 404
    assert cast.assigned.calendar_tokens.get().token_hash != token
    assert token not in caplog.text and leaving not in caplog.text


def test_scheduler_health_and_dashboard_status(cast, client, login):
    assert client.get(reverse("scheduler_health")).json()["scheduler"] == "stale"
    scheduler.sweep(enqueue=lambda ids: None)
    response = client.get(reverse("scheduler_health"))
    assert response.status_code == 200 and response.json()["scheduler"] == "ok"
    for name in ("supervisor", "agency_admin"):
        body = login(getattr(cast, name)).get(reverse("dashboard")).content.decode()
        assert "Reminder scheduler" in body and "running" in body
    body = login(cast.assigned).get(reverse("dashboard")).content.decode()
    assert "Reminder scheduler" not in body
    with time_machine.travel(dt.datetime.now(UTC) + dt.timedelta(minutes=6), tick=False):
        response = client.get(reverse("scheduler_health"))
        assert response.status_code == 503 and response.json()["scheduler"] == "stale"
        body = login(cast.supervisor).get(reverse("dashboard")).content.decode()
        assert "stale" in body


@time_machine.travel(MONDAY, tick=False)
def test_case_panel_shows_check_ins_without_notes(cast, login):
    checkin = make_checkin(cast.case, cast.assigned, MONDAY + dt.timedelta(hours=2))
    services.checkin_record_outcome(
        actor=cast.assigned,
        checkin=checkin,
        expected_version=1,
        outcome=CheckInOutcome.REACHED,
        note="SECRET-NOTE",
    )
    make_checkin(cast.case, cast.assigned, MONDAY + dt.timedelta(days=1, hours=2))
    body = login(cast.assigned).get(reverse("cases:detail", args=[cast.case.public_id]))
    text = body.content.decode()
    assert "Check-ins and follow-ups" in text and "Reached" in text
    assert "SECRET-NOTE" not in text


@time_machine.travel(MONDAY, tick=False)
def test_dates_at_the_ends_of_the_calendar_are_form_errors(cast, login):
    client = login(cast.assigned)
    new = reverse("checkins:new", args=[cast.case.public_id])
    base = {"time": "10:30", "channel": "phone", "assignee": cast.assigned.pk}
    for date in ("9999-12-31", "0001-01-01", "not-a-date"):
        response = client.post(new, {**base, "date": date})
        assert response.status_code == 200 and response.context["form"].errors["date"]
    fu = reverse("checkins:followup_new", args=[cast.case.public_id])
    for due in ("9999-12-31T23:59", "0001-01-01T00:00"):
        response = client.post(fu, {"kind": "task", "due_at": due, "assignee": cast.assigned.pk})
        assert response.status_code == 200 and response.context["form"].errors["due_at"]
    assert not CheckIn.objects.exists() and not cast.case.followups.exists()
