"""The agency's time zone is chosen from the zones people name, in words, not 553 raw names;
a zone set by the operator outside that list is kept when the form is saved."""

from __future__ import annotations

import re

from django.urls import reverse

from caseflow.accounts.models import Agency
from caseflow.accounts.zones import COMMON_ZONES


def _options(html: str) -> list[tuple[str, str]]:
    select = html[html.index('name="time_zone"') :]
    select = select[: select.index("</select>")]
    return re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', select)


def test_the_picker_lists_the_common_zones_in_words(cast, login):
    client = login(cast.agency_admin)
    page = client.get(reverse("agency:time_zone"))
    options = _options(page.content.decode())
    assert [value for value, _ in options] == [zone for zone, _ in COMMON_ZONES]
    words = dict(options)
    assert words["America/Chicago"] == "US Central time (Chicago)"
    assert "America/Chicago" not in words.values()


def test_choosing_a_zone_saves_it(cast, login):
    client = login(cast.agency_admin)
    response = client.post(reverse("agency:time_zone"), {"time_zone": "America/Denver"})
    assert response.status_code == 302
    assert Agency.objects.get(pk=cast.agency.pk).time_zone == "America/Denver"


def test_a_zone_outside_the_list_is_kept_and_can_be_saved_again(cast, login):
    cast.agency.time_zone = "Asia/Kolkata"
    cast.agency.save(update_fields=["time_zone"])
    client = login(cast.agency_admin)
    options = _options(client.get(reverse("agency:time_zone")).content.decode())
    assert options[0] == ("Asia/Kolkata", "Asia/Kolkata")
    assert (
        'value="Asia/Kolkata" selected' in client.get(reverse("agency:time_zone")).content.decode()
    )
    response = client.post(reverse("agency:time_zone"), {"time_zone": "Asia/Kolkata"})
    assert response.status_code == 302
    assert Agency.objects.get(pk=cast.agency.pk).time_zone == "Asia/Kolkata"


def test_an_unlisted_zone_posted_is_a_form_error_not_a_change(cast, login):
    client = login(cast.agency_admin)
    response = client.post(reverse("agency:time_zone"), {"time_zone": "Asia/Tokyo"})
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert Agency.objects.get(pk=cast.agency.pk).time_zone != "Asia/Tokyo"
