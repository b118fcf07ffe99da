"""Tests for caseflow.agreements.terms: which terms of a contact-boundary agreement an event breaks.

Calendar facts used below (Europe/London): 2025-03-03 and 2025-06-30 are Mondays; 2025-07-01 is a
Tuesday; the clocks go forward at 01:00 UTC on Sunday 2025-03-30 (GMT -> BST) and back at
01:00 UTC on Sunday 2025-10-26 (BST -> GMT).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from caseflow.agreements.terms import (
    Agreement,
    Cap,
    CapPeriod,
    Channel,
    Code,
    ContactEvent,
    Direction,
    EventKind,
    Handover,
    Term,
    TermsError,
    Violation,
    Window,
    agreement_in_force,
    check,
)
from caseflow.lib import weekly_windows

LONDON = "Europe/London"
UTC = dt.UTC
MON, TUE, WED, THU, FRI, SAT, SUN = range(7)
EVERY_DAY = frozenset(range(7))
START = dt.datetime(2024, 1, 1, tzinfo=UTC)


def utc(*args: int) -> dt.datetime:
    return dt.datetime(*args, tzinfo=UTC)


def local(*args: int, zone: str = LONDON, fold: int = 0) -> dt.datetime:
    return dt.datetime(*args, tzinfo=ZoneInfo(zone), fold=fold)


def hm(text: str) -> dt.time:
    return dt.time.fromisoformat(text)


def agreement(**overrides: Any) -> Agreement:
    """A permissive agreement in force from 2024, in London time, unless overridden."""
    fields: dict[str, Any] = {"effective_from": START, "timezone": LONDON}
    fields.update(overrides)
    return Agreement(**fields)


def event(
    at: dt.datetime,
    channel: str = "app",
    direction: str = "to_survivor",
    topic: str = "child_logistics",
    kind: str = "message",
    **flags: bool,
) -> ContactEvent:
    return ContactEvent(
        occurred_at=at, channel=channel, direction=direction, topic=topic, kind=kind, **flags
    )


def codes(violations: list[Violation]) -> list[str]:
    return [violation.code for violation in violations]


# --------------------------------------------------------------------------------------------------
# Vocabulary


def test_each_term_names_an_agreement_field() -> None:
    fields = {field.name for field in dataclasses.fields(Agreement)}
    # Every field that can be broken is a term; the period, zone and exemptions cannot be.
    breakable = fields - {"effective_from", "effective_to", "timezone", "emergency_topics"}
    assert {term.value for term in Term} == breakable | {"effective_period"}


def test_violation_codes_are_the_documented_set() -> None:
    assert {code.value for code in Code} == {
        "before_agreement",
        "after_agreement",
        "forbidden_channel",
        "channel_not_permitted",
        "outside_window",
        "over_cap",
        "forbidden_topic",
        "handover_missed",
        "handover_late",
        "handover_direct_contact",
        "child_contact_outside_window",
    }
    assert {str(channel) for channel in Channel} == {
        "app",
        "email",
        "text",
        "phone",
        "third_party",
        "solicitor",
        "in_person",
        "social_media",
        "other",
    }


# --------------------------------------------------------------------------------------------------
# Windows


def test_window_is_half_open() -> None:
    window = Window(days=frozenset({MON}), start=hm("10:00"), end=hm("11:00"))
    assert window.contains(dt.datetime(2025, 3, 3, 10, 0))
    assert window.contains(dt.datetime(2025, 3, 3, 10, 59, 59))
    assert not window.contains(dt.datetime(2025, 3, 3, 11, 0))
    assert not window.contains(dt.datetime(2025, 3, 3, 9, 59, 59))
    assert not window.contains(dt.datetime(2025, 3, 4, 10, 30))  # Tuesday


def test_window_crossing_midnight_covers_both_sides_and_belongs_to_its_start_day() -> None:
    window = Window(days=frozenset({FRI}), start=hm("22:00"), end=hm("01:00"))
    assert window.crosses_midnight
    assert window.contains(dt.datetime(2025, 3, 7, 23, 30))  # Friday night
    assert window.contains(dt.datetime(2025, 3, 8, 0, 30))  # early Saturday
    assert not window.contains(dt.datetime(2025, 3, 8, 1, 0))  # end is exclusive
    assert not window.contains(dt.datetime(2025, 3, 7, 21, 59))  # before start
    assert not window.contains(dt.datetime(2025, 3, 6, 23, 30))  # Thursday night
    assert not window.contains(dt.datetime(2025, 3, 7, 0, 30))  # early Friday = Thursday's night


def test_an_agreement_window_is_a_safe_window_and_keeps_its_stored_form() -> None:
    window = Window.from_dict({"days": [FRI], "start": "22:00:00", "end": "01:00:00"})
    assert isinstance(window, weekly_windows.Window)
    assert window.to_dict() == {"days": [FRI], "start": "22:00:00", "end": "01:00:00"}
    # The safe-window engine reads an agreement's windows as it reads a profile's.
    assert weekly_windows.is_safe(utc(2025, 3, 8, 0, 30), [window], LONDON)  # early Saturday
    assert not weekly_windows.is_safe(utc(2025, 3, 8, 1, 0), [window], LONDON)
    assert weekly_windows.format_windows([window]) == "Fri 22:00-01:00"


def test_window_crossing_midnight_wraps_from_sunday_to_monday() -> None:
    window = Window(days=frozenset({SUN}), start=hm("23:00"), end=hm("02:00"))
    assert window.contains(dt.datetime(2025, 3, 2, 23, 30))  # Sunday
    assert window.contains(dt.datetime(2025, 3, 3, 1, 59))  # Monday morning
    assert not window.contains(dt.datetime(2025, 3, 3, 2, 0))
    assert not window.contains(dt.datetime(2025, 3, 3, 23, 30))  # Monday night


def test_window_ending_at_midnight_ends_with_the_day() -> None:
    window = Window(days=frozenset({FRI}), start=hm("22:00"), end=hm("00:00"))
    assert window.contains(dt.datetime(2025, 3, 7, 23, 59, 59))
    assert not window.contains(dt.datetime(2025, 3, 8, 0, 0))
    assert window.describe() == "Friday 22:00 to midnight"


def test_window_describe_is_plain_english() -> None:
    assert (
        Window(days=frozenset({FRI, SAT}), start=hm("22:00"), end=hm("01:00")).describe()
        == "Friday, Saturday 22:00 to 01:00 (next day)"
    )
    assert (
        Window(days=EVERY_DAY, start=hm("18:00"), end=hm("18:30")).describe()
        == "every day 18:00 to 18:30"
    )


def test_window_contains_refuses_an_aware_datetime() -> None:
    window = Window(days=EVERY_DAY, start=hm("10:00"), end=hm("11:00"))
    with pytest.raises(ValueError, match="naive"):
        window.contains(utc(2025, 3, 3, 10, 30))


def test_check_uses_a_window_that_crosses_midnight() -> None:
    terms = agreement(
        time_windows=(Window(days=frozenset({FRI}), start=hm("22:00"), end=hm("01:00")),)
    )
    assert check(event(local(2025, 3, 8, 0, 30)), terms, []) == []
    late = check(event(local(2025, 3, 8, 1, 30)), terms, [])
    assert codes(late) == ["outside_window"]
    assert late[0].term == "time_windows"
    assert "01:30 on Saturday 8 March 2025" in late[0].message
    assert "Friday 22:00 to 01:00 (next day)" in late[0].message


def test_an_event_inside_any_one_of_several_windows_is_inside() -> None:
    terms = agreement(
        time_windows=(
            Window(days=frozenset({MON}), start=hm("08:00"), end=hm("09:00")),
            Window(days=frozenset({MON}), start=hm("18:00"), end=hm("19:00")),
        )
    )
    assert check(event(local(2025, 3, 3, 8, 30)), terms) == []
    assert check(event(local(2025, 3, 3, 18, 30)), terms) == []
    assert codes(check(event(local(2025, 3, 3, 12, 0)), terms)) == ["outside_window"]


# --------------------------------------------------------------------------------------------------
# Daylight saving time in the survivor's zone


def tuesday_morning() -> Agreement:
    return agreement(
        time_windows=(Window(days=frozenset({TUE}), start=hm("10:00"), end=hm("11:00")),)
    )


def test_summer_event_is_judged_on_the_local_clock_not_utc() -> None:
    terms = tuesday_morning()
    # 09:30 UTC is 10:30 BST: inside, although 09:30 is outside the window.
    assert check(event(utc(2025, 7, 1, 9, 30)), terms) == []
    # 10:30 UTC is 11:30 BST: outside, although 10:30 is inside the window.
    outside = check(event(utc(2025, 7, 1, 10, 30)), terms)
    assert codes(outside) == ["outside_window"]
    assert "11:30 on Tuesday 1 July 2025 (Europe/London time)" in outside[0].message


def test_winter_event_in_london_matches_utc() -> None:
    terms = tuesday_morning()
    assert check(event(utc(2025, 1, 7, 10, 30)), terms) == []
    assert codes(check(event(utc(2025, 1, 7, 9, 30)), terms)) == ["outside_window"]


def test_another_zone_is_honoured() -> None:
    terms = agreement(
        timezone="Australia/Sydney",
        time_windows=(Window(days=frozenset({MON}), start=hm("18:00"), end=hm("19:00")),),
    )
    # 07:30 UTC on Monday 6 January 2025 is 18:30 AEDT (UTC+11) the same Monday.
    assert check(event(utc(2025, 1, 6, 7, 30)), terms) == []
    assert codes(check(event(utc(2025, 1, 6, 18, 30)), terms)) == ["outside_window"]


@pytest.mark.parametrize(
    ("at", "inside"),
    [
        (utc(2025, 3, 30, 8, 30), True),  # 09:30 BST
        (utc(2025, 3, 30, 9, 30), False),  # 10:30 BST
        (utc(2025, 3, 30, 9, 0), False),  # 10:00 BST, the exclusive end
        (utc(2025, 3, 30, 7, 59), False),  # 08:59 BST
    ],
)
def test_spring_forward_day_window(at: dt.datetime, inside: bool) -> None:
    terms = agreement(
        time_windows=(Window(days=frozenset({SUN}), start=hm("09:00"), end=hm("10:00")),)
    )
    assert (check(event(at), terms) == []) is inside


@pytest.mark.parametrize(
    "at",
    [utc(2025, 3, 30, 0, 59), utc(2025, 3, 30, 1, 0), utc(2025, 3, 30, 1, 30)],
    ids=["00:59 GMT", "02:00 BST", "02:30 BST"],
)
def test_window_in_the_skipped_hour_contains_no_instant(at: dt.datetime) -> None:
    terms = agreement(
        time_windows=(Window(days=frozenset({SUN}), start=hm("01:00"), end=hm("02:00")),)
    )
    assert codes(check(event(at), terms)) == ["outside_window"]


@pytest.mark.parametrize(
    ("at", "inside"),
    [
        (utc(2025, 10, 26, 0, 30), True),  # 01:30 BST, first pass
        (utc(2025, 10, 26, 1, 30), True),  # 01:30 GMT, second pass
        (utc(2025, 10, 26, 0, 0), True),  # 01:00 BST
        (utc(2025, 10, 25, 23, 59), False),  # 00:59 BST
        (utc(2025, 10, 26, 2, 0), False),  # 02:00 GMT
    ],
)
def test_fall_back_repeated_hour_is_inside_both_times(at: dt.datetime, inside: bool) -> None:
    terms = agreement(
        time_windows=(Window(days=frozenset({SUN}), start=hm("01:00"), end=hm("02:00")),)
    )
    assert (check(event(at), terms) == []) is inside


# --------------------------------------------------------------------------------------------------
# Frequency caps


def capped(limit: int, per: str = "day", direction: str = "to_survivor", **more: Any) -> Agreement:
    return agreement(frequency_cap=Cap(limit=limit, per=per, direction=direction), **more)


def test_cap_exactly_n_is_fine_and_n_plus_one_breaks() -> None:
    terms = capped(3)
    earlier = [event(local(2025, 3, 3, hour, 0)) for hour in (8, 9, 10)]
    assert check(event(local(2025, 3, 3, 11, 0)), terms, earlier[:2]) == []
    over = check(event(local(2025, 3, 3, 11, 0)), terms, earlier)
    assert codes(over) == ["over_cap"]
    assert over[0].term == "frequency_cap"
    assert over[0].message == (
        "This was message number 4 from the other parent on Monday 3 March 2025 "
        "(Europe/London time); the agreement allows at most 3 a day."
    )


def test_cap_of_zero_forbids_every_message_in_its_direction() -> None:
    terms = capped(0)
    assert codes(check(event(local(2025, 3, 3, 9, 0)), terms)) == ["over_cap"]
    assert check(event(local(2025, 3, 3, 9, 0), direction="from_survivor"), terms) == []


def test_day_cap_counts_a_message_after_local_midnight_with_the_next_local_day() -> None:
    terms = capped(1)
    # 23:30 UTC on Tuesday 1 July is 00:30 BST on Wednesday 2 July: the same local day as 08:00 UTC
    # on 2 July, though a different UTC day.
    prior = [event(utc(2025, 7, 1, 23, 30))]
    assert codes(check(event(utc(2025, 7, 2, 8, 0)), terms, prior)) == ["over_cap"]


def test_day_cap_resets_at_local_midnight_even_within_one_utc_day() -> None:
    terms = capped(1)
    # 22:30 UTC is 23:30 BST on Tuesday; 23:30 UTC is 00:30 BST on Wednesday: same UTC day, two
    # local days.
    prior = [event(utc(2025, 7, 1, 22, 30))]
    assert check(event(utc(2025, 7, 1, 23, 30)), terms, prior) == []


def test_week_cap_counts_the_local_monday_to_sunday_week() -> None:
    terms = capped(2, per="week")
    prior = [event(local(2025, 6, 30, 9, 0)), event(local(2025, 7, 6, 12, 0))]
    sunday_night = check(event(local(2025, 7, 6, 23, 30)), terms, prior)
    assert codes(sunday_night) == ["over_cap"]
    assert "number 3" in sunday_night[0].message
    assert "week beginning Monday 30 June 2025" in sunday_night[0].message
    assert "at most 2 a week" in sunday_night[0].message
    # 00:30 BST on Monday 7 July is still Sunday 6 July in UTC, but a new local week.
    monday = local(2025, 7, 7, 0, 30)
    assert monday.astimezone(UTC).date() == dt.date(2025, 7, 6)
    assert check(event(monday), terms, prior) == []


def test_week_cap_ignores_the_previous_week() -> None:
    terms = capped(1, per="week")
    # Sunday 29 June 2025, 23:30 BST, is in the week before Monday 30 June.
    prior = [event(local(2025, 6, 29, 23, 30))]
    assert check(event(local(2025, 6, 30, 0, 30)), terms, prior) == []
    assert codes(
        check(event(local(2025, 7, 6, 0, 30)), terms, [*prior, event(local(2025, 7, 1, 9, 0))])
    ) == ["over_cap"]


def test_cap_counts_only_non_emergency_messages_in_its_direction() -> None:
    terms = capped(1, emergency_topics=frozenset({"medical_emergency"}))
    day = (2025, 3, 3)
    not_counted = [
        event(local(*day, 8, 0), direction="from_survivor"),
        event(local(*day, 8, 10), direction="from_survivor"),
        event(local(*day, 8, 20), channel="phone", kind="call"),
        event(local(*day, 8, 30), topic="medical_emergency"),
    ]
    at = local(*day, 9, 0)
    assert check(event(at), terms, not_counted) == []
    counted = [*not_counted, event(local(*day, 8, 40))]
    assert codes(check(event(at), terms, counted)) == ["over_cap"]


def test_cap_in_the_survivors_direction_ignores_the_other_parent() -> None:
    terms = capped(1, direction="from_survivor")
    day = (2025, 3, 3)
    others = [event(local(*day, hour, 0)) for hour in (7, 8)]
    assert check(event(local(*day, 9, 0)), terms, others) == []
    mine = [event(local(*day, 8, 0), direction="from_survivor")]
    over = check(event(local(*day, 9, 0), direction="from_survivor"), terms, mine)
    assert codes(over) == ["over_cap"]
    assert over[0].message.startswith("The survivor got in touch more often than agreed")
    assert "allows" not in over[0].message and "That is common" in over[0].message


def test_cap_ignores_later_events_and_the_event_itself() -> None:
    terms = capped(1)
    this = event(local(2025, 3, 3, 9, 0))
    later = [event(local(2025, 3, 3, 10, 0)), event(local(2025, 3, 3, 11, 0))]
    assert check(this, terms, [this, *later]) == []
    # A second, identical logged message is a real second message.
    assert codes(check(this, terms, [this, this, *later])) == ["over_cap"]


def test_cap_ignores_messages_from_before_the_agreement_took_effect() -> None:
    terms = capped(1, effective_from=utc(2025, 3, 3, 12, 0))
    before = [event(utc(2025, 3, 3, 11, 0))]
    assert check(event(utc(2025, 3, 3, 13, 0)), terms, before) == []
    after = [event(utc(2025, 3, 3, 12, 30))]
    assert codes(check(event(utc(2025, 3, 3, 13, 0)), terms, after)) == ["over_cap"]


def test_cap_applies_to_messages_not_calls() -> None:
    terms = capped(0)
    assert check(event(local(2025, 3, 3, 9, 0), channel="phone", kind="call"), terms) == []


# --------------------------------------------------------------------------------------------------
# Effective period


def strict_terms(**more: Any) -> Agreement:
    """Terms that an evening text about money breaks several times over."""
    return agreement(
        forbidden_channels={Direction.TO_SURVIVOR: frozenset({Channel.TEXT})},
        time_windows=(Window(days=EVERY_DAY, start=hm("09:00"), end=hm("10:00")),),
        permitted_topics=frozenset({"school"}),
        frequency_cap=Cap(limit=0, per=CapPeriod.DAY),
        **more,
    )


def test_event_before_the_agreement_reports_only_that() -> None:
    terms = strict_terms(effective_from=utc(2025, 3, 3, 12, 0))
    result = check(event(utc(2025, 3, 3, 11, 59), channel="text", topic="money"), terms)
    assert codes(result) == ["before_agreement"]
    assert result[0].term == "effective_period"
    assert "11:59 on Monday 3 March 2025" in result[0].message
    assert "12:00 on Monday 3 March 2025" in result[0].message


def test_event_at_or_after_the_end_reports_only_that() -> None:
    end = utc(2025, 3, 31, 0, 0)
    terms = strict_terms(effective_to=end)
    result = check(event(end, channel="text", topic="money"), terms)
    assert codes(result) == ["after_agreement"]
    assert result[0].term == "effective_period"
    assert "ended at 01:00 on Monday 31 March 2025" in result[0].message  # BST by then
    assert codes(check(event(utc(2025, 6, 1, 9, 0)), terms)) == ["after_agreement"]


def test_agreement_is_in_force_from_its_first_instant_to_just_before_its_end() -> None:
    terms = agreement(
        effective_from=utc(2025, 3, 3, 12, 0),
        effective_to=utc(2025, 3, 4, 12, 0),
        permitted_channels={"to_survivor": {"app"}},
    )
    assert check(event(utc(2025, 3, 3, 12, 0)), terms) == []
    last = utc(2025, 3, 4, 12, 0) - dt.timedelta(microseconds=1)
    assert check(event(last), terms) == []
    # Inside the period, the terms are checked.
    assert codes(check(event(last, channel="email"), terms)) == ["channel_not_permitted"]


# --------------------------------------------------------------------------------------------------
# Emergencies


def test_ordinary_contact_breaks_window_cap_and_topic() -> None:
    terms = strict_terms()
    result = check(event(local(2025, 3, 3, 3, 0), topic="money"), terms)
    assert codes(result) == ["outside_window", "over_cap", "forbidden_topic"]


def test_emergency_topic_is_exempt_from_window_cap_and_topic() -> None:
    terms = strict_terms(emergency_topics=frozenset({"medical_emergency"}))
    prior = [event(local(2025, 3, 3, 2, minute), topic="money") for minute in (0, 10, 20)]
    assert check(event(local(2025, 3, 3, 3, 0), topic="medical_emergency"), terms, prior) == []


def test_emergency_topic_is_not_exempt_from_a_forbidden_channel() -> None:
    terms = strict_terms(emergency_topics=frozenset({"medical_emergency"}))
    result = check(event(local(2025, 3, 3, 3, 0), channel="text", topic="medical_emergency"), terms)
    assert codes(result) == ["forbidden_channel"]


def test_emergency_topic_is_not_exempt_from_the_permitted_channels() -> None:
    terms = agreement(
        permitted_channels={"to_survivor": {"app"}},
        emergency_topics=frozenset({"medical_emergency"}),
    )
    result = check(
        event(local(2025, 3, 3, 3, 0), channel="email", topic="medical_emergency"), terms
    )
    assert codes(result) == ["channel_not_permitted"]


# --------------------------------------------------------------------------------------------------
# Channels and topics


def test_forbidden_beats_permitted() -> None:
    terms = agreement(
        permitted_channels={"to_survivor": {"app", "text"}},
        forbidden_channels={"to_survivor": {"text"}},
    )
    result = check(event(local(2025, 3, 3, 9, 0), channel="text"), terms)
    assert result == [
        Violation(
            term="forbidden_channels",
            code="forbidden_channel",
            message="Sent by text message, which the agreement forbids from the other parent.",
        )
    ]


def test_channel_outside_a_non_empty_permitted_set_is_not_permitted() -> None:
    terms = agreement(permitted_channels={"to_survivor": {"app", "third_party"}})
    assert check(event(local(2025, 3, 3, 9, 0), channel="app"), terms) == []
    result = check(event(local(2025, 3, 3, 9, 0), channel="phone", kind="call"), terms)
    assert codes(result) == ["channel_not_permitted"]
    assert result[0].term == "permitted_channels"
    assert result[0].message == (
        "Called by phone, which is not a channel the agreement permits from the other parent "
        "(permitted: the co-parenting app, a third party)."
    )


def test_empty_permitted_set_allows_any_channel_not_forbidden() -> None:
    terms = agreement(
        permitted_channels={"to_survivor": {"app"}},
        forbidden_channels={"from_survivor": {"social_media"}},
    )
    assert (
        check(event(local(2025, 3, 3, 9, 0), channel="email", direction="from_survivor"), terms)
        == []
    )
    result = check(
        event(local(2025, 3, 3, 9, 0), channel="social_media", direction="from_survivor"), terms
    )
    assert codes(result) == ["forbidden_channel"]
    assert result[0].message == (
        "The survivor got in touch outside what was agreed: on social media. That is common; it "
        "may be worth talking about support for moments like this."
    )


def test_channel_rules_are_per_direction() -> None:
    terms = agreement(forbidden_channels={"to_survivor": {"in_person"}})
    visit = local(2025, 3, 3, 9, 0)
    assert codes(check(event(visit, channel="in_person", kind="in_person"), terms)) == [
        "forbidden_channel"
    ]
    assert (
        check(event(visit, channel="in_person", kind="in_person", direction="from_survivor"), terms)
        == []
    )


def test_topic_outside_the_permitted_topics_is_forbidden() -> None:
    terms = agreement(permitted_topics=frozenset({"child_logistics", "health", "school"}))
    assert check(event(local(2025, 3, 3, 9, 0), topic="school"), terms) == []
    result = check(event(local(2025, 3, 3, 9, 0), topic="reconciliation"), terms)
    assert codes(result) == ["forbidden_topic"]
    assert result[0].term == "permitted_topics"
    assert "'reconciliation'" in result[0].message
    assert "child_logistics, health, school" in result[0].message


def test_empty_permitted_topics_allow_any_topic() -> None:
    assert check(event(local(2025, 3, 3, 9, 0), topic="anything_at_all"), agreement()) == []


def test_violations_come_in_a_fixed_order() -> None:
    terms = strict_terms()
    result = check(event(local(2025, 3, 3, 3, 0), channel="text", topic="money"), terms)
    assert codes(result) == ["forbidden_channel", "outside_window", "over_cap", "forbidden_topic"]


# --------------------------------------------------------------------------------------------------
# Handover


def with_handover(**handover: Any) -> Agreement:
    fields: dict[str, Any] = {
        "place": "the library car park",
        "weekdays": frozenset({FRI}),
        "time": hm("17:00"),
        "tolerance_minutes": 15,
        "no_direct_contact": True,
    }
    fields.update(handover)
    return agreement(
        handover=Handover(**fields),
        forbidden_channels={"to_survivor": {"in_person"}},
        time_windows=(Window(days=EVERY_DAY, start=hm("09:00"), end=hm("10:00")),),
        permitted_topics=frozenset({"school"}),
    )


def handover_at(at: dt.datetime, **flags: bool) -> ContactEvent:
    return event(at, channel="in_person", kind="handover", topic="handover", **flags)


@pytest.mark.parametrize("minute", [45, 59])
def test_handover_within_tolerance_before_is_fine(minute: int) -> None:
    assert check(handover_at(local(2025, 3, 7, 16, minute)), with_handover()) == []


@pytest.mark.parametrize("minute", [0, 15])
def test_handover_within_tolerance_after_is_fine(minute: int) -> None:
    assert check(handover_at(local(2025, 3, 7, 17, minute)), with_handover()) == []


def test_handover_past_the_tolerance_is_late() -> None:
    result = check(handover_at(local(2025, 3, 7, 17, 16)), with_handover())
    assert codes(result) == ["handover_late"]
    assert result[0].term == "handover"
    assert result[0].message == (
        "Handover at the library car park at 17:16 on Friday 7 March 2025 (Europe/London time), "
        "16 minutes after the agreed time of 17:00 (allowed: 15 minutes either way)."
    )


def test_handover_too_early_is_reported_as_early() -> None:
    result = check(handover_at(local(2025, 3, 7, 16, 40)), with_handover())
    assert codes(result) == ["handover_late"]
    assert "20 minutes before the agreed time of 17:00" in result[0].message


def test_handover_on_a_non_handover_day() -> None:
    result = check(handover_at(local(2025, 3, 6, 17, 0)), with_handover())
    assert codes(result) == ["handover_late"]
    assert "Thursday 6 March 2025" in result[0].message
    assert "not an agreed handover day (agreed: Friday at 17:00)" in result[0].message


def test_handover_time_is_local_across_spring_forward() -> None:
    terms = with_handover(weekdays=frozenset({SUN}), time=hm("10:00"))
    # 09:05 UTC on 30 March 2025 is 10:05 BST.
    assert check(handover_at(utc(2025, 3, 30, 9, 5)), terms) == []
    result = check(handover_at(utc(2025, 3, 30, 10, 5)), terms)
    assert codes(result) == ["handover_late"]
    assert "65 minutes after" in result[0].message


def test_handover_just_after_midnight_counts_for_the_previous_evening() -> None:
    terms = with_handover(time=hm("23:55"))
    # Saturday 00:05 is ten minutes after Friday's 23:55 handover.
    assert check(handover_at(local(2025, 3, 8, 0, 5)), terms) == []
    assert codes(check(handover_at(local(2025, 3, 8, 0, 11)), terms)) == ["handover_late"]


def test_missed_handover_reports_missed_not_late() -> None:
    result = check(handover_at(local(2025, 3, 6, 3, 0), handover_missed=True), with_handover())
    assert codes(result) == ["handover_missed"]
    assert result[0].message == (
        "The handover at the library car park due on Thursday 6 March 2025 was missed."
    )


def test_direct_contact_at_handover_breaks_a_no_direct_contact_term() -> None:
    at = local(2025, 3, 7, 17, 0)
    result = check(handover_at(at, direct_contact_at_handover=True), with_handover())
    assert codes(result) == ["handover_direct_contact"]
    assert result[0].term == "handover"
    late = check(
        handover_at(at + dt.timedelta(hours=1), direct_contact_at_handover=True), with_handover()
    )
    assert codes(late) == ["handover_late", "handover_direct_contact"]


def test_direct_contact_at_handover_is_fine_when_not_ruled_out() -> None:
    terms = with_handover(no_direct_contact=False)
    at = local(2025, 3, 7, 17, 0)
    assert check(handover_at(at, direct_contact_at_handover=True), terms) == []


def test_handover_is_judged_by_the_handover_protocol_not_the_contact_terms() -> None:
    terms = with_handover()
    # In person, outside the contact window and off-topic: the handover protocol governs it.
    assert check(handover_at(local(2025, 3, 7, 17, 5)), terms) == []
    # The same meeting logged as in-person contact breaks the contact terms.
    visit = event(local(2025, 3, 7, 17, 5), channel="in_person", kind="in_person", topic="handover")
    assert codes(check(visit, terms)) == ["forbidden_channel", "outside_window", "forbidden_topic"]


def test_without_a_handover_protocol_no_handover_term_can_break() -> None:
    assert check(handover_at(local(2025, 3, 6, 3, 0), handover_missed=True), agreement()) == []


def test_handover_flags_are_refused_on_other_kinds() -> None:
    with pytest.raises(TermsError, match="handover_missed: only applies"):
        event(local(2025, 3, 7, 17, 0), handover_missed=True)
    with pytest.raises(TermsError, match="direct_contact_at_handover: only applies"):
        event(local(2025, 3, 7, 17, 0), kind="in_person", direct_contact_at_handover=True)


# --------------------------------------------------------------------------------------------------
# Child contact


def with_child_windows(**more: Any) -> Agreement:
    return agreement(
        child_contact_windows=(Window(days=EVERY_DAY, start=hm("18:00"), end=hm("18:30")),),
        **more,
    )


def child_call(at: dt.datetime) -> ContactEvent:
    return event(at, channel="phone", kind="child_contact", topic="goodnight_call")


def test_child_contact_inside_the_window_is_fine() -> None:
    assert check(child_call(local(2025, 3, 3, 18, 10)), with_child_windows()) == []


@pytest.mark.parametrize("at", [local(2025, 3, 3, 18, 30), local(2025, 3, 3, 17, 59)])
def test_child_contact_outside_the_window_is_a_breach(at: dt.datetime) -> None:
    result = check(child_call(at), with_child_windows())
    assert codes(result) == ["child_contact_outside_window"]
    assert result[0].term == "child_contact_windows"
    assert "outside the agreed child-contact times (every day 18:00 to 18:30)" in result[0].message


def test_child_contact_is_judged_by_its_own_windows_not_the_contact_terms() -> None:
    terms = with_child_windows(
        forbidden_channels={"to_survivor": {"phone"}},
        time_windows=(Window(days=EVERY_DAY, start=hm("09:00"), end=hm("10:00")),),
        permitted_topics=frozenset({"school"}),
    )
    assert check(child_call(local(2025, 7, 1, 18, 15)), terms) == []


def test_child_contact_windows_are_local_in_summer() -> None:
    # 17:15 UTC is 18:15 BST.
    assert check(child_call(utc(2025, 7, 1, 17, 15)), with_child_windows()) == []
    assert codes(check(child_call(utc(2025, 7, 1, 18, 15)), with_child_windows())) == [
        "child_contact_outside_window"
    ]


def test_child_contact_is_unrestricted_without_windows() -> None:
    assert check(child_call(local(2025, 3, 3, 3, 0)), agreement()) == []


# --------------------------------------------------------------------------------------------------
# Which version is in force


def test_agreement_in_force_picks_the_version_containing_the_time() -> None:
    first = agreement(effective_from=utc(2025, 1, 1), effective_to=utc(2025, 6, 1))
    second = agreement(effective_from=utc(2025, 6, 1), effective_to=utc(2026, 1, 1))
    versions = [first, second]
    assert agreement_in_force(utc(2024, 12, 31, 23, 59), versions) is None
    assert agreement_in_force(utc(2025, 1, 1), versions) is first
    assert agreement_in_force(utc(2025, 5, 31, 23, 59), versions) is first
    assert agreement_in_force(utc(2025, 6, 1), versions) is second
    assert agreement_in_force(utc(2026, 1, 1), versions) is None
    assert agreement_in_force(utc(2025, 3, 1), []) is None


def test_agreement_in_force_latest_start_wins_on_overlap_whatever_the_order() -> None:
    old = agreement(effective_from=utc(2025, 1, 1))
    new = agreement(effective_from=utc(2025, 3, 1), effective_to=utc(2025, 4, 1))
    for versions in ([old, new], [new, old]):
        assert agreement_in_force(utc(2025, 2, 1), versions) is old
        assert agreement_in_force(utc(2025, 3, 15), versions) is new
        assert agreement_in_force(utc(2025, 4, 1), versions) is old


def test_agreement_in_force_tie_goes_to_the_last_listed() -> None:
    a = agreement(permitted_topics=frozenset({"a"}))
    b = agreement(permitted_topics=frozenset({"b"}))
    assert agreement_in_force(utc(2025, 3, 1), [a, b]) is b
    assert agreement_in_force(utc(2025, 3, 1), [b, a]) is a


def test_agreement_in_force_refuses_a_naive_time() -> None:
    with pytest.raises(TermsError, match="event_time"):
        agreement_in_force(dt.datetime(2025, 3, 1), [agreement()])


# --------------------------------------------------------------------------------------------------
# Serialisation


def full_agreement() -> Agreement:
    return Agreement(
        effective_from=local(2025, 3, 3, 9, 0),
        effective_to=utc(2026, 3, 3),
        timezone=LONDON,
        permitted_channels={Direction.TO_SURVIVOR: frozenset({Channel.APP, Channel.THIRD_PARTY})},
        forbidden_channels={
            Direction.TO_SURVIVOR: frozenset({Channel.TEXT, Channel.IN_PERSON}),
            Direction.FROM_SURVIVOR: frozenset({Channel.SOCIAL_MEDIA}),
        },
        permitted_topics=frozenset({"child_logistics", "health", "school", "holiday plans"}),
        time_windows=(
            Window(days=frozenset({MON, WED, FRI}), start=hm("18:00"), end=hm("19:30")),
            Window(days=frozenset({SAT}), start=hm("22:00"), end=hm("00:30")),
        ),
        frequency_cap=Cap(limit=3, per=CapPeriod.WEEK),
        emergency_topics=frozenset({"medical_emergency"}),
        handover=Handover(
            place="the police station",
            weekdays=frozenset({FRI, SUN}),
            time=hm("17:00"),
            tolerance_minutes=10,
            supervised=True,
            no_direct_contact=True,
        ),
        child_contact_windows=(Window(days=EVERY_DAY, start=hm("18:00"), end=hm("18:30")),),
    )


def test_agreement_round_trips_through_json() -> None:
    original = full_agreement()
    data = json.loads(json.dumps(original.to_dict()))
    restored = Agreement.from_dict(data)
    assert restored == original
    assert restored.to_dict() == original.to_dict()
    assert data["frequency_cap"] == {"limit": 3, "per": "week", "direction": "to_survivor"}
    assert data["time_windows"][1] == {"days": [5], "start": "22:00:00", "end": "00:30:00"}
    assert data["permitted_channels"] == {
        "to_survivor": ["app", "third_party"],
        "from_survivor": [],
    }


def test_agreement_to_json_is_canonical() -> None:
    assert full_agreement().to_json() == full_agreement().to_json()
    assert json.loads(full_agreement().to_json()) == full_agreement().to_dict()


def test_agreement_from_dict_fills_in_defaults() -> None:
    minimal = Agreement.from_dict({"effective_from": "2025-03-03T09:00:00Z", "timezone": LONDON})
    assert minimal == Agreement(effective_from=utc(2025, 3, 3, 9), timezone=LONDON)
    assert minimal.frequency_cap is None
    assert minimal.permitted_channels == {d: frozenset() for d in Direction}


def test_constructor_accepts_strings_and_copies_the_channel_maps() -> None:
    channels = {"to_survivor": ["app"]}
    terms = agreement(permitted_channels=channels)
    channels["to_survivor"].append("text")
    assert terms.permitted_channels[Direction.TO_SURVIVOR] == frozenset({Channel.APP})
    assert terms == agreement(permitted_channels={Direction.TO_SURVIVOR: frozenset({Channel.APP})})


def test_event_and_violation_round_trip() -> None:
    original = event(
        local(2025, 3, 7, 17, 30),
        channel="in_person",
        kind="handover",
        topic="handover",
        direct_contact_at_handover=True,
    )
    assert ContactEvent.from_dict(json.loads(json.dumps(original.to_dict()))) == original
    violation = check(original, with_handover())[0]
    assert Violation.from_dict(json.loads(json.dumps(violation.to_dict()))) == violation
    assert violation.to_dict()["code"] == "handover_late"


def test_a_violation_carries_the_values_its_message_was_written_from() -> None:
    """Each finding keeps plain JSON values beside its English sentence, so it can be written
    again in the reader's language."""
    window = (Window(days=frozenset({MON, TUE}), start=hm("18:00"), end=hm("19:00")),)
    contact = agreement(
        permitted_channels={"to_survivor": {"app", "email"}},
        time_windows=window,
        frequency_cap=Cap(limit=1, per="day"),
        permitted_topics=frozenset({"school", "health"}),
    )
    first = event(local(2025, 3, 3, 18, 10), topic="school")
    found = check(
        event(local(2025, 3, 3, 21, 5), channel="phone", kind="call", topic="money"),
        contact,
        [first],
    )
    assert {v.code: v.params for v in found} == {
        "channel_not_permitted": {
            "kind": "call",
            "channel": "phone",
            "direction": "to_survivor",
            "permitted": ["app", "email"],
        },
        "outside_window": {
            "kind": "call",
            "time": "21:05",
            "date": "2025-03-03",
            "timezone": LONDON,
            "windows": [{"days": [MON, TUE], "start": "18:00", "end": "19:00"}],
        },
        "forbidden_topic": {"topic": "money", "permitted": ["health", "school"]},
    }
    over = check(event(local(2025, 3, 3, 18, 20), topic="school"), contact, [first])
    assert [v.params for v in over] == [
        {
            "count": 2,
            "direction": "to_survivor",
            "per": "day",
            "start_date": "2025-03-03",
            "limit": 1,
            "timezone": LONDON,
        }
    ]
    late = check(event(local(2025, 3, 7, 17, 40), kind="handover", topic="school"), with_handover())
    assert late[0].params == {
        "place": "the library car park",
        "time": "17:40",
        "date": "2025-03-07",
        "timezone": LONDON,
        "agreed_time": "17:00",
        "minutes": 40,
        "early": False,
        "tolerance": 15,
    }
    off_day = check(
        event(local(2025, 3, 6, 17, 0), kind="handover", topic="school"), with_handover()
    )
    assert off_day[0].params["agreed_days"] == [FRI]
    missed = check(
        event(local(2025, 3, 7, 17, 0), kind="handover", topic="school", handover_missed=True),
        with_handover(place=""),
    )
    assert missed[0].params == {"place": "", "date": "2025-03-07"}
    before = check(event(utc(2023, 12, 31, 23, 30)), agreement())
    assert before[0].params == {
        "time": "23:30",
        "date": "2023-12-31",
        "start_time": "00:00",
        "start_date": "2024-01-01",
        "timezone": LONDON,
    }


