"""Who may call the API: keys shown once and kept as a hash, revoking and expiry at the next
call, the address allow-list, the rate limit (kept while Redis is down); the admin's pages."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from caseflow import policy
from caseflow.api import keys, services
from caseflow.api.models import Integration
from caseflow.audit.models import AuditEvent
from tests.api.conftest import NOW
from tests.test_cache_outage import redis_down  # noqa: F401 - a fixture

SUMMARY = "api:case_summary"


def summary_url(case) -> str:
    return reverse(SUMMARY, args=[case.public_id])


def test_the_key_is_shown_once_and_only_its_hash_is_kept(cast, make_caller):
    caller = make_caller()
    integration = Integration.objects.get(pk=caller.integration.pk)
    assert keys.parse(caller.key) == integration.key_prefix
    assert integration.key_hash == keys.digest(caller.key)
    stored = " ".join(str(v) for v in Integration.objects.values_list().get(pk=integration.pk))
    assert caller.key not in stored
    assert AuditEvent.objects.filter(action="integration.register").count() == 1
    # Its account can never sign in.
    assert not integration.account.has_usable_password()
    assert policy.active_role(integration.account) is None


def test_a_valid_key_reads_and_a_wrong_one_gets_401(cast, make_caller):
    caller = make_caller()
    assert caller.get(summary_url(cast.case)).status_code == 200
    wrong = caller.key[:-4] + ("AAAA" if not caller.key.endswith("AAAA") else "BBBB")
    for key in (wrong, "cf_nothing", "", "Basic abc"):
        response = caller.client.get(summary_url(cast.case), HTTP_AUTHORIZATION=f"Bearer {key}")
        assert response.status_code == 401, key
        assert response["Content-Type"] == "application/problem+json"


def test_revoking_ends_access_at_the_next_call(cast, make_caller):
    caller = make_caller()
    assert caller.get(summary_url(cast.case)).status_code == 200
    services.integration_revoke(actor=cast.agency_admin, integration=caller.integration)
    response = caller.get(summary_url(cast.case))
    assert response.status_code == 401
    assert "CANARY" not in response.content.decode()


def test_expiry_ends_access(cast, make_caller):
    caller = make_caller(expires_at=NOW + dt.timedelta(hours=1))
    assert caller.get(summary_url(cast.case)).status_code == 200
    with time_machine.travel(NOW + dt.timedelta(hours=1, seconds=1), tick=False):
        assert caller.get(summary_url(cast.case)).status_code == 401


def test_the_address_allow_list(cast, make_caller):
    caller = make_caller(allowed_addresses="10.1.2.0/24\n192.0.2.7")
    response = caller.get(summary_url(cast.case))  # the test client calls from 127.0.0.1
    assert response.status_code == 403
    assert "CANARY" not in response.content.decode()
    allowed = make_caller(name="Inside", allowed_addresses="127.0.0.0/8")
    assert allowed.get(summary_url(cast.case)).status_code == 200


def test_the_rate_limit_is_per_integration(cast, make_caller):
    busy = make_caller(rate_per_minute=2)
    quiet = make_caller(name="Quiet", rate_per_minute=2)
    statuses = [busy.get(summary_url(cast.case)).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    limited = busy.get(summary_url(cast.case))
    assert limited["Content-Type"] == "application/problem+json"
    assert int(limited["Retry-After"]) > 0
    assert quiet.get(summary_url(cast.case)).status_code == 200
    with time_machine.travel(NOW + dt.timedelta(minutes=1), tick=False):
        assert busy.get(summary_url(cast.case)).status_code == 200


def test_the_rate_limit_holds_and_calls_go_on_while_redis_is_down(
    cast,
    make_caller,
    redis_down,  # noqa: F811
):
    caller = make_caller(rate_per_minute=2)
    statuses = [caller.get(summary_url(cast.case)).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]


def test_a_browser_session_is_not_a_key(cast, login):
    client = login(cast.supervisor)
    assert client.get(summary_url(cast.case)).status_code == 401


# --- The admin's pages ------------------------------------------------------------------------


def test_the_admin_registers_sees_the_key_once_and_revokes(cast, login):
    client = login(cast.agency_admin)
    response = client.post(
        reverse("integrations:new"),
        {
            "name": "County hotline",
            "scopes": [policy.SCOPE_REFERRALS_WRITE],
            "team": cast.team1.pk,
            "expires_on": "2026-06-30",
            "allowed_addresses": "203.0.113.0/24",
            "rate_per_minute": "30",
        },
    )
    assert response.status_code == 200
    integration = Integration.objects.get(name="County hotline")
    key = response.context["key"]
    assert keys.digest(key) == integration.key_hash
    assert key in response.content.decode()
    assert response["Cache-Control"].startswith("no-store")
    listing = client.get(reverse("integrations:list"))
    assert "County hotline" in listing.content.decode()
    assert key not in listing.content.decode()
    revoke = client.post(reverse("integrations:revoke", args=[integration.public_id]))
    assert revoke.status_code == 302
    integration.refresh_from_db()
    assert integration.revoked_at is not None
    assert not integration.account.is_active


def test_bad_registration_input_is_shown_on_the_form(cast, login):
    client = login(cast.agency_admin)
    response = client.post(
        reverse("integrations:new"),
        {
            "name": "X",
            "scopes": [policy.SCOPE_CASES_NARRATIVE],
            "expires_on": "2026-03-01",
            "allowed_addresses": "not an address",
            "rate_per_minute": "0",
        },
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert set(errors) == {"scopes", "expires_on", "allowed_addresses", "rate_per_minute"}
    assert not Integration.objects.exists()


@pytest.mark.parametrize("name", ["integrations:list", "integrations:new"])
def test_pages_are_the_admins_only(cast, login, name):
    assert login(cast.agency_admin).get(reverse(name)).status_code == 200
    assert login(cast.supervisor).get(reverse(name)).status_code == 403
    anonymous = login(None).get(reverse(name))
    assert anonymous.status_code == 302
    assert reverse("accounts:login") in anonymous["Location"]


def test_wrong_method_on_the_pages(cast, login):
    client = login(cast.agency_admin)
    assert client.post(reverse("integrations:list")).status_code == 405


def test_another_agencys_admin_cannot_revoke(cast, login, make_caller):
    from tests import factories as f

    caller = make_caller()
    foreign_admin = f.staff(cast.other_agency_team.agency, "agency_admin", username="b_admin")
    url = reverse("integrations:revoke", args=[caller.integration.public_id])
    assert login(foreign_admin).post(url).status_code == 404
    assert login(cast.supervisor).post(url).status_code == 403
    assert Integration.objects.get(pk=caller.integration.pk).revoked_at is None


def test_the_admin_is_given_nothing_of_case_content(cast, login, make_caller):
    make_caller()
    body = login(cast.agency_admin).get(reverse("integrations:list")).content.decode()
    assert "CANARY" not in body
    assert timezone.now() == NOW


def _refusals(caller) -> list[tuple]:
    from caseflow.audit.models import AuditEvent

    return [
        (e.detail["reason"], e.detail["status"], e.actor_id)
        for e in AuditEvent.objects.filter(
            action="api.refused", object_id=caller.integration.public_id
        ).order_by("pk")
    ]


def test_a_known_integrations_refused_calls_are_audited_once_each_and_strangers_are_not(
    cast, make_caller
):
    from caseflow.audit.models import AuditEvent

    # An address it may not call from.
    outside = make_caller(name="Outside", allowed_addresses="10.1.2.0/24")
    assert outside.get(summary_url(cast.case)).status_code == 403
    assert _refusals(outside) == [("address", 403, outside.integration.account_id)]
    # A scope it does not hold.
    narrow = make_caller(scopes=["referrals:write"], name="Narrow")
    assert narrow.get(summary_url(cast.case)).status_code == 403
    assert _refusals(narrow) == [("scope", 403, narrow.integration.account_id)]
    # Over its rate: the first refused call of the minute, not the whole burst.
    busy = make_caller(name="Busy", rate_per_minute=1)
    statuses = [busy.get(summary_url(cast.case)).status_code for _ in range(4)]
    assert statuses == [200, 429, 429, 429]
    assert _refusals(busy) == [("rate", 429, busy.integration.account_id)]
    # Revoked: the right key of an integration that is no more.
    revoked = make_caller(name="Revoked")
    services.integration_revoke(actor=cast.agency_admin, integration=revoked.integration)
    assert revoked.get(summary_url(cast.case)).status_code == 401
    account = revoked.integration.account_id
    assert _refusals(revoked) == [("revoked_or_expired", 401, account)]
    # A key that matches nothing names nobody: nothing is written.
    before = AuditEvent.objects.filter(action="api.refused").count()
    response = busy.client.get(summary_url(cast.case), HTTP_AUTHORIZATION="Bearer cf_nothing")
    assert response.status_code == 401
    assert AuditEvent.objects.filter(action="api.refused").count() == before
