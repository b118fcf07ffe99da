"""A new member of staff follows the enrolment link from their e-mail on a phone: they choose
their own password, set up their authenticator app and land on their dashboard."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django_otp.plugins.otp_totp.models import TOTPDevice
from playwright.sync_api import expect

from caseflow.accounts.models import Role, User
from caseflow.accounts.tasks import send_account_link
from caseflow.agency.services import staff_save
from tests.accounts.flows import code_for

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_new_staff_choose_their_password_and_set_up_their_phone(new_tab, cast):
    person = staff_save(
        actor=cast.agency_admin,
        user=None,
        data={
            "username": "new.advocate",
            "first_name": "New",
            "last_name": "Advocate",
            "email": "new@example.invalid",
            "role": Role.ADVOCATE,
            "is_active": True,
        },
        teams=[cast.team1],
    )
    mail.outbox.clear()
    send_account_link(user_id=person.pk)
    path = re.search(r"https?://[^/\s]+(/accounts/link/\S+)", mail.outbox[0].body).group(1)

    tab = new_tab(viewport={"width": 375, "height": 812})
    page = tab.page
    tab.goto(path)
    expect(page.get_by_role("heading", level=1)).to_have_text("Choose your password")
    assert "set-password" in page.url and path.split("/")[-2] not in page.url
    tab.check("account-link-password")
    page.locator("#id_new_password").fill("a-password-she-chose-herself")
    page.locator("#id_new_password_again").fill("a-password-she-chose-herself")
    page.get_by_role("button", name="Set password").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Set up your second factor")
    expect(page.get_by_role("status")).to_contain_text("Your password is set.")
    tab.check("account-link-enrol")
    device = TOTPDevice.objects.get(user=person, confirmed=False)
    page.get_by_label("Code from the app").fill(code_for(device))
    page.get_by_role("button", name="Turn on").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Your recovery codes")
    tab.check("account-link-recovery-codes")
    page.get_by_role("link", name="I have kept them safe").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Hello, "))

    # The link has done its work: opening it again says so in plain words.
    again = new_tab(viewport={"width": 375, "height": 812})
    again.goto(path)
    expect(again.page.get_by_role("heading", level=1)).to_have_text("This link no longer works")
    again.check("account-link-used")
    assert User.objects.get(pk=person.pk).check_password("a-password-she-chose-herself")