def test_a_violation_round_trips_with_its_params_and_reads_old_ones_without() -> None:
    violation = check(
        event(local(2025, 3, 3, 9, 0), channel="text"),
        agreement(forbidden_channels={"to_survivor": {"text"}}),
    )[0]
    data = json.loads(json.dumps(violation.to_dict()))
    assert data["params"] == {"kind": "message", "channel": "text", "direction": "to_survivor"}
    restored = Violation.from_dict(data)
    assert restored == violation and restored.params == violation.params
    old = {"term": "forbidden_channels", "code": "forbidden_channel", "message": violation.message}
    read = Violation.from_dict(old)
    assert read == violation and read.params == {}
    assert read.to_dict() == old  # an old row is written back as it was


@pytest.mark.parametrize("params", [["kind"], {"when": dt.time(9)}, {1: "x"}, {"n": float("nan")}])
def test_violation_params_must_be_plain_json(params: Any) -> None:
    data = {"term": "handover", "code": "handover_late", "message": "x", "params": params}
    with pytest.raises(TermsError) as error:
        Violation.from_dict(data)
    assert error.value.field == "params"


def valid_agreement_dict() -> dict[str, Any]:
    return full_agreement().to_dict()


def set_path(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


@pytest.mark.parametrize(
    ("path", "value", "field", "problem"),
    [
        (
            ("permitted_channels", "to_survivor"),
            ["app", "fax"],
            "permitted_channels.to_survivor",
            "unknown channel 'fax'",
        ),
        (
            ("forbidden_channels", "from_survivor"),
            ["pigeon"],
            "forbidden_channels.from_survivor",
            "unknown channel 'pigeon'",
        ),
        (
            ("permitted_channels", "to_children"),
            ["app"],
            "permitted_channels",
            "unknown direction 'to_children'",
        ),
        (
            ("permitted_channels", "to_survivor"),
            "app",
            "permitted_channels.to_survivor",
            "must be a list of channels",
        ),
        (("time_windows", 0, "days"), [], "time_windows[0].days", "at least one day"),
        (("time_windows", 1, "days"), [7], "time_windows[1].days", "7 is not a weekday"),
        (("time_windows", 0, "days"), [True], "time_windows[0].days", "True is not a weekday"),
        (("time_windows", 1, "end"), "22:00", "time_windows[1].end", "must differ from start"),
        (("time_windows", 0, "start"), "25:00", "time_windows[0].start", "not a time of day"),
        (
            ("time_windows", 0, "start"),
            "18:00+01:00",
            "time_windows[0].start",
            "without a time zone",
        ),
        (("time_windows", 0, "colour"), "red", "time_windows[0].colour", "unknown field"),
        (
            ("child_contact_windows", 0, "end"),
            "18:00",
            "child_contact_windows[0].end",
            "must differ from start",
        ),
        (("frequency_cap", "limit"), -1, "frequency_cap.limit", "at least 0"),
        (("frequency_cap", "limit"), True, "frequency_cap.limit", "whole number"),
        (("frequency_cap", "per"), "month", "frequency_cap.per", "unknown period 'month'"),
        (
            ("frequency_cap", "direction"),
            "sideways",
            "frequency_cap.direction",
            "unknown direction",
        ),
        (("frequency_cap", "every"), 2, "frequency_cap.every", "unknown field"),
        (("handover", "tolerance_minutes"), -5, "handover.tolerance_minutes", "at least 0"),
        (("handover", "weekdays"), [], "handover.weekdays", "at least one day"),
        (("handover", "supervised"), "yes", "handover.supervised", "true or false"),
        (("handover",), "friday", "handover", "must be an object"),
        (("colour",), "blue", "colour", "unknown field"),
        (("effective_from",), "2025-03-03T09:00:00", "effective_from", "time zone or UTC offset"),
        (("effective_from",), "next tuesday", "effective_from", "not an ISO 8601"),
        (("effective_to",), "2025-03-03T09:00:00+00:00", "effective_to", "after effective_from"),
        (("timezone",), "Mars/Olympus_Mons", "timezone", "unknown IANA time zone"),
        (("permitted_topics",), ["school", ""], "permitted_topics", "must not be empty"),
        (("emergency_topics",), "medical_emergency", "emergency_topics", "must be a list"),
    ],
)
def test_agreement_from_dict_names_the_bad_field(
    path: tuple[Any, ...], value: Any, field: str, problem: str
) -> None:
    data = valid_agreement_dict()
    Agreement.from_dict(data)  # valid before the change
    set_path(data, path, value)
    with pytest.raises(TermsError) as caught:
        Agreement.from_dict(data)
    assert caught.value.field == field
    assert problem in caught.value.problem
    assert str(caught.value).startswith(f"{field}: ")
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("missing", ["effective_from", "timezone"])
def test_agreement_from_dict_requires_start_and_zone(missing: str) -> None:
    data = valid_agreement_dict()
    del data[missing]
    with pytest.raises(TermsError, match=f"^{missing}: is required$"):
        Agreement.from_dict(data)


def test_agreement_from_dict_refuses_a_non_object() -> None:
    with pytest.raises(TermsError, match="^agreement: must be an object"):
        Agreement.from_dict(["not", "a", "dict"])


def test_nested_from_dict_used_alone_names_its_own_fields() -> None:
    with pytest.raises(TermsError, match="^limit: must be at least 0"):
        Cap.from_dict({"limit": -2, "per": "day"})
    with pytest.raises(TermsError, match="^end: must differ from start"):
        Window.from_dict({"days": [0], "start": "10:00", "end": "10:00"})
    assert Cap.from_dict({"limit": 2, "per": "week"}) == Cap(2, CapPeriod.WEEK)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"channel": "fax"}, "channel"),
        ({"direction": "sideways"}, "direction"),
        ({"kind": "letter"}, "kind"),
        ({"occurred_at": "2025-03-03T09:00:00"}, "occurred_at"),
        ({"topic": 3}, "topic"),
        ({"mood": "angry"}, "mood"),
        ({"handover_missed": True}, "handover_missed"),
    ],
)
def test_event_from_dict_names_the_bad_field(change: dict[str, Any], field: str) -> None:
    data = event(utc(2025, 3, 3, 9)).to_dict()
    ContactEvent.from_dict(data)
    data.update(change)
    with pytest.raises(TermsError) as caught:
        ContactEvent.from_dict(data)
    assert caught.value.field == field


