"""Check-ins proposed in the survivor's safe window around the dates that call for one: before a
date that is hard for her, after a handover in an agreement (the ``checkin_occasions`` of
:mod:`caseflow.cases.features`), and the safe slot nearest a day that court's steps use too.

A proposal is what court's safety steps are: the advocate sees it on a page, ticked, and adds the
check-ins she confirms through :func:`caseflow.checkins.services.checkin_schedule` like any other
(so they reach the today queue, the reminders and the calendar feed). Nothing is booked without
her. The sweep (:func:`checkin_proposals_sweep`, from beat) keeps each coming occasion in view as
one follow-up ("A check-in is proposed") keyed by the occasion, so a yearly date and each handover
are proposed again when they come round, once each; adding the check-ins closes it.

Conventions: times are UTC instants; a "day" is the survivor's day (the zone of her safe-contact
profile). A check-in is placed only in a safe window (:func:`services.next_safe`); when no
window opens on the day wanted the proposal says so and offers the nearest safe slot within
:data:`NEAREST_DAYS` (never after the date itself for a hard date, never before the handover).
A proposal counts as done when a check-in is booked or held from :data:`NEAREST_DAYS` before the
day wanted to the date itself (for a hard date), or from the handover to :data:`NEAREST_DAYS`
after its day.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import formats, timezone

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.cases.features import OCCASION_SOURCE_PREFIX, Occasion, members
from caseflow.cases.models import Case, SafeContactProfile
from caseflow.checkins import services
from caseflow.checkins.models import CheckIn, CheckInFollowUpKind, CheckInStatus
from caseflow.inbox.models import FollowUp, FollowUpStatus
from caseflow.inbox.services import followup_ensure
from caseflow.lib import weekly_windows
from caseflow.lib.i18n import gettext_lazy as _

#: How far from the day itself the nearest safe slot is looked for.
NEAREST_DAYS = 3
#: The sweep keeps in view the occasions whose day falls within this many days.
AHEAD_DAYS = 14
#: The follow-up falls due this many days before the day wanted (or at once when nearer).
REMIND_DAYS = 3


# --- The safe slot nearest a day ---------------------------------------------------------------


def shown(moment: dt.datetime, zone: ZoneInfo) -> str:
    """A moment as the page writes it, in ``zone`` (the survivor's)."""
    return formats.date_format(moment.astimezone(zone), "D j M Y, H:i")


def day_bounds(day: dt.date, zone: ZoneInfo) -> tuple[dt.datetime, dt.datetime]:
    """The UTC instants the survivor's ``day`` starts and ends (23 or 25 hours at a DST change)."""
    start = dt.datetime.combine(day, dt.time(0), tzinfo=zone).astimezone(dt.UTC)
    end = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0), tzinfo=zone)
    return start, end.astimezone(dt.UTC)


def _latest_before(
    profile: SafeContactProfile, lo: dt.datetime, hi: dt.datetime
) -> dt.datetime | None:
    """The latest safe slot starting in ``[lo, hi)`` (a whole minute, wholly in a window)."""
    if hi <= lo:
        return None
    length = services.checkin_duration()
    best = None
    for begin, finish in weekly_windows.window_occurrences(
        lo, hi, services.profile_windows(profile), profile.timezone
    ):
        slot = (min(finish - length, hi - dt.timedelta(minutes=1))).replace(second=0, microsecond=0)
        if slot >= max(begin, lo) and slot + length <= finish:
            best = slot if best is None or slot > best else best
    return best


def safe_slot_near(
    profile: SafeContactProfile,
    day: dt.date,
    *,
    not_before: dt.datetime,
    not_after: dt.datetime | None = None,
) -> tuple[dt.datetime | None, bool]:
    """A safe slot on the survivor's ``day`` (the first one), else the nearest one within
    :data:`NEAREST_DAYS`, never before ``not_before`` nor at or after ``not_after``. Returns
    (slot or None, whether it is on ``day``)."""
    zone = ZoneInfo(profile.timezone)
    start, end = day_bounds(day, zone)
    ahead = services.next_safe(profile, max(start, not_before))
    if ahead is not None and not_after is not None and ahead >= not_after:
        ahead = None
    if ahead is not None and ahead < end:
        return ahead, True
    if ahead is not None and ahead - end > dt.timedelta(days=NEAREST_DAYS):
        ahead = None
    behind = _latest_before(
        profile,
        max(start - dt.timedelta(days=NEAREST_DAYS), not_before),
        start if not_after is None else min(start, not_after),
    )
    if ahead is None or (behind is not None and start - behind < ahead - end):
        return behind, False
    return ahead, False


