"""The agency admin's mapping from the identity provider's groups to roles and teams, and the
operators' set-up of the provider itself (its client secret kept encrypted, never shown)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse

from caseflow.accounts.models import IdentityProvider, ProviderGroup, Role
from caseflow.audit.models import AuditEvent

pytestmark = pytest.mark.django_db


def test_agency_admin_maps_groups_to_roles_and_teams(cast, login):
    client = login(cast.agency_admin)
    url = reverse("agency:provider_groups")
    assert client.get(url).status_code == 200
    response = client.post(
        url, {"name": "Advocates North", "role": Role.ADVOCATE, "team": cast.team1.pk}
    )
    assert response.status_code == 302
    group = ProviderGroup.objects.get(agency=cast.agency)
    assert (group.name, group.role, group.team) == ("Advocates North", Role.ADVOCATE, cast.team1)
    event = AuditEvent.objects.get(action="security.provider_groups_change")
    assert "Advocates North" not in str(event.detail)
    page = client.get(url).content.decode()
    assert "Advocates North" in page and "Team 1" in page
    # The same group again, another agency's team, no name: told on the form, nothing saved.
    again = client.post(url, {"name": "Advocates North", "role": Role.SUPERVISOR})
    assert again.status_code == 200 and "already gives a role" in again.content.decode()
    foreign = client.post(
        url, {"name": "Elsewhere", "role": Role.ADVOCATE, "team": cast.other_agency_team.pk}
    )
    assert foreign.status_code == 200
    assert client.post(url, {"name": " ", "role": "boss"}).status_code == 200
    assert ProviderGroup.objects.count() == 1
    delete = reverse("agency:provider_group_delete", args=[group.pk])
    assert client.post(delete).status_code == 302
    assert not ProviderGroup.objects.exists()
    assert client.post(delete).status_code == 404


def test_an_agency_admin_cannot_remove_another_agencys_group(cast, login):
    group = ProviderGroup.objects.create(
        agency=cast.other_agency_team.agency, name="staff", role=Role.ADVOCATE
    )
    client = login(cast.agency_admin)
    response = client.post(reverse("agency:provider_group_delete", args=[group.pk]))
    assert response.status_code == 404
    assert ProviderGroup.objects.filter(pk=group.pk).exists()


def test_operators_set_up_the_provider_and_its_secret_is_never_shown(cast, login):
    client = login(cast.operator)
    add = reverse("admin:accounts_identityprovider_add")
    response = client.post(
        add,
        {
            "agency": cast.agency.pk,
            "issuer": "https://login.example.org/tenant/v2.0",
            "client_id": "caseflow",
            "client_secret": "s3cret-value",
            "scopes": "openid profile email offline_access",
            "enabled": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    provider = IdentityProvider.objects.get()
    assert provider.client_secret == "s3cret-value"
    with connection.cursor() as cursor:
        cursor.execute("SELECT client_secret FROM accounts_identityprovider")
        assert "s3cret-value" not in cursor.fetchone()[0]
    change = reverse("admin:accounts_identityprovider_change", args=[provider.pk])
    assert "s3cret-value" not in client.get(change).content.decode()
    response = client.post(
        change,
        {
            "agency": cast.agency.pk,
            "issuer": "https://login.example.org/tenant/v2.0",
            "client_id": "caseflow-2",
            "client_secret": "",
            "scopes": "openid",
            "enabled": "on",
        },
    )
    assert response.status_code == 302
    provider.refresh_from_db()
    assert (provider.client_id, provider.client_secret) == ("caseflow-2", "s3cret-value")
    settings_page = login(cast.agency_admin).get(reverse("agency:settings")).content.decode()
    assert reverse("agency:provider_groups") in settings_page
