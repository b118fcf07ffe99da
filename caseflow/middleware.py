"""Cross-cutting request handling: request ids, live membership checks, no-store caching."""

from __future__ import annotations

import secrets

from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse

from caseflow.lib.request_context import request_id_var


class RequestIdMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.request_id = secrets.token_hex(8)
        token = request_id_var.set(request.request_id)
        try:
            response = self.get_response(request)
        finally:
            request_id_var.reset(token)
        response["X-Request-ID"] = request.request_id
        return response


class ActiveMembershipMiddleware:
    """Losing access takes effect on the very next request: a deactivated user, a deactivated
    membership or a bumped session epoch ends the session now."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = request.user
        if user.is_authenticated:
            membership = user.membership_or_none
            epoch_ok = request.session.get("session_epoch", 0) == user.session_epoch
            member_ok = user.is_superuser or (membership is not None and membership.is_active)
            if not (user.is_active and epoch_ok and member_ok):
                from caseflow.audit.services import record

                record("session.revoked", actor=user, request=request)
                logout(request)
        return self.get_response(request)


class NoStoreMiddleware:
    """Authenticated pages must never be kept by a browser or proxy cache."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if getattr(request, "user", None) is not None and (
            request.user.is_authenticated or request.path.startswith("/accounts/")
        ):
            response["Cache-Control"] = "no-store, max-age=0"
            response["Pragma"] = "no-cache"
        return response
