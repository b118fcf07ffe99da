"""The survivor's safe times in words, for the check-in form ("Monday to Friday, 10:00 to
12:00"), in the reader's language: the days and hours of her safe windows, in her time zone (the
one the form's date and time are in), the next safe slot (the one the case page shows), and the
time there now when her zone is not the agency's."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.utils.dates import WEEKDAYS
from django.utils.translation import gettext as _

from caseflow.accounts import zones
from caseflow.cases import contact
from caseflow.cases.models import SafeContactProfile
from caseflow.lib import weekly_windows


@dataclass(frozen=True)
class SafeTimes:
    #: One line per safe window, in words.
    lines: list[str]
    #: Her time zone, and whether it differs from the agency's (the reader's).
    zone: str
    other_zone: bool
    #: The time in her zone now, and the next safe slot there (None: none in two weeks).
    local_now: dt.datetime
    next_slot: dt.datetime | None


def _hm(value: dt.time) -> str:
    return value.strftime("%H:%M")


def days_words(days: frozenset[int]) -> str:
    """The days a window starts on: "Every day", "Monday to Friday", "Monday, Wednesday"."""
    if len(days) == 7:
        return str(_("Every day"))
    run_starts = [d for d in range(7) if d in days and (d - 1) % 7 not in days]
    if len(run_starts) == 1 and len(days) >= 3:
        first = run_starts[0]
        last = (first + len(days) - 1) % 7
        return _("%(first)s to %(last)s") % {"first": WEEKDAYS[first], "last": WEEKDAYS[last]}
    return ", ".join(str(WEEKDAYS[d]) for d in sorted(days))


def window_words(window: weekly_windows.Window) -> str:
    """One safe window in words; one that ends before it starts runs past midnight."""
    values = {"days": days_words(window.days), "start": _hm(window.start), "end": _hm(window.end)}
    if window.end <= window.start:
        return _("%(days)s, %(start)s to %(end)s the next day") % values
    return _("%(days)s, %(start)s to %(end)s") % values


def safe_times(profile: SafeContactProfile, now: dt.datetime) -> SafeTimes:
    zone = ZoneInfo(profile.timezone)
    slot = contact.next_safe_slot(profile, now)
    return SafeTimes(
        lines=[window_words(w) for w in contact.profile_windows(profile)],
        zone=profile.timezone,
        other_zone=profile.timezone != zones.current().key,
        local_now=now.astimezone(zone),
        next_slot=slot.astimezone(zone) if slot is not None else None,
    )
