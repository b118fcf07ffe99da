"""Reads of calls for pages and reports: each through policy, each a fixed number of queries.

The call list and the counts hold no personal data: when, how long, who called (a kind), who
took it, whether it is on a case. Nothing encrypted is loaded for them (``only``)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.http import Http404
from django.utils import timezone

from caseflow import policy
from caseflow.calls.models import Call, CallerKind
from caseflow.lib.i18n import gettext_lazy as _

#: Columns a list row reads: no encrypted field among them.
LIST_COLUMNS = (
    "public_id",
    "agency_id",
    "taken_at",
    "duration_minutes",
    "caller_kind",
    "follow_up_wanted",
    "logged_by_id",
    "logged_by__first_name",
    "logged_by__last_name",
    "logged_by__username",
    "case_id",
)


class CallNotFound(Http404):
    """Outside the user's reach (or no such call): the two are indistinguishable on purpose."""

    def __init__(self) -> None:
        super().__init__(_("No such call"))


def call_get_for(user: Any, public_id: str) -> Call:
    """The call behind ``public_id`` if ``user`` may read it, else :class:`CallNotFound`."""
    call = (
        Call.objects.filter(policy.visible_calls_filter(user), public_id=public_id)
        .select_related("case", "logged_by")
        .first()
    )
    if call is None:
        raise CallNotFound
    return call


def case_to_attach_to(user: Any, public_id: str) -> Any:
    """The case chosen to take a call onto, through policy: 404 outside the user's scope, 403
    when they may not work it (a call goes only onto a case its duty worker edits)."""
    return policy.get_case_for(user, public_id, "edit")


def agency_calls(user: Any) -> QuerySet[Call]:
    """Every call of ``user``'s agency, for the list and its counts (no content)."""
    if not policy.may_log_calls(user):
        return Call.objects.none()
    return Call.objects.filter(Q(agency_id=policy.agency_id_of(user)))


@dataclass(frozen=True)
class CallRow:
    public_id: str
    taken_at: dt.datetime
    duration_minutes: int | None
    caller_kind: str
    caller_label: str
    taken_by: str
    follow_up_wanted: bool
    on_a_case: bool
    readable: bool


def call_rows(user: Any, *, since: dt.datetime, limit: int = 200) -> list[CallRow]:
    """The agency's calls since ``since``, newest first: one query for the rows, one for which
    of them ``user`` may open."""
    rows = list(
        agency_calls(user)
        .filter(taken_at__gte=since)
        .select_related("logged_by")
        .only(*LIST_COLUMNS)
        .order_by("-taken_at", "-pk")[:limit]
    )
    readable = set(
        Call.objects.filter(
            policy.visible_calls_filter(user), pk__in=[r.pk for r in rows]
        ).values_list("pk", flat=True)
    )
    labels = dict(CallerKind.choices)
    return [
        CallRow(
            public_id=r.public_id,
            taken_at=r.taken_at,
            duration_minutes=r.duration_minutes,
            caller_kind=r.caller_kind,
            caller_label=str(labels.get(r.caller_kind, "")),
            taken_by=r.logged_by.get_full_name() or r.logged_by.username,
            follow_up_wanted=r.follow_up_wanted,
            on_a_case=r.case_id is not None,
            readable=r.pk in readable,
        )
        for r in rows
    ]


@dataclass(frozen=True)
class DayCount:
    day: dt.date
    total: int
    anonymous: int


def counts_by_day(user: Any, *, days: int, zone: dt.tzinfo | None = None) -> list[DayCount]:
    """How many calls the agency took on each of the last ``days`` days (in ``zone``, the
    agency's), today first; a day without calls shows 0. One query."""
    zone = zone or timezone.get_current_timezone()
    today = timezone.localdate(timezone=zone)
    first = today - dt.timedelta(days=days - 1)
    start = dt.datetime.combine(first, dt.time.min, tzinfo=zone)
    moments = agency_calls(user).filter(taken_at__gte=start).values_list("taken_at", "caller_kind")
    totals: dict[dt.date, list[int]] = {}
    for at, kind in moments:
        day = timezone.localtime(at, zone).date()
        counts = totals.setdefault(day, [0, 0])
        counts[0] += 1
        counts[1] += kind == CallerKind.ANONYMOUS
    out = []
    for n in range(days):
        day = today - dt.timedelta(days=n)
        total, anonymous = totals.get(day, [0, 0])
        out.append(DayCount(day, total, anonymous))
    return out


def calls_by_caller_kind(*, agency_id: int, start: dt.datetime, end: dt.datetime) -> dict[str, int]:
    """For reports: the calls an agency took from ``start`` (included) to ``end`` (excluded),
    counted by caller kind, every kind present (0 when none), anonymous calls included, and the
    total under ``"total"``. One query; no content is read."""
    if start.tzinfo is None or end.tzinfo is None:
        raise ValueError("the period's bounds must be aware date-times")
    rows = (
        Call.objects.filter(agency_id=agency_id, taken_at__gte=start, taken_at__lt=end)
        .values("caller_kind")
        .annotate(n=Count("pk"))
        .order_by()
    )
    counts = {kind: 0 for kind in CallerKind.values}
    for row in rows:
        counts[row["caller_kind"]] = row["n"]
    counts["total"] = sum(counts[k] for k in CallerKind.values)
    return counts


def case_calls(case: Any) -> QuerySet[Call]:
    """The calls on ``case`` (which the caller resolved through policy)."""
    return Call.objects.filter(Q(case=case))
