"""The second factor: enrolment with a QR code, verification after the password, recovery
codes, and the middleware that keeps every other page closed until then."""

from __future__ import annotations

import re

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from caseflow.accounts.models import Membership
from caseflow.audit.models import AuditEvent
from tests.accounts.flows import code_for, enrolled, password_login
from tests.test_url_matrix import MATRIX, url_for

pytestmark = pytest.mark.django_db

OPEN_VIEWS = {
    "accounts:login",
    "accounts:logout",
    "accounts:second_factor",
    "accounts:enrol",
    "accounts:enrol_qr",
    # An enrolment or reset link: it needs its own valid token, and sets only a password.
    "accounts:link",
    "health",
}


def actions(user) -> list[str]:
    return list(
        AuditEvent.objects.filter(actor=user).order_by("seq").values_list("action", flat=True)
    )


def test_first_sign_in_enrols_an_authenticator_and_shows_recovery_codes_once(cast, client):
    user = cast.assigned
    response = password_login(client, "assigned")
    assert response.status_code == 302
    # Not yet verified: the dashboard sends the user to enrol.
    response = client.get(reverse("dashboard"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:enrol"))

    page = client.get(reverse("accounts:enrol"))
    assert page.status_code == 200
    body = page.content.decode()
    assert f'src="{reverse("accounts:enrol_qr")}"' in body
    assert "<script" not in body.split("</head>")[1]
    qr = client.get(reverse("accounts:enrol_qr"))
    assert qr["Content-Type"] == "image/svg+xml"
    assert qr.content.lstrip().startswith(b"<?xml") or b"<svg" in qr.content[:200]

    device = TOTPDevice.objects.get(user=user, confirmed=False)
    wrong = client.post(reverse("accounts:enrol"), {"token": "000000"})
    assert wrong.status_code == 200 and "not right" in wrong.content.decode()
    # After a wrong code the device makes the next try wait (django-otp's throttling).
    assert client.post(reverse("accounts:enrol"), {"token": code_for(device)}).status_code == 200
    with time_machine.travel(timezone.now() + timezone.timedelta(seconds=3), tick=False):
        done = client.post(reverse("accounts:enrol"), {"token": code_for(device)})
    assert done.status_code == 200
    codes = re.findall(
        r"<li>([a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4})</li>", done.content.decode()
    )
    assert len(codes) == 10
    # Stored as digests, never as the codes themselves.
    stored = set(StaticToken.objects.filter(device__user=user).values_list("token", flat=True))
    assert len(stored) == 10 and not stored & {c.replace("-", "") for c in codes}
    device.refresh_from_db()
    assert device.confirmed
    assert "security.device_enrolled" in actions(user)
    assert client.get(reverse("dashboard")).status_code == 200


def test_sign_in_asks_for_a_code_and_a_wrong_code_is_refused_and_audited(cast, client):
    device = enrolled(cast.assigned)
    password_login(client, "assigned")
    case_url = reverse("cases:detail", args=[cast.case.public_id])
    response = client.get(case_url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:second_factor"))
    wrong = client.post(reverse("accounts:second_factor"), {"token": "123456"})
    assert wrong.status_code == 200
    assert "security.second_factor_failed" in actions(cast.assigned)
    assert client.get(case_url).status_code == 302
    with time_machine.travel(timezone.now() + timezone.timedelta(seconds=3), tick=False):
        ok = client.post(
            reverse("accounts:second_factor") + f"?next={case_url}", {"token": code_for(device)}
        )
        assert ok.status_code == 302 and ok["Location"] == case_url
        assert client.get(case_url).status_code == 200


def test_a_lost_phone_is_replaced_with_a_recovery_code(cast, client):
    user = cast.assigned
    password_login(client, "assigned")
    device = TOTPDevice.objects.create(user=user, name="x", confirmed=False)
    done = client.post(reverse("accounts:enrol"), {"token": code_for(device)})
    codes = re.findall(r"<li>([a-z2-7-]{19})</li>", done.content.decode())
    client.post(reverse("accounts:logout"))

    password_login(client, "assigned")
    used = client.post(reverse("accounts:second_factor"), {"token": codes[0].upper()})
    assert used.status_code == 302
    assert "security.recovery_code_used" in actions(user)
    assert client.get(reverse("dashboard")).status_code == 200
    # Set up the new phone straight away (the recovery code counts as a fresh sign-in).
    assert client.get(reverse("accounts:enrol")).status_code == 200
    new = TOTPDevice.objects.get(user=user, confirmed=False)
    client.post(reverse("accounts:enrol"), {"token": code_for(new)})
    assert list(TOTPDevice.objects.filter(user=user).values_list("pk", flat=True)) == [new.pk]
    client.post(reverse("accounts:logout"))

    # A used code does not work twice, nor do the codes of before the new enrolment.
    password_login(client, "assigned")
    again = client.post(reverse("accounts:second_factor"), {"token": codes[1]})
    assert again.status_code == 200
    assert client.get(reverse("dashboard")).status_code == 302


def test_a_password_alone_cannot_replace_an_enrolled_authenticator(cast, client):
    enrolled(cast.assigned)
    password_login(client, "assigned")
    for name in ("accounts:enrol", "accounts:enrol_qr"):
        response = client.get(reverse(name))
        assert response.status_code in (302, 404)
        assert not TOTPDevice.objects.filter(user=cast.assigned, confirmed=False).exists()
    response = client.post(reverse("accounts:enrol"), {"token": "123456"})
    assert response["Location"].startswith(reverse("accounts:second_factor"))


@pytest.mark.parametrize("name", sorted(set(MATRIX) - OPEN_VIEWS))
def test_no_page_opens_after_the_password_alone(name, cast, client):
    """Every case, audit and other URL (and the operators' admin) needs the second factor."""
    enrolled(cast.assigned)
    password_login(client, "assigned")
    url = url_for(name, MATRIX[name], cast, "case")
    for method in ("get", "post"):
        response = getattr(client, method)(url)
        assert response.status_code == 302, (method, url)
        assert response["Location"].startswith(reverse("accounts:second_factor"))


def test_operators_need_the_second_factor_for_the_admin(cast, client):
    device = enrolled(cast.operator)
    password_login(client, "operator")
    response = client.get("/operator/")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:second_factor"))
    # The admin has no password form of its own.
    client.post(reverse("accounts:logout"))
    login_page = client.get("/operator/login/")
    assert login_page.status_code == 302
    assert login_page["Location"].startswith(reverse("accounts:login"))
    password_login(client, "operator")
    client.post(reverse("accounts:second_factor"), {"token": code_for(device)})
    assert client.get("/operator/").status_code == 200


def test_demo_accounts_skip_the_second_factor_only_in_the_demo(cast, client, settings):
    Membership.objects.filter(user=cast.assigned).update(demo_account=True)
    settings.DEMO_MODE = True
    settings.EMBEDDED = True
    password_login(client, "assigned")
    page = client.get(reverse("dashboard"))
    assert page.status_code == 200
    assert "Demo" in page.content.decode()
    # Another account in the same demo process still needs it.
    other = client_for_other = type(client)()
    password_login(client_for_other, "same_team")
    assert other.get(reverse("dashboard")).status_code == 302
    # The same flagged account outside the demo needs it too.
    settings.DEMO_MODE = False
    client.post(reverse("accounts:logout"))
    password_login(client, "assigned")
    assert client.get(reverse("dashboard")).status_code == 302
    # And a demo flag on a production database (not the embedded default) changes nothing.
    settings.DEMO_MODE = True
    settings.EMBEDDED = False
    assert client.get(reverse("dashboard")).status_code == 302


def test_a_verified_user_is_sent_on_from_the_code_page(cast, login):
    client = login(cast.assigned)
    response = client.get(reverse("accounts:second_factor") + "?next=https://evil.example/")
    assert response.status_code == 302 and response["Location"] == "/"


def test_security_page_regenerates_recovery_codes_after_reauth(cast, login):
    client = login(cast.assigned)
    page = client.get(reverse("accounts:security"))
    assert "recovery code" in page.content.decode()
    response = client.post(reverse("accounts:recovery_codes"))
    assert response.status_code == 200
    assert StaticToken.objects.filter(device__user=cast.assigned).count() == 10
    assert "security.recovery_codes_regenerated" in actions(cast.assigned)
    with time_machine.travel(timezone.now() + timezone.timedelta(minutes=6), tick=False):
        response = client.post(reverse("accounts:recovery_codes"))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:reauth"))


def test_agency_admin_resets_a_lost_second_factor(cast, login):
    from django.test import Client

    from tests.conftest import verified_session

    enrolled(cast.same_team)
    theirs = Client()
    verified_session(theirs, cast.same_team)
    client = login(cast.agency_admin)
    page = client.get(reverse("agency:staff_edit", args=[cast.same_team.pk])).content.decode()
    assert "Reset second factor" in page
    url = reverse("agency:staff_second_factor_reset", args=[cast.same_team.pk])
    assert client.post(url).status_code == 302
    assert not TOTPDevice.objects.filter(user=cast.same_team).exists()
    assert theirs.get(reverse("dashboard")).status_code == 302  # signed out everywhere
    assert "security.second_factor_reset" in actions(cast.agency_admin)
    # Not for another agency's staff, and not for oneself.
    other = reverse("agency:staff_second_factor_reset", args=[cast.other_agency.pk])
    assert client.post(other).status_code == 404
    own = reverse("agency:staff_second_factor_reset", args=[cast.agency_admin.pk])
    assert client.post(own).status_code == 403
