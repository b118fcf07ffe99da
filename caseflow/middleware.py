"""Cross-cutting request handling: request ids, live membership checks, session limits, the
second factor, no-store caching."""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import logout
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve, reverse
from django.utils.translation import gettext

from caseflow.errors import render_error
from caseflow.lib.compiled import CompiledQuery
from caseflow.lib.request_context import client_ip, serving


class RequestIdMiddleware:
    """Give the request an id (sent back as ``X-Request-ID``) and hold it, with the client's
    address, in the request context for as long as the request is served: every audit event
    written meanwhile, by a view or a service, carries both."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = secrets.token_hex(8)
        request.request_id = request_id  # type: ignore[attr-defined]  # read by current_request_id
        with serving(request_id=request_id, ip=client_ip(request)):
            response = self.get_response(request)
        response["X-Request-ID"] = request_id
        return response


class RequestSizeLimitMiddleware:
    """Refuse a request whose declared body is over ``REQUEST_MAX_BYTES`` with a 413 page,
    before anything reads the body. (The reverse proxy should refuse it first: see README.)

    The response sets no ``Connection`` header: it is hop-by-hop, a WSGI application may not
    send it (the development server the demo runs refuses the whole response, answering a bare
    500), and the servers decide themselves: gunicorn closes the connection or discards the
    rest of the body within its limits, the development server reads it and carries on."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        declared = request.META.get("CONTENT_LENGTH") or "0"
        try:
            length = int(declared)
        except ValueError:
            length = -1
        if length < 0 or length > settings.REQUEST_MAX_BYTES:
            if request.path.startswith("/api/"):
                # The API answers in problem details (RFC 9457), as every API error.
                return JsonResponse(
                    {
                        "type": "about:blank",
                        "title": gettext("Request body too large"),
                        "status": 413,
                        "detail": gettext("The request body is larger than this API reads."),
                    },
                    status=413,
                    content_type="application/problem+json",
                )
            return render(request, "413.html", status=413)
        return self.get_response(request)


def _membership_of(*, user: int) -> QuerySet[Any]:
    """The membership of the user of id ``user`` with its agency, as ``first()`` asks."""
    from caseflow.accounts.models import Membership

    return Membership.objects.select_related("agency").filter(user_id=user).order_by("pk")[:1]


#: :func:`_membership_of` compiled to SQL once per process: every request of a signed-in
#: person asks it.
_MEMBERSHIP_OF: CompiledQuery[Any] | None = None


def _load_membership(user) -> None:
    """Load the user's membership with its agency in one query (the agency's time zone is read
    on every request: see :class:`AgencyTimeZoneMiddleware`), unless they came with the user:
    the session's user is loaded with them (:mod:`caseflow.accounts.backends`)."""
    global _MEMBERSHIP_OF
    from caseflow.accounts.models import Membership, User

    descriptor = User.membership  # type: ignore[attr-defined]
    if descriptor.is_cached(user):
        return
    if _MEMBERSHIP_OF is None:
        _MEMBERSHIP_OF = CompiledQuery(Membership, _membership_of, user="int")
    found = _MEMBERSHIP_OF.rows(user=user.pk)
    descriptor.related.set_cached_value(user, found[0] if found else None)


def _has_seat(user) -> bool:
    """A coalition's person (no membership) keeps their session while their seat is active."""
    seat = user.coalition_seat_or_none
    return seat is not None and seat.is_active


class ActiveMembershipMiddleware:
    """Losing access takes effect on the very next request: a deactivated user, a deactivated
    membership or a bumped session epoch ends the session now."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = request.user
        if user.is_authenticated:
            _load_membership(user)
            membership = user.membership_or_none
            epoch_ok = request.session.get("session_epoch", 0) == user.session_epoch
            member_ok = user.is_superuser or (
                membership.is_active if membership is not None else _has_seat(user)
            )
            if not (user.is_active and epoch_ok and member_ok):
                from caseflow.audit.services import record

                record("session.revoked", actor=user)
                logout(request)
        return self.get_response(request)


class ProviderRecheckMiddleware:
    """Someone who signed in at their agency's identity provider is asked about there again
    every ``OIDC_RECHECK_SECONDS``: switched off at the provider, their session ends. A provider
    that cannot be reached is given one more period before the session ends too."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        from caseflow.accounts import oidc

        user = request.user
        identity = request.session.get(oidc.IDENTITY) if user.is_authenticated else None
        if identity is not None:
            from caseflow.accounts import second_factor as sf

            now = sf.now_ts()
            checked = float(request.session.get(oidc.CHECKED_AT) or 0)
            if now - checked >= settings.OIDC_RECHECK_SECONDS:
                allowed = oidc.still_allowed(identity)
                unreachable_too_long = (
                    allowed is None and now - checked >= 2 * settings.OIDC_RECHECK_SECONDS
                )
                if allowed:
                    request.session[oidc.CHECKED_AT] = now
                elif allowed is False or unreachable_too_long:
                    from django.contrib import messages

                    from caseflow.audit.services import record

                    record("session.revoked", actor=user, detail={"reason": "provider"})
                    logout(request)
                    messages.info(
                        request,
                        gettext(
                            "Your agency's sign-in service no longer lets this account in. "
                            "You are signed out."
                        ),
                    )
        return self.get_response(request)


