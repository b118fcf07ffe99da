"""Can we contact the survivor now, and when next? The answer the case page starts with, from the
safe windows of their safe-contact profile, in their own time zone.

:func:`next_safe_slot` is the one place the next safe slot is worked out: the case page, the
check-in form's "Use the next safe slot" and every offer of a slot after a refusal ask it, so
they always agree."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.conf import settings

from caseflow.cases.models import Channel, SafeContactProfile
from caseflow.lib import weekly_windows

#: How far ahead the next safe window is looked for.
HORIZON = dt.timedelta(days=14)
_CHANNELS = dict(Channel.choices)


@dataclass(frozen=True)
class ContactNow:
    #: Whether now is inside one of the survivor's safe windows.
    safe: bool
    #: Their time zone and the time there now.
    zone: str
    local_now: dt.datetime
    #: While safe: when the window closes (their time). Otherwise: the next window (their time),
    #: or None when there is none within :data:`HORIZON`.
    until: dt.datetime | None
    next_start: dt.datetime | None
    next_end: dt.datetime | None
    channels: list[str]

    @property
    def channel_labels(self) -> list[str]:
        return [_CHANNELS.get(c, c) for c in self.channels]


def profile_windows(profile: SafeContactProfile) -> list[weekly_windows.Window]:
    """The profile's safe windows that can be read (a damaged one is left out, not guessed)."""
    windows = []
    for data in profile.windows:
        try:
            windows.append(weekly_windows.Window.from_dict(data))
        except ValueError:
            continue
    return windows


def contact_length() -> dt.timedelta:
    """How long a check-in lasts: a safe slot leaves this much time inside a safe window."""
    return dt.timedelta(minutes=settings.CHECKIN_MINUTES)


def next_safe_slot(profile: SafeContactProfile, after: dt.datetime) -> dt.datetime | None:
    """The earliest instant (UTC, on a whole minute) at or after ``after`` at which a whole
    check-in fits inside one of the survivor's safe windows; None when there is none within
    :data:`HORIZON`."""
    after = after.replace(second=0, microsecond=0) + (
        dt.timedelta(minutes=1) if after.second or after.microsecond else dt.timedelta(0)
    )
    return weekly_windows.next_safe_slot(
        after,
        profile_windows(profile),
        profile.timezone,
        contact_length(),
        horizon_days=HORIZON.days,
    )


def contact_now(profile: SafeContactProfile, now: dt.datetime) -> ContactNow:
    windows = profile_windows(profile)
    zone = ZoneInfo(profile.timezone)
    intervals = weekly_windows.window_occurrences(
        now, now + HORIZON + contact_length(), windows, profile.timezone
    )
    current = next((i for i in intervals if i[0] <= now < i[1]), None)
    # The next window is where the next safe slot falls, the same slot the check-in form offers
    # (a window too short for a whole check-in is passed over).
    slot = next_safe_slot(profile, current[1] if current else now)
    upcoming = next((i for i in intervals if slot is not None and i[0] <= slot < i[1]), None)
    if upcoming is not None and slot is not None:
        upcoming = (slot, upcoming[1])
    return ContactNow(
        safe=current is not None,
        zone=profile.timezone,
        local_now=now.astimezone(zone),
        until=current[1].astimezone(zone) if current else None,
        next_start=upcoming[0].astimezone(zone) if upcoming else None,
        next_end=upcoming[1].astimezone(zone) if upcoming else None,
        channels=profile.channels,
    )
