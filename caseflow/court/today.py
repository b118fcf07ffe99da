"""Court hearings on the today queue (see :mod:`caseflow.cases.today`): a hearing in the next few
days is listed every day until it is heard, one heard without an outcome asks for it. Metadata
only: the kind of hearing and its time, never the court."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import QuerySet
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from caseflow.cases.today import (
    PER_SOURCE,
    Action,
    ListedQuery,
    QueueItem,
    QueueSource,
    Scope,
    local_date_start,
    staff_day,
    staff_zone,
)
from caseflow.court.models import Hearing

#: Hearings this many days ahead are on the queue.
AHEAD_DAYS = 3
#: Hearings heard longer ago than this without an outcome are left to the case page.
LOOKBACK = dt.timedelta(days=30)


def _rows(cases: QuerySet[Any], **filters: Any) -> QuerySet[Hearing]:
    return (
        Hearing.objects.filter(case__in=cases, **filters)
        .select_related("case")
        .only(
            "pk", "public_id", "kind", "starts_at", "case__id", "case__public_id", "case__reference"
        )
    )


def _coming(*, cases: QuerySet[Any], now: dt.datetime, until: dt.datetime) -> QuerySet[Hearing]:
    return _rows(cases, starts_at__gt=now, starts_at__lt=until).order_by("starts_at", "pk")[
        :PER_SOURCE
    ]


def _unrecorded(*, cases: QuerySet[Any], now: dt.datetime, since: dt.datetime) -> QuerySet[Hearing]:
    return _rows(cases, starts_at__lte=now, starts_at__gte=since, outcome="").order_by(
        "starts_at", "pk"
    )[:PER_SOURCE]


_COMING = ListedQuery(Hearing, _coming, now="datetime", until="datetime")
_UNRECORDED = ListedQuery(Hearing, _unrecorded, now="datetime", since="datetime")


def hearing_items(scope: Scope) -> list[QueueItem]:
    today = staff_day(scope)
    until = local_date_start(today + dt.timedelta(days=AHEAD_DAYS + 1))
    items = []
    for hearing in _COMING.rows(scope, now=scope.now, until=until):
        case = hearing.case
        local = timezone.localtime(hearing.starts_at, staff_zone())
        heard_today = hearing.starts_at < scope.day_end
        items.append(
            QueueItem(
                # Today's hearing at its time; a later one at the start of each day until then.
                due_at=hearing.starts_at if heard_today else local_date_start(today),
                kind=_("Court hearing"),
                title=_("%(kind)s hearing, %(when)s")
                % {
                    "kind": hearing.get_kind_display(),
                    "when": formats.date_format(local, "D j M, H:i"),
                },
                case_reference=case.reference,
                case_public_id=case.public_id,
                case_id=case.pk,
                action=Action(
                    _("Open the hearing"),
                    reverse("court:hearing", args=[case.public_id, hearing.public_id]),
                ),
                all_day=not heard_today,
            )
        )
    for hearing in _UNRECORDED.rows(scope, now=scope.now, since=scope.now - LOOKBACK):
        case = hearing.case
        items.append(
            QueueItem(
                due_at=hearing.starts_at,
                kind=_("Court hearing"),
                title=_("Record the outcome of the %(kind)s hearing")
                % {"kind": hearing.get_kind_display().lower()},
                case_reference=case.reference,
                case_public_id=case.public_id,
                case_id=case.pk,
                action=Action(
                    _("Record the outcome"),
                    reverse("court:outcome", args=[case.public_id, hearing.public_id]),
                ),
            )
        )
    return items


SOURCES = (QueueSource("court_hearings", hearing_items, order=37),)
