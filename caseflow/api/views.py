"""The agency admin's pages: integrations (register, revoke) and webhook subscriptions
(subscribe, end), with each delivery's outcome. A key or secret is shown once, on the page that
answers its creation, and never again."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.api import services
from caseflow.api.forms import SCOPE_LABELS, IntegrationForm, SubscriptionForm
from caseflow.lib.i18n import gettext_lazy as _


def _admin(request: AuthenticatedRequest) -> int:
    if not policy.may_manage_integrations(request.user):
        raise PermissionDenied
    agency_id = policy.agency_id_of(request.user)
    assert agency_id is not None
    return agency_id


@login_required
@require_http_methods(["GET"])
def integration_list(request: AuthenticatedRequest) -> HttpResponse:
    _admin(request)
    integrations = services.agency_integrations(actor=request.user)
    for integration in integrations:
        integration.scope_labels = [SCOPE_LABELS[s] for s in integration.scopes]  # type: ignore[attr-defined]
    return render(
        request,
        "api/integration_list.html",
        {
            "integrations": integrations,
            "subscriptions": services.agency_subscriptions(actor=request.user),
            "deliveries": services.recent_deliveries(actor=request.user),
            "now": timezone.now(),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def integration_new(request: AuthenticatedRequest) -> HttpResponse:
    _admin(request)
    form = IntegrationForm(
        request.POST or None,
        teams=policy.agency_teams(request.user),
        today=timezone.localdate(),
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        ends = dt.datetime.combine(data["expires_on"], dt.time.min)
        integration, key = services.integration_register(
            actor=request.user,
            name=data["name"].strip(),
            scopes=data["scopes"],
            team=data["team"],
            expires_at=timezone.make_aware(ends),
            allowed_addresses=data["allowed_addresses"],
            rate_per_minute=data["rate_per_minute"],
        )
        return render(request, "api/integration_key.html", {"integration": integration, "key": key})
    return render(request, "api/integration_new.html", {"form": form})


@login_required
@require_http_methods(["POST"])
def integration_revoke(request: AuthenticatedRequest, integration_id: str) -> HttpResponse:
    agency_id = _admin(request)
    integration = services.agency_integration(agency_id, integration_id)
    services.integration_revoke(actor=request.user, integration=integration)
    messages.success(request, _("Integration revoked: its next call is refused."))
    return redirect("integrations:list")


@login_required
@require_http_methods(["GET", "POST"])
def subscription_new(request: AuthenticatedRequest) -> HttpResponse:
    _admin(request)
    form = SubscriptionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        subscription, secret = services.webhook_subscribe(
            actor=request.user, url=form.cleaned_data["url"], kinds=form.cleaned_data["kinds"]
        )
        return render(
            request,
            "api/subscription_secret.html",
            {"subscription": subscription, "secret": secret},
        )
    return render(request, "api/subscription_new.html", {"form": form})


@login_required
@require_http_methods(["POST"])
def subscription_end(request: AuthenticatedRequest, subscription_id: str) -> HttpResponse:
    agency_id = _admin(request)
    subscription = services.agency_subscription(agency_id, subscription_id)
    services.webhook_end(actor=request.user, subscription=subscription)
    messages.success(request, _("Subscription ended: nothing more is sent to it."))
    return redirect("integrations:list")
