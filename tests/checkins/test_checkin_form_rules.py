"""The check-in form knows the survivor's rules: her safe channel preselected, her safe times
shown above the date, the next safe slot (the same one the case page shows) filled on request
without saving, a likely duplicate warned about before it is saved; channel labels, never codes."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from caseflow.cases import contact
from caseflow.cases.models import SafeContactProfile
from caseflow.checkins import services
from caseflow.checkins.models import CheckIn
from tests import factories as f
from tests.checkins.helpers import MONDAY, make_checkin

pytestmark = pytest.mark.django_db

TEXT_ONLY = {
    "channels": ["text"],
    "windows": [{"days": [0, 1, 2, 3, 4], "start": "10:00", "end": "12:00"}],
    "voicemail_safe": False,
}


def _text_only(case):
    SafeContactProfile.objects.filter(case=case).delete()
    return f.add_profile(case, rules=TEXT_ONLY, safe_phone="07700 900123")


@time_machine.travel(MONDAY, tick=False)
def test_lists_show_channel_labels_not_codes(cast, login):
    _text_only(cast.case)
    make_checkin(cast.case, cast.assigned, MONDAY + dt.timedelta(hours=2, minutes=30), "text")
    client = login(cast.assigned)
    for url in (reverse("cases:detail", args=[cast.case.public_id]), reverse("checkins:home")):
        body = client.get(url).content.decode()
        assert "<td>Text message</td>" in body
        assert "<td>text</td>" not in body


def test_case_page_and_services_share_the_next_safe_slot(cast):
    profile = _text_only(cast.case)
    # Friday 11:50 London: the window is open, but a whole check-in no longer fits in it.
    late = dt.datetime(2026, 12, 11, 11, 50, tzinfo=dt.UTC)
    slot = contact.next_safe_slot(profile, late)
    assert slot == dt.datetime(2026, 12, 14, 10, 0, tzinfo=dt.UTC)
    assert services.next_safe(profile, late) == slot
    # Saturday: the case page's next window starts at that very slot.
    saturday = dt.datetime(2026, 12, 12, 9, 0, tzinfo=dt.UTC)
    assert contact.contact_now(profile, saturday).next_start == slot


def test_a_window_too_short_for_a_check_in_is_not_offered_on_the_case_page(cast):
    SafeContactProfile.objects.filter(case=cast.case).delete()
    profile = f.add_profile(
        cast.case,
        rules={
            "channels": ["phone"],
            "windows": [
                {"days": [0], "start": "10:00", "end": "10:10"},
                {"days": [1], "start": "10:00", "end": "12:00"},
            ],
            "voicemail_safe": False,
        },
    )
    answer = contact.contact_now(profile, MONDAY)
    assert answer.next_start is not None
    assert answer.next_start.strftime("%a %H:%M") == "Tue 10:00"
    assert answer.next_start == contact.next_safe_slot(profile, MONDAY)


def _new(cast):
    return reverse("checkins:new", args=[cast.case.public_id])


@time_machine.travel(MONDAY, tick=False)
def test_form_preselects_her_safe_channel_and_shows_her_safe_times_above_the_date(cast, login):
    _text_only(cast.case)
    client = login(cast.assigned)
    response = client.get(_new(cast))
    assert response.status_code == 200
    assert response.context["form"]["channel"].value() == "text"
    body = response.content.decode()
    assert '<option value="text" selected>' in body
    times = body.index("Monday to Friday, 10:00 to 12:00")
    assert times < body.index('name="date"')
    assert "Next safe slot: Mon 7 Dec, 10:00 their time." in body
    assert 'name="use_slot"' in body
    # A channel asked for (from an offer) still wins.
    response = client.get(_new(cast) + "?channel=phone")
    assert response.context["form"]["channel"].value() == "phone"


@time_machine.travel(MONDAY, tick=False)
def test_only_her_safe_channels_are_offered_and_an_unsafe_one_is_refused_on_the_form(cast, login):
    _text_only(cast.case)
    client = login(cast.assigned)
    body = client.get(_new(cast)).content.decode()
    assert '<option value="text" selected>' in body
    assert '<option value="phone"' not in body and '<option value="email"' not in body
    data = {"date": "2026-12-07", "time": "10:00", "channel": "phone", "assignee": cast.assigned.pk}
    response = client.post(_new(cast), data)
    assert response.status_code == 200
    assert "Choose one of the survivor&#x27;s safe channels." in response.content.decode()
    assert not CheckIn.objects.exists()
    # Without safe-contact rules every channel is offered.
    SafeContactProfile.objects.filter(case=cast.case).delete()
    body = client.get(_new(cast)).content.decode()
    assert '<option value="phone"' in body and '<option value="text"' in body


@time_machine.travel(MONDAY, tick=False)
def test_use_the_next_safe_slot_fills_it_in_and_saves_nothing(cast, login):
    _text_only(cast.case)
    client = login(cast.assigned)
    data = {
        "date": "2026-12-08",
        "time": "21:00",
        "channel": "phone",
        "assignee": cast.assigned.pk,
        "use_slot": "1",
    }
    response = client.post(_new(cast), data)
    assert response.status_code == 200
    assert not CheckIn.objects.exists()
    form = response.context["form"]
    assert not form.is_bound
    assert (form["date"].value(), form["time"].value(), form["channel"].value()) == (
        "2026-12-07",
        "10:00",
        "text",
    )
    assert "Nothing is saved until you schedule it." in response.content.decode()
    # The case page offers the very same slot.
    page = client.get(reverse("cases:detail", args=[cast.case.public_id])).content.decode()
    assert "Next safe window: Mon 7 Dec, 10:00" in page
    # Scheduling the filled-in form books it.
    response = client.post(
        _new(cast),
        {"date": "2026-12-07", "time": "10:00", "channel": "text", "assignee": cast.assigned.pk},
    )
    assert response.status_code == 302
    assert CheckIn.objects.get().channel == "text"


@time_machine.travel(MONDAY, tick=False)
def test_use_the_next_safe_slot_without_a_profile_says_so(cast, login):
    SafeContactProfile.objects.filter(case=cast.case).delete()
    response = login(cast.assigned).post(_new(cast), {"use_slot": "1"})
    assert response.status_code == 200
    assert "no safe-contact profile yet" in response.content.decode()
    assert not CheckIn.objects.exists()


@time_machine.travel(MONDAY, tick=False)
def test_a_likely_duplicate_is_warned_about_then_booked_on_confirmation(cast, login):
    _text_only(cast.case)
    make_checkin(cast.case, cast.assigned, MONDAY + dt.timedelta(hours=2), "text")
    client = login(cast.assigned)
    data = {"date": "2026-12-07", "time": "10:15", "channel": "text", "assignee": cast.assigned.pk}
    response = client.post(_new(cast), data)
    assert response.status_code == 200
    body = response.content.decode()
    assert "A check-in by text message is already booked for Mon 7 Dec, 10:00" in body
    assert 'name="confirm_duplicate"' in body
    assert CheckIn.objects.count() == 1
    # Another channel, or a time well apart, is no duplicate.
    other = {**data, "time": "11:00"}
    assert client.post(_new(cast), other).status_code == 302
    response = client.post(_new(cast), {**data, "confirm_duplicate": "1"})
    assert response.status_code == 302
    assert CheckIn.objects.count() == 3
