from django.conf import settings
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from caseflow import policy
from caseflow.accounts import zones
from caseflow.lib.i18n import says_idva


def caseflow(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    return {
        # The agency calls its advocates IDVAs (read only by pages that name the role).
        "idva": SimpleLazyObject(says_idva),
        # The menu is computed from policy: one place decides where each role may go.
        "nav_items": policy.navigation(user) if user is not None else [],
        "nav_casework": user is not None and policy.does_casework(user),
        "demo_mode": getattr(settings, "DEMO_MODE", False),
        "session_idle_seconds": settings.SESSION_IDLE_SECONDS,
        # Where staff work: the zone their pages' times are shown in.
        "staff_zone": zones.current().key,
    }
