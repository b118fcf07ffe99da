"""The dates that are hard for the survivor, and the check-in occasions they give.

Conventions: a hard date is a day of the survivor's calendar (no time). A yearly date comes
back on the same month and day every year; 29 February is kept on 28 February in a year that
has none. The next occurrence of a date is the first on or after today: a date that has passed
is not proposed again, and a yearly one moves to the following year once its day is over.

Each occurrence is one :class:`~caseflow.cases.features.Occasion`: the check-in is wanted
``support_days_before`` days before the day (on the day itself for 0), and before the day
begins (or before it ends, for 0), in the survivor's zone (her safe-contact profile's; the
agency's default without one). Its key names the date and the occurrence, so each year's is
proposed once.
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Iterable
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import Q
from django.utils import formats

from caseflow.cases.features import Occasion, OccasionSource
from caseflow.cases.fields import FieldConfig, agency_field_config
from caseflow.cases.models import OPEN_STATUSES, Case, SafeContactProfile
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.safety.models import HardDate, HardDateKind

KIND = "hard_date"
#: How many days before a date support can be asked for (a month ahead at most).
MOST_DAYS_BEFORE = 28
#: The earliest year a date can be on (a date further back is a slip of the keyboard).
EARLIEST_YEAR = 1900
BATCH = 500


def on_year(day: dt.date, year: int) -> dt.date:
    """``day``'s month and day in ``year`` (29 February on the 28th when ``year`` has none)."""
    if day.month == 2 and day.day == 29 and not calendar.isleap(year):
        return dt.date(year, 2, 28)
    return day.replace(year=year)


def next_occurrence(day: dt.date, yearly: bool, today: dt.date) -> dt.date | None:
    """The first occurrence of the date on or after ``today``; ``None`` when a one-off date
    has passed."""
    if not yearly:
        return day if day >= today else None
    for year in (today.year, today.year + 1):
        if year < day.year:
            continue
        candidate = on_year(day, year)
        if candidate >= today:
            return candidate
    return on_year(day, max(day.year, today.year + 1))


def _zone(name: str | None) -> ZoneInfo:
    return ZoneInfo(name or settings.TIME_ZONE)


def _midnight(day: dt.date, zone: ZoneInfo) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(0), tzinfo=zone).astimezone(dt.UTC)


def occasion(row: HardDate, occurrence: dt.date, zone: ZoneInfo, label: str) -> Occasion:
    """The check-in occasion of ``row``'s ``occurrence``."""
    before = row.support_days_before
    wanted = occurrence - dt.timedelta(days=before)
    end = occurrence if before else occurrence + dt.timedelta(days=1)
    return Occasion(
        case_id=row.case_id,
        key=f"{KIND}:{row.pk}:{occurrence.isoformat()}",
        label=str(_("%(what)s, on %(day)s"))
        % {"what": label, "day": formats.date_format(occurrence, "D j M Y")},
        day=wanted,
        not_after=_midnight(end, zone),
    )


def words_setting(case: Case) -> dict:
    """The agency's setting for her words (``{"hidden": ..., "label": ...}``, empty when none):
    hidden, they are neither asked for nor shown anywhere, even where stored before."""
    return FieldConfig(agency_field_config(case.agency_id)).for_kind("hard_date").get("words", {})


def shown_words(row: HardDate, setting: dict) -> str:
    return "" if setting.get("hidden") else row.words


def _words(row: HardDate, setting: dict) -> str:
    kind = str(HardDateKind(row.kind).label)
    words = shown_words(row, setting)
    return f"{kind}: {words}" if words else kind


def hard_dates_of(case: Case) -> list[HardDate]:
    rows = list(HardDate.objects.filter(case=case))
    for row in rows:
        row.case = case
    return rows


def upcoming(case: Case, today: dt.date) -> list[tuple[HardDate, dt.date | None]]:
    """The case's hard dates with their next occurrence (``None`` once a one-off has passed),
    soonest first, passed ones last."""
    rows = [(row, next_occurrence(row.day, row.yearly, today)) for row in hard_dates_of(case)]
    return sorted(rows, key=lambda pair: (pair[1] is None, pair[1] or pair[0].day, pair[0].pk))


def for_case(case: Case, today: dt.date) -> list[Occasion]:
    """The next occasion of each of the case's hard dates, soonest first."""
    profile = SafeContactProfile.objects.filter(case=case).values_list("timezone", flat=True)
    zone = _zone(profile.first())
    setting = words_setting(case)
    found = []
    for row in hard_dates_of(case):
        occurrence = next_occurrence(row.day, row.yearly, today)
        if occurrence is not None:
            found.append(occasion(row, occurrence, zone, _words(row, setting)))
    return sorted(found, key=lambda o: (o.day, o.key))


def coming(since: dt.date, until: dt.date) -> Iterable[Occasion]:
    """Every open case's hard-date occasions whose day falls in ``[since, until)``. Reads no
    encrypted field: the label is the kind of date."""
    last = until + dt.timedelta(days=MOST_DAYS_BEFORE)
    days = [since + dt.timedelta(days=n) for n in range((last - since).days)]
    month_days = Q()
    for day in days:
        month_days |= Q(day__month=day.month, day__day=day.day)
        if day.month == 2 and day.day == 28 and not calendar.isleap(day.year):
            month_days |= Q(day__month=2, day__day=29)
    rows = (
        HardDate.objects.filter(case__status__in=OPEN_STATUSES)
        .filter(Q(yearly=False, day__gte=since, day__lt=last) | (Q(yearly=True) & month_days))
        .only("pk", "case_id", "kind", "day", "yearly", "support_days_before")
        .order_by("pk")
    )
    zones: dict[int, ZoneInfo] = {}
    after = 0
    while True:
        batch = list(rows.filter(pk__gt=after)[:BATCH])
        if not batch:
            return
        after = batch[-1].pk
        missing = {row.case_id for row in batch} - zones.keys()
        named = dict(
            SafeContactProfile.objects.filter(case_id__in=missing).values_list(
                "case_id", "timezone"
            )
        )
        for case_id in missing:
            zones[case_id] = _zone(named.get(case_id))
        for row in batch:
            occurrence = next_occurrence(row.day, row.yearly, since)
            if occurrence is None:
                continue
            found = occasion(row, occurrence, zones[row.case_id], str(HardDateKind(row.kind).label))
            if since <= found.day < until:
                yield found


SOURCE = OccasionSource(kind=KIND, for_case=for_case, coming=coming)
