"""Demo data for check-ins: today's, overdue and upcoming check-ins, a recurring one, recorded
outcomes, follow-ups and a few delivered notifications, for every advocate's open cases.

Every check-in is inside its survivor's safe windows, whatever the day and time the demo is
seeded. Upcoming ones are at the next safe slots after now, as the safe-window engine finds them
(a later one is found from the one before it, never by adding days, which may leave the
windows); past ones are at the latest safe slot before a moment in the past. A check-in that
cannot be placed stops the seed with :class:`DemoSeedError`: the demo never leaves one out
silently."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError

from caseflow.accounts import zones
from caseflow.cases import today
from caseflow.cases.models import OPEN_STATUSES, Case, SafeContactProfile
from caseflow.checkins import proposals, scheduler, services
from caseflow.checkins.models import CheckIn, CheckInOutcome, CheckInSchedule
from caseflow.inbox.kinds import GeneralFollowUpKind
from caseflow.inbox.models import Notification, NotificationChannel
from caseflow.lib import weekly_windows

FOLLOWUPS = [
    (GeneralFollowUpKind.COURT_DATE, "Family court hearing: check the client has transport."),
    (GeneralFollowUpKind.TASK, "Send the referral pack to the housing officer."),
    (GeneralFollowUpKind.TASK, "Call the school about the pick-up arrangements."),
    (
        GeneralFollowUpKind.COURT_DATE,
        "Order hearing: go through the application with the client.",
    ),
]
#: The past check-ins, by the case's place in its advocate's list: how long ago, roughly (each
#: is at the last safe slot before then), and the outcome recorded; none for the missed one,
#: which the sweep marks missed and escalates.
PAST = {
    2: (dt.timedelta(days=2), None, ""),
    3: (
        dt.timedelta(days=7),
        CheckInOutcome.REACHED,
        "Fictional: client safe, staying with her sister this week.",
    ),
    4: (
        dt.timedelta(days=3),
        CheckInOutcome.NOT_SAFE,
        "Fictional: client used the code word; call again later.",
    ),
}
#: The two weeks the safe-window engine searches, forwards (``next_safe``) and, here, back.
SEARCH = dt.timedelta(days=14)


class DemoSeedError(Exception):
    """A demo check-in could not be placed inside its survivor's safe windows."""


def _local(moment: dt.datetime, tz: str) -> dt.datetime:
    return moment.astimezone(ZoneInfo(tz)).replace(tzinfo=None)


def _windows_text(profile: SafeContactProfile) -> str:
    text = weekly_windows.format_windows(services.profile_windows(profile)).replace("\n", "; ")
    return f"{text or 'none'} ({profile.timezone})"


def _slot_after(case: Case, profile: SafeContactProfile, after: dt.datetime) -> dt.datetime:
    """The first safe slot at or after ``after``."""
    slot = services.next_safe(profile, after)
    if slot is None:
        raise DemoSeedError(
            f"Demo case {case.reference}: no safe slot in the two weeks after "
            f"{after:%Y-%m-%d %H:%M} UTC in its safe windows: {_windows_text(profile)}."
        )
    return slot


def _slot_before(case: Case, profile: SafeContactProfile, before: dt.datetime) -> dt.datetime:
    """The latest safe slot starting at or before ``before`` (a check-in that fits wholly inside
    a safe window), from the same safe intervals ``next_safe`` searches."""
    duration = services.checkin_duration()
    intervals = weekly_windows.window_occurrences(
        before - SEARCH, before + duration, services.profile_windows(profile), profile.timezone
    )
    for begin, finish in reversed(intervals):
        slot = min(before, finish - duration).replace(second=0, microsecond=0)
        if slot >= begin:
            return slot
    raise DemoSeedError(
        f"Demo case {case.reference}: no safe slot in the two weeks before "
        f"{before:%Y-%m-%d %H:%M} UTC in its safe windows: {_windows_text(profile)}."
    )


def _require_safe(case: Case, profile: SafeContactProfile, due_at: dt.datetime, channel: str):
    problem = services.slot_problem(profile, due_at, channel)
    if problem:
        raise DemoSeedError(
            f"Demo case {case.reference}: the check-in at {due_at:%Y-%m-%d %H:%M} UTC is not "
            f"safe ({problem}) in its safe windows: {_windows_text(profile)}."
        )


