"""Password and second factor again, within RECENT_AUTH_MINUTES, before break-glass and role
changes."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone
from django_otp.plugins.otp_totp.models import TOTPDevice

from caseflow.accounts.models import Membership, Role
from caseflow.audit.models import AuditEvent
from tests import factories as f
from tests.accounts.flows import code_for

pytestmark = pytest.mark.django_db


def later(minutes: float):
    return time_machine.travel(timezone.now() + dt.timedelta(minutes=minutes), tick=False)


def test_break_glass_needs_a_recent_password_and_code(cast, login):
    client = login(cast.same_team)
    url = reverse("cases:break_glass")
    assert client.get(url).status_code == 200  # just signed in with both factors
    with later(6):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:reauth"))
        # A POST is refused before anything happens.
        response = client.post(url, {"reference": cast.case.reference, "reason": "duty line call"})
        assert response.status_code == 302
        assert not cast.case.break_glass_grants.exists()

        device = TOTPDevice.objects.get(user=cast.same_team)
        reauth = reverse("accounts:reauth") + f"?next={url}"
        wrong = client.post(reauth, {"password": "wrong", "token": code_for(device)})
        assert wrong.status_code == 200
        assert AuditEvent.objects.filter(action="security.reauth_failed").exists()
        no_code = client.post(reauth, {"password": f.PASSWORD})
        assert no_code.status_code == 200
    with later(6.1):
        ok = client.post(reauth, {"password": f.PASSWORD, "token": code_for(device)})
        assert ok.status_code == 302 and ok["Location"] == url
        assert client.get(url).status_code == 200
    with later(10):
        assert client.get(url).status_code == 200  # 4 minutes after re-authenticating
    with later(12):
        assert client.get(url).status_code == 302


def test_role_change_needs_recent_auth_but_the_form_opens(cast, login):
    client = login(cast.agency_admin)
    url = reverse("agency:staff_edit", args=[cast.same_team.pk])
    data = {
        "first_name": "Same",
        "last_name": "Team",
        "email": "same@example.invalid",
        "role": Role.SUPERVISOR,
        "teams": [cast.team1.pk],
        "is_active": "on",
    }
    with later(6):
        assert client.get(url).status_code == 200
        response = client.post(url, data)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:reauth"))
        assert Membership.objects.get(user=cast.same_team).role == Role.ADVOCATE
    response = client.post(url, data)
    assert response.status_code == 302 and response["Location"] == reverse("agency:staff_list")
    assert Membership.objects.get(user=cast.same_team).role == Role.SUPERVISOR


def test_demo_accounts_reauthenticate_with_the_password(cast, client, settings):
    from tests.accounts.flows import password_login

    Membership.objects.filter(user=cast.same_team).update(demo_account=True)
    settings.DEMO_MODE = True
    settings.EMBEDDED = True
    password_login(client, "same_team")
    url = reverse("cases:break_glass")
    assert client.get(url).status_code == 200
    with later(6):
        assert client.get(url).status_code == 302
        page = client.get(reverse("accounts:reauth"))
        assert 'name="token"' not in page.content.decode()
        client.post(reverse("accounts:reauth"), {"password": f.PASSWORD})
        assert client.get(url).status_code == 200


def test_guessing_the_password_at_an_open_session_ends_it(cast, login):
    client = login(cast.same_team)
    url = reverse("accounts:reauth")
    for _ in range(4):
        assert client.post(url, {"password": "guess", "token": "123456"}).status_code == 200
    response = client.post(url, {"password": "guess", "token": "123456"})
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session
    assert AuditEvent.objects.filter(action="session.revoked").exists()