def test_violation_from_dict_refuses_an_unknown_code() -> None:
    with pytest.raises(TermsError, match="^code: unknown code 'late_ish'"):
        Violation.from_dict({"term": "handover", "code": "late_ish", "message": "x"})


def test_constructors_validate_too() -> None:
    with pytest.raises(TermsError, match="^days: must name at least one day"):
        Window(days=frozenset(), start=hm("10:00"), end=hm("11:00"))
    with pytest.raises(TermsError, match="^limit: must be at least 0"):
        Cap(limit=-1, per=CapPeriod.DAY)
    with pytest.raises(TermsError, match="^effective_from: must include a time zone"):
        Agreement(effective_from=dt.datetime(2025, 3, 3), timezone=LONDON)
    with pytest.raises(TermsError, match=r"^time_windows\[0\]: must be a Window"):
        agreement(time_windows=({"days": [0], "start": "10:00", "end": "11:00"},))


# --------------------------------------------------------------------------------------------------
# Properties

ZONES = [
    "Europe/London",
    "America/New_York",
    "Australia/Sydney",
    "Asia/Kolkata",
    "America/St_Johns",
    "UTC",
]
TOPICS = ["child_logistics", "health", "school", "holiday_plans"]
CHANNELS = list(Channel)
DIRECTIONS = list(Direction)


