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
