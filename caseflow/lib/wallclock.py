"""Time zones and wall-clock checks shared by :mod:`weekly_windows` and :mod:`recurrence`.

Conventions: a time zone is an IANA name (``"Europe/London"``) and an unknown one is a
``ValueError``; an *instant* is an aware :class:`~datetime.datetime`, a *wall time* a naive one
read in the survivor's zone. Weekdays are numbered Monday = 0 to Sunday = 6 and named in fixed
English (as are months), not the process locale.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

__all__ = ["DAY_NAMES", "MONTH_NAMES", "require_aware", "require_naive", "zone"]

DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


@lru_cache(maxsize=256)
def zone(tz: str) -> ZoneInfo:
    """The zone named ``tz``; ``ValueError`` if there is no such zone."""
    try:
        return ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        raise ValueError(f"unknown time zone {tz!r}") from None


def require_aware(value: datetime, name: str) -> None:
    """Refuse anything but an aware datetime, naming the argument ``name``."""
    if not isinstance(value, datetime):
        raise TypeError(f"{name} must be a datetime")
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{name} must be timezone-aware")


def require_naive(value: datetime) -> None:
    """Refuse anything but a naive local wall time (the ``dtstart_local`` of a rule)."""
    if not isinstance(value, datetime):
        raise TypeError("dtstart_local must be a datetime")
    if value.tzinfo is not None:
        raise ValueError("dtstart_local must be a naive local wall time (no tzinfo)")
