"""The sweep (claim step, stages, idempotency, dispatch) and deliveries, without a worker."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from unittest import mock

import pytest
import time_machine
from django.core import mail
from django.db import transaction

import caseflow
from caseflow.cases.models import CaseAssignment, CaseStatus
from caseflow.checkins import scheduler, tasks
from caseflow.checkins.models import CheckIn, CheckInStatus, SchedulerHeartbeat
from caseflow.inbox.models import Notification, NotificationChannel
from caseflow.inbox.services import notify
from tests.checkins.helpers import MONDAY, make_checkin, make_followup

pytestmark = pytest.mark.django_db

DUE = MONDAY + dt.timedelta(hours=2)  # 10:00 UTC


def collected(calls: list) -> list[int]:
    return [pk for batch in calls for pk in batch]


def run(now, calls=None):
    calls = [] if calls is None else calls
    return scheduler.sweep(now, enqueue=calls.append)


def test_stages_reminder_due_missed_and_escalation(cast):
    checkin = make_checkin(cast.case, cast.assigned, DUE)
    assert run(DUE - dt.timedelta(minutes=31)).checkins == 0
    run(DUE - dt.timedelta(minutes=30))
    checkin.refresh_from_db()
    assert checkin.reminder_stage == 1
    reminders = Notification.objects.filter(kind="checkin_reminder")
    assert {(n.recipient, n.channel) for n in reminders} == {
        (cast.assigned, NotificationChannel.IN_APP),
        (cast.assigned, NotificationChannel.EMAIL),
    }
    run(DUE)
    assert Notification.objects.filter(kind="checkin_due").count() == 2
    run(DUE + dt.timedelta(minutes=59))
    assert not Notification.objects.filter(kind="checkin_missed").exists()
    run(DUE + dt.timedelta(minutes=60))
    checkin.refresh_from_db()
    assert checkin.status == CheckInStatus.MISSED and checkin.reminder_stage == 3
    missed = Notification.objects.filter(kind="checkin_missed")
    assert {n.recipient for n in missed} == {cast.assigned, cast.supervisor}
    for note in Notification.objects.all():
        assert cast.case.reference in note.text
        assert "CANARY" not in note.text + note.link + note.key
        assert cast.case.public_id in note.link


def test_a_late_sweep_catches_up_with_one_notification_per_row(cast):
    make_checkin(cast.case, cast.assigned, DUE)
    run(DUE + dt.timedelta(hours=3))
    assert set(Notification.objects.values_list("kind", flat=True)) == {"checkin_missed"}


def test_repeated_and_concurrent_sweeps_create_nothing_twice(cast):
    for i in range(5):
        make_checkin(cast.case, cast.assigned, DUE + dt.timedelta(minutes=i))
    calls: list = []
    first = run(DUE + dt.timedelta(minutes=10), calls)
    assert first.checkins == 5 and first.notifications == 10
    # The same rows stay claimed-and-done: a second sweep at the same instant finds nothing.
    again = run(DUE + dt.timedelta(minutes=10), calls)
    assert again.checkins == 0 and again.notifications == 0
    # Even if a sweep re-processes a row (stage reset by hand), the unique key holds.
    CheckIn.objects.update(reminder_stage=1)
    run(DUE + dt.timedelta(minutes=10), calls)
    assert Notification.objects.count() == 10
    assert sorted(collected(calls)) == sorted(Notification.objects.values_list("pk", flat=True))


def test_claim_skips_other_statuses_and_batches(cast):
    for i in range(7):
        make_checkin(cast.case, cast.assigned, DUE + dt.timedelta(seconds=i))
    make_checkin(cast.case, cast.assigned, DUE, status=CheckInStatus.CANCELLED)
    make_checkin(cast.case, cast.assigned, DUE, status=CheckInStatus.UNSAFE)
    result = scheduler.sweep(DUE, batch_size=3, enqueue=lambda ids: None)
    assert result.checkins == 7 and result.batches >= 3
    rows = scheduler._claim(
        CheckIn.objects.due(DUE, lead=scheduler._lead(), grace=scheduler._grace()), ["pk"], 10
    )
    assert rows == []


def test_dispatch_enqueues_on_commit_only(cast, django_capture_on_commit_callbacks):
    make_checkin(cast.case, cast.assigned, DUE)
    with (
        mock.patch("caseflow.checkins.tasks.deliver_notification.apply_async") as apply,
        django_capture_on_commit_callbacks(execute=True) as callbacks,
    ):
        scheduler.sweep(DUE, enqueue=tasks.enqueue_deliveries)
    assert len(callbacks) == 2
    sent_ids = sorted(call.args[0][0] for call in apply.call_args_list)
    assert sent_ids == sorted(Notification.objects.values_list("pk", flat=True))
    for call in apply.call_args_list:  # ids only, and no eta/countdown
        assert all(isinstance(a, int) for a in call.args[0])
        assert "eta" not in call.kwargs and "countdown" not in call.kwargs


def test_a_long_sweep_never_enqueues_its_own_notifications_twice(cast, settings):
    # However long a sweep runs, what it enqueued itself is not "lost" to its own dispatch step;
    # only what was enqueued before it began can be.
    settings.NOTIFY_REQUEUE_SECONDS = 0
    for minutes in range(3):
        make_checkin(cast.case, cast.assigned, DUE + dt.timedelta(minutes=minutes))
    calls: list = []
    result = run(DUE + dt.timedelta(minutes=5), calls)
    ids = collected(calls)
    assert len(ids) == len(set(ids)) == Notification.objects.count() == 6
    assert result.enqueued == 6
    # The next sweep, begun after them, does take the still-unsent ones for lost.
    later: list = []
    run(DUE + dt.timedelta(minutes=6), later)
    assert sorted(collected(later)) == sorted(ids)


def test_a_check_in_created_in_a_rolled_back_transaction_enqueues_nothing(
    cast, django_capture_on_commit_callbacks
):
    class Rollback(Exception):
        pass

    with (
        mock.patch("caseflow.checkins.tasks.deliver_notification.apply_async") as apply,
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(Rollback),
        transaction.atomic(),
    ):
        make_checkin(cast.case, cast.assigned, DUE)
        scheduler.sweep(DUE, enqueue=tasks.enqueue_deliveries)
        raise Rollback
    assert callbacks == []
    apply.assert_not_called()
    assert not CheckIn.objects.exists() and not Notification.objects.exists()


def test_unsent_notifications_are_enqueued_again_after_a_while(cast):
    make_checkin(cast.case, cast.assigned, DUE)
    calls: list = []
    with time_machine.travel(DUE, tick=False):
        run(DUE, calls)
        assert len(collected(calls)) == 2
        run(DUE, calls)
        assert len(collected(calls)) == 2  # just enqueued: not again
    with time_machine.travel(DUE + dt.timedelta(seconds=51), tick=False):
        run(DUE + dt.timedelta(seconds=51), calls)
    assert len(collected(calls)) == 4  # lost by the broker? enqueued again
    Notification.objects.update(sent_at=DUE)
    with time_machine.travel(DUE + dt.timedelta(seconds=200), tick=False):
        run(DUE + dt.timedelta(seconds=200), calls)
    assert len(collected(calls)) == 4


def test_notifications_from_other_areas_are_delivered_too(cast):
    (note,) = notify(
        recipients=[cast.supervisor], kind="break_glass", case=cast.case, key="bg:1", text="x"
    )
    calls: list = []
    run(MONDAY, calls)
    assert collected(calls) == [note.pk]
    assert scheduler.notification_deliver(notification_id=note.pk) == "sent"


def test_followup_reminders(cast):
    fu = make_followup(cast.case, cast.assigned, DUE, kind="court_date")
    run(DUE - dt.timedelta(minutes=30))
    run(DUE)
    run(DUE + dt.timedelta(days=2))
    fu.refresh_from_db()
    assert fu.reminder_stage == 2
    kinds = sorted(Notification.objects.values_list("kind", flat=True))
    assert kinds == ["followup_due"] * 2 + ["followup_reminder"] * 2
    assert "Court date" in Notification.objects.filter(kind="followup_due").first().text


def _deliverable(cast):
    make_checkin(cast.case, cast.assigned, DUE)
    run(DUE - dt.timedelta(minutes=30))
    return (
        Notification.objects.get(channel=NotificationChannel.IN_APP),
        Notification.objects.get(channel=NotificationChannel.EMAIL),
    )


def test_delivery_is_once_and_carries_no_personal_data(cast):
    in_app, email = _deliverable(cast)
    assert scheduler.notification_deliver(notification_id=in_app.pk) == "sent"
    assert scheduler.notification_deliver(notification_id=email.pk) == "sent"
    assert scheduler.notification_deliver(notification_id=email.pk) == "already"
    assert scheduler.notification_deliver(notification_id=in_app.pk) == "already"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [cast.assigned.email]
    text = message.subject + message.body
    assert cast.case.reference in text and cast.case.public_id in text
    assert "CANARY" not in text and "Survivor" not in text
    assert Notification.objects.filter(sent_at__isnull=False).count() == 2


def test_delivery_rechecks_the_case_and_the_recipient_at_run_time(cast):
    in_app, email = _deliverable(cast)
    cast.case.status = CaseStatus.CLOSED
    cast.case.save()
    assert scheduler.notification_deliver(notification_id=email.pk) == "dropped:case_closed"
    cast.case.status = CaseStatus.ACTIVE
    cast.case.save()
    CaseAssignment.objects.filter(case=cast.case, user=cast.assigned).delete()
    assert scheduler.notification_deliver(notification_id=in_app.pk) == "dropped:no_access"
    assert mail.outbox == []
    assert scheduler.notification_deliver(notification_id=10**9) == "missing"


def test_delivery_of_a_reminder_for_a_check_in_already_recorded_is_dropped(cast):
    in_app, _ = _deliverable(cast)
    CheckIn.objects.update(status=CheckInStatus.DONE)
    assert scheduler.notification_deliver(notification_id=in_app.pk) == "dropped:not_due"


def test_heartbeat_and_staleness(cast):
    assert scheduler.scheduler_state()[0] == "stale"
    with time_machine.travel(MONDAY, tick=False):
        run(MONDAY)
        assert SchedulerHeartbeat.objects.get().last_completed_at == MONDAY
        assert scheduler.scheduler_state() == ("ok", MONDAY)
    later = MONDAY + dt.timedelta(minutes=5, seconds=1)
    assert scheduler.scheduler_state(later) == ("stale", MONDAY)


FORBIDDEN = re.compile(r"\b(countdown|eta)\s*=")
RETRY = re.compile(r"\b(default_retry_delay|retry_backoff_max)\s*=\s*(\d+)")


def test_no_task_is_scheduled_far_ahead_anywhere_in_caseflow():
    """Redis redelivers eta/countdown tasks after its visibility timeout: never use them."""
    root = Path(caseflow.__file__).parent
    offenders = []
    scanned = 0
    for path in root.rglob("*.py"):
        text = path.read_text()
        scanned += 1
        for number, line in enumerate(text.splitlines(), start=1):
            if FORBIDDEN.search(line):
                offenders.append(f"{path.relative_to(root)}:{number}")
            if "apply_async(" in line and ("eta" in line or "countdown" in line):
                offenders.append(f"{path.relative_to(root)}:{number}")
            for _, seconds in RETRY.findall(line):
                if int(seconds) > 300:
                    offenders.append(f"{path.relative_to(root)}:{number} retry > 5 minutes")
    assert scanned >= 100  # every Python file under caseflow/
    assert offenders == []


def test_scan_catches_an_offender():
    assert FORBIDDEN.search("deliver.apply_async((1,), countdown=86400)")
    assert FORBIDDEN.search("task.apply_async(args, eta=when)")
    assert not FORBIDDEN.search("beta = 1")


def test_tasks_are_acks_late_and_rejected_on_worker_loss():
    from caseflow.checkins.tasks import deliver_notification, sweep_due

    for task in (deliver_notification, sweep_due):
        assert task.acks_late is True
        assert task.reject_on_worker_lost is True


def test_the_sweep_keeps_recurring_check_ins_materialised_ahead(cast):
    from caseflow.checkins import services

    with time_machine.travel(MONDAY, tick=False):
        made = services.checkin_schedule(
            actor=cast.assigned,
            case=cast.case,
            due_local=dt.datetime(2026, 12, 7, 10, 30),
            channel="phone",
            assignee=cast.assigned,
            rule="FREQ=WEEKLY",
        )
    assert made.occurrences.count() == 4
    later = MONDAY + dt.timedelta(days=14)
    with time_machine.travel(later, tick=False):
        result = scheduler.sweep(later, enqueue=lambda ids: None)
        again = scheduler.sweep(later, enqueue=lambda ids: None)
    assert result.extended == 2 and again.extended == 0
    dues = list(made.occurrences.values_list("due_at", flat=True))
    assert len(dues) == len(set(dues)) == 6
    assert dues[-1] == dt.datetime(2027, 1, 11, 10, 30, tzinfo=dt.UTC)


def test_beat_runs_the_sweep_every_minute(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["checkins-sweep"]
    assert entry["task"] == "caseflow.checkins.tasks.sweep_due"
    assert entry["schedule"] == 60.0


def test_due_dates_at_the_ends_of_the_calendar_do_not_break_the_sweep(cast):
    import datetime as _dt

    make_checkin(cast.case, cast.assigned, _dt.datetime(1, 1, 1, 0, 5, tzinfo=_dt.UTC))
    make_checkin(cast.case, cast.assigned, _dt.datetime(9999, 12, 31, 23, 0, tzinfo=_dt.UTC))
    make_followup(cast.case, cast.assigned, _dt.datetime(1, 1, 1, 0, 5, tzinfo=_dt.UTC))
    result = run(MONDAY)
    assert result.checkins == 1 and result.followups == 1


def test_the_set_based_insert_writes_each_notification_whole(cast):
    """The batch's notifications go in as one statement: every column is what a row created
    through the ORM would hold, quotes and non-ASCII in the reference included."""
    cast.case.reference = "CASE-'Ω\"1"
    cast.case.save(update_fields=["reference"])
    checkin = make_checkin(cast.case, cast.assigned, DUE)
    followup = make_followup(cast.case, cast.assigned, DUE, kind="court_date")
    calls: list = []
    with time_machine.travel(DUE + dt.timedelta(seconds=5), tick=False):
        result = run(DUE, calls)
    assert result.notifications == 4 and result.enqueued == 4
    notes = list(Notification.objects.order_by("key", "channel"))
    assert sorted(collected(calls)) == sorted(n.pk for n in notes)
    link = f"/cases/{cast.case.public_id}/"
    assert [
        (n.recipient_id, n.channel, n.kind, n.case_id, n.key, n.text, n.link) for n in notes
    ] == [
        (
            cast.assigned.pk,
            channel,
            "checkin_due",
            cast.case.pk,
            f"checkin:{checkin.pk}:due:20261207T1000Z",
            "Check-in due now on case CASE-'Ω\"1.",
            link,
        )
        for channel in (NotificationChannel.EMAIL, NotificationChannel.IN_APP)
    ] + [
        (
            cast.assigned.pk,
            channel,
            "followup_due",
            cast.case.pk,
            f"followup:{followup.pk}:due:20261207T1000Z",
            "Follow-up (Court date) due now on case CASE-'Ω\"1.",
            link,
        )
        for channel in (NotificationChannel.EMAIL, NotificationChannel.IN_APP)
    ]
    stamped = DUE + dt.timedelta(seconds=5)
    for n in notes:
        assert n.checkin_id == (checkin.pk if n.kind.startswith("checkin") else None)
        assert n.followup_id == (followup.pk if n.kind.startswith("followup") else None)
        assert n.created_at == stamped and n.enqueued_at == stamped
        assert n.sent_at is None and n.read_at is None and n.dropped == ""
