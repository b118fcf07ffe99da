"""The agency admin's integrations journey, at 375 px: register the hotline's platform, copy
its key (shown once), the platform sends a referral over real HTTP with it, the admin revokes
it and the next call is refused; an address is subscribed to events. The API's documentation
page loads from caseflow itself, within the Content Security Policy."""

from __future__ import annotations

import datetime as dt
import json
import urllib.error
import urllib.request

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from caseflow.cases.models import Case, CaseStatus
from tests import factories as f
from tests.api.conftest import HOTLINE_PAYLOAD
from tests.browser.conftest import PHONE, fits_a_phone, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _post(url: str, key: str) -> int:
    request = urllib.request.Request(
        url,
        data=json.dumps(HOTLINE_PAYLOAD).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - the test server
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_register_use_and_revoke_an_integration(new_tab, live_server, cast):
    tab = new_tab(viewport=PHONE)
    page = tab.page
    sign_in(page, live_server, "agency_admin", f.PASSWORD)
    tab.goto("/integrations/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Integrations")
    fits_a_phone(tab, "integrations-list")
    page.get_by_role("link", name="Register an integration").click()
    expect(page.get_by_label("Name")).to_be_visible()
    fits_a_phone(tab, "integrations-new")
    page.get_by_label("Name").fill("County hotline")
    page.get_by_label("Send referrals").check()
    page.get_by_label("Team").select_option(label="Team 1")
    ends = timezone.localdate() + dt.timedelta(days=90)
    page.get_by_label("Access ends on").fill(ends.isoformat())
    page.get_by_role("button", name="Register the integration").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("County hotline is registered")
    fits_a_phone(tab, "integrations-key")
    key = page.get_by_label("Key").input_value()
    assert key.startswith("cf_")

    url = live_server.url + "/api/v1/referrals/"
    assert _post(url, key) == 201
    assert Case.objects.filter(status=CaseStatus.REFERRAL, primary_advocate=None).count() == 1

    page.get_by_role("link", name="Back to integrations").click()
    page.get_by_role("button", name="Revoke").click()
    expect(page.get_by_role("status")).to_contain_text("Integration revoked")
    assert _post(url, key) == 401

    page.get_by_role("link", name="Subscribe an address to events").click()
    expect(page.get_by_label("Address")).to_be_visible()
    fits_a_phone(tab, "integrations-subscribe")
    page.get_by_label("Address").fill("https://on-call.example.invalid/hook")
    page.get_by_label("Breach recorded").check()
    page.get_by_role("button", name="Subscribe").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Subscription made")
    assert len(page.get_by_label("Signing secret").input_value()) >= 40


def test_the_api_documentation_page_loads_within_the_policy(new_tab, live_server, cast):
    tab = new_tab()
    tab.goto("/api/v1/docs/")
    expect(tab.page.get_by_text("/api/v1/referrals/")).to_be_visible()
    tab.assert_clean()
