"""The signed-in user and the session's second factor, loaded with compiled SQL, are the very
rows Django's ``ModelBackend`` and django-otp load, checked the same way."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from caseflow.accounts import backends
from caseflow.accounts.models import Membership
from tests.conftest import verified_session

pytestmark = pytest.mark.django_db


def _sent(call, *args):
    with CaptureQueriesContext(connection) as sent:
        answer = call(*args)
    return answer, [q["sql"] for q in sent.captured_queries]


def test_the_backend_and_middleware_are_the_ones_in_use():
    assert backends.BACKEND in settings.AUTHENTICATION_BACKENDS
    assert "django.contrib.auth.backends.ModelBackend" not in settings.AUTHENTICATION_BACKENDS
    assert "caseflow.accounts.backends.CompiledOTPMiddleware" in settings.MIDDLEWARE
    assert "django_otp.middleware.OTPMiddleware" not in settings.MIDDLEWARE


def _django_get(user_id):
    """What Django sends for the user with its membership and agency joined, as ``get()``."""
    model = get_user_model()
    try:
        return model._default_manager.select_related("membership__agency").get(pk=user_id)
    except model.DoesNotExist:
        return None


def test_get_user_sends_django_statement_and_answers_the_same(cast):
    type(cast.same_team).objects.filter(pk=cast.same_team.pk).update(is_active=False)
    cast.same_team.refresh_from_db()
    people = [cast.assigned, cast.supervisor, cast.operator, cast.same_team, cast.coalition]
    for user in people:
        for user_id in (user.pk, str(user.pk)):  # sessions keep the id as text
            ours, our_sql = _sent(backends.AccountBackend().get_user, user_id)
            _joined, django_sql = _sent(_django_get, user_id)
            assert our_sql == django_sql and len(our_sql) == 1
            assert ours == ModelBackend().get_user(user_id)
            assert (ours is None) == (not user.is_active)
            if ours is None:
                continue
            # The membership and its agency came with the user: reading them sends nothing.
            membership, sent = _sent(lambda u=ours: u.membership_or_none)
            assert sent == []
            expected = Membership.objects.filter(user=user).first()
            assert membership == expected
            if expected is not None:
                agency, sent = _sent(lambda m=membership: m.agency.time_zone)
                assert sent == [] and agency == expected.agency.time_zone
    assert Membership.objects.filter(user=cast.coalition).first() is None
    assert backends.AccountBackend().get_user(cast.same_team.pk) is None
    assert backends.AccountBackend().get_user(cast.assigned.pk) == cast.assigned
    missing = max(u.pk for u in people) + 1000
    assert backends.AccountBackend().get_user(missing) is None
    assert ModelBackend().get_user(missing) is None


def test_a_request_reads_the_user_membership_and_agency_in_one_statement(cast):
    """The membership middleware and the agency's time zone find the membership and the agency
    on the user the backend loaded: no statement of their own, and they are the current rows."""
    client = Client()
    verified_session(client, cast.assigned)
    with CaptureQueriesContext(connection) as sent:
        assert client.get(reverse("dashboard")).status_code == 200
    statements = [q["sql"] for q in sent.captured_queries]
    users = [sql for sql in statements if 'FROM "accounts_user"' in sql]
    assert 'LEFT OUTER JOIN "accounts_membership"' in users[0]
    assert not [sql for sql in statements if 'FROM "accounts_membership"' in sql]
    # A deactivated membership is seen on the very next request, as before.
    Membership.objects.filter(user=cast.assigned).update(is_active=False)
    response = client.get(reverse("dashboard"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_a_session_of_a_deactivated_user_is_anonymous(cast):
    client = Client()
    verified_session(client, cast.assigned)
    assert client.get(reverse("dashboard")).status_code == 200
    type(cast.assigned).objects.filter(pk=cast.assigned.pk).update(is_active=False)
    response = client.get(reverse("dashboard"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_devices_are_the_ones_django_otp_loads(cast):
    totp = TOTPDevice.objects.create(user=cast.assigned, name="phone", confirmed=True)
    static = StaticDevice.objects.create(user=cast.assigned, name="codes", confirmed=True)
    ids = [
        totp.persistent_id,
        static.persistent_id,
        f"otp_totp.totpdevice/{totp.pk + 1000}",  # no such row
        "otp_totp.totpdevice/x",  # not a number
        "otp_totp.nosuchmodel/1",
        "nosuchapp.totpdevice/1",
        "no slash at all",
        "",
    ]
    for persistent_id in ids:
        ours, our_sql = _sent(backends.device_from_persistent_id, persistent_id)
        theirs, their_sql = _sent(Device.from_persistent_id, persistent_id)
        assert ours == theirs, persistent_id
        assert our_sql == their_sql, persistent_id
        if ours is not None:
            assert type(ours) is type(theirs)
    # A model that is not a device: nobody (django-otp's own lookup fails on it).
    assert backends.device_from_persistent_id(f"accounts.user/{cast.assigned.pk}") is None
    assert backends.device_from_persistent_id(totp.persistent_id) == totp
    assert backends.device_from_persistent_id(static.persistent_id) == static


def _with_device(client: Client, device) -> None:
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()


def test_only_the_users_own_confirmed_device_verifies_the_session(cast, monkeypatch):
    asked = []
    original = backends.device_from_persistent_id

    def counted(persistent_id):
        asked.append(persistent_id)
        return original(persistent_id)

    # The middleware in use loads the session's device through the compiled lookup (django-otp
    # still names the hook it overrides).
    monkeypatch.setattr(backends, "device_from_persistent_id", counted)
    dashboard = reverse("dashboard")
    client = Client()
    verified_session(client, cast.assigned)
    assert client.get(dashboard).status_code == 200
    assert len(asked) == 1
    # Another person's device in this session: not verified, sent to the second factor.
    theirs = TOTPDevice.objects.create(user=cast.same_team, name="theirs", confirmed=True)
    _with_device(client, theirs)
    response = client.get(dashboard)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:second_factor"))
    # Their own device, not confirmed yet: not verified either.
    unconfirmed = TOTPDevice.objects.create(user=cast.assigned, name="new", confirmed=False)
    _with_device(client, unconfirmed)
    response = client.get(dashboard)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:second_factor"))
    # Confirmed and theirs: the page.
    own = TOTPDevice.objects.create(user=cast.assigned, name="own", confirmed=True)
    _with_device(client, own)
    assert client.get(dashboard).status_code == 200
