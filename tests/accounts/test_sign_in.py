"""Signing in and out: one generic message, a new session key, audit events."""

from __future__ import annotations

import pytest
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from tests.conftest import Cast
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def test_sign_in_rotates_the_session_and_lands_on_the_dashboard(cast: Cast, client, settings):
    client.get(reverse("accounts:login"))
    before = client.cookies.get(settings.SESSION_COOKIE_NAME)
    response = client.post(
        reverse("accounts:login"), {"username": "assigned", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("dashboard")
    after = client.cookies.get(settings.SESSION_COOKIE_NAME)
    assert after is not None and (before is None or before.value != after.value)
    assert AuditEvent.objects.filter(action="security.login", actor=cast.assigned).count() == 1


def test_wrong_user_and_wrong_password_get_the_same_message(cast: Cast, client):
    wrong_password = client.post(
        reverse("accounts:login"), {"username": "assigned", "password": "nope"}
    )
    wrong_user = client.post(reverse("accounts:login"), {"username": "nobody", "password": "nope"})
    message = "Those details are not right"
    assert message in wrong_password.content.decode()
    assert message in wrong_user.content.decode()
    assert AuditEvent.objects.filter(action="security.login_failed").count() == 2
    # The attempted username is not written to the audit trail.
    assert all("nobody" not in str(e.detail) for e in AuditEvent.objects.all())


def test_deactivated_membership_cannot_use_the_app(cast: Cast, client):
    client.post(reverse("accounts:login"), {"username": "deactivated", "password": PASSWORD})
    assert client.get(reverse("dashboard")).status_code == 302


def test_sign_out_is_post_only_and_recorded(cast: Cast, login):
    client = login(cast.assigned)
    assert client.get(reverse("accounts:logout")).status_code == 405
    assert client.post(reverse("accounts:logout")).status_code == 302
    assert client.get(reverse("dashboard")).status_code == 302
    assert AuditEvent.objects.filter(action="security.logout", actor=cast.assigned).exists()
