"""A calendar feed link ends with the user's sessions: "log out everywhere", a password change
and a second-factor reset each revoke it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.checkins import services
from tests import factories as f
from tests.conftest import verified_session


def _logout_everywhere(cast):
    client = Client()
    verified_session(client, cast.assigned)
    assert client.post(reverse("accounts:logout_everywhere")).status_code == 302


def _password_change(cast):
    client = Client()
    verified_session(client, cast.assigned)
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": f.PASSWORD, "new_password": "a-brand-new-long-passphrase-42"},
    )
    assert response.status_code == 302


def _second_factor_reset(cast):
    client = Client()
    verified_session(client, cast.agency_admin)
    url = reverse("agency:staff_second_factor_reset", args=[cast.assigned.pk])
    assert client.post(url).status_code == 302


@pytest.mark.parametrize("end", [_logout_everywhere, _password_change, _second_factor_reset])
def test_the_feed_link_stops_working(cast, end):
    token = services.calendar_token_create(actor=cast.assigned)
    feed = reverse("checkins:feed", args=[token])
    assert Client().get(feed).status_code == 200
    end(cast)
    assert Client().get(feed).status_code == 404
    assert not cast.assigned.calendar_tokens.filter(revoked_at__isnull=True).exists()
    event = AuditEvent.objects.filter(action="calendar_token.revoke").latest("seq")
    assert (event.object_type, event.object_id) == ("user", str(cast.assigned.pk))


def test_other_users_links_are_kept(cast):
    kept = services.calendar_token_create(actor=cast.same_team)
    services.calendar_token_create(actor=cast.assigned)
    _logout_everywhere(cast)
    assert Client().get(reverse("checkins:feed", args=[kept])).status_code == 200
