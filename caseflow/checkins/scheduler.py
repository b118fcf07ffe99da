"""The scheduler: what is due lives in the database; one sweep a minute acts on it.

:func:`sweep` claims due check-ins and follow-ups in batches (``SELECT ... FOR UPDATE SKIP
LOCKED`` on PostgreSQL; on SQLite every transaction begins IMMEDIATE, which serialises sweeps),
advances their ``reminder_stage`` and creates the batch's notification rows in one
``INSERT ... ON CONFLICT DO NOTHING RETURNING id`` with a unique key (so a second sweep, or a
retried one, creates nothing new); the rows it inserted are stamped ``enqueued_at`` and one
delivery task per row, carrying its id only, is enqueued when the batch's transaction commits.
A separate dispatch step enqueues unsent notifications never enqueued (those of other areas) or
enqueued a while ago and still unsent: when the broker loses its queue, or a sweep dies between
its commit and the hand-off, the next sweep delivers what was lost. Nothing is scheduled ahead
with eta/countdown.

:func:`notification_deliver` is the delivery: under a row lock it re-checks, at run time, that
the case is still open and the recipient still on it, then delivers (in-app: marks it sent;
e-mail: sends it through Django's e-mail backend) and sets ``sent_at``. A duplicate delivery
finds ``sent_at`` set and does nothing.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.conf import settings
from django.core.mail import send_mail
from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from caseflow import policy
from caseflow.accounts.models import Role, User
from caseflow.audit.services import record
from caseflow.cases.models import OPEN_STATUSES, Case
from caseflow.checkins.models import CheckIn, CheckInSchedule, CheckInStatus, SchedulerHeartbeat
from caseflow.inbox.kinds import message_params, stored_text
from caseflow.inbox.models import FollowUp, FollowUpStatus, Notification, NotificationChannel
from caseflow.lib.contributions import contributions
from caseflow.lib.i18n import language_of
from caseflow.outbox import events

log = logging.getLogger(__name__)

HEARTBEAT = "sweep"

#: Notification texts: a kind and a case reference, nothing else.
#: The words of each kind, kept as a message with its values and written in the reader's
#: language when shown (:func:`caseflow.inbox.kinds.notification_words`).
TEXTS = {
    "checkin_reminder": gettext_noop("Check-in due in %(lead)s minutes on case %(reference)s."),
    "checkin_due": gettext_noop("Check-in due now on case %(reference)s."),
    "checkin_missed": gettext_noop(
        "Check-in missed on case %(reference)s: no outcome %(grace)s minutes after it was due."
    ),
    "followup_reminder": gettext_noop(
        "Follow-up (%(followup)s) due in %(lead)s minutes on case %(reference)s."
    ),
    "followup_due": gettext_noop("Follow-up (%(followup)s) due now on case %(reference)s."),
}
STAGE_KINDS = {1: "reminder", 2: "due", 3: "missed"}


@dataclass
class SweepResult:
    checkins: int = 0
    followups: int = 0
    notifications: int = 0
    enqueued: int = 0
    extended: int = 0
    batches: int = 0
    per_stage: dict[int, int] = field(default_factory=lambda: defaultdict(int))


def _lead() -> dt.timedelta:
    return dt.timedelta(minutes=settings.REMINDER_LEAD_MINUTES)


def _grace() -> dt.timedelta:
    return dt.timedelta(minutes=settings.CHECKIN_GRACE_MINUTES)


def _claim(qs: QuerySet, fields: Iterable[str], batch: int) -> list[dict]:
    """Lock and return up to ``batch`` rows of ``qs``; rows another sweep holds are skipped."""
    qs = qs.order_by("due_at", "pk")
    if connection.features.has_select_for_update_skip_locked:
        qs = qs.select_for_update(skip_locked=True)
    return list(qs.values(*fields)[:batch])


def target_stage(due_at: dt.datetime, now: dt.datetime, *, checkin: bool) -> int:
    """The furthest scheduler step due at ``now``: 1 reminder, 2 due, 3 missed (check-ins)."""
    # Arithmetic on ``now`` only: a due date at the ends of the calendar cannot overflow.
    if checkin and now - _grace() >= due_at:
        return 3
    if now >= due_at:
        return 2
    if now + _lead() >= due_at:
        return 1
    return 0


def _cases(case_ids: Iterable[int]) -> dict[int, dict]:
    rows: dict[int, dict] = {
        row["pk"]: dict(row)
        for row in Case.objects.filter(pk__in=set(case_ids)).values(
            "pk", "reference", "public_id", "team_id", "agency_id"
        )
    }
    for row in rows.values():
        row["link"] = reverse("cases:detail", args=[row["public_id"]])
    return rows


def _supervisors(team_ids: Iterable[int]) -> dict[int, list[int]]:
    found: dict[int, list[int]] = defaultdict(list)
    rows = User.objects.filter(
        teams__in=set(team_ids),
        membership__role=Role.SUPERVISOR,
        membership__is_active=True,
        is_active=True,
    ).values_list("teams", "pk")
    for team_id, user_id in rows:
        found[team_id].append(user_id)
    return found


#: The columns the sweep writes for each notification (the others keep their defaults: not sent,
#: not read): those of ``_notes`` rows, then the creation and enqueue stamps and ``dropped``.
_NOTE_COLUMNS = (
    "recipient_id",
    "channel",
    "kind",
    "case_id",
    "key",
    "text",
    "link",
    "checkin_id",
    "followup_id",
    "params",
    "created_at",
    "enqueued_at",
    "dropped",
)
_NOTE_INTS = {0, 3, 7, 8}  # recipient_id, case_id, checkin_id, followup_id


def _rows_of_json_sql(vendor: str) -> str:
    """A SELECT of the ``_notes`` rows from one JSON array parameter (one statement for a whole
    batch, parsed by the database instead of bound value by value)."""
    if vendor == "postgresql":
        values = ", ".join(
            f"(e->>{i})::bigint" if i in _NOTE_INTS else f"e->>{i}" for i in range(9)
        )
        values += ", (e->>9)::jsonb"
        return (
            f"SELECT {values}, %s, %s, '' "  # noqa: S608 - no value is interpolated
            "FROM json_array_elements(%s::json) AS e WHERE true"
        )
    values = ", ".join(f"json_extract(value, '$[{i}]')" for i in range(10))
    # WHERE true: SQLite needs it to parse the ON CONFLICT clause after a SELECT.
    return f"SELECT {values}, %s, %s, '' FROM json_each(%s) WHERE true"  # noqa: S608 - as above


def _notes(
    *,
    recipients: Iterable[int],
    kind: str,
    case: dict,
    key: str,
    values: dict,
    checkin_id: int | None = None,
    followup_id: int | None = None,
) -> list[tuple]:
    """The notification rows for one subject: each recipient once, in-app and e-mail (the
    leading values of ``_NOTE_COLUMNS``), its words as ``TEXTS[kind]`` with ``values``."""
    params = message_params(TEXTS[kind], values)
    text = stored_text(params)
    kept = json.dumps(params, separators=(",", ":"))
    return [
        (
            user_id,
            channel,
            kind,
            case["pk"],
            key,
            text,
            case["link"],
            checkin_id,
            followup_id,
            kept,
        )
        for user_id in dict.fromkeys(recipients)
        for channel in (NotificationChannel.IN_APP, NotificationChannel.EMAIL)
    ]


def _insert_notes(notes: list[tuple]) -> list[int]:
    """Insert ``notes`` in one statement, stamped as enqueued now; a note whose (recipient,
    channel, key) exists already is skipped. Returns the ids of the rows inserted, which the
    caller enqueues on commit (the dispatch step enqueues them again if that hand-off is lost)."""
    if not notes:
        return []
    quote = connection.ops.quote_name
    stamp = connection.ops.adapt_datetimefield_value(timezone.now())
    # Table and column names come from the model; every value is a parameter.
    sql = (
        f"INSERT INTO {quote(Notification._meta.db_table)} "  # noqa: S608
        f"({', '.join(quote(c) for c in _NOTE_COLUMNS)}) {_rows_of_json_sql(connection.vendor)} "
        "ON CONFLICT DO NOTHING RETURNING id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [stamp, stamp, json.dumps(notes, separators=(",", ":"))])
        return [pk for (pk,) in cursor.fetchall()]


def _checkin_batch(
    now: dt.datetime, batch: int, result: SweepResult, enqueue: Callable[[list[int]], None]
) -> int:
    with transaction.atomic():
        rows = _claim(
            CheckIn.objects.due(now, lead=_lead(), grace=_grace()),
            ("pk", "case_id", "assignee_id", "due_at", "reminder_stage"),
            batch,
        )
        if not rows:
            return 0
        cases = _cases(r["case_id"] for r in rows)
        for row in rows:
            row["stage"] = target_stage(row["due_at"], now, checkin=True)
        need_supervisors = [cases[r["case_id"]]["team_id"] for r in rows if r["stage"] == 3]
        supervisors = _supervisors(need_supervisors) if need_supervisors else {}
        notes: list[tuple] = []
        by_stage: dict[int, list[int]] = defaultdict(list)
        for row in rows:
            stage = row["stage"]
            by_stage[stage].append(row["pk"])
            case = cases[row["case_id"]]
            kind = f"checkin_{STAGE_KINDS[stage]}"
            recipients = [row["assignee_id"]]
            if stage == 3:
                recipients += supervisors.get(case["team_id"], [])
            notes += _notes(
                recipients=recipients,
                kind=kind,
                case=case,
                key=f"checkin:{row['pk']}:{STAGE_KINDS[stage]}:{row['due_at']:%Y%m%dT%H%MZ}",
                values={
                    "reference": case["reference"],
                    "lead": settings.REMINDER_LEAD_MINUTES,
                    "grace": settings.CHECKIN_GRACE_MINUTES,
                },
                checkin_id=row["pk"],
            )
        created = _insert_notes(notes)
        for stage, ids in by_stage.items():
            changes: dict = {"reminder_stage": stage}
            if stage == 3:
                changes["status"] = CheckInStatus.MISSED
            CheckIn.objects.filter(pk__in=ids).update(**changes)
            result.per_stage[stage] += len(ids)
        if by_stage.get(3):
            record("checkin.missed", detail={"checkins": by_stage[3]})
            # The agency's systems subscribed to missed check-ins hear of each case once (the
            # question "is anyone listening" asked once per agency of the batch).
            listening: dict[int, bool] = {}
            for case_id in sorted({r["case_id"] for r in rows if r["stage"] == 3}):
                missed = cases[case_id]
                agency_id = missed["agency_id"]
                if agency_id not in listening:
                    listening[agency_id] = contributions().anyone_listening(
                        agency_id, events.EventKind.CHECKIN_MISSED
                    )
                if not listening[agency_id]:
                    continue
                events.publish(
                    events.EventKind.CHECKIN_MISSED,
                    agency_id=missed["agency_id"],
                    case_public_id=missed["public_id"],
                )
        if created:
            enqueue(created)
        result.checkins += len(rows)
        result.notifications += len(created)
        result.enqueued += len(created)
        result.batches += 1
        return len(rows)


def _followup_batch(
    now: dt.datetime, batch: int, result: SweepResult, enqueue: Callable[[list[int]], None]
) -> int:
    lead = _lead()
    due = FollowUp.objects.filter(status=FollowUpStatus.OPEN).filter(
        Q(reminder_stage=0, due_at__lte=now + lead) | Q(reminder_stage=1, due_at__lte=now)
    )
    with transaction.atomic():
        rows = _claim(
            due, ("pk", "case_id", "assignee_id", "due_at", "reminder_stage", "kind"), batch
        )
        if not rows:
            return 0
        cases = _cases(r["case_id"] for r in rows)
        notes: list[tuple] = []
        by_stage: dict[int, list[int]] = defaultdict(list)
        for row in rows:
            stage = target_stage(row["due_at"], now, checkin=False)
            by_stage[stage].append(row["pk"])
            if row["assignee_id"] is None:
                continue
            case = cases[row["case_id"]]
            kind = f"followup_{STAGE_KINDS[stage]}"
            notes += _notes(
                recipients=[row["assignee_id"]],
                kind=kind,
                case=case,
                key=f"followup:{row['pk']}:{STAGE_KINDS[stage]}:{row['due_at']:%Y%m%dT%H%MZ}",
                values={
                    "reference": case["reference"],
                    "lead": settings.REMINDER_LEAD_MINUTES,
                    "followup": row["kind"],
                },
                followup_id=row["pk"],
            )
        created = _insert_notes(notes)
        for stage, ids in by_stage.items():
            FollowUp.objects.filter(pk__in=ids).update(reminder_stage=stage)
        if created:
            enqueue(created)
        result.followups += len(rows)
        result.notifications += len(created)
        result.enqueued += len(created)
        result.batches += 1
        return len(rows)


def _dispatch_batch(
    batch: int,
    result: SweepResult,
    enqueue: Callable[[list[int]], None],
    stale: dt.datetime,
) -> int:
    """Enqueue delivery of unsent notifications never enqueued, or enqueued before ``stale``
    (long enough before this sweep began that their task must have been lost)."""
    real_now = timezone.now()
    unsent = Notification.objects.filter(sent_at__isnull=True, dropped="").filter(
        Q(enqueued_at__isnull=True) | Q(enqueued_at__lt=stale)
    )
    with transaction.atomic():
        qs = unsent.order_by("pk")
        if connection.features.has_select_for_update_skip_locked:
            qs = qs.select_for_update(skip_locked=True)
        ids = list(qs.values_list("pk", flat=True)[:batch])
        if not ids:
            return 0
        Notification.objects.filter(pk__in=ids).update(enqueued_at=real_now)
        enqueue(ids)
        result.enqueued += len(ids)
        return len(ids)


def _extend_schedules(now: dt.datetime, result: SweepResult, limit: int = 200) -> None:
    """Keep recurring check-ins materialised ``CHECKIN_HORIZON_DAYS`` ahead."""
    from caseflow.checkins.services import schedule_extend

    horizon = now + dt.timedelta(days=settings.CHECKIN_HORIZON_DAYS)
    refill_before = horizon - dt.timedelta(days=1)
    with transaction.atomic():
        qs = CheckInSchedule.objects.filter(
            active=True, generated_until__lt=refill_before, case__status__in=OPEN_STATUSES
        ).order_by("generated_until")
        if connection.features.has_select_for_update_skip_locked:
            qs = qs.select_for_update(skip_locked=True, of=("self",))
        for schedule in qs.select_related("case")[:limit]:
            result.extended += schedule_extend(schedule, horizon)


def sweep(
    now: dt.datetime | None = None,
    *,
    batch_size: int | None = None,
    enqueue: Callable[[list[int]], None],
) -> SweepResult:
    """One pass of the scheduler. Safe to run concurrently and to repeat.

    ``enqueue`` hands a committed batch's notification ids to the workers (the beat task passes
    :func:`caseflow.checkins.tasks.enqueue_deliveries`)."""
    now = now or timezone.now()
    batch = batch_size or settings.SWEEP_BATCH_SIZE
    started = time.monotonic()
    # Staleness is measured from the start of this sweep, so that a long sweep never takes the
    # notifications it enqueued itself a minute ago for lost ones and enqueues them again.
    stale = timezone.now() - dt.timedelta(seconds=settings.NOTIFY_REQUEUE_SECONDS)
    result = SweepResult()
    _extend_schedules(now, result)
    while _checkin_batch(now, batch, result, enqueue) == batch:
        pass
    while _followup_batch(now, batch, result, enqueue) == batch:
        pass
    while _dispatch_batch(batch, result, enqueue, stale) == batch:
        pass
    elapsed = int((time.monotonic() - started) * 1000)
    SchedulerHeartbeat.objects.update_or_create(
        name=HEARTBEAT,
        defaults={
            "last_completed_at": timezone.now(),
            "last_duration_ms": elapsed,
            "last_claimed": result.checkins + result.followups,
        },
    )
    return result


def last_sweep() -> dt.datetime | None:
    return (
        SchedulerHeartbeat.objects.filter(name=HEARTBEAT)
        .values_list("last_completed_at", flat=True)
        .first()
    )


def scheduler_state(now: dt.datetime | None = None) -> tuple[str, dt.datetime | None]:
    """("ok" or "stale", time of the last completed sweep)."""
    now = now or timezone.now()
    last = last_sweep()
    stale = last is None or now - last > dt.timedelta(seconds=settings.SCHEDULER_STALE_SECONDS)
    return ("stale" if stale else "ok"), last


# --- Delivery ------------------------------------------------------------------------------


def _refusal(note: Notification) -> str:
    """Why this notification must not be delivered now; "" to deliver."""
    user = note.recipient
    if policy.active_role(user) is None:
        return "recipient_inactive"
    case = note.case
    if case is None:
        return ""
    if not policy.can_view_case(user, case):
        return "no_access"
    if note.checkin_id is None and note.followup_id is None:
        return ""
    if case.status not in OPEN_STATUSES:
        return "case_closed"
    if note.checkin_id is not None:
        checkin = note.checkin
        assert checkin is not None  # checkin_id is set
        if note.kind == "checkin_missed":
            if checkin.status != CheckInStatus.MISSED:
                return "resolved"
            return ""
        if checkin.status != CheckInStatus.SCHEDULED:
            return "not_due"
        if checkin.assignee_id != user.pk or not policy.may(user, case, "edit"):
            return "not_assigned"
    else:
        followup = note.followup
        assert followup is not None  # followup_id is set (checked above)
        if followup.status != FollowUpStatus.OPEN:
            return "not_due"
        if followup.assignee_id != user.pk or not policy.may(user, case, "edit"):
            return "not_assigned"
    return ""


def _test_pause() -> None:
    """Tests of crash recovery set this to hold a delivery open long enough to kill it."""
    pause = os.environ.get("CASEFLOW_TEST_DELIVERY_PAUSE", "")
    if pause:
        log.warning("delivery paused for %s seconds (CASEFLOW_TEST_DELIVERY_PAUSE)", pause)
        time.sleep(float(pause))


def email_body(note: Notification) -> str:
    with translation.override(language_of(note.recipient)):
        return (
            f"{note.words}\n\n"
            + gettext("Open caseflow to see it:")
            + f" {settings.CASEFLOW_BASE_URL}{note.link}\n\n"
            + gettext(
                "This message deliberately carries no details. Sign in to caseflow to read them."
            )
            + "\n"
        )


def email_subject(note: Notification) -> str:
    with translation.override(language_of(note.recipient)):
        return f"caseflow: {note.words}"


def notification_deliver(*, notification_id: int) -> str:
    """Deliver one notification once. Returns what happened: "sent", "dropped:<why>",
    "already" or "missing"."""
    with transaction.atomic():
        qs = Notification.objects.select_related("recipient", "case", "checkin", "followup")
        if connection.features.has_select_for_update_of:
            qs = qs.select_for_update(of=("self",))
        note = qs.filter(pk=notification_id).first()
        if note is None:
            return "missing"
        if note.sent_at is not None or note.dropped:
            return "already"
        reason = _refusal(note)
        if not reason and note.channel == NotificationChannel.EMAIL and not note.recipient.email:
            reason = "no_email"
        if reason:
            note.dropped = reason
            note.save(update_fields=["dropped"])
            return f"dropped:{reason}"
        _test_pause()
        if note.channel == NotificationChannel.EMAIL:
            send_mail(
                subject=email_subject(note),
                message=email_body(note),
                from_email=None,
                recipient_list=[note.recipient.email],
            )
        note.sent_at = timezone.now()
        note.save(update_fields=["sent_at"])
        return "sent"
