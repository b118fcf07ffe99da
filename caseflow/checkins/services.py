"""Check-ins, the safe-contact profile, and the follow-ups advocates create and complete: each
operation checks policy itself, runs in a transaction and writes its audit event. The
scheduler's sweep and deliveries are in ``caseflow.checkins.scheduler``."""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from collections.abc import Iterable
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_noop

from caseflow import policy
from caseflow.accounts import zones
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.cases import contact
from caseflow.cases import services as case_services
from caseflow.cases.models import Case, Channel, SafeContactProfile
from caseflow.checkins.models import (
    CalendarToken,
    CheckIn,
    CheckInFollowUpKind,
    CheckInOutcome,
    CheckInSchedule,
    CheckInStatus,
)
from caseflow.inbox.models import FollowUp, FollowUpStatus
from caseflow.inbox.services import followup_ensure, notifications_resolve, notify
from caseflow.lib import recurrence, weekly_windows
from caseflow.lib.concurrency import StaleEdit
from caseflow.lib.i18n import gettext_lazy as _

# --- Safe slots -----------------------------------------------------------------------------


class UnsafeSlot(Exception):
    """A check-in was asked for outside the survivor's safe windows or on an unsafe channel.

    ``message`` says why in plain words; ``next_slot`` is the next safe instant (UTC) on a safe
    channel, or None when there is none in the coming two weeks.
    """

    def __init__(self, message: str, next_slot: dt.datetime | None = None, tz: str | None = "UTC"):
        super().__init__(message)
        self.message = message
        self.next_slot = next_slot
        self.tz = tz

    @property
    def next_slot_local(self) -> dt.datetime | None:
        if self.next_slot is None or self.tz is None:
            return None
        return self.next_slot.astimezone(ZoneInfo(self.tz))

    def full_message(self) -> str:
        if self.tz is None:  # nothing to offer: there is no safe-contact profile
            return self.message
        local = self.next_slot_local
        if local is None:
            return f"{self.message} {gettext('There is no safe slot in the next two weeks.')}"
        return f"{self.message} " + gettext("The next safe slot is %(slot)s.") % {
            "slot": format_local(local, self.tz)
        }


class AlreadyRecorded(Exception):
    """The check-in's outcome was recorded (or it was cancelled) after this user opened it."""


def format_local(moment: dt.datetime, tz: str) -> str:
    """A moment in the survivor's zone, in the reader's language: "Mon 7 Dec 2026 09:00
    (Europe/London)"."""
    local = moment.astimezone(ZoneInfo(tz))
    return f"{date_format(local, 'D')} {date_format(local, 'DATETIME_FORMAT')} ({tz})"


def checkin_duration() -> dt.timedelta:
    return contact.contact_length()


def profile_for(case: Case) -> SafeContactProfile | None:
    profile = SafeContactProfile.objects.filter(case=case).first()
    if profile is not None:
        profile.case = case
    return profile


def profile_windows(profile: SafeContactProfile) -> list[weekly_windows.Window]:
    return contact.profile_windows(profile)


def slot_problem(profile: SafeContactProfile | None, due_at: dt.datetime, channel: str) -> str:
    """Why ``due_at`` on ``channel`` is not safe for this profile; "" when it is."""
    if profile is None:
        return _("This case has no safe-contact profile yet: record one before scheduling.")
    if channel not in profile.channels:
        label = Channel(channel).label if channel in Channel.values else channel
        return gettext("%(channel)s is not a safe channel for this survivor.") % {"channel": label}
    windows = profile_windows(profile)
    slot = weekly_windows.next_safe_slot(due_at, windows, profile.timezone, checkin_duration(), 1)
    if slot != due_at:
        return _("That time is outside the survivor's safe windows.")
    return ""


def next_safe(profile: SafeContactProfile, after: dt.datetime) -> dt.datetime | None:
    """The next safe slot, as the case page shows it (:func:`contact.next_safe_slot`)."""
    return contact.next_safe_slot(profile, after)


#: How long before its due time an outcome may be recorded (an advocate may call a little early;
#: an outcome for next week's check-in is a slip).
OUTCOME_EARLIEST = dt.timedelta(hours=12)


