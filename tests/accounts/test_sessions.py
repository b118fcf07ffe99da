"""Session limits enforced on the server, session key rotation, log out everywhere, password
change."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from caseflow.audit.models import AuditEvent
from tests import factories as f
from tests.accounts.flows import enrolled, password_login
from tests.conftest import Cast, verified_session

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)


def at(minutes: float):
    return time_machine.travel(T0 + dt.timedelta(minutes=minutes), tick=False)


def signed_in(response) -> bool:
    return response.status_code == 200


def test_idle_sessions_end_after_fifteen_minutes(cast):
    client = Client()
    dashboard = reverse("dashboard")
    with at(0):
        verified_session(client, cast.assigned)
    with at(14):
        assert signed_in(client.get(dashboard))
    with at(28.9):  # 14.9 minutes after the last request
        assert signed_in(client.get(dashboard))
    with at(44):  # 15.1 minutes after it
        response = client.get(dashboard)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:login"))
        assert "_auth_user_id" not in client.session
    event = AuditEvent.objects.filter(action="session.expired").get()
    assert event.detail == {"reason": "idle"}


def test_the_time_last_seen_is_written_at_most_every_half_minute_and_never_later(cast):
    """No session write per request; the stored time lags the last request by less than the
    granularity, so a session idle for the limit after its last request is always over."""
    from caseflow.accounts import second_factor as sf

    client = Client()
    dashboard = reverse("dashboard")
    with at(0):
        verified_session(client, cast.assigned)
    with at(1):
        assert signed_in(client.get(dashboard))
        written = client.session[sf.SEEN_AT]
    with at(1.4):  # 24 seconds later: nothing written
        assert signed_in(client.get(dashboard))
        assert client.session[sf.SEEN_AT] == written
    with at(1.6):  # 36 seconds after the last write
        assert signed_in(client.get(dashboard))
        assert client.session[sf.SEEN_AT] > written
    # Last request at 1.6, stored 1.6: 15.1 minutes later it has ended.
    with at(16.7):
        assert client.get(dashboard).status_code == 302


def test_sessions_end_twelve_hours_after_sign_in_however_active(cast, settings):
    client = Client()
    dashboard = reverse("dashboard")
    with at(0):
        verified_session(client, cast.assigned)
    for minute in range(10, 12 * 60, 10):
        with at(minute):
            assert signed_in(client.get(dashboard)), minute
    with at(12 * 60 + 1):
        assert client.get(dashboard).status_code == 302
    assert AuditEvent.objects.get(action="session.expired").detail == {"reason": "absolute"}


def test_limits_follow_the_settings(cast, settings):
    settings.SESSION_IDLE_SECONDS = 60
    client = Client()
    with at(0):
        verified_session(client, cast.assigned)
    with at(1.1):
        assert client.get(reverse("dashboard")).status_code == 302


def test_the_session_key_changes_at_sign_in(cast, client):
    enrolled(cast.assigned)
    session = client.session
    session["before"] = True
    session.save()
    client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
    before = session.session_key
    response = password_login(client, "assigned")
    assert response.status_code == 302
    after = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert after and after != before


def test_idle_warning_is_wired_into_every_page(cast, login):
    body = login(cast.assigned).get(reverse("dashboard")).content.decode()
    assert f'data-idle-seconds="{settings.SESSION_IDLE_SECONDS}"' in body
    assert 'data-authenticated="1"' in body
    js = (settings.BASE_DIR / "static/js/caseflow.js").read_text()
    assert "idle-warning" in js and "idleSeconds" in js


def test_log_out_everywhere_ends_every_session(cast):
    here, elsewhere = Client(), Client()
    verified_session(here, cast.assigned)
    verified_session(elsewhere, cast.assigned)
    assert signed_in(elsewhere.get(reverse("dashboard")))
    assert here.get(reverse("accounts:logout_everywhere")).status_code == 405
    response = here.post(reverse("accounts:logout_everywhere"))
    assert response.status_code == 302
    assert elsewhere.get(reverse("dashboard")).status_code == 302
    assert here.get(reverse("dashboard")).status_code == 302
    assert AuditEvent.objects.filter(action="security.logout_everywhere").count() == 1


def test_password_change_ends_the_other_sessions_only(cast):
    here, elsewhere = Client(), Client()
    verified_session(here, cast.assigned)
    verified_session(elsewhere, cast.assigned)
    url = reverse("accounts:password_change")
    bad = here.post(url, {"old_password": "nope", "new_password": "short"})
    assert bad.status_code == 200
    assert signed_in(elsewhere.get(reverse("dashboard")))
    new = "a-brand-new-long-passphrase-42"
    response = here.post(url, {"old_password": f.PASSWORD, "new_password": new})
    assert response.status_code == 302
    assert signed_in(here.get(reverse("dashboard")))
    assert elsewhere.get(reverse("dashboard")).status_code == 302
    cast.assigned.refresh_from_db()
    assert cast.assigned.check_password(new)
    assert AuditEvent.objects.filter(action="security.password_changed").exists()


def test_the_membership_is_read_with_the_statement_first_would_send(cast: Cast):
    """The middleware reads each request's membership with SQL compiled once per process: the
    very statement (and parameters) ``first()`` sends, with the agency, or nothing for an
    operator, who has no membership."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from caseflow import middleware
    from caseflow.accounts.models import Membership, User

    for user in (cast.assigned, cast.supervisor, cast.operator):
        with CaptureQueriesContext(connection) as expected:
            first = Membership.objects.select_related("agency").filter(user_id=user.pk).first()
        fresh = User.objects.get(pk=user.pk)
        with CaptureQueriesContext(connection) as sent:
            middleware._load_membership(fresh)
            middleware._load_membership(fresh)  # kept on the user: asked once
            loaded = fresh.membership_or_none
            agency = loaded.agency.name if loaded else None  # came with it
        assert [q["sql"] for q in sent] == [q["sql"] for q in expected]
        assert loaded == first
        assert agency == (first.agency.name if first else None)
    assert cast.operator.membership_or_none is None


def test_a_session_is_read_with_the_statement_djangos_store_sends(cast: Cast, client):
    """caseflow's session store reads a session with SQL compiled once per process: the very
    statement Django's database store sends, the same data, and no session once it expired or
    for a key that is not one."""
    from django.contrib.sessions.backends import db as database_sessions
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from caseflow.accounts import sessions

    verified_session(client, cast.assigned)
    key = client.session.session_key
    moment = timezone.now()
    with time_machine.travel(moment, tick=False):
        with CaptureQueriesContext(connection) as ours:
            data = sessions.SessionStore(key).load()
        with CaptureQueriesContext(connection) as djangos:
            expected = database_sessions.SessionStore(key).load()
    assert data == expected and data["_auth_user_id"] == str(cast.assigned.pk)
    assert [q["sql"] for q in ours] == [q["sql"] for q in djangos]
    # Signed in through the whole stack with it.
    assert client.get(reverse("dashboard")).status_code == 200

    unknown = sessions.SessionStore("x" * 32)
    assert unknown.load() == {} and unknown.session_key is None
    with time_machine.travel(moment + dt.timedelta(days=30), tick=False):
        expired = sessions.SessionStore(key)
        assert expired.load() == {} and expired.session_key is None