def existing_local(moment: dt.datetime, zone: ZoneInfo) -> dt.datetime | None:
    """``moment`` (naive wall time) as an aware time in ``zone``, or None if it was skipped."""
    aware = moment.replace(tzinfo=zone, fold=0)
    if aware.astimezone(UTC).astimezone(zone).replace(tzinfo=None) != moment.replace(fold=0):
        return None
    return aware


@st.composite
def window_around(draw: st.DrawFn, wall: dt.datetime) -> Window:
    """A window that contains the naive wall-clock time ``wall``, possibly crossing midnight."""
    before = draw(st.integers(0, 86_398))
    after = draw(st.integers(1, 86_399 - before))
    start = wall - dt.timedelta(seconds=before)
    end = wall + dt.timedelta(seconds=after)
    extra = draw(st.frozensets(st.integers(0, 6)))
    return Window(days=extra | {start.weekday()}, start=start.time(), end=end.time())


@st.composite
def compliant_cases(draw: st.DrawFn) -> tuple[ContactEvent, Agreement]:
    """An event and an agreement whose every term the event keeps."""
    zone_name = draw(st.sampled_from(ZONES))
    zone = ZoneInfo(zone_name)
    wall = draw(st.datetimes(min_value=dt.datetime(2000, 1, 1), max_value=dt.datetime(2037, 12, 1)))
    at = existing_local(wall, zone)
    assume(at is not None)
    assert at is not None
    channel = draw(st.sampled_from(CHANNELS))
    direction = draw(st.sampled_from(DIRECTIONS))
    topic = draw(st.sampled_from(TOPICS))
    kind = draw(st.sampled_from(list(EventKind)))

    permitted: dict[Direction, frozenset[Channel]] = {}
    forbidden: dict[Direction, frozenset[Channel]] = {}
    for other in DIRECTIONS:
        if other is direction:
            chosen = draw(st.frozensets(st.sampled_from(CHANNELS)))
            permitted[other] = chosen | {channel} if draw(st.booleans()) else frozenset()
            others = [c for c in CHANNELS if c is not channel]
            forbidden[other] = draw(st.frozensets(st.sampled_from(others)))
        else:
            permitted[other] = draw(st.frozensets(st.sampled_from(CHANNELS)))
            forbidden[other] = draw(st.frozensets(st.sampled_from(CHANNELS)))
    topics = draw(st.frozensets(st.sampled_from(TOPICS)))
    permitted_topics = topics | {topic} if draw(st.booleans()) else frozenset()
    cap = draw(
        st.none()
        | st.builds(
            Cap,
            limit=st.integers(1, 10),
            per=st.sampled_from(list(CapPeriod)),
            direction=st.sampled_from(DIRECTIONS),
        )
    )
    handover = Handover(
        place=draw(st.sampled_from(["", "the library"])),
        weekdays=draw(st.frozensets(st.integers(0, 6))) | {wall.weekday()},
        time=wall.time(),
        tolerance_minutes=draw(st.integers(0, 60)),
        supervised=draw(st.booleans()),
        no_direct_contact=draw(st.booleans()),
    )
    # Elapsed time is counted in UTC: aware arithmetic in a zone counts wall-clock time, and
    # "an hour before" 03:00 on a spring-forward night would land in the gap, after the event.
    instant = at.astimezone(UTC)
    start = instant - dt.timedelta(seconds=draw(st.integers(0, 10**8)))
    end = draw(st.none() | st.integers(1, 10**8).map(lambda s: instant + dt.timedelta(seconds=s)))
    terms = Agreement(
        effective_from=start,
        effective_to=end,
        timezone=zone_name,
        permitted_channels=permitted,
        forbidden_channels=forbidden,
        permitted_topics=permitted_topics,
        time_windows=tuple(draw(st.lists(window_around(wall), max_size=3))),
        frequency_cap=cap,
        emergency_topics=draw(st.frozensets(st.sampled_from(["medical_emergency", "school"]))),
        handover=handover,
        child_contact_windows=tuple(draw(st.lists(window_around(wall), max_size=3))),
    )
    return event(at.astimezone(UTC), channel, direction, topic, kind), terms


