"""Demo data for check-ins: today's, overdue and upcoming check-ins, a recurring one, recorded
outcomes, follow-ups and a few delivered notifications, for every advocate's open cases."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError

from caseflow.cases.models import OPEN_STATUSES
from caseflow.checkins import scheduler, services
from caseflow.checkins.models import CheckIn, CheckInOutcome
from caseflow.inbox.kinds import GeneralFollowUpKind
from caseflow.inbox.models import Notification, NotificationChannel

FOLLOWUPS = [
    (GeneralFollowUpKind.COURT_DATE, "Family court hearing: check the client has transport."),
    (GeneralFollowUpKind.TASK, "Send the referral pack to the housing officer."),
    (GeneralFollowUpKind.TASK, "Call the school about the pick-up arrangements."),
    (
        GeneralFollowUpKind.COURT_DATE,
        "Order hearing: go through the application with the client.",
    ),
]


def _local(moment: dt.datetime, tz: str) -> dt.datetime:
    return moment.astimezone(ZoneInfo(tz)).replace(tzinfo=None)


def _move(checkin: CheckIn, due_at: dt.datetime, **changes) -> None:
    """Place a demo check-in at a time the scheduling rules would refuse now (today, earlier)."""
    CheckIn.objects.filter(pk=checkin.pk).update(due_at=due_at, **changes)


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
            slot = services.next_safe(profile, now + dt.timedelta(hours=1))
            if slot is None:
                continue
            try:
                if index == 0:
                    # A weekly check-in, as in the weeks after leaving.
                    services.checkin_schedule(
                        actor=advocate,
                        case=case,
                        due_local=_local(slot, profile.timezone),
                        channel=channel,
                        assignee=advocate,
                        rule="FREQ=WEEKLY;COUNT=8",
                    )
                    continue
                checkin = services.checkin_schedule(
                    actor=advocate,
                    case=case,
                    due_local=_local(slot + dt.timedelta(days=index), profile.timezone),
                    channel=channel,
                    assignee=advocate,
                )
            except (services.UnsafeSlot, ValidationError):
                continue
            if index == 1:
                _move(checkin, now + dt.timedelta(hours=2))  # later today
            elif index == 2:
                _move(checkin, now - dt.timedelta(days=2))  # overdue: the sweep escalates it
            elif index == 3:
                _move(checkin, now - dt.timedelta(days=7))
                services.checkin_record_outcome(
                    actor=advocate,
                    checkin=CheckIn.objects.get(pk=checkin.pk),
                    expected_version=None,
                    outcome=CheckInOutcome.REACHED,
                    note="Fictional: client safe, staying with her sister this week.",
                )
            elif index == 4:
                _move(checkin, now - dt.timedelta(days=3))
                services.checkin_record_outcome(
                    actor=advocate,
                    checkin=CheckIn.objects.get(pk=checkin.pk),
                    expected_version=None,
                    outcome=CheckInOutcome.NOT_SAFE,
                    note="Fictional: client used the code word; call again later.",
                )
        for index, (case, advocate, _profile) in enumerate(items[:4]):
            kind, details = FOLLOWUPS[index % len(FOLLOWUPS)]
            services.followup_create(
                actor=advocate,
                case=case,
                kind=kind,
                due_at=now + dt.timedelta(days=index - 1, hours=3),
                details=details,
                assignee=advocate,
            )

    # One sweep now: reminders for what is due, the overdue check-ins marked missed and
    # escalated. In-app notifications are delivered at once; the worker sends the e-mails.
    scheduler.sweep(now, enqueue=lambda ids: None)
    for pk in Notification.objects.filter(
        channel=NotificationChannel.IN_APP, sent_at__isnull=True
    ).values_list("pk", flat=True):
        scheduler.notification_deliver(notification_id=pk)
