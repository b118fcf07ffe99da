"""Sign-in hardening: lockout per (username, client address), one generic message, password
hashes upgraded to Argon2."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import make_password
from django.test import Client
from django.urls import reverse

import caseflow.settings as configured
from caseflow.accounts.forms import LoginForm
from tests import factories as f
from tests.accounts.flows import password_login

pytestmark = pytest.mark.django_db

GENERIC = str(LoginForm.error_messages["invalid_login"])


def signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def failure_page(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


def test_wrong_user_wrong_password_and_locked_account_look_the_same(cast, settings):
    settings.AXES_FAILURE_LIMIT = 5
    client = Client()
    wrong_user = failure_page(password_login(client, "nobody-here", ip="10.0.0.1"))
    wrong_password = failure_page(password_login(client, "assigned", "nope", ip="10.0.0.1"))
    for _ in range(4):
        password_login(client, "assigned", "nope", ip="10.0.0.1")
    locked = failure_page(password_login(client, "assigned", ip="10.0.0.1"))
    assert not signed_in(client)
    for body in (wrong_user, wrong_password, locked):
        assert GENERIC in body
        assert "locked" not in body.lower()


def test_lockout_is_per_username_and_address(cast):
    attacker, advocate = Client(), Client()
    for _ in range(5):
        password_login(attacker, "assigned", "guess", ip="203.0.113.9")
    # Even the right password is refused from that address now…
    password_login(attacker, "assigned", ip="203.0.113.9")
    assert not signed_in(attacker)
    # …but the advocate signs in from her own address,
    response = password_login(advocate, "assigned", ip="198.51.100.7")
    assert response.status_code == 302 and signed_in(advocate)
    # and another user from the attacker's address is not locked either.
    assert password_login(Client(), "same_team", ip="203.0.113.9").status_code == 302


def test_lockout_uses_the_trusted_proxy_address(cast, settings):
    settings.TRUSTED_PROXY_IP_HEADER = "X-Forwarded-For"
    settings.TRUSTED_PROXIES = ["10.0.0.0/24"]
    attacker, advocate = Client(), Client()
    for _ in range(5):
        attacker.post(
            reverse("accounts:login"),
            {"username": "assigned", "password": "guess"},
            REMOTE_ADDR="10.0.0.2",
            HTTP_X_FORWARDED_FOR="203.0.113.9",
        )
    # Same proxy, different client: not locked out.
    response = advocate.post(
        reverse("accounts:login"),
        {"username": "assigned", "password": f.PASSWORD},
        REMOTE_ADDR="10.0.0.2",
        HTTP_X_FORWARDED_FOR="198.51.100.7",
    )
    assert response.status_code == 302
    # A spoofed header value before the proxy's own does not help the attacker.
    attacker.post(
        reverse("accounts:login"),
        {"username": "assigned", "password": f.PASSWORD},
        REMOTE_ADDR="10.0.0.2",
        HTTP_X_FORWARDED_FOR="198.51.100.7, 203.0.113.9",
    )
    assert not signed_in(attacker)


def test_a_successful_sign_in_resets_the_count(cast):
    client = Client()
    for _ in range(4):
        password_login(client, "assigned", "guess")
    assert password_login(client, "assigned").status_code == 302
    client.post(reverse("accounts:logout"))
    for _ in range(4):
        password_login(client, "assigned", "guess")
    assert password_login(client, "assigned").status_code == 302


def test_argon2_first_and_older_hashes_upgraded_at_sign_in(cast, settings):
    assert configured.PASSWORD_HASHERS[0].endswith("Argon2PasswordHasher")
    settings.PASSWORD_HASHERS = configured.PASSWORD_HASHERS
    user = cast.assigned
    user.password = make_password(f.PASSWORD, hasher="pbkdf2_sha256")
    user.save(update_fields=["password"])
    assert password_login(Client(), "assigned").status_code == 302
    user.refresh_from_db()
    assert user.password.startswith("argon2$")


def test_failed_sign_in_is_audited_without_the_username(cast):
    from caseflow.audit.models import AuditEvent

    password_login(Client(), "assigned", "hunter2-typed-in-the-wrong-box")
    event = AuditEvent.objects.get(action="security.login_failed")
    assert "hunter2" not in str(event.detail) and "assigned" not in str(event.detail)


def test_the_header_is_ignored_unless_the_peer_is_a_trusted_proxy(cast, settings):
    """Reaching the app server directly, an attacker cannot pick a new address per guess."""
    settings.TRUSTED_PROXY_IP_HEADER = "X-Forwarded-For"
    settings.TRUSTED_PROXIES = ["10.0.0.2"]
    attacker = Client()
    for n in range(5):
        attacker.post(
            reverse("accounts:login"),
            {"username": "assigned", "password": "guess"},
            REMOTE_ADDR="192.0.2.50",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{n + 1}",
        )
    attacker.post(
        reverse("accounts:login"),
        {"username": "assigned", "password": f.PASSWORD},
        REMOTE_ADDR="192.0.2.50",
        HTTP_X_FORWARDED_FOR="203.0.113.99",
    )
    assert not signed_in(attacker)
