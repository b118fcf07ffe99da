"""Sign-in through an agency's identity provider over OpenID Connect (Authlib does the protocol:
state, nonce, PKCE, the ID token's signature, issuer, audience and times).

The provider says who the person is and which groups they are in; the agency admin's mapping
(:class:`ProviderGroup`) turns the groups into a role and teams. A person is found again only by
the provider's issuer and subject, never by a name or an address, so nobody can take over an
existing caseflow account by choosing a matching name at a provider.

Caseflow's second factor still applies unless the ID token says the provider checked one
(``amr`` or ``acr``). While the session lasts, the provider is asked again every
``OIDC_RECHECK_SECONDS`` (a refresh-token grant): a person switched off there is signed out.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Iterable
from typing import Any

from authlib.integrations.base_client import OAuthError
from authlib.integrations.django_client import DjangoOAuth2App
from authlib.integrations.django_client.integration import DjangoIntegration
from django.conf import settings
from django.contrib.auth import login
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from caseflow.accounts import backends
from caseflow.accounts import second_factor as sf
from caseflow.accounts.models import (
    Agency,
    IdentityProvider,
    Membership,
    ProviderGroup,
    ProviderIdentity,
    Team,
    User,
)
from caseflow.audit.services import record

# Session keys: the agency whose provider the browser was sent to (and why), and, once signed
# in, the identity used and when the provider was last asked.
PENDING = "caseflow_oidc_pending"
IDENTITY = "caseflow_oidc_identity"
CHECKED_AT = "caseflow_oidc_checked_at"
REAUTH_AT = "caseflow_oidc_reauth_at"

BACKEND = backends.BACKEND
MFA_AMR = frozenset({"mfa", "otp", "hwk", "sc", "fido", "swk"})
TIMEOUT = 10


class Refused(Exception):
    """The sign-in cannot go on; ``reason`` is a short kind for the audit and the page."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def provider_of(agency: Agency) -> IdentityProvider | None:
    return IdentityProvider.objects.filter(agency=agency, enabled=True).first()


def provider_set_up(agency: Agency) -> IdentityProvider | None:
    """The agency's provider, switched on or not (for its settings page)."""
    return IdentityProvider.objects.filter(agency=agency).first()


def groups_of(agency: Agency) -> list[ProviderGroup]:
    return list(ProviderGroup.objects.filter(agency=agency).select_related("team"))


def identity_of(user: User) -> ProviderIdentity | None:
    return ProviderIdentity.objects.filter(user_id=user.pk).first()


def _client(provider: IdentityProvider) -> DjangoOAuth2App:
    name = f"agency-{provider.agency_id}"
    return DjangoOAuth2App(
        DjangoIntegration(name),
        name=name,
        client_id=provider.client_id,
        client_secret=provider.client_secret,
        server_metadata_url=provider.discovery_url,
        client_kwargs={
            "scope": provider.scopes,
            "code_challenge_method": "S256",
            "timeout": TIMEOUT,
        },
    )


def start(
    request: HttpRequest, provider: IdentityProvider, *, redirect_uri: str, reauth: bool = False
) -> HttpResponse:
    """Send the browser to the provider. A re-authentication asks the provider to sign the
    person in again (``prompt=login``, ``max_age=0``)."""
    request.session[PENDING] = {"agency": provider.agency_id, "reauth": reauth}
    # ``access_type=offline`` is how Google gives the refresh token the recheck needs; other
    # providers ignore it (they take ``offline_access`` among the scopes).
    extra: dict[str, Any] = {"access_type": "offline"}
    if reauth:
        extra.update(prompt="login", max_age=0)
    return _client(provider).authorize_redirect(request, redirect_uri, **extra)


@dataclasses.dataclass(frozen=True)
class Outcome:
    user: User
    mfa: bool
    reauth: bool


def _mfa_claimed(claims: dict[str, Any]) -> bool:
    amr = claims.get("amr") or []
    if isinstance(amr, str):
        amr = [amr]
    if MFA_AMR & {str(a).lower() for a in amr}:
        return True
    acr = str(claims.get("acr") or "")
    return bool(acr) and acr in settings.OIDC_MFA_ACR_VALUES


def _groups(claims: dict[str, Any]) -> list[str]:
    groups = claims.get("groups") or []
    if isinstance(groups, str):
        groups = [groups]
    return [str(g) for g in groups]


def mapped(agency: Agency, groups: Iterable[str]) -> tuple[str, list[Team]]:
    """The role and teams the provider's groups give in the agency. Refused when no group is
    mapped, or when the groups give more than one role (the agency admin must settle it)."""
    rows = list(
        ProviderGroup.objects.filter(agency=agency, name__in=list(groups)).select_related("team")
    )
    if not rows:
        raise Refused("no_group")
    roles = {row.role for row in rows}
    if len(roles) != 1:
        raise Refused("many_roles")
    teams = [row.team for row in rows if row.team is not None]
    return roles.pop(), teams


def _new_username(claims: dict[str, Any], agency: Agency) -> str:
    base = str(claims.get("preferred_username") or claims.get("email") or "").split("@")[0]
    base = "".join(ch for ch in base.lower() if ch.isalnum() or ch in "._-")[:100]
    base = base or f"{agency.slug}-staff"
    name = base
    while User.objects.filter(username=name).exists():
        name = f"{base}-{secrets.token_hex(2)}"
    return name


