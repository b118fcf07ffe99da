"""The zone offsets of a range, from transitions found once per day-aligned range and kept: the
very segments probing the range itself gives, at its edges and across every kind of change."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from caseflow.lib import weekly_windows

EPOCH = datetime(1970, 1, 1)
ZONES = [
    "Europe/London",
    "America/New_York",
    "America/Sao_Paulo",
    "Australia/Lord_Howe",  # half an hour of summer time
    "Pacific/Apia",  # skipped a whole day in 2011
    "Asia/Kolkata",
    "UTC",
]


def _probed(zone: ZoneInfo, lo: datetime, hi: datetime) -> list:
    """The segments as caseflow found them before the transitions were kept: probed over
    exactly ``[lo, hi)``, every time."""

    def offset(ts: int) -> timedelta:
        value = datetime.fromtimestamp(ts, zone).utcoffset()
        assert value is not None
        return value

    lo_ts = math.floor((lo - EPOCH).total_seconds())
    hi_ts = math.ceil((hi - EPOCH).total_seconds())
    bounds = [lo_ts]
    offsets = [offset(lo_ts)]
    ts = lo_ts
    while ts < hi_ts:
        probe = min(ts + 3600, hi_ts)
        if offset(probe) == offsets[-1]:
            ts = probe
            continue
        same, changed = ts, probe  # offset(same) is the current one, offset(changed) is not
        while changed - same > 1:
            middle = (same + changed) // 2
            if offset(middle) == offsets[-1]:
                same = middle
            else:
                changed = middle
        bounds.append(changed)
        offsets.append(offset(changed))
        ts = changed
    bounds.append(hi_ts)
    return [
        (EPOCH + timedelta(seconds=bounds[i]), EPOCH + timedelta(seconds=bounds[i + 1]), off)
        for i, off in enumerate(offsets)
    ]


@settings(max_examples=300, deadline=None)
@given(
    zone=st.sampled_from(ZONES),
    lo=st.datetimes(min_value=datetime(2009, 1, 1), max_value=datetime(2036, 1, 1)),
    span=st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=40)),
)
def test_the_kept_transitions_give_the_probed_segments(zone, lo, span):
    tz = ZoneInfo(zone)
    assert weekly_windows._offset_segments(tz, lo, lo + span) == _probed(tz, lo, lo + span)


def test_a_range_starting_or_ending_on_a_change_is_split_as_probed():
    london = ZoneInfo("Europe/London")
    change = datetime(2026, 3, 29, 1, 0)  # naive UTC: clocks go forward
    for lo, hi in [
        (change, change + timedelta(days=3)),
        (change - timedelta(days=3), change),
        (change - timedelta(seconds=1), change + timedelta(seconds=1)),
        (change, change),
        (change - timedelta(microseconds=1), change + timedelta(microseconds=1)),
    ]:
        assert weekly_windows._offset_segments(london, lo, hi) == _probed(london, lo, hi)
    segments = weekly_windows._offset_segments(london, change - timedelta(days=1), change)
    assert segments[-1] == (change, change, timedelta(hours=1))  # the change at the very end


def test_the_windows_of_a_week_across_a_change_are_as_before():
    windows = [
        weekly_windows.Window.from_dict(w)
        for w in [{"days": [0, 1, 2, 3, 4, 5, 6], "start": "00:30", "end": "02:30"}]
    ]
    start = datetime(2026, 3, 26, tzinfo=UTC)
    first = weekly_windows.window_occurrences(
        start, start + timedelta(days=7), windows, "Europe/London"
    )
    weekly_windows._transitions.cache_clear()
    again = weekly_windows.window_occurrences(
        start, start + timedelta(days=7), windows, "Europe/London"
    )
    assert first == again and first
    assert weekly_windows._transitions.cache_info().currsize == 1
