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
    html = str(case_table_rows(Context({}), rows))
    assert f'href="{reverse("cases:detail", args=[cast.case.public_id])}"' in html
    assert "&lt;b&gt;REF&amp;1&lt;/b&gt;" in html and "<b>" not in html
    assert "Restricted" in html
    assert cast.case.get_status_display() in html
    assert cast.case.get_risk_level_display() in html
    assert cast.case.team.name in html


@pytest.mark.django_db
def test_next_due_is_the_earliest_scheduled_check_in_or_open_follow_up(cast):
    from caseflow.checkins.models import CheckInStatus
    from caseflow.inbox.models import FollowUpStatus
    from tests.checkins.helpers import make_checkin, make_followup

    def next_due():
        return case_rows(Case.objects.filter(pk=cast.case.pk)).get().next_due

    soon, later, latest = MOMENTS
    assert next_due() is None
    make_checkin(cast.case, cast.assigned, soon, status=CheckInStatus.DONE)
    make_followup(cast.case, cast.assigned, soon, status=FollowUpStatus.DONE)
    assert next_due() is None  # done rows are not due
    make_followup(cast.case, cast.assigned, latest)
    assert next_due() == latest  # only a follow-up
    make_checkin(cast.case, cast.assigned, later)
    assert next_due() == later  # the check-in is earlier
    make_followup(cast.case, cast.assigned, soon + dt.timedelta(hours=1))
    assert next_due() == soon + dt.timedelta(hours=1)  # now the follow-up is
    cast.case.followups.update(status=FollowUpStatus.DONE)
    assert next_due() == later  # only a check-in


def test_cells_are_escaped_as_conditional_escape_escapes_them():
    from django.utils.html import conditional_escape
    from django.utils.safestring import mark_safe

    from caseflow.cases.templatetags.case_tables import _escape
    from caseflow.lib.i18n import gettext_lazy

    values = [
        "plain",
        "<b>Tom & \"Jerry\"</b> 'x'",
        "",
        "—",
        mark_safe("<em>Unassigned</em>"),
        gettext_lazy("Restricted"),
        42,
        None,
    ]
    for value in values:
        assert str(_escape(value)) == str(conditional_escape(value)), value
    assert _escape("<i>") == "&lt;i&gt;"
