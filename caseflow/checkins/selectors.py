"""Read-side queries for check-in pages: scoped by policy, no encrypted field a page does not
show, a constant number of queries however many rows there are."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from zoneinfo import ZoneInfo

from django.db.models import OuterRef, QuerySet
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext

from caseflow import policy
from caseflow.accounts import zones
from caseflow.accounts.models import User
from caseflow.cases.models import Case, CaseKey, SafeContactProfile
from caseflow.checkins.models import CalendarToken, CheckIn, CheckInOutcome, CheckInStatus
from caseflow.checkins.services import profile_windows, token_hash
from caseflow.inbox.models import FollowUp, FollowUpStatus
from caseflow.lib import weekly_windows
from caseflow.lib.compiled import CompiledQuery
from caseflow.lib.encryption import unwrap_data_key
from caseflow.lib.i18n import gettext_lazy as _

CHECKIN_LIST_FIELDS = (
    "pk",
    "case_id",
    "schedule_id",
    "channel",
    "due_at",
    "assignee_id",
    "status",
    "outcome",
    "reminder_stage",
    "version",
    "case__public_id",
    "case__reference",
    "case__status",
    "case__team_id",
    "case__agency_id",
)


def next_checkin_due():
    """The case's next scheduled check-in, for the case tables' "Next due" column."""
    return (
        CheckIn.objects.filter(case=OuterRef("pk"), status=CheckInStatus.SCHEDULED)
        .order_by("due_at")
        .values("due_at")[:1]
    )


def checkin_rows(queryset):
    return queryset.select_related("case").only(*CHECKIN_LIST_FIELDS).order_by("due_at", "pk")


def followup_rows(queryset):
    return (
        queryset.select_related("case")
        .only(
            "pk",
            "case_id",
            "kind",
            "due_at",
            "assignee_id",
            "status",
            "version",
            "source_key",
            "case__public_id",
            "case__reference",
        )
        .order_by("due_at", "pk")
    )


def _attach_windows(rows: Iterable[CheckIn]) -> None:
    """Give each check-in ``window_text`` and ``tz`` from its case's profile, decrypting each
    profile once with keys fetched in one query."""
    rows = list(rows)
    case_ids = {r.case_id for r in rows}
    if not case_ids:
        return
    keys = dict(CaseKey.objects.filter(case_id__in=case_ids).values_list("case_id", "wrapped"))
    cases: dict[int, Case] = {}
    for row in rows:
        cases.setdefault(row.case_id, row.case)
    for case_id, case in cases.items():
        if case_id in keys:
            case.__dict__["_data_key"] = unwrap_data_key(keys[case_id])
    profiles: dict[int, SafeContactProfile] = {}
    for loaded in SafeContactProfile.objects.filter(case_id__in=case_ids).only(
        "case_id", "timezone", "rules"
    ):
        loaded.case = cases[loaded.case_id]
        profiles[loaded.case_id] = loaded
    for row in rows:
        profile = profiles.get(row.case_id)
        # tz, window_text and local_due are read by the check-in list templates.
        if profile is None:
            row.window_text, row.tz = _("No safe-contact profile"), zones.current().key  # type: ignore[attr-defined]
            continue
        row.tz = profile.timezone  # type: ignore[attr-defined]
        text = weekly_windows.format_windows(profile_windows(profile)).replace("\n", "; ")
        row.window_text = text  # type: ignore[attr-defined]
        row.local_due = row.due_at.astimezone(ZoneInfo(profile.timezone))  # type: ignore[attr-defined]


def advocate_dashboard(user: User, now: dt.datetime | None = None) -> dict:
    """Today's check-ins in order, overdue ones, the next 7 days, flagged ones and follow-ups
    due: only the user's own, on cases they may still see."""
    now = now or timezone.now()
    start = now.replace(hour=0, minute=0, second=0, microsecond=0)
    end_of_today = start + dt.timedelta(days=1)
    week = now + dt.timedelta(days=7)
    visible = policy.visible_cases(user)
    mine = CheckIn.objects.filter(assignee=user, case__in=visible)
    rows = list(
        checkin_rows(
            mine.filter(
                status__in=(CheckInStatus.SCHEDULED, CheckInStatus.MISSED, CheckInStatus.UNSAFE),
                due_at__lt=week,
            ).filter(due_at__gte=now - dt.timedelta(days=30))
        )
    )
    _attach_windows(rows)
    overdue = [r for r in rows if r.due_at < start or r.status == CheckInStatus.MISSED]
    today = [
        r
        for r in rows
        if start <= r.due_at < end_of_today
        and r.status in (CheckInStatus.SCHEDULED, CheckInStatus.UNSAFE)
    ]
    upcoming = [
        r
        for r in rows
        if r.due_at >= end_of_today and r.status in (CheckInStatus.SCHEDULED, CheckInStatus.UNSAFE)
    ]
    followups = list(
        followup_rows(
            FollowUp.objects.filter(
                assignee=user, case__in=visible, status=FollowUpStatus.OPEN, due_at__lt=week
            )
        )[:200]
    )
    return {
        "today": today,
        "overdue": overdue,
        "upcoming": upcoming,
        "followups": followups,
        "now": now,
    }


