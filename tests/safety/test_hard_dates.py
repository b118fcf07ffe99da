"""Hard dates on the survivor's plan: their next occurrence, adding and removing them (policy,
audit, encryption), bad input, and where they appear (plan page, timeline, exports)."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.http import Http404
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from caseflow.audit.models import AuditEvent
from caseflow.cases import services as case_services
from caseflow.cases.models import FieldSetting, IntakeField
from caseflow.cases.timeline import Query, page
from caseflow.checkins.proposals import proposed_checkins
from caseflow.safety import packs, services
from caseflow.safety.feature import FEATURE
from caseflow.safety.forms import HardDateForm
from caseflow.safety.hard_dates import next_occurrence, on_year
from caseflow.safety.models import HardDate
from caseflow.safety.timeline import SOURCES

pytestmark = pytest.mark.django_db

# Monday 7 December 2026, 08:00 in London.
MONDAY = dt.datetime(2026, 12, 7, 8, 0, tzinfo=dt.UTC)


def _add(cast, **kw) -> HardDate:
    args = dict(
        actor=cast.assigned,
        case=cast.case,
        kind="anniversary",
        words="The day I left",
        day=dt.date(2024, 12, 17),
        yearly=True,
        support_days_before=1,
    )
    args.update(kw)
    return services.hard_date_add(**args)


# --- The next occurrence ---------------------------------------------------------------------


def test_a_yearly_date_comes_round_across_the_year_boundary():
    today = dt.date(2026, 12, 30)
    assert next_occurrence(dt.date(1990, 1, 5), True, today) == dt.date(2027, 1, 5)
    assert next_occurrence(dt.date(1990, 12, 31), True, today) == dt.date(2026, 12, 31)
    # Its day is still today's occurrence; the day after, next year's.
    assert next_occurrence(dt.date(1990, 12, 30), True, today) == dt.date(2026, 12, 30)
    assert next_occurrence(dt.date(1990, 12, 29), True, today) == dt.date(2027, 12, 29)


def test_a_one_off_date_that_has_passed_comes_no_more():
    today = dt.date(2026, 12, 7)
    assert next_occurrence(dt.date(2026, 12, 6), False, today) is None
    assert next_occurrence(dt.date(2026, 12, 7), False, today) == dt.date(2026, 12, 7)
    # A yearly date named for a year still to come starts then.
    assert next_occurrence(dt.date(2028, 3, 1), True, today) == dt.date(2028, 3, 1)


def test_29_february_is_kept_on_the_28th_in_a_year_without_one():
    assert next_occurrence(dt.date(2024, 2, 29), True, dt.date(2026, 3, 1)) == dt.date(2027, 2, 28)
    assert next_occurrence(dt.date(2024, 2, 29), True, dt.date(2027, 3, 1)) == dt.date(2028, 2, 29)


@given(
    day=st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2090, 12, 31)),
    today=st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2090, 12, 31)),
)
def test_the_next_yearly_occurrence_is_the_first_on_or_after_today(day, today):
    found = next_occurrence(day, True, today)
    assert found is not None and found >= today
    assert found == on_year(day, found.year)
    # Nothing earlier on or after today: the year before was already past (or before the date).
    earlier = found.year - 1
    assert earlier < day.year or on_year(day, earlier) < today


# --- Adding, removing, policy ----------------------------------------------------------------


@time_machine.travel(MONDAY, tick=False)
def test_a_hard_date_is_added_audited_and_her_words_kept_encrypted(cast):
    row = _add(cast)
    assert row.agency_id == cast.case.agency_id
    event = AuditEvent.objects.get(action="hard_date.add")
    assert "The day I left" not in str(event.detail)
    with connection.cursor() as cursor:
        cursor.execute("SELECT words FROM safety_harddate")
        (stored,) = cursor.fetchone()
    assert "left" not in stored
    assert HardDate.objects.get(pk=row.pk).words == "The day I left"
    assert HardDate.narrative_fields == ("words",)


@time_machine.travel(MONDAY, tick=False)
@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"day": None}, "day", "needs a day, month and year"),
        ({"day": dt.date(1850, 3, 1)}, "day", "too long ago"),
        ({"day": dt.date(2026, 12, 6), "yearly": False}, "day", "That day has passed"),
        ({"support_days_before": 40}, "support_days_before", "up to 28 days before"),
        ({"kind": "nonsense"}, "kind", "what kind of day"),
    ],
)
def test_bad_hard_dates_are_refused_by_field_and_nothing_is_saved(cast, changes, field, words):
    with pytest.raises(ValidationError) as caught:
        _add(cast, **changes)
    assert words in " ".join(caught.value.message_dict[field])
    assert not HardDate.objects.exists()


@time_machine.travel(MONDAY, tick=False)
def test_only_those_who_work_the_case_may_add_or_remove_one(cast):
    with pytest.raises((PermissionDenied, Http404)):
        _add(cast, actor=cast.other_team)
    row = _add(cast)
    with pytest.raises((PermissionDenied, Http404)):
        services.hard_date_remove(actor=cast.auditor, hard_date=row)
    services.hard_date_remove(actor=cast.assigned, hard_date=row)
    assert not HardDate.objects.exists()
    assert AuditEvent.objects.filter(action="hard_date.remove").count() == 1


def test_a_hard_date_without_a_day_is_a_form_error():
    form = HardDateForm({"kind": "birthday", "words": "", "support_days_before": "1"})
    assert not form.is_valid()
    assert "needs a day, month and year" in form.errors["day"][0]
    form = HardDateForm({"kind": "birthday", "day": "31/31/2027", "support_days_before": "1"})
    assert not form.is_valid() and "day" in form.errors


# --- Pages -----------------------------------------------------------------------------------


@time_machine.travel(MONDAY, tick=False)
def test_adding_a_hard_date_leads_to_the_check_ins_proposed(cast, login):
    client = login(cast.assigned)
    url = reverse("safety:hard_date_new", args=[cast.case.public_id])
    data = {"kind": "birthday", "words": "Her son's", "day": "2019-12-17", "yearly": "on"}
    missing = client.post(url, {**data, "support_days_before": "1", "day": ""})
    assert missing.status_code == 200
    assert "needs a day, month and year" in missing.content.decode()
    # What was typed is kept on the form.
    assert "Her son&#x27;s" in missing.content.decode()
    response = client.post(url, {**data, "support_days_before": "2"})
    assert response.status_code == 302
    assert response["Location"] == reverse("checkins:proposals", args=[cast.case.public_id])
    row = HardDate.objects.get()
    assert (row.day, row.yearly, row.support_days_before) == (dt.date(2019, 12, 17), True, 2)
    plan = client.get(reverse("safety:plan", args=[cast.case.public_id])).content.decode()
    assert "Her son&#x27;s" in plan and "Next on 17 Dec 2026" in plan


@time_machine.travel(MONDAY, tick=False)
def test_hard_date_pages_answer_by_method_scope_and_right(cast, login):
    row = _add(cast)
    new = reverse("safety:hard_date_new", args=[cast.case.public_id])
    remove = reverse("safety:hard_date_remove", args=[cast.case.public_id, row.public_id])
    assert login(cast.assigned).get(new).status_code == 200
    assert login(cast.assigned).get(remove).status_code == 405
    assert login(cast.other_team).get(new).status_code == 404
    assert login(None).get(new).status_code == 302
    case_services.break_glass_open(
        actor=cast.same_team, reference=cast.case.reference, reason="Crisis call"
    )
    assert login(cast.same_team).get(new).status_code == 403
    assert login(cast.same_team).post(remove).status_code == 403
    assert login(cast.assigned).post(remove).status_code == 302
    assert not HardDate.objects.exists()


# --- Timeline and exports --------------------------------------------------------------------


@time_machine.travel(MONDAY, tick=False)
def test_a_hard_date_is_on_the_timeline_with_her_words(cast):
    _add(cast)
    entries = [e for e in page(cast.case, Query()).entries if e.kind == "hard_date"]
    assert len(entries) == 1
    assert entries[0].title == "Hard date noted: an anniversary"
    assert entries[0].body == "The day I left"
    source = next(s for s in SOURCES if s.kind == "hard_date")
    # Her words are a narrative: a chronology with them leaves only under a release naming both.
    assert source.categories == frozenset({"safety_plan", "narratives"})


@time_machine.travel(MONDAY, tick=False)
def test_hard_dates_leave_in_exports_only_as_part_of_the_safety_plan(cast):
    _add(cast)
    rows = packs.hard_date_rows(cast.case)
    assert rows == [("Hard date: An anniversary", "17 Dec 2024 (every year) — The day I left")]
    categories = {p.category for p in FEATURE.pack_rows if p.rows is packs.hard_date_rows}
    assert categories == {"safety_plan"}


# --- Field settings --------------------------------------------------------------------------


@time_machine.travel(MONDAY, tick=False)
def test_an_agency_that_does_not_collect_her_words_neither_asks_nor_shows_them(cast, login):
    _add(cast)  # stored before the agency stopped collecting them
    FieldSetting.objects.create(agency=cast.agency, field=IntakeField.HARD_DATE_WORDS, hidden=True)
    client = login(cast.assigned)
    form = client.get(reverse("safety:hard_date_new", args=[cast.case.public_id])).content
    assert b'name="words"' not in form and b'name="day"' in form
    # A value posted anyway is ignored.
    response = client.post(
        reverse("safety:hard_date_new", args=[cast.case.public_id]),
        {
            "kind": "release",
            "words": "Posted anyway",
            "day": "2027-02-01",
            "support_days_before": 3,
        },
    )
    assert response.status_code == 302
    assert HardDate.objects.get(kind="release").words == ""
    plan = client.get(reverse("safety:plan", args=[cast.case.public_id])).content.decode()
    assert "The day I left" not in plan and "An anniversary" in plan
    entry = next(e for e in page(cast.case, Query()).entries if e.kind == "hard_date")
    assert "The day I left" not in entry.body
    assert all("The day I left" not in value for _label, value in packs.hard_date_rows(cast.case))
    labels = [p.label for p in proposed_checkins(cast.case)]
    assert labels == [
        "An anniversary, on Thu 17 Dec 2026",
        "A release from prison, on Mon 1 Feb 2027",
    ]


@time_machine.travel(MONDAY, tick=False)
def test_an_agency_may_call_her_words_something_else(cast, login):
    FieldSetting.objects.create(
        agency=cast.agency, field=IntakeField.HARD_DATE_WORDS, label="What she calls the day"
    )
    form = login(cast.assigned).get(reverse("safety:hard_date_new", args=[cast.case.public_id]))
    assert "What she calls the day" in form.content.decode()


@time_machine.travel(MONDAY, tick=False)
def test_a_partial_purge_clears_her_words_and_keeps_the_day(cast):
    from caseflow.confidentiality import narratives
    from caseflow.confidentiality.services.purges import _clear_narratives

    row = _add(cast)
    assert narratives.narrative_fields()[HardDate] == ("words",)
    result = _clear_narratives(cast.case)
    assert result["cleared"]["safety.HardDate"] == ["words"]
    kept = HardDate.objects.get(pk=row.pk)
    assert (kept.words, kept.day, kept.yearly) == ("", dt.date(2024, 12, 17), True)
