"""Where an auditor starts: what waits for them in their agency's audit trail, counted, each with
the page where it is looked at (the auditor's home page, which used to be one sentence).

Counts only, in the auditor's own audit scope (``policy.auditable_events`` and
``policy.audit_cases``: a restricted case outside their access list is not counted): no case
content, no names.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils import timezone

from caseflow import policy
from caseflow.accounts import zones
from caseflow.cases.models import BreakGlassGrant
from caseflow.inbox.models import Notification
from caseflow.lib.i18n import gettext_lazy as _

#: The notifications that are audit alerts: an emergency access opened, an unusual access.
ALERT_KINDS = ("break_glass", "unusual_access")

#: How far back "this week" looks.
RECENT_DAYS = 7


@dataclass(frozen=True)
class Start:
    key: str
    title: str
    count: int
    link: str
    action: str


def where_to_start(user: Any) -> list[Start]:
    """The auditor's starting points, in the order shown: emergency access to review, unread
    alerts, this week's sign-in and security events, and this week's trail."""
    since_day = timezone.localdate(timezone.now(), zones.current()) - dt.timedelta(
        days=RECENT_DAYS - 1
    )
    since = dt.datetime.combine(since_day, dt.time.min, tzinfo=zones.current())
    events = policy.auditable_events(user).filter(at__gte=since)
    events_url = reverse("audit:events")
    week = {"date_from": since_day.isoformat()}
    return [
        Start(
            "break_glass",
            _("Emergency access to review"),
            BreakGlassGrant.objects.filter(
                case__in=policy.audit_cases(user), reviewed_at__isnull=True
            ).count(),
            reverse("audit:break_glass"),
            _("Review emergency access"),
        ),
        Start(
            "alerts",
            _("Alerts you have not read"),
            Notification.objects.filter(
                recipient=user, kind__in=ALERT_KINDS, read_at__isnull=True
            ).count(),
            events_url,
            _("See the alerts"),
        ),
        Start(
            "security",
            _("Sign-in and security events in the last 7 days"),
            events.filter(action__startswith="security.").count(),
            f"{events_url}?{urlencode({**week, 'action': 'security.'})}",
            _("See them"),
        ),
        Start(
            "week",
            _("Everything recorded in the last 7 days"),
            events.count(),
            f"{events_url}?{urlencode(week)}",
            _("Read the trail"),
        ),
    ]