# --- Proposals ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Proposal:
    key: str
    #: What the check-in is for, in plain words ("A birthday: her son's").
    label: str
    #: The survivor's day the check-in is wanted on.
    day: dt.date
    #: When it would be (UTC), or None when it cannot be proposed.
    when: dt.datetime | None
    #: Plain words about the time chosen, or why it cannot be added.
    note: str = ""
    done: bool = False
    channel: str = ""

    @property
    def available(self) -> bool:
        return self.when is not None and not self.done

    @property
    def code(self) -> str:
        """The proposal's form value (the key, without the ':' a checkbox id cannot hold)."""
        return self.key.replace(":", "-")


def _done_range(occasion: Occasion, zone: ZoneInfo) -> tuple[dt.datetime, dt.datetime]:
    start, end = day_bounds(occasion.day, zone)
    near = dt.timedelta(days=NEAREST_DAYS)
    if occasion.not_before is not None:
        return occasion.not_before, end + near
    return start - near, occasion.not_after or end


def _proposal(
    occasion: Occasion, profile: SafeContactProfile | None, booked: list[dt.datetime], now
) -> Proposal:
    key, label, day = occasion.key, occasion.label, occasion.day
    if profile is None:
        return Proposal(
            key,
            label,
            day,
            None,
            str(
                _(
                    "Record the survivor's safe-contact details first: a check-in is only placed "
                    "in a safe window."
                )
            ),
        )
    channel = next(iter(profile.channels), "")
    if not channel or not services.profile_windows(profile):
        return Proposal(
            key, label, day, None, str(_("The survivor's profile has no safe channel or window."))
        )
    zone = ZoneInfo(profile.timezone)
    lo, hi = _done_range(occasion, zone)
    already = next((at for at in booked if lo <= at < hi), None)
    if already is not None:
        return Proposal(
            key,
            label,
            day,
            already,
            str(_("A check-in is already booked for it: %(when)s."))
            % {"when": shown(already, zone)},
            done=True,
        )
    if occasion.not_after is not None and occasion.not_after <= now:
        return Proposal(key, label, day, None, str(_("That day has passed.")))
    not_before = max(now, occasion.not_before) if occasion.not_before else now
    slot, note = slot_in_words(
        profile, day, zone, not_before=not_before, not_after=occasion.not_after
    )
    if slot is None:
        return Proposal(key, label, day, None, note)
    return Proposal(key, label, day, slot, note, channel=channel)


def slot_in_words(
    profile: SafeContactProfile,
    day: dt.date,
    zone: ZoneInfo,
    *,
    not_before: dt.datetime,
    not_after: dt.datetime | None,
) -> tuple[dt.datetime | None, str]:
    """The check-in slot for ``day`` (:func:`safe_slot_near`) and the line that says where it
    falls: in her safe window that day, the nearest one when none opens, or none at all."""
    slot, on_day = safe_slot_near(profile, day, not_before=not_before, not_after=not_after)
    day_words = formats.date_format(day, "D j M Y")
    if slot is None:
        return None, str(_("No safe window opens on %(day)s, nor in the days around it.")) % {
            "day": day_words
        }
    if on_day:
        return slot, str(_("%(when)s, in the survivor's safe window (their time).")) % {
            "when": shown(slot, zone)
        }
    return slot, str(
        _("No safe window opens on %(day)s; the nearest is %(when)s (the survivor's time).")
    ) % {"day": day_words, "when": shown(slot, zone)}


def occasions_for(case: Case, today: dt.date) -> list[Occasion]:
    found = [
        occasion
        for source in members(lambda f: f.checkin_occasions)
        for occasion in source.for_case(case, today)
    ]
    return sorted(found, key=lambda o: (o.day, o.key))


def proposed_checkins(case: Case, now: dt.datetime | None = None) -> list[Proposal]:
    """A proposal for the next occasion of every hard date and handover of ``case``, soonest
    first."""
    now = now or timezone.now()
    profile = services.profile_for(case)
    zone = ZoneInfo(profile.timezone) if profile is not None else timezone.get_current_timezone()
    today = now.astimezone(zone).date()
    occasions = occasions_for(case, today)
    if not occasions:
        return []
    booked = list(
        CheckIn.objects.filter(
            case=case,
            status__in=(CheckInStatus.SCHEDULED, CheckInStatus.DONE),
            due_at__gte=now - dt.timedelta(days=2 * NEAREST_DAYS),
        ).values_list("due_at", flat=True)
    )
    return [_proposal(occasion, profile, booked, now) for occasion in occasions]


