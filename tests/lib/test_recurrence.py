"""Tests for caseflow.lib.recurrence: recurring check-ins across daylight-saving changes.

The daylight-saving dates the tests rely on are listed in :mod:`tests.lib.dst`.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caseflow.lib.recurrence import (
    MAX_OCCURRENCES,
    RecurrenceError,
    describe_rule,
    occurrences,
    validate_rule,
)
from tests.lib.dst import AUCKLAND, LONDON, NEW_YORK, ZONES, utc

# ---------------------------------------------------------------------------------------------
# Recurrence


def test_weekly_check_in_keeps_wall_time_across_dst_london() -> None:
    got = occurrences(
        "FREQ=WEEKLY;BYDAY=MO", datetime(2025, 1, 6, 10), LONDON, utc(2025, 1, 1), utc(2026, 1, 1)
    )
    assert len(got) == 52
    assert got[0] == utc(2025, 1, 6, 10)  # GMT
    assert utc(2025, 3, 24, 10) in got and utc(2025, 3, 31, 9) in got  # BST from 30 March
    assert utc(2025, 7, 7, 9) in got
    assert utc(2025, 10, 20, 9) in got and utc(2025, 10, 27, 10) in got  # GMT from 26 Oct
    zone = ZoneInfo(LONDON)
    assert {o.astimezone(zone).time() for o in got} == {time(10)}
    assert {o.astimezone(zone).weekday() for o in got} == {0}
    assert all(o.tzinfo is UTC for o in got)


def test_weekly_check_in_keeps_wall_time_new_york_and_auckland() -> None:
    ny = occurrences(
        "FREQ=WEEKLY;BYDAY=MO", datetime(2025, 1, 6, 10), NEW_YORK, utc(2025, 1, 6), utc(2026, 1, 1)
    )
    assert utc(2025, 1, 6, 15) in ny and utc(2025, 7, 7, 14) in ny
    akl = occurrences(
        "FREQ=WEEKLY;BYDAY=MO", datetime(2025, 1, 6, 10), AUCKLAND, utc(2025, 1, 1), utc(2026, 1, 1)
    )
    # Monday 10:00 in Auckland is Sunday 21:00 UTC in summer (NZDT) and 22:00 in winter.
    assert akl[0] == utc(2025, 1, 5, 21)
    assert utc(2025, 7, 6, 22) in akl
    assert utc(2025, 12, 28, 21) in akl


def test_non_existent_wall_time_moves_forward_by_the_gap() -> None:
    london = occurrences(
        "FREQ=DAILY", datetime(2025, 3, 28, 1, 30), LONDON, utc(2025, 3, 28), utc(2025, 4, 1)
    )
    assert london == [
        utc(2025, 3, 28, 1, 30),
        utc(2025, 3, 29, 1, 30),
        utc(2025, 3, 30, 1, 30),  # 01:30 GMT does not exist: 02:30 BST
        utc(2025, 3, 31, 0, 30),  # 01:30 BST
    ]
    assert london[2].astimezone(ZoneInfo(LONDON)).time() == time(2, 30)
    ny = occurrences(
        "RRULE:FREQ=WEEKLY;BYDAY=SU",
        datetime(2025, 3, 2, 2, 30),
        NEW_YORK,
        utc(2025, 3, 9),
        utc(2025, 3, 10),
    )
    assert ny == [utc(2025, 3, 9, 7, 30)]  # 03:30 EDT
    akl = occurrences(
        "FREQ=DAILY", datetime(2025, 9, 27, 2, 15), AUCKLAND, utc(2025, 9, 27), utc(2025, 9, 28)
    )
    assert utc(2025, 9, 27, 14, 15) in akl  # 28 Sep 02:15 does not exist: 03:15 NZDT


def test_ambiguous_wall_time_is_its_first_instance_once() -> None:
    got = occurrences(
        "FREQ=DAILY", datetime(2025, 10, 30, 1, 30), NEW_YORK, utc(2025, 11, 1), utc(2025, 11, 4)
    )
    assert got == [
        utc(2025, 11, 1, 5, 30),  # EDT
        utc(2025, 11, 2, 5, 30),  # first 01:30 (EDT), not also 06:30
        utc(2025, 11, 3, 6, 30),  # EST
    ]


@settings(max_examples=40, deadline=None)
@given(
    zone=st.sampled_from(ZONES),
    hour=st.integers(0, 23),
    minute=st.sampled_from([0, 15, 30, 45, 59]),
)
def test_daily_occurrences_keep_wall_time_every_day_of_the_year(
    zone: str, hour: int, minute: int
) -> None:
    tzinfo = ZoneInfo(zone)
    got = occurrences(
        "FREQ=DAILY",
        datetime(2024, 12, 31, hour, minute),
        zone,
        datetime(2025, 1, 1, tzinfo=tzinfo),
        datetime(2026, 1, 1, tzinfo=tzinfo),
    )
    assert len(got) == 365
    for day_number, instant in enumerate(got):
        wall = datetime.combine(date(2025, 1, 1) + timedelta(days=day_number), time(hour, minute))
        local = instant.astimezone(tzinfo).replace(tzinfo=None)
        exists = (
            wall.replace(tzinfo=tzinfo).astimezone(UTC).astimezone(tzinfo).replace(tzinfo=None)
            == wall
        )
        if exists:
            assert local == wall
            assert instant == wall.replace(tzinfo=tzinfo, fold=0).astimezone(UTC)
        else:
            after_gap = wall.replace(tzinfo=tzinfo, fold=1).utcoffset()
            before_gap = wall.replace(tzinfo=tzinfo, fold=0).utcoffset()
            assert after_gap is not None and before_gap is not None
            assert local == wall + (after_gap - before_gap)
            assert local > wall


def test_count_counts_from_dtstart_and_range_is_half_open() -> None:
    rule = "FREQ=WEEKLY;BYDAY=MO,TH;COUNT=3"
    start = datetime(2025, 1, 6, 10)
    assert occurrences(rule, start, LONDON, utc(2025, 1, 1), utc(2025, 12, 1)) == [
        utc(2025, 1, 6, 10),
        utc(2025, 1, 9, 10),
        utc(2025, 1, 13, 10),
    ]
    assert occurrences(rule, start, LONDON, utc(2025, 1, 10), utc(2025, 12, 1)) == [
        utc(2025, 1, 13, 10)
    ]
    assert occurrences(rule, start, LONDON, utc(2025, 1, 9, 10), utc(2025, 1, 13, 10)) == [
        utc(2025, 1, 9, 10)
    ]
    assert occurrences(rule, start, LONDON, utc(2025, 2, 1), utc(2025, 12, 1)) == []
    assert occurrences(rule, start, LONDON, utc(2025, 12, 1), utc(2025, 1, 1)) == []


@pytest.mark.parametrize(
    ("until", "last"),
    [
        ("20250707T090000Z", utc(2025, 7, 7, 9)),  # 10:00 BST is 09:00 UTC: included
        ("20250707T085959Z", utc(2025, 6, 30, 9)),
        ("20250707", utc(2025, 7, 7, 9)),  # a date includes that whole day
        ("20250707T095959", utc(2025, 6, 30, 9)),  # a local wall time
        ("20250707T100000", utc(2025, 7, 7, 9)),
    ],
)
def test_until_forms(until: str, last: datetime) -> None:
    got = occurrences(
        f"FREQ=WEEKLY;BYDAY=MO;UNTIL={until}",
        datetime(2025, 6, 2, 10),
        LONDON,
        utc(2025, 1, 1),
        utc(2026, 1, 1),
    )
    assert got[0] == utc(2025, 6, 2, 9)
    assert got[-1] == last


def test_utc_until_in_the_repeated_hour_compares_instants() -> None:
    # UNTIL is 01:15 EST (06:15 UTC) on 2 November; 01:30 EDT (05:30 UTC) came before it,
    # although its wall time 01:30 is later than 01:15.
    got = occurrences(
        "FREQ=DAILY;UNTIL=20251102T061500Z",
        datetime(2025, 10, 31, 1, 30),
        NEW_YORK,
        utc(2025, 10, 1),
        utc(2025, 12, 1),
    )
    assert got == [utc(2025, 10, 31, 5, 30), utc(2025, 11, 1, 5, 30), utc(2025, 11, 2, 5, 30)]


def test_unbounded_rule_expands_only_within_the_range() -> None:
    got = occurrences(
        "FREQ=MONTHLY;BYDAY=-1FR",
        datetime(2020, 1, 31, 18),
        NEW_YORK,
        utc(2030, 1, 1),
        utc(2030, 4, 1),
    )
    assert got == [utc(2030, 1, 25, 23), utc(2030, 2, 22, 23), utc(2030, 3, 29, 22)]


def test_expansion_is_capped() -> None:
    start = datetime(2025, 1, 1, 9)
    got = occurrences(
        "FREQ=DAILY",
        start,
        "UTC",
        utc(2025, 1, 1),
        utc(2025, 1, 1) + timedelta(days=MAX_OCCURRENCES),
    )
    assert len(got) == MAX_OCCURRENCES
    with pytest.raises(RecurrenceError, match=f"more than {MAX_OCCURRENCES}"):
        occurrences("FREQ=DAILY", start, "UTC", utc(2025, 1, 1), utc(2028, 1, 1))


def test_rule_text_is_case_insensitive_and_prefix_optional() -> None:
    args = (datetime(2025, 1, 6, 10), LONDON, utc(2025, 1, 1), utc(2025, 2, 1))
    plain = occurrences("FREQ=WEEKLY;BYDAY=MO,TH", *args)
    assert len(plain) == 8
    assert occurrences("RRULE:FREQ=WEEKLY;BYDAY=MO,TH", *args) == plain
    assert occurrences(" rrule:freq=weekly;byday=mo,th; ", *args) == plain


@pytest.mark.parametrize(
    ("rule", "fragment"),
    [
        ("FREQ=HOURLY", "at most daily"),
        ("FREQ=MINUTELY;COUNT=5", "at most daily"),
        ("RRULE:FREQ=SECONDLY", "at most daily"),
        ("", "empty"),
        ("BYDAY=MO", "needs a FREQ"),
        ("FREQ=FORTNIGHTLY", "unknown FREQ"),
        ("FREQ=WEEKLY;BYDAY=XX", "invalid day 'XX'"),
        ("FREQ=WEEKLY;COUNT=0", "COUNT must be"),
        ("FREQ=WEEKLY;INTERVAL=-1", "INTERVAL must be"),
        ("FREQ=WEEKLY;COUNT=3;UNTIL=20250101", "not both"),
        ("FREQ=WEEKLY;FOO=1", "unknown rule part 'FOO'"),
        ("FREQ=WEEKLY;FREQ=DAILY", "twice"),
        ("FREQ=WEEKLY;UNTIL=tomorrow", "invalid UNTIL"),
        ("FREQ=WEEKLY;UNTIL=20251301", "invalid UNTIL"),
        ("FREQ=MONTHLY;BYWEEKNO=1", "BYWEEKNO needs FREQ=YEARLY"),
        ("FREQ=WEEKLY;BYDAY=1MO", "position"),
        ("FREQ=MONTHLY;BYMONTH=13", "BYMONTH"),
        ("FREQ=MONTHLY;BYMONTHDAY=0", "BYMONTHDAY"),
        ("FREQ=WEEKLY;BYMONTHDAY=1", "BYMONTHDAY cannot"),
        ("FREQ=DAILY;BYSETPOS=1", "BYSETPOS needs"),
        ("FREQ=DAILY;BYHOUR=24", "BYHOUR"),
        ("every monday", "NAME=VALUE"),
        ("DTSTART:20250101T100000\nRRULE:FREQ=DAILY", "single"),
    ],
)
def test_invalid_rules_are_refused_with_a_message(rule: str, fragment: str) -> None:
    with pytest.raises(RecurrenceError) as caught:
        validate_rule(rule)
    assert fragment in str(caught.value)
    assert isinstance(caught.value, ValueError)
    with pytest.raises(RecurrenceError):
        occurrences(rule, datetime(2025, 1, 6, 10), LONDON, utc(2025, 1, 1), utc(2025, 2, 1))
    with pytest.raises(RecurrenceError):
        describe_rule(rule)


@pytest.mark.parametrize(
    "rule",
    ["FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=DAILY;BYMONTH=4;BYMONTHDAY=31;COUNT=3"],
)
def test_rule_that_never_occurs_is_refused(rule: str) -> None:
    validate_rule(rule)  # syntactically fine
    with pytest.raises(RecurrenceError, match="never"):
        occurrences(rule, datetime(2025, 1, 1, 9), LONDON, utc(2025, 1, 1), utc(2026, 1, 1))
    with pytest.raises(RecurrenceError, match="never"):
        validate_rule(rule, datetime(2025, 1, 1, 9))


def test_rare_rule_still_occurs() -> None:
    got = occurrences(
        "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29",
        datetime(2025, 1, 1, 9),
        "UTC",
        utc(2025, 1, 1),
        utc(2033, 1, 1),
    )
    assert got == [utc(2028, 2, 29, 9), utc(2032, 2, 29, 9)]


def test_occurrences_argument_checks() -> None:
    with pytest.raises(ValueError, match="naive"):
        occurrences("FREQ=DAILY", utc(2025, 1, 1, 9), LONDON, utc(2025, 1, 1), utc(2025, 2, 1))
    with pytest.raises(ValueError, match="timezone-aware"):
        occurrences(
            "FREQ=DAILY", datetime(2025, 1, 1, 9), LONDON, datetime(2025, 1, 1), utc(2025, 2, 1)
        )
    with pytest.raises(ValueError, match="unknown time zone"):
        occurrences(
            "FREQ=DAILY", datetime(2025, 1, 1, 9), "Nowhere/Else", utc(2025, 1, 1), utc(2025, 2, 1)
        )


@pytest.mark.parametrize(
    ("rule", "text"),
    [
        ("FREQ=WEEKLY;BYDAY=MO,TH;COUNT=10", "every week on Monday and Thursday, 10 times"),
        ("RRULE:FREQ=MONTHLY;BYDAY=-1FR", "every month on the last Friday"),
        ("FREQ=MONTHLY;BYDAY=1MO,3MO", "every month on the first Monday and the third Monday"),
        ("FREQ=DAILY;INTERVAL=2;UNTIL=20251231", "every 2 days, until 2025-12-31"),
        ("FREQ=DAILY;UNTIL=20251231T170000Z", "every day, until 2025-12-31 17:00 UTC"),
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=FR,MO,TU,WE,TH", "every 2 weeks on weekdays"),
        ("FREQ=WEEKLY;BYDAY=WE,MO,FR", "every week on Monday, Wednesday and Friday"),
        ("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=8", "every year in March on the 8th day of the month"),
        (
            "FREQ=MONTHLY;BYMONTHDAY=1,-1;COUNT=1",
            "every month on the first and last day of the month, once",
        ),
        ("FREQ=DAILY;BYHOUR=9,17;BYMINUTE=0", "every day at 09:00 and 17:00"),
        (
            "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
            "every month on weekdays, only the last of those in each month",
        ),
        ("FREQ=YEARLY", "every year"),
    ],
)
def test_describe_rule(rule: str, text: str) -> None:
    assert describe_rule(rule) == text