class AgencyTimeZoneMiddleware:
    """The one time rule: every page is read and written in the staff's agency's time zone
    (the default zone before sign-in), so times are shown and typed as staff live them."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        from caseflow.accounts import zones

        token = zones.activate(zones.user_zone(getattr(request, "user", None)))
        try:
            return self.get_response(request)
        finally:
            zones.deactivate(token)


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


class SessionTimeoutMiddleware:
    """Sessions end after ``SESSION_IDLE_SECONDS`` without a request and ``SESSION_COOKIE_AGE``
    after sign-in, whatever the cookie says: both are checked here, on the server.

    The time last seen is written back at most every ``SEEN_GRANULARITY`` seconds (or a tenth of
    the idle limit, if that is shorter), not on every
    request (a session write is a database UPDATE and commit per request). The stored time is
    then at most that much older than the last request, so a session can only end sooner than
    ``SESSION_IDLE_SECONDS`` after the last request, never later."""

    SEEN_GRANULARITY = 30

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        from caseflow.accounts import second_factor as sf

        user = request.user
        if user.is_authenticated:
            now = sf.now_ts()
            started = request.session.get(sf.AUTH_AT)
            seen = request.session.get(sf.SEEN_AT)
            reason = ""
            if started is None or seen is None:
                reason = "unknown"
            elif now - float(started) > settings.SESSION_COOKIE_AGE:
                reason = "absolute"
            elif now - float(seen) > settings.SESSION_IDLE_SECONDS:
                reason = "idle"
            if reason:
                from caseflow.audit.services import record

                record("session.expired", actor=user, detail={"reason": reason})
                logout(request)
            elif seen is not None and now - float(seen) >= min(
                self.SEEN_GRANULARITY, settings.SESSION_IDLE_SECONDS / 10
            ):
                request.session[sf.SEEN_AT] = now
        return self.get_response(request)


class SecondFactorMiddleware:
    """No page beyond the second-factor pages themselves is served to a user who has not
    verified a second factor in this session: they are sent to enrol one (first sign-in) or to
    enter a code. This covers every case, audit and operator (admin) URL."""

    OPEN_VIEWS = frozenset(
        {
            "accounts:login",
            "accounts:logout",
            "accounts:second_factor",
            "accounts:enrol",
            "accounts:enrol_qr",
            "accounts:link",
            "health",
        }
    )

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        from caseflow.accounts import second_factor as sf

        if request.user.is_authenticated and not sf.second_factor_done(request):
            try:
                view_name = resolve(request.path_info).view_name
            except Resolver404:
                view_name = ""
            if view_name not in self.OPEN_VIEWS:
                target = (
                    "accounts:second_factor" if sf.has_device(request.user) else "accounts:enrol"
                )
                url = reverse(target)
                if request.method == "GET":
                    url += "?" + urlencode({"next": request.get_full_path()})
                return HttpResponseRedirect(url)
        return self.get_response(request)


class ErrorPageMiddleware:
    """Give every page-less error answer caseflow's error page, in the reader's language.

    Django and the views answer some refusals with an empty body (405 from
    ``require_http_methods``, a bare ``HttpResponseBadRequest``, 410): a blank white page in a
    browser. An empty 4xx or 5xx HTML answer outside the API is replaced by caseflow's page for
    its status (:func:`caseflow.errors.render_error`), keeping its headers (``Allow`` on a 405).
    It sits after the language middleware, so the page is in the reader's language; answers that
    carry their own page (a form's errors, the 404 and 403 handlers) are left as they are."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            400 <= response.status_code < 600
            and not getattr(response, "streaming", False)
            and not response.content
            and not request.path.startswith("/api/")
            and response.get("Content-Type", "").startswith("text/html")
        ):
            page = render_error(request, response.status_code)
            for header, value in response.items():
                if header.lower() not in {"content-type", "content-length"}:
                    page[header] = value
            return page
        return response
