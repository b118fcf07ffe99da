"""Can we contact the survivor now? The answer the case page starts with, from the safe windows
of their safe-contact profile, in their own time zone."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

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


def contact_now(profile: SafeContactProfile, now: dt.datetime) -> ContactNow:
    windows = []
    for data in profile.windows:
        try:
            windows.append(weekly_windows.Window.from_dict(data))
        except ValueError:
            continue
    zone = ZoneInfo(profile.timezone)
    intervals = weekly_windows.window_occurrences(now, now + HORIZON, windows, profile.timezone)
    current = next((i for i in intervals if i[0] <= now < i[1]), None)
    upcoming = next((i for i in intervals if i[0] > now), None)
    return ContactNow(
        safe=current is not None,
        zone=profile.timezone,
        local_now=now.astimezone(zone),
        until=current[1].astimezone(zone) if current else None,
        next_start=upcoming[0].astimezone(zone) if upcoming else None,
        next_end=upcoming[1].astimezone(zone) if upcoming else None,
        channels=profile.channels,
    )
