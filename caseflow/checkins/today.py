"""The check-ins and follow-ups of the today queue (see :mod:`caseflow.cases.today`)."""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import replace
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import QuerySet
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import ngettext

from caseflow.cases.models import Channel, SafeContactProfile
from caseflow.cases.today import (
    PER_SOURCE,
    Action,
    ListedQuery,
    QueueItem,
    QueueSource,
    Scope,
    staff_zone,
)
from caseflow.checkins.models import CheckIn, CheckInFollowUpKind, CheckInStatus
from caseflow.checkins.services import UNDO_WINDOW, profile_windows
from caseflow.inbox.models import FollowUp, FollowUpStatus
from caseflow.lib.i18n import gettext_lazy as _

#: Check-ins missed longer ago than this are left to the case page, not the daily queue.
LOOKBACK = dt.timedelta(days=30)
_CHANNELS = dict(Channel.choices)


def _person(user) -> str:
    return (user.get_full_name() or user.username) if user is not None else "Unassigned"


def _checkins(
    *, cases: QuerySet[Any], user: int | None, day_end: dt.datetime, since: dt.datetime
) -> QuerySet[CheckIn]:
    """The check-ins of the queue: those of ``user`` (of id) or, with none, everyone's."""
    rows = CheckIn.objects.filter(
        case__in=cases,
        status__in=(CheckInStatus.SCHEDULED, CheckInStatus.MISSED, CheckInStatus.UNSAFE),
        due_at__lt=day_end,
        due_at__gte=since,
    )
    if user is not None:
        rows = rows.filter(assignee=user)
    return (
        rows.select_related("case", "case__key", "assignee")
        .only(
            "pk",
            "due_at",
            "status",
            "channel",
            "case__public_id",
            "case__reference",
            "case__key__wrapped",
            "assignee__username",
            "assignee__first_name",
            "assignee__last_name",
        )
        .order_by("due_at", "pk")[:PER_SOURCE]
    )


_OWN_CHECKINS = ListedQuery(CheckIn, _checkins, user="int", day_end="datetime", since="datetime")
_TEAM_CHECKINS = ListedQuery(
    CheckIn, functools.partial(_checkins, user=None), day_end="datetime", since="datetime"
)


def checkin_items(scope: Scope) -> list[QueueItem]:
    values = {"day_end": scope.day_end, "since": scope.now - LOOKBACK}
    if scope.own_only:
        checkins = _OWN_CHECKINS.rows(scope, user=scope.user.pk, **values)
    else:
        checkins = _TEAM_CHECKINS.rows(scope, **values)
    # No check-in, no profile to read (and no query to build: an empty ``IN`` sends nothing).
    profiles = (
        {
            p.case_id: p
            for p in SafeContactProfile.objects.filter(
                case_id__in={c.case_id for c in checkins}
            ).only("case_id", "timezone", "rules")
        }
        if checkins
        else {}
    )
    items = []
    for checkin in checkins:
        case = checkin.case
        local_time, safe_now = "", None
        profile = profiles.get(case.pk)
        if profile is not None:
            profile.case = case  # its rules are encrypted with the case's key
            zone = ZoneInfo(profile.timezone)
            local_time = checkin.due_at.astimezone(zone).strftime("%H:%M")
            now_local = scope.now.astimezone(zone).replace(tzinfo=None)
            safe_now = any(w.contains_wall_time(now_local) for w in profile_windows(profile))
        missed = checkin.status == CheckInStatus.MISSED
        items.append(
            QueueItem(
                due_at=checkin.due_at,
                kind="Check-in",
                title=f"{_CHANNELS.get(checkin.channel, checkin.channel)}"
                + (" (not reached last time)" if missed else ""),
                case_reference=case.reference,
                case_public_id=case.public_id,
                case_id=case.pk,
                action=Action(
                    _("Record what happened"),
                    reverse("checkins:outcome", args=[case.public_id, checkin.pk]),
                ),
                owner=_person(checkin.assignee),
                owner_id=checkin.assignee_id or 0,
                local_time=local_time,
                safe_now=safe_now,
            )
        )
    return items


#: Follow-ups read from the database for one queue, before like ones are merged.
FETCHED = PER_SOURCE * 4


def _followups(
    *, cases: QuerySet[Any], user: int | None, day_end: dt.datetime
) -> QuerySet[FollowUp]:
    """The open follow-ups of the queue: ``user``'s (of id) or, with none, everyone's."""
    rows = FollowUp.objects.filter(case__in=cases, status=FollowUpStatus.OPEN, due_at__lt=day_end)
    if user is not None:
        rows = rows.filter(assignee=user)
    return (
        rows.select_related("case", "assignee")
        .only(
            "pk",
            "kind",
            "due_at",
            "source_key",
            "case__public_id",
            "case__reference",
            "assignee__username",
            "assignee__first_name",
            "assignee__last_name",
        )
        .order_by("due_at", "pk")[:FETCHED]
    )


_OWN_FOLLOWUPS = ListedQuery(FollowUp, _followups, user="int", day_end="datetime")
_TEAM_FOLLOWUPS = ListedQuery(
    FollowUp, functools.partial(_followups, user=None), day_end="datetime"
)