def _source_key(key: str) -> str:
    return f"{OCCASION_SOURCE_PREFIX}{key}"


def _remind_at(day: dt.date, now: dt.datetime) -> dt.datetime:
    zone = timezone.get_current_timezone()
    due = dt.datetime.combine(day - dt.timedelta(days=REMIND_DAYS), dt.time(9), tzinfo=zone)
    return max(due.astimezone(dt.UTC), now)


def checkin_proposals_add(
    *, actor: User, case: Case, codes: list[str]
) -> tuple[list[Proposal], list[str]]:
    """Book the proposed check-ins in ``codes`` still to be added; returns (added, problems in
    plain words). One that cannot be placed (the window changed meanwhile) does not stop the
    others. Adding the same proposal twice books nothing more."""
    policy.require(actor, case, "edit")
    added: list[Proposal] = []
    problems: list[str] = []
    now = timezone.now()
    with transaction.atomic():
        for proposal in proposed_checkins(case, now):
            if proposal.code not in codes or not proposal.available:
                continue
            assert proposal.when is not None
            profile = services.profile_for(case)
            assert profile is not None  # a proposal is available only with a profile
            try:
                with transaction.atomic():
                    local = proposal.when.astimezone(ZoneInfo(profile.timezone))
                    services.checkin_schedule(
                        actor=actor,
                        case=case,
                        due_local=local.replace(tzinfo=None),
                        channel=proposal.channel,
                        assignee=actor,
                    )
                    _proposal_followup_close(actor=actor, case=case, proposal=proposal, now=now)
                    added.append(proposal)
            except services.UnsafeSlot as exc:
                problems.append(f"{proposal.label}: {exc.message}")
            except ValidationError as exc:
                problems.append(f"{proposal.label}: {' '.join(exc.messages)}")
        kinds = Counter(p.key.split(":", 1)[0] for p in added)
        record(
            "checkin.proposals",
            actor=actor,
            case=case,
            detail={"added": dict(kinds), "not_added": len(problems)},
        )
    return added, problems


def _proposal_followup_close(*, actor: User, case: Case, proposal: Proposal, now) -> None:
    """The occasion's follow-up, created if the sweep has not yet, marked done: the sweep then
    finds it and proposes this occurrence no more."""
    followup, _created = followup_ensure(
        case=case,
        kind=CheckInFollowUpKind.PROPOSED_CHECKIN,
        due_at=_remind_at(proposal.day, now),
        source_key=_source_key(proposal.key),
        assignee=actor,
        actor=actor,
    )
    if followup.status == FollowUpStatus.OPEN:
        services.followup_done(actor=actor, followup=followup)


def checkin_proposals_sweep(now: dt.datetime | None = None) -> int:
    """Make sure every occasion of an open case in the coming :data:`AHEAD_DAYS` has its
    follow-up ("A check-in is proposed"), due :data:`REMIND_DAYS` before the day wanted.
    Idempotent (keyed by the occasion): a second run, or a retried one, creates nothing.
    Returns how many were created."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    until = today + dt.timedelta(days=AHEAD_DAYS)
    created = 0
    for source in members(lambda f: f.checkin_occasions):
        pending: list[Occasion] = []
        for occasion in source.coming(today, until):
            pending.append(occasion)
            if len(pending) >= settings.SWEEP_BATCH_SIZE:
                created += _ensure_followups(pending, now)
                pending = []
        created += _ensure_followups(pending, now)
    return created


def _ensure_followups(occasions: list[Occasion], now: dt.datetime) -> int:
    if not occasions:
        return 0
    keys = {_source_key(o.key) for o in occasions}
    known = set(
        FollowUp.objects.filter(
            case_id__in={o.case_id for o in occasions}, source_key__in=keys
        ).values_list("source_key", flat=True)
    )
    fresh = [o for o in occasions if _source_key(o.key) not in known]
    cases = Case.objects.select_related("primary_advocate").in_bulk({o.case_id for o in fresh})
    created = 0
    for occasion in fresh:
        case = cases.get(occasion.case_id)
        if case is None:
            continue
        with transaction.atomic():
            _followup, new = followup_ensure(
                case=case,
                kind=CheckInFollowUpKind.PROPOSED_CHECKIN,
                due_at=_remind_at(occasion.day, now),
                source_key=_source_key(occasion.key),
            )
        created += new
    return created