def after_failed_window(profile: SafeContactProfile, attempt: dt.datetime) -> dt.datetime:
    """Where to look for the next slot after a contact that proved unsafe at ``attempt``: after
    the end of the safe window it was in (that window did not prove safe), or an hour on."""
    windows = profile_windows(profile)
    for start, end in weekly_windows.window_occurrences(
        attempt - dt.timedelta(days=1), attempt + dt.timedelta(days=1), windows, profile.timezone
    ):
        if start <= attempt < end:
            return end
    return attempt + dt.timedelta(hours=1)


def require_safe(profile: SafeContactProfile | None, due_at: dt.datetime, channel: str) -> None:
    problem = slot_problem(profile, due_at, channel)
    if problem:
        if profile is None:
            raise UnsafeSlot(problem, None, None)
        raise UnsafeSlot(problem, next_safe(profile, due_at), profile.timezone)


def to_utc(local: dt.datetime, tz: str) -> dt.datetime:
    return local.replace(tzinfo=ZoneInfo(tz), fold=0).astimezone(dt.UTC)


# --- Check-ins -----------------------------------------------------------------------------


def _check_assignee(case: Case, assignee: User) -> None:
    if not policy.may(assignee, case, "edit"):
        raise ValidationError(_("Only someone who works this case can be given it."))


@transaction.atomic
def checkin_schedule(
    *,
    actor: User,
    case: Case,
    due_local: dt.datetime,
    channel: str,
    assignee: User,
    rule: str = "",
) -> CheckIn | CheckInSchedule:
    """Schedule a one-off check-in (no ``rule``) or a recurring one (an RRULE from
    ``due_local``), in the survivor's zone, inside safe windows on a safe channel only.

    Raises :class:`UnsafeSlot` (with the next safe slot) or ``ValidationError``.
    """
    policy.require(actor, case, "edit")
    _check_assignee(case, assignee)
    profile = profile_for(case)
    # Without a profile, the survivor's time is taken to be the staff's own.
    tz = profile.timezone if profile is not None else zones.current().key
    due_local = due_local.replace(second=0, microsecond=0, tzinfo=None)
    due_at = to_utc(due_local, tz)
    now = timezone.now()
    if due_at <= now:
        raise ValidationError(_("Pick a time in the future."))
    if not rule:
        require_safe(profile, due_at, channel)
        checkin = CheckIn.objects.create(
            case=case,
            channel=channel,
            due_at=due_at,
            assignee=assignee,
            created_by=actor,
        )
        record(
            "checkin.create",
            actor=actor,
            case=case,
            obj=checkin,
            detail={"channel": channel, "assignee": assignee.pk},
        )
        return checkin
    try:
        recurrence.validate_rule(rule, due_local)
        horizon = now + dt.timedelta(days=settings.CHECKIN_HORIZON_DAYS)
        instants = recurrence.occurrences(rule, due_local, tz, due_at, horizon)
    except recurrence.RecurrenceError as exc:
        raise ValidationError(_("Repeat rule: %(exc)s") % {"exc": exc}) from None
    if profile is None or not instants:
        require_safe(profile, due_at, channel)
    assert profile is not None  # require_safe refuses a case without a profile
    for instant in instants:
        problem = slot_problem(profile, instant, channel)
        if problem:
            raise UnsafeSlot(
                gettext("The repeat on %(when)s is not safe: %(problem)s")
                % {"when": format_local(instant, tz), "problem": problem},
                next_safe(profile, instant),
                tz,
            )
    schedule = CheckInSchedule.objects.create(
        case=case,
        rule=rule.strip(),
        dtstart_local=due_local.strftime("%Y-%m-%dT%H:%M"),
        tz=tz,
        channel=channel,
        assignee=assignee,
        generated_until=due_at,
        created_by=actor,
    )
    schedule_extend(schedule, horizon, profile=profile)
    record(
        "checkin_schedule.create",
        actor=actor,
        case=case,
        obj=schedule,
        detail={"channel": channel, "assignee": assignee.pk, "rule": True},
    )
    return schedule


