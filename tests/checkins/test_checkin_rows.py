"""The case page's recent check-in outcomes, written by a tag: the very markup the template
wrote, in every language and time zone."""

from __future__ import annotations

import datetime as dt

import pytest
from django.template import engines
from django.utils import timezone, translation

from caseflow.checkins.models import CheckIn, CheckInOutcome, CheckInStatus

pytestmark = pytest.mark.django_db

#: The template's loop as it was before the tag.
WRITTEN = (
    "{% load i18n %}"
    '{% for c in recent %}<li>{% blocktranslate with due_at=c.due_at|date:"DATETIME_FORMAT" '
    "get_status_display=c.get_status_display %}{{ due_at }} — {{ get_status_display }}"
    "{% endblocktranslate %}{% if c.outcome %}: {{ c.get_outcome_display }}{% endif %}</li>"
    "{% endfor %}"
)
TAG = "{% load checkin_rows %}{% checkin_outcomes recent %}"


def test_the_tag_writes_what_the_template_wrote(cast):
    start = dt.datetime(2026, 3, 28, 23, 45, tzinfo=dt.UTC)  # across a change of UK clocks
    rows = [
        CheckIn(
            case=cast.case,
            channel="phone",
            due_at=start + dt.timedelta(hours=7 * n),
            status=status,
            outcome=outcome,
        )
        for n, (status, outcome) in enumerate(
            [
                (CheckInStatus.DONE, CheckInOutcome.REACHED),
                (CheckInStatus.DONE, CheckInOutcome.NOT_SAFE),
                (CheckInStatus.MISSED, ""),
                (CheckInStatus.CANCELLED, ""),
                (CheckInStatus.DONE, "<b>not a choice</b>"),
            ]
        )
    ]
    django = engines["django"]
    written, tag = django.from_string(WRITTEN), django.from_string(TAG)
    seen = set()
    for language in ("en-gb", "en-us", "es"):
        for zone in ("Europe/London", "America/Chicago", "UTC"):
            with translation.override(language), timezone.override(zone):
                expected = written.render({"recent": rows})
                assert tag.render({"recent": rows}) == expected
                seen.add(expected)
    assert len(seen) == 9  # each language and zone wrote something of its own
    assert "&lt;b&gt;" in expected and "<b>" not in expected
    assert tag.render({"recent": []}) == written.render({"recent": []}) == ""
