"""Time zones and instants shared by the safe-window and recurrence tests.

DST dates used (2025):
* Europe/London: clocks go 01:00 GMT -> 02:00 BST on Sun 30 March (01:00 UTC) and
  02:00 BST -> 01:00 GMT on Sun 26 October (01:00 UTC).
* America/New_York: 02:00 EST -> 03:00 EDT on Sun 9 March (07:00 UTC) and
  02:00 EDT -> 01:00 EST on Sun 2 November (06:00 UTC).
* Pacific/Auckland (UTC+13 in January, +12 in July): 02:00 NZST -> 03:00 NZDT on
  Sun 28 September (Sat 27 September 14:00 UTC).
"""

from __future__ import annotations

from datetime import UTC, datetime

LONDON = "Europe/London"
NEW_YORK = "America/New_York"
AUCKLAND = "Pacific/Auckland"


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


# Zones for the properties: DST north and south, a 30-minute DST shift, a :45 offset, none.
ZONES = [
    LONDON,
    NEW_YORK,
    AUCKLAND,
    "Australia/Lord_Howe",
    "Asia/Kathmandu",
    "America/St_Johns",
    "UTC",
]