def schedule_extend(
    schedule: CheckInSchedule,
    until: dt.datetime,
    *,
    profile: SafeContactProfile | None = None,
) -> int:
    """Materialise the schedule's occurrences up to ``until``; idempotent. Occurrences that are
    not safe under the current profile are created flagged, never silently kept."""
    if until <= schedule.generated_until:
        return 0
    case = schedule.case
    profile = profile if profile is not None else profile_for(case)
    local = dt.datetime.strptime(schedule.dtstart_local, "%Y-%m-%dT%H:%M")
    try:
        instants = recurrence.occurrences(
            schedule.rule, local, schedule.tz, schedule.generated_until, until
        )
    except recurrence.RecurrenceError:
        instants = []
    rows = [
        CheckIn(
            case=case,
            agency_id=case.agency_id,
            schedule=schedule,
            channel=schedule.channel,
            due_at=instant,
            assignee_id=schedule.assignee_id,
            created_by_id=schedule.created_by_id,
            status=(
                CheckInStatus.UNSAFE
                if slot_problem(profile, instant, schedule.channel)
                else CheckInStatus.SCHEDULED
            ),
        )
        for instant in instants
    ]
    CheckIn.objects.bulk_create(rows, ignore_conflicts=True)
    schedule.generated_until = until
    schedule.save(update_fields=["generated_until"])
    return len(rows)


@transaction.atomic
def checkin_record_outcome(
    *,
    actor: User,
    checkin: CheckIn,
    expected_version: int | None,
    outcome: str,
    note: str = "",
    reschedule_local: dt.datetime | None = None,
) -> tuple[CheckIn, dt.datetime | None, CheckIn | None]:
    """Record what happened. Returns (check-in, proposed next safe slot for "not safe to
    talk", new check-in for "rescheduled")."""
    case = checkin.case
    policy.require(actor, case, "edit")
    locked = CheckIn.objects.select_for_update().filter(pk=checkin.pk, case=case).first()
    if locked is None or locked.status in (CheckInStatus.DONE, CheckInStatus.CANCELLED):
        raise AlreadyRecorded
    if expected_version is not None and locked.version != expected_version:
        raise AlreadyRecorded
    if outcome not in CheckInOutcome.values:
        raise ValidationError(_("Choose an outcome."))
    now = timezone.now()
    if checkin.due_at > now + OUTCOME_EARLIEST:
        raise ValidationError(
            _(
                "This check-in is not due yet: record what happened once it has taken place "
                "(or reschedule or cancel it)."
            )
        )
    checkin.status = CheckInStatus.DONE
    checkin.outcome = outcome
    checkin.note = note
    checkin.outcome_at = now
    checkin.version = locked.version + 1
    checkin.save(update_fields=["status", "outcome", "note", "outcome_at", "version"])
    notifications_resolve(prefix=f"checkin:{checkin.pk}:")
    proposal = None
    new = None
    if outcome == CheckInOutcome.NOT_SAFE:
        profile = profile_for(case)
        if profile is not None:
            proposal = next_safe(profile, after_failed_window(profile, max(now, checkin.due_at)))
    elif outcome == CheckInOutcome.RESCHEDULED:
        if reschedule_local is None:
            raise ValidationError(_("Give the new time for a rescheduled check-in."))
        made = checkin_schedule(
            actor=actor,
            case=case,
            due_local=reschedule_local,
            channel=checkin.channel,
            assignee=checkin.assignee,
        )
        assert isinstance(made, CheckIn)
        new = made
    record(
        "checkin.outcome",
        actor=actor,
        case=case,
        obj=checkin,
        detail={"outcome": outcome, "fields": ["note"] if note else []},
    )
    return checkin, proposal, new


@transaction.atomic
def checkin_cancel(*, actor: User, checkin: CheckIn, series: bool = False) -> int:
    """Cancel a check-in (and, with ``series``, its schedule's future occurrences)."""
    case = checkin.case
    policy.require(actor, case, "edit")
    open_states = (CheckInStatus.SCHEDULED, CheckInStatus.UNSAFE)
    cancelled = CheckIn.objects.filter(pk=checkin.pk, status__in=open_states).update(
        status=CheckInStatus.CANCELLED
    )
    if series and checkin.schedule_id:
        CheckInSchedule.objects.filter(pk=checkin.schedule_id).update(active=False)
        cancelled += CheckIn.objects.filter(
            schedule_id=checkin.schedule_id,
            due_at__gt=timezone.now(),
            status__in=open_states,
        ).update(status=CheckInStatus.CANCELLED)
    record(
        "checkin.cancel",
        actor=actor,
        case=case,
        obj=checkin,
        detail={"series": series, "cancelled": cancelled},
    )
    return cancelled