def _schedule(
    case: Case, advocate, profile: SafeContactProfile, slot: dt.datetime, channel: str, rule=""
) -> CheckIn | CheckInSchedule:
    """Schedule through the service, as an advocate would; a refusal stops the seed."""
    try:
        made = services.checkin_schedule(
            actor=advocate,
            case=case,
            due_local=_local(slot, profile.timezone),
            channel=channel,
            assignee=advocate,
            rule=rule,
        )
    except services.UnsafeSlot as exc:
        raise DemoSeedError(
            f"Demo case {case.reference}: the check-in at {slot:%Y-%m-%d %H:%M} UTC was "
            f"refused: {exc.full_message()}"
        ) from exc
    except ValidationError as exc:
        raise DemoSeedError(
            f"Demo case {case.reference}: the check-in at {slot:%Y-%m-%d %H:%M} UTC was "
            f"refused: {' '.join(exc.messages)}"
        ) from exc
    placed = made.occurrences.all() if isinstance(made, CheckInSchedule) else [made]
    for checkin in placed:
        _require_safe(case, profile, checkin.due_at, channel)
    return made


def _place_in_past(
    case: Case, profile: SafeContactProfile, checkin: CheckIn, due_at: dt.datetime
) -> CheckIn:
    """Move a demo check-in to a past safe slot, which the scheduling service refuses (it only
    schedules ahead)."""
    _require_safe(case, profile, due_at, checkin.channel)
    CheckIn.objects.filter(pk=checkin.pk).update(due_at=due_at)
    return CheckIn.objects.get(pk=checkin.pk)


def seed_demo(context) -> None:
    now = context.now
    by_advocate: dict[int, list] = {}
    for case in context.cases:
        case.refresh_from_db()
        if case.status not in OPEN_STATUSES or case.restricted:
            continue
        profile = services.profile_for(case)
        if profile is None or not profile.channels:
            continue
        advocate = case.primary_advocate
        if advocate is None:
            continue
        by_advocate.setdefault(advocate.pk, []).append((case, advocate, profile))

    for items in by_advocate.values():
        for index, (case, advocate, profile) in enumerate(items[:6]):
            channel = profile.channels[0]
            # An hour's notice, so that the first reminder is still ahead.
            slot = _slot_after(case, profile, now + dt.timedelta(hours=1))
            if index == 0:
                # A weekly check-in, as in the weeks after leaving.
                _schedule(case, advocate, profile, slot, channel, rule="FREQ=WEEKLY;COUNT=8")
                continue
            # Index 1 is at the next safe slot: in today's list, or the coming days' once
            # today's windows have passed.
            if index == 5:
                # Another upcoming one, at the first safe slot a day after the next.
                slot = _slot_after(case, profile, slot + dt.timedelta(days=1))
            checkin = _schedule(case, advocate, profile, slot, channel)
            assert isinstance(checkin, CheckIn)
            if index in PAST:
                ago, outcome, note = PAST[index]
                checkin = _place_in_past(
                    case, profile, checkin, _slot_before(case, profile, now - ago)
                )
                if outcome is not None:
                    services.checkin_record_outcome(
                        actor=advocate,
                        checkin=checkin,
                        expected_version=None,
                        outcome=outcome,
                        note=note,
                    )
        # The staff's day, for a Monday-morning queue with something due later today whenever
        # the demo starts.
        with zones.using(zones.user_zone(items[0][1])):
            _, day_end = today.day_bounds(now)
        later_today = max(now, min(now + dt.timedelta(hours=3), day_end - dt.timedelta(minutes=1)))
        for index, (case, advocate, _profile) in enumerate(items[:4]):
            kind, details = FOLLOWUPS[index % len(FOLLOWUPS)]
            due_at = now + dt.timedelta(days=index - 1, hours=3)
            if index == 1:
                due_at = later_today
            services.followup_create(
                actor=advocate,
                case=case,
                kind=kind,
                due_at=due_at,
                details=details,
                assignee=advocate,
            )

    # The hard dates and handovers of the coming fortnight each keep a check-in proposed.
    proposals.checkin_proposals_sweep(now)
    # One sweep now: reminders for what is due, the overdue check-ins marked missed and
    # escalated. In-app notifications are delivered at once; the worker sends the e-mails.
    scheduler.sweep(now, enqueue=lambda ids: None)
    for pk in Notification.objects.filter(
        channel=NotificationChannel.IN_APP, sent_at__isnull=True
    ).values_list("pk", flat=True):
        scheduler.notification_deliver(notification_id=pk)