def followup_items(scope: Scope) -> list[QueueItem]:
    if scope.own_only:
        followups = _OWN_FOLLOWUPS.rows(scope, user=scope.user.pk, day_end=scope.day_end)
    else:
        followups = _TEAM_FOLLOWUPS.rows(scope, day_end=scope.day_end)
    items = []
    for like in merged(followups):
        f = like[0]
        extra: dict[str, Any] = {
            "owner": _person(f.assignee),
            "owner_id": f.assignee_id or 0,
            "group_key": f"followups:{f.kind}",
            "group_label": f"{_('Follow-up')}: {f.kind_label}",
        }
        if f.kind == CheckInFollowUpKind.PROPOSED_CHECKIN:
            items.append(_proposal_item(f, **extra))
        elif len(like) > 1:
            items.append(_merged_item(like, **extra))
        else:
            items.append(_followup_item(f, _("Mark done"), "checkins:followup_done", **extra))
    return items[:PER_SOURCE]


def merged(followups: list[FollowUp]) -> list[list[FollowUp]]:
    """Follow-ups in lists of like ones, in the order of the first of each: the automatic ones
    (with a ``source_key``) of one kind on one case for one person are one list; every other
    follow-up is alone in its own."""
    groups: dict[tuple, list[FollowUp]] = {}
    for f in followups:
        if f.source_key and f.kind != CheckInFollowUpKind.PROPOSED_CHECKIN:
            key: tuple = (f.case_id, f.kind, f.assignee_id)
        else:
            key = ("alone", f.pk)
        groups.setdefault(key, []).append(f)
    return list(groups.values())


def merged_title(kind: str, label: str, count: int, since: dt.date) -> str:
    """The words of ``count`` like automatic follow-ups, the earliest due on ``since``."""
    words = {"since": date_format(since, "MONTH_DAY_FORMAT"), "count": count, "label": label}
    if kind == "incident_risk_review":
        return (
            ngettext(
                "Re-assess risk: %(count)d incident since %(since)s",
                "Re-assess risk: %(count)d incidents since %(since)s",
                count,
            )
            % words
        )
    return (
        ngettext(
            "%(label)s: %(count)d since %(since)s", "%(label)s: %(count)d since %(since)s", count
        )
        % words
    )


def _merged_item(like: list[FollowUp], **extra) -> QueueItem:
    """Like automatic follow-ups as one item, due when the earliest is: one tap marks them all
    done."""
    first = like[0]
    since = first.due_at.astimezone(staff_zone()).date()
    item = _followup_item(
        first,
        _("Mark all done"),
        "checkins:followup_done",
        together=",".join(str(f.pk) for f in like),
        **extra,
    )
    return replace(
        item,
        title=merged_title(first.kind, first.kind_label, len(like), since),
        count=len(like),
    )


def _proposal_item(followup: FollowUp, **extra) -> QueueItem:
    """A check-in proposed around a hard date or a handover: a link to the proposals, where
    booking it marks the follow-up done."""
    return QueueItem(
        due_at=followup.due_at,
        kind="Follow-up",
        title=followup.kind_label,
        case_reference=followup.case.reference,
        case_public_id=followup.case.public_id,
        case_id=followup.case_id,
        action=Action(
            _("See what is proposed"),
            reverse("checkins:proposals", args=[followup.case.public_id]),
        ),
        **extra,
    )


def _followup_item(
    followup: FollowUp, label: str, url_name: str, *, together: str = "", **extra
) -> QueueItem:
    """A follow-up in the queue, with one one-tap action (``label``, POST to ``url_name``);
    ``together``: the action is for it and the like automatic follow-ups merged with it (their
    primary keys, or "1" where the service finds them itself)."""
    return QueueItem(
        due_at=followup.due_at,
        kind="Follow-up",
        title=followup.kind_label,
        case_reference=followup.case.reference,
        case_public_id=followup.case.public_id,
        case_id=followup.case_id,
        action=Action(
            label,
            reverse(url_name, args=[followup.case.public_id, followup.pk]),
            post=True,
            fields=(("next", "dashboard"),) + ((("together", together),) if together else ()),
        ),
        **extra,
    )


def _recently_done(*, cases: QuerySet[Any], user: int, since: dt.datetime) -> QuerySet[FollowUp]:
    return (
        FollowUp.objects.filter(
            case__in=cases, status=FollowUpStatus.DONE, done_by=user, done_at__gte=since
        )
        .select_related("case")
        .only(
            "pk",
            "kind",
            "due_at",
            "done_at",
            "source_key",
            "assignee_id",
            "case__public_id",
            "case__reference",
        )
        .order_by("-done_at", "-pk")[:FETCHED]
    )


_RECENTLY_DONE = ListedQuery(FollowUp, _recently_done, user="int", since="datetime")


def recently_done_items(scope: Scope) -> list[QueueItem]:
    """Follow-ups the user marked done a moment ago: still undoable (those marked done together
    are undone together)."""
    followups = _RECENTLY_DONE.rows(scope, user=scope.user.pk, since=scope.now - UNDO_WINDOW)
    groups: dict[tuple, list[FollowUp]] = {}
    for f in followups:
        key = (f.case_id, f.kind, f.assignee_id, f.done_at) if f.source_key else ("alone", f.pk)
        groups.setdefault(key, []).append(f)
    items = []
    for like in groups.values():
        like.sort(key=lambda f: (f.due_at, f.pk))
        item = _followup_item(
            like[0],
            _("Undo"),
            "checkins:followup_undo",
            together="1" if len(like) > 1 else "",
            done=True,
        )
        if len(like) > 1:
            since = like[0].due_at.astimezone(staff_zone()).date()
            item = replace(
                item,
                title=merged_title(like[0].kind, like[0].kind_label, len(like), since),
                count=len(like),
            )
        items.append(item)
    return items[:PER_SOURCE]


#: This part's sources of the today queue (its feature brings them).
SOURCES = (
    QueueSource("checkins", checkin_items, order=10),
    QueueSource("followups", followup_items, order=20),
    QueueSource("followups_done", recently_done_items, order=21),
)
