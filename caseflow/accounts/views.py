"""Signing in and out, the second factor, re-authentication and one's own security page."""

from __future__ import annotations

import base64
import io
from urllib.parse import urlencode

import qrcode
import qrcode.image.svg
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from caseflow.accounts import links
from caseflow.accounts import second_factor as sf
from caseflow.accounts.forms import (
    CodeForm,
    EnrolForm,
    LoginForm,
    PasswordChangeForm,
    ReauthForm,
    SetPasswordForm,
)
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.accounts.reauth import reauth_redirect, require_recent_auth
from caseflow.audit.services import record
from caseflow.lib.i18n import gettext_lazy as _


class LoginView(auth_views.LoginView):
    form_class = LoginForm
    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def form_valid(self, form):
        response = super().form_valid(form)  # rotates the session key
        user = form.get_user()
        sf.session_start(self.request, user)
        record("security.login", actor=user)
        links.signed_in(request=self.request, user=user)
        return response

    def form_invalid(self, form):
        # The attempted username is not recorded: it may be a password typed in the wrong box.
        record("security.login_failed", actor=getattr(self.request, "user", None))
        return super().form_invalid(form)


@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        record("security.logout", actor=getattr(request, "user", None))
    return auth_views.LogoutView.as_view()(request)


@require_POST
@login_required
def keep_alive(request: HttpRequest) -> HttpResponse:
    """Nothing but a request: the session middleware counts it as activity. The page's script
    sends it while the person types, clicks or scrolls, and from "Stay signed in"."""
    return HttpResponse(status=204)


def lockout_response(request: HttpRequest, response: HttpResponse | None, credentials=None):
    """A locked (username, address) pair sees exactly what a wrong password sees."""
    if response is not None:
        return response
    form = LoginForm(request, data=None)
    form.add_error(None, LoginForm.error_messages["invalid_login"])
    return render(request, "accounts/login.html", {"form": form})


