"""Who is calling: an integration's key (``Authorization: Bearer cf_...``), checked on every
call, so revoking or expiry ends access at the next one; its address allow-list; its rate.

The rate limit counts per integration and minute through :func:`caseflow.lib.softcache.count`:
in the shared cache while it answers, and in each process while it does not. So a Redis outage
never stops an integration (nothing in a request depends on Redis) and never lifts the limit
either: at worst it is kept per process. A counter row in the database would be exact, but it
would put a write, and a lock every call of one integration waits on, in front of every call.
"""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.permissions import BasePermission
from rest_framework.throttling import BaseThrottle

from caseflow import policy
from caseflow.api import keys
from caseflow.api.middleware import note_refusal
from caseflow.api.models import Integration
from caseflow.lib import softcache
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.lib.request_context import client_ip

#: last_used_at is written at most this often (not one UPDATE per call).
_TOUCH_SECONDS = 60


class IntegrationKeyAuthentication(BaseAuthentication):
    def authenticate(self, request: Any) -> tuple[Any, Integration] | None:
        header = get_authorization_header(request).decode("latin-1")
        if not header:
            return None
        scheme, _sep, key = header.partition(" ")
        if scheme.lower() != "bearer":
            return None
        integration, known = self._integration(key.strip())
        if integration is None:
            if known is not None:
                note_refusal(request, known, "revoked_or_expired")
            # Unknown, revoked and expired keys get one answer.
            raise exceptions.AuthenticationFailed(
                _("The key is not valid, or it has been revoked or has expired.")
            )
        if not integration.allows_address(client_ip(request)):
            note_refusal(request, integration, "address")
            raise exceptions.PermissionDenied(_("This integration may not call from this address."))
        now = timezone.now()
        if integration.last_used_at is None or integration.last_used_at < now - dt.timedelta(
            seconds=_TOUCH_SECONDS
        ):
            Integration.objects.filter(pk=integration.pk).update(last_used_at=now)
        return integration.account, integration

    def _integration(self, key: str) -> tuple[Integration | None, Integration | None]:
        """``(usable integration, None)``; ``(None, integration)`` for the right key of one
        revoked or expired; ``(None, None)`` for a key that matches nothing."""
        prefix = keys.parse(key)
        if prefix is None:
            return None, None
        found = (
            Integration.objects.select_related("account", "agency", "team")
            .filter(key_prefix=prefix)
            .first()
        )
        if found is None or not keys.matches(key, found.key_hash):
            return None, None
        if not found.is_usable() or not found.account.is_active:
            return None, found
        return found, None

    def authenticate_header(self, request: Any) -> str:
        return 'Bearer realm="caseflow"'


class IsIntegration(BasePermission):
    """A usable integration holding the view's ``required_scope``."""

    message = _("This integration does not have the scope this call needs.")

    def has_permission(self, request: Any, view: Any) -> bool:
        integration = request.auth
        if not isinstance(integration, Integration):
            raise exceptions.NotAuthenticated(_("Send the integration's key."))
        scope = getattr(view, "required_scope", None)
        allowed = scope is not None and policy.integration_may(integration, scope)
        if not allowed:
            note_refusal(request, integration, "scope")
        return allowed


class IntegrationRateThrottle(BaseThrottle):
    def allow_request(self, request: Any, view: Any) -> bool:
        integration = request.auth
        if not isinstance(integration, Integration):
            return True
        minute = int(time.time() // 60)
        self.reset_in = 60 - int(time.time() % 60)
        used = softcache.count(f"caseflow:api-rate:{integration.pk}:{minute}", timeout=120)
        if used == integration.rate_per_minute + 1:
            # The first call over the rate in a minute is recorded; the rest of the burst is not.
            note_refusal(request, integration, "rate")
        return used <= integration.rate_per_minute

    def wait(self) -> float:
        return float(getattr(self, "reset_in", 60))
