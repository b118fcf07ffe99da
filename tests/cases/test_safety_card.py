"""The case page starts with safety: can we contact the survivor now, how, voicemail, code word,
and the next safe window — in the survivor's own time."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from caseflow.cases.contact import contact_now
from tests.conftest import canary

pytestmark = pytest.mark.django_db

# The cast's profile: phone, weekdays 10:00-12:00 in London, voicemail not safe.
WEDNESDAY_1030_LONDON = dt.datetime(2026, 3, 4, 10, 30, tzinfo=dt.UTC)  # GMT in March
WEDNESDAY_1300_LONDON = dt.datetime(2026, 3, 4, 13, 0, tzinfo=dt.UTC)
FRIDAY_1300_LONDON = dt.datetime(2026, 3, 6, 13, 0, tzinfo=dt.UTC)


def test_inside_a_window_it_says_until_when(cast):
    answer = contact_now(cast.case.safe_contact, WEDNESDAY_1030_LONDON)
    assert answer.safe
    assert answer.until.strftime("%H:%M") == "12:00"


def test_outside_it_gives_the_next_window_even_over_a_weekend(cast):
    answer = contact_now(cast.case.safe_contact, WEDNESDAY_1300_LONDON)
    assert not answer.safe
    assert answer.next_start.strftime("%a %H:%M") == "Thu 10:00"
    answer = contact_now(cast.case.safe_contact, FRIDAY_1300_LONDON)
    assert answer.next_start.strftime("%a %d %H:%M") == "Mon 09 10:00"
    assert answer.next_end.strftime("%H:%M") == "12:00"


def test_the_case_page_starts_with_the_card(cast, login):
    with time_machine.travel(WEDNESDAY_1300_LONDON, tick=False):
        page = (
            login(cast.assigned)
            .get(reverse("cases:detail", args=[cast.case.public_id]))
            .content.decode()
        )
    card = page.index('id="safe-h"')
    assert card < page.index('class="row case-facts"')
    assert "Not a safe time to contact now" in page
    assert "Next safe window: Thu 5 Mar, 10:00–12:00 their time." in page
    assert "Do not leave a voicemail" in page
    assert f"code {canary(cast.case)}" in page[card : page.index('class="row case-facts"')]


def test_a_case_without_a_profile_says_nobody_should_contact(cast, login):
    cast.case.safe_contact.delete()
    page = (
        login(cast.assigned)
        .get(reverse("cases:detail", args=[cast.case.public_id]))
        .content.decode()
    )
    assert "No safe-contact profile yet. Nobody should contact the survivor" in page
