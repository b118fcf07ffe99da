from django.conf import settings
from django.http import HttpRequest

from caseflow import policy


def caseflow(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    role = policy.active_role(user) if user is not None else None
    return {
        "nav_role": role,
        "nav_casework": role in policy.CASEWORK_ROLES,
        "nav_admin": role == "agency_admin",
        "demo_mode": getattr(settings, "DEMO_MODE", False),
        "session_idle_seconds": settings.SESSION_IDLE_SECONDS,
    }