@given(compliant_cases())
def test_property_event_keeping_every_term_has_no_violations(
    case: tuple[ContactEvent, Agreement],
) -> None:
    contact, terms = case
    assert check(contact, terms, []) == []


@given(compliant_cases())
def test_property_agreement_round_trips_through_json(case: tuple[ContactEvent, Agreement]) -> None:
    _, terms = case
    restored = Agreement.from_dict(json.loads(terms.to_json()))
    assert restored == terms
    assert restored.to_json() == terms.to_json()


@given(
    days=st.frozensets(st.integers(0, 6), min_size=1),
    start=st.times(),
    end=st.times(),
    wall=st.datetimes(min_value=dt.datetime(2000, 1, 1), max_value=dt.datetime(2037, 12, 1)),
)
def test_property_window_matches_its_weekly_intervals(
    days: frozenset[int], start: dt.time, end: dt.time, wall: dt.datetime
) -> None:
    assume(start != end)
    window = Window(days=days, start=start, end=end)
    length = 1 if end <= start else 0
    inside_an_interval = any(
        base.weekday() in days
        and dt.datetime.combine(base, start)
        <= wall
        < dt.datetime.combine(base + dt.timedelta(days=length), end)
        for base in (wall.date(), wall.date() - dt.timedelta(days=1))
    )
    assert window.contains(wall) is inside_an_interval


@given(
    day=st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2037, 12, 1)),
    seconds=st.lists(st.integers(3 * 3600, 86_399), min_size=1, max_size=8, unique=True),
    limit=st.integers(0, 6),
    per=st.sampled_from(list(CapPeriod)),
)
def test_property_cap_breaks_exactly_when_the_count_exceeds_the_limit(
    day: dt.date, seconds: list[int], limit: int, per: CapPeriod
) -> None:
    # Times from 03:00 local, so that none falls in a London clock change.
    zone = ZoneInfo(LONDON)
    times = sorted(
        dt.datetime.combine(day, dt.time(0), tzinfo=zone) + dt.timedelta(seconds=s) for s in seconds
    )
    *prior, last = [event(moment) for moment in times]
    terms = capped(limit, per=per, effective_from=utc(1999, 1, 1))
    result = check(last, terms, prior)
    assert ("over_cap" in codes(result)) is (len(times) > limit)
    # Pure and order-independent: the same answer for the log in any order, inputs untouched.
    assert check(last, terms, list(reversed(prior))) == result
    assert [p.occurred_at for p in prior] == times[:-1]
