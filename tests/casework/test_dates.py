"""Dates that cannot lie (issue #29): a note's time is now unless changed; a date not today is
read back in words and nothing is saved until it is confirmed; a date typed the other way round
is named, with the date that was probably meant; everything typed is kept meanwhile."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.urls import reverse

from caseflow.accounts import language
from caseflow.casework.models import CaseNote, Incident

pytestmark = pytest.mark.django_db

# Thursday 3 December 2026, 14:05 in London (GMT).
NOW = dt.datetime(2026, 12, 3, 14, 5, tzinfo=dt.UTC)
TEXT = "She rang about the contact handover & the school run."


def _note(day: str, month: str, year: str = "2026", hour: str = "9", minute: str = "00"):
    return {
        "kind": "call",
        "participants": ["survivor"],
        "direction": "incoming",
        "occurred_at_day": day,
        "occurred_at_month": month,
        "occurred_at_year": year,
        "occurred_at_hour": hour,
        "occurred_at_minute": minute,
        "text": TEXT,
    }


def _incident(day: str, month: str, year: str = "2026", time: str = ""):
    return {
        "kinds": ["threats"],
        "occurred_on_day": day,
        "occurred_on_month": month,
        "occurred_on_year": year,
        "occurred_time": time,
        "person": "other_party",
        "what_happened": "Threatening messages all evening.",
        "police": "no",
        "approximate": "on" if not time else "",
        "when_described": "that evening" if not time else "",
    }


def _new_note(case) -> str:
    return reverse("casework:note_new", args=[case.public_id])


def _new_incident(case) -> str:
    return reverse("casework:incident_new", args=[case.public_id])


def _value(page: str, name: str) -> str:
    found = re.search(rf'name="{name}"[^>]*value="([^"]*)"', page)
    assert found, name
    return found.group(1)


@time_machine.travel(NOW, tick=False)
def test_when_is_now_in_words_with_the_parts_behind_change(cast, login):
    page = login(cast.assigned).get(_new_note(cast.case)).content.decode()
    assert "Now: 3 Dec 2026 14:05" in page
    assert "<summary>Change</summary>" in page and "<details" in page
    assert "<legend" in page and "For example, 27 3 2026" in page
    parts = [_value(page, f"occurred_at_{p}") for p in ("day", "month", "year", "hour", "minute")]
    assert parts == ["3", "12", "2026", "14", "05"]


@time_machine.travel(NOW, tick=False)
def test_a_us_reader_types_the_month_first(cast, login):
    language.set_user_language(cast.assigned, "en-us")
    page = login(cast.assigned).get(_new_note(cast.case)).content.decode()
    order = re.findall(r'for="id_occurred_at_(day|month|year)"', page)
    assert order == ["month", "day", "year"]
    assert "For example, 3 27 2026" in page
    assert "Now: Dec 3, 2026 2:05 PM" in page


@time_machine.travel(NOW, tick=False)
def test_a_note_dated_now_saves_in_one_step(cast, login):
    response = login(cast.assigned).post(_new_note(cast.case), _note("3", "12", hour="13"))
    assert response.status_code == 302
    assert CaseNote.objects.get().occurred_at == dt.datetime(2026, 12, 3, 13, 0, tzinfo=dt.UTC)


@time_machine.travel(NOW, tick=False)
def test_a_date_typed_the_other_way_round_is_named_and_nothing_is_saved(cast, login):
    client = login(cast.assigned)
    # 1 December typed month first: the form reads 12 January.
    response = client.post(_new_note(cast.case), _note("12", "1"))
    page = response.content.decode()
    assert response.status_code == 200
    assert not CaseNote.objects.exists()
    assert "Check the date" in page
    assert "You entered Monday 12 January 2026, more than 6 weeks ago." in page
    assert "Did you mean Tuesday 1 December 2026?" in page
    assert "This note will be dated Monday 12 January 2026 at 09:00. Save it?" in page
    assert 'name="date_confirmed" value="2026-01-12T09:00"' in page
    # Everything typed is kept, and the parts are shown to be changed.
    assert "She rang about the contact handover &amp; the school run." in page
    assert [_value(page, f"occurred_at_{p}") for p in ("day", "month")] == ["12", "1"]
    assert "Now:" not in page

    # Corrected: read back again (it is not today), then saved once confirmed.
    corrected = client.post(_new_note(cast.case), _note("1", "12")).content.decode()
    assert "This note will be dated Tuesday 1 December 2026 at 09:00. Save it?" in corrected
    assert "Did you mean" not in corrected and "weeks ago" not in corrected
    assert not CaseNote.objects.exists()
    saved = client.post(
        _new_note(cast.case), {**_note("1", "12"), "date_confirmed": "2026-12-01T09:00"}
    )
    assert saved.status_code == 302
    note = CaseNote.objects.get()
    assert note.occurred_at == dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)
    assert note.text == TEXT


@time_machine.travel(NOW, tick=False)
def test_a_confirmation_holds_for_the_date_confirmed_only(cast, login):
    client = login(cast.assigned)
    # Confirmed 12 January, then changed to 11 January before saving: asked again.
    response = client.post(
        _new_note(cast.case), {**_note("11", "1"), "date_confirmed": "2026-01-12T09:00"}
    )
    assert response.status_code == 200
    assert "This note will be dated Sunday 11 January 2026 at 09:00." in response.content.decode()
    assert not CaseNote.objects.exists()


@time_machine.travel(NOW, tick=False)
def test_a_future_time_is_refused_with_the_date_probably_meant(cast, login):
    client = login(cast.assigned)
    later_today = client.post(_new_note(cast.case), _note("3", "12", hour="18")).content.decode()
    assert "This time is in the future." in later_today and "Did you mean" not in later_today
    with time_machine.travel(dt.datetime(2026, 1, 20, 10, tzinfo=dt.UTC), tick=False):
        # On 20 January, "1 12" is 1 December, ahead; read the other way it is 12 January.
        page = client.post(_new_note(cast.case), _note("1", "12")).content.decode()
        assert "This time is in the future. Did you mean Monday 12 January 2026?" in page
        # The 20th cannot be a month: nothing to suggest.
        page = client.post(_new_note(cast.case), _note("20", "2")).content.decode()
        assert "This time is in the future." in page and "Did you mean" not in page
    assert not CaseNote.objects.exists()


@time_machine.travel(NOW, tick=False)
def test_an_incident_not_today_is_read_back_before_it_is_saved(cast, login):
    client = login(cast.assigned)
    page = client.post(_new_incident(cast.case), _incident("1", "12")).content.decode()
    assert "This incident will be dated Tuesday 1 December 2026. Save it?" in page
    assert 'name="date_confirmed" value="2026-12-01"' in page
    assert "Threatening messages all evening." in page
    assert not Incident.objects.exists()
    timed = client.post(_new_incident(cast.case), _incident("1", "12", time="21:15")).content
    assert "Tuesday 1 December 2026 at 21:15" in timed.decode()
    assert not Incident.objects.exists()
    response = client.post(
        _new_incident(cast.case), {**_incident("1", "12"), "date_confirmed": "2026-12-01"}
    )
    assert response.status_code == 302
    assert Incident.objects.get().occurred_at == dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


@time_machine.travel(NOW, tick=False)
def test_an_incident_today_saves_in_one_step_and_bad_parts_are_said_in_words(cast, login):
    client = login(cast.assigned)
    bad = client.post(_new_incident(cast.case), _incident("31", "11", time="10:00"))
    assert "Enter a real date." in bad.content.decode()
    no_year = client.post(_new_incident(cast.case), _incident("3", "12", year="26", time="10:00"))
    assert "Enter the year as 4 digits." in no_year.content.decode()
    assert not Incident.objects.exists()
    response = client.post(_new_incident(cast.case), _incident("3", "12", time="10:00"))
    assert response.status_code == 302
    assert Incident.objects.get().occurred_at == dt.datetime(2026, 12, 3, 10, 0, tzinfo=dt.UTC)