UPCOMING_STATUSES = (CheckInStatus.SCHEDULED, CheckInStatus.MISSED, CheckInStatus.UNSAFE)
PAST_STATUSES = (CheckInStatus.DONE, CheckInStatus.CANCELLED)
CASE_UPCOMING_LIMIT = 20
CASE_RECENT_LIMIT = 10
PROFILE_NOT_LOADED = object()


def _windows_from(rows: list[CheckIn], profile: SafeContactProfile | None) -> None:
    """``window_text``, ``tz`` and ``local_due`` of one case's check-ins from its profile (read by
    the check-in list templates)."""
    if profile is None:
        for row in rows:
            row.window_text, row.tz = _("No safe-contact profile"), zones.current().key  # type: ignore[attr-defined]
        return
    text = weekly_windows.format_windows(profile_windows(profile)).replace("\n", "; ")
    zone = ZoneInfo(profile.timezone)
    for row in rows:
        row.tz, row.window_text = profile.timezone, text  # type: ignore[attr-defined]
        row.local_due = row.due_at.astimezone(zone)  # type: ignore[attr-defined]


def _upcoming(*, case: int, since: dt.datetime) -> QuerySet[CheckIn]:
    fields = [f for f in CHECKIN_LIST_FIELDS if not f.startswith("case__")]
    return (
        CheckIn.objects.filter(case=case, status__in=UPCOMING_STATUSES, due_at__gte=since)
        .only(*fields)
        .order_by("due_at", "pk")[:CASE_UPCOMING_LIMIT]
    )


def _recent(*, case: int) -> QuerySet[CheckIn]:
    fields = [f for f in CHECKIN_LIST_FIELDS if not f.startswith("case__")]
    return (
        CheckIn.objects.filter(case=case, status__in=PAST_STATUSES)
        .only(*fields)
        .order_by("-due_at", "-pk")[:CASE_RECENT_LIMIT]
    )


#: Every case page lists them: their SQL is built once per process.
_UPCOMING = CompiledQuery(CheckIn, _upcoming, case="int", since="datetime")
_RECENT = CompiledQuery(CheckIn, _recent, case="int")


def case_checkins(
    case: Case,
    now: dt.datetime | None = None,
    *,
    profile: SafeContactProfile | None | object = PROFILE_NOT_LOADED,
    checkins: bool = True,
    followups: bool = True,
) -> dict:
    """The case's upcoming check-ins (the first 20 from 30 days ago, with the survivor's safe
    windows), its last 10 done or cancelled ones and its open follow-ups.

    ``profile``: the case's safe-contact profile (or ``None``) when the caller has it already;
    else it is loaded. ``checkins=False`` / ``followups=False`` when the caller knows the case
    has no check-in / no open follow-up. Two plain queries for the check-ins: one ranked query
    (a window function over both lists) was one statement fewer but twice as slow to build and
    run."""
    now = now or timezone.now()
    upcoming: list[CheckIn] = []
    recent: list[CheckIn] = []
    if checkins:
        upcoming = _UPCOMING.rows(case=case.pk, since=now - dt.timedelta(days=30))
        recent = _RECENT.rows(case=case.pk)
    for row in (*upcoming, *recent):
        row.case = case  # shares the unwrapped data key
    if profile is PROFILE_NOT_LOADED:
        _attach_windows(upcoming)
    else:
        assert profile is None or isinstance(profile, SafeContactProfile)
        _windows_from(upcoming, profile)
    open_followups = (
        list(followup_rows(FollowUp.objects.filter(case=case, status=FollowUpStatus.OPEN))[:50])
        if followups
        else []
    )
    return {"upcoming": upcoming, "recent": recent, "followups": open_followups}


