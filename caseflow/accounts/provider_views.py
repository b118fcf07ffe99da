"""Signing in through the agency's identity provider (see :mod:`caseflow.accounts.oidc`)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from caseflow.accounts import oidc
from caseflow.accounts import second_factor as sf
from caseflow.accounts.forms import CodeForm
from caseflow.accounts.models import Agency
from caseflow.audit.services import record
from caseflow.lib.i18n import gettext_lazy as _

# What a refused sign-in says, in plain words (the reason itself is only in the audit).
REFUSALS = {
    "no_group": _(
        "Your account at your agency's sign-in service is not in any group that caseflow knows. "
        "Ask your agency admin to give your group a role in caseflow."
    ),
    "many_roles": _(
        "Your groups at your agency's sign-in service give you more than one role in caseflow. "
        "Ask your agency admin to settle which one applies."
    ),
    "inactive": _("Your caseflow account is switched off. Ask your agency admin."),
    "other_agency": _("This account belongs to another agency in caseflow. Ask your agency admin."),
    "other_person": _("You signed in as someone else. Sign in again as yourself."),
}
GENERIC = _("The sign-in did not complete. Start again, and ask your agency admin if it goes on.")


def _callback_uri(request: HttpRequest) -> str:
    return request.build_absolute_uri(reverse("accounts:provider_callback"))


@require_http_methods(["GET"])
def agency_login(request: HttpRequest, slug: str) -> HttpResponse:
    """The agency's own sign-in page: a button to its identity provider. Agencies without one
    are sent to caseflow's password sign-in."""
    agency = get_object_or_404(Agency, slug=slug)
    if oidc.provider_of(agency) is None:
        return redirect("accounts:login")
    if request.user.is_authenticated:
        return redirect("/")
    return render(request, "accounts/agency_login.html", {"agency": agency})


@require_http_methods(["GET"])
def provider_start(request: HttpRequest, slug: str) -> HttpResponse:
    """Off to the provider. A link, not a form: a form's redirect to another site is blocked by
    the pages' ``form-action 'self'``. Starting changes nothing here but the person's own
    session, and the answer is only taken in the session that started it (``state``)."""
    agency = get_object_or_404(Agency, slug=slug)
    provider = oidc.provider_of(agency)
    if provider is None:
        raise Http404(_("This agency signs in with a password."))
    try:
        return oidc.start(request, provider, redirect_uri=_callback_uri(request))
    except Exception:  # the provider cannot be reached: say so, never a 500 page
        return render(
            request,
            "accounts/provider_refused.html",
            {"message": _("Your agency's sign-in service cannot be reached. Try again soon.")},
            status=502,
        )


@require_http_methods(["GET"])
def provider_callback(request: HttpRequest) -> HttpResponse:
    try:
        outcome = oidc.finish(request)
    except oidc.Refused as refusal:
        oidc.refused(request, refusal.reason)
        message = REFUSALS.get(refusal.reason, GENERIC)
        return render(request, "accounts/provider_refused.html", {"message": message}, status=403)
    if outcome.reauth:
        if outcome.mfa:
            return redirect(request.session.pop("caseflow_oidc_next", "/"))
        return redirect("accounts:provider_reauth")
    if outcome.mfa:
        return redirect("/")
    return redirect("accounts:second_factor" if sf.has_device(outcome.user) else "accounts:enrol")


@require_http_methods(["GET", "POST"])
def provider_reauth(request: HttpRequest) -> HttpResponse:
    """Confirming one's identity again, for someone who signs in at a provider: the provider
    signs them in again, then (unless it checked a second factor) caseflow asks for a code."""
    if not request.user.is_authenticated:
        return redirect("accounts:login")
    identity = oidc.identity_of(request.user)  # type: ignore[arg-type]
    membership = request.user.membership_or_none  # type: ignore[union-attr]
    provider = oidc.provider_of(membership.agency) if membership else None
    if identity is None or provider is None:
        return redirect("accounts:reauth")
    at = request.session.get(oidc.REAUTH_AT)
    fresh = at is not None and sf.now_ts() - float(at) <= 300
    if not fresh:
        if request.method == "GET" and request.GET.get("next"):
            request.session["caseflow_oidc_next"] = _safe_next(request)
        try:
            return oidc.start(request, provider, redirect_uri=_callback_uri(request), reauth=True)
        except Exception:
            return render(
                request,
                "accounts/provider_refused.html",
                {"message": _("Your agency's sign-in service cannot be reached. Try again soon.")},
                status=502,
            )
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if sf.second_factor_verify(
            actor=request.user,  # type: ignore[arg-type]
            request=request,
            token=form.cleaned_data["token"],
        ):
            request.session.pop(oidc.REAUTH_AT, None)
            record("security.reauth", actor=request.user, detail={"via": "provider"})
            messages.success(request, _("Thank you. You can carry on."))
            return redirect(request.session.pop("caseflow_oidc_next", "/"))
        form.add_error("token", _("That code is not right, or it has been used already."))
    return render(request, "accounts/second_factor.html", {"form": form, "next": ""})


def _safe_next(request: HttpRequest) -> str:
    from django.utils.http import url_has_allowed_host_and_scheme

    target = request.GET.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return "/"
