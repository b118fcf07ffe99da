"""Signing in through the agency's identity provider, in a real browser against the test
provider (``tests/oidc_provider``): in, then switched off at the provider, then out and refused."""

from __future__ import annotations

import re
import secrets

import pytest

from caseflow.accounts.models import IdentityProvider, ProviderGroup, Role
from tests.browser.conftest import PHONE, fits_a_phone
from tests.factories import AgencyFactory, TeamFactory
from tests.oidc_provider import harness

pytestmark = pytest.mark.browser


def test_provider_sign_in_journey(new_tab, live_server, browser_db):
    from playwright.sync_api import expect

    running = harness.provider()
    client_id, secret = f"caseflow-{secrets.token_hex(4)}", secrets.token_urlsafe(24)
    running.client(client_id, secret, [f"{live_server.url}/accounts/provider/callback/"])
    agency = AgencyFactory(name="Harbour Refuge", slug="harbour")
    team = TeamFactory(agency=agency, name="Outreach")
    IdentityProvider.objects.create(
        agency=agency, issuer=running.issuer, client_id=client_id, client_secret=secret
    )
    ProviderGroup.objects.create(agency=agency, name="advocates", role=Role.ADVOCATE, team=team)
    running.person("gina", groups=["advocates"], mfa=True)
    browser_db.OIDC_RECHECK_SECONDS = 0  # every request asks the provider again

    tab = new_tab(viewport=PHONE)
    page = tab.page

    def sign_in_at_provider() -> None:
        tab.goto("/accounts/agency/harbour/")
        page.get_by_role("link", name="Sign in with your agency account").click()
        page.get_by_label("Name").fill("gina")
        page.get_by_label("Password").fill("provider-pass")
        page.get_by_role("button", name="Sign in at the provider").click()

    tab.goto("/accounts/agency/harbour/")
    fits_a_phone(tab, "provider-sign-in")
    sign_in_at_provider()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Hello, "))
    fits_a_phone(tab, "provider-signed-in")

    # Switched off at the provider: the next page she opens signs her out and says why.
    running.person("gina", groups=["advocates"], mfa=True, active=False)
    page.reload()
    expect(page.get_by_text("no longer lets this account in")).to_be_visible()
    assert "/accounts/login/" in page.url
    fits_a_phone(tab, "provider-signed-out")

    # And she cannot sign in again: the provider refuses her, caseflow never lets her in.
    sign_in_at_provider()
    expect(page.get_by_role("alert")).to_contain_text("switched off")
    tab.goto("/", status=200)
    assert "/accounts/login/" in page.url
