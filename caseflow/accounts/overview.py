"""How an agency's settings stand, for its settings page and its admin's home page."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from caseflow.accounts import language, zones
from caseflow.accounts.models import Agency, IdentityProvider, Team, User


def settings_overview(agency: Agency) -> dict[str, Any]:
    """Each setting of ``agency`` with how it stands now, where that is cheap to say."""
    chosen = language.agency_language(agency.pk)
    return {
        "agency": agency,
        "active_staff": User.objects.filter(
            membership__agency=agency, is_active=True, membership__is_active=True
        ).count(),
        "team_count": Team.objects.filter(agency=agency).count(),
        "language_name": dict(settings.LANGUAGES).get(chosen, chosen),
        "has_provider": IdentityProvider.objects.filter(agency=agency, enabled=True).exists(),
        "zone_name": zones.agency_zone(agency).key if agency.time_zone else "",
    }
