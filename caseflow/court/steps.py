"""The safety steps a hearing proposes, and adding the ones the advocate confirms.

Risk rises around a hearing. Recording one proposes, on a confirmation page where every step is
ticked: a safety plan review before it, a check-in in the survivor's safe window the day before
and the day after, and a follow-up for the accompaniment. They are made by the services that make
them anywhere else (the inbox's follow-ups, the check-ins' scheduler), so they reach the today
queue, the reminders and the calendar feed like any other.

Conventions: times are UTC instants; "the day before" and "the day after" are the survivor's days
(the zone of her safe-contact profile). A check-in is placed only in a safe window, found by the
check-ins' own :func:`caseflow.checkins.proposals.safe_slot_near` (the one that places the
check-ins proposed around hard dates and handovers); when no window opens that day the step says
so and proposes the nearest safe slot (before the hearing for the day before, after it for the
day after). Follow-ups carry a source key naming the hearing and its time, so adding the
steps twice adds nothing, and a hearing moved to another time proposes its steps again.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.cases.models import Case, SafeContactProfile
from caseflow.checkins import services as checkins
from caseflow.checkins.models import CheckIn, CheckInStatus
from caseflow.checkins.proposals import day_bounds, shown, slot_in_words
from caseflow.court.models import CourtFollowUpKind, Hearing
from caseflow.inbox.models import FollowUp
from caseflow.inbox.services import followup_ensure
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.safety.models import SafetyFollowUpKind

PLAN_REVIEW, CHECKIN_BEFORE, CHECKIN_AFTER, ACCOMPANIMENT = (
    "plan_review",
    "checkin_before",
    "checkin_after",
    "accompaniment",
)
CODES = (PLAN_REVIEW, CHECKIN_BEFORE, CHECKIN_AFTER, ACCOMPANIMENT)
#: The plan review falls due this long before the hearing (or at once when it is nearer).
REVIEW_BEFORE = dt.timedelta(days=3)


@dataclass(frozen=True)
class Step:
    code: str
    label: str
    #: When it falls due (UTC), or None when it cannot be proposed.
    when: dt.datetime | None
    #: Plain words about the time chosen, or why the step cannot be added.
    note: str = ""
    #: Already added (a follow-up of this source, a check-in that day).
    done: bool = False
    channel: str = ""

    @property
    def available(self) -> bool:
        return self.when is not None and not self.done


def _key(hearing: Hearing, code: str) -> str:
    return f"hearing:{hearing.pk}:{hearing.starts_at:%Y%m%d%H%M}:{code}"


def _checkin_step(
    code: str,
    label: str,
    case: Case,
    hearing: Hearing,
    profile: SafeContactProfile | None,
    now: dt.datetime,
) -> Step:
    if profile is None:
        return Step(
            code,
            label,
            None,
            str(
                _(
                    "Record the survivor's safe-contact details first: a check-in is only placed "
                    "in a safe window."
                )
            ),
        )
    channel = next(iter(profile.channels), "")
    if not channel or not checkins.profile_windows(profile):
        return Step(
            code, label, None, str(_("The survivor's profile has no safe channel or window."))
        )
    zone = ZoneInfo(profile.timezone)
    hearing_day = hearing.starts_at.astimezone(zone).date()
    if code == CHECKIN_BEFORE:
        day = hearing_day - dt.timedelta(days=1)
        not_before, not_after = now, hearing.starts_at
    else:
        day = hearing_day + dt.timedelta(days=1)
        not_before, not_after = max(now, hearing.starts_at), None
    start, end = day_bounds(day, zone)
    already = CheckIn.objects.filter(
        case=case, status=CheckInStatus.SCHEDULED, due_at__gte=start, due_at__lt=end
    ).first()
    if already is not None:
        return Step(
            code,
            label,
            already.due_at,
            str(_("A check-in is already booked that day: %(when)s."))
            % {"when": shown(already.due_at, zone)},
            done=True,
        )
    if end <= now:
        return Step(code, label, None, str(_("That day has passed.")))
    slot, note = slot_in_words(profile, day, zone, not_before=not_before, not_after=not_after)
    if slot is None:
        return Step(code, label, None, note)
    return Step(code, label, slot, note, channel=channel)


def proposed_steps(case: Case, hearing: Hearing, now: dt.datetime | None = None) -> list[Step]:
    """The four steps for ``hearing``, with their times, in the order the page lists them."""
    now = now or timezone.now()
    zone = timezone.get_current_timezone()
    keys = {_key(hearing, code) for code in (PLAN_REVIEW, ACCOMPANIMENT)}
    existing = dict(
        FollowUp.objects.filter(case=case, source_key__in=keys).values_list("source_key", "due_at")
    )
    upcoming = hearing.starts_at > now
    steps = []
    for code, label, due in (
        (
            PLAN_REVIEW,
            _("Review the safety plan before the hearing"),
            max(now, hearing.starts_at - REVIEW_BEFORE),
        ),
        (ACCOMPANIMENT, _("Arrange the accompaniment to court"), hearing.starts_at),
    ):
        key = _key(hearing, code)
        if key in existing:
            steps.append(Step(code, str(label), existing[key], str(_("Already added.")), done=True))
        elif not upcoming:
            steps.append(Step(code, str(label), None, str(_("The hearing has started."))))
        else:
            steps.append(
                Step(code, str(label), due, str(_("Due %(when)s.")) % {"when": shown(due, zone)})
            )
    profile = checkins.profile_for(case)
    steps.insert(
        1,
        _checkin_step(
            CHECKIN_BEFORE, str(_("A check-in the day before")), case, hearing, profile, now
        ),
    )
    steps.insert(
        2,
        _checkin_step(
            CHECKIN_AFTER, str(_("A check-in the day after")), case, hearing, profile, now
        ),
    )
    return steps


def hearing_steps_add(
    *, actor: User, hearing: Hearing, codes: list[str]
) -> tuple[list[Step], list[str]]:
    """Add the steps in ``codes`` still to be added; returns (added, problems in plain words).
    One step that cannot be placed (the window changed meanwhile) does not stop the others."""
    case = hearing.case
    policy.require(actor, case, "edit")
    added: list[Step] = []
    problems: list[str] = []
    with transaction.atomic():
        for step in proposed_steps(case, hearing):
            if step.code not in codes or not step.available:
                continue
            assert step.when is not None
            try:
                with transaction.atomic():
                    if step.code == PLAN_REVIEW:
                        kind: str = SafetyFollowUpKind.PLAN_REVIEW
                    elif step.code == ACCOMPANIMENT:
                        kind = CourtFollowUpKind.ACCOMPANIMENT
                    else:
                        profile = checkins.profile_for(case)
                        assert profile is not None
                        local = step.when.astimezone(ZoneInfo(profile.timezone))
                        checkins.checkin_schedule(
                            actor=actor,
                            case=case,
                            due_local=local.replace(tzinfo=None),
                            channel=step.channel,
                            assignee=actor,
                        )
                        added.append(step)
                        continue
                    followup_ensure(
                        case=case,
                        kind=kind,
                        due_at=step.when,
                        source_key=_key(hearing, step.code),
                        assignee=actor,
                        actor=actor,
                    )
                    added.append(step)
            except checkins.UnsafeSlot as exc:
                problems.append(f"{step.label}: {exc.message}")
            except ValidationError as exc:
                problems.append(f"{step.label}: {' '.join(exc.messages)}")
        record(
            "hearing.steps",
            actor=actor,
            case=case,
            obj=hearing,
            detail={"added": [s.code for s in added], "not_added": len(problems)},
        )
    return added, problems
