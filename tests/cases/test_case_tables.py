"""The case tables' rows, written by a tag rather than the template language, say the same."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import timezone

from caseflow.cases.models import Case
from caseflow.cases.selectors import case_rows
from caseflow.cases.templatetags.case_tables import case_table_rows, short_datetime

MOMENTS = [
    dt.datetime(2026, 1, 5, 9, 3, tzinfo=dt.UTC),
    dt.datetime(2026, 6, 30, 23, 59, tzinfo=dt.UTC),
    dt.datetime(2027, 12, 31, 0, 0, tzinfo=dt.UTC),
]


@pytest.mark.parametrize("zone", ["UTC", "Europe/London", "Pacific/Auckland"])
def test_short_datetime_is_the_date_filter(zone):
    template = Template('{{ moment|date:"j M Y H:i" }}')
    with timezone.override(zoneinfo.ZoneInfo(zone)):
        for moment in MOMENTS:
            assert short_datetime(moment) == template.render(Context({"moment": moment}))


@pytest.mark.django_db
def test_rows_link_each_case_and_escape_what_they_show(cast):
    cast.case.reference = "<b>REF&1</b>"
    cast.case.restricted = True
    cast.case.save()
    rows = list(case_rows(Case.objects.filter(pk=cast.case.pk)))
    html = str(case_table_rows(rows))
    assert f'href="{reverse("cases:detail", args=[cast.case.public_id])}"' in html
    assert "&lt;b&gt;REF&amp;1&lt;/b&gt;" in html and "<b>" not in html
    assert "Restricted" in html
    assert cast.case.get_status_display() in html
    assert cast.case.get_risk_level_display() in html
    assert cast.case.team.name in html
