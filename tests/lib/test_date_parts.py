"""Dates typed in parts: the order of the boxes follows the reader's language, every mistake is
said in words, the parts are read in the staff's zone, and surprising dates are named."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django import forms
from django.utils import timezone, translation

from caseflow.lib.date_parts import DatePartsField, doubts, part_order, read_back, spoken_date

LONDON = ZoneInfo("Europe/London")
CHICAGO = ZoneInfo("America/Chicago")
NOW = dt.datetime(2026, 12, 3, 14, 5, tzinfo=dt.UTC)


class When(forms.Form):
    at = DatePartsField(label="When", with_time=True)
    day = DatePartsField(label="Date", required=False)


def _parts(at: str = "", **parts: str) -> dict[str, str]:
    return {f"{at or 'at'}_{name}": value for name, value in parts.items()}


def _labels_in_order(html: str) -> list[str]:
    return re.findall(r'<label class="form-label" for="id_at_(\w+)">', html)


@pytest.mark.parametrize(
    ("language", "order"),
    [
        ("en-gb", ["day", "month", "year", "hour", "minute"]),
        ("es", ["day", "month", "year", "hour", "minute"]),
        ("en-us", ["month", "day", "year", "hour", "minute"]),
    ],
)
def test_the_boxes_follow_the_readers_order_and_each_is_labelled(language, order):
    with translation.override(language):
        html = str(When()["at"])
        assert _labels_in_order(html) == order
        assert part_order() == tuple(order[:3])
        hint = When().fields["at"].hint  # type: ignore[attr-defined]
    for name in order:
        assert f'id="id_at_{name}"' in html and f'name="at_{name}"' in html
    assert 'inputmode="numeric"' in html
    example = "3 27 2026" if language == "en-us" else "27 3 2026"
    assert example in hint


def test_a_value_is_shown_back_in_its_parts_in_the_staff_zone():
    with timezone.override(CHICAGO), translation.override("en-gb"):
        html = str(When(initial={"at": dt.datetime(2026, 12, 1, 3, 30, tzinfo=dt.UTC)})["at"])
    # 03:30 UTC on 1 December is 21:30 on 30 November in Chicago.
    for name, value in (("day", "30"), ("month", "11"), ("year", "2026"), ("hour", "21")):
        assert re.search(rf'name="at_{name}"[^>]*value="{value}"', html), name
    assert re.search(r'name="at_minute"[^>]*value="30"', html)


@time_machine.travel(NOW, tick=False)
def test_the_parts_are_read_in_the_current_zone():
    data = _parts(day="1", month="12", year="2026", hour="21", minute="15")
    with timezone.override(CHICAGO):
        form = When(data)
        assert form.is_valid(), form.errors
    assert form.cleaned_data["at"] == dt.datetime(2026, 12, 2, 3, 15, tzinfo=dt.UTC)
    with timezone.override(LONDON):
        form = When(data)
        assert form.is_valid(), form.errors
    assert form.cleaned_data["at"] == dt.datetime(2026, 12, 1, 21, 15, tzinfo=dt.UTC)


def test_a_whole_value_posted_year_first_is_read_as_written():
    with timezone.override(LONDON):
        form = When({"at": "2026-12-01T09:00", "day": "2026-01-12"})
        assert form.is_valid(), form.errors
    assert form.cleaned_data["at"] == dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)
    assert form.cleaned_data["day"] == dt.date(2026, 1, 12)
    # Written any other way, the order cannot be known: refused in words.
    unreadable = When({"at": "01/12/2026 09:00", "day": "12.1.2026"})
    assert not unreadable.is_valid()
    for name in ("at", "day"):
        assert unreadable.errors[name] == ["Enter a real date, year first: for example 2026-03-27."]


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("    ", "Enter the date and time."),
        (" 12 2026 9 0", "must include a day"),
        ("1  2026 9 0", "must include a month"),
        ("1 12  9 0", "must include a year"),
        ("1 13 2026 9 0", "between 1 and 12"),
        ("0 1 2026 9 0", "between 1 and 31"),
        ("31 2 2026 9 0", "a real date"),
        ("1 12 26 9 0", "as 4 digits"),
        ("one 12 2026 9 0", "day as a number"),
        ("1 12 2026  ", "Enter the time"),
        ("1 12 2026 24 0", "0 and 23"),
        ("1 12 2026 9 60", "0 and 59"),
        ("1 12 2026 -1 0", "as a number"),
        ("١ 12 2026 9 0", "as a number"),
        ("1 12 " + "9" * 5000 + " 9 0", "as 4 digits"),
        ("1 " + "1" * 5000 + " 2026 9 0", "between 1 and 12"),
        # 01:30 on 29 March 2026 never happened in London: the clocks went from 01:00 to 02:00.
        ("29 3 2026 1 30", "clocks"),
    ],
)
def test_each_mistake_is_said_in_words_on_the_field(typed, message):
    parts = dict(zip(("day", "month", "year", "hour", "minute"), typed.split(" "), strict=True))
    with timezone.override(LONDON), translation.override("en-gb"):
        form = When(_parts(**parts))
        assert not form.is_valid()
        errors = form.errors["at"]
        html = str(form["at"])
    assert len(errors) == 1 and message in errors[0]
    assert 'aria-invalid="true"' in html and "is-invalid" in html


def test_a_date_only_field_may_be_left_empty_and_keeps_what_was_typed():
    form = When(_parts(day="1", month="12", year="2026", hour="9", minute="0"))
    assert form.is_valid(), form.errors
    assert form.cleaned_data["day"] is None
    bad = When(_parts(day="31", month="2", year="2026", hour="9", minute="0"))
    assert not bad.is_valid()
    assert re.search(r'name="at_day"[^>]*value="31"', str(bad["at"]))


def test_doubts_name_the_future_the_long_ago_and_the_day_and_month_swapped():
    today = dt.date(2026, 12, 3)
    assert doubts(today, today=today) == []
    assert doubts(dt.date(2026, 11, 30), today=today) == []
    assert doubts(dt.date(2026, 12, 4), today=today) == ["future"]
    # 1 December typed the US way round on a UK form.
    assert doubts(dt.date(2026, 1, 12), today=today) == ["long_ago", "swapped"]
    assert doubts(dt.date(2026, 10, 1), today=today) == ["long_ago"]  # 10 Jan is further
    assert doubts(dt.date(2026, 3, 3), today=today) == ["long_ago"]  # 3 March swaps to itself
    assert doubts(dt.date(2026, 10, 21), today=today) == ["long_ago"]  # no 21st month


@time_machine.travel(NOW, tick=False)
def test_a_date_not_today_is_read_back_in_words_and_today_is_not():
    with timezone.override(LONDON), translation.override("en-gb"):
        assert read_back(NOW - dt.timedelta(hours=1), with_time=True) is None
        check = read_back(dt.datetime(2026, 1, 12, 9, 0, tzinfo=dt.UTC), with_time=True)
        assert check is not None
        assert check.words == "Monday 12 January 2026 at 09:00"
        assert check.token == "2026-01-12T09:00"
        assert check.other_words == "Tuesday 1 December 2026"
        assert check.long_ago and not check.future
        day = read_back(dt.date(2026, 12, 1), with_time=False)
        assert day is not None
        assert (day.words, day.token) == ("Tuesday 1 December 2026", "2026-12-01")
    with translation.override("en-us"):
        assert spoken_date(dt.date(2026, 12, 1)) == "Tuesday, December 1, 2026"
