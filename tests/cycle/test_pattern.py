"""The pattern in words: after how many of the last incidents each kind followed within days.
Pure, with pinned dates: none, one, several, and mixed."""

from __future__ import annotations

import datetime as dt

from caseflow.cycle.pattern import Pattern, find_pattern, pattern_lines

LABELS = {"apology": "An apology", "gift": "A gift", "promise": "A promise to change"}


def at(day: int, hour: int = 20) -> dt.datetime:
    return dt.datetime(2026, 3, day, hour, 0, tzinfo=dt.UTC)


def test_no_incident_no_pattern():
    found = find_pattern([], [(at(2), "apology")])
    assert found == Pattern(harms=0, followed=0, by_kind=(), days=3)
    assert pattern_lines(found, LABELS) == []


def test_incidents_without_anything_after_say_nothing():
    found = find_pattern([at(1), at(10)], [])
    assert found.harms == 2 and found.followed == 0
    assert pattern_lines(found, LABELS) == []


def test_one_incident_and_an_apology_the_next_day():
    found = find_pattern([at(1)], [(at(2, 9), "apology")])
    assert found == Pattern(harms=1, followed=1, by_kind=(("apology", 1),), days=3)
    assert pattern_lines(found, LABELS) == [
        "An apology: after the one incident recorded, within 3 days."
    ]


def test_an_apology_after_each_of_the_last_four():
    harms = [at(1), at(8), at(15), at(22)]
    marks = [(h + dt.timedelta(days=1), "apology") for h in harms]
    found = find_pattern(harms, marks)
    assert found == Pattern(harms=4, followed=4, by_kind=(("apology", 4),), days=3)
    assert pattern_lines(found, LABELS) == [
        "An apology: after 4 of the last 4 incidents, within 3 days."
    ]


def test_only_the_last_four_incidents_are_looked_at():
    # The first incident's apology is older than the last four.
    harms = [at(1), at(5), at(9), at(13), at(17)]
    marks = [(at(2), "apology"), (at(18), "apology")]
    found = find_pattern(harms, marks)
    assert found.harms == 4
    assert found.by_kind == (("apology", 1),)


def test_mixed_kinds_counted_per_incident_most_first():
    harms = [at(1), at(8), at(15), at(22)]
    marks = [
        (at(2), "gift"),
        (at(2, 21), "apology"),
        (at(3), "apology"),  # a second apology after the same incident counts once
        (at(9), "apology"),
        (at(16), "promise"),
        (at(16, 22), "apology"),
        # Four days after the last: outside the window.
        (at(26), "apology"),
    ]
    found = find_pattern(harms, marks)
    assert found == Pattern(
        harms=4,
        followed=3,
        by_kind=(("apology", 3), ("gift", 1), ("promise", 1)),
        days=3,
    )
    assert pattern_lines(found, LABELS) == [
        "After 3 of the last 4 incidents, at least one of these within 3 days:",
        "An apology: after 3 of the last 4 incidents, within 3 days.",
        "A gift: after 1 of the last 4 incidents, within 3 days.",
        "A promise to change: after 1 of the last 4 incidents, within 3 days.",
    ]


def test_a_mark_follows_the_nearest_incident_before_it_and_never_precedes_harm():
    # Two incidents a day apart: the apology after the second follows the second only.
    harms = [at(10), at(11)]
    found = find_pattern(harms, [(at(11, 22), "apology"), (at(9), "gift")])
    assert found == Pattern(harms=2, followed=1, by_kind=(("apology", 1),), days=3)


def test_the_window_ends_before_the_days_are_out():
    harm = at(1)
    inside = harm + dt.timedelta(days=3) - dt.timedelta(seconds=1)
    outside = harm + dt.timedelta(days=3)
    assert find_pattern([harm], [(inside, "apology")]).followed == 1
    assert find_pattern([harm], [(outside, "apology")]).followed == 0
    assert find_pattern([harm], [(outside, "apology")], days=4).followed == 1


def test_a_kind_without_words_is_left_out_of_the_lines():
    found = find_pattern([at(1)], [(at(2), "agency:999")])
    assert found.followed == 1
    assert pattern_lines(found, LABELS) == []