@transaction.atomic
def checkins_recheck_for_case(*, case: Case, actor: User | None = None) -> list[int]:
    """After the safe-contact profile changed: flag future check-ins that are no longer safe
    (and tell their advocates), and restore flagged ones that are safe again. Returns the ids
    of the newly flagged check-ins."""
    profile = profile_for(case)
    now = timezone.now()
    future = list(
        CheckIn.objects.filter(
            case=case,
            due_at__gt=now,
            status__in=(CheckInStatus.SCHEDULED, CheckInStatus.UNSAFE),
        ).only("pk", "due_at", "channel", "status", "assignee_id")
    )
    flagged, restored = [], []
    for checkin in future:
        unsafe = bool(slot_problem(profile, checkin.due_at, checkin.channel))
        if unsafe and checkin.status == CheckInStatus.SCHEDULED:
            flagged.append(checkin)
        elif not unsafe and checkin.status == CheckInStatus.UNSAFE:
            restored.append(checkin)
    CheckIn.objects.filter(pk__in=[c.pk for c in flagged]).update(status=CheckInStatus.UNSAFE)
    CheckIn.objects.filter(pk__in=[c.pk for c in restored]).update(status=CheckInStatus.SCHEDULED)
    version = profile.version if profile is not None else 0
    for checkin in flagged:
        notify(
            recipients=User.objects.filter(pk=checkin.assignee_id),
            kind="checkin_unsafe",
            case=case,
            key=f"checkin:{checkin.pk}:unsafe:{version}",
            message=gettext_noop(
                "A check-in on case %(reference)s is no longer safe: please reschedule it."
            ),
            values={"reference": case.reference},
        )
    if flagged or restored:
        record(
            "checkin.recheck",
            actor=actor,
            case=case,
            detail={
                "flagged": [c.pk for c in flagged],
                "restored": [c.pk for c in restored],
            },
        )
    return [c.pk for c in flagged]


# --- Follow-ups ----------------------------------------------------------------------------


@transaction.atomic
def followup_create(
    *,
    actor: User,
    case: Case,
    kind: str,
    due_at: dt.datetime,
    details: str,
    assignee: User,
) -> FollowUp:
    policy.require(actor, case, "edit")
    _check_assignee(case, assignee)
    followup = FollowUp.objects.create(
        case=case,
        kind=kind,
        due_at=due_at,
        details=details,
        assignee=assignee,
        created_by=actor,
    )
    record(
        "followup.create",
        actor=actor,
        case=case,
        obj=followup,
        object_id=str(followup.pk),
        detail={"kind": kind, "source": "user"},
    )
    return followup


FOLLOWUP_EDITABLE = ("kind", "due_at", "details", "assignee")


@transaction.atomic
def followup_update(
    *,
    actor: User,
    followup: FollowUp,
    expected_version: int,
    data: dict[str, Any],
) -> FollowUp:
    case = followup.case
    policy.require(actor, case, "edit")
    if "assignee" in data:
        _check_assignee(case, data["assignee"])
    locked = FollowUp.objects.select_for_update().get(pk=followup.pk)
    if locked.version != expected_version:
        raise StaleEdit("follow-up")
    changed = [f for f in FOLLOWUP_EDITABLE if f in data and getattr(followup, f) != data[f]]
    for name in changed:
        setattr(followup, name, data[name])
    if "due_at" in changed:
        followup.reminder_stage = 0  # remind again for the new date
    followup.version = locked.version + 1
    followup.save()
    record(
        "followup.update",
        actor=actor,
        case=case,
        obj=followup,
        object_id=str(followup.pk),
        detail={"fields": changed},
    )
    return followup


@transaction.atomic
def followup_done(*, actor: User, followup: FollowUp) -> bool:
    case = followup.case
    policy.require(actor, case, "edit")
    done = FollowUp.objects.filter(pk=followup.pk, status=FollowUpStatus.OPEN).update(
        status=FollowUpStatus.DONE, done_at=timezone.now(), done_by=actor
    )
    if done:
        followup.status = FollowUpStatus.DONE
        notifications_resolve(prefix=f"followup:{followup.pk}:")
        record(
            "followup.done",
            actor=actor,
            case=case,
            obj=followup,
            object_id=str(followup.pk),
        )
    return bool(done)


#: How long "Mark done" can be undone, by the person who pressed it.
UNDO_WINDOW = dt.timedelta(minutes=10)


