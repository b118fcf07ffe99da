"""Tests for caseflow.lib.weekly_windows: safe-contact windows in the survivor's time zone.

The daylight-saving dates the tests rely on are listed in :mod:`tests.lib.dst`.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from caseflow.lib.weekly_windows import (
    MAX_WINDOWS,
    Window,
    WindowSyntaxError,
    format_windows,
    is_safe,
    next_safe_slot,
    parse_windows,
    window_occurrences,
)
from tests.lib.dst import AUCKLAND, LONDON, NEW_YORK, ZONES, utc


def win(days: set[int] | frozenset[int], start: str, end: str) -> Window:
    return Window(frozenset(days), time.fromisoformat(start), time.fromisoformat(end))


# ---------------------------------------------------------------------------------------------
# Parsing and formatting


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Mon-Fri 09:00-11:30", win({0, 1, 2, 3, 4}, "09:00", "11:30")),
        ("Sat,Sun 14:00-16:00", win({5, 6}, "14:00", "16:00")),
        ("Tue 22:00-01:00", win({1}, "22:00", "01:00")),
        ("daily 10:00-12:00", win(set(range(7)), "10:00", "12:00")),
        ("sat-MON 08:00-09:00", win({5, 6, 0}, "08:00", "09:00")),
        ("Monday - Wednesday 9:00 \u2013 17:00", win({0, 1, 2}, "09:00", "17:00")),
        ("Thursday, friday 07:00-08:00", win({3, 4}, "07:00", "08:00")),
        ("Mon Wed 07:00-08:00", win({0, 2}, "07:00", "08:00")),
        ("weekends 11:00-12:00", win({5, 6}, "11:00", "12:00")),
        ("Fri 20:00-24:00", win({4}, "20:00", "00:00")),
    ],
)
def test_parse_windows_reads_advocate_text(text: str, expected: Window) -> None:
    assert parse_windows(text) == [expected]


def test_parse_windows_ignores_blank_lines_and_keeps_order() -> None:
    text = "\n  \nSat,Sun 14:00-16:00\n\nMon-Fri 09:00-11:30\n"
    assert parse_windows(text) == [
        win({5, 6}, "14:00", "16:00"),
        win({0, 1, 2, 3, 4}, "09:00", "11:30"),
    ]
    assert parse_windows("") == []


def test_window_with_end_before_start_crosses_midnight() -> None:
    assert win({1}, "22:00", "01:00").crosses_midnight
    assert win({1}, "20:00", "00:00").crosses_midnight
    assert not win({1}, "00:00", "01:00").crosses_midnight


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("Mon-Fri 09:00-11:30\nFunday 10:00-11:00", 2, "unknown day 'Funday'"),
        ("\n\nMon 25:00-26:00", 3, "bad time '25:00'"),
        ("Mon 09:60-10:00", 1, "bad time '09:60'"),
        ("Mon 24:00-01:00", 1, "bad time '24:00'"),
        ("Mon 09:00-11:30\nTue 9am-11am", 2, "cannot read the time range '9am-11am'"),
        ("Mon 10:00-10:00", 1, "same time"),
        ("Mon 00:00-24:00", 1, "same time"),
        ("Sat 10:00-11:00\n09:00-10:00", 2, "no days given"),
        ("Mon", 1, "no time range"),
        ("Mon-Fri-Sat 09:00-10:00", 1, "cannot read the day range 'Mon-Fri-Sat'"),
        ("Mon,,Tuesdy 09:00-10:00", 1, "unknown day 'Tuesdy'"),
    ],
)
def test_parse_windows_errors_name_line_and_problem(text: str, line: int, fragment: str) -> None:
    with pytest.raises(WindowSyntaxError) as caught:
        parse_windows(text)
    assert caught.value.line == line
    assert str(caught.value).startswith(f"line {line}: ")
    assert fragment in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_parse_windows_limits_the_number_of_windows() -> None:
    lines = [f"Mon {h:02d}:00-{h:02d}:30" for h in range(MAX_WINDOWS)]
    assert len(parse_windows("\n".join(lines))) == MAX_WINDOWS
    with pytest.raises(WindowSyntaxError, match="too many windows") as caught:
        # a blank line still counts towards the line number shown to the advocate
        parse_windows("\n".join([*lines, "", "Tue 10:00-11:00"]))
    assert caught.value.line == MAX_WINDOWS + 2


@pytest.mark.parametrize(
    ("days", "expected"),
    [
        ({0, 1, 2, 3, 4}, "Mon-Fri"),
        ({5, 6, 0}, "Sat-Mon"),
        ({0, 2, 5, 6}, "Mon,Wed,Sat,Sun"),
        (set(range(7)), "daily"),
        ({5, 6}, "Sat,Sun"),
        ({0, 1, 2, 4}, "Mon-Wed,Fri"),
        ({3}, "Thu"),
    ],
)
def test_format_windows_is_canonical(days: set[int], expected: str) -> None:
    assert format_windows([win(days, "09:05", "01:00")]) == f"{expected} 09:05-01:00"


def test_format_windows_one_line_per_window() -> None:
    text = "Mon,Tue,Wed,Thu,Fri 9:00-11:30\nsunday,saturday 14:00-16:00"
    assert format_windows(parse_windows(text)) == "Mon-Fri 09:00-11:30\nSat,Sun 14:00-16:00"


times_of_day = st.builds(time, st.integers(0, 23), st.integers(0, 59))


@st.composite
def a_window(draw: st.DrawFn) -> Window:
    start = draw(times_of_day)
    end = draw(times_of_day.filter(lambda t: t != start))
    return Window(draw(st.frozensets(st.integers(0, 6), min_size=1)), start, end)


@given(st.lists(a_window(), max_size=MAX_WINDOWS))
def test_format_then_parse_round_trips(windows: list[Window]) -> None:
    text = format_windows(windows)
    assert parse_windows(text) == windows
    assert format_windows(parse_windows(text)) == text


@given(a_window())
def test_dict_form_round_trips(window: Window) -> None:
    data = window.to_dict()
    assert data["days"] == sorted(window.days)
    assert Window.from_dict(data) == window


def test_to_dict_shape() -> None:
    assert win({4, 0}, "22:00", "01:00").to_dict() == {
        "days": [0, 4],
        "start": "22:00",
        "end": "01:00",
    }


@pytest.mark.parametrize(
    "data",
    [
        {"days": [], "start": "09:00", "end": "10:00"},
        {"days": [7], "start": "09:00", "end": "10:00"},
        {"days": ["1"], "start": "09:00", "end": "10:00"},
        {"days": [True], "start": "09:00", "end": "10:00"},
        {"days": "12", "start": "09:00", "end": "10:00"},
        {"days": [1], "start": "9", "end": "10:00"},
        {"days": [1], "start": "09:00", "end": "09:00"},
        {"days": [1], "start": "09:00"},
        {"days": [1], "start": 900, "end": "10:00"},
    ],
)
def test_from_dict_rejects_malformed_windows(data: dict) -> None:
    with pytest.raises(ValueError):
        Window.from_dict(data)


def test_window_rejects_seconds_and_empty_days() -> None:
    with pytest.raises(ValueError):
        Window(frozenset({1}), time(9, 0, 30), time(10))
    with pytest.raises(ValueError):
        Window(frozenset(), time(9), time(10))


# ---------------------------------------------------------------------------------------------
# is_safe


def test_window_crossing_midnight_covers_the_next_morning() -> None:
    windows = parse_windows("Fri 22:00-01:00")
    # 2025-01-10 is a Friday; London is on GMT (= UTC) in January.
    assert not is_safe(utc(2025, 1, 10, 21, 59), windows, LONDON)
    assert is_safe(utc(2025, 1, 10, 22, 0), windows, LONDON)
    assert is_safe(utc(2025, 1, 11, 0, 59), windows, LONDON)
    assert not is_safe(utc(2025, 1, 11, 1, 0), windows, LONDON)
    assert not is_safe(utc(2025, 1, 11, 23, 0), windows, LONDON)  # Saturday evening
    assert not is_safe(utc(2025, 1, 12, 0, 30), windows, LONDON)  # Sunday morning
    assert not is_safe(utc(2025, 1, 10, 0, 30), windows, LONDON)  # Friday morning


def test_window_crossing_midnight_wraps_from_sunday_to_monday() -> None:
    windows = parse_windows("Sun 23:00-00:30")
    assert is_safe(utc(2025, 1, 13, 0, 15), windows, LONDON)  # Monday 00:15
    assert not is_safe(utc(2025, 1, 14, 0, 15), windows, LONDON)  # Tuesday 00:15


def test_is_safe_uses_the_survivors_zone_whatever_the_instant_zone() -> None:
    windows = parse_windows("Mon 09:00-10:00")
    # 09:30 in New York on Monday 6 January 2025 is 14:30 UTC and 15:30 in Paris.
    moment = datetime(2025, 1, 6, 15, 30, tzinfo=ZoneInfo("Europe/Paris"))
    assert is_safe(moment, windows, NEW_YORK)
    assert not is_safe(moment, windows, LONDON)


def test_far_from_utc_zone_pacific_auckland() -> None:
    windows = parse_windows("Mon 09:00-10:00")
    # Monday 09:00 NZDT (UTC+13) is Sunday 20:00 UTC.
    assert is_safe(utc(2025, 1, 5, 20, 30), windows, AUCKLAND)
    assert not is_safe(utc(2025, 1, 6, 9, 30), windows, AUCKLAND)
    # In July (NZST, UTC+12) the same window is Sunday 21:00-22:00 UTC.
    assert not is_safe(utc(2025, 7, 6, 20, 30), windows, AUCKLAND)
    assert is_safe(utc(2025, 7, 6, 21, 30), windows, AUCKLAND)
    assert next_safe_slot(utc(2025, 1, 1), windows, AUCKLAND) == utc(2025, 1, 5, 20)
    assert next_safe_slot(utc(2025, 7, 1), windows, AUCKLAND) == utc(2025, 7, 6, 21)


def test_spring_forward_local_times_that_do_not_exist_are_not_inside() -> None:
    windows = parse_windows("Sun 02:00-03:00")  # New York skips 02:00-03:00 on 9 March 2025
    assert not is_safe(utc(2025, 3, 9, 6, 59), windows, NEW_YORK)  # 01:59 EST
    assert not is_safe(utc(2025, 3, 9, 7, 0), windows, NEW_YORK)  # 03:00 EDT
    sunday = (utc(2025, 3, 9, 5), utc(2025, 3, 10, 4))
    assert window_occurrences(*sunday, windows, NEW_YORK) == []
    assert next_safe_slot(utc(2025, 3, 8), windows, NEW_YORK, horizon_days=3) is None
    # the week after it is an ordinary hour again
    assert next_safe_slot(utc(2025, 3, 8), windows, NEW_YORK) == utc(2025, 3, 16, 6)


def test_spring_forward_window_partly_in_the_gap_is_shortened() -> None:
    ny = parse_windows("Sun 01:30-02:30")
    assert window_occurrences(utc(2025, 3, 9), utc(2025, 3, 10), ny, NEW_YORK) == [
        (utc(2025, 3, 9, 6, 30), utc(2025, 3, 9, 7, 0))
    ]
    london = parse_windows("Sun 00:30-01:30")
    assert window_occurrences(utc(2025, 3, 30), utc(2025, 3, 31), london, LONDON) == [
        (utc(2025, 3, 30, 0, 30), utc(2025, 3, 30, 1, 0))
    ]
    # a window spanning the gap lasts an hour less in real time
    spanning = parse_windows("Sun 00:00-03:00")
    assert window_occurrences(utc(2025, 3, 30), utc(2025, 3, 31), spanning, LONDON) == [
        (utc(2025, 3, 30, 0, 0), utc(2025, 3, 30, 2, 0))
    ]


def test_spring_forward_window_starting_in_the_gap_moves_forward() -> None:
    windows = parse_windows("Sun 02:30-04:00")
    # 02:30 does not exist on 9 March in New York: the window opens at 03:00 EDT.
    assert next_safe_slot(utc(2025, 3, 8), windows, NEW_YORK) == utc(2025, 3, 9, 7, 0)
    assert is_safe(utc(2025, 3, 9, 7, 0), windows, NEW_YORK)
    assert not is_safe(utc(2025, 3, 9, 6, 59), windows, NEW_YORK)


def test_fall_back_repeated_hour_counts_twice() -> None:
    windows = parse_windows("Sun 01:00-02:00")  # New York repeats 01:00-02:00 on 2 November
    assert is_safe(utc(2025, 11, 2, 5, 30), windows, NEW_YORK)  # 01:30 EDT
    assert is_safe(utc(2025, 11, 2, 6, 30), windows, NEW_YORK)  # 01:30 EST
    assert not is_safe(utc(2025, 11, 2, 7, 0), windows, NEW_YORK)  # 02:00 EST
    assert window_occurrences(utc(2025, 11, 2), utc(2025, 11, 3), windows, NEW_YORK) == [
        (utc(2025, 11, 2, 5), utc(2025, 11, 2, 7))
    ]


def test_fall_back_window_inside_the_repeated_hour_occurs_twice() -> None:
    windows = parse_windows("Sun 01:15-01:45")  # London repeats 01:00-02:00 on 26 October
    assert window_occurrences(utc(2025, 10, 26), utc(2025, 10, 27), windows, LONDON) == [
        (utc(2025, 10, 26, 0, 15), utc(2025, 10, 26, 0, 45)),  # BST
        (utc(2025, 10, 26, 1, 15), utc(2025, 10, 26, 1, 45)),  # GMT
    ]
    assert is_safe(utc(2025, 10, 26, 0, 30), windows, LONDON)
    assert is_safe(utc(2025, 10, 26, 1, 30), windows, LONDON)
    assert not is_safe(utc(2025, 10, 26, 1, 0), windows, LONDON)  # 01:00 GMT


def test_fall_back_window_starting_in_the_repeated_hour() -> None:
    windows = parse_windows("Sun 01:30-03:00")
    # 01:30 first happens at 05:30 UTC (EDT), the ambiguous start uses fold=0;
    # 01:00-01:29 EST (06:00-06:29 UTC) is outside the window by wall time.
    assert not is_safe(utc(2025, 11, 2, 6, 15), windows, NEW_YORK)
    assert window_occurrences(utc(2025, 11, 2), utc(2025, 11, 3), windows, NEW_YORK) == [
        (utc(2025, 11, 2, 5, 30), utc(2025, 11, 2, 6, 0)),
        (utc(2025, 11, 2, 6, 30), utc(2025, 11, 2, 8, 0)),
    ]
    assert next_safe_slot(utc(2025, 11, 1), windows, NEW_YORK) == utc(2025, 11, 2, 5, 30)
    assert next_safe_slot(utc(2025, 11, 2, 6, 5), windows, NEW_YORK) == utc(2025, 11, 2, 6, 30)
    hour = timedelta(hours=1)
    assert next_safe_slot(utc(2025, 11, 1), windows, NEW_YORK, hour) == utc(2025, 11, 2, 6, 30)


def test_zone_changes_and_bad_input_are_refused() -> None:
    windows = parse_windows("Mon 09:00-10:00")
    with pytest.raises(ValueError, match="unknown time zone"):
        is_safe(utc(2025, 1, 6, 9), windows, "Mars/Olympus_Mons")
    with pytest.raises(ValueError, match="timezone-aware"):
        is_safe(datetime(2025, 1, 6, 9, 30), windows, LONDON)
    with pytest.raises(ValueError, match="timezone-aware"):
        next_safe_slot(datetime(2025, 1, 6, 9, 30), windows, LONDON)
    with pytest.raises(ValueError, match="negative"):
        next_safe_slot(utc(2025, 1, 6), windows, LONDON, timedelta(minutes=-1))


# ---------------------------------------------------------------------------------------------
# next_safe_slot and window_occurrences


def test_next_safe_slot_inside_a_window_is_now_in_utc() -> None:
    windows = parse_windows("Mon-Fri 09:00-11:30")
    after = datetime(2025, 1, 6, 10, 15, 30, tzinfo=ZoneInfo(NEW_YORK))
    slot = next_safe_slot(after, windows, NEW_YORK)
    assert slot == after
    assert slot is not None and slot.utcoffset() == timedelta(0) and slot.tzinfo is UTC


def test_next_safe_slot_needs_room_for_the_whole_contact() -> None:
    windows = parse_windows("Mon 09:00-09:30\nTue 14:00-16:00")
    after = utc(2025, 1, 6, 8)  # Monday, London = UTC
    assert next_safe_slot(after, windows, LONDON) == utc(2025, 1, 6, 9)
    assert next_safe_slot(after, windows, LONDON, timedelta(minutes=30)) == utc(2025, 1, 6, 9)
    assert next_safe_slot(after, windows, LONDON, timedelta(minutes=31)) == utc(2025, 1, 7, 14)
    # already inside Tuesday's window but with too little of it left
    late = utc(2025, 1, 7, 15, 30)
    assert next_safe_slot(late, windows, LONDON, timedelta(minutes=30)) == late
    # (Monday's 30-minute window is too short for 45 minutes, so it is the next Tuesday)
    assert next_safe_slot(late, windows, LONDON, timedelta(minutes=45)) == utc(2025, 1, 14, 14)
    assert next_safe_slot(late, windows, LONDON, timedelta(hours=3)) is None


def test_next_safe_slot_contact_across_midnight() -> None:
    windows = parse_windows("Fri 23:00-01:00")
    slot = next_safe_slot(utc(2025, 1, 10, 23, 30), windows, LONDON, timedelta(minutes=90))
    assert slot == utc(2025, 1, 10, 23, 30)
    slot = next_safe_slot(utc(2025, 1, 10, 23, 31), windows, LONDON, timedelta(minutes=90))
    assert slot == utc(2025, 1, 17, 23, 0)


def test_next_safe_slot_horizon_and_no_windows() -> None:
    windows = parse_windows("Mon 09:00-10:00")
    tuesday = utc(2025, 1, 7, 12)
    assert next_safe_slot(tuesday, windows, LONDON, horizon_days=5) is None
    assert next_safe_slot(tuesday, windows, LONDON, horizon_days=6) == utc(2025, 1, 13, 9)
    assert next_safe_slot(tuesday, [], LONDON) is None


def test_touching_windows_form_one_interval() -> None:
    windows = parse_windows("Mon 09:00-10:00\nMon 10:00-11:00\nMon 10:30-10:45")
    monday = (utc(2025, 1, 6), utc(2025, 1, 7))
    assert window_occurrences(*monday, windows, LONDON) == [
        (utc(2025, 1, 6, 9), utc(2025, 1, 6, 11))
    ]
    assert next_safe_slot(monday[0], windows, LONDON, timedelta(minutes=90)) == utc(2025, 1, 6, 9)


def test_window_occurrences_are_whole_sorted_and_only_those_overlapping() -> None:
    windows = parse_windows("Tue 22:00-01:00\nMon-Fri 09:00-11:30")
    start, end = utc(2025, 1, 7, 10), utc(2025, 1, 8, 0, 30)  # Tuesday 10:00 to Wed 00:30
    assert window_occurrences(start, end, windows, LONDON) == [
        (utc(2025, 1, 7, 9), utc(2025, 1, 7, 11, 30)),
        (utc(2025, 1, 7, 22), utc(2025, 1, 8, 1)),
    ]
    assert window_occurrences(end, start, windows, LONDON) == []
    # the interval that ends exactly at the start of the range does not overlap it
    assert window_occurrences(utc(2025, 1, 7, 11, 30), utc(2025, 1, 7, 12), windows, LONDON) == []


# Around the 2025 transitions of those zones, and ordinary days.
ANCHORS = [
    utc(2025, 3, 30, 1),
    utc(2025, 10, 26, 1),
    utc(2025, 3, 9, 7),
    utc(2025, 11, 2, 6),
    utc(2025, 4, 5, 14),
    utc(2025, 9, 27, 14),
    utc(2025, 4, 5, 15),
    utc(2025, 10, 4, 15, 30),
    utc(2025, 6, 15, 12),
]


@st.composite
def an_instant(draw: st.DrawFn) -> datetime:
    anchor = draw(st.sampled_from(ANCHORS))
    return anchor + timedelta(minutes=draw(st.integers(-3 * 1440, 3 * 1440)))


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    zone=st.sampled_from(ZONES),
    windows=st.lists(a_window(), min_size=1, max_size=3),
    moment=an_instant(),
    seconds=st.integers(0, 59),
)
def test_is_safe_agrees_with_window_occurrences(
    zone: str, windows: list[Window], moment: datetime, seconds: int
) -> None:
    moment += timedelta(seconds=seconds)
    intervals = window_occurrences(
        moment - timedelta(days=1), moment + timedelta(days=1), windows, zone
    )
    inside = any(begin <= moment < end for begin, end in intervals)
    assert is_safe(moment, windows, zone) == inside
    for (_, first_end), (second_start, _) in zip(intervals, intervals[1:], strict=False):
        assert first_end < second_start  # merged and sorted


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    zone=st.sampled_from(ZONES),
    windows=st.lists(a_window(), min_size=0, max_size=3),
    after=an_instant(),
    minutes=st.sampled_from([0, 1, 15, 60, 90, 300]),
)
def test_next_safe_slot_is_the_earliest_safe_minute(
    zone: str, windows: list[Window], after: datetime, minutes: int
) -> None:
    """Check against a brute-force scan of is_safe, minute by minute.

    Window edges are whole local minutes and every offset involved is whole minutes, so for an
    ``after`` on a whole minute the true answer is a whole minute too.
    """
    horizon = 3
    slot = next_safe_slot(after, windows, zone, timedelta(minutes=minutes), horizon_days=horizon)
    total = horizon * 1440
    safe = [is_safe(after + timedelta(minutes=k), windows, zone) for k in range(total + minutes)]
    expected = None
    run = 0  # safe minutes in a row ending at k
    for k, ok in enumerate(safe):
        run = run + 1 if ok else 0
        start = k - max(minutes, 1) + 1
        if start >= total:
            break
        if run >= max(minutes, 1) and start >= 0:
            expected = after + timedelta(minutes=start)
            break
    assert slot == expected
    if slot is not None:
        assert is_safe(slot, windows, zone)
        assert slot.tzinfo is UTC
        if minutes:
            assert is_safe(slot + timedelta(minutes=minutes, microseconds=-1), windows, zone)
        if slot > after:
            assert not is_safe(slot - timedelta(microseconds=1), windows, zone)