# -- second factor ---------------------------------------------------------------------------
def _next_url(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return "/"


@login_required
@require_http_methods(["GET", "POST"])
def second_factor(request: AuthenticatedRequest) -> HttpResponse:
    """After the password: a code from the authenticator app or a recovery code."""
    if sf.second_factor_done(request):
        return redirect(_next_url(request))
    if not sf.has_device(request.user):
        return redirect("accounts:enrol")
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if sf.second_factor_verify(
            actor=request.user, request=request, token=form.cleaned_data["token"]
        ):
            left = sf.recovery_codes_left(request.user)
            if left < sf.RECOVERY_CODE_COUNT and left <= 3:
                messages.warning(
                    request,
                    _("You have %(left)s recovery codes left. Make new ones under Security.")
                    % {"left": left},
                )
            return redirect(_next_url(request))
        form.add_error("token", _("That code is not right, or it has been used already."))
    return render(
        request,
        "accounts/second_factor.html",
        {"form": form, "next": _next_url(request)},
    )


def _may_enrol(request: AuthenticatedRequest) -> HttpResponse | None:
    """Enrolling a first authenticator needs the password; replacing one needs the current
    second factor and a recent re-authentication."""
    if sf.has_device(request.user):
        if not sf.second_factor_done(request):
            return redirect("accounts:second_factor")
        if not sf.recently_authenticated(request):
            return reauth_redirect(request)
    return None


@login_required
@require_http_methods(["GET", "POST"])
def enrol(request: AuthenticatedRequest) -> HttpResponse:
    refused = _may_enrol(request)
    if refused is not None:
        return refused
    device = sf.device_pending(request.user)
    form = EnrolForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        codes = sf.device_enrol(
            actor=request.user, request=request, token=form.cleaned_data["token"]
        )
        if codes is not None:
            return render(request, "accounts/recovery_codes.html", {"codes": codes})
        form.add_error("token", _("That code is not right. Check the time on your phone."))
    secret = base64.b32encode(device.bin_key).decode()
    return render(
        request,
        "accounts/enrol.html",
        {
            "form": form,
            "secret": " ".join(secret[i : i + 4] for i in range(0, len(secret), 4)),
        },
    )


@login_required
@require_http_methods(["GET"])
def enrol_qr(request: AuthenticatedRequest) -> HttpResponse:
    """The pending authenticator's set-up address as an SVG QR code (an image, no script)."""
    refused = _may_enrol(request)
    if refused is not None:
        raise Http404(_("Nothing to enrol"))
    device = sf.device_pending(request.user)
    image = qrcode.make(device.config_url, image_factory=qrcode.image.svg.SvgPathImage, box_size=12)
    out = io.BytesIO()
    image.save(out)
    return HttpResponse(out.getvalue(), content_type="image/svg+xml")


@login_required
@require_http_methods(["GET", "POST"])
def reauth(request: AuthenticatedRequest) -> HttpResponse:
    if not request.user.has_usable_password() and request.user.provider_identities.exists():
        # Someone who signs in at their agency's provider confirms who they are there.
        target = reverse("accounts:provider_reauth")
        return redirect(f"{target}?{urlencode({'next': _next_url(request)})}")
    form = ReauthForm(request.POST or None, code_required=not sf.demo_exempt(request.user))
    if request.method == "POST" and form.is_valid():
        if sf.reauthenticate(
            actor=request.user,
            request=request,
            password=form.cleaned_data["password"],
            token=form.cleaned_data.get("token", ""),
        ):
            return redirect(_next_url(request))
        if not request.user.is_authenticated:  # too many tries: the session has ended
            return redirect("accounts:login")
        form.add_error(None, _("Those details are not right. Check them and try again."))
    return render(request, "accounts/reauth.html", {"form": form, "next": _next_url(request)})


@login_required
@require_http_methods(["GET"])
def security(request: AuthenticatedRequest) -> HttpResponse:
    return render(
        request,
        "accounts/security.html",
        {
            "has_device": sf.has_device(request.user),
            "codes_left": sf.recovery_codes_left(request.user),
            "exempt": sf.demo_exempt(request.user),
        },
    )


@require_POST
@login_required
@require_recent_auth
def recovery_codes(request: AuthenticatedRequest) -> HttpResponse:
    if not sf.has_device(request.user):
        return redirect("accounts:enrol")
    codes = sf.recovery_codes_regenerate(actor=request.user, request=request)
    return render(request, "accounts/recovery_codes.html", {"codes": codes})


@require_POST
@login_required
def logout_everywhere(request: AuthenticatedRequest) -> HttpResponse:
    sf.sessions_end_all(actor=request.user, request=request)
    messages.info(request, _("You are signed out on every device."))
    return redirect("accounts:login")


@login_required
@require_http_methods(["GET", "POST"])
def password_change(request: AuthenticatedRequest) -> HttpResponse:
    form = PasswordChangeForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        sf.password_change(
            actor=request.user, request=request, password=form.cleaned_data["new_password"]
        )
        messages.success(request, _("Password changed. Your other sessions have ended."))
        return redirect("accounts:security")
    return render(request, "accounts/password.html", {"form": form})


@require_http_methods(["GET", "POST"])
def account_link(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """An enrolment or reset link: the person chooses their own password here. The token in
    the address moves into the session and the browser is sent to the same address without
    it, so the form page's address (and anything that logs or refers to it) holds no secret."""
    user = links.user_of(uidb64)
    if token != links.SET_PASSWORD:
        if request.method == "GET" and links.link_valid(user, token):
            request.session[links.SESSION_TOKEN] = token
            return redirect("accounts:link", uidb64=uidb64, token=links.SET_PASSWORD)
        return render(request, "accounts/link_expired.html")
    session_token = request.session.get(links.SESSION_TOKEN, "")
    if user is None or not links.link_valid(user, session_token):
        return render(request, "accounts/link_expired.html")
    form = SetPasswordForm(request.POST or None, user=user)
    if request.method == "POST" and form.is_valid():
        request.session.pop(links.SESSION_TOKEN, None)
        links.password_set_by_link(
            request=request, user=user, password=form.cleaned_data["new_password"]
        )
        messages.success(request, _("Your password is set."))
        return redirect("accounts:second_factor")
    return render(request, "accounts/link_password.html", {"form": form, "person": user})
