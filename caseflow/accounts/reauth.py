"""Re-authentication before the most sensitive actions (break-glass, role changes, exports,
purges): the user must have given their password and second factor within the last
``RECENT_AUTH_MINUTES``.

    @login_required
    @require_recent_auth
    def export(request): ...

    @require_recent_auth(methods=("POST",))   # only the write needs it
    def staff_edit(request, user_id): ...
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import wraps
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse

from caseflow.accounts.second_factor import recently_authenticated


def reauth_redirect(request: HttpRequest) -> HttpResponse:
    messages.info(
        request,
        "For this action, confirm it is you: enter your password and a code again."
        + (" Then send the form again." if request.method == "POST" else ""),
    )
    query = urlencode({"next": request.get_full_path()})
    return HttpResponseRedirect(f"{reverse('accounts:reauth')}?{query}")


def require_recent_auth(
    view: Callable | None = None, *, methods: Iterable[str] | None = None
) -> Callable:
    """Send the user to confirm their password and second factor first, unless they did so
    within the last ``RECENT_AUTH_MINUTES``. Put it below ``login_required``. ``methods``
    limits the check to some HTTP methods (default: every method)."""
    guarded = {m.upper() for m in methods} if methods else None

    def decorate(func: Callable) -> Callable:
        @wraps(func)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            needs = guarded is None or request.method in guarded
            if needs and request.user.is_authenticated and not recently_authenticated(request):
                return reauth_redirect(request)
            return func(request, *args, **kwargs)

        # Read by the authorization matrix: each guarded URL's row names the guarded methods.
        wrapper.recent_auth_methods = (  # type: ignore[attr-defined]
            frozenset(guarded) if guarded is not None else frozenset({"GET", "POST"})
        )
        return wrapper

    return decorate(view) if view is not None else decorate
