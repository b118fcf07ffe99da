"""One risk date: the case summary's risk level and the safety panel name the same assessment
by the same date, written the one way the reader's language writes dates (US English included:
"Dec 1, 2026" beside "1 Dec 2026" reads as two dates)."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse
from django.utils import formats, translation

from caseflow.accounts.language import set_agency_language
from caseflow.safety import services

pytestmark = pytest.mark.django_db

WHEN = dt.datetime(2026, 10, 9, 14, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize("language", ["en-gb", "en-us", "es"])
def test_the_case_page_gives_the_assessment_one_date(cast, login, sample, language):
    instrument = sample
    items = instrument.instrument().items
    with time_machine.travel(WHEN, tick=False):
        services.assessment_record(
            actor=cast.assigned,
            case=cast.case,
            instrument=instrument,
            answers={item.id: True for item in items},
        )
    set_agency_language(cast.agency.pk, language)
    html = login(cast.assigned).get(reverse("cases:detail", args=[cast.case.public_id]))
    html = html.content.decode()
    with translation.override(language):
        day = formats.date_format(WHEN.date(), "DATE_FORMAT")
    others = {"9 Oct 2026", "Oct 9, 2026", "9 oct 2026"} - {day}
    assert html.count(day) >= 2, day
    for other in others:
        assert other not in html, (language, other)