@transaction.atomic
def _user_for(
    provider: IdentityProvider, claims: dict[str, Any], refresh_token: str
) -> tuple[User, bool]:
    agency = provider.agency
    role, teams = mapped(agency, _groups(claims))
    identity = (
        ProviderIdentity.objects.select_for_update(of=("self",))
        .select_related("user")
        .filter(issuer=claims["iss"], subject=str(claims["sub"]))
        .first()
    )
    created = identity is None
    if identity is None:
        user = User(username=_new_username(claims, agency))
        user.set_unusable_password()
        user.save()
        Membership.objects.create(user=user, agency=agency, role=role)
        identity = ProviderIdentity(user=user, issuer=claims["iss"], subject=str(claims["sub"]))
    else:
        user = identity.user
        membership = user.membership_or_none
        if user.is_superuser or membership is None or membership.agency_id != agency.pk:
            raise Refused("other_agency")
        if not (user.is_active and membership.is_active):
            # Switched off in caseflow by the agency admin: the provider cannot switch them on.
            raise Refused("inactive")
        if membership.role != role:
            record(
                "security.role_change",
                actor=user,
                obj=user,
                agency_id=agency.pk,
                detail={"source": "provider"},
            )
            membership.role = role
            membership.save(update_fields=["role"])
    user.first_name = str(claims.get("given_name") or user.first_name)[:150]
    user.last_name = str(claims.get("family_name") or user.last_name)[:150]
    user.email = str(claims.get("email") or user.email)[:254]
    user.save(update_fields=["first_name", "last_name", "email"])
    # The provider's groups say which of the agency's teams the person is in.
    user.teams.remove(*user.teams.filter(agency=agency).exclude(pk__in=[t.pk for t in teams]))
    user.teams.add(*teams)
    identity.refresh_token = refresh_token or identity.refresh_token or ""
    identity.signed_in_at = timezone.now()
    identity.save()
    if created:
        record(
            "staff.create", actor=user, obj=user, agency_id=agency.pk, detail={"via": "provider"}
        )
    return user, created


def finish(request: HttpRequest) -> Outcome:
    """The provider's answer: check it, find or make the person, sign them in (or, for a
    re-authentication, confirm the person signed in already)."""
    pending = request.session.pop(PENDING, None)
    if not isinstance(pending, dict) or not isinstance(pending.get("agency"), int):
        raise Refused("no_start")
    agency_id: int = pending["agency"]
    provider = (
        IdentityProvider.objects.select_related("agency")
        .filter(agency_id=agency_id, enabled=True)
        .first()
    )
    if provider is None:
        raise Refused("no_provider")
    try:
        token = _client(provider).authorize_access_token(request)
    except OAuthError as exc:
        raise Refused("provider_error") from exc
    except Exception as exc:  # network, bad JSON, a bad signature: never a 500 page
        raise Refused("provider_error") from exc
    claims = dict(token.get("userinfo") or {})
    if not claims.get("sub") or str(claims.get("iss", "")).rstrip("/") != provider.issuer.rstrip(
        "/"
    ):
        raise Refused("provider_error")
    mfa = _mfa_claimed(claims)
    refresh_token = str(token.get("refresh_token") or "")
    if pending.get("reauth"):
        user = request.user
        if (
            not user.is_authenticated
            or not ProviderIdentity.objects.filter(
                user_id=user.pk, issuer=claims["iss"], subject=str(claims["sub"])
            ).exists()
        ):
            raise Refused("other_person")
        if mfa:
            request.session[sf.PROVIDER_MFA] = True
            sf.mark_recent_auth(request)
            record("security.reauth", actor=user, detail={"via": "provider"})
        else:
            # Signed in again at the provider; caseflow's code is still to come.
            request.session[REAUTH_AT] = sf.now_ts()
        return Outcome(user=user, mfa=mfa, reauth=True)  # type: ignore[arg-type]
    user, _created = _user_for(provider, claims, refresh_token)
    identity = ProviderIdentity.objects.get(issuer=claims["iss"], subject=str(claims["sub"]))
    login(request, user, backend=BACKEND)  # rotates the session key
    sf.session_start(request, user)
    request.session[IDENTITY] = identity.pk
    request.session[CHECKED_AT] = sf.now_ts()
    if mfa:
        request.session[sf.PROVIDER_MFA] = True
        sf.mark_recent_auth(request)
    record("security.provider_login", actor=user, detail={"second_factor": mfa})
    return Outcome(user=user, mfa=mfa, reauth=False)


def refused(request: HttpRequest, reason: str) -> None:
    actor = request.user if request.user.is_authenticated else None
    record("security.provider_login_refused", actor=actor, detail={"reason": reason})


# -- still allowed in? -------------------------------------------------------------------------
def still_allowed(identity_pk: int) -> bool | None:
    """Ask the provider again with the stored refresh token. ``True``: still allowed (the new
    refresh token is kept); ``False``: the provider refused; ``None``: the provider could not be
    asked (network, or no refresh token)."""
    with transaction.atomic():
        identity = (
            ProviderIdentity.objects.select_for_update(of=("self",))
            .select_related("user__membership")
            .filter(pk=identity_pk)
            .first()
        )
        if identity is None:
            return False
        membership = identity.user.membership_or_none
        provider = (
            IdentityProvider.objects.filter(agency_id=membership.agency_id).first()
            if membership
            else None
        )
        if provider is None or not provider.enabled:
            return False
        if not identity.refresh_token:
            return None
        client = _client(provider)
        try:
            metadata = client.load_server_metadata()
            with client._get_oauth_client(**metadata) as session:
                token = session.refresh_token(
                    metadata["token_endpoint"], refresh_token=identity.refresh_token
                )
        except OAuthError:
            return False
        except Exception:
            return None
        identity.refresh_token = str(token.get("refresh_token") or identity.refresh_token)
        identity.save(update_fields=["refresh_token"])
        return True
