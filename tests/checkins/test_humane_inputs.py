"""Humane inputs: repeat presets and their words, safe times from pickers."""

from __future__ import annotations

import datetime as dt

import pytest

from caseflow.checkins.forms import SafeContactForm, repeat_rule, repeat_words
from caseflow.lib import recurrence, weekly_windows

# Tuesday 8 December 2026 (the second Tuesday); Thursday 31 December 2026 (the fifth).
TUESDAY = dt.date(2026, 12, 8)
LAST_DAY = dt.date(2026, 12, 31)


@pytest.mark.parametrize(
    ("repeat", "first", "days", "rule", "words"),
    [
        ("", TUESDAY, None, "", "Does not repeat."),
        ("daily", TUESDAY, None, "FREQ=DAILY", "Repeats every day."),
        ("weekly", TUESDAY, None, "FREQ=WEEKLY;BYDAY=TU", "Repeats every week on Tuesday."),
        (
            "fortnightly",
            TUESDAY,
            None,
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU",
            "Repeats every two weeks on Tuesday.",
        ),
        ("monthly", TUESDAY, None, "FREQ=MONTHLY;BYMONTHDAY=8", "Repeats every month on day 8."),
        (
            "monthly",
            LAST_DAY,
            None,
            "FREQ=MONTHLY;BYMONTHDAY=-1",
            "Repeats every month on its last day.",
        ),
        (
            "monthly_weekday",
            TUESDAY,
            None,
            "FREQ=MONTHLY;BYDAY=2TU",
            "Repeats every month on the second Tuesday.",
        ),
        (
            "monthly_weekday",
            LAST_DAY,
            None,
            "FREQ=MONTHLY;BYDAY=-1TH",
            "Repeats every month on the last Thursday.",
        ),
        (
            "days",
            TUESDAY,
            ["TH", "MO"],
            "FREQ=WEEKLY;BYDAY=MO,TH",
            "Repeats every week on Monday, Thursday.",
        ),
    ],
)
def test_each_preset_is_a_valid_rule_said_in_words(repeat, first, days, rule, words):
    assert repeat_rule(repeat, first, days) == rule
    assert repeat_words(repeat, first, days) == words
    if rule:
        recurrence.validate_rule(rule)


def test_safe_times_the_pickers_hold_and_the_rest_in_the_text_box():
    windows = weekly_windows.parse_windows(
        "Mon-Fri 10:00-12:00\nSat 22:00-01:00\nMon, Wed 18:00-19:00"
    )
    initial = SafeContactForm.initial_windows(windows)
    assert initial["window_days_0"] == "weekdays"
    assert (initial["window_start_0"], initial["window_end_0"]) == (dt.time(10), dt.time(12))
    assert initial["window_days_1"] == "5"
    assert initial["windows"] == "Mon,Wed 18:00-19:00"


@pytest.mark.django_db
def test_a_picked_safe_time_needs_days_start_and_end():
    base = {"timezone": "Europe/London", "channels": ["text"], "safe_phone": "07700 900123"}
    form = SafeContactForm({**base, "window_days_0": "weekends", "window_start_0": "09:00"})
    assert not form.is_valid()
    assert form.errors["window_end_0"] == ["Choose when this safe time ends."]
    form = SafeContactForm(base)
    assert not form.is_valid()
    assert form.errors["window_days_0"] == ["Give at least one safe time."]
    form = SafeContactForm(
        {
            **base,
            "window_days_0": "weekends",
            "window_start_0": "22:00",
            "window_end_0": "01:00",
            "windows": "Wed 10:00-11:00",
        }
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["windows"] == [
        {"days": [5, 6], "start": "22:00", "end": "01:00"},
        {"days": [2], "start": "10:00", "end": "11:00"},
    ]
