"""Scheduling check-ins inside safe windows, outcomes, re-checks, follow-ups."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import translation

from caseflow.audit.models import AuditEvent
from caseflow.checkins import services
from caseflow.checkins.models import CheckIn, CheckInOutcome, CheckInSchedule, CheckInStatus
from caseflow.inbox import services as inbox_services
from caseflow.inbox.models import FollowUpStatus, Notification
from caseflow.lib.concurrency import StaleEdit
from tests.checkins.helpers import MONDAY, UTC, make_followup

pytestmark = pytest.mark.django_db


def schedule(cast, local, channel="phone", rule="", actor=None, case=None):
    return services.checkin_schedule(
        actor=actor or cast.assigned,
        case=case or cast.case,
        due_local=local,
        channel=channel,
        assignee=cast.assigned,
        rule=rule,
    )


def set_profile(cast, tz="Europe/London", windows=None, channels=("phone",)):
    profile = cast.case.safe_contact
    return services.safe_contact_save(
        actor=cast.assigned,
        case=cast.case,
        expected_version=profile.version,
        timezone_name=tz,
        rules={
            "channels": list(channels),
            "windows": windows or [{"days": [0, 1, 2, 3, 4], "start": "10:00", "end": "12:00"}],
            "voicemail_safe": False,
        },
        details={},
    )


@time_machine.travel(MONDAY, tick=False)
def test_one_off_inside_a_safe_window_is_scheduled_and_audited(cast):
    checkin = schedule(cast, dt.datetime(2026, 12, 7, 10, 30))
    assert checkin.due_at == dt.datetime(2026, 12, 7, 10, 30, tzinfo=UTC)
    assert checkin.status == CheckInStatus.SCHEDULED
    assert AuditEvent.objects.filter(action="checkin.create", case_id=cast.case.pk).count() == 1


@time_machine.travel(MONDAY, tick=False)
def test_outside_a_window_is_refused_with_the_next_safe_slot(cast):
    with pytest.raises(services.UnsafeSlot) as exc:
        schedule(cast, dt.datetime(2026, 12, 7, 9, 0))
    assert exc.value.next_slot == dt.datetime(2026, 12, 7, 10, 0, tzinfo=UTC)
    assert "outside the survivor's safe windows" in exc.value.full_message()
    assert "Mon 7 Dec 2026 10:00 (Europe/London)" in exc.value.full_message()
    # Said in the reader's language, the day and month included.
    with translation.override("es"):
        spanish = exc.value.full_message()
    assert "El próximo hueco seguro es lun 7 dic 2026 10:00 (Europe/London)." in spanish
    # A check-in must fit wholly inside the window: 11:50 + 15 minutes ends after 12:00.
    with pytest.raises(services.UnsafeSlot) as late:
        schedule(cast, dt.datetime(2026, 12, 7, 11, 50))
    assert late.value.next_slot == dt.datetime(2026, 12, 8, 10, 0, tzinfo=UTC)
    assert not CheckIn.objects.exists()


@time_machine.travel(MONDAY, tick=False)
def test_an_unsafe_channel_is_refused(cast):
    with pytest.raises(services.UnsafeSlot, match="Text message is not a safe channel"):
        schedule(cast, dt.datetime(2026, 12, 7, 10, 30), channel="text")
    with translation.override("es"), pytest.raises(services.UnsafeSlot, match="no es un canal"):
        schedule(cast, dt.datetime(2026, 12, 7, 10, 30), channel="text")


@time_machine.travel(MONDAY, tick=False)
def test_no_profile_is_refused(cast):
    cast.case.safe_contact.delete()
    with pytest.raises(services.UnsafeSlot, match="no safe-contact profile") as exc:
        schedule(cast, dt.datetime(2026, 12, 7, 10, 30))
    assert exc.value.full_message() == exc.value.message and exc.value.next_slot is None


@time_machine.travel(MONDAY, tick=False)
def test_past_times_and_outsiders_are_refused(cast):
    with pytest.raises(ValidationError):
        schedule(cast, dt.datetime(2026, 12, 7, 7, 0))
    with pytest.raises(PermissionDenied):
        schedule(cast, dt.datetime(2026, 12, 7, 10, 30), actor=cast.same_team)


@time_machine.travel(dt.datetime(2027, 3, 20, 12, 0, tzinfo=UTC), tick=False)
def test_weekly_recurrence_keeps_local_time_across_spring_forward(cast):
    made = schedule(cast, dt.datetime(2027, 3, 22, 10, 30), rule="FREQ=WEEKLY;BYDAY=MO")
    assert isinstance(made, CheckInSchedule)
    dues = list(made.occurrences.values_list("due_at", flat=True))
    # London moves to BST on 28 March 2027: 10:30 local is 10:30 UTC, then 09:30 UTC.
    assert dues[:3] == [
        dt.datetime(2027, 3, 22, 10, 30, tzinfo=UTC),
        dt.datetime(2027, 3, 29, 9, 30, tzinfo=UTC),
        dt.datetime(2027, 4, 5, 9, 30, tzinfo=UTC),
    ]
    assert len(dues) == 4  # four weeks ahead, no more


@time_machine.travel(dt.datetime(2027, 10, 25, 12, 0, tzinfo=UTC), tick=False)
def test_recurrence_across_fall_back_and_refusal_of_an_unsafe_repeat(cast):
    # Daily at 11:50 would run past the 12:00 end on every day: refused, naming the first.
    with pytest.raises(services.UnsafeSlot, match="The repeat on"):
        schedule(cast, dt.datetime(2027, 10, 26, 11, 50), rule="FREQ=DAILY")
    # Tuesdays at 11:00: 11:00 UTC on 26 October, 11:00 local = 11:00 UTC after 31 October.
    made = schedule(cast, dt.datetime(2027, 10, 26, 11, 0), rule="FREQ=WEEKLY;BYDAY=TU;COUNT=3")
    dues = list(made.occurrences.values_list("due_at", flat=True))
    assert dues == [
        dt.datetime(2027, 10, 26, 10, 0, tzinfo=UTC),  # BST: UTC+1
        dt.datetime(2027, 11, 2, 11, 0, tzinfo=UTC),  # GMT
        dt.datetime(2027, 11, 9, 11, 0, tzinfo=UTC),
    ]


@time_machine.travel(dt.datetime(2026, 12, 11, 12, 0, tzinfo=UTC), tick=False)
def test_windows_crossing_midnight(cast):
    set_profile(cast, windows=[{"days": [4], "start": "22:00", "end": "01:00"}])
    # Friday 22:00 to Saturday 01:00: Saturday 00:30 is inside ...
    ok = schedule(cast, dt.datetime(2026, 12, 12, 0, 30))
    assert ok.due_at == dt.datetime(2026, 12, 12, 0, 30, tzinfo=UTC)
    # ... Saturday 00:50 would end at 01:05: the next slot is the following Friday 22:00.
    with pytest.raises(services.UnsafeSlot) as exc:
        schedule(cast, dt.datetime(2026, 12, 12, 0, 50))
    assert exc.value.next_slot == dt.datetime(2026, 12, 18, 22, 0, tzinfo=UTC)


@time_machine.travel(MONDAY, tick=False)
def test_an_outcome_cannot_be_recorded_for_a_check_in_not_yet_due(cast):
    checkin = schedule(cast, dt.datetime(2026, 12, 9, 10, 30))  # Wednesday; now is Monday
    with pytest.raises(ValidationError, match="not due yet"):
        services.checkin_record_outcome(
            actor=cast.assigned,
            checkin=checkin,
            expected_version=checkin.version,
            outcome=CheckInOutcome.REACHED,
        )
    assert CheckIn.objects.get(pk=checkin.pk).status == CheckInStatus.SCHEDULED


@time_machine.travel(MONDAY, tick=False)
def test_not_safe_to_talk_proposes_the_next_safe_slot(cast):
    checkin = schedule(cast, dt.datetime(2026, 12, 7, 10, 30))
    with time_machine.travel(dt.datetime(2026, 12, 7, 10, 35, tzinfo=UTC), tick=False):
        done, proposal, new = services.checkin_record_outcome(
            actor=cast.assigned,
            checkin=checkin,
            expected_version=checkin.version,
            outcome=CheckInOutcome.NOT_SAFE,
            note="He was in the room.",
        )
    assert done.status == CheckInStatus.DONE
    assert new is None
    # The window it failed in (10:00-12:00 today) did not prove safe: the proposal is the next
    # window, tomorrow at 10:00, not later in the same one.
    assert proposal == dt.datetime(2026, 12, 8, 10, 0, tzinfo=UTC)
    stored = CheckIn.objects.get(pk=checkin.pk)
    assert stored.note == "He was in the room."
    event = AuditEvent.objects.get(action="checkin.outcome")
    assert "room" not in str(event.detail)
    with pytest.raises(services.AlreadyRecorded):
        services.checkin_record_outcome(
            actor=cast.assigned,
            checkin=checkin,
            expected_version=checkin.version,
            outcome=CheckInOutcome.REACHED,
        )


@time_machine.travel(MONDAY, tick=False)
def test_rescheduled_creates_a_new_safe_check_in_or_nothing(cast):
    checkin = schedule(cast, dt.datetime(2026, 12, 7, 10, 30))
    with pytest.raises(services.UnsafeSlot):
        services.checkin_record_outcome(
            actor=cast.assigned,
            checkin=CheckIn.objects.get(pk=checkin.pk),
            expected_version=1,
            outcome=CheckInOutcome.RESCHEDULED,
            reschedule_local=dt.datetime(2026, 12, 8, 20, 0),
        )
    assert (
        CheckIn.objects.get(pk=checkin.pk).status == CheckInStatus.SCHEDULED
    )  # nothing half-saved
    _, _, new = services.checkin_record_outcome(
        actor=cast.assigned,
        checkin=CheckIn.objects.get(pk=checkin.pk),
        expected_version=1,
        outcome=CheckInOutcome.RESCHEDULED,
        reschedule_local=dt.datetime(2026, 12, 8, 11, 0),
    )
    assert new.due_at == dt.datetime(2026, 12, 8, 11, 0, tzinfo=UTC)


@time_machine.travel(MONDAY, tick=False)
def test_changed_profile_flags_future_check_ins_and_tells_the_advocate(cast):
    keep = schedule(cast, dt.datetime(2026, 12, 7, 11, 0))
    moved = schedule(cast, dt.datetime(2026, 12, 8, 10, 15))
    set_profile(cast, windows=[{"days": [0], "start": "10:30", "end": "12:00"}])
    assert CheckIn.objects.get(pk=keep.pk).status == CheckInStatus.SCHEDULED
    assert CheckIn.objects.get(pk=moved.pk).status == CheckInStatus.UNSAFE
    note = Notification.objects.get(kind="checkin_unsafe")
    assert note.recipient == cast.assigned
    assert cast.case.reference in note.text and "CANARY" not in note.text
    # Safe again: restored.
    set_profile(cast)
    assert CheckIn.objects.get(pk=moved.pk).status == CheckInStatus.SCHEDULED


@time_machine.travel(MONDAY, tick=False)
def test_followups_create_edit_done(cast):
    due = MONDAY + dt.timedelta(days=2)
    fu = services.followup_create(
        actor=cast.assigned,
        case=cast.case,
        kind="court_date",
        due_at=due,
        details="Hearing at the family court",
        assignee=cast.assigned,
    )
    fu.reminder_stage = 2
    fu.save()
    services.followup_update(
        actor=cast.assigned,
        followup=fu,
        expected_version=fu.version,
        data={"due_at": due + dt.timedelta(days=1)},
    )
    assert fu.reminder_stage == 0 and fu.version == 2
    with pytest.raises(StaleEdit):
        services.followup_update(
            actor=cast.assigned, followup=fu, expected_version=1, data={"details": "x"}
        )
    assert services.followup_done(actor=cast.assigned, followup=fu)
    assert not services.followup_done(actor=cast.assigned, followup=fu)
    assert fu.status == FollowUpStatus.DONE
    with pytest.raises(ValidationError):
        services.followup_create(
            actor=cast.assigned,
            case=cast.case,
            kind="task",
            due_at=due,
            details="",
            assignee=cast.other_team,
        )


def test_followup_ensure_is_idempotent(cast):
    first, created = inbox_services.followup_ensure(
        case=cast.case, kind="plan_review", due_at=MONDAY, source_key="plan:1:review"
    )
    again, created_again = inbox_services.followup_ensure(
        case=cast.case, kind="plan_review", due_at=MONDAY, source_key="plan:1:review"
    )
    assert created and not created_again and first.pk == again.pk
    assert make_followup(cast.case, cast.assigned, MONDAY).pk != first.pk


def test_calendar_token_stores_only_a_hash(cast):
    token = services.calendar_token_create(actor=cast.assigned)
    row = cast.assigned.calendar_tokens.get()
    assert row.token_hash == services.token_hash(token) and token not in row.token_hash
    second = services.calendar_token_create(actor=cast.assigned)
    assert second != token
    assert cast.assigned.calendar_tokens.filter(revoked_at__isnull=True).count() == 1
    with pytest.raises(PermissionDenied):
        services.calendar_token_create(actor=cast.auditor)
