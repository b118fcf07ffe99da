from django.conf import settings
from django.http import HttpRequest

from caseflow import policy
from caseflow.accounts import zones


def caseflow(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    return {
        # The menu is computed from policy: one place decides where each role may go.
        "nav_items": policy.navigation(user) if user is not None else [],
        "nav_casework": user is not None and policy.does_casework(user),
        "demo_mode": getattr(settings, "DEMO_MODE", False),
        "session_idle_seconds": settings.SESSION_IDLE_SECONDS,
        # Where staff work: the zone their pages' times are shown in.
        "staff_zone": zones.current().key,
    }