def _like(followup: FollowUp):
    """The open automatic follow-ups merged with ``followup`` on the today queue: of its kind, on
    its case, for its person (see :func:`caseflow.checkins.today.merged`)."""
    return FollowUp.objects.filter(
        case_id=followup.case_id, kind=followup.kind, assignee_id=followup.assignee_id
    ).exclude(source_key="")


@transaction.atomic
def followup_done_together(*, actor: User, followup: FollowUp, ids: Iterable[int]) -> int:
    """Mark ``followup`` and the like open automatic follow-ups merged with it on the queue
    (``ids``, those the person saw: none due later) done, at one moment, so they are undone
    together. Audited per follow-up. Returns how many."""
    case = followup.case
    policy.require(actor, case, "edit")
    if not followup.source_key:
        return int(followup_done(actor=actor, followup=followup))
    ids = list(
        _like(followup)
        .filter(status=FollowUpStatus.OPEN, pk__in={followup.pk, *ids})
        .select_for_update()
        .values_list("pk", flat=True)
    )
    now = timezone.now()
    FollowUp.objects.filter(pk__in=ids, status=FollowUpStatus.OPEN).update(
        status=FollowUpStatus.DONE, done_at=now, done_by=actor
    )
    for pk in ids:
        notifications_resolve(prefix=f"followup:{pk}:")
        record(
            "followup.done",
            actor=actor,
            case=case,
            object_type="followup",
            object_id=str(pk),
            detail={"together": len(ids)},
        )
    if followup.pk in ids:
        followup.status = FollowUpStatus.DONE
    return len(ids)


@transaction.atomic
def followup_reopen_together(*, actor: User, followup: FollowUp) -> int:
    """Undo "Mark all done": the follow-ups marked done with ``followup`` are open again. Only
    their marker, only for a short while. Audited per follow-up. Returns how many."""
    case = followup.case
    policy.require(actor, case, "edit")
    if not followup.source_key or followup.done_at is None:
        return int(followup_reopen(actor=actor, followup=followup))
    ids = list(
        _like(followup)
        .filter(
            status=FollowUpStatus.DONE,
            done_by=actor,
            done_at=followup.done_at,
            done_at__gte=timezone.now() - UNDO_WINDOW,
        )
        .select_for_update()
        .values_list("pk", flat=True)
    )
    FollowUp.objects.filter(pk__in=ids).update(
        status=FollowUpStatus.OPEN, done_at=None, done_by=None
    )
    for pk in ids:
        record(
            "followup.reopen",
            actor=actor,
            case=case,
            object_type="followup",
            object_id=str(pk),
            detail={"together": len(ids)},
        )
    if followup.pk in ids:
        followup.status = FollowUpStatus.OPEN
    return len(ids)


def followup_reopen(*, actor: User, followup: FollowUp) -> bool:
    """Undo "Mark done": the follow-up is open again. Only its marker, only for a short while."""
    case = followup.case
    policy.require(actor, case, "edit")
    reopened = FollowUp.objects.filter(
        pk=followup.pk,
        status=FollowUpStatus.DONE,
        done_by=actor,
        done_at__gte=timezone.now() - UNDO_WINDOW,
    ).update(status=FollowUpStatus.OPEN, done_at=None, done_by=None)
    if reopened:
        followup.status = FollowUpStatus.OPEN
        record(
            "followup.reopen",
            actor=actor,
            case=case,
            obj=followup,
            object_id=str(followup.pk),
        )
    return bool(reopened)


# --- Notifications and the calendar feed ---------------------------------------------------


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def calendar_token_create(*, actor: User) -> str:
    """A new secret feed token for ``actor`` (any previous one is revoked). Only its hash is
    kept: the token is shown once."""
    if policy.active_role(actor) not in policy.CASEWORK_ROLES:
        raise PermissionDenied
    now = timezone.now()
    CalendarToken.objects.filter(user=actor, revoked_at__isnull=True).update(revoked_at=now)
    token = secrets.token_urlsafe(32)
    row = CalendarToken.objects.create(user=actor, token_hash=token_hash(token))
    record("calendar_token.create", actor=actor, obj=row)
    return token


