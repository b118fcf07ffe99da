"""Sign-in through the agency's identity provider, against a real OpenID Connect provider (the
one in ``tests/oidc_provider``, run in its own process): the groups give the role and team, an
unknown group is refused, the provider's second factor is taken when it says it checked one,
and a person switched off there is signed out and refused."""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit

import pytest
from django.urls import reverse

from caseflow.accounts import oidc
from caseflow.accounts import second_factor as sf
from caseflow.accounts.models import (
    IdentityProvider,
    ProviderGroup,
    ProviderIdentity,
    Role,
    User,
)
from caseflow.audit.models import AuditEvent
from tests.factories import AgencyFactory, TeamFactory, staff
from tests.oidc_provider import harness

CALLBACK = "http://testserver/accounts/provider/callback/"


@pytest.fixture
def idp(db):
    """An agency with the test provider as its identity provider, and its group mapping."""
    running = harness.provider()
    client_id = f"caseflow-{secrets.token_hex(4)}"
    secret = secrets.token_urlsafe(24)
    running.client(client_id, secret, [CALLBACK])
    agency = AgencyFactory(slug=f"refuge-{secrets.token_hex(3)}")
    team = TeamFactory(agency=agency, name="North")
    IdentityProvider.objects.create(
        agency=agency,
        issuer=running.issuer,
        client_id=client_id,
        client_secret=secret,
        scopes="openid profile email offline_access",
    )
    ProviderGroup.objects.create(
        agency=agency, name="advocates-north", role=Role.ADVOCATE, team=team
    )
    ProviderGroup.objects.create(agency=agency, name="supervisors", role=Role.SUPERVISOR)
    return running, agency, team


def _sign_in(client, running, agency, username: str):
    """Caseflow's start, the provider's sign-in, and caseflow's callback."""
    start = client.get(reverse("accounts:provider_start", args=[agency.slug]))
    assert start.status_code == 302
    back = running.sign_in(start["Location"], username)
    if not back:
        return None
    parts = urlsplit(back)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == CALLBACK
    return client.get(f"{parts.path}?{parts.query}")


def test_groups_give_role_and_team_and_caseflow_asks_its_second_factor(client, idp):
    running, agency, team = idp
    running.person("amira", groups=["advocates-north", "somebody-elses-group"])
    page = client.get(reverse("accounts:agency_login", args=[agency.slug]))
    assert page.status_code == 200
    response = _sign_in(client, running, agency, "amira")
    assert response.status_code == 302
    # No amr of a second factor: caseflow's own, starting with enrolment.
    assert response["Location"] == reverse("accounts:enrol")
    user = User.objects.get(provider_identities__issuer=running.issuer)
    assert user.membership.agency == agency
    assert user.membership.role == Role.ADVOCATE
    assert list(user.teams.all()) == [team]
    assert not user.has_usable_password()
    assert client.get("/").status_code == 302  # the second factor is still to come
    assert AuditEvent.objects.filter(action="security.provider_login").count() == 1


def test_provider_second_factor_is_taken_and_the_role_follows_the_groups(client, idp):
    running, agency, team = idp
    running.person("bea", groups=["advocates-north"], mfa=True)
    response = _sign_in(client, running, agency, "bea")
    assert response["Location"] == "/"
    assert client.get("/").status_code == 200
    # Next time the provider puts her among the supervisors, and in no team.
    client.post(reverse("accounts:logout"))
    running.person("bea", groups=["supervisors"], mfa=True)
    assert _sign_in(client, running, agency, "bea")["Location"] == "/"
    user = User.objects.get(provider_identities__issuer=running.issuer)
    assert user.membership.role == Role.SUPERVISOR
    assert not user.teams.exists()
    assert ProviderIdentity.objects.count() == 1


def test_no_mapped_group_is_refused_with_a_clear_page(client, idp):
    running, agency, _team = idp
    running.person("cleo", groups=["finance"], mfa=True)
    response = _sign_in(client, running, agency, "cleo")
    assert response.status_code == 403
    assert "not in any group that caseflow knows" in response.content.decode()
    assert not User.objects.filter(provider_identities__issuer=running.issuer).exists()
    assert client.get("/").status_code == 302


