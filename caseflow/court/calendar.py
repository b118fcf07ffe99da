"""Court hearings in the staff calendar feed (see :mod:`caseflow.cases.calendar`): "Court
support" and the time, for the hearings of the user's own open cases. No court, no kind of
hearing, no reference: the feed leaves the agency."""

from __future__ import annotations

import datetime as dt

from django.utils import translation

from caseflow.cases.calendar import PER_SOURCE, CalendarEvent, CalendarSource
from caseflow.cases.selectors import my_open_case_set
from caseflow.court.models import Hearing
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.lib.i18n import language_of

#: How long a hearing is shown to last in a calendar.
LENGTH = dt.timedelta(hours=2)


def hearing_events(user, since: dt.datetime, until: dt.datetime) -> list[CalendarEvent]:
    rows = (
        Hearing.objects.filter(
            case__in=my_open_case_set(user), starts_at__gte=since, starts_at__lt=until
        )
        .only("pk", "starts_at", "case_id")
        .order_by("starts_at", "pk")[:PER_SOURCE]
    )
    with translation.override(language_of(user)):
        title = str(_("Court support"))
    return [
        CalendarEvent(
            uid=f"hearing-{row.pk}",
            starts_at=row.starts_at,
            ends_at=row.starts_at + LENGTH,
            title=title,
            case_id=row.case_id,
        )
        for row in rows
    ]


SOURCES = (CalendarSource("court_hearings", hearing_events),)