@transaction.atomic
def calendar_token_revoke(*, actor: User) -> int:
    revoked = CalendarToken.objects.filter(user=actor, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    record("calendar_token.revoke", actor=actor, detail={"revoked": revoked})
    return revoked


def calendar_tokens_revoke_for(*, actor: User, user: User) -> int:
    """End ``user``'s feed links with their sessions (registered with accounts.credentials)."""
    revoked = CalendarToken.objects.filter(user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    if revoked:
        record(
            "calendar_token.revoke",
            actor=actor,
            object_type="user",
            object_id=str(user.pk),
            detail={"revoked": revoked},
        )
    return revoked


def calendar_token_used(row: CalendarToken) -> None:
    CalendarToken.objects.filter(pk=row.pk).update(last_used_at=timezone.now())


# --- The safe-contact profile -------------------------------------------------------------


@transaction.atomic
def safe_contact_save(
    *,
    actor: User,
    case: Case,
    expected_version: int | None,
    timezone_name: str,
    rules: dict[str, Any],
    details: dict[str, str],
) -> SafeContactProfile:
    if not policy.may(actor, case, "edit"):
        raise PermissionDenied
    profile = SafeContactProfile.objects.select_for_update().filter(case=case).first()
    adding = profile is None
    if profile is None:
        profile = SafeContactProfile(case=case, version=0)
    elif expected_version is not None and profile.version != expected_version:
        raise StaleEdit("profile")
    changed = []
    values: list[list[Any]] = []
    if adding or profile.timezone != timezone_name:
        changed.append("timezone")
        values.append(["timezone", None if adding else profile.timezone, timezone_name])
    if adding or profile.rules != rules:
        changed.append("rules")
        values.append(["rules", None if adding else profile.rules, rules])
    profile.timezone = timezone_name
    profile.rules = rules
    for name, value in details.items():
        if adding or getattr(profile, name) != value:
            changed.append(name)
            values.append([name, None if adding else getattr(profile, name), value])
            setattr(profile, name, value)
    profile.version += 1
    profile.save()
    event = record(
        "safe_contact.save",
        actor=actor,
        case=case,
        obj=profile,
        object_id=str(profile.pk),
        detail={"fields": changed},
    )
    case_services.keep_change_values(case, event, values)
    checkins_recheck_for_case(case=case, actor=actor)
    return profile


def checkins_cancel_for_closure(case: Case, *, actor: User | None) -> int:
    """Closing the case: its check-ins still to come are cancelled and its schedules stopped
    (listed on the closure page first). Returns how many check-ins were cancelled."""
    open_states = (CheckInStatus.SCHEDULED, CheckInStatus.UNSAFE)
    CheckInSchedule.objects.filter(case=case, active=True).update(active=False)
    cancelled = CheckIn.objects.filter(case=case, status__in=open_states).update(
        status=CheckInStatus.CANCELLED
    )
    if cancelled:
        record(
            "checkin.cancel",
            actor=actor,
            case=case,
            detail={"series": True, "cancelled": cancelled, "source": "closure"},
        )
    return cancelled


#: A handover proposes the new advocate's first check-in no sooner than this.
HANDOVER_NOT_BEFORE = dt.timedelta(hours=2)


def checkins_handover(*, actor: User, case: Case, previous: User | None, primary: User) -> None:
    """The case passes from ``previous`` to ``primary`` (see ``cases.reassign``): the future
    check-ins and repeats ``previous`` held on it pass to ``primary``; with no future check-in
    left, a first check-in is proposed as a follow-up at the first time in the survivor's safe
    window (or tomorrow, to be agreed, when she has no safe window recorded)."""
    now = timezone.now()
    moved = 0
    if previous is not None:
        moved = CheckIn.objects.filter(
            case=case, assignee=previous, status=CheckInStatus.SCHEDULED, due_at__gt=now
        ).update(assignee=primary)
        CheckInSchedule.objects.filter(case=case, assignee=previous).update(assignee=primary)
    if CheckIn.objects.filter(case=case, status=CheckInStatus.SCHEDULED, due_at__gt=now).exists():
        proposed = None
    else:
        profile = profile_for(case)
        safe = next_safe(profile, now + HANDOVER_NOT_BEFORE) if profile is not None else None
        proposed = safe or now + dt.timedelta(days=1)
        followup_ensure(
            case=case,
            kind=CheckInFollowUpKind.FIRST_CHECKIN,
            due_at=proposed,
            source_key=f"handover:{primary.pk}:{int(now.timestamp())}",
            assignee=primary,
            actor=actor,
        )
    record(
        "checkin.handover",
        actor=actor,
        case=case,
        obj=case,
        detail={
            "moved": moved,
            "primary": primary.pk,
            "first_checkin_proposed": proposed is not None,
        },
    )