def test_a_forged_or_replayed_callback_is_refused(client, idp):
    running, agency, _team = idp
    running.person("dina", groups=["advocates-north"], mfa=True)
    start = client.get(reverse("accounts:provider_start", args=[agency.slug]))
    back = running.sign_in(start["Location"], "dina")
    parts = urlsplit(back)
    wrong_state = parts.query.replace("state=", "state=x")
    assert client.get(f"{parts.path}?{wrong_state}").status_code == 403
    assert client.get(f"{parts.path}?{parts.query}").status_code == 403  # the start is used up
    assert client.get(reverse("accounts:provider_callback")).status_code == 403


def test_switched_off_at_the_provider_is_signed_out_and_refused(client, idp, settings):
    running, agency, _team = idp
    running.person("eve", groups=["advocates-north"], mfa=True)
    assert _sign_in(client, running, agency, "eve")["Location"] == "/"
    settings.OIDC_RECHECK_SECONDS = 0
    assert client.get("/").status_code == 200  # asked again: still allowed
    running.person("eve", groups=["advocates-north"], mfa=True, active=False)
    response = client.get("/")
    assert response.status_code == 302  # signed out
    assert AuditEvent.objects.filter(action="session.revoked", detail__reason="provider").exists()
    assert _sign_in(client, running, agency, "eve") is None  # the provider refuses her


def test_recheck_waits_its_interval(client, idp, settings, monkeypatch):
    running, agency, _team = idp
    running.person("fay", groups=["advocates-north"], mfa=True)
    _sign_in(client, running, agency, "fay")
    asked = []
    monkeypatch.setattr(oidc, "still_allowed", lambda pk: asked.append(pk) or True)
    assert client.get("/").status_code == 200
    assert asked == []
    session = client.session
    session[oidc.CHECKED_AT] = sf.now_ts() - settings.OIDC_RECHECK_SECONDS - 1
    session.save()
    assert client.get("/").status_code == 200
    assert len(asked) == 1


def test_agency_without_provider_keeps_password_sign_in(client, db):
    agency = AgencyFactory()
    assert client.get(reverse("accounts:agency_login", args=[agency.slug]))["Location"] == reverse(
        "accounts:login"
    )
    assert client.get(reverse("accounts:provider_start", args=[agency.slug])).status_code == 404
    user = staff(agency)
    user.set_password("a long password for this")
    user.save()
    response = client.post(
        reverse("accounts:login"),
        {"username": user.username, "password": "a long password for this"},
    )
    assert response.status_code == 302


def test_confirming_identity_again_goes_back_to_the_provider(client, idp, settings):
    running, agency, _team = idp
    running.person("gail", groups=["advocates-north"], mfa=True)
    _sign_in(client, running, agency, "gail")
    session = client.session
    session[sf.RECENT_AUTH_AT] = sf.now_ts() - settings.RECENT_AUTH_MINUTES * 60 - 1
    session.save()
    response = client.get(reverse("accounts:reauth") + "?next=/accounts/security/")
    assert response["Location"].startswith(reverse("accounts:provider_reauth"))
    to_provider = client.get(response["Location"])
    assert to_provider["Location"].startswith(running.issuer)
    assert "prompt=login" in to_provider["Location"]
    back = urlsplit(running.sign_in(to_provider["Location"], "gail"))
    answer = client.get(f"{back.path}?{back.query}")
    assert answer["Location"] == "/accounts/security/"
    assert now_recent(client)
    # Someone else signing in at the provider does not confirm her.
    running.person("hana", groups=["advocates-north"], mfa=True)
    to_provider = client.get(reverse("accounts:provider_reauth"))
    back = urlsplit(running.sign_in(to_provider["Location"], "hana"))
    assert client.get(f"{back.path}?{back.query}").status_code == 403


def now_recent(client) -> bool:
    from django.conf import settings

    at = client.session.get(sf.RECENT_AUTH_AT)
    return at is not None and sf.now_ts() - float(at) < settings.RECENT_AUTH_MINUTES * 60
