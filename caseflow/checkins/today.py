"""The check-ins and follow-ups of the today queue (see :mod:`caseflow.cases.today`)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.urls import reverse

from caseflow.cases.models import Channel, SafeContactProfile
from caseflow.cases.today import (
    PER_SOURCE,
    Action,
    QueueItem,
    QueueSource,
    Scope,
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


def checkin_items(scope: Scope) -> list[QueueItem]:
    rows = CheckIn.objects.filter(
        case__in=scope.cases,
        status__in=(CheckInStatus.SCHEDULED, CheckInStatus.MISSED, CheckInStatus.UNSAFE),
        due_at__lt=scope.day_end,
        due_at__gte=scope.now - LOOKBACK,
    )
    if scope.own_only:
        rows = rows.filter(assignee=scope.user)
    checkins = list(
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
    profiles = {
        p.case_id: p
        for p in SafeContactProfile.objects.filter(case_id__in={c.case_id for c in checkins}).only(
            "case_id", "timezone", "rules"
        )
    }
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
                local_time=local_time,
                safe_now=safe_now,
            )
        )
    return items


def followup_items(scope: Scope) -> list[QueueItem]:
    rows = FollowUp.objects.filter(
        case__in=scope.cases, status=FollowUpStatus.OPEN, due_at__lt=scope.day_end
    )
    if scope.own_only:
        rows = rows.filter(assignee=scope.user)
    followups = (
        rows.select_related("case", "assignee")
        .only(
            "pk",
            "kind",
            "due_at",
            "case__public_id",
            "case__reference",
            "assignee__username",
            "assignee__first_name",
            "assignee__last_name",
        )
        .order_by("due_at", "pk")[:PER_SOURCE]
    )
    return [
        _proposal_item(f, owner=_person(f.assignee))
        if f.kind == CheckInFollowUpKind.PROPOSED_CHECKIN
        else _followup_item(f, _("Mark done"), "checkins:followup_done", owner=_person(f.assignee))
        for f in followups
    ]


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


def _followup_item(followup: FollowUp, label: str, url_name: str, **extra) -> QueueItem:
    """A follow-up in the queue, with one one-tap action (``label``, POST to ``url_name``)."""
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
            fields=(("next", "dashboard"),),
        ),
        **extra,
    )


def recently_done_items(scope: Scope) -> list[QueueItem]:
    """Follow-ups the user marked done a moment ago: still undoable."""
    rows = FollowUp.objects.filter(
        case__in=scope.cases,
        status=FollowUpStatus.DONE,
        done_by=scope.user,
        done_at__gte=scope.now - UNDO_WINDOW,
    )
    followups = (
        rows.select_related("case")
        .only("pk", "kind", "due_at", "done_at", "case__public_id", "case__reference")
        .order_by("-done_at", "-pk")[:PER_SOURCE]
    )
    return [_followup_item(f, "Undo", "checkins:followup_undo", done=True) for f in followups]


#: This part's sources of the today queue (its feature brings them).
SOURCES = (
    QueueSource("checkins", checkin_items, order=10),
    QueueSource("followups", followup_items, order=20),
    QueueSource("followups_done", recently_done_items, order=21),
)