def checkin_for(case: Case, pk: int) -> CheckIn:
    checkin = CheckIn.objects.filter(case=case, pk=pk).select_related("assignee").first()
    if checkin is None:
        raise Http404(_("No such check-in on this case"))
    checkin.case = case
    return checkin


def followup_for(case: Case, pk: int) -> FollowUp:
    followup = FollowUp.objects.filter(case=case, pk=pk).first()
    if followup is None:
        raise Http404(_("No such follow-up on this case"))
    followup.case = case
    return followup


def case_assignees(case: Case):
    return case.assignees.filter(is_active=True, membership__is_active=True).order_by(
        "first_name", "last_name", "username"
    )


def active_calendar_token(user: User) -> CalendarToken | None:
    return CalendarToken.objects.filter(user=user, revoked_at__isnull=True).first()


def calendar_user(token: str) -> tuple[CalendarToken, User] | None:
    """The token's row and user, if the token is live and its user still has a casework role."""
    row = (
        CalendarToken.objects.filter(token_hash=token_hash(token), revoked_at__isnull=True)
        .select_related("user")
        .first()
    )
    if row is None or policy.active_role(row.user) not in policy.CASEWORK_ROLES:
        return None
    return row, row.user


#: The calendar feed holds what falls due from a week ago to two months ahead.
FEED_PAST = dt.timedelta(days=7)
FEED_AHEAD = dt.timedelta(days=60)


def feed_checkins(user: User, now: dt.datetime | None = None) -> list[CheckIn]:
    now = now or timezone.now()
    return list(
        checkin_rows(
            CheckIn.objects.filter(
                assignee=user,
                case__in=policy.visible_cases(user),
                status=CheckInStatus.SCHEDULED,
                due_at__gte=now - FEED_PAST,
                due_at__lt=now + FEED_AHEAD,
            )
        )[:2000]
    )


_REACHED = {CheckInOutcome.REACHED}


def checkin_trend(case: Case, since: dt.datetime) -> list[tuple[dt.datetime, str]]:
    """Check-ins with an outcome from ``since``, for the journey's trend picture: reached, or
    not (no answer, not safe to talk: a fact about the contact, never the survivor's failure)."""
    rows = CheckIn.objects.filter(case=case, due_at__gte=since).exclude(outcome="")
    return [
        (moment, "reached" if outcome in _REACHED else "not_reached")
        for moment, outcome in rows.exclude(outcome=CheckInOutcome.RESCHEDULED).values_list(
            "due_at", "outcome"
        )
    ]


def future_checkin_lines(case: Case) -> list[str]:
    """The case's check-ins still to come, as the closure page lists them."""
    rows = CheckIn.objects.filter(
        case=case, status__in=(CheckInStatus.SCHEDULED, CheckInStatus.UNSAFE)
    ).order_by("due_at")[:50]
    zone = timezone.get_current_timezone()
    return [
        gettext("Check-in due %(due)s")
        % {"due": f"{timezone.localtime(row.due_at, zone):%d %b %Y %H:%M}"}
        for row in rows
    ]


#: Two open check-ins on the same channel closer than this are probably one booked twice.
TWIN_WITHIN = dt.timedelta(minutes=30)


def open_twin(case, channel: str, due_at: dt.datetime) -> CheckIn | None:
    """An open check-in of ``case`` on ``channel`` within :data:`TWIN_WITHIN` of ``due_at``."""
    return (
        CheckIn.objects.open()
        .filter(
            case=case,
            channel=channel,
            due_at__gt=due_at - TWIN_WITHIN,
            due_at__lt=due_at + TWIN_WITHIN,
        )
        .order_by("due_at")
        .first()
    )
